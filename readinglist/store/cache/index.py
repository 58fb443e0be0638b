"""The index of every paper in memory (:class:`Index`: papers by file name, their signatures,
which file holds each key), loaded from the cache, brought up to date by a scan and saved
back: what a transaction reads (its own changes included).
"""

from __future__ import annotations


import marshal
import sqlite3
from pathlib import Path

from ...errors import StoreError
from ...forking import collect, fork, workers as usable_workers
from ...gc_pause import gc_paused

from . import bulk, database, files

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from ...record import Paper


# --------------------------------------------------------------------------- the index


class Index:
    """Papers by file name (``"canvit2026.toml"``), their files' signatures, and which file
    holds each key. (A plain class: commands that only read rows load no dataclass machinery.)"""

    __slots__ = ("papers", "sigs", "by_key", "temp_files", "changes", "broken")

    def __init__(
        self,
        papers: dict[str, Paper] | None = None,
        sigs: dict[str, files.Signature | None] | None = None,  # None: not trusted
        by_key: dict[str, str] | None = None,
        temp_files: list[str] | None = None,  # leftovers of killed writers
        changes: int = 0,  # entries that differ from the cache file on disk
        broken: dict[str, str] | None = None,
    ) -> None:
        self.papers: dict[str, Paper] = {} if papers is None else papers
        self.sigs: dict[str, files.Signature | None] = {} if sigs is None else sigs
        self.by_key: dict[str, str] = {} if by_key is None else by_key
        self.temp_files: list[str] = [] if temp_files is None else temp_files
        self.changes = changes
        #: files that do not parse: name -> the one-line error (file:line:col); left out of
        #: ``papers`` and ``sigs`` (so they are read again, and reported, on every scan)
        self.broken: dict[str, str] = {} if broken is None else broken

    def put(self, name: str, paper: Paper | None, sig: files.Signature | None = None) -> None:
        """Record that file ``name`` now holds ``paper`` (None: the file is gone)."""
        old = self.papers.pop(name, None)
        self.sigs.pop(name, None)
        if old is not None and self.by_key.get(old.key) == name:
            del self.by_key[old.key]
        if paper is not None:
            self.papers[name] = paper
            self.sigs[name] = sig
            self.by_key[paper.key] = name
        self.changes += 1


def load_cache(cache_dir: Path) -> Index:
    """The index saved in the cache, or an empty one when there is none or it cannot be read."""
    from ..paperfile import row_to_paper

    with gc_paused():
        db = database.connect(cache_dir, create=False)
        if db is None:
            return Index()
        try:
            sigs = database.stored_sigs(db)
            names, keys, rows = [], [], []
            for name, key, row in db.execute("SELECT p.name, p.key, r.row FROM papers p JOIN rows r ON r.name = p.name"):
                names.append(name)
                keys.append(key)
                rows.append(row)
            loads = marshal.loads
            papers = dict(zip(names, (row_to_paper(loads(r)) for r in rows)))
            by_key = dict(zip(keys, names))
            if len(by_key) != len(names):  # a key in two files: let scan() report it
                by_key = {}
            return Index(papers=papers, sigs={n: sigs.get(n) for n in names}, by_key=by_key)
        except (sqlite3.Error, ValueError, EOFError, TypeError):
            return Index()
        finally:
            db.close()


def save_cache(cache_dir: Path, index: Index, scan_ns: int) -> None:
    """Write what changed in the index to the cache (a failure to write is ignored: it is a cache).

    Entries whose signature is not trusted (``None``, or a file changed within ``RACY_NS`` of
    ``scan_ns``) are written without one, so they are parsed again next time."""
    limit = scan_ns - files.RACY_NS
    db = database.connect(cache_dir)
    if db is None:
        return
    try:
        with db:
            db.execute("BEGIN IMMEDIATE")
            stored = database.stored_sigs(db)
            sigs = dict(stored)
            changed: list[tuple[str, tuple]] = []
            for name, paper in index.papers.items():
                s = index.sigs.get(name)
                if s is not None and not (s[2] < limit and s[3] < limit):
                    s = None
                if s is None or stored.get(name, False) != s:
                    changed.append((name, database.bundle(name, paper)))
                    sigs[name] = s
            gone = [n for n in stored if n not in index.papers]
            for name in gone:
                del sigs[name]
            if changed or gone:
                database.write_rows(db, changed, gone, sigs, stored)
        database.use_wal(db)
        index.changes = 0
    except (sqlite3.Error, OSError):
        pass
    finally:
        db.close()


def scan(papers_dir: Path, previous: Index, stats: files.Stats | None = None, *, processes: int = 1) -> tuple[Index, int]:
    """Stat every paper file and build the index, re-parsing files whose signature changed.

    ``stats`` is :func:`stat_files`'s result when the caller has it already (see
    :func:`load_and_stat`). Returns the index and the scan's start time (for
    :func:`save_cache`). Raises StoreError for a file that does not parse, and for two files
    that claim the same key.
    """
    with gc_paused():
        return index_from_stats(papers_dir, previous, stats or files.stat_files(papers_dir), processes)


def load_and_stat(cache_dir: Path, papers_dir: Path, *, processes: int = 1) -> tuple[Index, files.Stats]:
    """:func:`load_cache` and :func:`stat_files` at once: on a large store (and ``processes`` >
    1) a forked child does
    the stat pass (system calls) while this process unmarshals the cache, and sends its result
    back through a pipe. Falls back to doing both here
    where there is no fork, on a small store, or if the child fails in any way."""
    child = None
    if usable_workers(processes) >= 2 and file_count_hint(cache_dir) >= files.FORK_MIN_FILES:  # the child: stat, send
        child = fork(lambda: marshal.dumps(files.stat_files(papers_dir)))
    previous = load_cache(cache_dir)
    stats = None
    if child is not None:
        data = collect(child)
        try:
            stats = marshal.loads(data) if data is not None else None
        except (ValueError, EOFError, TypeError):
            stats = None
    return previous, stats or files.stat_files(papers_dir)


def file_count_hint(cache_dir: Path) -> int:
    """How many papers the cache held, from its size (no need to read it): ~4 KB a paper."""
    try:
        return (cache_dir / database.CACHE_NAME).stat().st_size // 4000
    except OSError:
        return 0


def index_from_stats(papers_dir: Path, previous: Index, stats: files.Stats, processes: int = 1) -> tuple[Index, int]:
    sigs, temp, scan_ns = stats
    index = Index(sigs=sigs, temp_files=temp, changes=previous.changes)
    old_papers = previous.papers
    if sigs == previous.sigs:  # nothing changed: the common case, no per-file work
        index.papers = old_papers
        if previous.by_key:
            index.by_key = previous.by_key
            return index, scan_ns
        fill_by_key(index, papers_dir, index.papers)
        return index, scan_ns
    # Only the differences are handled in Python; the comparisons run on dict views.
    changed = sorted(name for name, _ in sigs.items() - previous.sigs.items())
    gone = old_papers.keys() - sigs.keys()
    try:
        parsed, vanished = bulk.parse_files(papers_dir, changed, careful=files.odd(sigs, changed), processes=processes)
    except StoreError:  # one bad file must not hide the others: parse one by one, note the bad
        parsed, vanished = {}, []
        for name in changed:
            try:
                more, lost = bulk.converted(*bulk.parse_share(papers_dir, [name], None, files.odd(sigs, [name])), None)
            except StoreError as exc:
                index.broken[name] = str(exc)
                del sigs[name]
                continue
            parsed.update(more)
            vanished += lost
        gone |= index.broken.keys()
    for name in vanished:  # removed while we looked
        del sigs[name]
        gone.add(name)
    papers = index.papers = dict(old_papers)
    for name in gone:
        papers.pop(name, None)
    papers.update(parsed)
    index.changes += len(parsed) + len(gone)
    if not previous.by_key:
        fill_by_key(index, papers_dir, papers)
        return index, scan_ns
    by_key = index.by_key = dict(previous.by_key)
    for name in gone.union(parsed):
        old = old_papers.get(name)
        if old is not None and by_key.get(old.key) == name:
            del by_key[old.key]
    fill_by_key(index, papers_dir, parsed)
    return index, scan_ns


def fill_by_key(index: Index, papers_dir: Path, papers: dict[str, Paper]) -> None:
    """Add ``papers`` to ``index.by_key``; StoreError if a key is already another file's."""
    by_key = index.by_key
    for name, paper in papers.items():
        key = paper.key
        other = by_key.get(key)
        if other is not None and other != name:
            first, second = sorted((other, name))
            raise StoreError(
                f"{papers_dir / first} and {papers_dir / second} both have key {key!r}; change the key in one of them"
            )
        by_key[key] = name
