"""Whole jobs over the store: import files, export a selection, build the exports from seeds.

These are the library calls the CLI makes (one call per command); they raise typed errors and
print nothing. ``progress`` callbacks, when given, are called as ``progress(done, total, label)``:
``done`` of ``total`` abstracts of the file ``label`` generated so far, or ``(0, 0, label)`` while a
file is read and matched or the store is saved (nothing to count).
"""

from __future__ import annotations

import contextlib
import itertools
import os
from dataclasses import dataclass, replace
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .config import Config
from .record import Duplicate, ImportResult, Paper, Skipped

if TYPE_CHECKING:
    from .formats.registry import ImportOptions

Progress = Callable[[int, int, str], None]
#: ``(path, missing) -> (venue, year)``: asks for what a list's header does not name.
AskVenueYear = Callable[[str, tuple[str, ...]], tuple[str | None, int | None]]


@dataclass(frozen=True)
class ImportReport:
    """What one import did, file by file merged into one summary."""

    files: tuple[str, ...]
    added: tuple[str, ...]
    updated: tuple[str, ...]
    unchanged: tuple[str, ...]
    duplicates: tuple[Duplicate, ...]
    skipped: tuple[Skipped, ...]
    renamed: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()
    #: records that are exactly a paper already in the store under another key (its key was
    #: renamed by hand, or the key pattern changed): counted as updated/unchanged, not reported
    known: tuple[Duplicate, ...] = ()


def import_files(
    store,
    paths: Sequence[str | os.PathLike],
    *,
    config: Config,
    format: str | None = None,
    venue: str | None = None,
    year: int | None = None,
    progress: Progress | None = None,
    processes: int = 1,
    ask_venue_year: AskVenueYear | None = None,
) -> ImportReport:
    """Read every file with its importer (by ``format`` name, else by suffix) into ``store``.

    Every file is read and checked first (an abstract list's header; any other format is read
    whole), then abstract lists are converted and stored batch by batch as their abstracts are
    generated (:meth:`Store.importing`), so memory does not grow with the import; the store is
    written when the last file is done, and a bad file leaves it as it was. ``store`` may be a
    function returning the store: it is called once every file was checked (so a file refused
    then makes no store folder). Abstracts repeated across the files become one paper.
    ``processes`` > 1 lets importers fork workers for large lists (the CLI's choice; the library
    never forks). An abstract list whose header names no venue or year (and no ``venue`` /
    ``year`` given) is refused, unless ``ask_venue_year(path, missing)`` (``missing``: "venue",
    "year" or both) answers ``(venue, year)`` for that file; it is asked before any file is converted.
    """
    from .formats.registry import ImportOptions, find_importer
    from .formats.importing import MAX_YEAR, MIN_YEAR
    from .convert.reader import read_text

    if year is not None and not (isinstance(year, int) and MIN_YEAR <= year <= MAX_YEAR):
        from .errors import ValidationError

        raise ValidationError(f"year must be {MIN_YEAR}-{MAX_YEAR}, not {year!r}")
    if venue is not None and (not venue.strip() or not venue.isprintable()):
        from .errors import ValidationError

        raise ValidationError(f"venue must be a name on one line, not {venue!r}")
    options = ImportOptions(config=config, venue=venue, year=year, processes=processes)
    # 1. every file read and checked (a list's header), before anything is converted or stored;
    # importers that cannot stream read their file now
    plan: list[tuple[str | os.PathLike, str, Any, ImportOptions, ImportResult | None]] = []
    large = False  # a list that may be long enough to generate in worker processes
    for done, path in enumerate(paths):
        label = str(path) if len(paths) == 1 else f"{done + 1}/{len(paths)} {path}"
        file_options = options
        if progress:
            progress(0, 0, label)  # reading and matching the file: no count yet

            def items(n: int, total: int, label: str = label) -> None:
                progress(n, total, label)  # abstracts generated in this file

            file_options = replace(options, progress=items)
        importer = find_importer(format, path)
        text = read_text(path)
        is_list = getattr(importer, "name", "") == "abstracts"
        if is_list:
            if ask_venue_year is not None and (venue is None or year is None):
                file_options = _asked_venue_year(path, text, file_options, ask_venue_year)
            _check_venue_year(path, text, file_options.venue, file_options.year)
        whole = None
        if not hasattr(importer, "iter_parse"):
            whole = importer.parse(text, source=_display_path(path, config), options=file_options)
        large = large or (whole is None and len(text) >= _LARGE_LIST)
        del text
        plan.append((path, label, importer, file_options, whole))
    # 2. converted and stored as it comes
    if not hasattr(store, "importing"):  # a callable that opens (or makes) the store
        store = store()
    results: list[ImportResult] = []

    def start(i: int) -> Iterator[ImportResult]:
        path, _, importer, file_options, _ = plan[i]
        begin = getattr(importer, "prepare", None) if processes > 1 else None  # reads and matches now
        return (begin or importer.iter_parse)(read_text(path), source=_display_path(path, config), options=file_options)

    started: dict[int, Iterator[ImportResult]] = {}
    with contextlib.ExitStack() as stack:
        if processes > 1 and large:
            # one pool for every list, forked now, while this process is small
            from .convert.pipeline import Workers

            workers = stack.enter_context(Workers(config, processes))
            plan = [(path, label, imp, replace(opts, workers=workers), whole) for path, label, imp, opts, whole in plan]
        importing = stack.enter_context(store.importing())
        for i, (_, label, _, _, whole) in enumerate(plan):
            if whole is not None:
                importing.add(whole.records, whole.states)
                results.append(replace(whole, records=()))
                continue
            if progress:
                progress(0, 0, label)
            parts = started.pop(i, None) or start(i)
            for part in parts:
                if part.records:
                    importing.add(part.records, part.states)
                if part.skipped or part.duplicates or part.warnings:
                    results.append(replace(part, records=()))
                if i + 1 < len(plan) and i + 1 not in started and plan[i + 1][4] is None:
                    # the next list read and matched here while the workers generate this one's
                    # abstracts (they would wait for it between the lists otherwise)
                    started[i + 1] = start(i + 1)
        if progress:
            progress(0, 0, "saving")
    summary = importing.summary()
    return ImportReport(
        files=tuple(str(p) for p in paths),
        added=summary.added,
        updated=summary.updated,
        unchanged=summary.unchanged,
        duplicates=tuple(d for res in results for d in res.duplicates) + tuple(d for d in summary.duplicates if not d.exact),
        known=tuple(d for d in summary.duplicates if d.exact),
        skipped=tuple(s for res in results for s in res.skipped),
        renamed=tuple(summary.renamed),
        warnings=tuple(w for res in results for w in res.warnings)
        + tuple(_rekeyed_warning(wanted, given) for wanted, given in summary.rekeyed)
        + tuple(f"{key}: removed {n} control character{'s' if n > 1 else ''} (ESC, BEL, ...) from the imported text" for key, n in summary.controls),
    )


#: A list this long (characters) may hold PARALLEL_MIN abstracts (at ~1,300 characters each):
#: worth forking the generation workers for.
_LARGE_LIST = 400_000


def _rekeyed_warning(wanted: str, given: str) -> str:
    from .convert.keys import key_problem

    return f"key {wanted!r} cannot be a citation key ({key_problem(wanted)}); the paper is {given}"


def _asked_venue_year(path, text: str, options: ImportOptions, ask: AskVenueYear) -> ImportOptions:
    """``options`` with the venue and year ``ask`` gives for a list whose header lacks them."""
    from .convert.reader import parse_list

    header = parse_list(text, source=str(path))
    missing = tuple(name for name, given, found in (("venue", options.venue, header.venue), ("year", options.year, header.year)) if given is None and found is None)
    if not missing:
        return options
    venue, year = ask(str(path), missing)
    return replace(options, venue=options.venue if venue is None else venue, year=options.year if year is None else year)


def _check_venue_year(path, text: str, venue, year) -> None:
    """An abstract list whose header names no venue or year is refused before any key is
    given (keys and the .bib need the year, booktitle needs the venue)."""
    from .convert.reader import parse_header, parse_list

    found_venue, found_year = parse_header(text)
    missing = []
    if venue is None and not found_venue:
        missing.append(("venue", "--venue NAME"))
    if year is None and not found_year:
        missing.append(("year", "--year YYYY"))
    if missing and parse_list(text, source=str(path)).paragraphs:  # (a list of no abstracts needs neither)
        from .errors import InputError

        what = " or ".join(m for m, _ in missing)
        raise InputError(f"no {what} in {path}: pass {' '.join(f for _, f in missing)}")


def _display_path(path: str | os.PathLike, config: Config) -> str:
    """A source path as records remember it, the same from any folder: relative to the folder
    that holds the store (the project) when inside it, else to the config's folder, else
    absolute."""
    p = Path(path).resolve()
    for base in (Path(config.store).resolve().parent, config.root.resolve()):
        try:
            return p.relative_to(base).as_posix()
        except ValueError:
            continue
    return p.as_posix()


def export_papers(
    papers: Sequence[Paper],
    *,
    config: Config,
    format: str | None = None,
    path: str | os.PathLike | None = None,
    with_status: bool = False,
    with_notes: bool = False,
    group_by: str | None = None,
    title: str | None = None,
    reading_list=None,
    collection: str | None = None,
    unicode: bool = False,
) -> str:
    """The text of ``papers`` in ``format`` (by name, else by ``path``'s suffix).

    ``reading_list`` (a :class:`~readinglist.store.lists.Resolved`) is handed to the exporter in
    its options; ``papers`` should then be the list's papers in order."""
    return "".join(
        export_chunks(
            papers, config=config, format=format, path=path, with_status=with_status, with_notes=with_notes,
            group_by=group_by, title=title, reading_list=reading_list, collection=collection, unicode=unicode,
        )
    )  # fmt: skip


def export_chunks(
    papers: Sequence[Paper],
    *,
    config: Config,
    format: str | None = None,
    path: str | os.PathLike | None = None,
    with_status: bool = False,
    with_notes: bool = False,
    group_by: str | None = None,
    title: str | None = None,
    reading_list=None,
    collection: str | None = None,
    unicode: bool = False,
) -> Iterator[str]:
    """:func:`export_papers`' text in pieces, for writing as they come: an exporter may offer
    ``export_chunks(papers, options)`` (an iterator of strings, the built-in ones do); one
    that only has ``export`` gives its whole text as one piece. The exporter's checks run
    before the first piece is returned."""
    from .formats.registry import ExportOptions, find_exporter

    exporter = find_exporter(format, path)
    options = ExportOptions(
        config=config, with_status=with_status, with_notes=with_notes, group_by=group_by, title=title,
        reading_list=reading_list, collection=collection, unicode=unicode,
    )
    chunks = getattr(exporter, "export_chunks", None)
    if chunks is None:
        return iter([exporter.export(list(papers), options)])
    pieces = iter(chunks(list(papers), options))
    first = next(pieces, "")  # runs the exporter's checks now, not halfway through writing
    return itertools.chain([first], pieces)


@dataclass(frozen=True)
class BuildReport:
    imported: ImportReport
    written: tuple[str, ...]  # export files whose content changed
    unchanged: tuple[str, ...] = ()  # export files already up to date


def _same_text(path: Path, text: str) -> bool:
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


def build(store, *, config: Config, progress: Progress | None = None, processes: int = 1) -> BuildReport:
    """The main job: import every ``*.txt`` list in ``config.seeds`` into ``store`` and write
    ``config.exports`` (a .bib, a CSL-JSON and a Zotero RDF per venue-year, and a Markdown reading list).
    ``store`` may be a function that opens the store: it is called once there are lists to
    build from, so a folder without seeds gets no empty store."""
    from .errors import InputError

    seeds = sorted(Path(config.seeds).glob("*.txt"))
    if not seeds:
        raise InputError(f"{config.seeds}: no abstract lists (*.txt) to build from")
    if callable(store):
        store = store()
    imported = import_files(store, seeds, config=config, format="abstracts", progress=progress, processes=processes)
    papers = list(store)
    written, unchanged = [], []
    for name, (fmt, group) in export_plan(papers).items():
        title = "Reading list" if fmt == "markdown" else None
        text = export_papers(group, config=config, format=fmt, group_by="tag" if fmt == "markdown" else None, title=title)
        target = Path(config.exports) / name
        if _same_text(target, text):
            unchanged.append(str(target))
            continue
        from .store.atomic import write_output

        write_output(target, text)
        written.append(str(target))
    return BuildReport(imported=imported, written=tuple(written), unchanged=tuple(unchanged))
