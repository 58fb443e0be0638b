"""The cache brought up to date with the paper files (:func:`sync`): the stat pass compared,
the changed files parsed again and written back part by part, the removed ones dropped.
"""

from __future__ import annotations


import itertools
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from ...errors import StoreError
from ...gc_pause import gc_paused

from . import bulk, database, files

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    pass


class Synced:
    """The cache brought up to date with the paper files (see :func:`sync`)."""

    __slots__ = ("db", "broken", "temp_files")

    def __init__(self, db: sqlite3.Connection, broken: dict[str, str] | None = None, temp_files: list[str] | None = None) -> None:
        self.db = db
        self.broken: dict[str, str] = {} if broken is None else broken
        self.temp_files: list[str] = [] if temp_files is None else temp_files

    def close(self) -> None:
        self.db.close()


def sync(cache_dir: Path, papers_dir: Path, *, wait: float = database.READER_WAIT_SECONDS, processes: int = 1) -> Synced:
    """The cache, brought up to date: every paper file stat'ed, the ones whose signature
    changed parsed again and written back, the removed ones dropped. Files that do not parse
    are left out (and named in ``broken``). StoreError when two files claim one key.

    Where the cache cannot be written (a read-only store, ``.cache`` a link) the rows live in
    memory for this process."""
    with gc_paused():
        db = database.connect(cache_dir, wait=wait) or database.memory_db()
        try:
            scan = files.Scan(papers_dir, processes=processes, listing=database.remembered_listing(db))
        except BaseException:
            db.close()
            raise
        try:
            broken: dict[str, str] = {}
            try:
                if scan.digest() != database.meta(db, "digest"):
                    sigs = scan.sigs()
                    stored = database.stored_sigs(db)
                    if sigs != stored:
                        update_rows(db, papers_dir, sigs, stored, scan.scan_ns, broken, processes)
                if scan.listing is not None:
                    database.remember_listing(db, scan.listing)
            except sqlite3.Error:  # the file went bad meanwhile: this process's own copy
                db.close()
                db = database.memory_db()
                update_rows(db, papers_dir, scan.sigs(), {}, scan.scan_ns, broken, processes)
            except BaseException:
                db.close()
                raise
        finally:
            scan.close()
        return Synced(db, broken, scan.temp)


def update_rows(db: sqlite3.Connection, papers_dir: Path, sigs: dict, stored: dict, scan_ns: int, broken: dict, processes: int = 1) -> None:
    changed = sorted(name for name, sig in sigs.items() if stored.get(name, False) != sig)
    gone: set[str] = set(stored.keys() - sigs.keys())
    parts = bulk.parsed_parts(papers_dir, changed, files.odd(sigs, changed), broken, processes)
    try:
        for chunks in parts:  # written part by part, each in its own transaction
            write_part(db, papers_dir, sigs, stored, scan_ns, chunks, gone)
            gone = set()
    finally:
        parts.close()  # (collects any worker still running when a part failed)
    database.use_wal(db)


def write_part(db: sqlite3.Connection, papers_dir: Path, sigs: dict, stored: dict, scan_ns: int, chunks: Iterable[tuple[dict, list[str]]], gone: Iterable[str]) -> None:
    """One transaction: the rows of each chunk's parsed files (name -> :func:`bundle_row`),
    written as the chunks come, and their files' signatures, those of ``gone`` and of each
    chunk's lost files removed. The stored signatures always name exactly the files whose rows
    the cache holds, so a process stopped between two parts leaves a cache that simply has the
    other part's files to read again."""
    limit = scan_ns - files.RACY_NS
    db.execute("BEGIN IMMEDIATE")
    try:
        latest = database.stored_sigs(db)  # another process may have written meanwhile: keep its work
        had = latest.keys() | stored.keys()
        keys: dict[str, str] = {}  # name -> key of every file written
        for parsed, lost in itertools.chain([({}, list(gone))], chunks):
            for name in lost:
                latest.pop(name, None)
            for name, b in parsed.items():
                s = sigs[name]
                latest[name] = s if s[2] < limit and s[3] < limit else None
                keys[name] = b[0][1]
            database.put_rows(db, list(parsed.items()), lost, had)
        check_keys(db, papers_dir, keys)
        database.put_sigs(db, latest)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def check_keys(db: sqlite3.Connection, papers_dir: Path, keys: dict[str, str]) -> None:
    """StoreError if a paper just written (``keys``: file name -> key) shares its key with another file's."""
    clash = None
    if len(keys) > 1000:  # one pass over the key index beats a look-up for each
        clash = db.execute(
            "SELECT a.name, b.name, a.key FROM papers a JOIN papers b ON b.key = a.key AND a.name < b.name ORDER BY b.name LIMIT 1"
        ).fetchone()
    else:
        find = "SELECT name FROM papers WHERE key = ? AND name != ? LIMIT 1"
        for name, key in keys.items():
            other = db.execute(find, (key, name)).fetchone()
            if other is not None:
                clash = (*sorted((other[0], name)), key)
                break
    if clash is not None:
        first, second, key = clash
        raise StoreError(f"{papers_dir / first} and {papers_dir / second} both have key {key!r}; change the key in one of them")
