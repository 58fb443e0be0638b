"""The LaTeX that readinglist's BibTeX may hold: the math and text commands a plain
``\\documentclass{article}`` defines, the accents its OT1 fonts typeset, and the characters whose
spelling readinglist chooses itself (text mode, math mode). Tables only: text/bibtex.py renders
with them, and tests/text/test_text.py typesets every command listed here."""

from __future__ import annotations

#: Math-mode control words that a plain ``\documentclass{article}`` defines (LaTeX kernel and
#: fontmath.ltx); the text tests typeset every one of them.
MATH_COMMANDS = frozenset(
    """
    alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi
    pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta
    Lambda Xi Pi Sigma Upsilon Phi Psi Omega
    aleph hbar imath jmath ell wp Re Im partial infty prime emptyset nabla surd top bot angle
    triangle forall exists neg lnot flat natural sharp clubsuit diamondsuit heartsuit spadesuit
    backslash
    sum prod coprod int oint bigcap bigcup bigsqcup bigvee bigwedge bigodot bigotimes bigoplus
    biguplus
    pm mp setminus cdot times ast star diamond circ bullet div cap cup uplus sqcap sqcup vee wedge
    wr amalg oplus ominus otimes oslash odot bigcirc dagger ddagger bigtriangleup bigtriangledown
    triangleleft triangleright
    leq le geq ge equiv prec succ sim preceq succeq simeq ll gg asymp subset supset approx
    subseteq supseteq cong sqsubseteq sqsupseteq doteq in ni propto vdash dashv
    models smile mid frown parallel perp neq ne notin not bowtie
    leftarrow gets Leftarrow rightarrow to Rightarrow leftrightarrow Leftrightarrow mapsto
    hookleftarrow leftharpoonup leftharpoondown rightleftharpoons longleftarrow Longleftarrow
    longrightarrow Longrightarrow longleftrightarrow Longleftrightarrow longmapsto hookrightarrow
    rightharpoonup rightharpoondown uparrow Uparrow downarrow Downarrow updownarrow
    Updownarrow nearrow searrow swarrow nwarrow iff
    lbrace rbrace langle rangle lfloor rfloor lceil rceil vert Vert
    ldots cdots vdots ddots dots colon
    arccos arcsin arctan arg cos cosh cot coth csc deg det dim exp gcd hom inf ker lg lim liminf
    limsup ln log max min Pr sec sin sinh sup tan tanh bmod mathsection mathparagraph
    quad qquad displaystyle textstyle scriptstyle scriptscriptstyle
    """.split()
)
#: Math commands taking braced arguments (name -> number of arguments).
MATH_ARG_COMMANDS = {
    "frac": 2, "sqrt": 1, "stackrel": 2, "overline": 1, "underline": 1, "overbrace": 1,
    "underbrace": 1, "hat": 1, "widehat": 1, "tilde": 1, "widetilde": 1, "bar": 1, "vec": 1,
    "dot": 1, "ddot": 1, "acute": 1, "grave": 1, "breve": 1, "check": 1, "mathrm": 1, "mathbf": 1,
    "mathit": 1, "mathsf": 1, "mathtt": 1, "mathcal": 1, "mathnormal": 1, "pmod": 1,
}
#: Math commands from amsmath/amssymb and friends, rewritten to kernel ones.
MATH_REWRITE = {
    "mathbb": "mathbf", "boldsymbol": "mathbf", "bm": "mathbf", "mathbfit": "mathbf",
    "mathscr": "mathcal", "mathfrak": "mathrm", "operatorname": "mathrm", "textup": "mathrm",
    "tfrac": "frac", "dfrac": "frac", "cfrac": "frac", "leqslant": "leq", "geqslant": "geq",
    "varnothing": "emptyset", "intercal": "top", "implies": "Longrightarrow",
    "impliedby": "Longleftarrow", "lvert": "vert", "rvert": "vert", "lVert": "Vert",
    "rVert": "Vert", "vartriangle": "triangle", "dotsc": "ldots", "dotsb": "cdots",
    "dotsm": "cdots", "dotsi": "cdots", "dotso": "ldots", "widebar": "overline",
    "overrightarrow": "vec", "lessapprox": "lesssim", "gtrapprox": "gtrsim", "coloneqq": ":=",
    "eqqcolon": "=:", "le": "leq", "ge": "geq", "lor": "vee", "land": "wedge",
}
#: Rewrites that are not a single command.
MATH_SPECIAL = {
    "lesssim": r"\stackrel{<}{\sim}", "gtrsim": r"\stackrel{>}{\sim}",
    "triangleq": r"\stackrel{\triangle}{=}", ":=": ":=", "=:": "=:",
}
#: Math commands dropped with nothing in their place (sizing, spacing that needs amsmath, ...).
MATH_DROP = frozenset(
    "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr label "
    "nonumber notag limits nolimits displaystyle tag".split()
)
#: Text-mode commands (of a plain article, OT1-safe) that ``to_bibtex`` may emit or keep. Symbols
#: that LaTeX takes from the OMS/OML fonts (``\\textbullet``, ``\\S``, ``\\textbackslash``, ...)
#: are written in math instead: those fonts have no typewriter shape.
TEXT_COMMANDS = frozenset(
    """
    textendash textemdash textquoteleft textquoteright textquotedblleft textquotedblright
    textexclamdown textquestiondown ss i j o O ae AE oe OE aa AA l L ldots dots LaTeX TeX
    """.split()
)
#: Accent commands of OT1 (``\\k`` is T1-only and is not here).
ACCENTS_OT1 = frozenset("' ` ^ \" ~ = . u v H c d b t r".split())
#: Text-formatting commands kept as they are (base LaTeX); ``\\text``/``\\mbox`` lose the command.
FMT_KEEP = {
    "emph": "emph", "textit": "textit", "textbf": "textbf", "textsc": "textsc",
    "texttt": "texttt", "textsf": "textsf", "textrm": "textrm", "textsl": "textsl",
    "textup": "textup", "textmd": "textmd", "textnormal": "textnormal", "underline": "underline",
    "uline": "underline",
}

#: Characters whose LaTeX we choose ourselves: (text mode, math mode).
CHAR_LATEX: dict[str, tuple[str, str]] = {
    "\u2018": ("`", "`"), "\u2019": ("'", "'"), "\u201a": (",", ","), "\u201b": ("`", "`"),
    "\u201c": ("``", "``"), "\u201d": ("''", "''"), "\u201e": (",,", ",,"),
    "\u00ab": ("``", "\\ll"), "\u00bb": ("''", "\\gg"), "\u2039": ("`", "<"), "\u203a": ("'", ">"),
    "\u2010": ("-", "-"), "\u2011": ("-", "-"), "\u2012": ("--", "-"), "\u2013": ("--", "-"),
    "\u2014": ("---", "-"), "\u2015": ("---", "-"), "\u2212": ("$-$", "-"),
    "\u2026": ("\\ldots{}", "\\ldots "), "\u22ef": ("$\\cdots$", "\\cdots "),
    "\u00d7": ("$\\times$", "\\times "), "\u00f7": ("$\\div$", "\\div "),
    "\u00b1": ("$\\pm$", "\\pm "), "\u2213": ("$\\mp$", "\\mp "), "\u00b7": ("$\\cdot$", "\\cdot "),
    "\u22c5": ("$\\cdot$", "\\cdot "), "\u2022": ("$\\bullet$", "\\bullet "),
    "\u00b0": ("$^{\\circ}$", "^{\\circ}"), "\u2032": ("$'$", "'"), "\u2033": ("$''$", "''"),
    "\u00ac": ("$\\neg$", "\\neg "), "\u00b5": ("$\\mu$", "\\mu "), "\u2113": ("$\\ell$", "\\ell "),
    "\u2020": ("$\\dagger$", "\\dagger "), "\u2021": ("$\\ddagger$", "\\ddagger "),
    "\u00a7": ("$\\mathsection$", "\\mathsection "), "\u00b6": ("$\\mathparagraph$", "\\mathparagraph "),
    "\u00a9": ("(c)", "(c)"), "\u00ae": ("(R)", "(R)"),
    "\u2122": ("\\textsuperscript{TM}", "^{\\mathrm{TM}}"), "\u00a3": ("GBP", "\\mbox{GBP}"),
    "\u20ac": ("EUR", "\\mbox{EUR}"), "\u00a5": ("JPY", "\\mbox{JPY}"), "\u00a2": ("c", "c"),
    "\u00a0": ("~", "~"), "\u2009": ("\\,", "\\,"), "\u202f": ("\\,", "\\,"),
    "\u2248": ("$\\approx$", "\\approx "), "\u223c": ("$\\sim$", "\\sim "),
    "\u2272": ("$\\stackrel{<}{\\sim}$", "\\stackrel{<}{\\sim}"),
    "\u2273": ("$\\stackrel{>}{\\sim}$", "\\stackrel{>}{\\sim}"),
    "\u2192": ("$\\rightarrow$", "\\rightarrow "), "\u2190": ("$\\leftarrow$", "\\leftarrow "),
    "\u2194": ("$\\leftrightarrow$", "\\leftrightarrow "), "\u21d2": ("$\\Rightarrow$", "\\Rightarrow "),
    "\u2191": ("$\\uparrow$", "\\uparrow "), "\u2193": ("$\\downarrow$", "\\downarrow "),
    "\u221e": ("$\\infty$", "\\infty "), "\u2264": ("$\\leq$", "\\leq "), "\u2265": ("$\\geq$", "\\geq "),
    "\u2260": ("$\\neq$", "\\neq "), "\u2211": ("$\\sum$", "\\sum "), "\u220f": ("$\\prod$", "\\prod "),
    "\u221a": ("$\\surd$", "\\surd "), "\u2208": ("$\\in$", "\\in "), "\u2209": ("$\\notin$", "\\notin "),
    "\u2205": ("$\\emptyset$", "\\emptyset "), "\u2200": ("$\\forall$", "\\forall "),
    "\u2203": ("$\\exists$", "\\exists "), "\u2202": ("$\\partial$", "\\partial "),
    "\u2207": ("$\\nabla$", "\\nabla "), "\u211d": ("$\\mathbf{R}$", "\\mathbf{R}"),
    "\u2115": ("$\\mathbf{N}$", "\\mathbf{N}"), "\u2124": ("$\\mathbf{Z}$", "\\mathbf{Z}"),
    "\u211a": ("$\\mathbf{Q}$", "\\mathbf{Q}"), "\u2102": ("$\\mathbf{C}$", "\\mathbf{C}"),
    "\u03f5": ("$\\epsilon$", "\\epsilon "), "\u03d5": ("$\\phi$", "\\phi "),
    "\u03b5": ("$\\varepsilon$", "\\varepsilon "), "\u03c6": ("$\\varphi$", "\\varphi "),
    "\u00bd": ("$\\frac{1}{2}$", "\\frac{1}{2}"), "\u00bc": ("$\\frac{1}{4}$", "\\frac{1}{4}"),
    "\u00be": ("$\\frac{3}{4}$", "\\frac{3}{4}"),
}
for _sup, _plain in zip("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b\u207c\u207d\u207e\u207f\u2071",
                        "0123456789+-=()ni"):
    CHAR_LATEX[_sup] = (f"$^{{{_plain}}}$", f"^{{{_plain}}}")
for _sub, _plain in zip("\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089\u208a\u208b\u208c\u208d\u208e",
                        "0123456789+-=()"):
    CHAR_LATEX[_sub] = (f"$_{{{_plain}}}$", f"_{{{_plain}}}")
