"""How an incoming version of a stored paper (a re-import, a reconciled official entry) updates it."""

from __future__ import annotations

from ..record import Record


def same_text(a: str, b: str) -> bool:
    """Whether two LaTeX/Markdown-bearing texts read the same (differ in spelling only)."""
    from ..text import to_plain

    def reading(s: str, tex: bool) -> str:  # quotes compared by kind: TeX prints ' as ’ and '' as ”
        return to_plain(s, tex=tex, scripts=True).translate(_QUOTES)

    # read as TeX would (a .bib: -- is –) or as plain text (CSL-JSON: ~ is a tilde)
    return reading(a, False) == reading(b, False) or reading(a, True) == reading(b, True)


_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "`": "'", "\u201c": '"', "\u201d": '"'})


def merge_record(old: Record, new: Record, *, official: bool = False) -> Record:
    """``old`` updated from ``new`` (an incoming version of the same paper); the key stays.

    * ``title``, ``shorttitle``, ``tags``: taken from ``new`` only while ``old``'s value is still
      generated (or empty); with ``official=True`` (reconcile) ``new``'s value always wins.
      A value a person edited is kept.
    * every other bibliographic field: ``new``'s value where it has one; an abstract that reads
      the same as the stored one (``M²LE`` vs ``M$^{2}$LE``, ``–`` vs ``--``: what readinglist's
      own ASCII BibTeX export writes) is not a change, so re-importing an export rewrites nothing.
    * sources: ``new``'s, plus ``old``'s from other files, in ``old``'s order (``new``'s where
      ``old`` had its file's first): re-importing each of two lists that share a paper changes
      nothing.
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
    if "abstract" in changes and changes["abstract"] != old.abstract and same_text(old.abstract, new.abstract):
        del changes["abstract"]  # the same text in another spelling (our own .bib export): keep the user's
    if new.fields:
        changes["fields"] = tuple(sorted({**dict(old.fields), **dict(new.fields)}.items()))
    if new.sources:
        changes["sources"] = _merged_sources(old.sources, tuple(dict.fromkeys(new.sources)))
    changes["generated"] = frozenset(generated)
    return old.evolve(**changes)


def _merged_sources(old: tuple, new: tuple) -> tuple:
    """``old`` with its sources from ``new``'s files replaced by ``new`` (where the first of them
    was), or ``new`` after them when ``old`` had none of those files."""
    files = {s.file for s in new}
    merged: list = []
    placed = False
    for source in old:
        if source.file not in files:
            merged.append(source)
        elif not placed:
            merged.extend(new)
            placed = True
    if not placed:
        merged.extend(new)
    return tuple(merged)
