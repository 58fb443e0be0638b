"""The export jobs: the text of papers in a format, whole (:func:`export_papers`) or in pieces
(:func:`export_chunks`); what ``build`` writes (:func:`export_plan`) and whether a file holds it
already (:func:`same_text`). :mod:`readinglist.jobs` offers them with the other jobs.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import replace
from pathlib import Path
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .formats.registry import ExportOptions
    from .record import Paper


def export_papers(
    papers: Sequence[Paper],
    options: ExportOptions | None = None,
    *,
    format: str | None = None,
    path: str | os.PathLike | None = None,
    **fields: Any,
) -> str:
    """The text of ``papers`` in ``format`` (by name, else by ``path``'s suffix), exported with
    ``options`` (an :class:`~readinglist.formats.registry.ExportOptions`: the configuration and
    what the exporter is asked for), or with its fields given as keywords instead
    (``config=..., with_status=True``).

    A ``reading_list`` (a :class:`~readinglist.store.lists.Resolved`) in the options is handed
    to the exporter; ``papers`` should then be the list's papers in order. ``processes`` > 1
    lets a large export be rendered by forked processes (the same text; by default nothing
    forks)."""
    return "".join(export_chunks(papers, options, format=format, path=path, **fields))


def export_chunks(
    papers: Sequence[Paper],
    options: ExportOptions | None = None,
    *,
    format: str | None = None,
    path: str | os.PathLike | None = None,
    **fields: Any,
) -> Iterator[str]:
    """:func:`export_papers`' text in pieces, for writing as they come: an exporter may offer
    ``export_chunks(papers, options)`` (an iterator of strings, the built-in ones do); one
    that only has ``export`` gives its whole text as one piece. The exporter's checks run
    before the first piece is returned."""
    from .formats.registry import ExportOptions, find_exporter

    if options is None:
        options = ExportOptions(**fields)
    elif fields:
        raise TypeError(f"export options given twice: an ExportOptions and {', '.join(fields)}")
    if not isinstance(options.reading_lists, tuple):
        options = replace(options, reading_lists=tuple(options.reading_lists))
    exporter = find_exporter(format, path)
    chunks = getattr(exporter, "export_chunks", None)
    if chunks is None:
        return iter([exporter.export(list(papers), options)])
    pieces = iter(chunks(list(papers), options))
    first = next(pieces, "")  # runs the exporter's checks now, not halfway through writing
    return itertools.chain([first], pieces)


def same_text(path: Path, text: str) -> bool:
    """Whether the file at ``path`` already holds ``text`` (build and the auto-exports write a
    file only when its text changes); False when it cannot be read."""
    from .store.atomic import read_bounded

    try:
        return read_bounded(path) == text.encode("utf-8")
    except OSError:
        return False


def export_plan(papers: Iterable[Paper]) -> dict[str, tuple[str, list[Paper]]]:
    """What ``build`` writes: file name -> (format, papers). A .bib, a CSL-JSON and a Zotero RDF per
    venue-year (``neurips-2026.bib``), and one Markdown reading list of everything grouped by tag."""
    from .convert.keys import clean_key
    from .keyform import file_stem

    papers = list(papers)
    groups: dict[str, list[Paper]] = {}
    for paper in papers:
        rec = paper.record
        stem = file_stem("-".join(part for part in (clean_key(rec.venue or "unknown"), str(rec.year or "")) if part))  # the store's name rule
        groups.setdefault(stem, []).append(paper)
    plan: dict[str, tuple[str, list[Paper]]] = {}
    for stem, group in sorted(groups.items()):
        plan[f"{stem}.bib"] = ("bibtex", group)
        plan[f"{stem}.json"] = ("csljson", group)
        plan[f"{stem}.rdf"] = ("zotero", group)
    plan["reading-list.md"] = ("markdown", papers)
    return plan
