"""Control characters: stripped from imported text, made visible on a terminal.

C0 (U+0000-U+001F), DEL and C1 (U+0080-U+009F) controls are never part of a title, a name or
an abstract; on a terminal they move the cursor, ring the bell or start escape sequences
(``ESC [ 2 J`` clears the screen, ``ESC ] 52`` writes the clipboard). Newline and tab are
text, the rest is not.

What a terminal must not be handed raw is a wider class (:func:`escape_controls`): the
controls, and the invisible format characters that change how text looks without being seen:
bidi overrides and isolates (U+202E makes ``k1gpj`` look like ``jpg1k``), zero-width spaces
and joiners, the line and paragraph separators, lone surrogates (bytes that were not UTF-8).
"""

from __future__ import annotations

import re

_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

#: Unicode categories never printed raw: controls, format characters (bidi, zero-width, BOM,
#: tag characters), surrogates, line and paragraph separators.
HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))


def strip_controls(text: str) -> tuple[str, int]:
    """``text`` without control characters other than newline and tab (a ``\\r\\n`` line end
    becomes ``\\n``), and how many were removed."""
    if text.isprintable() or not _CONTROLS.search(text):
        return text, 0
    text = text.replace("\r\n", "\n")
    cleaned, n = _CONTROLS.subn("", text)
    return cleaned, n


def is_hidden(ch: str) -> bool:
    """Whether the character ``ch`` is one a terminal must not get raw (see HIDDEN_CATEGORIES)."""
    if ch.isprintable():
        return False
    import unicodedata

    return unicodedata.category(ch) in HIDDEN_CATEGORIES


def visible(ch: str) -> str:
    """The escape a hidden character is shown as: ``\\x1b``, ``\\u202e``, ``\\U000e0041``."""
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def escape_controls(text: str, keep: str = "\n") -> str:
    """``text`` safe to print on a terminal: the one function every output of user text goes
    through. Every control character except those in ``keep``, every format character (bidi
    overrides and isolates, zero-width characters), line/paragraph separators and lone
    surrogates are shown as escapes (``ESC`` -> ``\\x1b``, U+202E -> ``\\u202e``), so nothing
    is hidden and nothing is obeyed. Printable text is returned as it is (one C-speed check)."""
    if text.isprintable():
        return text
    return "".join(visible(ch) if ch not in keep and is_hidden(ch) else ch for ch in text)


def json_safe(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with every hidden character that
    JSON leaves raw (C1 controls, DEL, format characters, separators) written as a JSON
    ``\\uXXXX`` escape: the same JSON value, safe on a terminal. (JSON already escapes C0.)"""
    if text.isprintable():
        return text

    def esc(ch: str) -> str:
        n = ord(ch)
        if n < 0x10000:
            return f"\\u{n:04x}"
        n -= 0x10000
        return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"

    return "".join(esc(ch) if ch not in "\n" and is_hidden(ch) else ch for ch in text)


def os_text(text: str) -> str:
    """Text the user typed, as Unicode: under a locale that is not UTF-8 (``LC_ALL=C``), Python
    hands over an argument's UTF-8 bytes as lone surrogates (``café`` as ``caf\\udcc3\\udca9``);
    they are decoded as the UTF-8 they are. Any other text is returned as it is (a lone
    surrogate that is not such a byte is refused where it would be written)."""
    if text.isprintable() or not any("\udc80" <= ch <= "\udcff" for ch in text):
        return text
    import os

    try:
        return os.fsencode(text).decode("utf-8")
    except (UnicodeError, ValueError):
        return text
