"""Interrupted commands (issue 27 item 3, issue 29 item 4): the real CLI as a subprocess in a
process group of its own, signalled once it is visibly at work (its workers forked, its temporary
file written), never after a fixed sleep. Whatever the signal: one line saying what was kept,
the shell's exit status (130 for Ctrl-C, 143 for SIGTERM), no traceback from any process, no
process of the group left (the workers and forked children die with the command, even one killed
by SIGKILL), no temporary file left or, after a SIGKILL, none left once the next command ran; the
store and the output file either as they were or complete."""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ABSTRACTS, console_script, unrelated_records

from readinglist.store import Store
from readinglist.store.genmemo import NAME

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _group(pgid: int) -> list[int]:
    """The live (not zombie) processes of the process group ``pgid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry))
    return found


def _wait_for(what, timeout: float = 120.0, step: float = 0.01):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = what()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"gave up waiting for {what.__doc__ or what}")


def _start(args: list[str], cwd: Path, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [console_script(), *args], cwd=cwd, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,  # (its own group: what a terminal's Ctrl-C reaches)
    )  # fmt: skip


def _ended(proc: subprocess.Popen) -> tuple[int, str]:
    _, err = proc.communicate(timeout=120)
    assert not _wait_for_gone(proc.pid), "a process of the command outlived it"
    return proc.returncode, err


def _wait_for_gone(pgid: int) -> list[int]:
    end = time.monotonic() + 10
    while _group(pgid) and time.monotonic() < end:
        time.sleep(0.05)
    return _group(pgid)


def _temp_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*.tmp")]


def _files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "papers").glob("*.toml")}


def _big_list(n: int) -> str:
    """``n`` distinct abstracts made of the seeds' sentences (enough for generation workers)."""
    sentences = [s for a in ABSTRACTS for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", a) if len(s) > 30]
    rng = random.Random(29)
    paragraphs = [" ".join(rng.sample(sentences, 6)) + f" We call it Variant{i}Net." for i in range(n)]
    return "NeurIPS 2026\n\n" + "\n\n".join(paragraphs) + "\n"


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err and "Process " not in err
    return lines[0]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the CLI forks generation workers on 2 cores or more")
def test_ctrl_c_during_an_import_stops_the_workers_keeps_the_store_and_what_was_generated(tmp_path):
    store = tmp_path / "st"
    (tmp_path / "small.txt").write_text("NeurIPS 2026\n\n" + "\n\n".join(ABSTRACTS[:3]) + "\n", encoding="utf-8")
    assert subprocess.run([console_script(), "--store", "st", "import", "small.txt"], cwd=tmp_path, capture_output=True).returncode == 0
    before = _files(store)
    (tmp_path / "big.txt").write_text(_big_list(1500), encoding="utf-8")
    proc = _start(["--store", "st", "import", "big.txt"], tmp_path)

    def generating() -> bool:
        """the workers forked and a first batch of fields written to the memo"""
        if len(_group(proc.pid)) < 3:
            return False
        try:
            with sqlite3.connect(store / ".cache" / NAME) as db:
                return db.execute("SELECT count(*) FROM generated").fetchone()[0] >= 200
        except sqlite3.Error:
            return False

    _wait_for(generating, step=0.1)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: to every process of the foreground group
    code, err = _ended(proc)
    line = _one_line(err)
    assert code == 130
    kept = re.fullmatch(r"readinglist: interrupted: nothing was imported \(the store is as it was\); ([\d,]+) generated abstracts are kept for the next import", line)
    assert kept, line
    with sqlite3.connect(store / ".cache" / NAME) as db:
        assert db.execute("SELECT count(*) FROM generated").fetchone()[0] == 3 + int(kept[1].replace(",", ""))  # (+ small.txt's)
    assert _files(store) == before and not _temp_files(store)


def _slow_exports(folder: Path) -> dict:
    """An environment whose CLI renders exports slowly (50 ms more per piece of 500 papers): a
    window to signal it while it writes. Everything else is the real CLI."""
    (folder / "sitecustomize.py").write_text(
        "import time\n"
        "from readinglist.formats import exporting\n"
        "_real = exporting.rendered\n"
        "def _slow(count, size, render, **options):\n"
        "    return _real(count, size, lambda a, b: time.sleep(0.05) or render(a, b), **options)\n"
        "exporting.rendered = _slow\n",
        encoding="utf-8",
    )
    return {"PYTHONPATH": os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])}


@pytest.fixture(scope="module")
def big_store(tmp_path_factory) -> Path:
    """A store large enough for an export to fork a child for its second half."""
    from readinglist.formats.exporting import FORK_MIN_PAPERS

    root = tmp_path_factory.mktemp("big") / "st"
    Store.open(root, create=True, clock=lambda: "2026-11-30T06:15:00Z").import_records(unrelated_records(FORK_MIN_PAPERS + 1000, year=2026))
    return root


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=["TERM", "INT", "KILL"])
def test_a_signal_during_an_export_leaves_the_old_file_and_no_child_nor_temporary_file(tmp_path, big_store, sig):
    out = tmp_path / "refs.bib"
    out.write_text("% the old export\n", encoding="utf-8")
    env = _slow_exports(tmp_path)
    proc = _start(["--store", str(big_store), "export", "-f", "bibtex", "-o", str(out)], tmp_path, env)

    def writing() -> bool:
        """the export's temporary file written and its child forked"""
        return bool(list(tmp_path.glob(".refs.bib.*.tmp"))) and len(_group(proc.pid)) >= 2

    _wait_for(writing)
    os.kill(proc.pid, sig)  # the command only (as a service manager or `kill PID` does)
    code, err = _ended(proc)  # (its forked child gone too)
    assert out.read_text(encoding="utf-8") == "% the old export\n"
    if sig == signal.SIGKILL:  # nothing can clean up after SIGKILL: the next export does
        assert code == -signal.SIGKILL and list(tmp_path.glob(".refs.bib.*.tmp"))
        again = subprocess.run([console_script(), "--store", str(big_store), "export", "-f", "bibtex", "-o", str(out)], cwd=tmp_path, capture_output=True, text=True)
        assert again.returncode == 0, again.stderr
        assert out.read_text(encoding="utf-8").count("@inproceedings{") == len(list((big_store / "papers").glob("*.toml")))
    else:
        line = _one_line(err)
        assert code == 128 + sig
        assert line == f"readinglist: {'interrupted' if sig == signal.SIGINT else 'stopped by SIGTERM'}: nothing was exported ({out} is as it was)"
    assert not _temp_files(tmp_path)


def test_temporary_files_of_killed_writers_are_reclaimed_by_the_next_command_and_live_ones_kept(tmp_path):
    """A list edit or an export killed mid-write (SIGKILL: nothing runs) leaves
    ``.<name>.<pid>-<random>.tmp``; the next write of that folder removes those of dead
    processes, never one a live writer may be writing."""
    store = tmp_path / "st"
    (tmp_path / "l.txt").write_text("NeurIPS 2026\n\n" + "\n\n".join(ABSTRACTS[:2]) + "\n", encoding="utf-8")
    run = lambda *a: subprocess.run([console_script(), "--store", "st", *a], cwd=tmp_path, capture_output=True, text=True)  # noqa: E731
    assert run("import", "l.txt").returncode == 0
    assert run("lists", "new", "mine").returncode == 0
    dead = _dead_pid()
    lists = store / "lists"
    stale = lists / f".mine.toml.{dead}-0a1b2c.tmp"
    live = lists / f".mine.toml.{os.getpid()}-0a1b2c.tmp"  # (this test process: alive)
    for path in (stale, live):
        path.write_text("half a list", encoding="utf-8")
    key = next((store / "papers").glob("*.toml")).stem
    added = run("lists", "add", "mine", key)
    assert added.returncode == 0, added.stderr
    assert not stale.exists() and live.exists()
    out = tmp_path / "out.md"
    stale_out = tmp_path / f".out.md.{dead}-00ff00.tmp"
    stale_out.write_text("half an export", encoding="utf-8")
    assert run("export", "-o", str(out)).returncode == 0
    assert not stale_out.exists() and out.read_text(encoding="utf-8").strip()


def _dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid
