"""Commands on single papers and small selections: show, mark, note, tag, rate, priority,
next, rm, rekey, edit, open."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from . import papers
from .common import (
    echo,
    count_phrase,
    state,
)
from ..selection import Filter
from .options import KEY, STATUS_ARG, complete_key, filter_options, with_filters

commands = typer.Typer()


@commands.command()
def show(key: str = KEY, as_json: bool = typer.Option(False, "--json", help="Print the paper as JSON.")) -> None:
    """Show one paper: title, tags, status, history, notes and abstract.

    Example: readinglist show canvit2026
    """
    papers.show(key, as_json)


_KEYS_ARG = typer.Argument(None, help="Citation keys (or select papers with the filters).", autocompletion=complete_key, show_default=False)
_DRY_RUN = typer.Option(False, "--dry-run", "-n", help="Show what would change, write nothing.")


@commands.command()
@with_filters
def mark(
    status: str = STATUS_ARG,
    keys: Optional[List[str]] = _KEYS_ARG,
    where: Filter = filter_options(help={"status": "Only papers with this status now (repeat: any of them)."}),
    dry_run: bool = _DRY_RUN,
) -> None:
    """Set the reading status of papers: by key (all keys are checked first; one unknown key
    changes nothing), or every paper the filters select (the same filters as list).

    Example: readinglist mark read canvit2026 m2le2026 ; readinglist mark read --tag llm --dry-run
    """
    papers.mark(status, keys, where, dry_run)


@commands.command()
def note(
    key: str = KEY,
    message: Optional[str] = typer.Option(None, "--message", "-m", help="The note text (else $EDITOR opens)."),
    append: bool = typer.Option(False, "--append", "-a", help="Add to the existing notes instead of replacing them."),
) -> None:
    """Write notes (Markdown) on a paper; without -m, $EDITOR opens as git does.

    Example: readinglist note canvit2026 -m "Compare with our glimpse policy." --append
    """
    papers.note(key, message, append)


@commands.command()
@with_filters
def tag(
    words: List[str] = typer.Argument(..., metavar="[KEY] TAG...", help="A key then tags; with --key or a filter, tags only."),
    keys: Optional[List[str]] = typer.Option(None, "--key", "-k", help="A paper to tag (repeat for several).", autocompletion=complete_key),
    remove: bool = typer.Option(False, "--remove", "-r", help="Remove these tags."),
    rename: bool = typer.Option(False, "--rename", help="Rename a tag on every paper that has it: TAG... is OLD NEW."),
    where: Filter = filter_options(help={"tags": "Only papers that have this tag (repeat: all must match)."}),
    dry_run: bool = _DRY_RUN,
) -> None:
    """Add your own tags to papers (kept apart from generated topic tags), or remove tags: one
    paper (KEY TAG...), several (--key K1 --key K2 TAG...) or those the filters select.

    Example: readinglist tag canvit2026 group-meeting ; readinglist tag --status unread to-triage ;
    readinglist tag --rename llm large-language-models
    """
    if rename:
        from ..errors import ValidationError

        if keys or remove or len(words) != 2 or where:
            raise ValidationError("tag --rename takes OLD NEW and renames the tag on every paper that has it (no keys, filters or --remove)")
        papers.rename_tag(words[0], words[1], dry_run)
        return
    papers.tag(words, keys, remove, where, dry_run)


@commands.command()
def rate(key: str = KEY, n: int = typer.Argument(..., min=0, max=5, help="1-5, or 0 to clear.")) -> None:
    """Rate a paper from 1 to 5 (0 clears the rating).

    Example: readinglist rate canvit2026 4
    """
    papers.rate(key, n)


@commands.command()
def priority(key: str = KEY, n: int = typer.Argument(..., min=0, max=3, help="1 (highest) to 3, or 0 to clear.")) -> None:
    """Set a paper's priority from 1 (read first) to 3 (0 clears it).

    Example: readinglist priority canvit2026 1
    """
    papers.priority(key, n)


@commands.command("next")
@with_filters
def next_(
    limit: int = typer.Option(10, "--limit", "-n", min=0, metavar="N", help="At most N papers."),
    where: Filter = filter_options(only=("tags", "venue", "year")),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line, for scripts."),
) -> None:
    """What to read next: unread and started papers, priority 1 first (no priority last), then
    the ones waiting longest.

    Example: readinglist next --tag llm --limit 5
    """
    from .common import next_papers

    next_papers(where, limit, as_json)


@commands.command("rm")
def rm(
    keys: List[str] = typer.Argument(..., help="Citation keys of the papers to remove.", autocompletion=complete_key),
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
    from ..store import lists

    listing = ", ".join(p.key for p in papers)
    in_lists = lists.containing(store, [p.key for p in papers])
    them = "it" if len(papers) == 1 else "them"
    also = f" and take {them} out of the curated list{'s' if len(in_lists) > 1 else ''} " + ", ".join(
        f"{name} ({', '.join(hits)})" if len(papers) > 1 else name for name, hits in in_lists.items()
    ) if in_lists else ""
    if not yes:
        if not sys.stdin.isatty():
            raise ValidationError(f"rm would remove {count_phrase(len(papers), 'paper')} ({listing}){also}: pass --yes to confirm")
        if not typer.confirm(f"remove {count_phrase(len(papers), 'paper')} ({listing}){also}?", default=False):
            echo("nothing removed", err=True)
            raise typer.Exit(1)
    removed = store.remove(p.key for p in papers)
    echo(f"removed {count_phrase(len(removed), 'paper')}: {listing}" + (f" (also from the curated list{'s' if len(in_lists) > 1 else ''} {', '.join(in_lists)})" if in_lists else ""))


@commands.command()
def rekey(
    key: str = KEY,
    new_key: str = typer.Argument(..., help="The new citation key."),
) -> None:
    """Give a paper a new citation key: its file is renamed, its status, notes, tags and history
    stay, and the curated lists that name it follow. A re-import of its abstract still finds it.

    Example: readinglist rekey canvit2026 smith2026canvit
    """
    from ..store import lists

    store = state.store
    before = lists.containing(store, [key])
    paper = store.rekey(key, new_key)
    followed = f"; curated lists updated: {', '.join(before)}" if before else ""
    echo(f"{key} is now {paper.key} ({store.paper_text(paper.key)[0]}){followed}")


@commands.command()
def edit(
    key: str = KEY,
    resume: bool = typer.Option(False, "--resume", help="Go on with the broken edit kept from last time."),
    discard: bool = typer.Option(False, "--discard", help="Drop the broken edit kept from last time and start from the file."),
) -> None:
    """Edit a paper's TOML file in $VISUAL / $EDITOR; it is checked before it is saved (a broken
    edit is reported with its line and column and nothing is written; on a terminal you may edit
    it again at once, and it is kept, so edit KEY --resume goes on with it later).

    Example: readinglist edit canvit2026
    """
    from ..errors import StoreError, ValidationError
    from ..store import paperfile
    from ..store.paperrow import file_stem

    store = state.store
    _, text = store.paper_text(key)
    folder = store.cache_dir / "edits"
    path, base_path = folder / f"{file_stem(key)}.toml", folder / f"{file_stem(key)}.base.toml"
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if resume and discard:
        raise ValidationError("edit takes --resume or --discard, not both")
    base, start = text, text
    if path.exists() and not discard:
        if resume or (interactive and typer.confirm(f"a broken edit of {key} is kept in {path}; go on with it?", default=True)):
            start = path.read_text(encoding="utf-8")
            base = base_path.read_text(encoding="utf-8") if base_path.exists() else text
        elif not interactive:
            raise ValidationError(f"a broken edit of {key} is kept in {path}: edit {key} --resume goes on with it, --discard starts from the file")
    elif resume:
        raise ValidationError(f"no broken edit of {key} is kept; readinglist edit {key} edits its file")

    def forget() -> None:
        for p in (path, base_path):
            p.unlink(missing_ok=True)

    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(start, encoding="utf-8")
    base_path.write_text(base, encoding="utf-8")
    while True:
        papers.run_editor(path, unchanged="nothing written")
        try:
            edited = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise StoreError(f"cannot read the edited file ({exc}); nothing written, your edit is kept in {path}") from None
        if edited == base:
            forget()
            echo(f"{key}: unchanged", err=True)
            return
        try:
            paperfile.parse(edited, path)  # errors name the edited copy, line and column
            paper = store.replace_text(key, base, edited)
        except StoreError as exc:
            if interactive and typer.confirm(f"{exc}\nedit it again?", default=True):
                continue
            raise StoreError(f"{exc}; nothing written; readinglist edit {key} --resume goes on with your edit, kept in {path}") from None
        forget()
        echo(f"{paper.key}: saved")
        return


@commands.command("open")
def open_(
    key: str = KEY,
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


