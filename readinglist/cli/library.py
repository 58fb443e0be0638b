"""Commands that read the whole library: list, search, stats, where, formats."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..record import SORTS
from .common import (
    echo,
    list_papers,
    search_papers,
    _console,
    _plain_output,
    _warn_broken,
    state,
)
from ..selection import Filter
from .options import filter_options, with_filters

commands = typer.Typer()


@commands.command("list")
@with_filters
def list_(
    where: Filter = filter_options(),
    sort: str = typer.Option("key", help=" | ".join(SORTS) + " (priority: 1 first; rating: best first)."),
    reverse: bool = typer.Option(False, "--reverse", "-r", help="Reverse the order."),
    limit: Optional[int] = typer.Option(None, "--limit", "-n", min=0, metavar="N", help="At most N papers."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line, for scripts."),
) -> None:
    """List papers: a table on a terminal (one line per paper, paged when long), tab-separated
    lines when piped, JSON lines with --json.

    Example: readinglist list --status unread --tag llm --sort priority --limit 10
    """
    list_papers(where, sort, reverse, limit, as_json)



@commands.command()
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
    search_papers(text, limit, as_json)



@commands.command()
def stats(
    weeks: int = typer.Option(12, "--weeks", min=1, max=104, help="How many weeks the sparkline of papers read covers."),
) -> None:
    """Reading progress per venue and per tag: counts, a bar, and a sparkline of papers read
    per week (rich on a terminal, plain text when piped).

    Example: readinglist stats --weeks 8
    """
    from ..stats import progress_rows, read_per_week, sparkline

    papers = state.store.find()  # (list(store) would sync the cache twice: once for its len)
    _warn_broken()
    if not _plain_output():
        console = _console()
        console.print(stats_table(papers, weeks=weeks, width=console.width))
        return
    from ..text.controls import escape_controls

    for title, rows in progress_rows(papers):
        echo(title)
        rows = [(escape_controls(label, keep=""), read, reading, total) for label, read, reading, total in rows]
        width = max((len(label) for label, *_ in rows), default=0)
        for label, read, reading, total in rows:
            bar = _bar(read, reading, total, plain=True)
            echo(f"  {label:<{width}}  {read:>4}/{total:<4} {bar}  {round(100 * read / max(total, 1)):>3}% read")
        echo("")
    counts = read_per_week(papers, weeks=weeks)
    echo(f"read per week, last {weeks} weeks (oldest first): {' '.join(map(str, counts))}  {sparkline(counts)}")


def stats_table(papers, *, weeks: int = 12, width: int = 100):
    """``stats`` on a terminal: one rich table, a row per venue and per tag, each with a bar
    (read, reading, to read) and a sparkline of papers finished per week, laid out for ``width``
    columns: the counts are never cut; a narrow terminal first loses the sparkline, then bar width,
    then the bar, and labels are cut with "…" last."""
    from rich.table import Table
    from rich.text import Text

    from ..stats import groups, read_per_week, sparkline
    from ..text.controls import escape_controls

    rows: list[tuple[str, list, str]] = [("all papers", papers, "bold")]
    for title, by in groups(papers):
        rows.append((escape_controls(title, keep=""), [], "heading"))
        rows += [("  " + escape_controls(label, keep=""), members, "") for label, members in by.items()]
    counts = [f"{sum(p.status == 'read' for p in m)}/{len(m)}" for _, m, kind in rows if kind != "heading"]
    count_w = max(map(len, counts + ["read"]))
    label_w = min(28, max(len(label) for label, _, _ in rows))
    gap = 1  # rich's padding on each side of a cell: two columns are two apart
    avail = width - (count_w + 2 * gap) - (4 + 2 * gap) - 2 * gap  # what the label, bar and sparkline share
    spark_w = max(weeks, len(f"per week ({weeks})"))
    label_min = min(label_w, 10)
    show_spark = avail - (spark_w + 2 * gap) >= label_min + 8 + 2 * gap
    if show_spark:
        avail -= spark_w + 2 * gap
    bar_w = min(20, avail - label_w - 2 * gap)
    if bar_w < 5:
        bar_w = min(20, avail - label_min - 2 * gap)
    show_bar = bar_w >= 5
    label_max = max(label_min, min(label_w, avail - (bar_w + 2 * gap if show_bar else 0)))

    table = Table(box=None, header_style="bold", pad_edge=False, show_edge=False)
    table.add_column("", no_wrap=True, max_width=label_max, overflow="ellipsis")
    table.add_column("read", justify="right", no_wrap=True, min_width=count_w)
    if show_bar:
        table.add_column("progress", no_wrap=True, min_width=bar_w, max_width=bar_w)
    table.add_column("%", justify="right", no_wrap=True, min_width=4)
    if show_spark:
        table.add_column(f"per week ({weeks})", no_wrap=True)

    for label, members, kind in rows:
        if kind == "heading":
            table.add_row(Text(label, style="bold dim"), *[""] * (len(table.columns) - 1))
            continue
        read = sum(p.status == "read" for p in members)
        reading = sum(p.status == "reading" for p in members)
        total = len(members)
        cells: list = [Text(label, style=kind), f"{read}/{total}"]
        if show_bar:
            n_read = round(bar_w * read / total) if total else 0
            n_reading = min(bar_w - n_read, round(bar_w * reading / total)) if total else 0
            bar = Text()
            bar.append("█" * n_read, style="green")
            bar.append("▒" * n_reading, style="yellow")
            bar.append("░" * (bar_w - n_read - n_reading), style="dim")
            cells.append(bar)
        cells.append(f"{round(100 * read / max(total, 1))}%")
        if show_spark:
            cells.append(Text(sparkline(read_per_week(members, weeks=weeks)), style="cyan"))
        table.add_row(*cells)
    return table


def _bar(read: int, reading: int, total: int, *, plain: bool, width: int = 24) -> str:
    n_read = round(width * read / total) if total else 0
    n_reading = min(width - n_read, round(width * reading / total)) if total else 0
    if plain:
        return "[" + "#" * n_read + "~" * n_reading + "." * (width - n_read - n_reading) + "]"
    return "█" * n_read + "▒" * n_reading + "░" * (width - n_read - n_reading)


@commands.command()
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
    echo(f"store:  {cfg.store}{exists}  ({why})")
    echo(f"config: {cfg.path if cfg.path is not None else '(built-in defaults)'}")


@commands.command()
def formats() -> None:
    """List the importer, exporter and title generator plugins (built-in and installed).

    Example: readinglist formats
    """
    from ..convert.generators import all_generators
    from ..formats.registry import all_exporters, all_importers

    for title, plugins in (("importers", all_importers()), ("exporters", all_exporters())):
        echo(title + ":")
        for plugin in plugins:
            echo(f"  {plugin.name:<10} {' '.join(plugin.suffixes):<12} {plugin.description}")
    echo("title generators ([titles] generator in the config):")
    for generator in all_generators():
        echo(f"  {generator.name:<23} {generator.description}")


