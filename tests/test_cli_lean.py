"""The console script builds only the command it runs (start-up time): the root lists commands
from a table and imports one command module per run. Every invocation must behave as the full
app does (typer building every command at once), help, errors, suggestions and completion
included."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from readinglist.cli import COMMANDS, app, full_app
from readinglist.cli.root import command_name, declared

runner = CliRunner()


@pytest.fixture(scope="module")
def store(tmp_path_factory, seed_paths):
    path = tmp_path_factory.mktemp("lean") / "library"
    result = runner.invoke(app, ["--store", str(path), "import", str(seed_paths[0])])
    assert result.exit_code == 0, result.output
    return str(path)


@pytest.fixture(scope="module")
def full():
    return full_app()


def _args(store):
    every_help = [[name, "--help"] for name in COMMANDS]
    lists_help = [["lists", sub, "-h"] for sub in ("new", "add", "remove", "move", "show")]
    return every_help + lists_help + [
        [],
        ["--help"],
        ["-h"],
        ["--version"],
        ["--color", "sometimes", "list"],
        ["--store", store, "show", "canvit2026"],
        [f"--store={store}", "show", "canvit2026", "--json"],
        ["--store", store, "show", "canvit2025"],  # unknown key: suggestions
        ["--store", store, "show"],  # missing argument
        ["--store", store, "show", "-h"],
        ["--store", store, "shw", "canvit2026"],  # unknown command: "did you mean"
        ["--store", store, "lists", "shwo", "x"],  # unknown subcommand
        ["--store", store, "mark", "done", "canvit2026"],
        ["--store", store, "rate", "canvit2026", "9"],
        ["--store", store, "list", "--tag", "llm", "--bogus"],
        ["--store", store, "--config", "/nonexistent/config.toml", "list"],
        ["--store", store, "list", "--tag", "llm"],
        ["--store", store, "stats"],
        ["--store", store, "formats"],
        ["--store", store, "lists"],
        ["--store", store, "lists", "show", "nothere"],
        ["--store", store, "--bogus", "show", "canvit2026"],
    ]


def test_the_table_is_what_the_modules_declare():
    """Each command is in the table once, under the module that declares it, with the first
    paragraph of its help (what --help shortens): the table cannot drift from the commands."""
    modules = {module for module, _ in COMMANDS.values()}
    declared_names = {}
    for module in modules:
        typer_app = declared(module)
        for info in typer_app.registered_commands:
            declared_names[command_name(info)] = module
        for group in typer_app.registered_groups:
            declared_names[group.name] = module
    assert declared_names == {name: module for name, (module, _) in COMMANDS.items()}
    import typer.main

    group = typer.main.get_command(full_app())
    for name, (_, text) in COMMANDS.items():
        first_paragraph = group.commands[name].help.split("\n\n")[0]
        assert " ".join(first_paragraph.split()) == text, name


def test_the_lazy_app_behaves_as_the_full_one(store, full):
    for args in _args(store):
        want = runner.invoke(full, args)
        got = runner.invoke(app, args)
        assert (got.exit_code, got.output) == (want.exit_code, want.output), args
    for columns in ("40", "60", "200"):  # the commands' one-line help is shortened to the width
        want = runner.invoke(full, ["--help"], env={"COLUMNS": columns})
        got = runner.invoke(app, ["--help"], env={"COLUMNS": columns})
        assert got.output == want.output, columns


@pytest.mark.parametrize(
    "words",
    ["", "s", "--co", "lists ", "lists s", "show can", "mark r", "lists add x can"],
)
def test_completion_is_the_full_apps(store, full, words):
    words = f"readinglist --store {store} {words}"
    env = {"_READINGLIST_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split(" ")) - 1)}
    want = runner.invoke(full, [], env=env, prog_name="readinglist")
    got = runner.invoke(app, [], env=env, prog_name="readinglist")
    assert (got.exit_code, got.output) == (want.exit_code, want.output)
    assert got.output.strip(), "completion offered nothing"


def _loaded(args: list[str]) -> dict:
    """Which command modules (and whether rich) a fresh interpreter loaded to run ``args``."""
    code = (
        "import json, sys\n"
        "from readinglist.cli import app\n"
        "try:\n"
        f"    app({args!r}, standalone_mode=True)\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stdout.flush()\n"
        "mods = sorted(m for m in sys.modules if m.startswith('readinglist.cli.'))\n"
        "sys.stderr.write(json.dumps({'cli': mods, 'rich': 'rich' in sys.modules}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(proc.stderr.splitlines()[-1])


def test_a_run_imports_only_the_module_of_its_command(store):
    """Through the typer app (the console script runs plain single-paper lines without it:
    tests/test_cli_fast.py)."""
    shared = ["readinglist.cli.common", "readinglist.cli.root"]
    reading = ["readinglist.cli.common", "readinglist.cli.filters", "readinglist.cli.options", "readinglist.cli.papers", "readinglist.cli.reading", "readinglist.cli.root"]
    assert _loaded(["--help"]) == {"cli": shared, "rich": False}
    assert _loaded(["--store", store, "show", "canvit2026"]) == {"cli": reading, "rich": False}
    assert _loaded(["--store", store, "mark", "read", "canvit2026"])["cli"] == reading
    assert _loaded(["--store", store, "list"]) == {"cli": ["readinglist.cli.common", "readinglist.cli.filters", "readinglist.cli.library", "readinglist.cli.options", "readinglist.cli.root"], "rich": False}
    assert _loaded(["--store", store, "lists"])["cli"] == ["readinglist.cli.common", "readinglist.cli.filters", "readinglist.cli.lists", "readinglist.cli.options", "readinglist.cli.root"]
