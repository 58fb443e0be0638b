"""Commands on single papers and small selections: show, mark, note, tag, rate, priority,
next, rm, edit, open."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from . import papers
from .common import (
    echo,
    _count,
    _print_papers,
    _warn_broken,
    state,
)
from .options import (
    _KEY,
    _PRIORITY_OPT,
    _RATING_OPT,
    _SEARCH_OPT,
    _STATUS_ARG,
    _STATUS_OPT,
    _TAG_OPT,
    _VENUE_OPT,
    _YEAR_OPT,
    _complete_key,
)

commands = typer.Typer()


@commands.command()
def show(key: str = _KEY, as_json: bool = typer.Option(False, "--json", help="Print the paper as JSON.")) -> None:
    """Show one paper: title, tags, status, history, notes and abstract.

    Example: readinglist show canvit2026
    """
    papers.show(key, as_json)


_KEYS_ARG = typer.Argument(None, help="Citation keys (or select papers with the filters).", autocompletion=_complete_key, show_default=False)
_DRY_RUN = typer.Option(False, "--dry-run", "-n", help="Show what would change, write nothing.")


@commands.command()
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
    papers.mark(status, keys, where_status, tag, venue, year, priority, rating, search, dry_run)


@commands.command()
def note(
    key: str = _KEY,
    message: Optional[str] = typer.Option(None, "--message", "-m", help="The note text (else $EDITOR opens)."),
    append: bool = typer.Option(False, "--append", "-a", help="Add to the existing notes instead of replacing them."),
) -> None:
    """Write notes (Markdown) on a paper; without -m, $EDITOR opens as git does.

    Example: readinglist note canvit2026 -m "Compare with our glimpse policy." --append
    """
    papers.note(key, message, append)


def _run_editor(path: Path) -> None:
    """Run $VISUAL / $EDITOR (else vi) on ``path``; a one-line error when it cannot start or fails."""
    import shlex
    import subprocess

    from ..errors import ValidationError

    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    try:
        code = subprocess.call([*shlex.split(editor), str(path)])
    except (OSError, ValueError) as exc:
        raise ValidationError(f"cannot start the editor {editor!r}: {getattr(exc, 'strerror', None) or exc}") from None
    if code != 0:
        raise ValidationError(f"the editor {editor!r} exited with status {code}; nothing written")

@commands.command()
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
    papers.tag(words, keys, remove, status, tag, venue, year, priority, rating, search, dry_run)


@commands.command()
def rate(key: str = _KEY, n: int = typer.Argument(..., min=0, max=5, help="1-5, or 0 to clear.")) -> None:
    """Rate a paper from 1 to 5 (0 clears the rating).

    Example: readinglist rate canvit2026 4
    """
    papers.rate(key, n)


@commands.command()
def priority(key: str = _KEY, n: int = typer.Argument(..., min=0, max=3, help="1 (highest) to 3, or 0 to clear.")) -> None:
    """Set a paper's priority from 1 (read first) to 3 (0 clears it).

    Example: readinglist priority canvit2026 1
    """
    papers.priority(key, n)


@commands.command("next")
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


@commands.command("rm")
def rm(
    keys: List[str] = typer.Argument(..., help="Citation keys of the papers to remove.", autocompletion=_complete_key),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask (needed when stdin is not a terminal)."),
) -> None:
    """Remove papers from the store (their files are deleted; git keeps the history). Every key
    is checked first; on a terminal you are asked to confirm.

    Example: readinglist rm canvit2026 captrack2026
    """
    from ..errors import UnknownKeyError, ValidationError

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
            echo("nothing removed", err=True)
            raise typer.Exit(1)
    removed = store.remove(p.key for p in papers)
    echo(f"removed {_count(len(removed), 'paper')}: {listing}")


@commands.command()
def edit(key: str = _KEY) -> None:
    """Edit a paper's TOML file in $VISUAL / $EDITOR; it is checked before it is saved (a broken
    edit is reported with its line and column, kept aside, and nothing is written).

    Example: readinglist edit canvit2026
    """
    import shutil
    import tempfile

    from ..errors import StoreError
    from ..store import paperfile

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
        echo(f"{key}: unchanged", err=True)
        return
    try:
        paperfile.parse(edited, path)  # errors name the edited copy, line and column
        paper = store.replace_text(key, text, edited)
    except StoreError as exc:
        raise StoreError(f"{exc}; nothing written, your edit is kept in {path}") from None
    shutil.rmtree(tmp, ignore_errors=True)
    echo(f"{paper.key}: saved")


@commands.command("open")
def open_(
    key: str = _KEY,
    print_only: bool = typer.Option(False, "--print", help="Print the URL instead of opening it."),
) -> None:
    """Open the paper's URL (or its DOI at doi.org) in the web browser ($BROWSER).

    Example: readinglist open canvit2026
    """
    from ..errors import ValidationError

    rec = state.store.get(key).record
    url = rec.url or (f"https://doi.org/{rec.doi}" if rec.doi else None)
    if not url:
        raise ValidationError(f"{rec.key} has no URL or DOI (generated from an abstract; `readinglist reconcile OFFICIAL.bib` adds them)")
    if print_only:
        echo(url)
        return
    import webbrowser

    if not webbrowser.open(url):
        raise ValidationError(f"no web browser found to open {url} (set $BROWSER, or use --print)")
    echo(f"opened {url}", err=True)


