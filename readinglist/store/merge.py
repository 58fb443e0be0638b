"""How an incoming version of a stored paper (a re-import, a reconciled official entry) updates it."""

from __future__ import annotations

from ..record import Record


def merge_record(old: Record, new: Record, *, official: bool = False) -> Record:
    """``old`` updated from ``new`` (an incoming version of the same paper); the key stays.

    * ``title``, ``shorttitle``, ``tags``: taken from ``new`` only while ``old``'s value is still
      generated (or empty); with ``official=True`` (reconcile) ``new``'s value always wins.
      A value a person edited is kept.
    * every other bibliographic field: ``new``'s value where it has one.
    * sources: ``new``'s, plus ``old``'s from other files.
    """
    changes: dict = {}
    generated = set(old.generated)
    for name in ("title", "shorttitle", "tags"):
        value = getattr(new, name)
        if not value:
            continue
        if official or name in old.generated or not getattr(old, name):
            changes[name] = value
            if name in new.generated:
                generated.add(name)
            else:
                generated.discard(name)
    for name in ("abstract", "entry_type", "venue", "year", "authors", "doi", "url", "pages"):
        value = getattr(new, name)
        if value not in (None, "", ()):
            changes[name] = value
    if new.fields:
        changes["fields"] = tuple(sorted({**dict(old.fields), **dict(new.fields)}.items()))
    if new.sources:
        files = {s.file for s in new.sources}
        changes["sources"] = tuple(s for s in old.sources if s.file not in files) + tuple(dict.fromkeys(new.sources))
    changes["generated"] = frozenset(generated)
    return old.evolve(**changes)
