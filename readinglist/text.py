"""One tokenizer for LaTeX/Markdown-bearing abstract text, several renderings.

Abstracts arrive with inline LaTeX (``$\\ell_1$``, ``\\emph{...}``, ``\\(0.576\\)``,
````` ``quotes'' `````, ``\\%``), Markdown emphasis (``**L**anguage``, ``__CapTrack__``) and Unicode
(``×``, ``–``, ``ℓ``). A record keeps that text as written; the functions here derive what each
target needs:

* :func:`normalize_space` -- whitespace only;
* :func:`to_plain` -- clean Unicode (titles, CSL-JSON, matching, tagging);
* :func:`to_bibtex` -- pure-ASCII LaTeX that survives BibTeX/biber and pdflatex with default fonts;
* :func:`to_markdown` -- Markdown that renders on GitHub inside a list item or ``<details>``;
* :func:`ascii_fold` -- ASCII transliteration for citation keys.

All of them share :func:`tokenize`, which splits a string into plain-text runs and the few
constructs that need converting (math, control sequences, brace groups, LaTeX quotes, Markdown
emphasis and code spans). Plain runs pass through untouched, so the cost of the slow
LaTeX converter (pylatexenc, imported lazily) is paid once per *distinct* span, not per abstract.

Recognition rules (the same for every rendering):

* ``$...$`` is math when the opening ``$`` is followed by a non-space and the first later
  unescaped ``$`` is preceded by a non-space (so ``$5 and $10`` stays text); ``$$...$$``,
  ``\\(...\\)`` and ``\\[...\\]`` are math too. An unmatched ``$`` is a literal dollar.
* ``{...}`` is a group when its braces balance; a stray brace is a literal character.
* ``**x**`` / ``__x__`` are strong and ``*x*`` / ``_x_`` emphasis (the opener must be followed,
  and the closer preceded, by a non-space; ``_`` never opens or closes inside a word, so
  ``snake_case`` is text). ```code``` is a code span; `````` `` `````` and ``''`` are LaTeX quotes.
* A backslash followed by ASCII punctuation (``\\%``, ``\\_``, ``\\*``) is that character.
* ``~`` and ``--`` outside math are left as written (in these sources ``~`` means "about").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = [
    "normalize_space",
    "tokenize",
    "to_plain",
    "strip_markup",
    "ascii_fold",
]

# ---------------------------------------------------------------------------------------------
# whitespace

#: Invisible characters that are deleted outright (zero-width spaces/joiners, BOM, soft hyphen).
_INVISIBLE_RE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")


def normalize_space(s: str) -> str:
    """Collapse every run of whitespace (tabs, newlines, NBSP, thin and other Unicode spaces)
    into one ASCII space, strip both ends, and delete zero-width characters, BOMs and soft
    hyphens. Idempotent."""
    if s.isprintable() and "  " not in s and s[:1] != " " and s[-1:] != " ":
        return s  # already normal (tabs, newlines, NBSP, zero-width chars are not printable)
    if not s.isascii() and _INVISIBLE_RE.search(s):
        s = _INVISIBLE_RE.sub("", s)
    return " ".join(s.split())


# ---------------------------------------------------------------------------------------------
# tokenizer

# Token kinds. A token is a tuple whose first item is one of these.
TEXT = "text"  # (TEXT, str)            plain run, passed through (renderers escape it)
MATH = "math"  # (MATH, latex)          inline or display math, delimiters removed
FMT = "fmt"  # (FMT, name, tokens)    \emph{..}, \textbf{..}, ... with a parsed argument
MACRO = "macro"  # (MACRO, name, raw)   any other control sequence with its arguments
ESC = "esc"  # (ESC, char)            \% \& \_ ... (a literal character); "\\ " and "\\," -> " "
QUOTE = "quote"  # (QUOTE, char)        `` '' ` as curly quotes
GROUP = "group"  # (GROUP, tokens)      a balanced {...}
EMPH = "emph"  # (EMPH, level, tokens)  Markdown emphasis, level 1 (*x*) or 2 (**x**)
CODE = "code"  # (CODE, str)            Markdown `code` span

#: Text-formatting commands whose single braced argument is parsed as text.
_FORMAT_COMMANDS = frozenset(
    "emph textit textbf textsc texttt textsf textrm textsl textup textmd textnormal underline "
    "text mbox uline".split()
)
_ITALIC = frozenset(("emph", "textit", "textsl"))
_BOLD = frozenset(("textbf",))
_MONO = frozenset(("texttt",))
#: Accent commands made of one punctuation character: take the next character or group.
_ACCENT_PUNCT = frozenset("'`^\"~=.")
#: Accent commands with a letter name: take the next group, or a letter after optional spaces.
_ACCENT_LETTER = frozenset("c v u H r d b t k".split())
#: Spacing commands that become a plain space / nothing.
_SPACE_ESC = {" ": " ", ",": " ", ";": " ", ":": " ", "!": "", "-": "", "/": "", "\\": " ", "@": ""}

_SPECIAL = re.compile(r"[\\${}*_`']")
_NAME = re.compile(r"[A-Za-z]+")
_BRACE_SCAN = re.compile(r"\\.|[{}]", re.S)
_DOLLAR_SCAN = re.compile(r"\\.|\$", re.S)
_STAR_RUN = re.compile(r"\*+")
_UNDER_RUN = re.compile(r"_+")
_CLOSE_QUOTE = re.compile(r"'(?![A-Za-z0-9'])")


def _match_brace(s: str, i: int, end: int) -> int:
    """Index of the ``}`` closing the ``{`` at ``i`` (escaped braces skipped), or -1."""
    depth = 0
    for m in _BRACE_SCAN.finditer(s, i, end):
        c = m.group()
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def _find_unescaped(s: str, target: str, i: int, end: int) -> int:
    """Index of the next ``target`` (``\\)``-style two-char string) at or after ``i``, skipping
    other escapes; -1 when there is none."""
    while True:
        k = s.find(target, i, end)
        if k < 0:
            return -1
        # count the backslashes in front of it: an odd run means target[0] is escaped
        if target[0] == "\\":
            return k
        n = 0
        while k - n - 1 >= i and s[k - n - 1] == "\\":
            n += 1
        if n % 2 == 0:
            return k
        i = k + 1


def _dollar_math(s: str, j: int, end: int):
    """``(content, next_index)`` if the ``$`` at ``j`` opens math, else None."""
    if s.startswith("$$", j, end):
        k = _find_unescaped(s, "$$", j + 2, end)
        if k > j + 2 and s[j + 2 : k].strip():
            return s[j + 2 : k].strip(), k + 2
        return None
    if j + 1 >= end or s[j + 1].isspace():
        return None
    for m in _DOLLAR_SCAN.finditer(s, j + 1, end):
        if m.group() == "$":
            k = m.start()
            if s[k - 1].isspace():
                return None
            return s[j + 1 : k], k + 1
    return None


def _flanks(s: str, j: int, n: int, end: int, start: int, char: str) -> bool:
    """Can the delimiter run s[j:j+n] open emphasis?"""
    after = s[j + n] if j + n < end else " "
    if after.isspace():
        return False
    if char == "_":
        before = s[j - 1] if j > start else " "
        if before.isalnum():
            return False
    return True


def _emphasis(s: str, j: int, end: int, start: int, char: str):
    """``(token, next_index)`` for Markdown emphasis opening at ``j``, else ``(None, run_end)``."""
    run = _STAR_RUN if char == "*" else _UNDER_RUN
    m = run.match(s, j, end)
    n = m.end() - j
    if n > 2 or not _flanks(s, j, n, end, start, char):
        return None, m.end()
    for c in run.finditer(s, m.end(), end):
        if c.end() - c.start() != n:
            continue
        k = c.start()
        if s[k - 1].isspace():
            continue
        if char == "_" and c.end() < end and s[c.end()].isalnum():
            continue
        if k == m.end():
            break
        return (EMPH, n, _parse(s, m.end(), k)), c.end()
    return None, m.end()


def _macro(s: str, j: int, end: int):
    """Token for the control sequence at ``j`` (``s[j] == '\\'``) and the index after it, or
    ``(None, j + 1)`` when the backslash is a literal character."""
    if j + 1 >= end:
        return None, j + 1
    c = s[j + 1]
    if c == "(" or c == "[":
        close = "\\)" if c == "(" else "\\]"
        k = s.find(close, j + 2, end)
        if k >= 0 and s[j + 2 : k].strip():
            return (MATH, s[j + 2 : k].strip()), k + 2
        return (ESC, c), j + 2
    if c in _ACCENT_PUNCT:
        k = j + 2
        if k < end and s[k] == "{":
            close = _match_brace(s, k, end)
            if close > 0:
                return (MACRO, c, s[j : close + 1]), close + 1
        elif k < end and s[k].isalpha():
            return (MACRO, c, s[j : k + 1]), k + 1
        elif s.startswith(("\\i", "\\j"), k) and not (k + 2 < end and s[k + 2].isalpha()):
            p = k + 2  # \'\i: an accent on a dotless i (BibTeX names); \i eats the spaces after it
            while p < end and s[p] == " ":
                p += 1
            return (MACRO, c, s[j:p]), p
        return (ESC, c), j + 2
    if c in _SPACE_ESC:
        return (ESC, _SPACE_ESC[c]), j + 2
    if c.isascii() and not c.isalnum() and not c.isspace():
        return (ESC, c), j + 2
    m = _NAME.match(s, j + 1, end)
    if not m:
        return None, j + 1
    name = m.group()
    k = m.end()
    if name in _FORMAT_COMMANDS:
        if k < end and s[k] == "{":
            close = _match_brace(s, k, end)
            if close > 0:
                return (FMT, name, _parse(s, k + 1, close)), close + 1
        return (MACRO, name, s[j:k]), k
    if name in _ACCENT_LETTER:
        p = k
        while p < end and s[p] == " ":
            p += 1
        if p < end and s[p] == "{":
            close = _match_brace(s, p, end)
            if close > 0:
                return (MACRO, name, s[j : close + 1]), close + 1
        elif p > k and p < end and s[p].isalpha():
            return (MACRO, name, s[j : p + 1]), p + 1
        return (MACRO, name, s[j:k]), k
    # generic: take directly adjacent brace groups as arguments
    while k < end and s[k] == "{":
        close = _match_brace(s, k, end)
        if close < 0:
            break
        k = close + 1
    return (MACRO, name, s[j:k]), k


def _special(s: str, j: int, end: int, start: int):
    c = s[j]
    if c == "\\":
        return _macro(s, j, end)
    if c == "$":
        found = _dollar_math(s, j, end)
        if found:
            return (MATH, found[0]), found[1]
        return None, j + 1
    if c == "{":
        close = _match_brace(s, j, end)
        if close > 0:
            return (GROUP, _parse(s, j + 1, close)), close + 1
        return None, j + 1
    if c == "*" or c == "_":
        return _emphasis(s, j, end, start, c)
    if c == "`":
        if s.startswith("``", j, end):
            return (QUOTE, "\u201c"), j + 2
        k = s.find("`", j + 1, end)
        q = _CLOSE_QUOTE.search(s, j + 1, end)
        if q and (k < 0 or q.start() < k):  # `quoted' in LaTeX style
            return (QUOTE, "\u2018"), j + 1
        if k > j + 1:
            return (CODE, s[j + 1 : k]), k + 1
        return (QUOTE, "\u2018"), j + 1
    if c == "'":
        if s.startswith("''", j, end):
            return (QUOTE, "\u201d"), j + 2
        if j > start and s[j - 1] != "`" and (j + 1 == end or not s[j + 1].isalnum()):
            # a closing single quote after an opening backtick earlier in this run
            b = s.rfind("`", start, j)
            if b >= 0 and (b == start or s[b - 1] not in "`\\") and "'" not in s[b + 1 : j]:  # \`a is an accent
                return (QUOTE, "\u2019"), j + 1
    return None, j + 1


def _parse(s: str, start: int, end: int) -> list:
    out: list = []
    i = text_start = start
    search = _SPECIAL.search
    while True:
        m = search(s, i, end)
        if m is None:
            break
        j = m.start()
        tok, nxt = _special(s, j, end, start)
        if tok is None:
            i = nxt
            continue
        if j > text_start:
            out.append((TEXT, s[text_start:j]))
        out.append(tok)
        i = text_start = nxt
    if text_start < end:
        out.append((TEXT, s[text_start:end]))
    return out


def tokenize(s: str) -> list:
    """Split ``s`` into tokens: tuples whose first item is one of ``TEXT``, ``MATH``, ``FMT``,
    ``MACRO``, ``ESC``, ``QUOTE``, ``GROUP``, ``EMPH``, ``CODE`` (see the module docstring for
    the recognition rules). Every character of ``s`` ends up in exactly one token; never raises."""
    return _parse(s, 0, len(s))


# ---------------------------------------------------------------------------------------------
# plain Unicode


@lru_cache(maxsize=1)
def _latex2text():
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", keep_comments=False, strict_latex_spaces=False)


#: pylatexenc results tidied for plain text: ``\sim`` reads as a tilde.
_PLAIN_FIX = str.maketrans({"\u223c": "~"})
_MACRO_PLAIN = {"LaTeX": "LaTeX", "TeX": "TeX", "LaTeXe": "LaTeX2e", "ldots": "…", "dots": "…"}


def _math_letters(t: str) -> str:
    # mathematical alphanumerics (\mathcal{O} -> 𝒪) read better as plain letters
    if any("\U0001d400" <= ch <= "\U0001d7ff" for ch in t):
        t = "".join(unicodedata.normalize("NFKC", ch) if "\U0001d400" <= ch <= "\U0001d7ff" else ch for ch in t)
    return t


_BARE_PERCENT = re.compile(r"(?<!\\)%")


@lru_cache(maxsize=4096)
def _latex_plain(latex: str) -> str:
    """pylatexenc's plain-text rendering of one LaTeX span (cached). A bare ``%`` is a percent
    sign here (abstracts and .bib values are no TeX files), not a comment eating the rest."""
    try:
        t = _latex2text().latex_to_text(_BARE_PERCENT.sub(r"\\%", latex) if "%" in latex else latex)
    except Exception:  # pylatexenc is lenient, but never let a span break a whole abstract
        t = latex
    return _math_letters(t.translate(_PLAIN_FIX))


def _math_plain(latex: str) -> str:
    return _latex_plain("$" + latex + "$")


def _macro_plain(name: str, raw: str) -> str:
    fixed = _MACRO_PLAIN.get(name)
    if fixed is not None:
        return fixed
    return _latex_plain(raw)


#: How TeX reads plain text: dashes from hyphens, a tie is a (non-breaking) space.
_TEX_LIGATURES = (("---", "\u2014"), ("--", "\u2013"), ("~", " "))


def _tex_text(text: str) -> str:
    for ascii_form, char in _TEX_LIGATURES:
        if ascii_form in text:
            text = text.replace(ascii_form, char)
    return text


def _render_plain(tokens, parts: list, tex: bool = False) -> None:
    for t in tokens:
        kind = t[0]
        if kind is TEXT:
            parts.append(_tex_text(t[1]) if tex else t[1])
        elif kind is MATH:
            parts.append(_math_plain(t[1]))
        elif kind is FMT or kind is EMPH:
            _render_plain(t[2], parts, tex)
        elif kind is GROUP:
            _render_plain(t[1], parts, tex)
        elif kind is ESC or kind is QUOTE or kind is CODE:
            parts.append(t[1])
        else:  # MACRO
            parts.append(_macro_plain(t[1], t[2]))


def to_plain(s: str, *, tex: bool = False) -> str:
    """Clean Unicode plain text: math and LaTeX commands converted with pylatexenc
    (``$\\ell_1$`` -> ``ℓ_1``: sub- and superscripts keep ``_``/``^``, their braces dropped, so
    ``$T_{\\text{mem}}$`` -> ``T_mem``; ``\\sim`` -> ``~``; ``\\mathcal{O}`` -> ``O``),
    ``\\emph{x}`` -> ``x``, ```` ``x'' ```` -> ``“x”``, ``\\%`` -> ``%``, Markdown emphasis and
    code markers removed (``**L**anguage`` -> ``Language``), whitespace normalised.

    For titles, CSL-JSON, matching and tagging. Plain runs are not touched (``~``, ``--`` and
    straight quotes stay as written), unless ``tex``: then ``s`` is read as TeX reads a BibTeX
    field value (``--`` -> ``–``, ``---`` -> ``—``, ``~`` -> space), as the BibTeX importer
    wants for titles and names (``D{\\'\\i}az`` -> ``Díaz``). Never raises."""
    if not _SPECIAL.search(s):
        return normalize_space(_tex_text(s) if tex else s)
    parts: list = []
    _render_plain(tokenize(s), parts, tex)
    return normalize_space("".join(parts))


def strip_markup(s: str) -> str:
    """Alias of :func:`to_plain` under the name other modules look for."""
    return to_plain(s)


# ---------------------------------------------------------------------------------------------
# ASCII folding

_GREEK = (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
    "sigma sigma tau upsilon phi chi psi omega"
).split()
_FOLD_TABLE: dict[str, str] = {}
for _i, _name in enumerate(_GREEK):
    _FOLD_TABLE[chr(0x3B1 + _i)] = _name  # α..ω (0x3C2 is final sigma)
    if _i != 17:  # there is no capital final sigma
        _FOLD_TABLE[chr(0x391 + _i)] = _name.capitalize()
_FOLD_TABLE.update(
    {
        "\u03f5": "epsilon", "\u03d5": "phi", "\u03d1": "theta", "\u03f1": "rho", "\u03d6": "pi",
        "\u03c2": "sigma", "\u00b5": "mu",
        "\u2113": "l", "\u00d7": "x", "\u00f7": "/", "\u00b7": ".", "\u2212": "-", "\u00b1": "+-",
        "\u00df": "ss", "\u1e9e": "SS", "\u00e6": "ae", "\u00c6": "AE", "\u0153": "oe", "\u0152": "OE",
        "\u00f8": "o", "\u00d8": "O", "\u0111": "d", "\u0110": "D", "\u0142": "l", "\u0141": "L",
        "\u00fe": "th", "\u00de": "Th", "\u00f0": "d", "\u00d0": "D", "\u0131": "i", "\u0127": "h", "\u0126": "H", "\u0166": "T", "\u0167": "t", "\u013f": "L", "\u0140": "l",
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
        "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-", "\u2026": "...", "\u2022": "*",
        "\u2264": "<=", "\u2265": ">=", "\u2260": "!=", "\u2248": "~", "\u223c": "~", "\u2192": "->",
        "\u2190": "<-", "\u221e": "inf", "\u00b0": "deg", "\u20ac": "EUR", "\u00a3": "GBP",
        "\u00a5": "JPY", "\u00a9": "(c)", "\u00ae": "(R)", "\u2122": "TM",
    }
)
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


@lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    mapped = _FOLD_TABLE.get(ch)
    if mapped is not None:
        return mapped
    decomposed = unicodedata.normalize("NFKD", ch)
    if decomposed != ch:
        return "".join(_fold_char(c) if not c.isascii() else c for c in _COMBINING.sub("", decomposed))
    if ch.isspace():
        return " "
    return ""


def ascii_fold(s: str) -> str:
    """ASCII transliteration for citation keys and matching: NFKD with accents dropped
    (``é`` -> ``e``, ``M²LE`` -> ``M2LE``, ``𝒪`` -> ``O``) plus a small table (``ℓ`` -> ``l``,
    ``×`` -> ``x``, ``ß`` -> ``ss``, Greek letters to their names: ``α`` -> ``alpha``,
    ``Δ`` -> ``Delta``; curly quotes and dashes to ASCII). Characters with no ASCII reading
    (CJK, emoji) are dropped. Always returns ASCII; never raises."""
    if s.isascii():
        return s
    return "".join(ch if ch.isascii() else _fold_char(ch) for ch in s)


# ---------------------------------------------------------------------------------------------
# BibTeX / LaTeX
#
# Target: a field value that BibTeX, biber and pdflatex with ``\documentclass{article}`` and its
# default OT1 fonts all accept. So: pure ASCII, balanced braces, no TS1 (textcomp) symbols, no
# amsmath, ``<``, ``>`` and ``|`` only in math (OT1 text renders them as ¡, ¿ and an em dash).

#: Math-mode control words that a plain ``\documentclass{article}`` defines (LaTeX kernel and
#: fontmath.ltx); ``tests/test_text.py`` typesets every one of them.
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
    _CHAR_LATEX[_sup] = ("$^{%s}$" % _plain, "^{%s}" % _plain)
for _sub, _plain in zip("\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089\u208a\u208b\u208c\u208d\u208e",
                        "0123456789+-=()"):
    _CHAR_LATEX[_sub] = ("$_{%s}$" % _plain, "_{%s}" % _plain)

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
_TEXT_SPECIAL = re.compile('[\\\\{}%&#_$^~<>|"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\U0010ffff]')


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
    base = _COMBINING.sub("", unicodedata.normalize("NFD", ch))
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
    for m in _BRACE_SCAN.finditer(s):
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
    plain = _latex_plain("$\\" + name + "$").strip()
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
            m = _NAME.match(latex, pos)
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
                    close = _match_brace(latex, p, n)
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
                parts.append(_escape_text(_macro_plain(name, raw)))


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
# Markdown (GitHub)

_MD_SPECIAL = re.compile(r"[\\`*_\[\]<>|#$~]|&(?=#?\w+;)")
_MD_ESCAPES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
_MD_LEADING = re.compile(r"^(?:([-+])|(\d{1,9})([.)]))(?=\s|$)")
_MD_MATH_FIX = str.maketrans({"|": "\\vert ", "<": "\\lt ", ">": "\\gt "})


def _md_sub(m: re.Match) -> str:
    c = m.group()
    return _MD_ESCAPES.get(c) or "\\" + c


def escape_markdown(s: str) -> str:
    """Escape a plain run so GitHub shows it as text (no emphasis, links, HTML, tables)."""
    return _MD_SPECIAL.sub(_md_sub, s) if _MD_SPECIAL.search(s) else s


def _md_wrap(inner: str, mark: str) -> str:
    """``mark`` + inner + ``mark`` with surrounding spaces moved outside (``* x *`` is no emphasis)."""
    core = inner.strip()
    if not core:
        return inner
    lead = " " if inner[:1].isspace() else ""
    trail = " " if inner[-1:].isspace() else ""
    return lead + mark + core + mark + trail


def _md_code(s: str) -> str:
    s = normalize_space(s)
    if not s:
        return ""
    fence = "``" if "`" in s else "`"
    pad = " " if "`" in s else ""
    return fence + pad + s + pad + fence


def _markdown_into(tokens, parts: list) -> None:
    n = len(tokens)
    for i, t in enumerate(tokens):
        kind = t[0]
        if kind is TEXT:
            parts.append(escape_markdown(t[1]))
        elif kind is MATH:
            body = normalize_space(t[1]).translate(_MD_MATH_FIX)
            if not body:
                continue
            nxt = tokens[i + 1] if i + 1 < n else None
            glued = nxt is not None and nxt[0] is TEXT and nxt[1][:1].isalnum()
            # GitHub's $`...`$ form when a letter or digit follows the closing dollar
            parts.append("$`" + body + "`$" if glued else "$" + body + "$")
        elif kind is FMT:
            name = t[1]
            if name in _MONO:
                parts.append(_md_code(_render_plain_str(t[2])))
                continue
            inner = _render_markdown(t[2])
            if name in _ITALIC:
                parts.append(_md_wrap(inner, "*"))
            elif name in _BOLD:
                parts.append(_md_wrap(inner, "**"))
            else:
                parts.append(inner)
        elif kind is EMPH:
            parts.append(_md_wrap(_render_markdown(t[2]), "*" * t[1]))
        elif kind is GROUP:
            _markdown_into(t[1], parts)
        elif kind is ESC:
            parts.append(escape_markdown(t[1]))
        elif kind is QUOTE:
            parts.append(t[1])
        elif kind is CODE:
            parts.append(_md_code(t[1]))
        else:  # MACRO
            parts.append(escape_markdown(_macro_plain(t[1], t[2])))


def _render_plain_str(tokens) -> str:
    parts: list = []
    _render_plain(tokens, parts)
    return "".join(parts)


def _render_markdown(tokens) -> str:
    parts: list = []
    _markdown_into(tokens, parts)
    return "".join(parts)


def to_markdown(s: str) -> str:
    """Markdown for GitHub, safe inside a list item, a table cell or ``<details>``.

    Math stays ``$...$`` (``\\(..\\)``, ``\\[..\\]``, ``$$..$$`` become ``$..$``; GitHub's
    ``$`...`$`` form is used when a letter or digit follows the closing dollar; ``|``, ``<``,
    ``>`` inside math become ``\\vert``, ``\\lt``, ``\\gt``). ``\\emph{x}`` -> ``*x*``,
    ``\\textbf{x}`` -> ``**x**``, ``\\texttt{x}`` and ```x``` -> code, LaTeX quotes -> curly
    quotes, source Markdown emphasis kept (``__x__`` written as ``**x**``), other LaTeX commands
    replaced by their plain reading. In ordinary text ``\\ ` * _ [ ] | # $ ~`` are
    backslash-escaped, ``<``/``>`` become ``&lt;``/``&gt;``, ``&`` becomes ``&amp;`` where it
    would start an entity, and a leading ``-``, ``+`` or ``1.`` is escaped so the text never
    starts a list. One line out; never raises."""
    s = normalize_space(s)
    if not s:
        return s
    out = _render_markdown(tokenize(s))
    if "  " in out or out[:1].isspace() or out[-1:].isspace():
        out = " ".join(out.split())
    m = _MD_LEADING.match(out)
    if m:
        out = ("\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3)) + out[m.end() :]
    return out
