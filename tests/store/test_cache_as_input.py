"""The cache as input (issue 29, item 6): the cache is derived data, so one readinglist cannot
use (tables of another schema under the same identity, another version's, garbage, damaged
pages) is rebuilt or bypassed and the command answers as with a fresh cache; a reader never
waits long on a lock it does not need (another process holding a write transaction)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest

from helpers import unrelated_records
from readinglist.store import Store
from readinglist.store.cache import CACHE_NAME

#: the commands checked, each compared with its output on a fresh cache
COMMANDS = [["list"], ["list", "--tag", "llm"], ["list", "--json", "--sort", "title"], ["search", "paper"], ["next"], ["stats"]]


def rl(store, *args, timeout=60):
    return subprocess.run([sys.executable, "-m", "readinglist", "--store", str(store), *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A store of 200 papers (every 3rd tagged llm) and each command's output on a fresh cache."""
    root = tmp_path_factory.mktemp("cache-input") / "lib"
    store = Store.open(root)
    records = unrelated_records(200, year=2021)
    store.import_records(records)
    for i, r in enumerate(records):
        if i % 3 == 0:
            store.add_tags(r.key, ["llm"])
    outputs = {}
    for args in COMMANDS:
        proc = rl(root, *args)
        assert proc.returncode == 0, proc.stderr
        outputs[tuple(args)] = proc.stdout
    return root, outputs


@pytest.fixture
def copy(reference, tmp_path):
    root, outputs = reference
    shutil.copytree(root, tmp_path / "lib")
    assert (tmp_path / "lib" / ".cache" / CACHE_NAME).is_file()
    return tmp_path / "lib", outputs


def _answers_as_fresh(store, outputs, *, within: float = 10.0):
    for args, expected in outputs.items():
        start = time.monotonic()
        proc = rl(store, *args)
        took = time.monotonic() - start
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) <= 1, proc.stderr  # at most a warning
        assert proc.stdout == expected, args
        assert took < within, (args, took)


def _alter(path, *statements):
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    "statements",
    [
        ["ALTER TABLE papers RENAME COLUMN line TO line_v5"],  # an older readinglist's column
        ["ALTER TABLE papers ADD COLUMN newer TEXT"],  # a newer one's
        ["DROP TABLE tags", "CREATE TABLE tags (tag TEXT, name TEXT)"],
        ["DROP INDEX papers_key"],
        ["DROP TABLE texts"],
        ["UPDATE meta SET v = x'00' WHERE k = 'identity'"],  # another version's identity
        ["UPDATE meta SET v = x'00' WHERE k = 'sigs'"],  # its stored signatures garbage
        ["DELETE FROM meta"],
    ],
    ids=lambda s: s[0][:40],
)
def test_a_cache_of_another_schema_is_rebuilt(copy, statements):
    store, outputs = copy
    _alter(store / ".cache" / CACHE_NAME, *statements)
    _answers_as_fresh(store, outputs)


@pytest.mark.parametrize("damage", ["garbage", "empty", "truncated", "pages"])
def test_a_garbage_or_damaged_cache_is_rebuilt(copy, damage):
    store, outputs = copy
    path = store / ".cache" / CACHE_NAME
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 3])
    else:  # a valid header, every page after the first two overwritten in part
        out = bytearray(data)
        for offset in range(8192, len(out), 4096):
            out[offset + 100 : offset + 900] = os.urandom(800)
        path.write_bytes(bytes(out))
    _answers_as_fresh(store, outputs)


HOLDER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "delete":
    db.execute("PRAGMA journal_mode=DELETE")
db.execute("BEGIN EXCLUSIVE")
db.execute("INSERT OR REPLACE INTO meta VALUES ('held', 1)")
print("held", flush=True)
time.sleep(120)
"""


@pytest.mark.parametrize("journal", ["wal", "delete"])
@pytest.mark.parametrize("changed", [False, True], ids=["unchanged", "a-file-changed"])
def test_a_cache_locked_by_another_process_does_not_hold_a_reader(copy, journal, changed):
    store, outputs = copy
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(store / ".cache" / CACHE_NAME), journal], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        if changed:  # the reader must bring the cache up to date: a write it cannot make
            paper = next((store / "papers").glob("*.toml"))
            os.utime(paper, ns=(time.time_ns(), time.time_ns()))
        _answers_as_fresh(store, outputs, within=8.0)
        start = time.monotonic()
        proc = rl(store, "mark", "read", "p0001")
        assert proc.returncode == 0 and time.monotonic() - start < 8.0, proc.stderr
    finally:
        holder.kill()
        holder.wait()
    assert Store.open(store).get("p0001").status == "read"
