"""The plain single-paper command lines and list run without typer (readinglist.cli.fast): each must do
and print exactly what the typer app does with the same line, and every line the fast parser is
not sure of must go to typer."""

from __future__ import annotations

from helpers import console_script

import re
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from readinglist.cli import app
from readinglist.cli.fast import plan

FAST = (
    "import sys\n"
    "from readinglist.cli.fast import run\n"
    "code = run(sys.argv[1:])\n"
    "assert code is not None, 'not run by the fast path'\n"
    "assert not {'typer', 'click', 'rich', 'filelock'} & set(sys.modules), 'imported typer, click, rich or filelock'\n"
    "sys.exit(code)\n"
)
TYPER = "import sys\nfrom readinglist.cli import app\napp(sys.argv[1:], prog_name='readinglist')\n"
STAMP = re.compile(rb"\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\dZ)?")


@pytest.fixture(scope="module")
def library(tmp_path_factory, seed_paths):
    path = tmp_path_factory.mktemp("fast") / "library"
    result = CliRunner().invoke(app, ["--store", str(path), "import", str(seed_paths[0])])
    assert result.exit_code == 0, result.output
    return path


LINES = [
    ["show", "canvit2026"],
    ["show", "canvit2026", "--json"],
    ["show", "--json", "canvit2026"],
    ["show", "canvit2025"],  # unknown key: the one-line error with suggestions
    ["mark", "read", "canvit2026"],
    ["mark", "reading", "canvit2026", "m2le2026"],
    ["mark", "done", "canvit2026"],  # not a status
    ["mark", "read", "canvit2026", "nosuchpaper2026"],  # one unknown key changes nothing
    ["rate", "canvit2026", "4"],
    ["rate", "canvit2026", "0"],
    ["priority", "canvit2026", "1"],
    ["note", "canvit2026", "-m", "Compare with our glimpse policy."],
    ["note", "canvit2026", "--message", "Second thought.", "--append"],
    ["note", "-a", "canvit2026", "--message=Third thought."],
    ["tag", "canvit2026", "group-meeting", "week-12"],
    ["tag", "canvit2026", "m2le2026"],  # a key where a tag belongs: refused with a hint
    ["--no-pager", "--color", "never", "show", "m2le2026"],
    ["list"],
    ["list", "--json"],
    ["list", "--tag", "llm", "-t", "vision"],
    ["list", "--status=unread", "--sort", "title", "-r", "-n", "3"],
    ["list", "--year", "2026", "--venue", "NeurIPS", "--sort=priority"],
    ["list", "--search", "vision", "--limit=2", "--json"],
    ["list", "--priority", "1"],
    ["list", "--rating", "5", "--reverse"],
    ["list", "--sort", "bogus"],  # a library error
    ["list", "--status", "done"],
    ["list", "--status", "unread", "-s", "reading", "--json"],  # repeatable: any of them
    ["list", "--status", "unread", "--status", "done"],
    ["next"],
    ["next", "-n", "3", "--json"],
    ["next", "--tag", "llm", "--limit=2"],
    ["next", "--venue", "NeurIPS", "--year", "2026", "-n", "0"],
    ["stats"],
    ["stats", "--weeks", "3"],
    ["stats", "--weeks=104"],
    ["search", "vision"],
    ["search", "vision", "-n", "2", "--json"],
    ["search", "--limit=1", "knowledge editing"],
    ["search", "zzzznothing"],  # no match: said on stderr
]


@pytest.mark.parametrize("line", LINES, ids=[" ".join(line) for line in LINES])
def test_the_fast_path_does_what_typer_does(library, tmp_path, line):
    results = []
    for name, code in (("fast", FAST), ("typer", TYPER)):
        store = tmp_path / name
        shutil.copytree(library, store)
        proc = subprocess.run([sys.executable, "-c", code, "--store", str(store), *line], capture_output=True)
        files = {p.name: STAMP.sub(b"DATE", p.read_bytes()) for p in sorted((store / "papers").iterdir())}
        results.append((proc.returncode, proc.stdout, proc.stderr.replace(str(store).encode(), b"STORE"), files))
    assert results[0] == results[1]


@pytest.mark.parametrize(
    "line",
    [
        [],
        ["--help"],
        ["--version"],
        ["show"],
        ["show", "-h"],
        ["show", "canvit2026", "--help"],
        ["show", "canvit2026", "extra"],
        ["show", "--", "canvit2026"],
        ["show", "canvit2026", "--jsn"],
        ["sho", "canvit2026"],
        ["list", "--year", "99"],
        ["next", "--year", "99"],
        ["next", "-n", "-1"],
        ["next", "--status", "read"],  # not an option of next
        ["list", "-n", "-1"],
        ["list", "--limit", "x"],
        ["list", "extra"],
        ["list", "-rn", "3"],
        ["list", "-s=unread"],
        ["list", "--json=1"],
        ["list", "--tag"],
        ["list", "--search", ""],
        ["list", "--bogus"],
        ["list", "-h"],
        ["stats", "--weeks", "0"],
        ["stats", "--weeks", "105"],
        ["stats", "--weeks"],
        ["stats", "--weeks", "2", "--weeks", "3"],
        ["stats", "-w", "2"],
        ["stats", "extra"],
        ["search", "vision", "-n", "0"],
        ["search", "vision", "-n", "2", "--limit", "3"],
        ["search", "-x"],
        ["search"],
        ["mark", "read"],
        ["mark", "read", "--tag", "llm"],
        ["mark", "read", "canvit2026", "--dry-run"],
        ["rate", "canvit2026", "9"],
        ["rate", "canvit2026", "+3"],
        ["rate", "canvit2026", "٣"],
        ["priority", "canvit2026", "4"],
        ["note", "canvit2026"],  # $EDITOR
        ["note", "canvit2026", "-m", ""],  # clearing: typer's
        ["note", "canvit2026", "-m", "-x"],
        ["note", "canvit2026", "-mtext"],
        ["tag", "canvit2026"],
        ["tag", "canvit2026", "llm", "--remove"],
        ["--store", "s", "--store", "t", "show", "k"],
        ["--store"],
        ["--store", "--no-pager", "show", "k"],
        ["--color", "sometimes", "show", "k"],
        ["--bogus", "show", "k"],
        ["--no-pager", "--no-pager", "show", "k"],
    ],
)
def test_lines_the_fast_path_is_not_sure_of_go_to_typer(line):
    assert plan(line) is None


def test_completion_goes_to_typer(monkeypatch):
    assert plan(["show", "canvit2026"]) is not None
    monkeypatch.setenv("_READINGLIST_COMPLETE", "complete_bash")
    assert plan(["show", "canvit2026"]) is None


def test_the_console_script_takes_the_fast_path(library):
    """The installed script runs `show` without importing typer (and `--help` with it)."""
    for line, typer_loaded in ((["show", "canvit2026"], False), (["--help"], True)):
        proc = subprocess.run([sys.executable, "-X", "importtime", console_script(), "--store", str(library), *line], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        loaded = {m.split("|")[-1].strip() for m in proc.stderr.splitlines() if m.startswith("import time:")}
        assert ("typer" in loaded) == typer_loaded, line


LEAN = (
    "import sys\n"
    "from readinglist.cli.fast import run\n"
    "code = run(sys.argv[1:])\n"
    "heavy = {'typer', 'click', 'tomllib', 'tomlkit', 'platformdirs', 'readinglist.config'} & set(sys.modules)\n"
    "assert code == 0 and not heavy, (code, heavy)\n"
)


@pytest.mark.parametrize(
    "line",
    [
        ["show", "canvit2026"],
        ["mark", "reading", "canvit2026"],
        ["note", "canvit2026", "-m", "lean", "-a"],
        ["tag", "canvit2026", "lean"],
        ["rate", "canvit2026", "4"],
        ["priority", "canvit2026", "2"],
    ],
)
def test_single_paper_commands_load_neither_typer_nor_a_toml_parser(library, line):
    """On a file as readinglist wrote it, the single-paper commands load neither typer nor a
    TOML parser (reading nor editing), nor the configuration (their start-up would be most of
    such a command's time; bench/cli_bench.py times it)."""
    proc = subprocess.run([sys.executable, "-c", LEAN, "--store", str(library), *line], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_a_list_from_a_current_cache_loads_neither_typer_nor_a_toml_parser(library):
    """`list` (piped: one line a paper from the cache) and its filters: once the cache is
    current, neither typer nor a TOML parser nor the configuration is loaded."""
    import time

    from readinglist.store.cache import RACY_NS

    time.sleep(2 * RACY_NS / 1e9)  # files changed just now are read again until they settle
    subprocess.run([sys.executable, "-c", FAST, "--store", str(library), "list"], capture_output=True, check=True)
    for line in (["list"], ["list", "--tag", "llm"], ["list", "--status", "unread", "-n", "3"]):
        proc = subprocess.run([sys.executable, "-c", LEAN, "--store", str(library), *line], capture_output=True, text=True)
        assert proc.returncode == 0, (line, proc.stderr)
        assert proc.stdout.count("\n") >= 1


@pytest.mark.parametrize("rating", [4, 1], ids=["merges", "conflicts"])
def test_the_merge_driver_runs_without_typer_as_typer_runs_it(tmp_path, rating):
    """git runs `merge-file` once per file both sides changed: the fast path, same result."""
    from readinglist.record import Paper, Record
    from readinglist.store.paperfile import render

    base = Paper(Record(key="x2026", title="T"), rating=2)
    texts = {"base": render(base), "ours": render(base.evolve(rating=rating, user_tags=("a",))), "theirs": render(base.evolve(rating=4 if rating == 1 else 2, notes="n"))}
    results = []
    for name, code in (("fast", FAST), ("typer", TYPER)):
        d = tmp_path / name
        d.mkdir()
        for part, text in texts.items():
            (d / part).write_text(text, encoding="utf-8")
        line = ["merge-file", str(d / "base"), str(d / "ours"), str(d / "theirs"), "library/papers/x2026.toml", "--marker-size", "7"]
        proc = subprocess.run([sys.executable, "-c", code, *line], capture_output=True)
        results.append((proc.returncode, proc.stdout, proc.stderr, (d / "ours").read_bytes()))
    assert results[0] == results[1]
    assert results[0][0] == (0 if rating == 4 else 1)
    assert plan(["merge-file", "b", "o", "t", "p", "--marker-size", "x"]) is None
