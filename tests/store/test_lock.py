"""The store's writers' lock (store/lock.py): one holder at a time, a timeout that gives up, and
the same lock filelock takes (older readinglist processes and other tools wait for it too)."""

from __future__ import annotations

import threading
import time

import pytest

from readinglist.store.lock import StoreLock, Timeout


def test_one_holder_at_a_time(tmp_path):
    path = str(tmp_path / ".lock")
    first = StoreLock(path, timeout=0)
    first.acquire()
    second = StoreLock(path, timeout=0.2)
    started = time.monotonic()
    with pytest.raises(Timeout):
        second.acquire()
    assert time.monotonic() - started >= 0.2
    first.release()
    second.acquire()  # free again
    second.release()


def test_a_waiting_writer_gets_the_lock_when_it_is_let_go(tmp_path):
    path = str(tmp_path / ".lock")
    holder = StoreLock(path, timeout=0)
    holder.acquire()
    waiter = StoreLock(path, timeout=-1)  # as long as it takes
    got = threading.Event()
    thread = threading.Thread(target=lambda: (waiter.acquire(), got.set()))
    thread.start()
    assert not got.wait(0.3)
    holder.release()
    assert got.wait(10)
    thread.join()
    waiter.release()


def test_filelock_and_the_store_lock_exclude_each_other(tmp_path):
    filelock = pytest.importorskip("filelock")
    path = str(tmp_path / ".lock")
    with filelock.FileLock(path):
        with pytest.raises(Timeout):
            StoreLock(path, timeout=0.1).acquire()
    mine = StoreLock(path, timeout=0)
    mine.acquire()
    with pytest.raises(filelock.Timeout):
        filelock.FileLock(path, timeout=0.1).acquire()
    mine.release()
