"""The curated reading lists: ``readinglist lists`` and its subcommands."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from .common import (
    echo,
    utf8,
    find_papers,
    state,
)
from ..selection import Filter
from .options import complete_key, filter_options, with_filters


lists_app = typer.Typer(
    name="lists",
    help="Curated reading lists (lists/NAME.toml in the store): chosen papers, in order, under "
    "headings, each with an optional comment. Without a subcommand: every list with its progress.",
    invoke_without_command=True,
    no_args_is_help=False,
    rich_markup_mode=None,
    add_completion=False,
)
commands = typer.Typer()
commands.add_typer(lists_app, name="lists")

_LIST_NAME = typer.Argument(..., metavar="NAME", help="The list's name (its file is lists/NAME.toml).")


@lists_app.callback()
def lists_overview(ctx: typer.Context) -> None:
    """Every curated list with its progress (7/12 read); subcommands change or show one.

    Example: readinglist lists
    """
    if ctx.invoked_subcommand is not None:
        return
    from ..store import lists

    store = state.store
    found, broken = lists.load_all(store)  # a broken list is reported; the others are shown
    if not found and not broken:
        echo("no lists yet; make one with: readinglist lists new NAME", err=True)
        return
    from ..text.controls import escape_controls

    width = max((len(lst.name) for lst in found), default=0)
    unreadable: dict[str, None] = {}
    for lst in found:
        resolved = lists.resolve(store, lst)
        read, total = resolved.progress
        missing = f"  ({len(resolved.missing)} missing)" if resolved.missing else ""
        if resolved.unreadable:
            missing += f"  ({len(resolved.unreadable)} unreadable)"
            unreadable.update(dict.fromkeys(why for _, why in resolved.unreadable))
        echo(f"{lst.name:<{width}}  {read:>3}/{total:<3} read  {escape_controls(resolved.list.heading, keep='')}{missing}")
    for message in [*map(str, broken), *unreadable]:
        echo(f"readinglist: warning: {message}; skipped", err=True)


@lists_app.command("new")
def lists_new(
    name: str = _LIST_NAME,
    title: Optional[str] = typer.Option(None, "--title", help="The list's title (else its name)."),
    intro: Optional[str] = typer.Option(None, "--intro", help="An introduction (Markdown)."),
) -> None:
    """Make an empty curated list.

    Example: readinglist lists new week-12 --title "Week 12: active vision"
    """
    from ..store import lists

    lst = lists.create(state.store, name, title=title or "", introduction=intro or "")
    echo(f"{lst.name}: new list in {lists.path_of(state.store, name)}")


@lists_app.command("add")
@with_filters
def lists_add(
    name: str = _LIST_NAME,
    keys: Optional[List[str]] = typer.Argument(None, help="Citation keys to add (or use filters).", autocompletion=complete_key),
    section: Optional[str] = typer.Option(None, "--section", help="Add under this heading (made when new; else the last section)."),
    comment: Optional[str] = typer.Option(None, "--comment", "-c", help="A line on why (\"read §3 only\")."),
    where: Filter = filter_options(),
) -> None:
    """Add papers to a list, by key or by filter (seeding a list: --tag llm --status unread).

    Example: readinglist lists add week-12 canvit2026 --section "Start here" --comment "read §3 only"
    """
    from ..errors import ValidationError
    from ..store import lists

    wanted = list(keys or ())
    if where:
        wanted += [p.key for p in find_papers(where, "key")]
    if not wanted:
        raise ValidationError("nothing to add: give keys, or filters that match papers")
    report = lists.add(state.store, name, wanted, section=section, comment=comment)
    for key in report.already:
        echo(f"{key}: already in {name}" + (" (comment updated)" if comment is not None else ""), err=True)
    echo(f"{name}: {len(report.added)} added, {len(report.list.entries)} papers in the list")


@lists_app.command("remove")
def lists_remove(
    name: str = _LIST_NAME,
    keys: List[str] = typer.Argument(..., help="Citation keys to take out of the list."),
) -> None:
    """Take papers out of a list (the papers stay in the store).

    Example: readinglist lists remove week-12 m2le2026
    """
    from ..store import lists

    lst = lists.remove(state.store, name, keys)
    echo(f"{name}: {len(keys)} removed, {len(lst.entries)} papers in the list")


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
    from ..store import lists

    lists.move(state.store, name, key, section=section, before=before, after=after, position=position)
    echo(f"{name}: moved {key}")


@lists_app.command("show")
def lists_show(
    name: str = _LIST_NAME,
    as_json: bool = typer.Option(False, "--json", help="The list with its papers as JSON."),
) -> None:
    """Show a list: title, introduction, sections, and each paper with its status and comment.

    Example: readinglist lists show week-12
    """
    from ..store import lists

    resolved = lists.resolve(state.store, lists.load(state.store, name))
    for message in resolved.messages():
        echo(f"warning: {message}", err=True)
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
                        for i in items
                    ],
                }
                for s, items in resolved.by_section()
            ],
            "missing": [k for k, _ in resolved.missing],
            "unreadable": dict(resolved.unreadable),
            "renamed": dict(resolved.renamed),
        }
        from ..store.cache import json_text

        echo(json_text(data, ascii_only=not utf8(sys.stdout), indent=2))
        return
    from ..text.controls import escape_controls

    def one(text: str) -> str:  # a one-line field: its line breaks shown escaped too
        return escape_controls(text, keep="")

    read, total = resolved.progress
    out = [f"{one(lst.heading)}  ({read}/{total} read)"]
    if lst.introduction.strip():
        out += ["", lst.introduction.strip()]
    marks = {"read": "[x]", "reading": "[~]", "skipped": "[-]"}
    for s, items in resolved.by_section():
        out.append("")
        if s.title:
            out.append(f"## {one(s.title)}")
        for item in items:
            p = item.paper
            out.append(f"  {marks.get(p.status, '[ ]')} {one(p.key)}  {one(p.record.title)}")
            if item.entry.comment:
                out.append(f"        {one(item.entry.comment)}")
    echo("\n".join(out))
