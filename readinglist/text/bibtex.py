"""Unicode/LaTeX text -> pure-ASCII LaTeX that survives BibTeX/biber and pdflatex."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .plain import COMBINING, latex_plain, macro_plain, ascii_fold, to_plain
from .tokens import CODE, EMPH, ESC, FMT, GROUP, MATH, QUOTE, TEXT, BRACE_SCAN, NAME, match_brace, normalize_space, tokenize

# ---------------------------------------------------------------------------------------------
# BibTeX / LaTeX
#
# Target: a field value that BibTeX, biber and pdflatex with ``\documentclass{article}`` and its
# default OT1 fonts all accept. So: pure ASCII, balanced braces, no TS1 (textcomp) symbols, no
# amsmath, ``<``, ``>`` and ``|`` only in math (OT1 text renders them as ¡, ¿ and an em dash).

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
_MATH_REWRITE = {
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
_MATH_SPECIAL = {
    "lesssim": r"\stackrel{<}{\sim}", "gtrsim": r"\stackrel{>}{\sim}",
    "triangleq": r"\stackrel{\triangle}{=}", ":=": ":=", "=:": "=:",
}
#: Math commands dropped with nothing in their place (sizing, spacing that needs amsmath, ...).
_MATH_DROP = frozenset(
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
_ACCENTS_OT1 = frozenset("' ` ^ \" ~ = . u v H c d b t r".split())
#: Text-formatting commands kept as they are (base LaTeX); ``\\text``/``\\mbox`` lose the command.
_FMT_KEEP = {
    "emph": "emph", "textit": "textit", "textbf": "textbf", "textsc": "textsc",
    "texttt": "texttt", "textsf": "textsf", "textrm": "textrm", "textsl": "textsl",
    "textup": "textup", "textmd": "textmd", "textnormal": "textnormal", "underline": "underline",
    "uline": "underline",
}

#: Characters whose LaTeX we choose ourselves: (text mode, math mode).
_CHAR_LATEX: dict[str, tuple[str, str]] = {
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
    _CHAR_LATEX[_sup] = (f"$^{{{_plain}}}$", f"^{{{_plain}}}")
for _sub, _plain in zip("\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089\u208a\u208b\u208c\u208d\u208e",
                        "0123456789+-=()"):
    _CHAR_LATEX[_sub] = (f"$_{{{_plain}}}$", f"_{{{_plain}}}")


def _special_chars(chars: str) -> re.Pattern:
    """A pattern matching one character of ``chars`` (printable ASCII), a control character other
    than tab and the newlines, or any non-ASCII character; written as the class of every other
    character: a class running up to U+10FFFF is far slower to compile than its complement
    (tests/text/test_text.py checks both match the same characters)."""
    safe = "".join(c for c in map(chr, range(0x20, 0x7F)) if c not in chars)
    return re.compile("[^\t\n\r" + "".join("\\" + c if c in "[]\\^-" else c for c in safe) + "]")


_ADJACENT_MATH = re.compile(r"(?<!\\)\$\$")
_ACCENT_CMD = re.compile(r"\\[^A-Za-z{}\\]|\\[cvuHrdbtk](?![A-Za-z])")
_EMPTY_ACCENT = re.compile(r"\\[^A-Za-z]\{\}|\\[A-Za-z]\{\}$")
_CMD_NAMES = re.compile(r"\\([A-Za-z]+|.)")
_ENSUREMATH = re.compile(r"^\\ensuremath\{(.*)\}$", re.S)
_TEXT_ESCAPES = {
    "\\": "$\\backslash$", "{": "$\\lbrace$", "}": "$\\rbrace$", "%": "\\%", "&": "\\&",
    "#": "\\#", "_": "\\_", "$": "\\$", "^": "\\textasciicircum{}", "~": "$\\sim$", "<": "$<$", ">": "$>$",
    "|": "$|$",
}
_TEXT_SPECIAL = _special_chars('\\{}%&#_$^~<>|"')


def _names_ok(latex: str, allowed: frozenset) -> bool:
    return all(n in allowed or n in _ACCENTS_OT1 or n in "{}" for n in _CMD_NAMES.findall(latex))


@lru_cache(maxsize=4096)
def _char_latex(ch: str, math: bool) -> str | None:
    """Safe LaTeX for one non-ASCII character in text or math mode, or None (cached)."""
    mine = _CHAR_LATEX.get(ch)
    if mine is not None:
        return mine[1] if math else mine[0]
    if unicodedata.category(ch) == "Mn":  # a combining mark on its own
        return ""
    from pylatexenc.latexencode import unicode_to_latex

    try:
        latex = unicode_to_latex(ch, non_ascii_only=True, unknown_char_policy="keep", unknown_char_warning=False)
    except Exception:
        return None
    m = _ENSUREMATH.match(latex)
    if m and latex.isascii() and _names_ok(m.group(1), MATH_COMMANDS):
        inner = m.group(1)
        if _ENDS_CONTROL_WORD.search(inner):
            inner += " "
        return inner if math else "$" + inner.strip() + "$"
    if _ACCENT_CMD.search(latex):
        # biber decodes accents back to Unicode and LaTeX must know the result: keep the accent
        # only for precomposed Latin letters (U+00C0-U+017F) made of an ASCII letter + one mark
        nfd = unicodedata.normalize("NFD", ch)
        if not ("\u00c0" <= ch <= "\u017f" and len(nfd) == 2 and nfd[0].isascii() and nfd[0].isalpha()):
            latex = ""
        latex = latex.replace("\\i}", "i}").replace("\\i", "i")  # \`\i -> \`i (biber: ì, not ı̀)
    if latex and not m and latex != ch and latex.isascii() and _names_ok(latex, TEXT_COMMANDS) and not _EMPTY_ACCENT.search(latex):
        if not (latex.startswith("{") and latex.endswith("}")):
            latex = "{" + latex + "}"
        return "\\mbox{" + latex + "}" if math else latex
    # an accented letter with no LaTeX of its own (Greek with tonos, ...): its base letter
    base = COMBINING.sub("", unicodedata.normalize("NFD", ch))
    if base and base != ch and len(base) == 1:
        return base if base.isascii() else _char_latex(base, math)
    return None


@lru_cache(maxsize=4096)
def _char_bibtex(ch: str, math: bool) -> str:
    """LaTeX for one non-ASCII character: :func:`_char_latex`, else its ASCII transliteration,
    else ``?``."""
    latex = _char_latex(ch, math)
    if latex is not None:
        return latex
    folded = ascii_fold(unicodedata.normalize("NFC", ch)).strip() or "?"
    return _escape_math(folded) if math else _escape_text(folded)


def _escape_text(s: str) -> str:
    """Escape a plain text run for LaTeX text mode (ASCII output)."""
    return _TEXT_SPECIAL.sub(_text_sub, s)


def _text_sub(m: re.Match) -> str:
    c = m.group()
    if c > "\x7f":
        return _char_bibtex(c, False)
    if c == '"':
        # a straight double quote opens after a space or bracket, closes otherwise
        i = m.start()
        before = m.string[i - 1] if i else " "
        return "``" if before.isspace() or before in "([{" else "''"
    esc = _TEXT_ESCAPES.get(c)
    return "" if esc is None else esc


_MATH_TEXT_ARG = {
    "text": None, "textrm": None, "mbox": None, "textnormal": None, "textup": None,
    "textit": "textit", "textbf": "textbf", "emph": "emph", "texttt": "texttt", "textsf": "textsf",
}
_SPACE_AFTER_WORD = re.compile(r"(\\[A-Za-z]+) (?=[_^{}])")
_ENDS_CONTROL_WORD = re.compile(r"\\[A-Za-z]+$")
_MATH_ESCAPES = {
    "{": "\\lbrace ", "}": "\\rbrace ", "\\": "\\backslash ", "%": "\\%", "&": "\\&", "#": "\\#",
    "$": "\\$", "^": "\\hat{}", "_": "\\_",
}


def _escape_math(s: str) -> str:
    """Escape ASCII text for math mode."""
    return "".join(_MATH_ESCAPES.get(c, c) for c in s if c >= " " and c != "\x7f")


def _brace_pairs(s: str) -> set:
    """Positions of the ``{``/``}`` in ``s`` that pair up (escaped ones skipped)."""
    paired: set = set()
    stack: list = []
    for m in BRACE_SCAN.finditer(s):
        c = m.group()
        if c == "{":
            stack.append(m.start())
        elif c == "}" and stack:
            paired.add(stack.pop())
            paired.add(m.start())
    return paired


class _MathFrame:
    """What a brace level of a math span still waits for."""

    __slots__ = ("owed", "last_script", "want_script", "synthetic")

    def __init__(self, synthetic: bool = False) -> None:
        self.owed = 0  # braced arguments the last command still expects
        self.last_script = ""  # the scripts ("^", "_", "^_") the current nucleus already has
        self.want_script = ""  # "^"/"_" right after the operator, before its argument
        self.synthetic = synthetic  # braces we added around a script argument


def _unknown_math_command(name: str) -> str:
    """A kernel-safe stand-in for a math command a plain article does not know."""
    plain = latex_plain("$\\" + name + "$").strip()
    if plain and plain != "\\" + name:
        pieces = []
        for ch in plain:
            if ch.isascii():
                pieces.append(_escape_math(ch))
                continue
            latex = _char_latex(ch, True)
            if latex is None:
                break
            pieces.append(latex)
        else:
            return "".join(pieces)
    return "\\mathrm{" + name + "}"


@lru_cache(maxsize=4096)
def _math_bibtex(latex: str) -> str:
    """The body of a math span made safe for a plain article (without the ``$`` around it).

    Commands outside :data:`MATH_COMMANDS` are rewritten or replaced, stray braces become
    ``\\lbrace``/``\\rbrace``, missing arguments (``x^``, ``\\frac{a}``) get ``{}``, double
    scripts (``x^2^3``) are split, ``\\left``/``\\right``/``\\big`` sizing is dropped."""
    if not latex.isascii():
        # characters become their LaTeX first, so ² (^{2}) is seen as a script like any other
        latex = "".join(ch if ch.isascii() else " " + _char_bibtex(ch, True) + " " for ch in latex)
    paired = _brace_pairs(latex)
    out: list[str] = []
    stack: list[_MathFrame] = []
    f = _MathFrame()

    def atom(text: str) -> None:
        nonlocal f
        if text[:1].isalpha() and out and _ENDS_CONTROL_WORD.search(out[-1]):
            out.append(" ")
        out.append(text)
        if f.owed:  # an argument of the previous command
            f.owed -= 1
            if f.owed:
                return
            # the command with all its arguments is complete: one atom
        if f.synthetic:  # the script argument is complete: close the braces we opened
            out.append("}")
            f = stack.pop()
            atom("")
            return
        if f.want_script:
            f.last_script, f.want_script = f.last_script + f.want_script, ""
        else:
            f.last_script = ""

    def script(op: str) -> None:
        nonlocal f
        if f.want_script:  # x^_ : the first script gets an empty argument
            out.append("{}")
            f.last_script, f.want_script = f.last_script + f.want_script, ""
        if op in f.last_script:  # x^2^3 is a LaTeX error: x^2{}^3
            out.append("{}")
            f.last_script = ""
        out.append(op)
        f.want_script = op
        # a script argument must be one character or a group: brace anything else (x^\mbox{..})
        p = pos
        while p < n and latex[p] == " ":
            p += 1
        nxt = latex[p] if p < n else ""
        if nxt and not (nxt.isascii() and nxt.isalnum()) and not (nxt == "{" and p in paired):
            if nxt == "}" and p in paired:
                return  # settled with {} when the group closes
            out.append("{")
            stack.append(f)
            f = _MathFrame(synthetic=True)

    def prime() -> None:
        # a prime is a superscript: x^2' and x' ' (primes apart) are double superscripts
        if f.want_script:
            out.append("{}")
            f.last_script, f.want_script = f.last_script + f.want_script, ""
        if "^" in f.last_script and out[-1] != "'":
            out.append("{}")
            f.last_script = ""
        out.append("'")
        f.last_script += "^"
        if f.owed:
            f.owed -= 1

    def settle() -> None:
        nonlocal f
        while True:
            if f.want_script:
                out.append("{}")
                f.want_script = ""
            if f.owed:
                out.append("{}" * f.owed)
                f.owed = 0
            if not f.synthetic:
                return
            out.append("}")
            f = stack.pop()
            f.last_script, f.want_script = f.last_script + f.want_script, ""

    pos, n = 0, len(latex)
    while pos < n:
        ch = latex[pos]
        pos += 1
        if ch.isspace():
            out.append(" ")
        elif ch == "\\":
            m = NAME.match(latex, pos)
            if m is None:
                if pos >= n:
                    break
                c = latex[pos]
                pos += 1
                if c in "%&#_$,;:! ":
                    atom("\\" + c)
                elif c in "{}":
                    atom(_MATH_ESCAPES[c])
                elif c == "|":
                    atom("\\Vert ")
                elif c in "\\()[]\n\t":
                    out.append(" ")
                elif c == "'":
                    prime()
                elif c.isascii():
                    atom(_escape_math(c))
                else:
                    atom(_char_bibtex(c, True))
                continue
            name = m.group()
            pos = m.end()
            if name in _MATH_DROP:
                if latex.startswith(".", pos):
                    pos += 1  # \left. and \right.
                continue
            name = _MATH_REWRITE.get(name, name)
            if name in _MATH_SPECIAL:
                atom(_MATH_SPECIAL[name])
            elif name in _MATH_TEXT_ARG:
                p = pos
                while p < n and latex[p] == " ":
                    p += 1
                if p < n and latex[p] == "{" and p in paired:
                    close = match_brace(latex, p, n)
                    inner = latex[p + 1 : close]
                    pos = close + 1
                    cmd = _MATH_TEXT_ARG[name]
                    if cmd is None and re.fullmatch(r"[A-Za-z0-9]+", inner):
                        atom("\\mathrm{" + inner + "}")
                    else:
                        atom("\\" + (cmd or "mbox") + "{" + _render_bibtex(tokenize(inner)) + "}")
                # without a braced argument the command is dropped
            elif name in MATH_ARG_COMMANDS:
                if out and _ENDS_CONTROL_WORD.search(out[-1]):
                    out.append(" ")
                out.append("\\" + name)  # an atom once its arguments are there
                f.owed = MATH_ARG_COMMANDS[name]
            elif name in MATH_COMMANDS:
                atom("\\" + name)
            else:
                atom(_unknown_math_command(name))
        elif ch == "{":
            if pos - 1 in paired:
                out.append("{")
                stack.append(f)
                f = _MathFrame()
            else:
                atom("\\lbrace ")
        elif ch == "}":
            if pos - 1 in paired and stack:
                settle()
                out.append("}")
                f = stack.pop()
                f.last_script = ""
                atom("")
            else:
                atom("\\rbrace ")
        elif ch == "^" or ch == "_":
            script(ch)
        elif ch == "'":
            prime()
        elif ch in "%&#$":
            atom("\\" + ch)
        elif ch > "\x7f":
            atom(_char_bibtex(ch, True))
        elif ch >= " " and ch != "\x7f":
            atom(ch)
    settle()
    while stack:  # cannot happen with paired braces, but never leave a group open
        out.append("}")
        f = stack.pop()
        settle()
    body = " ".join("".join(out).split())
    return _SPACE_AFTER_WORD.sub(r"\1", body) if " " in body else body


def _render_bibtex(tokens) -> str:
    parts: list[str] = []
    _bibtex_into(tokens, parts)
    return "".join(parts)


def _bibtex_into(tokens, parts: list) -> None:
    for t in tokens:
        kind = t[0]
        if kind is TEXT:
            parts.append(_escape_text(t[1]))
        elif kind is MATH:
            body = _math_bibtex(t[1])
            if body:
                parts.append("$" + body + "$")
        elif kind is FMT:
            inner = _render_bibtex(t[2])
            cmd = _FMT_KEEP.get(t[1])
            parts.append("\\" + cmd + "{" + inner + "}" if cmd else "{" + inner + "}")
        elif kind is EMPH:
            inner = _render_bibtex(t[2])
            parts.append(("\\emph{" if t[1] == 1 else "\\textbf{") + inner + "}")
        elif kind is GROUP:
            parts.append("{" + _render_bibtex(t[1]) + "}")
        elif kind is ESC:
            c = t[1]
            parts.append(_TEXT_ESCAPES.get(c, c) if c in "%&#_${}" else _escape_text(c))
        elif kind is QUOTE:
            parts.append({"\u201c": "``", "\u201d": "''", "\u2018": "`", "\u2019": "'"}[t[1]])
        elif kind is CODE:
            parts.append("\\texttt{" + _escape_text(t[1]) + "}")
        else:  # MACRO
            name, raw = t[1], t[2]
            if name in TEXT_COMMANDS and (raw == "\\" + name or raw == "\\" + name + "{}"):
                parts.append("\\" + name + "{}")
            else:
                plain = macro_plain(name, raw)
                # a command with no reading of its own (\\input{x}, \\end{document}, C:\\path):
                # the user's text, kept as written rather than lost
                parts.append(_escape_text(plain) if plain.strip() else bibtex_text(raw))


def to_bibtex(s: str) -> str:
    """BibTeX-safe LaTeX for a field value (abstract, title, note).

    The result is pure ASCII with balanced braces and typesets with pdflatex and a plain
    ``\\documentclass{article}`` (default OT1 fonts, no amsmath/textcomp) after BibTeX or biber:

    * outside math ``% & # _ $`` are escaped, ``^`` -> ``\\textasciicircum{}`` (biber garbles ``{\\^{}}``), ``~`` -> ``$\\sim$`` (it means
      "about" in these sources), ``< > |`` -> ``$<$``..., ``\\`` -> ``\\textbackslash{}``, a stray
      brace -> ``$\\lbrace$``/``$\\rbrace$``; straight ``"`` become ````` `` ````` / ``''``;
    * math is kept as ``$...$`` (``\\(..\\)``, ``\\[..\\]`` and ``$$..$$`` become ``$..$``), its
      commands checked against :data:`MATH_COMMANDS` (amsmath/amssymb ones rewritten, e.g.
      ``\\mathbb`` -> ``\\mathbf``, ``\\text{mem}`` -> ``\\mathrm{mem}``; sizing like ``\\left``
      dropped; unknown ones replaced by their reading), stray braces and dangling ``^``/``_`` repaired;
    * non-ASCII characters become LaTeX: ``ℓ`` -> ``$\\ell$``, ``×`` -> ``$\\times$``,
      ``²`` -> ``$^{2}$``, ``’`` -> ``'``, ``–`` -> ``--``, ``é`` -> ``{\\'e}`` (in math the math form);
      characters with no safe LaTeX fall back to their ASCII transliteration or ``?``;
    * ``\\emph``/``\\textbf`` and friends are kept; Markdown ``*x*`` -> ``\\emph{x}``,
      ``**x**`` -> ``\\textbf{x}``, ```code``` -> ``\\texttt{code}``; other text commands are
      replaced by their plain reading, escaped.

    Whitespace is normalised first. Never raises."""
    out = _render_bibtex(tokenize(normalize_space(s)))
    if "  " in out:
        out = " ".join(out.split())
    # two math spans side by side would read as "$$" (display math): keep them apart
    return _ADJACENT_MATH.sub("${}$", out) if "$$" in out else out


# ---------------------------------------------------------------------------------------------
# Plain text as BibTeX (titles, names, tags, notes): every character the user wrote, read back
# identically by readinglist's importer and by pylatexenc (bibtexparser's LaTeX decoding)

#: A dollar sign: ``\\$`` then an empty formula ``${}$``. Zotero's BibTeX import removes the
#: dollars of every ``$...$`` pair it finds, before it unescapes ``\\$``, so two ``\\$`` of one field
#: ("\\$5 ... \\$6") arrived as "\\5 ... \\6"; the empty formula right after each ``\\$`` is the
#: pair it removes instead (a ``$`` followed by a ``$`` starts none), and typesets as nothing.
_DOLLAR = "\\$${}$"
#: Characters of plain text that BibTeX or LaTeX would read as markup, in the spelling that
#: pdflatex (OT1), BibTeX, biber and the decoders agree on. ``"``, ``*`` and a backquote are
#: braced so that neither TeX (quotes) nor readinglist's reader (Markdown emphasis, code) takes
#: them for markup.
_LITERAL_ASCII = {
    "\\": "$\\backslash$", "{": "$\\lbrace$", "}": "$\\rbrace$", "$": _DOLLAR, "%": "\\%", "&": "\\&",
    "#": "\\#", "_": "\\_", "^": "{\\textasciicircum}", "~": "{\\textasciitilde}", "<": "$<$",
    ">": "$>$", "|": "$|$", '"': '{"}', "*": "{*}", "`": "{\\textasciigrave}",
}
#: The UTF-8 form's spellings: text commands rather than math (Zotero's BibTeX import leaves
#: ``$\\backslash$`` as raw text), braces as commands (a ``\\{`` breaks BibTeX's name parsing);
#: the dollar as in the ASCII form (``{\\textdollar}`` the translator leaves raw).
_LITERAL_UNICODE = {
    **_LITERAL_ASCII,
    "\\": "{\\textbackslash}", "{": "{\\textbraceleft}", "}": "{\\textbraceright}", "<": "<", ">": ">", "|": "|",
}
#: Typographic characters written as text commands, so they read back as themselves (not as
#: the ASCII ligatures ``--`` / ``''`` that a reader cannot tell from the user's own).
_LITERAL_CHARS = {
    "\u2018": "{\\textquoteleft}", "\u2019": "{\\textquoteright}", "\u201c": "{\\textquotedblleft}",
    "\u201d": "{\\textquotedblright}", "\u2013": "{\\textendash}", "\u2014": "{\\textemdash}",
    # not \ldots{}: Zotero's BibTeX import reads its \l as "ł" ("łdots")
    "\u2026": "{\\textellipsis}",
}
_LITERAL_SPECIAL = _special_chars('\\{}$%&#_^~<>|"*`')
#: TeX ligatures a plain text must not form: ``--``, ``''`` (broken with ``{}``)
_LIGATURE = re.compile(r"-(?=-)|'(?=')")  # each is followed by "{}" (a look-behind here costs 4x)


def bibtex_text(text: str, *, unicode: bool = False) -> str:
    """Plain text (a title, a name, a tag, a note) as a BibTeX value that reads back as exactly
    that text (whitespace normalised) through readinglist's BibTeX importer and pylatexenc, and
    typesets with pdflatex: nothing in it is taken for markup, so ``C:\\path``, ``\\end{document}``,
    ``{braces}``, ``50%`` and ``a_b`` stay what they are. ASCII LaTeX by default (``é`` ->
    ``{\\'e}``, ``²`` -> ``$^{2}$``); with ``unicode`` other characters are kept as UTF-8."""
    return _literal(normalize_space(text), unicode)


def _literal(text: str, unicode: bool) -> str:
    """:func:`bibtex_text` of a text whose whitespace is normal already (what :func:`to_plain`
    returns: its exports' abstracts are not scanned for it twice)."""
    table = _LITERAL_UNICODE if unicode else _LITERAL_ASCII

    def sub(m: re.Match) -> str:
        c = m.group()
        esc = table.get(c)
        if esc is not None:
            return esc
        if c < "\x80" or c == "\x7f":
            return ""  # a control character
        if unicode:
            return c if unicodedata.category(c)[0] != "C" else ""
        return _LITERAL_CHARS.get(c) or _char_bibtex(c, False)

    out, replaced = _LITERAL_SPECIAL.subn(sub, text)
    if "--" in out or "''" in out:
        out = _LIGATURE.sub(r"\g<0>{}", out)
    # two math spans side by side (ℓ₁ -> $\ell$$_{1}$) would read as "$$": keep them apart (a
    # "$" is special: every one in ``out`` comes from a replacement, so with none there is none)
    return _ADJACENT_MATH.sub("${}$", out) if replaced and "$$" in out else out


def to_bibtex_text(s: str) -> str:
    """The ASCII form's abstract: the text as a reader sees it (:func:`to_plain`, as the UTF-8
    form writes it), spelled in pure-ASCII LaTeX by :func:`bibtex_text`, so that pdflatex and
    Zotero's BibTeX import both show the same text.

    Zotero's BibTeX.js import (``unescapeBibTeX``) maps LaTeX back to Unicode by plain substring
    replacement over its ``reversemappingTable``, then drops ``$``, braces and the backslash of
    ``\\%`` and friends; every other command stays as raw text. So the LaTeX that this form avoids
    is LaTeX that has a plain-text reading: math (``\\log n`` -> ``log n``, ``\\mathcal{O}`` ->
    ``O``, ``\\frac{a}{b}`` -> ``a/b``, which Zotero showed as "łog n", "\\mathcalO"), emphasis
    (``\\textbf``, ``\\emph``: Zotero showed "<b>" and "\\emph"), Markdown. What is left are
    single characters, each in a spelling that pdflatex typesets and, where the translator's table
    has one, Zotero decodes: ``$\\alpha$`` (α), ``$_{1}$`` (₁), ``$^{n}$`` (ⁿ),
    ``{\\textquoteright}`` (’), ``\\%``, ``\\$``. Characters with no such spelling keep the one
    that pdflatex (OT1) typesets and readinglist and pylatexenc read back (``$\\times$``,
    ``$\\geq$``, ``$\\ell$``, ``{\\textasciitilde}``, ``$\\theta$``: the translator turns the
    ``\\th`` of ``\\theta`` into "þ" before it reaches its Greek entries, and its ``{\\texttimes}``
    is a TS1 symbol); tests/formats/zotero/test_zotero_import.py runs the translator on the
    seeds' export and lists them."""
    return _literal(to_plain(s, scripts=True), False)


# ---------------------------------------------------------------------------------------------
# UTF-8 BibTeX (``export -f bibtex --unicode``), for biber/biblatex and for Zotero's BibTeX import

def to_bibtex_unicode(s: str) -> str:
    """UTF-8 BibTeX for a field value: the text as clean Unicode (:func:`to_plain`: math, accents
    and formatting become the characters a reader sees), LaTeX's special characters escaped.

    For biber/biblatex (with LuaLaTeX, XeLaTeX, or pdflatex and fonts for the characters used)
    and for Zotero's BibTeX import, which reads UTF-8 text right but mangles LaTeX math and
    accents (``\\log`` -> "łog", ``\\theta`` -> "þeta")."""
    return _literal(to_plain(s, scripts=True), True)
