"""``readinglist stats``: reading progress per venue and per tag, as plain text when piped or a
rich table on a terminal. Neither typer nor click is imported here: :mod:`.fast` runs ``stats``
without them, as the typer command (:mod:`.library`) does with them."""

from __future__ import annotations

from .common import rich_console, plain_output, warn_broken, echo, state

def stats_report(weeks: int) -> None:
    """What ``readinglist stats --weeks WEEKS`` prints (see :mod:`.library` for its options)."""
    from ..stats import progress_rows, read_per_week, sparkline

    # the papers counted in groups by the cache's SQL (status, venue, year, tags, the day
    # finished): no value per paper; one query (list(store) would sync the cache twice)
    papers = state.store.tally()
    warn_broken()
    if not plain_output():
        console = rich_console()
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
    """``stats`` of ``papers`` (:class:`~readinglist.stats.Alike` groups) on a terminal: one rich
    table, a row per venue and per tag, each with a bar (read, reading, to read) and a sparkline of papers finished per week, laid out for ``width``
    columns: the counts are never cut; a narrow terminal first loses the sparkline, then bar width,
    then the bar, and labels are cut with "…" last."""
    from rich.table import Table
    from rich.text import Text

    from ..stats import counts, groups, read_per_week, sparkline
    from ..text.controls import escape_controls

    papers = list(papers)
    # (label, the groups counted, style, (read, reading, total))
    rows: list[tuple[str, list, str, tuple[int, int, int]]] = [("all papers", papers, "bold", counts(papers))]
    for title, by in groups(papers):
        rows.append((escape_controls(title, keep=""), [], "heading", (0, 0, 0)))
        rows += [("  " + escape_controls(label, keep=""), members, "", counts(members)) for label, members in by.items()]
    count_w = max(len(f"{read}/{total}") for *_, kind, (read, _, total) in rows if kind != "heading")
    count_w = max(count_w, len("read"))
    label_w = min(28, max(len(label) for label, *_ in rows))
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

    for label, members, kind, (read, reading, total) in rows:
        if kind == "heading":
            table.add_row(Text(label, style="bold dim"), *[""] * (len(table.columns) - 1))
            continue
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
