"""Whole jobs over the store: import files, export a selection (:mod:`readinglist.exportjobs`),
build the exports from seeds.

These are the library calls the CLI makes (one call per command); they raise typed errors and
print nothing. ``progress`` callbacks, when given, are called as ``progress(done, total, label)``
over the whole job: ``done`` of the ``total`` abstracts it generates so far (only those no earlier
import generated: see :mod:`readinglist.store.genmemo`; ``total`` is 0 until the files were read,
and is made exact file by file as each is matched), ``label`` what is being done (a file read,
a file whose abstracts are generated, "saving").
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, replace
from pathlib import Path
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .config import Config
from .exportjobs import (  # (the export jobs: offered here with the others)
    export_chunks as export_chunks,
    export_papers as export_papers,
    export_plan as export_plan,
    same_text as same_text,
)
from .record import Duplicate, ImportResult, Skipped

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
    whole; a ``.bib`` is read as it is split, its records then made part by part as they are
    stored, see ``BibtexImporter.parse_path_parts``), then abstract lists are converted and stored batch by batch as their abstracts are
    generated (:meth:`Store.importing`), so memory does not grow with the import; the store is
    written when the last file is done, and a bad file leaves it as it was. ``store`` may be a
    function returning the store: it is called once every file was checked (so a file refused
    then makes no store folder), and a store it made is removed again if the import fails
    before it is saved (unless generated abstracts were kept in it for the next import). Abstracts repeated across the files become one paper.
    ``processes`` > 1 lets importers fork workers for large lists (the CLI's choice; the library
    never forks). An abstract list whose header names no venue or year (and no ``venue`` /
    ``year`` given) is refused, unless ``ask_venue_year(path, missing)`` (``missing``: "venue",
    "year" or both) answers ``(venue, year)`` for that file; it is asked before any file is converted.
    """
    from .formats.registry import ImportOptions, find_importer
    from .formats.importing import MAX_YEAR, MIN_YEAR
    from .convert.reader import read_list, read_text

    if year is not None and not (isinstance(year, int) and MIN_YEAR <= year <= MAX_YEAR):
        from .errors import ValidationError

        raise ValidationError(f"year must be {MIN_YEAR}-{MAX_YEAR}, not {year!r}")
    if venue is not None and (not venue.strip() or not venue.isprintable()):
        from .errors import ValidationError

        raise ValidationError(f"venue must be a name on one line, not {venue!r}")
    options = ImportOptions(config=config, venue=venue, year=year, processes=processes)
    counter = _Counter(progress)
    # 1. every file read and checked (a list's header), before anything is converted or stored;
    # importers that cannot stream read their file now; of a list, the hashes of its abstracts
    # (what it may have to generate, counted once the store's memo is open)
    plan: list[tuple[str | os.PathLike, str, Any, ImportOptions, ImportResult | Iterator[ImportResult] | None]] = []
    abstracts: list[set[bytes] | None] = []
    sizes: list[int] = []
    generator = None
    for done, path in enumerate(paths):
        label = str(path) if len(paths) == 1 else f"{done + 1}/{len(paths)} {path}"
        counter.reading(f"reading {label}")
        file_options = replace(options, progress=counter.for_file(done)) if progress else options
        importer = find_importer(format, path)
        is_list = getattr(importer, "name", "") == "abstracts"
        whole = None
        if is_list and hasattr(importer, "iter_parse_path"):  # read as it comes: memory does not grow with the file
            from .convert.version import generator_version
            from .store.genmemo import abstract_hash

            generator = generator or generator_version(config)
            listing = read_list(path, source=str(path))
            hashes = {abstract_hash(p.text, generator) for p in listing.paragraphs()}
            if ask_venue_year is not None and (venue is None or year is None):
                file_options = _asked_venue_year(path, listing, file_options, ask_venue_year)
            if not hashes and not listing.skipped_count:  # no paragraph at all: not the file meant
                from .errors import InputError

                what = "empty" if listing.header is None else "a header and no abstracts"
                raise InputError(f"{path}: {what}: nothing to import")
            _check_venue_year(path, listing, file_options.venue, file_options.year, bool(hashes))
            abstracts.append(hashes)
            sizes.append(os.path.getsize(path))
        elif hasattr(importer, "parse_path_parts"):  # checked now as it is read, its records made part by part as they are stored
            whole = importer.parse_path_parts(path, source=display_path(path, config), options=file_options)
            abstracts.append(None)
            sizes.append(os.path.getsize(path))
        else:
            text = read_text(path)
            if not hasattr(importer, "iter_parse"):
                whole = importer.parse(text, source=display_path(path, config), options=file_options)
                abstracts.append(None)
            else:
                abstracts.append(set())
            sizes.append(len(text))
            del text
        plan.append((path, label, importer, file_options, whole))
    # 2. converted and stored as it comes
    opened = not hasattr(store, "importing")
    if opened:  # a callable that opens (or makes) the store
        store = store()
    results: list[ImportResult] = []

    def start(i: int) -> Iterator[ImportResult]:
        path, _, importer, file_options, _ = plan[i]
        source = display_path(path, config)
        if hasattr(importer, "iter_parse_path"):  # (an abstract list, read as it comes)
            begin = importer.prepare_path if processes > 1 else importer.iter_parse_path
            return begin(path, source=source, options=file_options)
        begin = getattr(importer, "prepare", None) if processes > 1 else None  # reads and matches now
        return (begin or importer.iter_parse)(read_text(path), source=source, options=file_options)

    started: dict[int, Iterator[ImportResult]] = {}
    memo = None
    saved = False
    from .interrupts import interrupted, uninterrupted

    try:
        with contextlib.ExitStack() as stack:
            memo = _generation_memo(store, config) if generator is not None else None
            if memo is not None:  # (closed last: it keeps what was generated, however the import ends)
                stack.callback(memo.close)
                plan = [(path, label, imp, replace(opts, memo=memo), whole) for path, label, imp, opts, whole in plan]
            # what each list is expected to generate: its abstracts the memo does not know (a file's
            # count is made exact once the file is matched: duplicates within it are not generated)
            expected: list[int] = []
            seen: set[bytes] = set()  # (an abstract repeated in a later list is generated once)
            for file_hashes in abstracts:
                hashes = (file_hashes or set()) - seen
                seen |= hashes
                expected.append(memo.unknown(hashes) if memo is not None else len(hashes))
            del seen
            counter.expect(expected)
            del abstracts
            from .convert.pipeline import PARALLEL_MIN

            if processes > 1 and any(n >= PARALLEL_MIN and size >= _LARGE_LIST for n, size in zip(expected, sizes)):
                # one pool for every list, forked now, while this process is small
                from .convert.pipeline import Workers

                counter.reading("starting the workers")
                workers = stack.enter_context(Workers(config, processes))
                plan = [(path, label, imp, replace(opts, workers=workers), whole) for path, label, imp, opts, whole in plan]
            importing = stack.enter_context(store.importing())
            for i, (_, label, _, _, whole) in enumerate(plan):
                if whole is not None:
                    for part in [whole] if isinstance(whole, ImportResult) else whole:
                        importing.add(part.records, part.states)
                        results.append(part.evolve(records=()))
                    continue
                counter.reading(label)
                parts = started.pop(i, None) or start(i)
                for part in parts:
                    if part.records:
                        importing.add(part.records, part.states)
                    if part.skipped or part.duplicates or part.warnings:
                        results.append(part.evolve(records=()))
                    if i + 1 < len(plan) and i + 1 not in started and plan[i + 1][4] is None:
                        # the next list read and matched here while the workers generate this one's
                        # abstracts (they would wait for it between the lists otherwise)
                        started[i + 1] = start(i + 1)
                counter.file_done(i)
            counter.reading("saving")
            with uninterrupted():  # every file written and the cache told, or nothing (held: a signal comes after)
                stack.close()
                saved = True
    except BaseException as exc:
        if opened and not saved and not getattr(memo, "kept", 0) and hasattr(store, "discard_if_new"):
            store.discard_if_new()  # a store made for this import that failed (an entry of a .bib's later part): no trace
        if isinstance(exc, KeyboardInterrupt):  # Ctrl-C, SIGTERM (readinglist.interrupts): say what was kept
            raise interrupted(exc, _kept(saved, memo, store)) from None
        raise
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


class _Counter:
    """The progress of a whole import, told to ``progress(done, total, label)``: ``done`` of the
    ``total`` abstracts the import generates (those of every list that neither an earlier import
    generated nor repeat another abstract), ``label`` what is being done."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.expected: dict[int, int] = {}  # file -> abstracts it generates (estimated, then exact)
        self.done: dict[int, int] = {}  # file -> abstracts generated so far
        self.label = ""

    def _tell(self) -> None:
        if self.progress is not None:
            self.progress(sum(self.done.values()), sum(self.expected.values()), self.label)

    def reading(self, label: str) -> None:
        """A step with nothing to count (a file read and checked, the store saved)."""
        self.label = label
        self._tell()

    def expect(self, counts: list[int]) -> None:
        self.expected = dict(enumerate(counts))

    def for_file(self, i: int) -> Callable[[int, int], None]:
        """The item progress of file ``i``: ``(done, total)`` of its abstracts to generate."""

        def items(done: int, total: int) -> None:
            self.done[i] = done
            self.expected[i] = total  # (exact now that the file was matched)
            self._tell()

        return items

    def file_done(self, i: int) -> None:
        self.expected[i] = self.done.get(i, 0)
        self._tell()


def _kept(saved: bool, memo, store) -> str:
    """What an interrupted import kept, in a sentence."""
    if saved:
        return f"the import was saved in {store.root} before it stopped"
    kept = getattr(memo, "kept", 0)
    generated = f"; {kept:,} generated abstract{'s are' if kept != 1 else ' is'} kept for the next import" if kept else ""
    return f"nothing was imported (the store is as it was){generated}"


def _generation_memo(store, config: Config):
    """The store's memo of generated fields for ``config``'s generator, or None (a store
    without a cache folder, or one that cannot be used)."""
    cache_dir = getattr(store, "cache_dir", None)
    if cache_dir is None:
        return None
    from .convert.version import generator_version
    from .store.genmemo import GenerationMemo

    return GenerationMemo.open(cache_dir, generator_version(config))


#: A list this long (characters) may hold PARALLEL_MIN abstracts (at ~1,300 characters each):
#: worth forking the generation workers for.
_LARGE_LIST = 400_000


def _rekeyed_warning(wanted: str, given: str) -> str:
    from .convert.keys import key_problem

    return f"key {wanted!r} cannot be a citation key ({key_problem(wanted)}); the paper is {given}"


def _asked_venue_year(path, listing, options: ImportOptions, ask: AskVenueYear) -> ImportOptions:
    """``options`` with the venue and year ``ask`` gives for a list whose header (``listing``:
    a :class:`~readinglist.convert.reader.ListReader`) lacks them."""
    missing = tuple(name for name, given, found in (("venue", options.venue, listing.venue), ("year", options.year, listing.year)) if given is None and found is None)
    if not missing:
        return options
    venue, year = ask(str(path), missing)
    return replace(options, venue=options.venue if venue is None else venue, year=options.year if year is None else year)


def _check_venue_year(path, listing, venue, year, any_abstract: bool) -> None:
    """An abstract list whose header names no venue or year is refused before any key is
    given (keys and the .bib need the year, booktitle needs the venue)."""
    missing = []
    if venue is None and not listing.venue:
        missing.append(("venue", "--venue NAME"))
    if year is None and not listing.year:
        missing.append(("year", "--year YYYY"))
    if missing and any_abstract:  # (a list of no abstracts needs neither)
        from .errors import InputError

        what = " or ".join(m for m, _ in missing)
        raise InputError(f"no {what} in {path}: pass {' '.join(f for _, f in missing)}")


def display_path(path: str | os.PathLike, config: Config, *, outside: str = "absolute") -> str:
    """A source path as records remember it, the same from any folder: relative to the folder
    that holds the store (the project) when inside it, else to the config's folder, else
    absolute (``outside="name"``: the file name only)."""
    p = Path(path).resolve()
    for base in (Path(config.store).resolve().parent, config.root.resolve()):
        try:
            return p.relative_to(base).as_posix()
        except ValueError:
            continue
    return p.name if outside == "name" else p.as_posix()


@dataclass(frozen=True)
class BuildReport:
    imported: ImportReport
    written: tuple[str, ...]  # export files whose content changed
    unchanged: tuple[str, ...] = ()  # export files already up to date


def build(store, *, config: Config, progress: Progress | None = None, processes: int = 1) -> BuildReport:
    """The main job: import every ``*.txt`` list in ``config.seeds`` into ``store`` and write
    ``config.exports`` (a .bib, a CSL-JSON and a Zotero RDF per venue-year, and a Markdown reading list).
    ``store`` may be a function that opens the store: it is called once there are lists to
    build from, so a folder without seeds gets no empty store."""
    from .errors import InputError
    from .formats.registry import ExportOptions

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
        options = ExportOptions(config=config, group_by="tag" if fmt == "markdown" else None, title=title, processes=processes)
        text = export_papers(group, options, format=fmt)
        target = Path(config.exports) / name
        if same_text(target, text):
            unchanged.append(str(target))
            continue
        from .store.atomic import write_output

        write_output(target, text)
        written.append(str(target))
    return BuildReport(imported=imported, written=tuple(written), unchanged=tuple(unchanged))
