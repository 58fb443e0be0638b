"""Commands on single papers and small selections: show, mark, note, tag, rate, priority,
next, rm, edit, open."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from .common import (
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
    _count,
    _find,
    _out,
    _paper_json,
    _print_papers,
    _warn_broken,
    state,
)

commands = typer.Typer()


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
        from ..terminal import wrap, width
        from ..text import to_plain

        lines += ["", wrap(to_plain(rec.abstract), min(width(), 100))]
    from ..text.controls import escape_controls

    _out(escape_controls("\n".join(lines) + "\n"))



@commands.command()
def show(key: str = _KEY, as_json: bool = typer.Option(False, "--json", help="Print the paper as JSON.")) -> None:
    """Show one paper: title, tags, status, history, notes and abstract.

    Example: readinglist show canvit2026
    """
    paper = state.store.get(key)
    if as_json:
        typer.echo(json.dumps(_paper_json(paper), ensure_ascii=False, indent=2))
    else:
        _echo_paper(paper)



def _selection(keys, status, tag, venue, year, priority, rating, search) -> list:
    """The papers a changing command acts on: KEYs (every one checked first: one unknown key
    changes nothing) or the papers the list filters select (never both)."""
    from ..errors import UnknownKeyError, ValidationError

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
    from ..store.library import check_status

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


@commands.command()
def note(
    key: str = _KEY,
    message: Optional[str] = typer.Option(None, "--message", "-m", help="The note text (else $EDITOR opens)."),
    append: bool = typer.Option(False, "--append", "-a", help="Add to the existing notes instead of replacing them."),
) -> None:
    """Write notes (Markdown) on a paper; without -m, $EDITOR opens as git does.

    Example: readinglist note canvit2026 -m "Compare with our glimpse policy." --append
    """
    from ..errors import ConflictError

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

    from ..errors import ValidationError
    from ..store.atomic import describe, read_bounded

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
    from ..errors import ValidationError

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


@commands.command()
def rate(key: str = _KEY, n: int = typer.Argument(..., min=0, max=5, help="1-5, or 0 to clear.")) -> None:
    """Rate a paper from 1 to 5 (0 clears the rating).

    Example: readinglist rate canvit2026 4
    """
    paper = state.store.rate(key, n or None)
    typer.echo(f"{paper.key}: rating {paper.rating or '-'}")


@commands.command()
def priority(key: str = _KEY, n: int = typer.Argument(..., min=0, max=3, help="1 (highest) to 3, or 0 to clear.")) -> None:
    """Set a paper's priority from 1 (read first) to 3 (0 clears it).

    Example: readinglist priority canvit2026 1
    """
    paper = state.store.set_priority(key, n or None)
    typer.echo(f"{paper.key}: priority {paper.priority or '-'}")


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
            typer.echo("nothing removed", err=True)
            raise typer.Exit(1)
    removed = store.remove(p.key for p in papers)
    typer.echo(f"removed {_count(len(removed), 'paper')}: {listing}")


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
        typer.echo(f"{key}: unchanged", err=True)
        return
    try:
        paperfile.parse(edited, path)  # errors name the edited copy, line and column
        paper = store.replace_text(key, text, edited)
    except StoreError as exc:
        raise StoreError(f"{exc}; nothing written, your edit is kept in {path}") from None
    shutil.rmtree(tmp, ignore_errors=True)
    typer.echo(f"{paper.key}: saved")


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
        typer.echo(url)
        return
    import webbrowser

    if not webbrowser.open(url):
        raise ValidationError(f"no web browser found to open {url} (set $BROWSER, or use --print)")
    typer.echo(f"opened {url}", err=True)


