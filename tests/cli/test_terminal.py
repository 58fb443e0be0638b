"""What a person sees on a real terminal: the CLI runs in a pseudo-terminal of 60, 80 and 120
columns (and once in tmux, when installed), and the screen is checked as read."""

from __future__ import annotations

from helpers import console_script, in_pty

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from readinglist.terminal import cells

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(scope="module")
def library(tmp_path_factory, seed_paths) -> Path:
    path = tmp_path_factory.mktemp("term") / "library"
    subprocess.run([console_script(), "--store", str(path), "import", *map(str, seed_paths)], check=True, capture_output=True)
    subprocess.run([console_script(), "--store", str(path), "rate", "canvit2026", "5"], check=True, capture_output=True)
    subprocess.run([console_script(), "--store", str(path), "rate", "captrack2026", "3"], check=True, capture_output=True)
    return path


def keys_of(library: Path) -> list[str]:
    out = subprocess.run([console_script(), "--store", str(library), "list"], check=True, capture_output=True, text=True).stdout
    return [line.split("\t")[0] for line in out.splitlines()]


@pytest.mark.parametrize("cols", [60, 80, 120])
@pytest.mark.parametrize("color", [{}, {"NO_COLOR": "1"}])
def test_list_is_one_line_per_paper_with_whole_keys(library, cols, color):
    keys = keys_of(library)
    code, screen = in_pty(["--store", library, "list"], cols=cols, env=color)
    assert code == 0, screen
    lines = [ANSI.sub("", line) for line in screen.splitlines()]
    if color:
        assert "\x1b[" not in screen  # NO_COLOR: still a table, without colour
    assert all(cells(line) <= cols for line in lines), [line for line in lines if cells(line) > cols]
    header, rows, footer = lines[0], lines[1:-1], lines[-1]
    assert header.split()[:2] == ["KEY", "STATUS"] and "TITLE" in header
    assert footer == f"{len(keys)} papers"
    assert [row.split()[0] for row in rows] == keys  # one line per paper, every key whole
    assert any(row.endswith("…") for row in rows)  # long titles are cut, and say so
    assert "PRI" not in header.split()  # no paper has a priority: the column is dropped
    if cols >= 120:
        assert "VENUE" in header and "NeurIPS 2026" in rows[0]
    if cols == 80:  # every paper is NeurIPS 2026: that column gives way to the rating
        assert "VENUE" not in header and "RATING" in header, header


def test_a_column_with_one_value_on_every_row_is_dropped_first():
    from readinglist.terminal import Column, table

    rows = 4
    columns = [
        Column("key", [f"paper{i}2026" for i in range(rows)], fixed=True),
        Column("venue", ["NeurIPS 2026"] * rows, max=16, drop_order=2),
        Column("tags", [f"tag-{i}, other" for i in range(rows)], max=24, drop_order=5),
    ]
    title = Column("title", ["A title long enough to want the rest of the line"] * rows)
    header = table(columns, title, total_width=60, color=False)[0].split()
    assert header == ["KEY", "TAGS", "TITLE"]
    varied = [columns[0], Column("venue", ["ICML 2026", "NeurIPS 2026", "ICLR 2026", "COLT 2026"], max=16, drop_order=2), columns[2]]
    assert table(varied, title, total_width=60, color=False)[0].split() == ["KEY", "VENUE", "TITLE"]  # tags go first then


def test_list_limit_reverse_sort_rating_and_color(library):
    code, screen = in_pty(["--store", library, "--color", "always", "list", "--sort", "rating", "--limit", "2"], cols=120)
    lines = [ANSI.sub("", line) for line in screen.splitlines()]
    assert [line.split()[0] for line in lines[1:3]] == ["canvit2026", "captrack2026"] and lines[3] == "2 papers"
    assert "\x1b[1m" in screen  # --color always: a bold header
    code, screen = in_pty(["--store", library, "--color", "never", "list", "--reverse", "--limit", "1"], cols=80)
    assert "\x1b[" not in screen
    assert screen.splitlines()[1].split()[0] == keys_of(library)[-1]


def test_search_prints_the_table_and_matches_whole_words(library):
    code, screen = in_pty(["--store", library, "search", "vision"], cols=80, env={"NO_COLOR": "1"})
    lines = screen.splitlines()
    assert code == 0 and lines[0].startswith("KEY") and all(cells(line) <= 80 for line in lines)
    found = [line.split()[0] for line in lines[1:-1]]
    assert "canvit2026" in found
    # no score column: the order is the explanation (title before notes before abstract)
    assert not re.search(r"\b\d+\.\d\b", screen)


def test_show_wraps_the_abstract_at_word_boundaries(library):
    code, screen = in_pty(["--store", library, "show", "canvit2026"], cols=60)
    assert code == 0
    lines = screen.splitlines()
    abstract = lines[lines.index("") + 1 :]
    assert len(abstract) > 3 and all(cells(line) <= 60 for line in abstract)
    shown = subprocess.run([console_script(), "--store", str(library), "show", "canvit2026", "--json"], capture_output=True, text=True).stdout
    words = set(json.loads(shown)["abstract"].split())
    text = " ".join(abstract)
    assert text.startswith("Active") and len(text.split()) > 50
    assert sum(w in words for w in text.split()) > 0.9 * len(text.split())  # whole words, not cut


def test_long_output_goes_through_the_pager(library, tmp_path):
    log = tmp_path / "paged.txt"
    pager = tmp_path / "pager.sh"
    pager.write_text(f'#!/bin/sh\necho "LESS=$LESS" > {log}\ncat >> {log}\n')
    pager.chmod(0o755)
    code, screen = in_pty(["--store", library, "list"], cols=80, rows=10, env={"PAGER": str(pager), "LESS": ""})
    assert code == 0
    paged = log.read_text(encoding="utf-8").splitlines()
    assert len(paged) == 1 + 1 + len(keys_of(library))  # LESS line, header, one line per paper
    log.unlink()
    in_pty(["--store", library, "list", "--limit", "3"], cols=80, rows=10, env={"PAGER": str(pager)})
    assert not log.exists()  # fits on the screen: no pager
    in_pty(["--store", library, "--no-pager", "list"], cols=80, rows=10, env={"PAGER": str(pager)})
    assert not log.exists()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_list_in_tmux_at_80_columns(library, tmp_path):
    """The screen as tmux draws it: nothing wraps, so every paper is exactly one screen row."""
    session = f"rl{os.getpid()}"
    done = tmp_path / "done"
    command = f"PAGER=cat {console_script()} --store {library} list --limit 20; touch {done}; sleep 30"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "40", command], check=True)
    try:
        for _ in range(200):
            if done.exists():
                break
            time.sleep(0.05)
        screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True, check=True).stdout
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    lines = [line for line in screen.splitlines() if line.strip()]
    assert lines[0].startswith("KEY") and lines[21] == "20 papers"
    assert [line.split()[0] for line in lines[1:21]] == keys_of(library)[:20]


def test_a_broken_edit_on_a_terminal_is_offered_again_in_the_editor(library, tmp_path):
    import shutil as sh

    store = tmp_path / "library"
    sh.copytree(library, store)
    calls = tmp_path / "calls"
    editor = tmp_path / "editor.sh"
    # first call: a broken file; second call: the person fixes it
    editor.write_text(
        f"#!/bin/sh\necho x >> {calls}\nif [ $(wc -l < {calls}) -eq 1 ]; then echo 'broken = [' >> \"$1\"; "
        f"else sed -i -e '/^broken = \\[/d' -e 's/^title = .*/title = \"Fixed at once\"/' \"$1\"; fi\n"
    )
    editor.chmod(0o755)
    code, screen = in_pty(["--store", store, "edit", "canvit2026"], cols=100, env={"VISUAL": str(editor)}, stdin_data=b"y\n")
    assert code == 0, screen
    assert "not valid TOML" in screen and "edit it again?" in screen and "canvit2026: saved" in screen
    assert calls.read_text().count("x") == 2
    assert 'title = "Fixed at once"' in (store / "papers" / "canvit2026.toml").read_text(encoding="utf-8")
