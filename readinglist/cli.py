"""The ``readinglist`` command: a thin typer layer over the library API.

Each command parses its options, makes one library call and prints the result. Library errors
(:class:`~readinglist.errors.ReadinglistError`) become one line on stderr and exit status 1;
usage errors exit 2. Heavy modules are imported inside the commands so start-up stays fast.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from typing import List, Optional

import typer
from typer.core import TyperGroup

from . import __version__
from .errors import ReadinglistError
from .record import SORTS, STATUSES

class _Group(TyperGroup):
    """Library errors become one line on stderr and exit status 1, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ReadinglistError as exc:
            from .text.controls import escape_controls

            typer.echo(f"readinglist: error: {escape_controls(str(exc), keep='')}", err=True)
            raise typer.Exit(1) from None
        except RecursionError:  # the last guard: readers bound their depth, but never a traceback
            typer.echo("readinglist: error: an input is nested too deeply to process; nothing was written", err=True)
            raise typer.Exit(1) from None


def _show_usage_error(self, file=None) -> None:
    """A usage error as one line plus a hint (instead of click's four-line block)."""
    import re

    ctx = self.ctx
    msg = self.format_message()
    msg = msg[:1].lower() + msg[1:]
    cmd = ctx.command_path if ctx is not None else "readinglist"
    sys.stderr.write(f"readinglist: error: {msg.rstrip('.')}\n")
    if ctx is not None:
        usage = ctx.command.get_usage(ctx).replace("Usage: ", "", 1).replace("\n", " ")
        usage = re.sub(r"\{(\w+)\}|\[([a-z]\w*)\]", lambda m: m.group(1).upper() if m.group(1) else f"[{m.group(2).upper()}]", " ".join(usage.split()))
        sys.stderr.write(f"hint: {usage}   ('{cmd} -h' for help)\n")


def _install_usage_errors() -> None:
    """typer 0.28 vendors click as typer._click; older releases use click itself."""
    try:
        from typer._click import exceptions  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover
        from click import exceptions  # type: ignore[no-redef,import-not-found,unused-ignore]
    exceptions.UsageError.show = _show_usage_error  # type: ignore[method-assign]


_install_usage_errors()


app = typer.Typer(
    name="readinglist",
    cls=_Group,
    help="Turn conference abstract lists into a reading list: BibTeX, CSL-JSON and Markdown, "
    "with your reading status kept in git-friendly TOML.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

STATUS_HELP = " | ".join(STATUSES)


@dataclass
class State:
    config_path: Optional[str] = None
    store_path: Optional[str] = None
    color: str = "auto"
    pager: bool = True
    warned: set = dc_field(default_factory=set)
    _config: object = None
    _store: object = None

    @property
    def config(self):
        if self._config is None:
            from .config import load_config

            self._config = load_config(self.config_path, store=self.store_path)
        return self._config

    @property
    def store(self):
        """The store, which must exist (a mistyped --store is an error, not a new store)."""
        return self.open_store(create=False)

    def open_store(self, *, create: bool, here: bool = False):
        """The store; ``here``: outside any project, ``./library`` rather than the user's default
        store (``build`` makes a project in the current folder, as ``git init`` does)."""
        if self._store is None:
            from .store.library import Store

            cfg = self.config
            path = cfg.root / "library" if here and cfg.store_from == "user default" else cfg.store
            self._store = Store.open(path, config=cfg, create=create)
        return self._store


state = State()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"readinglist {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    store: Optional[str] = typer.Option(
        None, "--store", metavar="PATH", help="The store folder (else found as git finds a repository: see `readinglist where`)."
    ),
    config: Optional[str] = typer.Option(
        None, "--config", envvar="READINGLIST_CONFIG", metavar="FILE", help="The config file (else ./config.toml, else the user's config dir)."
    ),
    color: str = typer.Option("auto", "--color", metavar="WHEN", help="auto | always | never: colour on a terminal (auto: unless NO_COLOR is set)."),
    no_pager: bool = typer.Option(False, "--no-pager", help="Never page long output through $PAGER."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    if color not in ("auto", "always", "never"):
        raise typer.BadParameter(f"{color!r} is not one of auto, always, never", param_hint="--color")
    state.config_path = config
    state.store_path = store
    state.color, state.pager = color, not no_pager
    state._config = state._store = None


# --------------------------------------------------------------------------- output helpers


def _plain_output() -> bool:
    """Plain text for pipes and files (tab-separated lines, ASCII bars); NO_COLOR only drops colour."""
    return not sys.stdout.isatty()


def _color(stream=None) -> bool:
    from .terminal import use_color

    return use_color(state.color, stream)


def _console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, no_color=not _color(sys.stderr if stderr else sys.stdout), highlight=False)


def _out(text: str) -> None:
    """Long output goes through $PAGER on a terminal (as git does) unless --no-pager."""
    if state.pager:
        from .terminal import page

        page(text)
    else:
        sys.stdout.write(text)


def _paper_json(paper) -> dict:
    rec = paper.record
    return {
        "key": rec.key,
        "title": rec.title,
        "shorttitle": rec.shorttitle,
        "venue": rec.venue,
        "year": rec.year,
        "status": paper.status,
        "priority": paper.priority,
        "rating": paper.rating,
        "tags": list(rec.tags),
        "user_tags": list(paper.user_tags),
        "notes": paper.notes,
        "generated": sorted(rec.generated),
        "authors": [str(a) for a in rec.authors],
        "doi": rec.doi,
        "url": rec.url,
        "abstract": rec.abstract,
        "sources": [str(s) for s in rec.sources],
        "history": [{"event": e.event, "date": e.date} for e in paper.history],
    }


def _print_papers(papers, *, as_json: bool) -> None:
    if as_json:
        for paper in papers:
            sys.stdout.write(json.dumps(_paper_json(paper), ensure_ascii=False) + "\n")
        return
    if _plain_output():  # one write of all lines: 20,000 papers print in a few ms
        from .text.controls import escape_controls as esc

        sys.stdout.write(
            "".join(
                f"{esc(r.key, '')}\t{p.status}\t{esc(r.venue or '', '')} {r.year or ''}\t{esc(','.join(p.tags if p.user_tags else r.tags), '')}\t{esc(r.title, '')}\n"
                for p in papers
                for r in (p.record,)
            )
        )
        return
    from .terminal import paper_table, width

    if papers:
        _out("\n".join(paper_table(papers, total_width=width(), color=_color())) + "\n")
    print(_count(len(papers), "paper"), file=sys.stderr)


def _count(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 paper", "2 papers" """
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def _echo_paper(paper) -> None:
    rec = paper.record
    lines = [f"{rec.key}  [{paper.status}]", rec.title + ("   (generated title)" if rec.is_generated else "")]
    if rec.authors:
        lines.append("authors:  " + "; ".join(str(a) for a in rec.authors))
    lines.append(f"venue:    {rec.venue or '-'} {rec.year or ''}".rstrip())
    if rec.shorttitle:
        lines.append(f"name:     {rec.shorttitle}")
    lines.append("tags:     " + (", ".join(rec.tags) or "-") + ("   user: " + ", ".join(paper.user_tags) if paper.user_tags else ""))
    if paper.priority:
        lines.append(f"priority: {paper.priority}")
    if paper.rating:
        lines.append(f"rating:   {paper.rating}/5")
    for label, value in (("doi", rec.doi), ("url", rec.url)):
        if value:
            lines.append(f"{label}:      {value}"[: 10 + len(value)])
    if rec.sources:
        lines.append("from:     " + "; ".join(str(s) for s in rec.sources))
    if paper.history:
        lines.append("history:  " + "; ".join(f"{e.event} {e.date}" for e in paper.history))
    if paper.notes:
        lines += ["", "notes:", paper.notes.rstrip()]
    if rec.abstract:
        from .terminal import wrap, width
        from .text import to_plain

        lines += ["", wrap(to_plain(rec.abstract), min(width(), 100))]
    from .text.controls import escape_controls

    _out(escape_controls("\n".join(lines) + "\n"))


def _complete_key(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion for citation keys, from the store the command line names."""
    try:
        from .config import load_config
        from .store.library import Store

        root = ctx.find_root().params
        config = load_config(root.get("config"), store=root.get("store"))
        return [k for k in Store.open(config.store, config=config, create=False).keys() if k.startswith(incomplete)]
    except Exception:  # completion must never fail loudly
        return []


_KEY = typer.Argument(..., help="The paper's citation key.", autocompletion=_complete_key)
_STATUS_ARG = typer.Argument(..., help=STATUS_HELP, autocompletion=lambda incomplete: [s for s in STATUSES if s.startswith(incomplete)])


# --------------------------------------------------------------------------- commands


def _worker_processes() -> int:
    """The CLI owns its process, so large imports may fork one worker per core (up to 8)."""
    return min(os.cpu_count() or 1, 8)


@app.command("import")
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
    from .jobs import import_files

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
        )
    finally:
        if progress:
            progress.close()
    _print_import_report(report)


def _expand_folders(paths: list[Path]) -> list[Path]:
    """``import seeds/``: a folder stands for the files in it that an importer reads by suffix."""
    if not any(p.is_dir() for p in paths):
        return paths
    from .errors import InputError
    from .formats.registry import all_importers

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
    """A rich progress display on stderr when stderr is a terminal, else None: the abstracts of
    each file as they are generated (count, rate, time left), and a spinner with the elapsed time
    while a file is read or the store is saved."""
    if not sys.stderr.isatty():
        return None
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task) -> Text:
            return Text(f"{task.speed:,.0f} abstracts/s" if task.speed and task.total else "", style="dim")

    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Rate(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=_console(stderr=True),
        transient=True,
    )
    tasks = [bar.add_task("importing", total=None)]
    bar.start()
    current = [""]

    def update(done: int, total: int, label: str) -> None:
        if label != current[0]:  # a new file (or saving): its own count, rate and time left
            current[0] = label
            bar.remove_task(tasks[0])
            tasks[0] = bar.add_task(label[-40:], total=total or None, completed=done)
        else:
            bar.update(tasks[0], completed=done, total=total or None)

    update.close = bar.stop  # type: ignore[attr-defined]
    return update


def _print_import_report(report) -> None:
    from .text.controls import escape_controls

    err = sys.stderr
    for s in report.skipped:
        print(f"skipped {s.source}: {s.reason}: {s.text!r}", file=err)
    for d in report.duplicates:
        kind = "duplicate" if d.exact else f"near-duplicate ({d.similarity:.0f}%)"
        print(f"{kind} {d.source}: same paper as {d.key}", file=err)
    for wanted, given in report.renamed:
        print(f"key {wanted} was taken; the new paper is {given}", file=err)
    for w in report.warnings:
        print(f"warning: {escape_controls(w, keep='')}", file=err)
    typer.echo(
        f"{len(report.added)} added, {len(report.updated)} updated, {len(report.unchanged)} unchanged, "
        f"{_count(len(report.duplicates), 'duplicate')}, {_count(len(report.skipped), 'skipped paragraph')}"
    )


def _find(status, tag, venue, year, priority, rating, search, sort):
    papers = state.store.find(
        status=status, tags=tuple(tag or ()), venue=venue, year=year, priority=priority, rating=rating, search=search, sort=sort
    )
    _warn_broken()
    return papers


def _warn_broken() -> None:
    """A paper file that does not parse is reported once (file:line:col) and skipped."""
    for message in state.store.broken:
        if message not in state.warned:
            state.warned.add(message)
            print(f"readinglist: warning: {message}; skipped", file=sys.stderr)


_STATUS_OPT = typer.Option(None, "--status", "-s", help=STATUS_HELP)
_TAG_OPT = typer.Option(None, "--tag", "-t", help="Only papers with this tag (repeat: all must match).")
_VENUE_OPT = typer.Option(None, "--venue", help="Only this venue (e.g. NeurIPS).")
_YEAR_OPT = typer.Option(None, "--year", min=1000, max=2999, help="Only this year (1000-2999).")
_PRIORITY_OPT = typer.Option(None, "--priority", min=1, max=3, help="Only this priority (1-3).")
_RATING_OPT = typer.Option(None, "--rating", min=1, max=5, help="Only this rating (1-5).")
_SEARCH_OPT = typer.Option(None, "--search", help="Only papers whose title, abstract or notes contain TEXT.")


@app.command("list")
def list_(
    status: Optional[str] = _STATUS_OPT,
    tag: Optional[List[str]] = _TAG_OPT,
    venue: Optional[str] = _VENUE_OPT,
    year: Optional[int] = _YEAR_OPT,
    priority: Optional[int] = _PRIORITY_OPT,
    rating: Optional[int] = _RATING_OPT,
    search: Optional[str] = _SEARCH_OPT,
    sort: str = typer.Option("key", help=" | ".join(SORTS) + " (priority: 1 first; rating: best first)."),
    reverse: bool = typer.Option(False, "--reverse", "-r", help="Reverse the order."),
    limit: Optional[int] = typer.Option(None, "--limit", "-n", min=0, metavar="N", help="At most N papers."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line, for scripts."),
) -> None:
    """List papers: a table on a terminal (one line per paper, paged when long), tab-separated
    lines when piped, JSON lines with --json.

    Example: readinglist list --status unread --tag llm --sort priority --limit 10
    """
    papers = _find(status, tag, venue, year, priority, rating, search, sort)
    if reverse:
        papers.reverse()
    _print_papers(papers[:limit] if limit is not None else papers, as_json=as_json)


@app.command()
def show(key: str = _KEY, as_json: bool = typer.Option(False, "--json", help="Print the paper as JSON.")) -> None:
    """Show one paper: title, tags, status, history, notes and abstract.

    Example: readinglist show canvit2026
    """
    paper = state.store.get(key)
    if as_json:
        typer.echo(json.dumps(_paper_json(paper), ensure_ascii=False, indent=2))
    else:
        _echo_paper(paper)


@app.command()
def search(
    text: str = typer.Argument(..., help="Words that must all occur (whole words; a plural -s/-es also matches)."),
    limit: int = typer.Option(20, "--limit", "-n", min=1, metavar="N", help="At most N results (1 or more)."),
    as_json: bool = typer.Option(False, "--json", help="JSON lines with a score field (0-100)."),
) -> None:
    """Full-text search over titles, notes and abstracts, best matches first: every word must
    occur as a whole word; a word in the title ranks above one in the notes, above one in the
    abstract. Prints the same table as list (tab-separated lines when piped).

    Example: readinglist search "knowledge editing"
    """
    hits = state.store.search(text, limit=limit)
    _warn_broken()
    if as_json:
        for paper, score in hits:
            sys.stdout.write(json.dumps({**_paper_json(paper), "score": round(score, 2)}, ensure_ascii=False) + "\n")
        return
    if not hits:
        print(f"no paper matches {text!r}", file=sys.stderr)
        return
    _print_papers([paper for paper, _ in hits], as_json=False)


def _selection(keys, status, tag, venue, year, priority, rating, search) -> list:
    """The papers a changing command acts on: KEYs (every one checked first: one unknown key
    changes nothing) or the papers the list filters select (never both)."""
    from .errors import UnknownKeyError, ValidationError

    filters = any(v not in (None, [], ()) for v in (status, tag, venue, year, priority, rating, search))
    if keys and filters:
        raise ValidationError("give KEYs or filters (--tag, --status, ...), not both")
    if filters:
        return _find(status, tag, venue, year, priority, rating, search, "key")
    if not keys:
        raise typer.BadParameter("give one or more KEYs, or a filter such as --tag llm")
    try:
        return state.store.check_keys(keys)
    except UnknownKeyError as exc:
        raise ValidationError(f"{exc}; nothing changed") from None


_KEYS_ARG = typer.Argument(None, help="Citation keys (or select papers with the filters).", autocompletion=_complete_key, show_default=False)
_DRY_RUN = typer.Option(False, "--dry-run", "-n", help="Show what would change, write nothing.")


@app.command()
def mark(
    status: str = _STATUS_ARG,
    keys: Optional[List[str]] = _KEYS_ARG,
    where_status: Optional[str] = typer.Option(None, "--status", "-s", help="Only papers with this status now."),
    tag: Optional[List[str]] = _TAG_OPT,
    venue: Optional[str] = _VENUE_OPT,
    year: Optional[int] = _YEAR_OPT,
    priority: Optional[int] = _PRIORITY_OPT,
    rating: Optional[int] = _RATING_OPT,
    search: Optional[str] = _SEARCH_OPT,
    dry_run: bool = _DRY_RUN,
) -> None:
    """Set the reading status of papers: by key (all keys are checked first; one unknown key
    changes nothing), or every paper the filters select (the same filters as list).

    Example: readinglist mark read canvit2026 m2le2026 ; readinglist mark read --tag llm --dry-run
    """
    from .store.library import check_status

    check_status(status)
    store = state.store
    papers = _selection(keys, where_status, tag, venue, year, priority, rating, search)
    todo = [p for p in papers if p.status != status]
    if dry_run:
        for p in todo:
            typer.echo(f"{p.key}: {p.status} -> {status}")
        typer.echo(f"would mark {_count(len(todo), 'paper')} {status} (dry run: nothing written)")
        return
    with store.transaction():
        for p in todo:
            store.set_status(p.key, status)
    changed = {p.key for p in todo}
    for p in papers:
        typer.echo(f"{p.key}: {status}" if p.key in changed else f"{p.key}: already {status}")
    if len(papers) != 1:
        typer.echo(f"marked {_count(len(todo), 'paper')} {status}" + (f" ({len(papers) - len(todo)} already were)" if len(todo) < len(papers) else ""))


@app.command()
def note(
    key: str = _KEY,
    message: Optional[str] = typer.Option(None, "--message", "-m", help="The note text (else $EDITOR opens)."),
    append: bool = typer.Option(False, "--append", "-a", help="Add to the existing notes instead of replacing them."),
) -> None:
    """Write notes (Markdown) on a paper; without -m, $EDITOR opens as git does.

    Example: readinglist note canvit2026 -m "Compare with our glimpse policy." --append
    """
    from .errors import ConflictError

    store = state.store
    expect = None
    if message is None:
        current = store.get(key).notes
        edited = _edit(current or "")
        if edited == current:
            typer.echo("notes unchanged", err=True)
            return
        message, append, expect = edited, False, current
    try:
        paper = store.set_note(key, message, append=append, expect=expect)
    except ConflictError as exc:  # the edited text is the user's: keep it where they can find it
        raise ConflictError(f"{exc}; your text is in {_keep(message)}") from None
    n = len(paper.notes.splitlines())
    typer.echo(f"{paper.key}: notes saved ({_count(n, 'line')})" if n else f"{paper.key}: notes cleared")


def _keep(text: str | bytes) -> str:
    """Save ``text`` in a new private temporary file that is not removed; its path."""
    import tempfile

    fd, path = tempfile.mkstemp(prefix="readinglist-note-", suffix=".md")
    with os.fdopen(fd, "wb") as fh:
        fh.write(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def _edit(text: str) -> str:
    """Open $VISUAL / $EDITOR (else vi) on ``text`` in a temporary file, as git does.

    The file lives in a new private folder under a fixed name (never one made from a key).
    An editor that fails, removes the file or saves something other than UTF-8 text is a
    one-line error; what it saved is then kept in a file the message names."""
    import shlex
    import subprocess
    import tempfile

    from .errors import ValidationError
    from .store.atomic import describe, read_bounded

    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory(prefix="readinglist-") as tmp:
        path = Path(tmp) / "NOTES.md"
        path.write_text(text, encoding="utf-8")
        try:
            code = subprocess.call([*shlex.split(editor), str(path)])
        except (OSError, ValueError) as exc:
            raise ValidationError(f"cannot start the editor {editor!r}: {getattr(exc, 'strerror', None) or exc}; use -m TEXT") from None
        if code != 0:
            raise ValidationError(f"the editor {editor!r} exited with status {code}; notes unchanged")
        try:
            data = read_bounded(path, limit=8 << 20)
        except FileNotFoundError:
            raise ValidationError(f"the editor {editor!r} removed the notes file; notes unchanged") from None
        except OSError as exc:
            raise ValidationError(f"cannot read the edited notes: {describe(exc)}; notes unchanged") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            kept = _keep(data)
            raise ValidationError(f"the editor saved text that is not UTF-8 (line {line}, column {col}); notes unchanged; your text is in {kept}") from None



def _run_editor(path: Path) -> None:
    """Run $VISUAL / $EDITOR (else vi) on ``path``; a one-line error when it cannot start or fails."""
    import shlex
    import subprocess

    from .errors import ValidationError

    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    try:
        code = subprocess.call([*shlex.split(editor), str(path)])
    except (OSError, ValueError) as exc:
        raise ValidationError(f"cannot start the editor {editor!r}: {getattr(exc, 'strerror', None) or exc}") from None
    if code != 0:
        raise ValidationError(f"the editor {editor!r} exited with status {code}; nothing written")

@app.command()
def tag(
    words: List[str] = typer.Argument(..., metavar="[KEY] TAG...", help="A key then tags; with --key or a filter, tags only."),
    keys: Optional[List[str]] = typer.Option(None, "--key", "-k", help="A paper to tag (repeat for several).", autocompletion=_complete_key),
    remove: bool = typer.Option(False, "--remove", "-r", help="Remove these tags."),
    status: Optional[str] = _STATUS_OPT,
    tag: Optional[List[str]] = typer.Option(None, "--tag", "-t", help="Only papers that have this tag (repeat: all must match)."),
    venue: Optional[str] = _VENUE_OPT,
    year: Optional[int] = _YEAR_OPT,
    priority: Optional[int] = _PRIORITY_OPT,
    rating: Optional[int] = _RATING_OPT,
    search: Optional[str] = _SEARCH_OPT,
    dry_run: bool = _DRY_RUN,
) -> None:
    """Add your own tags to papers (kept apart from generated topic tags), or remove tags: one
    paper (KEY TAG...), several (--key K1 --key K2 TAG...) or those the filters select.

    Example: readinglist tag canvit2026 group-meeting ; readinglist tag --status unread to-triage
    """
    from .errors import ValidationError

    filters = any(v not in (None, [], ()) for v in (status, tag, venue, year, priority, rating, search))
    single = not keys and not filters
    if single:
        if len(words) < 2:
            raise typer.BadParameter("give a KEY and at least one TAG: readinglist tag KEY TAG...")
        keys, tags = [words[0]], words[1:]
    else:
        tags = words
    store = state.store
    papers = _selection(keys, status, tag, venue, year, priority, rating, search)
    for word in tags:
        # a paper's key where a tag belongs: `tag KEY1 KEY2` meant two papers (a tag that really
        # is spelled like a key may still be removed from the papers that have it)
        if store.names_a_paper(word) and not (remove and any(word in p.tags for p in papers)):
            raise ValidationError(
                f"{word!r} is a paper's key, not a tag: to {'untag' if remove else 'tag'} several papers, "
                f"readinglist tag --key {keys[0] if single and keys else 'KEY1'} --key {word}{' --remove' if remove else ''} TAG... "
                "(or select them with a filter)"
            )
    wanted = set(tags)
    if remove:
        todo = [p for p in papers if wanted & set(p.tags)] if not single else papers
    else:
        todo = [p for p in papers if not wanted <= set(p.user_tags)]
    if dry_run:
        for p in todo:
            typer.echo(f"{p.key}: {'-' if remove else '+'}{', '.join(tags)}")
        typer.echo(f"would {'untag' if remove else 'tag'} {_count(len(todo), 'paper')} (dry run: nothing written)")
        return
    with store.transaction():
        done = [
            store.remove_tags(p.key, [t for t in tags if t in p.tags] if not single else tags) if remove else store.add_tags(p.key, tags)
            for p in todo
        ]
    if single:
        paper = done[0] if done else papers[0]
        typer.echo(f"{paper.key}: {', '.join(paper.tags) or '(no tags)'}")
        return
    for paper in done:
        typer.echo(f"{paper.key}: {', '.join(paper.tags) or '(no tags)'}")
    typer.echo(f"{'untagged' if remove else 'tagged'} {_count(len(done), 'paper')}" + (f" ({len(papers) - len(done)} unchanged)" if len(done) < len(papers) else ""))


@app.command()
def rate(key: str = _KEY, n: int = typer.Argument(..., min=0, max=5, help="1-5, or 0 to clear.")) -> None:
    """Rate a paper from 1 to 5 (0 clears the rating).

    Example: readinglist rate canvit2026 4
    """
    paper = state.store.rate(key, n or None)
    typer.echo(f"{paper.key}: rating {paper.rating or '-'}")


@app.command()
def priority(key: str = _KEY, n: int = typer.Argument(..., min=0, max=3, help="1 (highest) to 3, or 0 to clear.")) -> None:
    """Set a paper's priority from 1 (read first) to 3 (0 clears it).

    Example: readinglist priority canvit2026 1
    """
    paper = state.store.set_priority(key, n or None)
    typer.echo(f"{paper.key}: priority {paper.priority or '-'}")


@app.command("next")
def next_(
    limit: int = typer.Option(10, "--limit", "-n", min=0, metavar="N", help="At most N papers."),
    tag: Optional[List[str]] = _TAG_OPT,
    venue: Optional[str] = _VENUE_OPT,
    year: Optional[int] = _YEAR_OPT,
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line, for scripts."),
) -> None:
    """What to read next: unread and started papers, priority 1 first (no priority last), then
    the ones waiting longest.

    Example: readinglist next --tag llm --limit 5
    """
    papers = state.store.find(status=("reading", "unread"), tags=tuple(tag or ()), venue=venue, year=year, sort="next")
    _warn_broken()
    _print_papers(papers[:limit], as_json=as_json)


@app.command("rm")
def rm(
    keys: List[str] = typer.Argument(..., help="Citation keys of the papers to remove.", autocompletion=_complete_key),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask (needed when stdin is not a terminal)."),
) -> None:
    """Remove papers from the store (their files are deleted; git keeps the history). Every key
    is checked first; on a terminal you are asked to confirm.

    Example: readinglist rm canvit2026 captrack2026
    """
    from .errors import UnknownKeyError, ValidationError

    store = state.store
    try:
        papers = store.check_keys(keys)
    except UnknownKeyError as exc:
        raise ValidationError(f"{exc}; nothing removed") from None
    listing = ", ".join(p.key for p in papers)
    if not yes:
        if not sys.stdin.isatty():
            raise ValidationError(f"rm would remove {_count(len(papers), 'paper')} ({listing}): pass --yes to confirm")
        if not typer.confirm(f"remove {_count(len(papers), 'paper')} ({listing})?", default=False):
            typer.echo("nothing removed", err=True)
            raise typer.Exit(1)
    removed = store.remove(p.key for p in papers)
    typer.echo(f"removed {_count(len(removed), 'paper')}: {listing}")


@app.command()
def edit(key: str = _KEY) -> None:
    """Edit a paper's TOML file in $VISUAL / $EDITOR; it is checked before it is saved (a broken
    edit is reported with its line and column, kept aside, and nothing is written).

    Example: readinglist edit canvit2026
    """
    import shutil
    import tempfile

    from .errors import StoreError
    from .store import paperfile

    store = state.store
    _, text = store.paper_text(key)
    tmp = Path(tempfile.mkdtemp(prefix="readinglist-edit-"))
    path = tmp / "paper.toml"  # a fixed name, never one made from a key
    path.write_text(text, encoding="utf-8")
    _run_editor(path)
    try:
        edited = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"cannot read the edited file ({exc}); nothing written, your edit is kept in {path}") from None
    if edited == text:
        shutil.rmtree(tmp, ignore_errors=True)
        typer.echo(f"{key}: unchanged", err=True)
        return
    try:
        paperfile.parse(edited, path)  # errors name the edited copy, line and column
        paper = store.replace_text(key, text, edited)
    except StoreError as exc:
        raise StoreError(f"{exc}; nothing written, your edit is kept in {path}") from None
    shutil.rmtree(tmp, ignore_errors=True)
    typer.echo(f"{paper.key}: saved")


@app.command("open")
def open_(
    key: str = _KEY,
    print_only: bool = typer.Option(False, "--print", help="Print the URL instead of opening it."),
) -> None:
    """Open the paper's URL (or its DOI at doi.org) in the web browser ($BROWSER).

    Example: readinglist open canvit2026
    """
    from .errors import ValidationError

    rec = state.store.get(key).record
    url = rec.url or (f"https://doi.org/{rec.doi}" if rec.doi else None)
    if not url:
        raise ValidationError(f"{rec.key} has no URL or DOI (generated from an abstract; `readinglist reconcile OFFICIAL.bib` adds them)")
    if print_only:
        typer.echo(url)
        return
    import webbrowser

    if not webbrowser.open(url):
        raise ValidationError(f"no web browser found to open {url} (set $BROWSER, or use --print)")
    typer.echo(f"opened {url}", err=True)


@app.command()
def export(
    format: Optional[str] = typer.Option(None, "--format", "-f", help="An exporter's name (`readinglist formats` lists them; else from -o's suffix)."),
    output_name: Optional[str] = typer.Option(None, "--output", "-o", help="Write here (else stdout).", metavar="PATH"),
    status: Optional[str] = _STATUS_OPT,
    tag: Optional[List[str]] = _TAG_OPT,
    venue: Optional[str] = _VENUE_OPT,
    year: Optional[int] = _YEAR_OPT,
    priority: Optional[int] = _PRIORITY_OPT,
    rating: Optional[int] = _RATING_OPT,
    search: Optional[str] = _SEARCH_OPT,
    sort: str = typer.Option("key", help="Order of entries (as for list)."),
    group_by: Optional[str] = typer.Option(None, "--group-by", help="Markdown: tag (under every tag) | first-tag | status | venue | priority."),
    with_status: bool = typer.Option(False, "--with-status", help="Include reading status, priority and rating."),
    with_notes: bool = typer.Option(False, "--with-notes", help="Include your notes (BibTeX annote, CSL note)."),
    unicode: bool = typer.Option(False, "--unicode", help="BibTeX: UTF-8 Unicode text (biber, Zotero) instead of ASCII LaTeX."),
    title: Optional[str] = typer.Option(None, "--title", help="Markdown/HTML: the list's heading; Zotero RDF: the collection's name."),
    list_name: Optional[str] = typer.Option(
        None, "--list", "-l", metavar="NAME", help="Export this curated list, in its order (filters narrow it)."
    ),
) -> None:
    """Export a selection of the store, or a curated list, as BibTeX, CSL-JSON, Markdown or HTML.

    Example: readinglist export -o to-read.md --status unread --group-by tag
    """
    from .errors import ValidationError
    from .store.atomic import write_output
    from .jobs import export_chunks

    if output_name is not None and not output_name.strip():
        from .errors import OutputError

        raise OutputError("the output file name (-o) is empty")
    output = Path(output_name) if output_name is not None else None
    if format is None and output is None:
        raise ValidationError("say which format: -f NAME (readinglist formats lists them), or -o FILE with a known suffix")
    papers = _find(status, tag, venue, year, priority, rating, search, sort)
    resolved = None
    if list_name is not None:
        from .store import lists

        resolved = lists.resolve(state.store, lists.load(state.store, list_name))
        for message in resolved.messages():
            typer.echo(f"warning: {message}", err=True)
        selected = {p.key for p in papers}
        papers = [p for p in resolved.papers if p.key in selected]
    # Zotero RDF: a curated list, a filtered export or one with a --title becomes a Zotero collection
    chosen = [("status", status), ("tag", ", ".join(tag or ())), ("venue", venue), ("year", year),
              ("priority", priority), ("rating", rating), ("search", search)]
    filters = "; ".join(f"{name} {value}" for name, value in chosen if value)
    if resolved is not None:
        collection: str | None = title or resolved.list.title or resolved.list.name
    else:
        collection = title or filters or None
    chunks = export_chunks(
        papers,
        config=state.config,
        format=format,
        path=output,
        with_status=with_status,
        with_notes=with_notes,
        group_by=group_by,
        title=title,
        reading_list=resolved,
        collection=collection,
        unicode=unicode,
    )
    if output is None:
        for chunk in chunks:  # written as they come: a large export never holds every string
            sys.stdout.write(chunk)
    else:
        if not os.path.lexists(output.parent):  # a typo must not grow folders (no mkdir -p)
            from .errors import OutputError

            raise OutputError(f"{output}: no folder {output.parent}; create it first")
        write_output(output, chunks)
        typer.echo(f"{_count(len(papers), 'paper')} written to {output}", err=True)


@app.command()
def stats(
    weeks: int = typer.Option(12, "--weeks", min=1, max=104, help="How many weeks the sparkline of papers read covers."),
) -> None:
    """Reading progress per venue and per tag: counts, a bar, and a sparkline of papers read
    per week (rich on a terminal, plain text when piped).

    Example: readinglist stats --weeks 8
    """
    from .stats import progress_rows, read_per_week, sparkline

    papers = list(state.store)
    _warn_broken()
    if not _plain_output():
        _console().print(stats_table(papers, weeks=weeks))
        return
    for title, rows in progress_rows(papers):
        typer.echo(title)
        width = max((len(label) for label, *_ in rows), default=0)
        for label, read, reading, total in rows:
            bar = _bar(read, reading, total, plain=True)
            typer.echo(f"  {label:<{width}}  {read:>4}/{total:<4} {bar}  {round(100 * read / max(total, 1)):>3}% read")
        typer.echo("")
    counts = read_per_week(papers, weeks=weeks)
    typer.echo(f"read per week, last {weeks} weeks (oldest first): {' '.join(map(str, counts))}  {sparkline(counts)}")


def stats_table(papers, *, weeks: int = 12):
    """``stats`` on a terminal: one rich table, a row per venue and per tag, each with a bar
    (read, reading, to read) and a sparkline of papers finished per week."""
    from rich.table import Table
    from rich.text import Text

    from .stats import groups, read_per_week, sparkline

    table = Table(box=None, header_style="bold", pad_edge=False, show_edge=False)
    table.add_column("", no_wrap=True, max_width=28, overflow="ellipsis")
    table.add_column("read", justify="right", no_wrap=True)
    table.add_column("progress", no_wrap=True)
    table.add_column("%", justify="right", no_wrap=True)
    table.add_column(f"per week ({weeks})", no_wrap=True)

    def row(label, members, style=""):
        read = sum(p.status == "read" for p in members)
        reading = sum(p.status == "reading" for p in members)
        total = len(members)
        width = 20
        n_read = round(width * read / total) if total else 0
        n_reading = min(width - n_read, round(width * reading / total)) if total else 0
        bar = Text()
        bar.append("█" * n_read, style="green")
        bar.append("▒" * n_reading, style="yellow")
        bar.append("░" * (width - n_read - n_reading), style="dim")
        spark = Text(sparkline(read_per_week(members, weeks=weeks)), style="cyan")
        table.add_row(Text(label, style=style), f"{read}/{total}", bar, f"{round(100 * read / max(total, 1))}%", spark)

    row("all papers", papers, "bold")
    for title, by in groups(papers):
        table.add_row(Text(title, style="bold dim"), "", "", "", "")
        for label, members in by.items():
            row("  " + label, members)
    return table


def _bar(read: int, reading: int, total: int, *, plain: bool, width: int = 24) -> str:
    n_read = round(width * read / total) if total else 0
    n_reading = min(width - n_read, round(width * reading / total)) if total else 0
    if plain:
        return "[" + "#" * n_read + "~" * n_reading + "." * (width - n_read - n_reading) + "]"
    return "█" * n_read + "▒" * n_reading + "░" * (width - n_read - n_reading)


@app.command()
def build() -> None:
    """The main job: import every list in seeds/ and write exports/ (a .bib and a CSL-JSON per
    venue-year, and a Markdown reading list). Folders come from config.toml.

    Example: readinglist build
    """
    from .jobs import build as run_build

    cfg = state.config
    progress = _progress_bar(1)
    try:
        report = run_build(lambda: state.open_store(create=True, here=True), config=cfg, progress=progress, processes=_worker_processes())
    finally:
        if progress:
            progress.close()
    _print_import_report(report.imported)
    for path in report.written:
        typer.echo(f"wrote {path}")
    for path in report.unchanged:
        typer.echo(f"up to date: {path}")


@app.command()
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
    from .reconciler import load_official
    from .reconciler import reconcile as run

    cfg = state.config
    official_records = load_official(official, config=cfg, format=format)
    for warning in official_records.warnings:
        typer.echo(f"warning: {warning}", err=True)
    report = run(state.store, official_records.records, rekey=rekey, dry_run=dry_run, config=cfg)
    for key, field, old, new in report.changes:
        typer.echo(f"{key}: {field}: {old!r} -> {new!r}")
    for key, candidates in report.ambiguous:
        typer.echo(f"ambiguous {key}: " + ", ".join(f"{c} ({s:.0f}%)" for c, s in candidates), err=True)
    for key in report.unmatched:
        typer.echo(f"unmatched {key}", err=True)
    for official_id in report.no_abstract:
        typer.echo(f"official entry {official_id} has no abstract to match on", err=True)
    typer.echo(
        f"{len(report.matched)} matched, {len(report.ambiguous)} ambiguous, {len(report.unmatched)} unmatched"
        + (" (dry run: nothing written)" if dry_run else "")
    )


@app.command()
def where() -> None:
    """Say which store and config file are in use, and why (the store is found as git finds a
    repository: --store, else a config.toml or library/ in this folder or one above, else
    READINGLIST_STORE, else the config file's, else your default store).

    Example: readinglist where
    """
    cfg = state.config
    why = {
        "--store": "from --store",
        "project": f"found from {Path.cwd()}",
        "READINGLIST_STORE": "from READINGLIST_STORE",
        "config": "from the config file",
        "user default": "your default store",
    }.get(cfg.store_from, cfg.store_from)
    exists = "" if (Path(cfg.store) / "papers").is_dir() else " (not created yet)"
    typer.echo(f"store:  {cfg.store}{exists}  ({why})")
    typer.echo(f"config: {cfg.path if cfg.path is not None else '(built-in defaults)'}")


@app.command()
def formats() -> None:
    """List the importer and exporter plugins (built-in and installed).

    Example: readinglist formats
    """
    from .formats.registry import all_exporters, all_importers

    for title, plugins in (("importers", all_importers()), ("exporters", all_exporters())):
        typer.echo(title + ":")
        for plugin in plugins:
            typer.echo(f"  {plugin.name:<10} {' '.join(plugin.suffixes):<12} {plugin.description}")


# --------------------------------------------------------------------------- curated lists

lists_app = typer.Typer(
    name="lists",
    help="Curated reading lists (lists/NAME.toml in the store): chosen papers, in order, under "
    "headings, each with an optional comment. Without a subcommand: every list with its progress.",
    invoke_without_command=True,
    no_args_is_help=False,
    rich_markup_mode=None,
)
app.add_typer(lists_app, name="lists")

_LIST_NAME = typer.Argument(..., metavar="NAME", help="The list's name (its file is lists/NAME.toml).")


@lists_app.callback()
def lists_overview(ctx: typer.Context) -> None:
    """Every curated list with its progress (7/12 read); subcommands change or show one.

    Example: readinglist lists
    """
    if ctx.invoked_subcommand is not None:
        return
    from .store import lists

    store = state.store
    found = lists.names(store)
    if not found:
        typer.echo("no lists yet; make one with: readinglist lists new NAME", err=True)
        return
    width = max(len(n) for n in found)
    for name in found:
        resolved = lists.resolve(store, lists.load(store, name))
        read, total = resolved.progress
        missing = f"  ({len(resolved.missing)} missing)" if resolved.missing else ""
        typer.echo(f"{name:<{width}}  {read:>3}/{total:<3} read  {resolved.list.heading}{missing}")


@lists_app.command("new")
def lists_new(
    name: str = _LIST_NAME,
    title: Optional[str] = typer.Option(None, "--title", help="The list's title (else its name)."),
    intro: Optional[str] = typer.Option(None, "--intro", help="An introduction (Markdown)."),
) -> None:
    """Make an empty curated list.

    Example: readinglist lists new week-12 --title "Week 12: active vision"
    """
    from .store import lists

    lst = lists.create(state.store, name, title=title or "", introduction=intro or "")
    typer.echo(f"{lst.name}: new list in {lists.path_of(state.store, name)}")


@lists_app.command("add")
def lists_add(
    name: str = _LIST_NAME,
    keys: Optional[List[str]] = typer.Argument(None, help="Citation keys to add (or use filters).", autocompletion=_complete_key),
    section: Optional[str] = typer.Option(None, "--section", help="Add under this heading (made when new; else the last section)."),
    comment: Optional[str] = typer.Option(None, "--comment", "-c", help="A line on why (\"read §3 only\")."),
    status: Optional[str] = _STATUS_OPT,
    tag: Optional[List[str]] = _TAG_OPT,
    venue: Optional[str] = _VENUE_OPT,
    year: Optional[int] = _YEAR_OPT,
    priority: Optional[int] = _PRIORITY_OPT,
    rating: Optional[int] = _RATING_OPT,
    search: Optional[str] = _SEARCH_OPT,
) -> None:
    """Add papers to a list, by key or by filter (seeding a list: --tag llm --status unread).

    Example: readinglist lists add week-12 canvit2026 --section "Start here" --comment "read §3 only"
    """
    from .errors import ValidationError
    from .store import lists

    wanted = list(keys or ())
    filtered = any(x is not None for x in (status, venue, year, priority, rating, search)) or bool(tag)
    if filtered:
        wanted += [p.key for p in _find(status, tag, venue, year, priority, rating, search, "key")]
    if not wanted:
        raise ValidationError("nothing to add: give keys, or filters that match papers")
    report = lists.add(state.store, name, wanted, section=section, comment=comment)
    for key in report.already:
        typer.echo(f"{key}: already in {name}" + (" (comment updated)" if comment is not None else ""), err=True)
    typer.echo(f"{name}: {len(report.added)} added, {len(report.list.entries)} papers in the list")


@lists_app.command("remove")
def lists_remove(
    name: str = _LIST_NAME,
    keys: List[str] = typer.Argument(..., help="Citation keys to take out of the list."),
) -> None:
    """Take papers out of a list (the papers stay in the store).

    Example: readinglist lists remove week-12 m2le2026
    """
    from .store import lists

    lst = lists.remove(state.store, name, keys)
    typer.echo(f"{name}: {len(keys)} removed, {len(lst.entries)} papers in the list")


@lists_app.command("move")
def lists_move(
    name: str = _LIST_NAME,
    key: str = typer.Argument(..., help="The paper to move."),
    section: Optional[str] = typer.Option(None, "--section", help="Into this section (made when new)."),
    before: Optional[str] = typer.Option(None, "--before", metavar="KEY", help="Just before this paper."),
    after: Optional[str] = typer.Option(None, "--after", metavar="KEY", help="Just after this paper."),
    position: Optional[int] = typer.Option(None, "--position", help="To this place (1 = first) in its section."),
) -> None:
    """Reorder a list: move a paper to another section, before/after another paper, or to a place.

    Example: readinglist lists move week-12 m2le2026 --before canvit2026
    """
    from .store import lists

    lists.move(state.store, name, key, section=section, before=before, after=after, position=position)
    typer.echo(f"{name}: moved {key}")


@lists_app.command("show")
def lists_show(
    name: str = _LIST_NAME,
    as_json: bool = typer.Option(False, "--json", help="The list with its papers as JSON."),
) -> None:
    """Show a list: title, introduction, sections, and each paper with its status and comment.

    Example: readinglist lists show week-12
    """
    from .store import lists

    resolved = lists.resolve(state.store, lists.load(state.store, name))
    for message in resolved.messages():
        typer.echo(f"warning: {message}", err=True)
    lst = resolved.list
    if as_json:
        data = {
            "name": lst.name,
            "title": lst.title,
            "introduction": lst.introduction,
            "progress": dict(zip(("read", "total"), resolved.progress)),
            "sections": [
                {
                    "title": s.title,
                    "papers": [
                        {"key": i.paper.key, "comment": i.entry.comment, "status": i.paper.status, "title": i.paper.record.title}
                        for i in resolved.items
                        if i.section == s.title
                    ],
                }
                for s in lst.sections
            ],
            "missing": [k for k, _ in resolved.missing],
            "renamed": dict(resolved.renamed),
        }
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    read, total = resolved.progress
    out = [f"{lst.heading}  ({read}/{total} read)"]
    if lst.introduction.strip():
        out += ["", lst.introduction.strip()]
    marks = {"read": "[x]", "reading": "[~]", "skipped": "[-]"}
    shown = set()
    for s in lst.sections:
        out.append("")
        if s.title:
            out.append(f"## {s.title}")
        for item in resolved.items:
            if item.section != s.title or id(item) in shown:
                continue
            shown.add(id(item))
            p = item.paper
            out.append(f"  {marks.get(p.status, '[ ]')} {p.key}  {p.record.title}")
            if item.entry.comment:
                out.append(f"        {item.entry.comment}")
    typer.echo("\n".join(out))
#: Global options that take a value (the rest of the root's options end the look-ahead).
_GLOBAL_VALUE_OPTIONS = ("--store", "--config")


def _command_app(args: list[str]) -> typer.Typer:
    """``app``, or a copy holding only the command ``args`` run (when they name one).

    typer builds the click command of every registered command from its signature before it
    parses anything (~25 ms for all of them); a command that changes one paper runs in about
    that time, so only the one that was asked for is built. Anything else (no command, root
    options such as --help or --version, shell completion, an unknown name) gets the full app,
    so help, suggestions and errors stay as they are.
    """
    if any(k.startswith("_READINGLIST_COMPLETE") for k in os.environ):
        return app
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _GLOBAL_VALUE_OPTIONS:
            i += 2
        elif arg.startswith(tuple(o + "=" for o in _GLOBAL_VALUE_OPTIONS)):
            i += 1
        elif arg.startswith("-"):
            return app
        else:
            break
    else:
        return app
    wanted = [c for c in app.registered_commands if (c.name or getattr(c.callback, "__name__", "").replace("_", "-")) == args[i]]
    if len(wanted) != 1:
        return app
    lean = typer.Typer(
        name=app.info.name, cls=app.info.cls, no_args_is_help=True, pretty_exceptions_enable=False,
        add_completion=False, rich_markup_mode=None, context_settings=app.info.context_settings,
    )  # fmt: skip
    lean.registered_callback = app.registered_callback
    lean.registered_commands = wanted
    return lean


def main() -> None:
    """Console-script entry point (library errors become one line, see ``_Group``).

    The process ends with ``os._exit`` once its output is flushed: freeing the tens of
    thousands of cached papers one by one at interpreter exit costs 30-40 ms on a 20,000-paper
    store and serves nothing (every file was written and closed by then). For the same reason
    the short-lived process runs without the cyclic garbage collector: readinglist builds no
    reference cycles worth collecting, and the collector's passes would only walk the loaded
    papers again (library code merely pauses it, see :mod:`readinglist.gc_pause`).
    """
    import gc

    gc.disable()
    code = 0
    try:
        _command_app(sys.argv[1:])(standalone_mode=True)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):
            print(exc.code, file=sys.stderr)
    except KeyboardInterrupt:
        print("readinglist: interrupted", file=sys.stderr)
        code = 130
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # `readinglist list | head`: the reader left, nothing to report
        code = code or 1
    try:
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        pass
    os._exit(code)
