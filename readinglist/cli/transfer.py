"""Commands that move papers in and out of the store: import, export, build, reconcile."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from .common import (
    status_console,
    echo,
    count_phrase,
    warn_broken,
    state,
)
from ..selection import Filter
from .options import filter_options, with_filters

commands = typer.Typer()


def _worker_processes() -> int:
    """The CLI owns its process, so large imports may fork one worker per core (up to 8)."""
    return min(state.processes, 8)


@commands.command("import")
def import_(
    paths: List[Path] = typer.Argument(..., help="Abstract lists, .bib or CSL-JSON files."),
    venue: Optional[str] = typer.Option(None, help="Venue, overriding the list's header (e.g. ICML)."),
    year: Optional[int] = typer.Option(None, min=1000, max=2999, help="Year, overriding the list's header (1000-2999)."),
    format: Optional[str] = typer.Option(None, "--format", "-f", help="Importer name (else from the file suffix)."),
) -> None:
    """Import abstract lists (and any format an importer plugin reads) into the store.

    Re-importing a list, or a newer version of it, keeps every key, status, note and tag.

    Example: readinglist import seeds/*.txt --venue NeurIPS --year 2026
    """
    from ..jobs import import_files

    paths = _expand_folders(paths)
    progress = _progress_bar(len(paths))
    try:
        # the store is opened (and made) only once every file was read and converted
        report = import_files(
            lambda: state.open_store(create=True),
            paths,
            config=state.config,
            format=format,
            venue=venue,
            year=year,
            progress=progress,
            processes=_worker_processes(),
            ask_venue_year=_venue_year_prompt(progress),
        )
    finally:
        if progress:
            progress.close()
    _print_import_report(report)


def _venue_year_prompt(progress):
    """On a terminal, a list whose header names no venue or year gets them asked for (the
    progress display paused meanwhile); elsewhere None: such a list is refused, with the fix."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return None

    def ask(path: str, missing: tuple[str, ...]) -> tuple[str | None, int | None]:
        if progress:
            progress.pause()
        try:
            echo(f"{path}: no {' or '.join(missing)} in its header (keys and the .bib need them)", err=True)
            venue = year = None
            while "venue" in missing and not (venue and venue.strip() and venue.isprintable()):
                venue = typer.prompt("venue (e.g. ICML)", err=True).strip()
            while "year" in missing and not (year and 1000 <= year <= 2999):
                if year is not None:
                    echo("error: a year from 1000 to 2999", err=True)
                year = typer.prompt("year", type=int, err=True)
            return venue, year
        finally:
            if progress:
                progress.resume()

    return ask


def _expand_folders(paths: list[Path]) -> list[Path]:
    """``import seeds/``: a folder stands for the files in it that an importer reads by suffix."""
    if not any(p.is_dir() for p in paths):
        return paths
    from ..errors import InputError
    from ..formats.registry import all_importers

    suffixes = {s for imp in all_importers() for s in imp.suffixes}
    out: list[Path] = []
    for p in paths:
        if not p.is_dir():
            out.append(p)
            continue
        found = sorted(f for f in p.iterdir() if f.suffix in suffixes and f.is_file())
        if not found:
            raise InputError(f"{p}: a folder with no lists to import ({', '.join('*' + s for s in sorted(suffixes))})")
        out += found
    return out


def _progress_bar(total: int):
    """A rich progress display on stderr when stderr is a terminal, else None: one bar over the
    whole import, counting the abstracts it really generates (not those an earlier import
    generated), with their rate and the time left measured from the first count on (steady from
    the first seconds: no per-file restart, no burst of results read as a rate); a spinner with
    what is being done while the lists are read and matched or the store is saved."""
    if not sys.stderr.isatty():
        return None
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    # the rate from the counts told, not from the time of drawing: (time, done) of the first
    # count (the workers' start-up and the first list's matching are behind it) and of the last
    first: list[tuple[float, int]] = []
    last: list[tuple[float, int]] = [(0.0, 0)]

    def rate() -> float | None:
        """Abstracts a second since the first count, once a second of counting is behind."""
        if not first or last[0][0] - first[0][0] < 1.0 or last[0][1] <= first[0][1]:
            return None
        return (last[0][1] - first[0][1]) / (last[0][0] - first[0][0])

    class Rate(ProgressColumn):
        def render(self, task) -> Text:
            r = rate()
            return Text(f"{r:,.1f} abstracts/s" if r else "", style="dim")

    class TimeLeft(ProgressColumn):
        def render(self, task) -> Text:
            r = rate()
            if not task.total or task.finished:
                return Text("")
            if not r:
                return Text("-:--:-- left", style="cyan")
            left = max(0, int((task.total - last[0][1]) / r - (time.monotonic() - last[0][0])))
            return Text(f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d} left", style="cyan")

    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Rate(),
        TimeElapsedColumn(),
        TimeLeft(),
        console=status_console(),
        transient=True,
    )
    task = bar.add_task("reading", total=None)
    bar.start()

    def update(done: int, total: int, label: str) -> None:
        from ..interrupts import uninterrupted

        if done and done != last[0][1]:
            now = time.monotonic()
            if not first:
                first.append((now, done))
            last[0] = (now, done)
        with uninterrupted():  # (Ctrl-C never lands inside rich's drawing: the bar is then erased whole)
            bar.update(task, description=_short(label), completed=done, total=total or None)

    def close() -> None:
        from ..interrupts import uninterrupted

        with uninterrupted():
            bar.stop()

    update.close = close  # type: ignore[attr-defined]
    update.pause = bar.stop  # type: ignore[attr-defined]
    update.resume = bar.start  # type: ignore[attr-defined]
    return update


def _short(label: str, width: int = 40) -> str:
    """A file's label cut to ``width`` characters from the left (the file name is at the end)."""
    return label if len(label) <= width else "…" + label[-(width - 1) :]


#: Duplicates listed one by one in an import's report; past them, one line counts the rest.
_DUPLICATES_LISTED = 100


def _print_import_report(report) -> None:
    """What an import did, on stderr (each skipped paragraph and duplicate: a long list's first
    ones, then one line per reason for the rest), and the summary naming the store on stdout."""
    from ..text.controls import escape_controls

    err = sys.stderr
    skipped = 0
    for s in report.skipped:
        skipped += s.count
        if s.count == 1 and s.text:
            print(f"skipped {s.source}: {s.reason}: {s.text!r}", file=err)
        else:
            print(f"… and {s.count:,} more skipped in {s.source.file} (from line {s.source.line} on): {s.reason}", file=err)
    for d in report.duplicates[:_DUPLICATES_LISTED]:
        kind = "duplicate" if d.exact else f"near-duplicate ({d.similarity:.0f}%)"
        print(f"{kind} {d.source}: same paper as {d.key}", file=err)
    if len(report.duplicates) > _DUPLICATES_LISTED:
        print(f"… and {len(report.duplicates) - _DUPLICATES_LISTED:,} more duplicates, each merged into the paper it repeats", file=err)
    for wanted, given in report.renamed:
        print(f"key {wanted} was taken; the new paper is {given}", file=err)
    for w in report.warnings:
        print(f"warning: {escape_controls(w, keep='')}", file=err)
    echo(
        f"{len(report.added)} added, {len(report.updated)} updated, {len(report.unchanged)} unchanged, "
        f"{count_phrase(len(report.duplicates), 'duplicate')}, {count_phrase(skipped, 'skipped paragraph')}" + _into_store()
    )


def _into_store() -> str:
    """`` in STORE``: which store the import wrote (said most plainly when it is the user's
    default one, which nothing on the command line named)."""
    store = state._store
    if store is None:
        return ""
    root = getattr(store, "root", None)
    if state.store_path is None and state.config.store_from == "user default":
        return f" in your default store {root} (no library/ or config.toml here or above: readinglist where)"
    return f" in {root}"


@commands.command()
@with_filters
def export(
    format: Optional[str] = typer.Option(None, "--format", "-f", help="An exporter's name (`readinglist formats` lists them; else from -o's suffix)."),
    output_name: Optional[str] = typer.Option(None, "--output", "-o", help="Write here (else stdout).", metavar="PATH"),
    where: Filter = filter_options(),
    sort: str = typer.Option("key", help="Order of entries (as for list)."),
    group_by: Optional[str] = typer.Option(None, "--group-by", help="Markdown: tag (under every tag) | first-tag | status | venue | priority."),
    with_status: bool = typer.Option(False, "--with-status", help="Include reading status, priority and rating."),
    with_notes: bool = typer.Option(False, "--with-notes", help="Include your notes (BibTeX annote, CSL note)."),
    unicode: bool = typer.Option(False, "--unicode", help="BibTeX: UTF-8 Unicode text (biber, Zotero) instead of ASCII LaTeX."),
    title: Optional[str] = typer.Option(None, "--title", help="Markdown/HTML: the list's heading; Zotero RDF: the collection's name."),
    list_name: Optional[str] = typer.Option(
        None, "--list", "-l", metavar="NAME", help="Export this curated list, in its order (filters narrow it)."
    ),
    keep_updated: bool = typer.Option(
        False, "--keep-updated", help="Rewrite -o's file after every change to the store that alters it (auto-export)."
    ),
) -> None:
    """Export a selection of the store, or a curated list, as BibTeX, CSL-JSON, Markdown or HTML.

    Example: readinglist export -o to-read.md --status unread --group-by tag
    """
    from ..errors import ValidationError
    from ..exportspec import ExportSpec, render
    from ..store.atomic import write_output

    if output_name is not None and not output_name.strip():
        from ..errors import OutputError

        raise OutputError("the output file name (-o) is empty")
    output = Path(output_name) if output_name is not None else None
    if format is None and output is None:
        raise ValidationError("say which format: -f NAME (readinglist formats lists them), or -o FILE with a known suffix")
    if keep_updated and output is None:
        raise ValidationError("--keep-updated needs -o FILE: the file to keep up to date")
    spec = ExportSpec(
        path=output_name, format=format, where=where, sort=sort, list_name=list_name, group_by=group_by,
        with_status=with_status, with_notes=with_notes, unicode=unicode, title=title,
    )  # fmt: skip
    count, chunks = render(state.store, state.config, spec, warn=lambda message: echo(f"warning: {message}", err=True), processes=state.processes)
    warn_broken()  # a paper file that does not parse is left out, and said so
    if output is None:
        for chunk in chunks:  # written as they come: a large export never holds every string
            sys.stdout.write(chunk)
    else:
        if not os.path.lexists(output.parent):  # a typo must not grow folders (no mkdir -p)
            from ..errors import OutputError

            raise OutputError(f"{output}: no folder {output.parent}; create it first")
        try:
            write_output(output, chunks)
        except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM: the temporary file is gone, the child stopped
            from ..interrupts import interrupted

            as_it_was = f"{output} is as it was" if os.path.lexists(output) else f"{output} was not written"
            raise interrupted(exc, f"nothing was exported ({as_it_was})") from None
        echo(f"{count_phrase(count, 'paper')} written to {output}", err=True)
        if keep_updated:
            from ..autoexport import add, path_of

            kept = add(state.store, spec)
            echo(f"kept updated after each change: {kept.path} (in {path_of(state.store)}; readinglist auto-export lists them)", err=True)


@commands.command("auto-export")
def auto_export(
    remove: Optional[str] = typer.Option(None, "--remove", metavar="PATH", help="Stop keeping PATH updated (the file stays)."),
    now: bool = typer.Option(False, "--now", help="Rewrite every auto-export whose text changed, now."),
) -> None:
    """List the auto-exports (files rewritten after each change to the store, made with export
    --keep-updated), stop one, or refresh them now.

    Example: readinglist auto-export ; readinglist auto-export --remove ../paper/refs.bib
    """
    from .. import autoexport

    store = state.store
    if remove is not None:
        gone = autoexport.remove(store, remove)
        echo(f"no longer kept updated: {gone.path} (the file stays)")
        return
    if now:
        for r in autoexport.refresh(store, state.config):
            echo(f"{r.path}: " + (f"not updated: {r.error}" if r.error else "updated" if r.written else "up to date"))
        return
    specs = autoexport.load(store)
    if not specs:
        echo("no auto-exports (readinglist export -o FILE ... --keep-updated makes one)")
    for spec in specs:
        what = [f"list {spec.list_name}" if spec.list_name else "", spec.where.describe(), spec.format or ""]
        echo(f"{spec.path}  ({'; '.join(w for w in what if w) or 'all papers'})")


@commands.command()
def build() -> None:
    """The main job: import every list in seeds/ and write exports/ (a .bib and a CSL-JSON per
    venue-year, and a Markdown reading list). Folders come from config.toml.

    Example: readinglist build
    """
    from ..jobs import build as run_build

    cfg = state.config
    progress = _progress_bar(1)
    try:
        report = run_build(lambda: state.open_store(create=True, here=True), config=cfg, progress=progress, processes=_worker_processes())
    finally:
        if progress:
            progress.close()
    _print_import_report(report.imported)
    for path in report.written:
        echo(f"wrote {path}")
    for path in report.unchanged:
        echo(f"up to date: {path}")


@commands.command()
def reconcile(
    official: Path = typer.Argument(..., help="The official proceedings: .bib or CSL-JSON."),
    rekey: bool = typer.Option(False, "--rekey", help="Give reconciled papers keys from the official metadata."),
    dry_run: bool = typer.Option(False, "--dry-run", "-n", help="Show the changes, write nothing."),
    format: Optional[str] = typer.Option(None, "--format", "-f", help="Importer for OFFICIAL (else from the suffix)."),
) -> None:
    """Replace generated titles with the official metadata (title, authors, DOI, URL, pages),
    matching papers by their abstracts; keys, status, notes and tags are kept.

    Example: readinglist reconcile neurips2026-official.bib --dry-run
    """
    from ..reconciler import load_official
    from ..reconciler import reconcile as run

    cfg = state.config
    official_records = load_official(official, config=cfg, format=format)
    for warning in official_records.warnings:
        echo(f"warning: {warning}", err=True)
    report = run(state.store, official_records.records, rekey=rekey, dry_run=dry_run, config=cfg)
    for key, field, old, new in report.changes:
        echo(f"{key}: {field}: {old!r} -> {new!r}")
    for key, candidates in report.ambiguous:
        echo(f"ambiguous {key}: " + ", ".join(f"{c} ({s:.0f}%)" for c, s in candidates), err=True)
    for key in report.unmatched:
        echo(f"unmatched {key}", err=True)
    for official_id in report.no_abstract:
        echo(f"official entry {official_id} has no abstract to match on", err=True)
    echo(
        f"{len(report.matched)} matched, {len(report.ambiguous)} ambiguous, {len(report.unmatched)} unmatched"
        + (" (dry run: nothing written)" if dry_run else "")
    )


