"""The store under stress: a writer killed mid-save, concurrent writers, broken files, the lock."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import tomllib

import pytest
from helpers import ROOT, unrelated_records

from readinglist.errors import StoreError
from readinglist.record import Record
from readinglist.store import paperfile as storefile
from readinglist.store.library import Store


def _records(n: int) -> list[Record]:
    return unrelated_records(n)


def _python(code: str, *args: str, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], env=env, **kw)


@pytest.fixture
def store(tmp_path) -> Store:
    s = Store.open(tmp_path / "library")
    assert len(s.import_records(_records(300)).added) == 300
    return s


WRITER = """
import sys
from readinglist.store.library import Store
s = Store.open(sys.argv[1])
keys = s.keys()
r = int(sys.argv[2])
while True:
    r += 1
    with s.transaction():
        for k in keys:
            s.set_note(k, f"round {r}")
    print(r, flush=True)
"""


def _kill_while_saving(store: Store, start: int) -> tuple[int, bool]:
    """Run a writer that rewrites all papers each round; SIGKILL it inside a save: when the
    first paper has been renamed into place while temporary files of others still wait
    (or, failing that within a few seconds, as soon as temporary files show up).
    Returns the last round it finished and whether temporary files were left behind."""
    writer = _python(WRITER, str(store.root), str(start), stdout=subprocess.PIPE, text=True)
    first = store.papers_dir / "p0000.toml"
    try:
        done = int(writer.stdout.readline())  # it is saving for real
        inode = first.stat().st_ino
        patient = time.monotonic() + 5
        deadline = time.monotonic() + 60
        while True:
            if any(n.endswith(".tmp") for n in os.listdir(store.papers_dir)):
                if first.stat().st_ino != inode or time.monotonic() > patient:
                    break
            assert time.monotonic() < deadline, "the writer never wrote"
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    out = writer.stdout.read().split()
    writer.stdout.close()
    return (int(out[-1]) if out else done), any(n.endswith(".tmp") for n in os.listdir(store.papers_dir))


def test_a_writer_killed_mid_save_leaves_every_file_old_or_new(store):
    rounds = 0
    for _attempt in range(5):
        rounds, left_temp_files = _kill_while_saving(store, rounds)
        notes = []
        for path in sorted(store.papers_dir.glob("*.toml")):
            text = path.read_text(encoding="utf-8")
            paper = storefile.parse(text, path)  # every file parses
            m = re.fullmatch(r"round (\d+)", paper.notes)
            assert m, (path, paper.notes)
            notes.append(int(m.group(1)))
        assert len(notes) == 300
        # each file is the old version (last finished round) or the new one (the round being
        # saved): two consecutive rounds at most. (The writer reports a round after saving it,
        # so a kill between the save and the report makes `rounds` lag by one: allowed.)
        low, high = min(notes), max(notes)
        assert rounds <= low and high - low <= 1 and high <= rounds + 2, (rounds, sorted(set(notes)))
        rounds = max(notes)
        if left_temp_files or len(set(notes)) == 2:
            break  # the kill landed inside a save: that is what this test is about
    else:
        pytest.fail("could not kill the writer while it was saving")
    # the store works on, and the killed writer's temporary files are cleared by the next writer
    fresh = Store.open(store.root)
    with fresh.transaction():
        assert len(fresh) == 300
        fresh.set_status("p0000", "read")
    assert not list(store.papers_dir.glob(".*.tmp"))
    assert Store.open(store.root).get("p0000").status == "read"


def test_twenty_concurrent_writers_lose_no_update(store):
    code = """
        import sys
        from readinglist.store.library import Store
        root, i = sys.argv[1], int(sys.argv[2])
        s = Store.open(root)
        s.set_status(f"p{i:04d}", "read")
        s.set_note(f"p{i:04d}", f"note from writer {i}")
        s.set_note("p0299", f"writer {i} was here", append=True)
    """
    writers = [_python(code, str(store.root), str(i)) for i in range(20)]
    assert [w.wait(timeout=120) for w in writers] == [0] * 20
    fresh = Store.open(store.root)
    for i in range(20):
        p = fresh.get(f"p{i:04d}")
        assert (p.status, p.notes) == ("read", f"note from writer {i}")
    # all 20 appended to the same paper: without the lock some appends would be lost
    shared = fresh.get("p0299").notes.split("\n\n")
    assert sorted(shared) == sorted(f"writer {i} was here" for i in range(20))
    assert len(fresh.find(status="read")) == 20


def test_a_file_that_does_not_parse_is_reported_and_never_overwritten(store):
    path = store.papers_dir / "p0007.toml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = 'title = "unterminated\n'  # a bad hand edit on line 5
    broken = "".join(lines).encode("utf-8")
    path.write_bytes(broken)
    for action in (
        lambda s: s.get("p0007"),
        lambda s: s.set_status("p0007", "read"),
        lambda s: s.set_note("p0007", "x"),
        lambda s: s.import_records(_records(1)),
    ):
        with pytest.raises(StoreError) as err:
            action(Store.open(store.root))
        message = str(err.value)
        assert re.search(rf"{re.escape(str(path))}:5:\d+: not valid TOML", message), message
        assert "\n" not in message
        assert path.read_bytes() == broken
    # reading skips it and reports it (file:line:col) in .broken: one bad file blocks no list
    reader = Store.open(store.root)
    assert "p0007" not in {p.key for p in reader.find()} and len(reader.find()) == len(list(reader))
    (message,) = reader.broken
    assert re.search(rf"{re.escape(str(path))}:5:\d+: not valid TOML", message), message
    assert path.read_bytes() == broken
    # other papers can still be marked (their files do not need the broken one)
    assert Store.open(store.root).set_status("p0008", "read").status == "read"


def test_bad_values_and_bad_bytes_name_file_and_line(store):
    path = store.papers_dir / "p0003.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('status = "unread"', 'status = "done"'), encoding="utf-8")
    line = text.splitlines().index('status = "unread"') + 1
    with pytest.raises(StoreError, match=rf"p0003.toml:{line}:\d+: \[state\] status must be one of unread"):
        Store.open(store.root).get("p0003")
    path.write_bytes(text.encode("utf-8").replace(b"Paper 3", b"Paper \xff3"))
    with pytest.raises(StoreError, match=r"p0003.toml:\d+:\d+: not UTF-8"):
        Store.open(store.root).set_status("p0003", "read")


def test_a_held_lock_makes_writers_wait_then_give_up_clearly(store):
    """Another process holds the lock until told to let go (a line on its stdin): an impatient
    writer gives up with a clear error and changes nothing; a patient one waits, then writes."""
    import threading

    holder = _python(
        """
        import sys
        from filelock import FileLock
        with FileLock(sys.argv[1]):
            print("locked", flush=True)
            sys.stdin.readline()
        """,
        str(store.lock_path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        impatient = Store.open(store.root, lock_timeout=0.3)
        before = (store.papers_dir / "p0001.toml").read_bytes()
        with pytest.raises(StoreError, match="locked by another readinglist process"):
            impatient.set_status("p0001", "read")
        assert (store.papers_dir / "p0001.toml").read_bytes() == before
        assert impatient.get("p0001").status == "unread"  # reading needs no lock
        patient = Store.open(store.root, lock_timeout=30)
        results: list = []
        writer = threading.Thread(target=lambda: results.append(patient.set_status("p0001", "read")))
        writer.start()
        writer.join(0.5)
        assert writer.is_alive() and not results  # waiting for the holder
        holder.stdin.write("release\n")
        holder.stdin.flush()
        writer.join(30)
        assert [p.status for p in results] == ["read"]
    finally:
        holder.kill()
        holder.wait()


def test_writes_are_atomic_replacements(store, monkeypatch):
    """A failure while writing (disk full, ...) leaves the old file and no temporary file."""
    path = store.papers_dir / "p0002.toml"
    before = path.read_bytes()
    real_replace = os.replace

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(StoreError, match="cannot write the store: No space left on device"):
        store.set_status("p0002", "read")
    monkeypatch.setattr(os, "replace", real_replace)
    assert path.read_bytes() == before
    assert not list(store.papers_dir.glob(".*.tmp"))
    assert tomllib.loads(path.read_text(encoding="utf-8"))["state"]["status"] == "unread"
