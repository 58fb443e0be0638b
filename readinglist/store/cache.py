"""The store's derived index: every paper file parsed, kept in ``<store>/.cache/``.

The TOML files are the source of truth; this cache only saves parsing them again. Each entry
is remembered with the file's signature ``(inode, size, mtime_ns, ctime_ns)``; a scan stats
every ``papers/*.toml`` file and re-parses (with :mod:`tomllib`) only those whose signature
changed, so a hand edit is always seen. The folder's list of names is remembered with the
folder's own signature (inode, mtime, ctime: adding, removing or renaming a file changes it) and
read again only when that changed (:func:`list_folder`). The cache may be deleted at any time.

Like git's index, an entry whose file changed within ``RACY_NS`` of the scan is saved without
a signature, because a second change within the file system's timestamp granularity could
keep size and times equal; it is simply parsed again next time.

The cache file is SQLite (see :func:`sync` and the queries below); each paper's row is
:mod:`marshal` data (plain tuples, fast to load; tied to the Python version, which is part of
the file's name). A cache that cannot be read is ignored and rebuilt. Rebuilding it (a fresh
clone) reads the files with :func:`~readinglist.store.paperfile.read_texts` and the compiled
TOML reader, straight to rows (:func:`~readinglist.store.paperfile.parse_row`), in forked
workers when there are many and the caller passed ``processes`` > 1 (:func:`_parsed_parts`).
"""

from __future__ import annotations

import contextlib
import itertools
import marshal
import os
import re
import sqlite3
import stat as stat_module
import struct
import sys
import time
from collections.abc import Container, Generator, Iterable, Iterator
from collections import namedtuple
from pathlib import Path

from ..errors import StoreError
from ..tagform import tag_key, unique_tags
from ..forking import collect, discard, fork, fork_writer, workers as usable_workers
from ..gc_pause import gc_paused
from ..constants import STATUSES
from .paperrow import read_texts

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from ..record import Paper

#: The field names of the dataclasses a row holds, in order: part of the cache's identity, so a
#: cache written for other fields is never read (rows are positional, for speed). Written out
#: (a test checks it against record.py) so that ``list``, which reads rows, need not create the
#: dataclasses.
SCHEMA = (
    ("Record", ("key", "title", "abstract", "entry_type", "venue", "year", "shorttitle", "tags", "authors",
                "doi", "url", "pages", "fields", "generated", "sources")),
    ("Paper", ("record", "status", "history", "notes", "user_tags", "priority", "rating")),
    ("Person", ("family", "given", "literal")),
    ("Source", ("file", "paragraph", "line")),
    ("Event", ("event", "date")),
)  # fmt: skip
RACY_NS = 100_000_000  # 0.1 s

Signature = tuple  # (st_ino, st_size, st_mtime_ns, st_ctime_ns), and st_mode for a file that is not regular


def signature(st: os.stat_result) -> Signature:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


# --------------------------------------------------------------------------- rows
# (paper_to_row and row_to_paper, in paperfile: a row is what a plain file parses to)


# --------------------------------------------------------------------------- the index


class Index:
    """Papers by file name (``"canvit2026.toml"``), their files' signatures, and which file
    holds each key. (A plain class: commands that only read rows load no dataclass machinery.)"""

    __slots__ = ("papers", "sigs", "by_key", "temp_files", "changes", "broken")

    def __init__(
        self,
        papers: dict[str, Paper] | None = None,
        sigs: dict[str, Signature | None] | None = None,  # None: not trusted
        by_key: dict[str, str] | None = None,
        temp_files: list[str] | None = None,  # leftovers of killed writers
        changes: int = 0,  # entries that differ from the cache file on disk
        broken: dict[str, str] | None = None,
    ) -> None:
        self.papers: dict[str, Paper] = {} if papers is None else papers
        self.sigs: dict[str, Signature | None] = {} if sigs is None else sigs
        self.by_key: dict[str, str] = {} if by_key is None else by_key
        self.temp_files: list[str] = [] if temp_files is None else temp_files
        self.changes = changes
        #: files that do not parse: name -> the one-line error (file:line:col); left out of
        #: ``papers`` and ``sigs`` (so they are read again, and reported, on every scan)
        self.broken: dict[str, str] = {} if broken is None else broken

    def put(self, name: str, paper: Paper | None, sig: Signature | None = None) -> None:
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
    from .paperfile import row_to_paper  # (the record dataclasses: not for reading rows)

    with gc_paused():
        db = connect(cache_dir, create=False)
        if db is None:
            return Index()
        try:
            sigs = _stored_sigs(db)
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
    limit = scan_ns - RACY_NS
    db = connect(cache_dir)
    if db is None:
        return
    try:
        with db:
            db.execute("BEGIN IMMEDIATE")
            stored = _stored_sigs(db)
            sigs = dict(stored)
            changed: list[tuple[str, tuple]] = []
            for name, paper in index.papers.items():
                s = index.sigs.get(name)
                if s is not None and not (s[2] < limit and s[3] < limit):
                    s = None
                if s is None or stored.get(name, False) != s:
                    changed.append((name, bundle(name, paper)))
                    sigs[name] = s
            gone = [n for n in stored if n not in index.papers]
            for name in gone:
                del sigs[name]
            if changed or gone:
                _write_rows(db, changed, gone, sigs, stored)
        _use_wal(db)
        index.changes = 0
    except (sqlite3.Error, OSError):
        pass
    finally:
        db.close()


def scan(papers_dir: Path, previous: Index, stats: Stats | None = None, *, processes: int = 1) -> tuple[Index, int]:
    """Stat every paper file and build the index, re-parsing files whose signature changed.

    ``stats`` is :func:`stat_files`'s result when the caller has it already (see
    :func:`load_and_stat`). Returns the index and the scan's start time (for
    :func:`save_cache`). Raises StoreError for a file that does not parse, and for two files
    that claim the same key.
    """
    with gc_paused():
        return _scan(papers_dir, previous, stats or stat_files(papers_dir), processes)


Stats = tuple  # (signatures by file name, leftover temp files, when the stat pass started)


def stat_files(papers_dir: Path, *, processes: int = 1) -> Stats:
    """The signature of every paper file (one ``stat`` each), the temp files killed writers
    left, and the time the pass started. ``processes`` > 1: on a large store a forked child stats
    half of the files (the pass is system calls, which two cores make twice as fast); if the
    child fails in any way, this process stats its half too."""
    scan = Scan(papers_dir, processes=processes)
    try:
        return scan.sigs(), scan.temp, scan.scan_ns
    finally:
        scan.close()


class Scan:
    """One stat pass over the paper files, which a read compares with the cache by
    :meth:`digest` before it asks for the signatures themselves (:meth:`sigs`).

    On a large store (and ``processes`` > 1) a forked child stats half of the files and sends first the
    :func:`digest_part` of its half (16 bytes), then its signatures; when the digest shows that
    nothing changed, the common case, the signatures are never sent, read nor merged (the child
    is stopped by :meth:`close`). If the child fails in any way, this process stats its half."""

    __slots__ = ("papers_dir", "temp", "scan_ns", "listing", "_sigs", "_rest", "_child", "_part")

    def __init__(self, papers_dir: Path, *, processes: int = 1, listing: Listing | None = None) -> None:
        self.papers_dir = papers_dir
        self.scan_ns = time.time_ns()
        # self.listing: a listing of the folder worth remembering (see list_folder), or None
        names, self.temp, self.listing = list_folder(papers_dir, listing, self.scan_ns)
        self._rest: list[str] = []  # the child's half
        self._child: tuple[int, int] | None = None
        self._part: tuple[int, int] | None = None  # the child's digest part, once read
        if len(names) >= FORK_MIN_FILES and usable_workers(processes) >= 2:
            half = len(names) // 2
            names, self._rest = names[:half], names[half:]
            self._child = fork_writer(self._send)
        self._sigs = _stat_names(papers_dir, names)

    def _send(self, out) -> None:
        """(in the child) The digest part of the child's half, then its signatures."""
        sigs = _stat_names(self.papers_dir, self._rest)
        out.write(_PART.pack(*digest_part(sigs)))
        out.flush()
        out.write(marshal.dumps(sigs))

    def digest(self) -> int | None:
        """:func:`digest` of :meth:`sigs`, without them where a child stats half of the files."""
        part = self._child_part()
        if part is None:
            return digest(self._sigs)
        mine, count = digest_part(self._sigs)
        return _combined(mine + part[0], count + part[1])

    def sigs(self) -> dict[str, Signature]:
        """Every paper file's signature (the child's half received and merged)."""
        if self._child_part() is not None:
            child, self._child = self._child, None
            received = _collect(child)
            if isinstance(received, dict):
                self._sigs.update(received)
            else:
                self._sigs.update(_stat_names(self.papers_dir, self._rest))
        return self._sigs

    def _child_part(self) -> tuple[int, int] | None:
        """The child's digest part (read once), or None when there is no child: none was
        started, or it failed, and then this process has stat'ed its half."""
        if self._part is None and self._child is not None:
            header = _read_exactly(self._child[1], _PART.size)
            if header is None:
                self._take_over()
            else:
                self._part = _PART.unpack(header)
        return self._part if self._child is not None else None

    def _take_over(self) -> None:
        child, self._child = self._child, None
        discard(child)
        self._sigs.update(_stat_names(self.papers_dir, self._rest))

    def close(self) -> None:
        """Stop a child whose signatures were not needed (and wait for it)."""
        child, self._child = self._child, None
        discard(child)


Listing = tuple  # (the folder's signature, the names of its paper files, of its temp files)


def list_folder(folder: Path, known: Listing | None, scan_ns: int) -> tuple[list[str], list[str], Listing | None]:
    """The names of the paper files (``*.toml``, not hidden) in ``folder``, of the temp files
    killed writers left there (``.*.tmp``), and the listing to remember for the next scan (None:
    nothing new worth remembering).

    ``known`` is a listing remembered earlier: when the folder's signature (inode, mtime and ctime)
    is the same, so are its names -- creating, removing or renaming an entry updates both times
    of the folder (POSIX), and nothing can set a ctime back -- and the ``os.listdir`` of tens of
    thousands of names (~35 ms for 50,000) is spared. A file edited in place changes no name:
    the stat of every file still sees it. A new listing is worth remembering only when the
    folder last changed more than ``RACY_NS`` before the scan began: a change in the same tick
    of the file system's clock could leave both times as they were (the rule git's index uses
    for files, and the cache for the paper files)."""
    try:
        st = os.stat(folder)
        sig = (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
        if known is not None and known[0] == sig:
            return known[1], known[2], None
        names = os.listdir(folder)
    except FileNotFoundError:
        return [], [], None
    except OSError as exc:
        from .atomic import describe

        raise StoreError(f"{folder}: cannot read the papers folder: {describe(exc)}") from None
    papers = [n for n in names if n.endswith(".toml") and not n.startswith(".")]
    temp = [n for n in names if n.startswith(".") and n.endswith(".tmp")]
    limit = scan_ns - RACY_NS
    return papers, temp, ((sig, papers, temp) if st.st_mtime_ns < limit and st.st_ctime_ns < limit else None)


#: A digest part as the stat child sends it: (sum of the signatures' hashes mod 2**64, count).
_PART = struct.Struct("<QQ")


def _read_exactly(fd: int, n: int) -> bytes | None:
    """``n`` bytes from the pipe ``fd``, or None if it ends (or fails) first."""
    data = b""
    try:
        while len(data) < n:
            more = os.read(fd, n - len(data))
            if not more:
                return None
            data += more
    except OSError:
        return None
    return data


def _stat_names(papers_dir: Path, names: list[str]) -> dict[str, Signature]:
    """The signatures of the paper files ``names`` (those found)."""
    stat = os.stat
    sigs: dict[str, Signature] = {}
    folder = os.open(papers_dir, os.O_RDONLY) if os.stat in os.supports_dir_fd and names else None
    base = "" if folder is not None else os.fspath(papers_dir) + os.sep
    try:
        for name in names:
            try:
                st = stat(base + name, dir_fd=folder)
            except FileNotFoundError:  # removed while we looked
                continue
            if st.st_mode & 0o170000 == 0o100000:
                sigs[name] = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            else:  # a folder, FIFO or device: never opened by the bulk reader (see odd)
                sigs[name] = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)
    finally:
        if folder is not None:
            os.close(folder)
    return sigs


def odd(sigs: dict[str, Signature | None], names: Iterable[str]) -> frozenset[str]:
    """Which of ``names`` the stat pass found are not regular files (see :func:`_stat_names`)."""
    return frozenset(n for n in names if (s := sigs.get(n)) is not None and len(s) != 4)


#: Below this many files a second process costs more than the stat pass it saves.
FORK_MIN_FILES = 2000


def load_and_stat(cache_dir: Path, papers_dir: Path, *, processes: int = 1) -> tuple[Index, Stats]:
    """:func:`load_cache` and :func:`stat_files` at once: on a large store (and ``processes`` >
    1) a forked child does
    the stat pass (system calls, ~80 ms for 20,000 files) while this process unmarshals the
    cache (~130 ms), and sends its result back through a pipe. Falls back to doing both here
    where there is no fork, on a small store, or if the child fails in any way."""
    child = None
    if usable_workers(processes) >= 2 and _file_count_hint(cache_dir) >= FORK_MIN_FILES:  # the child: stat, send
        child = fork(lambda: marshal.dumps(stat_files(papers_dir)))
    previous = load_cache(cache_dir)
    stats = None
    if child is not None:
        data = collect(child)
        try:
            stats = marshal.loads(data) if data is not None else None
        except (ValueError, EOFError, TypeError):
            stats = None
    return previous, stats or stat_files(papers_dir)


def _file_count_hint(cache_dir: Path) -> int:
    """How many papers the cache held, from its size (no need to read it): ~4 KB a paper."""
    try:
        return (cache_dir / CACHE_NAME).stat().st_size // 4000
    except OSError:
        return 0


def _scan(papers_dir: Path, previous: Index, stats: Stats, processes: int = 1) -> tuple[Index, int]:
    sigs, temp, scan_ns = stats
    index = Index(sigs=sigs, temp_files=temp, changes=previous.changes)
    old_papers = previous.papers
    if sigs == previous.sigs:  # nothing changed: the common case, no per-file work
        index.papers = old_papers
        if previous.by_key:
            index.by_key = previous.by_key
            return index, scan_ns
        _fill_by_key(index, papers_dir, index.papers)
        return index, scan_ns
    # Only the differences are handled in Python; the comparisons run on dict views.
    changed = sorted(name for name, _ in sigs.items() - previous.sigs.items())
    gone = old_papers.keys() - sigs.keys()
    try:
        parsed, vanished = parse_files(papers_dir, changed, careful=odd(sigs, changed), processes=processes)
    except StoreError:  # one bad file must not hide the others: parse one by one, note the bad
        parsed, vanished = {}, []
        for name in changed:
            try:
                more, lost = _converted(*_parse_share(papers_dir, [name], None, odd(sigs, [name])), None)
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
        _fill_by_key(index, papers_dir, papers)
        return index, scan_ns
    by_key = index.by_key = dict(previous.by_key)
    for name in gone.union(parsed):
        old = old_papers.get(name)
        if old is not None and by_key.get(old.key) == name:
            del by_key[old.key]
    _fill_by_key(index, papers_dir, parsed)
    return index, scan_ns


#: From this many files to parse, a compiled TOML reader is worth importing (see
#: :func:`readinglist.store.paperfile.compiled_loads`)...
COMPILED_MIN_FILES = 64
#: ...and from this many (and ``processes`` > 1), forked workers share the parsing (at most
#: MAX_WORKERS of them).
PARALLEL_MIN_FILES = 2000
MAX_WORKERS = 4


def parse_files(
    papers_dir: Path, names: list[str], convert=None, careful: Container[str] = (), *, processes: int = 1
) -> tuple[dict, list[str]]:
    """The papers in ``names`` (files in ``papers_dir``), and the names that were not found.
    ``convert(name, row)``: what to return for each paper instead, from its row
    (:func:`~readinglist.store.paperfile.paper_to_row`; marshal data, so that forked workers
    convert their share themselves). ``careful``: names that are not regular files (see
    :func:`odd`), never opened.

    Many files (a fresh clone, a deleted cache) are parsed with a compiled TOML reader when
    one is installed, and shared among forked workers when the caller passed ``processes`` > 1; the
    result is the same as parsing them one by one here, including which error is raised
    first (the first bad file in ``names``' order). A worker that fails in any other way
    leaves its share to this process.
    """
    from .paperfile import row_to_paper  # (the record dataclasses: not for reading rows)

    from .paperfile import compiled_loads

    loads = compiled_loads() if len(names) >= COMPILED_MIN_FILES else None
    workers = usable_workers(processes, MAX_WORKERS) if len(names) >= PARALLEL_MIN_FILES else 1
    if workers < 2:
        return _converted(*_parse_share(papers_dir, names, loads, careful), convert)
    size = -(-len(names) // workers)
    shares = [names[i : i + size] for i in range(0, len(names), size)]
    children = []
    for share in shares[1:]:
        children.append((share, _fork_parse(papers_dir, share, loads, convert, careful)))
    parsed: dict = {}
    vanished: list[str] = []
    error = None
    try:
        parsed, vanished = _converted(*_parse_share(papers_dir, shares[0], loads, careful), convert)
    except StoreError as exc:  # the first share holds the first bad file: report it...
        error = exc
    for share, child in children:  # ...after collecting every worker
        result = _collect(child)
        if error is not None:
            continue
        if result is None:  # the worker failed: parse its share here
            try:
                more, gone = _converted(*_parse_share(papers_dir, share, loads, careful), convert)
            except StoreError as exc:
                error = exc
                continue
        elif result[0] == "error":
            error = StoreError(result[1])
            continue
        else:
            _, rows_names, rows, gone = result
            with gc_paused():
                more = dict(zip(rows_names, rows if convert is not None else map(row_to_paper, rows)))
        parsed.update(more)
        vanished += gone
    if error is not None:
        raise error
    return parsed, vanished


def _converted(rows: dict[str, tuple], vanished: list[str], convert) -> tuple[dict, list[str]]:
    """Papers (or ``convert(name, row)``) from rows."""
    from .paperfile import row_to_paper  # (the record dataclasses: not for reading rows)

    with gc_paused():
        if convert is not None:
            return {name: convert(name, row) for name, row in rows.items()}, vanished
        return {name: row_to_paper(row) for name, row in rows.items()}, vanished


def _parse_share(papers_dir: Path, names: list[str], loads, careful: Container[str] = ()) -> tuple[dict[str, tuple], list[str]]:
    """The rows of the files ``names`` (see :func:`parse_files`), and those not found."""
    from .paperfile import parse_row  # (the record dataclasses: not for reading rows)

    parsed: dict[str, tuple] = {}
    vanished: list[str] = []
    base = os.path.join(papers_dir, "")  # error messages name the path as papers_dir / name does
    for name, text in read_texts(papers_dir, names, careful):
        if text is None:
            vanished.append(name)
        else:
            parsed[name] = parse_row(text, base + name, loads=loads)
    return parsed, vanished


def _fork_parse(papers_dir: Path, names: list[str], loads, convert=None, careful: Container[str] = ()) -> tuple[int, int] | None:
    """A forked worker parsing ``names``: (pid, read end of its pipe), or None if it cannot
    start. It sends marshal data: ("ok", names, rows, vanished) or ("error", message)."""

    def work() -> bytes:
        try:
            with gc_paused():
                parsed, vanished = _parse_share(papers_dir, names, loads, careful)
                rows = list(parsed.values()) if convert is None else [convert(n, r) for n, r in parsed.items()]
            return marshal.dumps(("ok", list(parsed), rows, vanished))
        except StoreError as exc:
            return marshal.dumps(("error", str(exc)))

    return fork(work)


def _collect(child: tuple[int, int] | None):
    """What a worker sent (marshal data), or None if it failed."""
    data = collect(child)
    try:
        return None if data is None else marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None


def _fill_by_key(index: Index, papers_dir: Path, papers: dict[str, Paper]) -> None:
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


# --------------------------------------------------------------------------- the SQLite file

#: Bump when the tables change (the schema of the rows is part of the file's identity too).
DB_VERSION = 7  # 6: the tags index holds tagform.tag_key (NFC, case-folded); 7: piped lines escaped by escape_controls
#: ``papers`` holds what filters, sorts and the ``list`` table need (narrow rows: listing
#: every paper reads little); ``texts`` the lowercased title, notes and abstract (search);
#: ``rows`` each whole paper (:func:`paper_to_row`, marshalled); ``tags`` each paper's tags,
#: casefolded (the --tag filter). All are keyed by the file's name.
_SCHEMA_SQL = """
CREATE TABLE meta (k TEXT PRIMARY KEY, v BLOB);
CREATE TABLE papers (
    name TEXT PRIMARY KEY,
    key TEXT NOT NULL,
    status TEXT NOT NULL,
    status_ix INTEGER NOT NULL,
    venue TEXT,
    venue_cf TEXT NOT NULL,
    venue_sort TEXT NOT NULL,
    year INTEGER,
    priority INTEGER,
    rating INTEGER,
    title TEXT NOT NULL,
    title_cf TEXT NOT NULL,
    added TEXT NOT NULL,
    changed TEXT NOT NULL,
    tags TEXT NOT NULL,         -- the topic tags, joined by U+001F
    utags TEXT NOT NULL,        -- the user's tags, joined by U+001F
    line TEXT NOT NULL          -- what a piped `list` prints of the paper (plain_line)
) WITHOUT ROWID;
CREATE INDEX papers_key ON papers(key);
CREATE TABLE texts (name TEXT PRIMARY KEY, lt TEXT NOT NULL, ln TEXT NOT NULL, la TEXT NOT NULL);
CREATE TABLE rows (name TEXT PRIMARY KEY, row BLOB NOT NULL);
CREATE TABLE tags (tag TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (tag, name)) WITHOUT ROWID;
CREATE INDEX tags_name ON tags(name);
"""
#: The tags column's separator (tags are printable: never in a tag).
TAG_SEP = "\x1f"
CACHE_NAME = f"index-v{DB_VERSION}-py{sys.version_info[0]}{sys.version_info[1]}.sqlite"
_IDENTITY = marshal.dumps((DB_VERSION, SCHEMA, _SCHEMA_SQL))


def digest(sigs: dict) -> int | None:
    """A number that changes when any signature does (None when one is not trusted): comparing
    it spares loading every stored signature when nothing changed, the common case. Signatures
    are tuples of ints, whose hashes are the same in every process of one Python version."""
    if None in sigs.values():
        return None
    return _combined(*digest_part(sigs))


def digest_part(sigs: dict) -> tuple[int, int]:
    """(the sum of the signatures' hashes mod 2**64, their count): :func:`digest` of a dict
    made of several parts is :func:`_combined` of the parts' sums (a stat pass done by two
    processes sends no signatures to learn that nothing changed)."""
    return sum(map(hash, sigs.values())) % (1 << 64), len(sigs)


def _combined(total: int, count: int) -> int:
    return (total + count) & 0x7FFF_FFFF_FFFF_FFFF  # an SQLite integer


#: How long a reader waits for another process's lock on the cache before it does without it
#: (its rows in memory, parsed from the files): the cache is derived data, and a reader never
#: waits long on a lock it does not need. A writer (an import) waits WRITER_WAIT_SECONDS.
READER_WAIT_SECONDS = 1.0
WRITER_WAIT_SECONDS = 30.0


def _locked(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says another process holds the database (not that the file is bad)."""
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


def connect(cache_dir: Path, *, create: bool = True, wait: float = READER_WAIT_SECONDS) -> sqlite3.Connection | None:
    """The cache database in ``cache_dir`` (made when missing and ``create``), or None when there
    is none or it cannot be used: ``.cache`` a link (it may lead out of the store), the file not a
    regular file (a FIFO would block), or not writable, or locked by another process for more
    than ``wait`` seconds. A file that is not a current cache (an older or newer version, garbage,
    tables that are not this version's) is replaced."""
    path = cache_dir / CACHE_NAME
    try:
        if os.path.islink(cache_dir):
            return None
        st = os.lstat(path) if os.path.lexists(path) else None
        if st is not None and not stat_module.S_ISREG(st.st_mode):
            return None
        for suffix in ("", "-wal", "-shm", "-journal"):  # SQLite writes (and truncates) them all
            other = os.lstat(str(path) + suffix) if os.path.lexists(str(path) + suffix) else None
            if other is not None and (other.st_nlink > 1 or stat_module.S_ISLNK(other.st_mode)):
                # a hard or symbolic link the store did not make: drop the name, never write there
                os.unlink(str(path) + suffix)
                if suffix == "":
                    st = None
        if st is None:
            if not create:
                return None
            from .atomic import check_inside

            cache_dir.mkdir(exist_ok=True)
            check_inside(cache_dir, cache_dir.parent)
            _remove_old(cache_dir)
    except OSError:
        return None
    for attempt in (1, 2):
        try:
            db = sqlite3.connect(path, timeout=wait, isolation_level=None, check_same_thread=False)
        except sqlite3.Error:
            return None
        try:
            if _ready(db, create):
                return db
            db.close()
            return None
        except sqlite3.Error as exc:
            db.close()
            if attempt == 2 or not create or _locked(exc):  # (never removes a cache in use)
                return None
            if not remove_database(path):  # not a database, or a broken one: it is a cache, start again
                return None
    return None


def remove_database(path: str | os.PathLike) -> bool:
    """Remove a derived SQLite file that is no database (and its journals), never a link's
    target; False if it cannot be removed. (The cache and the generation memo both use it.)"""
    try:
        for suffix in ("", "-wal", "-shm", "-journal"):
            if not os.path.islink(str(path) + suffix):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(str(path) + suffix)
    except OSError:
        return False
    return True


def _identity(db: sqlite3.Connection) -> bytes | None:
    if not db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone():
        return None
    row = db.execute("SELECT v FROM meta WHERE k='identity'").fetchone()
    return row[0] if row is not None else None


def _ready(db: sqlite3.Connection, create: bool) -> bool:
    """Whether ``db`` is a current cache, making its tables in an empty or outdated file
    (sqlite3.Error when the file is not a database)."""
    db.execute("PRAGMA synchronous=OFF")  # a cache: a crash may lose it, never the store
    if _current(db):
        _use_wal(db)  # (a cache another process made and filled: an import's, see _use_wal)
        return True
    if not create:
        return False
    db.execute("BEGIN IMMEDIATE")
    try:
        if _current(db):  # another process made it meanwhile
            db.execute("COMMIT")
            return True
        if db.execute("SELECT 1 FROM sqlite_master").fetchone():  # another version's tables
            raise sqlite3.DatabaseError("not this version's cache")  # removed and made again
        _create(db)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    # A new cache stays in rollback-journal mode until it is filled (see _use_wal).
    return True


#: The statements that make this version's tables, as SQLite keeps them in sqlite_master.
_STATEMENTS = frozenset(" ".join(st.split()) for st in _SCHEMA_SQL.split(";\n") if st.strip())


def _current(db: sqlite3.Connection) -> bool:
    """Whether ``db`` is this version's cache: its identity, and the tables it really has (a
    file whose tables were changed under the same identity is not: its queries would fail)."""
    if _identity(db) != _IDENTITY:
        return False
    made = {" ".join(sql.split()) for (sql,) in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")}
    return made == _STATEMENTS


def _use_wal(db: sqlite3.Connection) -> None:
    """Put the cache in WAL mode (readers never wait for a writer) once it has been filled: a
    new cache's first fill, often every paper of a fresh clone, is written once in rollback
    mode (a new file's pages need no journal) instead of to the WAL and then again to the file
    (measured: a third less time for 20,000 papers). Called after a fill, and by every process
    that opens an existing cache."""
    with contextlib.suppress(sqlite3.Error):
        if db.execute("PRAGMA journal_mode").fetchone()[0] not in ("wal", "memory"):
            db.execute("PRAGMA journal_mode=WAL")


def _create(db: sqlite3.Connection) -> None:
    for statement in _SCHEMA_SQL.split(";\n"):  # not executescript: it would commit first
        if statement.strip():
            db.execute(statement)
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("identity", _IDENTITY), ("sigs", marshal.dumps({})), ("digest", digest({}))])


def _memory_db() -> sqlite3.Connection:
    """A cache that lives in this process only (the store's cannot be written)."""
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    _create(db)
    return db


def remove(cache_dir: Path) -> None:
    """Remove this version's cache file (and its journals): it is made again when next needed
    (never through a link: ``.cache`` a link is never written, see :func:`connect`)."""
    if os.path.islink(cache_dir):
        return
    path = str(cache_dir / CACHE_NAME)
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            os.unlink(path + suffix)


def _remove_old(cache_dir: Path) -> None:
    """Cache files older readinglists left (only called when .cache is no link)."""
    for old in cache_dir.glob("index-v*"):
        if not old.name.startswith(CACHE_NAME) and not old.is_symlink():
            with contextlib.suppress(OSError):
                old.unlink()


def _meta(db: sqlite3.Connection, k: str):
    row = db.execute("SELECT v FROM meta WHERE k = ?", (k,)).fetchone()
    return row[0] if row is not None else None


def _listing(db: sqlite3.Connection) -> Listing | None:
    """The listing of the papers folder a scan remembered (see :func:`list_folder`), if any."""
    try:
        data = _meta(db, _LISTING)
        listing = marshal.loads(data) if data is not None else None
    except (sqlite3.Error, ValueError, EOFError, TypeError):
        return None
    if isinstance(listing, tuple) and len(listing) == 3 and isinstance(listing[1], list) and isinstance(listing[2], list):
        return listing
    return None


_LISTING = "listing-v1"  # the meta key (a listing of another shape has another name)


def _remember_listing(db: sqlite3.Connection, listing: Listing) -> None:
    """Keep ``listing`` for the next scan, unless another process is writing the cache now (a
    read never waits for a write it does not need; the next scan will remember it)."""
    try:
        wait = db.execute("PRAGMA busy_timeout").fetchone()[0]
        db.execute("PRAGMA busy_timeout=0")
        try:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (_LISTING, marshal.dumps(listing)))
        finally:
            db.execute(f"PRAGMA busy_timeout={int(wait)}")
    except sqlite3.OperationalError:
        pass


#: What decoding a damaged cache's content raises (marshal data that is not, rows of another shape)
DAMAGED = (ValueError, EOFError, TypeError, IndexError, KeyError)


def _stored_sigs(db: sqlite3.Connection) -> dict[str, Signature | None]:
    """The signature of every file the cache holds (None: parse it again); none when what is
    stored is not such a table (a damaged cache: every file is parsed again)."""
    data = _meta(db, "sigs")
    try:
        sigs = marshal.loads(data) if data is not None else {}
    except DAMAGED:
        return {}
    return sigs if isinstance(sigs, dict) else {}


def _write_rows(db: sqlite3.Connection, changed: list[tuple[str, tuple]], gone: Iterable[str], sigs: dict, stored: Iterable[str]) -> None:
    """Replace the rows of the ``changed`` files (name, :func:`bundle`), delete those of ``gone``
    files, store ``sigs`` (inside the caller's transaction; ``stored``: the names the cache may
    hold rows for)."""
    put_rows(db, changed, gone, stored)
    put_sigs(db, sigs)


def put_rows(db: sqlite3.Connection, changed: list[tuple[str, tuple]], gone: Iterable[str], stored) -> None:
    """:func:`_write_rows` without the signatures (an import writes its rows batch by batch,
    and the files' signatures once they are in place)."""
    drop = [(n,) for n in gone] + [(n,) for n, _ in changed if n in stored]
    if drop:
        for table in ("papers", "texts", "rows", "tags"):
            db.executemany(f"DELETE FROM {table} WHERE name = ?", drop)
    if changed:
        db.executemany("INSERT INTO papers VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [b[0] for _, b in changed])
        db.executemany("INSERT INTO texts VALUES (?,?,?,?)", [b[1] for _, b in changed])
        db.executemany("INSERT INTO rows VALUES (?,?)", [(n, b[2]) for n, b in changed])
        db.executemany("INSERT OR IGNORE INTO tags VALUES (?, ?)", [(t, n) for n, b in changed for t in b[3]])


def put_sigs(db: sqlite3.Connection, sigs: dict) -> None:
    """Store the signature of every file the cache holds rows for (inside the caller's transaction)."""
    db.executemany("UPDATE meta SET v = ? WHERE k = ?", [(marshal.dumps(sigs), "sigs"), (digest(sigs), "digest")])


def bundle(name: str, p: Paper) -> tuple:
    """Everything the cache stores of the paper in file ``name`` (see :func:`bundle_row`)."""
    from .paperfile import paper_to_row  # (the record dataclasses: not for reading rows)

    return bundle_row(name, paper_to_row(p))


_STATUS_IX = {s: i for i, s in enumerate(STATUSES)}


_LINE_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def plain_line(key: str, status: str, venue: str | None, year: int | None, tags: tuple[str, ...], title: str) -> str:
    """The line ``list`` and ``search`` print for a paper when piped: key, status, venue and
    year, tags (the topic tags, then the user's own), title, tab-separated. A control
    character in a field (a tab or line break too: the layout's must be the only ones) is
    shown escaped. The cache keeps each paper's line, so a piped ``list`` of every paper
    fetches one text a paper."""
    line = f"{key}\t{status}\t{venue or ''} {year or ''}\t{','.join(tags)}\t{title}\n"
    if _LINE_CONTROLS.search(line) is None and line.count("\t") == 4 and line.count("\n") == 1:
        return line
    from ..text.controls import escape_controls as esc

    return f"{esc(key, '')}\t{status}\t{esc(venue or '', '')} {year or ''}\t{esc(','.join(tags), '')}\t{esc(title, '')}\n"


def plain_line_of(p: Paper | Listed) -> str:
    """:func:`plain_line` of a paper (or a :class:`Listed` row)."""
    r = p.record
    return plain_line(r.key, p.status, r.venue, r.year, p.tags if p.user_tags else r.tags, r.title)


def bundle_row(name: str, row: tuple) -> tuple:
    """Everything the cache stores of the paper in file ``name``, from its row (marshal data,
    so that forked parsers make it): its ``papers`` row, its ``texts`` row, the marshalled
    row, its tags."""
    (key, title, abstract, _, venue, year, _, tags, _, _, _, _, _, _,
     _, status, history, notes, utags, priority, rating) = row  # fmt: skip
    return (
        (
            name, key, status, _STATUS_IX.get(status, len(STATUSES)), venue, (venue or "").casefold(),
            (venue or "\uffff").casefold(), year, priority, rating, title, title.casefold(),
            history[0][1] if history else "", history[-1][1] if history else "",
            TAG_SEP.join(tags), TAG_SEP.join(utags),
            plain_line(key, status, venue, year, unique_tags(tags + utags) if utags else tags, title),
        ),
        (name, title.lower(), notes.lower(), abstract.lower()),
        marshal.dumps(row),
        list(dict.fromkeys([tag_key(t) for t in tags + utags])),
    )  # fmt: skip


class Synced:
    """The cache brought up to date with the paper files (see :func:`sync`)."""

    __slots__ = ("db", "broken", "temp_files")

    def __init__(self, db: sqlite3.Connection, broken: dict[str, str] | None = None, temp_files: list[str] | None = None) -> None:
        self.db = db
        self.broken: dict[str, str] = {} if broken is None else broken
        self.temp_files: list[str] = [] if temp_files is None else temp_files

    def close(self) -> None:
        self.db.close()


def sync(cache_dir: Path, papers_dir: Path, *, wait: float = READER_WAIT_SECONDS, processes: int = 1) -> Synced:
    """The cache, brought up to date: every paper file stat'ed, the ones whose signature
    changed parsed again and written back, the removed ones dropped. Files that do not parse
    are left out (and named in ``broken``). StoreError when two files claim one key.

    Where the cache cannot be written (a read-only store, ``.cache`` a link) the rows live in
    memory for this process."""
    with gc_paused():
        db = connect(cache_dir, wait=wait) or _memory_db()
        try:
            scan = Scan(papers_dir, processes=processes, listing=_listing(db))
        except BaseException:
            db.close()
            raise
        try:
            broken: dict[str, str] = {}
            try:
                if scan.digest() != _meta(db, "digest"):
                    sigs = scan.sigs()
                    stored = _stored_sigs(db)
                    if sigs != stored:
                        _update(db, papers_dir, sigs, stored, scan.scan_ns, broken, processes)
                if scan.listing is not None:
                    _remember_listing(db, scan.listing)
            except sqlite3.Error:  # the file went bad meanwhile: this process's own copy
                db.close()
                db = _memory_db()
                _update(db, papers_dir, scan.sigs(), {}, scan.scan_ns, broken, processes)
            except BaseException:
                db.close()
                raise
        finally:
            scan.close()
        return Synced(db, broken, scan.temp)


def _update(db: sqlite3.Connection, papers_dir: Path, sigs: dict, stored: dict, scan_ns: int, broken: dict, processes: int = 1) -> None:
    changed = sorted(name for name, sig in sigs.items() if stored.get(name, False) != sig)
    gone: set[str] = set(stored.keys() - sigs.keys())
    parts = _parsed_parts(papers_dir, changed, odd(sigs, changed), broken, processes)
    try:
        for chunks in parts:  # written part by part, each in its own transaction
            _write_part(db, papers_dir, sigs, stored, scan_ns, chunks, gone)
            gone = set()
    finally:
        parts.close()  # (collects any worker still running when a part failed)
    _use_wal(db)


def _write_part(db: sqlite3.Connection, papers_dir: Path, sigs: dict, stored: dict, scan_ns: int, chunks: Iterable[tuple[dict, list[str]]], gone: Iterable[str]) -> None:
    """One transaction: the rows of each chunk's parsed files (name -> :func:`bundle_row`),
    written as the chunks come, and their files' signatures, those of ``gone`` and of each
    chunk's lost files removed. The stored signatures always name exactly the files whose rows
    the cache holds, so a process stopped between two parts leaves a cache that simply has the
    other part's files to read again."""
    limit = scan_ns - RACY_NS
    db.execute("BEGIN IMMEDIATE")
    try:
        latest = _stored_sigs(db)  # another process may have written meanwhile: keep its work
        had = latest.keys() | stored.keys()
        keys: dict[str, str] = {}  # name -> key of every file written
        for parsed, lost in itertools.chain([({}, list(gone))], chunks):
            for name in lost:
                latest.pop(name, None)
            for name, b in parsed.items():
                s = sigs[name]
                latest[name] = s if s[2] < limit and s[3] < limit else None
                keys[name] = b[0][1]
            put_rows(db, list(parsed.items()), lost, had)
        _check_keys(db, papers_dir, keys)
        put_sigs(db, latest)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


#: What a fresh read costs this process and a worker, in microseconds a paper (measured on
#: 20,000 papers, step by step): parsing one here (read, TOML, row, bundle), parsing one in a
#: worker (and sending it), writing one's rows to the cache, receiving one from a worker; and
#: this process's fixed share (start-up, stat pass, the command's own output), in microseconds.
PARSE_US, WORKER_PARSE_US, WRITE_US, LOAD_US, FIXED_US = 71, 76, 35, 12, 250_000
#: A worker sends its rows this many papers at a time, which this process writes as they come.
STREAM_CHUNK = 1000


def _parsed_parts(
    papers_dir: Path, names: list[str], careful: Container[str], broken: dict, processes: int = 1
) -> Generator[Iterator[tuple[dict, list[str]]], None, None]:
    """The files ``names`` parsed, part by part, each part chunk by chunk: ``(bundles, lost)``,
    name -> :func:`bundle_row` and the names that vanished or do not parse (noted in
    ``broken``). One part, or, for many files on a machine with several cores, two: this
    process's share first, which the caller writes while forked workers (``processes`` > 1) parse the rest (the
    second part), whose rows they send a chunk at a time, which the caller writes as they come.
    This process writes every row, so its share is the smaller one: with P, P', W and L the
    times to parse here, to parse in a worker, to write and to receive a paper (and F this
    process's fixed cost), this process takes ``F + N (x (P + W) + (1 - x) (W + L))`` and k
    workers ``N (1 - x) P' / k``; x makes them equal (see PARSE_US)."""
    from .paperfile import compiled_loads

    loads = compiled_loads() if len(names) >= COMPILED_MIN_FILES else None
    workers = usable_workers(processes, MAX_WORKERS) if len(names) >= PARALLEL_MIN_FILES else 1
    if workers < 2:
        yield iter([_bundles(papers_dir, names, loads, careful, broken)])
        return
    k = workers - 1
    per_worker = WORKER_PARSE_US / k
    x = (per_worker - WRITE_US - LOAD_US - FIXED_US / len(names)) / (PARSE_US - LOAD_US + per_worker)
    first = round(len(names) * min(max(x, 0.0), 1.0))
    size = -(-(len(names) - first) // k)
    shares = [names[i : i + size] for i in range(first, len(names), size)]
    children = [(share, _fork_stream(papers_dir, share, loads, careful)) for share in shares]
    try:
        yield iter([_bundles(papers_dir, names[:first], loads, careful, broken)])

        def rest() -> Iterator[tuple[dict, list[str]]]:
            while children:
                share, child = children.pop(0)
                done = 0  # names of the share received
                stream = _received(child)
                try:
                    for chunk in stream:
                        if chunk[0] != "ok":  # a bad file: this process parses the rest of the share
                            break
                        _, rows_names, rows, vanished = chunk
                        done += len(rows_names) + len(vanished)
                        yield dict(zip(rows_names, rows)), vanished
                finally:
                    stream.close()  # (the worker waited for)
                if done < len(share):  # the worker failed, or found a bad file
                    yield _bundles(papers_dir, share[done:], loads, careful, broken)

        yield rest()
    finally:
        for _, child in children:  # the caller stopped early: wait for the workers all the same
            for _ in _received(child):
                pass


def _fork_stream(papers_dir: Path, names: list[str], loads, careful: Container[str]) -> tuple[int, int] | None:
    """A forked worker parsing ``names`` to :func:`bundle_row` STREAM_CHUNK at a time: (pid, read
    end of its pipe), or None if it cannot start. It sends each chunk as soon as it is parsed,
    marshal data after its length: ("ok", names, rows, vanished), and stops at a bad file with
    ("error", message); :func:`_received` reads them."""

    def work(out) -> None:
        with gc_paused():
            for i in range(0, len(names), STREAM_CHUNK):
                bad = None
                try:
                    parsed, vanished = _parse_share(papers_dir, names[i : i + STREAM_CHUNK], loads, careful)
                    data = marshal.dumps(("ok", list(parsed), [bundle_row(n, r) for n, r in parsed.items()], vanished))
                except StoreError as exc:
                    data = marshal.dumps(("error", bad := str(exc)))
                out.write(len(data).to_bytes(8, "little") + data)
                out.flush()
                if bad is not None:
                    break

    return fork_writer(work)


def _received(child: tuple[int, int] | None) -> Generator[tuple, None, None]:
    """The chunks a :func:`_fork_stream` worker sent, as they come; it stops early (and the
    worker is waited for) when the worker failed or its data cannot be read."""
    if child is None:
        return
    pid, read_end = child
    try:
        with os.fdopen(read_end, "rb") as pipe:
            while True:
                head = pipe.read(8)
                if len(head) < 8:
                    break
                size = int.from_bytes(head, "little")
                data = pipe.read(size)
                if len(data) < size:
                    break
                yield marshal.loads(data)
    except (OSError, ValueError, EOFError, TypeError):
        pass
    finally:
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)


def _bundles(papers_dir: Path, names: list[str], loads, careful: Container[str], broken: dict) -> tuple[dict, list[str]]:
    """:func:`bundle_row` of each file of ``names`` and the names to drop (vanished, or not
    parsing: one bad file must not hide the others, so then they are parsed one by one)."""
    try:
        return _converted(*_parse_share(papers_dir, names, loads, careful), bundle_row)
    except StoreError:
        pass
    parsed: dict = {}
    lost: list[str] = []
    for name in names:
        try:
            more, vanished = _converted(*_parse_share(papers_dir, [name], loads, careful), bundle_row)
        except StoreError as exc:
            broken[name] = str(exc)
            lost.append(name)
            continue
        parsed.update(more)
        lost += vanished
    return parsed, lost


def _check_keys(db: sqlite3.Connection, papers_dir: Path, keys: dict[str, str]) -> None:
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


# --------------------------------------------------------------------------- queries

#: Each sort order over the ``papers`` columns, as :func:`readinglist.store.library._sort_key`
#: sorts papers (every order ends with the key, so reversing it reverses the list).
SQL_ORDER = {
    "key": ("p.key",),
    "title": ("p.title_cf", "p.key"),
    "year": ("p.year IS NULL", "p.year", "p.key"),
    "venue": ("p.venue_sort", "p.key"),
    "status": ("p.status_ix", "p.key"),
    "priority": ("p.priority IS NULL", "p.priority", "p.key"),
    "rating": ("p.rating IS NULL", "-coalesce(p.rating, 0)", "p.key"),
    "added": ("p.added", "p.key"),
    "changed": ("p.changed", "p.key"),
    "next": ("p.priority IS NULL", "p.priority", "p.added", "p.key"),
}
#: The columns of a :class:`Listed` row, in its order.
BRIEF_COLUMNS = "p.key, p.status, p.venue, p.year, p.priority, p.rating, p.title, p.tags, p.utags"
_WORD_TEST = "(instr(t.lt, ?) OR instr(t.ln, ?) OR instr(t.la, ?))"


def select(
    db: sqlite3.Connection,
    *,
    statuses: Iterable[str] | None = None,
    tags: Iterable[str] = (),
    equal: Iterable[tuple[str, object]] = (),
    words: Iterable[str] = (),
    order: str | None = "key",
    reverse: bool = False,
    limit: int | None = None,
    brief: bool = False,
    lines: bool = False,
) -> sqlite3.Cursor:
    """Rows of the papers that match, in ``order`` (None: any), at most ``limit`` (a cursor: the
    caller converts them one by one, so the query's rows and the papers are never all held).

    ``statuses``: any of these; ``tags`` (casefolded): all of them; ``equal``: (column, value)
    pairs among year, priority, rating and venue_cf; ``words`` (lowercased): each must occur in
    the title, notes or abstract as a substring (a superset of search's whole words: the caller
    scores). Rows hold BRIEF_COLUMNS (``brief``), the :func:`plain_line` (``lines``) or the
    marshalled paper, then the key and,
    with ``words``, the lowercased title, notes and abstract."""
    where: list[str] = []
    params: list = []
    joins = ""
    if statuses is not None:
        statuses = sorted(statuses)
        where.append(f"p.status IN ({','.join('?' * len(statuses))})")
        params += statuses
    for column, value in equal:
        assert column in ("year", "priority", "rating", "venue_cf")
        where.append(f"p.{column} = ?")
        params.append(value)
    tags = sorted(set(tags))
    if tags:
        # the papers of the first tag that have each other one: a look-up per paper of the first
        # tag (not a GROUP BY over every paper of all of them: 9 instead of 17 ms for three tags
        # of 7,000 papers each)
        others = " AND ".join(["EXISTS (SELECT 1 FROM tags WHERE tag = ? AND name = t.name)"] * (len(tags) - 1))
        where.append(f"p.name IN (SELECT t.name FROM tags t WHERE t.tag = ?{' AND ' + others if others else ''})")
        params += tags
    words = list(words)
    columns = "p.line" if lines else BRIEF_COLUMNS if brief else "r.row"
    if not (brief or lines):
        joins += " JOIN rows r ON r.name = p.name"
    columns += ", p.key"
    if words:
        joins += " JOIN texts t ON t.name = p.name"
        columns += ", t.lt, t.ln, t.la"
        for w in words:
            where.append(_WORD_TEST)
            params += [w, w, w]
    sql = f"SELECT {columns} FROM papers p{joins}"
    if where:
        sql += " WHERE " + " AND ".join(where)
    if order is not None:
        sql += " ORDER BY " + ", ".join(term + (" DESC" if reverse else "") for term in SQL_ORDER[order])
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return db.execute(sql, params)


# --------------------------------------------------------------------------- reading rows


class ListedRecord(namedtuple("ListedRecord", "key venue year title tags")):
    """The part of a record the ``list`` table shows (see :class:`Listed`): key, venue, year,
    title and the topic tags. (collections' named tuples: typing's would cost ``list`` its
    import.)"""

    __slots__ = ()


class Listed(namedtuple("Listed", "record status priority rating user_tags")):
    """What the ``list``/``search`` table shows of a paper, read from the cache without
    loading the whole paper: the attributes the table reads, named as on
    :class:`~readinglist.record.Paper` (``record`` holds the record's part, a
    :class:`ListedRecord`): record, status, priority, rating, user_tags."""

    __slots__ = ()

    @property
    def key(self) -> str:
        return self.record.key

    @property
    def tags(self) -> tuple[str, ...]:
        """Topic tags followed by the user's own tags, without repeats (as ``Paper.tags``)."""
        return unique_tags(self.record.tags + self.user_tags) if self.user_tags else self.record.tags

    @classmethod
    def of(cls, p: Paper) -> Listed:
        r = p.record
        return cls(ListedRecord(r.key, r.venue, r.year, r.title, r.tags), p.status, p.priority, p.rating, p.user_tags)


def listed(rows: Iterable[tuple]) -> list[Listed]:
    """:class:`Listed` rows from query rows that start with BRIEF_COLUMNS."""
    new = tuple.__new__
    sep = TAG_SEP
    return [
        new(Listed, (new(ListedRecord, (r[0], r[2], r[3], r[6], tuple(r[7].split(sep)) if r[7] else ())), r[1], r[4], r[5], tuple(r[8].split(sep)) if r[8] else ()))
        for r in rows
    ]  # fmt: skip


def papers_of(rows: Iterable[tuple]) -> list[Paper]:
    """Papers from query rows whose first column is the marshalled paper."""
    from .paperfile import row_to_paper  # (the record dataclasses: not for reading rows)

    loads = marshal.loads
    with gc_paused():
        return [row_to_paper(loads(r[0])) for r in rows]


def rows_by_name(db: sqlite3.Connection, names: list[str], *, brief: bool) -> dict[str, tuple]:
    """name -> the row (BRIEF_COLUMNS, or the marshalled paper) of each of ``names``."""
    columns, joins = (BRIEF_COLUMNS, "") if brief else ("r.row", " JOIN rows r ON r.name = p.name")
    out: dict[str, tuple] = {}
    for i in range(0, len(names), 500):
        part = names[i : i + 500]
        sql = f"SELECT p.name, {columns} FROM papers p{joins} WHERE p.name IN ({','.join('?' * len(part))})"
        for name, *row in db.execute(sql, part):
            out[name] = tuple(row)
    return out


def search_candidates(db: sqlite3.Connection, words: list[str]) -> list[tuple]:
    """(name, key, lowercased title, notes, abstract) of the papers whose texts hold every
    word as a substring (the caller scores whole words)."""
    where = " AND ".join(_WORD_TEST for _ in words)
    sql = f"SELECT t.name, p.key, t.lt, t.ln, t.la FROM texts t JOIN papers p ON p.name = t.name WHERE {where}"
    return db.execute(sql, [w for w in words for _ in range(3)]).fetchall()
