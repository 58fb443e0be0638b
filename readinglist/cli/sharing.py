"""Sharing the store through git: ``git-setup`` and the merge driver git runs, ``merge-file``."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from .common import state

commands = typer.Typer()


@commands.command("git-setup")
def git_setup() -> None:
    """Let git merge the store's files with readinglist's merge driver: paper files field by field, curated lists entry by entry (writes the store's .gitattributes and this clone's git config; run it once in every clone).

    Example: readinglist git-setup
    """
    from ..store.gitsetup import setup

    report = setup(state.store.root)
    for line in report.changed:
        typer.echo(f"set up: {line}")
    if not report.changed:
        typer.echo(f"{report.repository}: the merge driver is set up already")
    else:
        typer.echo(f"commit {report.attributes.name} so that every clone has it; each clone runs readinglist git-setup once")


@commands.command("merge-file")
def merge_file(
    base: Path = typer.Argument(..., help="The common ancestor's version (git's %O)."),
    ours: Path = typer.Argument(..., help="Our version, where the merge is written (git's %A)."),
    theirs: Path = typer.Argument(..., help="Their version (git's %B)."),
    path: str = typer.Argument("", help="The file's path in the repository (git's %P)."),
    marker_size: int = typer.Option(7, "--marker-size", min=1, help="The conflict markers' length (git's %L)."),
) -> None:
    """The git merge driver that git-setup installs: merges a paper or list file's three versions and writes the result into OURS; exit status 1 when a true conflict is left in it, between git's markers.

    Example: readinglist merge-file BASE OURS THEIRS papers/canvit2026.toml
    """
    from ..store.gitmerge import run_driver

    code, message = run_driver(str(base), str(ours), str(theirs), path, marker_size=marker_size)
    if message:
        print(message, file=sys.stderr)
    if code:
        raise typer.Exit(code)
