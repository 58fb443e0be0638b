"""What a citation key may look like, and the one rule for the name of every file the store
creates from a name (no other imports: the store checks every key it builds a path from, and
single-paper commands must not load the key generator for that)."""

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


#: File names Windows reserves for devices whatever the suffix (``con.toml``, ``nul.tar.gz``).
RESERVED_NAMES = frozenset(["con", "prn", "aux", "nul"] + [f"{d}{n}" for d in ("com", "lpt") for n in range(1, 10)])
#: The name rule's characters and length: ASCII letters and digits first, then those and
#: ``. _ + -``; at most 120 characters.
_VALID_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,119}")
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._+-]+")


def is_valid_name(name: object) -> TypeGuard[str]:
    """The one rule for the name (without its suffix) of a file the store creates: a paper's
    file (:func:`file_stem` of its key), a curated list (``lists/NAME.toml``). Such a name is
    the same file on every system git checks the store out on: ASCII letters, digits and
    ``. _ + -`` (no path, no control character, no space), starting with a letter or digit, not
    ending in ``.`` (Windows drops it), no ``..``, at most 120 characters, and not a name Windows
    reserves (``con``, ``PRN``, ``aux.x``, ``com1``...). Two names that differ only in case are
    one file on macOS and Windows: the store refuses the second (see its callers)."""
    return (
        isinstance(name, str)
        and _VALID_NAME.fullmatch(name) is not None
        and not name.endswith(".")
        and ".." not in name
        and name.split(".")[0].lower() not in RESERVED_NAMES
    )


def file_stem(key: str) -> str:
    """The file name (without ``.toml``) a new paper with ``key`` gets: the key, made a valid
    name (:func:`is_valid_name`).

    Characters other than ASCII letters, digits and ``. _ + -`` become ``_``; leading dots and
    ``_`` are dropped (dot files are the store's temporary files), trailing dots too; ``..``
    becomes ``_``; a name Windows reserves (``con``, ``nul``, ``com1``, ...) gets a ``_``.
    """
    stem = _UNSAFE_NAME.sub("_", key).replace("..", "_").lstrip("._+-")[:119].rstrip(".") or "paper"
    if stem.split(".")[0].lower() in RESERVED_NAMES:
        stem += "_"
    return stem
