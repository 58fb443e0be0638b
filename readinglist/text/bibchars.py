"""One character or a run of plain text as pure-ASCII LaTeX, for :mod:`readinglist.text.bibtex`
and :mod:`readinglist.text.literal`: :func:`char_bibtex` (a non-ASCII character in text or
math mode), the escapes of text (``escape_text``) and of math (``escape_math``), and
:func:`special_chars`, the fast pattern for the characters a writer must escape."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .plain import COMBINING, ascii_fold
from .latexvocab import ACCENTS_OT1, CHAR_LATEX, MATH_COMMANDS, TEXT_COMMANDS


def special_chars(chars: str) -> re.Pattern:
    """A pattern matching one character of ``chars`` (printable ASCII), a control character other
    than tab and the newlines, or any non-ASCII character; written as the class of every other
    character: a class running up to U+10FFFF is far slower to compile than its complement
    (tests/text/test_text.py checks both match the same characters)."""
    safe = "".join(c for c in map(chr, range(0x20, 0x7F)) if c not in chars)
    return re.compile("[^\t\n\r" + "".join("\\" + c if c in "[]\\^-" else c for c in safe) + "]")


_ACCENT_CMD = re.compile(r"\\[^A-Za-z{}\\]|\\[cvuHrdbtk](?![A-Za-z])")
_EMPTY_ACCENT = re.compile(r"\\[^A-Za-z]\{\}|\\[A-Za-z]\{\}$")
_CMD_NAMES = re.compile(r"\\([A-Za-z]+|.)")
_ENSUREMATH = re.compile(r"^\\ensuremath\{(.*)\}$", re.S)
TEXT_ESCAPES = {
    "\\": "$\\backslash$", "{": "$\\lbrace$", "}": "$\\rbrace$", "%": "\\%", "&": "\\&",
    "#": "\\#", "_": "\\_", "$": "\\$", "^": "\\textasciicircum{}", "~": "$\\sim$", "<": "$<$", ">": "$>$",
    "|": "$|$",
}
_TEXT_SPECIAL = special_chars('\\{}%&#_$^~<>|"')
ENDS_CONTROL_WORD = re.compile(r"\\[A-Za-z]+$")
MATH_ESCAPES = {
    "{": "\\lbrace ", "}": "\\rbrace ", "\\": "\\backslash ", "%": "\\%", "&": "\\&", "#": "\\#",
    "$": "\\$", "^": "\\hat{}", "_": "\\_",
}


def _names_ok(latex: str, allowed: frozenset) -> bool:
    return all(n in allowed or n in ACCENTS_OT1 or n in "{}" for n in _CMD_NAMES.findall(latex))


@lru_cache(maxsize=4096)
def char_latex(ch: str, math: bool) -> str | None:
    """Safe LaTeX for one non-ASCII character in text or math mode, or None (cached)."""
    mine = CHAR_LATEX.get(ch)
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
        if ENDS_CONTROL_WORD.search(inner):
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
        return base if base.isascii() else char_latex(base, math)
    return None


@lru_cache(maxsize=4096)
def char_bibtex(ch: str, math: bool) -> str:
    """LaTeX for one non-ASCII character: :func:`char_latex`, else its ASCII transliteration,
    else ``?``."""
    latex = char_latex(ch, math)
    if latex is not None:
        return latex
    folded = ascii_fold(unicodedata.normalize("NFC", ch)).strip() or "?"
    return escape_math(folded) if math else escape_text(folded)


def escape_text(s: str) -> str:
    """Escape a plain text run for LaTeX text mode (ASCII output)."""
    return _TEXT_SPECIAL.sub(_text_sub, s)


def _text_sub(m: re.Match) -> str:
    c = m.group()
    if c > "\x7f":
        return char_bibtex(c, False)
    if c == '"':
        # a straight double quote opens after a space or bracket, closes otherwise
        i = m.start()
        before = m.string[i - 1] if i else " "
        return "``" if before.isspace() or before in "([{" else "''"
    esc = TEXT_ESCAPES.get(c)
    return "" if esc is None else esc


def escape_math(s: str) -> str:
    """Escape ASCII text for math mode."""
    return "".join(MATH_ESCAPES.get(c, c) for c in s if c >= " " and c != "\x7f")
