"""Importing records into a store batch by batch, without loading the store's papers.

:meth:`Store.importing <readinglist.store.library.Store.importing>` opens an :class:`Importer`
inside one transaction; :meth:`Importer.add` takes a batch of records at a time (the CLI's import
hands over each batch of abstracts as it is generated), and everything is written when the
transaction ends: a failure anywhere leaves the store as it was.

What an import needs of the store it asks the cache (:mod:`readinglist.store.cache`, brought up
to date with the paper files first) instead of loading every paper: the keys in use (one
column), the paper a key names (an indexed look-up), the paper an incoming record matches (one
row), and the store's abstracts through the duplicate index kept in the cache
(:mod:`readinglist.store.dupindex`), which reads an abstract only to verify a candidate. Each
batch's papers go to the cache's database inside a transaction of its own that is committed
once the files are in place (a killed import leaves the cache as it was), and the duplicate
index folds each batch into compact postings, so memory stays flat however many papers come.
"""

from __future__ import annotations

import marshal
import os
import sqlite3
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import StoreError, ValidationError
from ..record import Duplicate, Paper, Record, Source
from .merge import merge_record

if TYPE_CHECKING:
    from .library import Store

#: Records handled between two writes of the cache's rows (and folds of the duplicate index).
BATCH = 512
#: From this many files written, the import waits out the cache's racy window (0.1 s) before it
#: takes their signatures, so the next command trusts them instead of parsing them again.
SETTLE_MIN_FILES = 256


@dataclass(frozen=True)
class ImportSummary:
    """What :meth:`Store.import_records` did.

    ``duplicates`` holds incoming records that matched an existing paper by a near-duplicate
    abstract or under another key (a record simply imported again is in ``updated`` or
    ``unchanged`` only); ``renamed`` holds ``(wanted, given)`` for new papers whose key was taken.
    """

    added: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    duplicates: tuple[Duplicate, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    #: ``(key, n)``: papers whose imported text held ``n`` control characters (removed)
    controls: tuple[tuple[str, int], ...] = ()
    #: ``(wanted, given)`` for incoming keys that are not valid citation keys (a space, a ``/``,
    #: non-ASCII, ...: see :func:`readinglist.convert.keys.key_problem`) and were made valid.
    rekeyed: tuple[tuple[str, str], ...] = ()


class Importer:
    """Adds records to a store batch by batch (use :meth:`Store.importing`)."""

    def __init__(self, store: Store) -> None:
        from . import cache
        from ..convert.keys import FoldedKeys
        from .dupindex import StoredNearIndex

        self.store = store
        self.threshold = store.config.duplicate_threshold
        self.now = store._now()
        self.ended = False  # committed or given up
        # the cache, up to date with the files; inside a transaction that already changed files,
        # a throwaway one made from the store's index (which holds those changes)
        self.persist = not store._pending
        if self.persist:
            synced = cache.sync(store.cache_dir, store.papers_dir, wait=cache.WRITER_WAIT_SECONDS, processes=store.processes)
            db = synced.db
            try:
                if synced.broken:  # an import needs every paper: it refuses
                    raise StoreError(next(iter(synced.broken.values())) + "; fix or remove this file first")
                store._broken = synced.broken
                if synced.temp_files:
                    store._remove_temp_files(synced.temp_files)
                db.execute("BEGIN IMMEDIATE")  # until the files are written (see commit)
                sigs = cache.stored_sigs(db)
            except BaseException:
                db.close()
                raise
        else:
            index = store._load_index(save=False)
            db = cache.memory_db()
            cache.write_rows(db, [(n, cache.bundle(n, p)) for n, p in index.papers.items()], (), {}, ())
            db.execute("BEGIN")
            sigs = dict(index.sigs)
        self.db: sqlite3.Connection = db
        self.sigs = sigs  # every paper file's signature as the cache knows it (None: not trusted)
        self.taken = FoldedKeys(k for (k,) in db.execute("SELECT key FROM papers"))  # Smith2020 = smith2020
        self.names = store._listed_names()
        self.near = StoredNearIndex.open_lazy(store.cache_dir, sigs, self._abstract)
        self.rows: dict[str, Paper] = {}  # papers saved since the last batch was written
        self.written: set[str] = set()  # files whose rows were written in this import
        self.new_keys: dict[str, str] = {}  # key -> file name, of this batch's new papers
        # records without abstract are found by DOI or title: the store's (read when first
        # needed), then this import's, first come first served
        self._by_doi: dict[str, str] | None = None
        self._by_title: dict[tuple[str, int | None], str] | None = None
        self.new_by_doi: dict[str, str] = {}
        self.new_by_title: dict[tuple[str, int | None], str] = {}
        self.added: list[str] = []
        self.updated: list[str] = []
        self.unchanged: list[str] = []
        self.duplicates: list[Duplicate] = []
        self.renamed: list[tuple[str, str]] = []
        self.rekeyed: list[tuple[str, str]] = []
        self.controls: list[tuple[str, int]] = []
        self.done = False

    # ------------------------------------------------------------------ the store, as the cache has it

    def _row(self, name: str):
        found = self.db.execute("SELECT row FROM rows WHERE name = ?", (name,)).fetchone()
        return None if found is None else marshal.loads(found[0])

    def _abstract(self, name: str) -> str:
        """The abstract of the paper in file ``name`` as the cache has it (this import's batches
        included): what the duplicate index verifies against."""
        row = self._row(name)
        return "" if row is None else row[2]

    def _paper(self, name: str) -> Paper:
        paper = self.rows.get(name)
        if paper is not None:
            return paper
        from .paperfile import row_to_paper

        row = self._row(name)
        if row is None:  # pragma: no cover - the cache holds every file it was synced with
            raise StoreError(f"{self.store.papers_dir / name}: not in the store's index; run the import again")
        return row_to_paper(row)

    def _name_of_key(self, key: str) -> str | None:
        name = self.new_keys.get(key)
        if name is None:
            found = self.db.execute("SELECT name FROM papers WHERE key = ?", (key,)).fetchone()
            name = found[0] if found is not None else None
        return name

    def _without_abstract(self) -> tuple[dict, dict]:
        """The store's papers by DOI and, those without an abstract, by title (by file name, the
        first one wins), read from the cache when a record without abstract first comes."""
        if self._by_doi is None or self._by_title is None:
            from .paperfile import row_to_paper

            by_doi: dict[str, str] = {}
            by_title: dict[tuple[str, int | None], str] = {}
            store = self.sigs  # (this import's new papers are not among them)
            for name, row in self.db.execute("SELECT name, row FROM rows ORDER BY name"):
                if name not in store:
                    continue
                record = row_to_paper(marshal.loads(row)).record
                if not record.abstract and record.title:
                    by_title.setdefault((record.title.casefold(), record.year), name)
                if record.doi:
                    by_doi.setdefault(record.doi.lower(), name)
            self._by_doi, self._by_title = by_doi, by_title
        return self._by_doi, self._by_title

    # ------------------------------------------------------------------ adding

    def add(self, records: Iterable[Record], states: Mapping[str, dict] | None = None) -> None:
        """Import ``records`` (``states``: reader state by incoming key); see
        :meth:`Store.import_records`. Nothing is written before the transaction ends."""
        batch: list[Record] = []
        for rec in records:
            batch.append(rec)
            if len(batch) >= BATCH:
                self._add(batch, states or {})
                batch = []
        if batch:
            self._add(batch, states or {})

    def _add(self, records: list[Record], states: Mapping[str, dict]) -> None:
        from .rules import strip_record

        for i, rec in enumerate(records):
            rec, n = strip_record(rec)
            if n:
                records[i] = rec
                self.controls.append((rec.key, n))
        for rec in records:  # checked before any of the batch is staged
            if not rec.key.strip():
                where = f" ({rec.sources[0]})" if rec.sources else ""
                raise ValidationError(f"cannot import a record with an empty key{where}: {rec.title[:60]!r}")
        for rec in records:
            try:
                self._one(rec, states)
            except ValidationError as exc:  # a bad state: say which input it came from
                where = str(rec.sources[0]) if rec.sources else ""
                if where and not str(exc).startswith(where):
                    raise ValidationError(f"{where}: {exc}") from None
                raise
        self._write_batch()

    def _one(self, rec: Record, states: Mapping[str, dict]) -> None:
        from ..convert.keys import is_valid_key, safe_key, unique_key

        store, near, taken, names = self.store, self.near, self.taken, self.names
        found: tuple[str, float] | None = None
        if rec.abstract:
            found = near.best(rec.abstract, self.threshold)
        else:
            name = self._name_of_key(rec.key)
            if name is None and rec.doi:
                name = self._lookup(0, rec.doi.lower())
            if name is None and rec.title:
                name = self._lookup(1, (rec.title.casefold(), rec.year))
                if name is not None and self._paper(name).key.casefold().rstrip("abcdefghijklmnopqrstuvwxyz") != safe_key(rec.key).casefold().rstrip("abcdefghijklmnopqrstuvwxyz"):
                    name = None  # same title, unrelated key: another paper
            if name is not None:
                found = (name, 100.0)
        if found is not None:
            name, score = found
            old = self._paper(name)
            exact = score >= 100.0
            if not exact or rec.key != old.key:
                source = rec.sources[0] if rec.sources else Source(file="")
                self.duplicates.append(Duplicate(source=source, key=old.key, similarity=float(score), exact=exact))
            new_record = merge_record(old.record, rec)
            if new_record == old.record:
                self.unchanged.append(old.key)
                return
            self.rows[name] = store._save(name, store._read(name), old, old.evolve(record=new_record))
            self.updated.append(old.key)
            if new_record.abstract != old.record.abstract:
                near.add(name, new_record.abstract)
            return
        wanted = valid = rec.key
        if not is_valid_key(wanted):
            valid = safe_key(wanted)
        key = unique_key(valid, taken)
        if valid != wanted:
            self.rekeyed.append((wanted, key))
        elif key != wanted:
            self.renamed.append((wanted, key))
        if key != wanted:
            rec = rec.evolve(key=key)
        taken.add(key)
        paper = store._new_paper(rec, states.get(wanted), self.now)
        name = store._new_file_name(key, names, listed=True)
        names.add(name.casefold())
        self.rows[name] = store._save(name, None, None, paper)
        self.new_keys[key] = name
        self.added.append(key)
        if rec.abstract:
            near.add(name, rec.abstract)
        elif rec.title:
            self.new_by_title.setdefault((rec.title.casefold(), rec.year), name)
        if rec.doi:
            self.new_by_doi.setdefault(rec.doi.lower(), name)

    def _lookup(self, which: int, value) -> str | None:
        """A paper by DOI (``which`` 0) or title (1): the store's first, then this import's."""
        base = self._without_abstract()[which]
        name = base.get(value)
        return name if name is not None else (self.new_by_doi, self.new_by_title)[which].get(value)

    def _write_batch(self) -> None:
        """The batch's papers to the cache's database (uncommitted until the files are in
        place), and the duplicate index folded."""
        from . import cache

        rows = self.rows
        if rows:
            had = {n for n in rows if n in self.sigs or n in self.written}
            cache.put_rows(self.db, [(n, cache.bundle(n, p)) for n, p in rows.items()], (), had)
            self.written.update(rows)
            rows.clear()
        self.new_keys.clear()
        self.near.fold()

    # ------------------------------------------------------------------ ending

    def summary(self) -> ImportSummary:
        return ImportSummary(
            tuple(self.added), tuple(dict.fromkeys(self.updated)), tuple(dict.fromkeys(self.unchanged)), tuple(self.duplicates),
            tuple(self.renamed), tuple(self.controls), tuple(self.rekeyed),
        )  # fmt: skip

    def commit(self) -> None:
        """Once the files are written (the lock still held): the cache learns their signatures
        and its transaction is committed; the duplicate index is saved."""
        from . import cache

        if self.ended:
            return
        self.ended = True
        db = self.db
        try:
            sigs = self.sigs
            if self.persist:
                papers = os.fspath(self.store.papers_dir) + os.sep
                if len(self.written) >= SETTLE_MIN_FILES:  # past the racy window: trusted signatures
                    time.sleep(cache.RACY_NS / 1e9)
                scan_ns = time.time_ns()
                limit = scan_ns - cache.RACY_NS
                for name in self.written:
                    try:
                        s = cache.signature(os.stat(papers + name))
                    except OSError:
                        s = None
                    sigs[name] = s if s is not None and s[2] < limit and s[3] < limit else None
                try:
                    cache.put_sigs(db, sigs)
                    db.execute("COMMIT")
                except Exception:  # a cache: the next command rebuilds what it lacks
                    pass
            self.near.save(sigs)
        finally:
            db.close()

    def close(self) -> None:
        """Give up what was not committed (the transaction failed)."""
        if not self.ended:
            self.ended = True
            try:
                self.db.close()  # rolls back the uncommitted rows
            except Exception:  # pragma: no cover
                pass
