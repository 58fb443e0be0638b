"""The placeholder author readinglist's BibTeX export writes for a paper without authors (see
``[export] anonymous_author``), told apart from real authors when the file is read again."""

from __future__ import annotations

from functools import lru_cache

from .. import importing
from ..exporting import placeholder_name


#: The export's placeholder author by default (see ``[export] anonymous_author``).
_DEFAULT_PLACEHOLDER = "{name}"
_FORMER_PLACEHOLDER = "Authors of {key}"


def is_placeholder_author(value: str | None, key: str, config, values: dict | None = None) -> bool:
    """True when ``value`` is still the placeholder the export wrote for ``key`` (configured
    now or by default, or the former default), so it stands for "no authors"; False once a
    person replaced it. ``values`` (the entry's fields) give ``{name}`` (short title or title)."""
    if value is None:
        return True
    text = " ".join(importing.latex_to_unicode(value.strip()).split())
    fixed, named = _placeholder_patterns(getattr(config, "anonymous_author", "") or _DEFAULT_PLACEHOLDER)
    if any(text == " ".join(p.replace("{key}", key).split()) for p in fixed):
        return True
    if values is None or not named:
        return False
    short = values.get("shorttitle")
    name = placeholder_name(
        importing.latex_to_unicode(short) if short and short.strip() else None,
        importing.latex_to_unicode(values.get("title") or ""),
    )
    return any(text == " ".join(p.replace("{key}", key).replace("{name}", name).split()) for p in named)


@lru_cache(maxsize=8)
def _placeholder_patterns(configured: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The placeholders an export may have written (the configured one, the default, the former
    default; once each): ``(those without {name}, those with it)``, worked out once, not per entry."""
    patterns = dict.fromkeys((_DEFAULT_PLACEHOLDER, _FORMER_PLACEHOLDER, configured))
    return tuple(p for p in patterns if "{name}" not in p), tuple(p for p in patterns if "{name}" in p)


def drop_placeholder(values: dict, key: str, config) -> bool:
    """Remove the export's placeholder author (and the biblatex option that goes with it) from
    an entry's ``values``; True when there was one."""
    if not is_placeholder_author(values.get("author"), key, config, values):
        return False
    values.pop("author", None)
    if " ".join(values.get("options", "").split()) == "useauthor=false":
        values.pop("options")
    return True
