"""Commands that read the whole library: list, search, stats, where, formats."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..record import SORTS
from .common import (
    WEEKS,
    WEEKS_MAX,
    echo,
    list_papers,
    search_papers,
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
    weeks: int = typer.Option(WEEKS, "--weeks", min=1, max=WEEKS_MAX, help="How many weeks the sparkline of papers read covers."),
) -> None:
    """Reading progress per venue and per tag: counts, a bar, and a sparkline of papers read
    per week (rich on a terminal, plain text when piped).

    Example: readinglist stats --weeks 8
    """
    from .report import stats_report

    stats_report(weeks)


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


