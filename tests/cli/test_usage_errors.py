"""A usage error of readinglist is one line and a hint; the way is readinglist's own: click, and
any other click or typer app in the same process, show their usage errors as they always do."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from readinglist.cli.root import app


def _other_app() -> typer.Typer:
    other = typer.Typer(add_completion=False, rich_markup_mode=None)  # click's own show(), as readinglist

    @other.command()
    def count(n: int = typer.Option(1, "--n", min=1)) -> None:
        typer.echo(str(n))

    @other.command()
    def unused() -> None:  # (two commands: a group, as readinglist's)
        pass

    return other


def test_readinglists_usage_errors_are_one_line_and_a_hint(tmp_path):
    result = CliRunner().invoke(app, ["--store", str(tmp_path), "list", "--year", "3000"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "readinglist: error: invalid value for '--year': 3000 is not in the range 1000<=x<=2999",
        "hint: readinglist list [OPTIONS]   ('readinglist list -h' for help)",
    ]
    result = CliRunner().invoke(app, ["lisst"])
    assert result.exit_code == 2 and result.stderr.startswith("readinglist: error: no such command 'lisst'")


def test_another_click_app_in_the_process_keeps_clicks_own_usage_errors():
    CliRunner().invoke(app, ["lisst"])  # readinglist's way used once in this process
    result = CliRunner().invoke(_other_app(), ["count", "--n", "0"])
    assert result.exit_code == 2
    assert "readinglist" not in result.stderr and "hint:" not in result.stderr
    assert result.stderr.startswith("Usage: ") and "Error: Invalid value for '--n'" in result.stderr
