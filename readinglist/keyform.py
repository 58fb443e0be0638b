"""What a citation key may look like (no other imports: the store checks every key it builds a
path from, and single-paper commands must not load the key generator for that)."""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeGuard

#: A citation key: ASCII letters and digits, and ``_ - .`` inside. Every BibTeX, biber, pandoc
#: and file system accepts it, and it is never a path (no ``/``, no leading dot).
VALID_KEY = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,98}[A-Za-z0-9_])?")


def is_valid_key(key: object) -> TypeGuard[str]:
    """True when ``key`` may be a citation key as it is (see VALID_KEY; at most 100 characters,
    not ending in ``.`` or ``-``, no ``..``)."""
    return isinstance(key, str) and VALID_KEY.fullmatch(key) is not None and ".." not in key
