"""LaTeX/Markdown -> clean Unicode (titles, CSL-JSON, matching, tagging) and ASCII folding for keys."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .symbols import GREEK_LETTERS
from .tokens import CODE, EMPH, ESC, FMT, GROUP, MATH, QUOTE, TEXT, SPECIAL, normalize_space, tokenize

# ---------------------------------------------------------------------------------------------
# plain Unicode


@lru_cache(maxsize=1)
def _latex2text():
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", keep_comments=False, strict_latex_spaces=False)


@lru_cache(maxsize=1)
def _latex_context():
    """pylatexenc's default parsing context (its known macros), built once: a LatexWalker given
    none builds it anew for every span."""
    from pylatexenc.latexwalker import get_default_latex_context_db

    return get_default_latex_context_db()


#: pylatexenc results tidied for plain text: ``\sim`` reads as a tilde.
_PLAIN_FIX = str.maketrans({"\u223c": "~"})
_MACRO_PLAIN = {
    "LaTeX": "LaTeX", "TeX": "TeX", "LaTeXe": "LaTeX2e", "ldots": "…", "dots": "…",
    # the ASCII characters LaTeX has text commands for read as those characters (pylatexenc
    # makes some of them look-alikes, ``\textasciicircum`` -> U+02C6, or drops them)
    "textasciicircum": "^", "textasciigrave": "`", "textasciitilde": "~", "textbackslash": "\\",
    "textdollar": "$", "textbraceleft": "{", "textbraceright": "}", "textless": "<",
    "textgreater": ">", "textbar": "|", "textquotedbl": '"', "textunderscore": "_",
}


def _math_letters(t: str) -> str:
    # mathematical alphanumerics (\mathcal{O} -> 𝒪) read better as plain letters
    if any("\U0001d400" <= ch <= "\U0001d7ff" for ch in t):
        t = "".join(unicodedata.normalize("NFKC", ch) if "\U0001d400" <= ch <= "\U0001d7ff" else ch for ch in t)
    return t


_BARE_PERCENT = re.compile(r"(?<!\\)%")


@lru_cache(maxsize=4096)
def latex_plain(latex: str) -> str:
    """pylatexenc's plain-text rendering of one LaTeX span (cached). A bare ``%`` is a percent
    sign here (abstracts and .bib values are no TeX files), not a comment eating the rest."""
    try:
        t = _latex2text().latex_to_text(_BARE_PERCENT.sub(r"\\%", latex) if "%" in latex else latex, latex_context=_latex_context())
    except Exception:  # pylatexenc is lenient, but never let a span break a whole abstract
        t = latex
    return _math_letters(t.translate(_PLAIN_FIX))


_SUPERSCRIPTS = dict(zip("0123456789+-=()ni", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b\u207c\u207d\u207e\u207f\u2071"))
_SUBSCRIPTS = dict(zip("0123456789+-=()", "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089\u208a\u208b\u208c\u208d\u208e"))
_SCRIPT = re.compile(r"(?<!\\)([\^_])\s*(?:\{\s*([0-9+\-=()ni]+)\s*\}|([0-9+\-=()ni]))")


def _unicode_script(m: re.Match) -> str:
    table = _SUPERSCRIPTS if m.group(1) == "^" else _SUBSCRIPTS
    body = m.group(2) or m.group(3)
    if all(ch in table for ch in body):
        return "".join(table[ch] for ch in body)
    return m.group()


def math_plain(latex: str, scripts: bool = False) -> str:
    if scripts and ("^" in latex or "_" in latex):
        latex = _SCRIPT.sub(_unicode_script, latex)
    return latex_plain("$" + latex + "$")


def macro_plain(name: str, raw: str) -> str:
    fixed = _MACRO_PLAIN.get(name)
    if fixed is not None:
        return fixed
    return latex_plain(raw)


#: How TeX reads plain text: dashes from hyphens, a tie is a (non-breaking) space.
_TEX_LIGATURES = (("---", "\u2014"), ("--", "\u2013"), ("~", " "))


def _tex_text(text: str) -> str:
    for ascii_form, char in _TEX_LIGATURES:
        if ascii_form in text:
            text = text.replace(ascii_form, char)
    return text


#: TeX's tie in running text: a ``~`` right after a letter, a period or a closing bracket and
#: right before the next word ("Adapters~(LoRA)", "available at~<https://…>", "Fig.~3",
#: "RTX~5090"), or between a number and a word ("69~manuscripts"), which a reader sees as a space. A ``~`` after a space, a digit or an opening
#: bracket ("~3 GPUs", "(~60 users)", "2.8%~4.5%") means "about" or "to" and stays.
_TIE = re.compile(r"(?<=[^\W\d_]|[.)\]}])~(?=\S)|(?<=\d)~(?=[^\W\d_])")


def _ties(text: str) -> str:
    return _TIE.sub(" ", text) if "~" in text else text


def render_plain(tokens, parts: list, tex: bool = False, scripts: bool = False) -> None:
    for i, t in enumerate(tokens):
        kind = t[0]
        if kind is TEXT:
            if tex:
                parts.append(_tex_text(t[1]))
            elif "~" in t[1]:  # a tie may sit between this piece and the next ("\\emph{x}~y", "see~\\cite{a}")
                before = parts[-1][-1:] if parts and parts[-1] else ""
                after = "x" if t[1].endswith("~") and i + 1 < len(tokens) else ""
                parts.append(_ties(before + t[1] + after)[len(before) : len(before) + len(t[1])])
            else:
                parts.append(t[1])
        elif kind is MATH:
            parts.append(math_plain(t[1], scripts))
        elif kind is FMT or kind is EMPH:
            render_plain(t[2], parts, tex, scripts)
        elif kind is GROUP:
            render_plain(t[1], parts, tex, scripts)
        elif kind is ESC or kind is QUOTE or kind is CODE:
            parts.append(t[1])
        else:  # MACRO
            parts.append(macro_plain(t[1], t[2]))


def to_plain(s: str, *, tex: bool = False, scripts: bool = False) -> str:
    """Clean Unicode plain text: math and LaTeX commands converted with pylatexenc
    (``$\\ell_1$`` -> ``ℓ_1``: sub- and superscripts keep ``_``/``^``, their braces dropped, so
    ``$T_{\\text{mem}}$`` -> ``T_mem``; ``\\sim`` -> ``~``; ``\\mathcal{O}`` -> ``O``),
    ``\\emph{x}`` -> ``x``, ```` ``x'' ```` -> ``“x”``, ``\\%`` -> ``%``, Markdown emphasis and
    code markers removed (``**L**anguage`` -> ``Language``), whitespace normalised.

    For titles, CSL-JSON, matching and tagging. Plain runs are not touched (``--`` and straight
    quotes stay as written; a ``~`` too, but for TeX's tie between two words, ``Adapters~(LoRA)``,
    which reads as a space), unless ``tex``: then ``s`` is read as TeX reads a BibTeX
    field value (``--`` -> ``–``, ``---`` -> ``—``, ``~`` -> space), as the BibTeX importer
    wants for titles and names (``D{\\'\\i}az`` -> ``Díaz``). With ``scripts``, sub- and
    superscripts that Unicode has characters for become those (``M$^2$LE`` -> ``M²LE``,
    ``$\\ell_1$`` -> ``ℓ₁``), as exports and importers want for display. Never raises."""
    if not SPECIAL.search(s):
        return normalize_space(_tex_text(s) if tex else _ties(s))
    parts: list = []
    render_plain(tokenize(s), parts, tex, scripts)
    return normalize_space("".join(parts))


def strip_markup(s: str) -> str:
    """Alias of :func:`to_plain` under the name other modules look for."""
    return to_plain(s)


# ---------------------------------------------------------------------------------------------
# ASCII folding

_FOLD_TABLE: dict[str, str] = {}
for _name, _small in GREEK_LETTERS.items():
    _FOLD_TABLE[_small] = _name  # α..ω
    _FOLD_TABLE[chr(ord(_small) - 0x20)] = _name.capitalize()  # Α..Ω
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
COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


@lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    mapped = _FOLD_TABLE.get(ch)
    if mapped is not None:
        return mapped
    decomposed = unicodedata.normalize("NFKD", ch)
    if decomposed != ch:
        return "".join(_fold_char(c) if not c.isascii() else c for c in COMBINING.sub("", decomposed))
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
