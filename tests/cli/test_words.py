"""Errors and words: usage errors in one line plus a hint, plurals, rounding, export -o into a
missing folder, and one broken paper file that no longer blocks the read commands."""

from __future__ import annotations

from helpers import console_script

import os
import shutil
import subprocess

import pytest


def script(*args, cwd=None):
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([console_script(), *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory, seed_paths):
    path = tmp_path_factory.mktemp("words") / "library"
    assert script("--store", path, "import", *seed_paths).returncode == 0
    return path


@pytest.fixture
def store(seeded, tmp_path):
    shutil.copytree(seeded, tmp_path / "library")
    return tmp_path / "library"


@pytest.mark.parametrize(
    "args, words",
    [
        (["rate", "canvit2026", "9"], "9 is not in the range"),
        (["lsit"], "no such command 'lsit'"),
        (["mark"], "missing argument"),
        (["list", "--bad"], "no such option: --bad"),
    ],
)
def test_usage_errors_are_one_line_and_a_hint(store, args, words):
    out = script("--store", store, *args)
    assert out.returncode == 2 and out.stdout == ""
    first, hint = out.stderr.splitlines()
    assert first.startswith("readinglist: error: ") and words in first.lower()
    assert hint.startswith("hint: readinglist") and "-h' for help" in hint


def test_plurals_and_cleared_notes(store, tmp_path):
    out = script("--store", store, "export", "-o", tmp_path / "one.bib", "--search", "CanViT")
    assert out.stderr.strip() == f"1 paper written to {tmp_path / 'one.bib'}"
    assert script("--store", store, "note", "canvit2026", "-m", "a\nb").stdout.strip() == "canvit2026: notes saved (2 lines)"
    assert script("--store", store, "note", "canvit2026", "-m", "").stdout.strip() == "canvit2026: notes cleared"


def test_stats_rounds_normally(store):
    keys = script("--store", store, "list").stdout.splitlines()
    script("--store", store, "mark", "read", *(line.split("\t")[0] for line in keys[:7]))  # 7/38 = 18.4%
    assert " 18% read" in script("--store", store, "stats").stdout
    script("--store", store, "mark", "read", keys[7].split("\t")[0])  # 8/38 = 21.05%
    script("--store", store, "mark", "read", keys[8].split("\t")[0])  # 9/38 = 23.7% -> 24%
    assert " 24% read" in script("--store", store, "stats").stdout


def test_export_into_a_missing_folder_is_an_error(store, tmp_path):
    out = script("--store", store, "export", "-o", tmp_path / "missing" / "dir" / "x.bib")
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "no folder" in out.stderr
    assert not (tmp_path / "missing").exists()


def test_one_broken_paper_file_does_not_block_reading(store, tmp_path):
    broken = store / "papers" / "canvit2026.toml"
    broken.write_text(broken.read_text(encoding="utf-8").replace('type = "inproceedings"', 'type = "inproceedings'), encoding="utf-8")
    for args in (["list"], ["stats"], ["search", "model"], ["export", "-f", "bibtex"]):
        out = script("--store", store, *args)
        assert out.returncode == 0, (args, out.stderr)
        warnings = [line for line in out.stderr.splitlines() if "warning" in line]
        assert len(warnings) == 1 and f"{broken}:" in warnings[0], (args, out.stderr)
        assert "canvit2026" not in out.stdout
    assert len(script("--store", store, "list").stdout.splitlines()) == 37
    before = broken.read_text(encoding="utf-8")
    for args in (["mark", "read", "canvit2026"], ["note", "canvit2026", "-m", "x"]):
        out = script("--store", store, *args)
        assert out.returncode == 1 and str(broken) in out.stderr
    assert broken.read_text(encoding="utf-8") == before
    assert script("--store", store, "mark", "read", "captrack2026").returncode == 0  # other papers still change
