"""A raw BibTeX value as text: braces and quotes unwrapped, ``@string`` macros replaced, pieces
joined at ``#``, and the limit on how long a value may be."""

from __future__ import annotations


def _pieces(raw: str) -> list[str]:
    """A raw BibTeX value split at its top-level ``#`` (outside braces and quotes), walked
    character by character (:func:`resolve` takes a value without ``#`` as one piece)."""
    pieces, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(raw):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            pieces.append(raw[start:i])
            start = i + 1
    pieces.append(raw[start:])
    return [p.strip() for p in pieces]


#: The longest text one value may expand to through ``@string`` macros (1 MB): 30 doubling
#: macros in an 890-byte file would otherwise ask for gigabytes.
MAX_VALUE = 1 << 20


class MacroTooLarge(ValueError):
    """A value longer than MAX_VALUE characters: through ``@string`` expansion (``macros``),
    or as written in the file."""

    def __init__(self, message: str, *, macros: bool = True) -> None:
        super().__init__(message)
        self.macros = macros


def _too_long(text: str, limit: int) -> MacroTooLarge:
    return MacroTooLarge(f"is {len(text):,} characters long, more than the {limit:,} a field may hold", macros=False)


def resolve(raw: str, strings: dict[str, str], limit: int = MAX_VALUE) -> str:
    """A raw BibTeX value as text: ``{...}`` and ``"..."`` unwrapped, ``@string`` names
    replaced (case-insensitively; unknown names such as ``jul`` stay as they are), pieces
    joined at ``#``. MacroTooLarge when the result would exceed ``limit`` characters (its
    ``macros`` False when the value is that long as written: no macro made it so)."""
    if "#" not in raw:  # one piece (nearly every value; as _pieces splits it): no list to join
        text = _piece_text(raw.strip(), strings)
        if len(text) > limit:
            if len(raw) >= len(text):  # as long in the file: no macro made it so
                raise _too_long(text, limit)
            raise MacroTooLarge(f"expands to more than {limit:,} characters")
        return text

    out: list[str] = []
    size = 0
    written = 0  # characters of the pieces as written
    for piece in _pieces(raw):
        text = _piece_text(piece, strings)
        size += len(text)
        written += len(piece)
        if size > limit:
            if written >= size:
                raise _too_long("".join(out) + text, limit)
            raise MacroTooLarge(f"expands to more than {limit:,} characters")
        out.append(text)
    return "".join(out)


def _piece_text(piece: str, strings: dict[str, str]) -> str:
    """One piece of a value (see :func:`resolve`): a braced or quoted text, else a macro's name."""
    if len(piece) >= 2 and (piece[0], piece[-1]) in (("{", "}"), ('"', '"')):
        return piece[1:-1]
    return strings.get(piece.lower(), piece)
