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
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


def normalize_space(s: str) -> str:
    """Collapse every run of whitespace (tabs, newlines, NBSP, thin and other Unicode spaces)
    into one ASCII space, strip both ends, and delete zero-width characters, BOMs and soft
    hyphens. Idempotent."""
    if not s.isascii():
        s = s.translate(_INVISIBLE)
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
            if b >= 0 and (b == start or s[b - 1] != "`") and "'" not in s[b + 1 : j]:
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


@lru_cache(maxsize=4096)
def _latex_plain(latex: str) -> str:
    """pylatexenc's plain-text rendering of one LaTeX span (cached)."""
    try:
        t = _latex2text().latex_to_text(latex)
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


def _render_plain(tokens, parts: list) -> None:
    for t in tokens:
        kind = t[0]
        if kind is TEXT:
            parts.append(t[1])
        elif kind is MATH:
            parts.append(_math_plain(t[1]))
        elif kind is FMT or kind is EMPH:
            _render_plain(t[2], parts)
        elif kind is GROUP:
            _render_plain(t[1], parts)
        elif kind is ESC or kind is QUOTE or kind is CODE:
            parts.append(t[1])
        else:  # MACRO
            parts.append(_macro_plain(t[1], t[2]))


def to_plain(s: str) -> str:
    """Clean Unicode plain text: math and LaTeX commands converted with pylatexenc
    (``$\\ell_1$`` -> ``ℓ_1``: sub- and superscripts keep ``_``/``^``, their braces dropped, so
    ``$T_{\\text{mem}}$`` -> ``T_mem``; ``\\sim`` -> ``~``; ``\\mathcal{O}`` -> ``O``),
    ``\\emph{x}`` -> ``x``, ```` ``x'' ```` -> ``“x”``, ``\\%`` -> ``%``, Markdown emphasis and
    code markers removed (``**L**anguage`` -> ``Language``), whitespace normalised.

    For titles, CSL-JSON, matching and tagging. Plain runs are not touched (``~``, ``--`` and
    straight quotes stay as written). Never raises."""
    if not _SPECIAL.search(s):
        return normalize_space(s)
    parts: list = []
    _render_plain(tokenize(s), parts)
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
        "\u00fe": "th", "\u00de": "Th", "\u00f0": "d", "\u00d0": "D", "\u0131": "i", "\u0127": "h",
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
