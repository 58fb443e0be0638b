"""The one normal form of a tag (no other imports: single-paper commands compare tags too).

A tag is kept as the person spelled it, in Unicode NFC (``café`` typed with a combining accent
is stored as the one-character ``é``). Two tags are the same tag when their :func:`tag_key`\\ s
are equal: NFC and case-folded, so ``Café``, ``café`` (NFC) and ``café`` (NFD) are one tag.
Every comparison of tags (adding, removing, filtering, merging, the cache's tag index) goes
through :func:`tag_key`; what is shown is the spelling the tag was first given.
"""

from __future__ import annotations


def tag_form(tag: str) -> str:
    """``tag`` as it is stored: NFC (ASCII, the common case, as it is)."""
    if tag.isascii():
        return tag
    from unicodedata import normalize

    return normalize("NFC", tag)


def tag_key(tag: str) -> str:
    """What two tags are compared by: NFC, case-folded (``tag_key("Café") == tag_key("cafe\u0301")``)."""
    if tag.isascii():
        return tag.lower()
    from unicodedata import normalize

    return normalize("NFC", normalize("NFC", tag).casefold())


def unique_tags(tags) -> tuple[str, ...]:
    """``tags`` without repeats by :func:`tag_key`, first spelling and order kept."""
    seen: dict[str, str] = {}
    for t in tags:
        seen.setdefault(tag_key(t), t)
    return tuple(seen.values())
