"""Reconcile: put official metadata on papers whose titles readinglist generated.

When a conference publishes its proceedings (BibTeX or CSL-JSON), each generated paper in the
store is matched to its official entry by abstract. The official abstracts differ from the
list's in whitespace, LaTeX and small edits, so matching goes through
:class:`readinglist.convert.matching.NearIndex` (rapidfuzz ratio on normalised text).

A generated paper is

* **matched** when its best official candidate scores at least ``threshold`` and beats the
  runner-up by at least ``margin``: it gets the official title, authors, DOI, URL and pages
  (and venue, year and short title where it has none); its key, abstract, tags, status,
  notes, priority, rating and history stay. Its title is no longer generated. With
  ``rekey`` it also gets a key made from the official metadata (first author's family name,
  year, first salient title word: ``mueller2026canvit``), made unique.
* **ambiguous** when two candidates are within ``margin`` of each other, or when a paper that
  scores better on the same official entry took it (duplicates in the store): it is reported
  with its candidates and left alone; nothing is guessed.
* **unmatched** when no candidate reaches ``threshold``.

Papers whose title is not generated are not touched. All changes are written in one store
transaction; ``dry_run`` computes and reports the same changes and writes nothing.

CLI: ``readinglist reconcile OFFICIAL [--rekey] [--dry-run]``; read the official file with
:func:`load_official`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING
from collections.abc import Container, Sequence

from .record import Person, Record

if TYPE_CHECKING:  # pragma: no cover
    from .config import Config
    from .record import ImportResult
    from .store.library import Store

#: Record attributes a reconcile may change, in the order changes are reported.
CHANGED_FIELDS = ("key", "title", "shorttitle", "authors", "venue", "year", "doi", "url", "pages")


@dataclass(frozen=True)
class ReconcileReport:
    """What :func:`reconcile` did (or, with ``dry_run``, would do).

    * ``matched``: ``(key, official_id, score)`` -- ``key`` is the paper's key before any rekey;
    * ``ambiguous``: ``(key, ((official_id, score), ...))``, the candidates that were too close;
    * ``unmatched``: keys of generated papers with no official entry scoring ``threshold``;
    * ``changes``: ``(key, field, old, new)`` for every value that changes (``authors`` as
      ``"Family, Given; ..."``), ``key`` being the key before any rekey;
    * ``no_abstract``: official entries that have no abstract to match on.
    """

    matched: tuple[tuple[str, str, float], ...] = ()
    ambiguous: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()
    unmatched: tuple[str, ...] = ()
    changes: tuple[tuple[str, str, object, object], ...] = ()
    #: Official entries without an abstract (they cannot be matched), by their id.
    no_abstract: tuple[str, ...] = ()
    dry_run: bool = False
    threshold: float = 0.0
    margin: float = 0.0

    @property
    def rekeyed(self) -> tuple[tuple[str, str], ...]:
        """``(old key, new key)`` pairs."""
        return tuple((key, str(new)) for key, field, _, new in self.changes if field == "key")


def load_official(path: str | os.PathLike, *, config: Config, format: str | None = None) -> ImportResult:
    """Read an official BibTeX or CSL-JSON file with the importer for its name or suffix."""
    from .convert.reader import read_text
    from .formats.registry import ImportOptions, find_importer

    importer = find_importer(format, path if format is None else None)
    text = read_text(path)  # the one reader: binary files, encodings, BOMs, one-line errors
    result = importer.parse(text, source=str(path), options=ImportOptions(config))  # errors name the path given
    # the official file as the store's sources will name it: relative to the project, else by its
    # name (a paper file, which may be shared, never says where the user downloaded it)
    from .jobs import display_path

    named = display_path(path, config, outside="name")
    records = tuple(
        r.evolve(sources=tuple(s.evolve(file=named) if s.file == str(path) else s for s in r.sources))
        for r in result.records
    )
    return result.evolve(records=records)


def _show(name: str, value) -> object:
    if name == "authors":
        return "; ".join(str(p) for p in value) if value else None
    return value


def official_key(record: Record, taken, config: Config) -> str:
    """A key from official metadata: first author's family name + year + first salient title
    word (``mueller2026canvit``), else the config's key pattern; unique against ``taken``."""
    from .convert.keys import KeyParts, MAX_KEY_LENGTH, clean_key, make_key, salient_words, unique_key

    first: Person | None = record.authors[0] if record.authors else None
    author = clean_key(first.family or first.literal) if first else ""
    words = salient_words(record.title)
    if author:
        base = f"{author}{record.year or ''}{words[0] if words else ''}"[:MAX_KEY_LENGTH]
    else:
        base = make_key(config.key_pattern, KeyParts(name=record.shorttitle, title=record.title, venue=record.venue, year=record.year))
    return unique_key(base, taken)


class _TakenBut:
    """``taken`` without ``own`` (a paper may keep its own key)."""

    def __init__(self, taken: Container[str], own: str):
        self.taken, self.own = taken, own

    def __contains__(self, key: object) -> bool:
        return key != self.own and key in self.taken


def _official_update(old: Record, official: Record, key: str) -> Record:
    """What replace_record gets: the official bibliographic values on top of ``old``."""
    generated = set(old.generated) - {"title"}
    if official.shorttitle:
        generated.discard("shorttitle")
    sources = old.sources + tuple(s for s in official.sources if s not in old.sources)
    return old.evolve(
        key=key,
        title=official.title or old.title,
        shorttitle=official.shorttitle or old.shorttitle,
        authors=official.authors or old.authors,
        venue=old.venue or official.venue,
        year=old.year or official.year,
        doi=official.doi or old.doi,
        url=official.url or old.url,
        pages=official.pages or old.pages,
        generated=frozenset(generated),
        sources=sources,
    )


def reconcile(
    store: Store,
    official: Sequence[Record],
    *,
    rekey: bool = False,
    dry_run: bool = False,
    threshold: float | None = None,
    margin: float | None = None,
    config: Config | None = None,
) -> ReconcileReport:
    """Match every generated paper in ``store`` to its ``official`` record by abstract and
    take the official metadata (see the module docstring). ``threshold`` (0-100) and
    ``margin`` default to the config's ``duplicate_threshold`` and ``ambiguity_margin``."""
    from .convert.matching import NearIndex
    from .store.merge import merge_record

    config = config or store.config
    threshold = config.duplicate_threshold if threshold is None else float(threshold)
    margin = config.ambiguity_margin if margin is None else float(margin)

    index = NearIndex()
    no_abstract = []
    for i, record in enumerate(official):
        if record.abstract:
            index.add(str(i), record.abstract)
        else:
            no_abstract.append(record.key)

    papers = [p for p in store if p.record.is_generated]
    # best candidates first; an official entry goes to the paper that scores best on it
    found: list[tuple[str, list[tuple[str, float]]]] = []
    unmatched: list[str] = []
    for paper in papers:
        hits = index.candidates(paper.record.abstract, threshold, limit=3) if paper.record.abstract else []
        if hits:
            found.append((paper.key, hits))
        else:
            unmatched.append(paper.key)

    def named(hits):
        return tuple((official[int(i)].key, score) for i, score in hits)

    ambiguous: list[tuple[str, tuple[tuple[str, float], ...]]] = []
    chosen: dict[str, tuple[str, float]] = {}  # key -> (official index, score)
    claimed: dict[str, str] = {}  # official index -> key
    for key, hits in sorted(found, key=lambda kh: (-kh[1][0][1], kh[0])):
        if len(hits) > 1 and hits[0][1] - hits[1][1] < margin:
            ambiguous.append((key, named(hits)))
            continue
        best = hits[0][0]
        if best in claimed:  # a closer paper (a duplicate in the store) took this entry
            ambiguous.append((key, named(hits[:1])))
            continue
        claimed[best] = key
        chosen[key] = (best, hits[0][1])

    by_key = {p.key: p for p in papers}
    from .convert.keys import FoldedKeys

    taken = FoldedKeys(store.keys())
    updates: list[tuple[str, Record]] = []
    changes: list[tuple[str, str, object, object]] = []
    matched: list[tuple[str, str, float]] = []
    for key in sorted(chosen):
        at, score = chosen[key]
        old = by_key[key].record
        new_key = key
        if rekey:
            # a key freed in this run is not given again in it (the store renames one by one)
            new_key = official_key(official[int(at)], _TakenBut(taken, key), config)
            taken.add(new_key)
        update = _official_update(old, official[int(at)], new_key)
        result = merge_record(old, update, official=True).evolve(key=new_key)
        for name in CHANGED_FIELDS:
            before, after = getattr(old, name), getattr(result, name)
            if before != after:
                changes.append((key, name, _show(name, before), _show(name, after)))
        matched.append((key, official[int(at)].key, score))
        updates.append((key, update))

    if not dry_run and updates:
        with store.transaction():
            for key, update in updates:
                store.replace_record(key, update, rekey=rekey and update.key != key)

    return ReconcileReport(
        matched=tuple(matched),
        ambiguous=tuple(sorted(ambiguous)),
        unmatched=tuple(sorted(unmatched)),
        changes=tuple(changes),
        no_abstract=tuple(no_abstract),
        dry_run=dry_run,
        threshold=threshold,
        margin=margin,
    )
