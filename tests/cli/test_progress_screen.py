"""What a terminal shows (issue 27 item 2, 3), read back from a real terminal (tmux capture-pane):
one progress bar over the whole import, whose total is the number of abstracts really generated
(none on a re-import), with a sane rate; a status line while a fresh clone's cache is made;
Ctrl-C as one line. Piped, none of it: no progress, no control sequences."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from helpers import ABSTRACTS, console_script, unrelated_records

from readinglist.store import Store

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


class Terminal:
    """A command in a tmux window of its own server (80x24), its screen read as it runs."""

    def __init__(self, command: str, cwd: Path) -> None:
        self.socket = f"rl-{uuid.uuid4().hex[:8]}"
        env = f"cd {shlex.quote(str(cwd))} && PATH={shlex.quote(os.path.dirname(console_script()))}:$PATH"
        script = f"{env} && {command}; echo EXIT=$?; sleep 600"
        subprocess.run(["tmux", "-L", self.socket, "new-session", "-d", "-x", "80", "-y", "24", script], check=True)

    def screen(self) -> str:
        """The screen, a line wrapped at the edge read as one line."""
        return subprocess.run(["tmux", "-L", self.socket, "capture-pane", "-p", "-J"], capture_output=True, text=True).stdout

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "-L", self.socket, "send-keys", *keys], check=True)

    def screens_until_exit(self, timeout: float = 300, watch=None) -> tuple[list[str], int]:
        """Every distinct screen until the command ended (``watch(screen)`` called on each),
        and its exit status."""
        seen: list[str] = []
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if not seen or seen[-1] != screen:
                seen.append(screen)
                if watch is not None:
                    watch(screen)
            m = re.search(r"EXIT=(\d+)", screen)
            if m:
                return seen, int(m[1])
            time.sleep(0.03)
        raise AssertionError("the command did not end:\n" + seen[-1])

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def _list(abstracts: list[str]) -> str:
    return "NeurIPS 2026\n\n" + "\n\n".join(abstracts) + "\n"


_COUNT = re.compile(r"[━╸╺]\s+(\d+)/(\d+)")  # the count after the bar (the label may hold "1/2 a.txt")


def _bars(screen: str) -> list[str]:
    return [line for line in screen.splitlines() if _COUNT.search(line)]


def test_one_bar_over_the_whole_import_counts_what_is_generated_and_a_reimport_counts_nothing(tmp_path):
    half = len(ABSTRACTS) // 2
    (tmp_path / "a.txt").write_text(_list(ABSTRACTS[:half]), encoding="utf-8")
    (tmp_path / "b.txt").write_text(_list(ABSTRACTS[half:] + ABSTRACTS[:2]), encoding="utf-8")  # two repeated
    term = Terminal("readinglist --store st import a.txt b.txt", tmp_path)
    try:
        screens, code = term.screens_until_exit()
    finally:
        term.close()
    assert code == 0
    bars = [bar for screen in screens for bar in _bars(screen)]
    assert bars, "no progress bar was seen:\n" + "\n---\n".join(screens)
    assert all(len(_bars(screen)) <= 1 for screen in screens)  # one bar, never one per file
    totals = {int(m[2]) for bar in bars for m in [_COUNT.search(bar)] if m}
    assert totals <= {len(ABSTRACTS)}  # the abstracts generated: the second list's repeats are not
    for bar in bars:
        rate = re.search(r"([\d,.]+) abstracts/s", bar)
        assert rate is None or float(rate[1].replace(",", "")) < 2000, bar  # (a burst read as a rate)
    final = screens[-1]
    assert f"{len(ABSTRACTS)} added" in final and not _bars(final)
    term = Terminal("readinglist --store st import a.txt b.txt", tmp_path)  # nothing to generate
    try:
        screens, code = term.screens_until_exit()
    finally:
        term.close()
    assert code == 0 and f"{len(ABSTRACTS)} unchanged" in screens[-1]
    assert not any(_bars(screen) for screen in screens)


def test_ctrl_c_on_a_terminal_shows_one_line(tmp_path):
    import random

    rng = random.Random(3)
    abstracts = [" ".join(rng.sample(ABSTRACTS, 2)) + f" We call it Screen{i}Net." for i in range(400)]
    (tmp_path / "l.txt").write_text(_list(abstracts), encoding="utf-8")
    term = Terminal("readinglist --store st import l.txt", tmp_path)
    pressed = []

    def press_once_counting(screen: str) -> None:
        if not pressed and any(int(m[1]) > 0 for bar in _bars(screen) for m in [_COUNT.search(bar)] if m):
            term.keys("C-c")
            pressed.append(screen)

    try:
        screens, code = term.screens_until_exit(watch=press_once_counting)
    finally:
        term.close()
    assert pressed and code == 130
    lines = [line for line in screens[-1].splitlines() if line.strip() and not line.startswith("EXIT=")]
    assert len(lines) == 1 and lines[0].startswith("readinglist: interrupted: nothing was imported (the store is as it was)"), screens[-1]


def test_piped_output_has_no_progress(tmp_path):
    (tmp_path / "l.txt").write_text(_list(ABSTRACTS[:6]), encoding="utf-8")
    out = subprocess.run([console_script(), "--store", "st", "import", "l.txt"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0
    assert out.stderr == "" and out.stdout.strip().splitlines() == ["6 added, 0 updated, 0 unchanged, 0 duplicates, 0 skipped paragraphs in st"]


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """A store of 3,000 papers as a fresh clone has it: no .cache."""
    root = tmp_path_factory.mktemp("clone") / "st"
    Store.open(root, create=True, clock=lambda: "2026-11-30T06:15:00Z").import_records(unrelated_records(3000, year=2026))
    return root


def test_the_first_command_of_a_fresh_clone_says_that_it_is_indexing_and_piped_says_nothing(tmp_path, clone):
    shutil.rmtree(clone / ".cache", ignore_errors=True)
    term = Terminal(f"readinglist --store {shlex.quote(str(clone))} --no-pager stats > /dev/null", tmp_path)
    try:
        screens, code = term.screens_until_exit()
    finally:
        term.close()
    assert code == 0
    assert any("indexing the 3,000 papers of this store" in screen for screen in screens), "\n---\n".join(screens)
    assert "indexing" not in screens[-1]  # erased once done
    shutil.rmtree(clone / ".cache")
    out = subprocess.run([console_script(), "--store", str(clone), "stats"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0 and out.stderr == "" and "\x1b" not in out.stdout

