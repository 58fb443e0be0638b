"""A large transaction writes its files to temporary files as it goes (store/transaction.py: SPILL_AFTER) and
renames them all at the end: same files, nothing half-written, nothing left on failure."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest
from helpers import ROOT, unrelated_records

from readinglist.errors import ValidationError
from readinglist.record import Record
from readinglist.store import cache, transaction
from readinglist.store import paperfile
from readinglist.store.library import Store


def _records(n: int, start: int = 0) -> list[Record]:
    return unrelated_records(n, start, year=2026)


def _temp_files(store: Store) -> list[str]:
    return [n for n in os.listdir(store.papers_dir) if n.startswith(".") and n.endswith(".tmp")]


@pytest.fixture
def small_batches(monkeypatch):
    monkeypatch.setattr(transaction, "SPILL_AFTER", 5)


def test_staged_files_wait_in_temporary_files_until_the_transaction_ends(tmp_path, small_batches):
    store = Store.open(tmp_path / "s", clock=lambda: "2026-01-01T00:00:00Z")
    with store.transaction():
        summary = store.import_records(_records(40))
        assert len(_temp_files(store)) >= 35  # written already, renamed at the end
        assert not list(store.papers_dir.glob("*.toml"))
        store.set_status("p0003", "reading")  # a staged paper read back and changed
    assert not _temp_files(store)
    assert len(summary.added) == 40
    for paper in Store.open(tmp_path / "s"):
        path = store.papers_dir / f"{paper.key}.toml"
        assert path.read_text(encoding="utf-8") == paperfile.render(paper)
    assert Store.open(tmp_path / "s").get("p0003").status == "reading"


def test_a_failed_import_after_staging_writes_nothing_and_leaves_no_temporary_file(tmp_path, small_batches):
    store = Store.open(tmp_path / "s")
    store.import_records(_records(3))
    before = {p.name: p.read_bytes() for p in store.papers_dir.glob("*.toml")}
    records = _records(30, start=10)
    states = {"p0035": {"status": "not-a-status"}}  # refused at the 26th record, after staging
    with pytest.raises(ValidationError):
        store.import_records(records, states=states)
    assert {p.name: p.read_bytes() for p in store.papers_dir.glob("*.toml")} == before
    assert not _temp_files(store)
    assert len(Store.open(tmp_path / "s")) == 3


def test_staging_gives_the_same_files_as_writing_at_the_end(tmp_path, monkeypatch):
    records = _records(25)
    clock = lambda: "2026-01-01T00:00:00Z"  # noqa: E731
    Store.open(tmp_path / "a", clock=clock).import_records(records)
    monkeypatch.setattr(transaction, "SPILL_AFTER", 2)
    Store.open(tmp_path / "b", clock=clock).import_records(records)
    files = lambda root: {p.name: p.read_bytes() for p in (root / "papers").glob("*.toml")}  # noqa: E731
    assert files(tmp_path / "a") == files(tmp_path / "b") and len(files(tmp_path / "a")) == 25


KILLED_IMPORT = """
import sys
from readinglist.record import Record
from readinglist.store import cache, transaction
from readinglist.store.library import Store
transaction.SPILL_AFTER = 10
def word(n):
    letters = ""
    while True:
        n, r = divmod(n, 26)
        letters += "abcdefghijklmnopqrstuvwxyz"[r]
        if not n:
            return letters + "ix"
records = [Record(key=f"k{i:05d}", title=f"T{i}", abstract=" ".join(word(30 * i + j) for j in range(30)), year=2026) for i in range(3000)]
print("start", flush=True)
Store.open(sys.argv[1]).import_records(records)
print("done", flush=True)
"""


def test_an_import_killed_while_staging_leaves_whole_files_and_its_temporary_files_are_cleared(tmp_path):
    root = tmp_path / "s"
    Store.open(root).import_records(_records(2))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(KILLED_IMPORT), str(root)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "start"
        deadline = time.monotonic() + 60
        while sum(n.endswith(".tmp") for n in os.listdir(root / "papers")) < 600:  # past the first batch
            assert proc.poll() is None and time.monotonic() < deadline, "the import never staged a file"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
    for path in (root / "papers").glob("*.toml"):
        paperfile.parse(path.read_text(encoding="utf-8"), path)  # every file whole
    db = sqlite3.connect(root / ".cache" / cache.CACHE_NAME)  # the rows of its batches were never committed
    try:
        assert db.execute("SELECT count(*) FROM papers").fetchone()[0] == 2
    finally:
        db.close()
    store = Store.open(root)
    store.import_records([])  # the next writer clears what the killed one left
    assert not _temp_files(store)
    assert {"p0000", "p0001"} <= set(store.keys())
