"""Control characters: stripped from imported text, made visible on a terminal.

C0 (U+0000-U+001F), DEL and C1 (U+0080-U+009F) controls are never part of a title, a name or
an abstract; on a terminal they move the cursor, ring the bell or start escape sequences
(``ESC [ 2 J`` clears the screen, ``ESC ] 52`` writes the clipboard). Newline and tab are
text, the rest is not.
"""

from __future__ import annotations

import re

_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ALL_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def strip_controls(text: str) -> tuple[str, int]:
    """``text`` without control characters other than newline and tab (a ``\\r\\n`` line end
    becomes ``\\n``), and how many were removed."""
    if text.isprintable() or not _CONTROLS.search(text):
        return text, 0
    text = text.replace("\r\n", "\n")
    cleaned, n = _CONTROLS.subn("", text)
    return cleaned, n


def escape_controls(text: str, keep: str = "\n") -> str:
    """``text`` safe to print on a terminal: every control character except those in ``keep``
    shown as ``\\xNN`` (``ESC`` -> ``\\x1b``), so nothing is hidden and nothing is obeyed."""
    if text.isprintable():
        return text

    def visible(m: re.Match) -> str:
        ch = m.group()
        return ch if ch in keep else f"\\x{ord(ch):02x}"

    return _ALL_CONTROLS.sub(visible, text)
