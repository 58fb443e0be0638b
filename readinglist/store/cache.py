"""The store's derived index: every paper file parsed, kept in ``<store>/.cache/``.

The TOML files are the source of truth; this cache only saves parsing them again. Each entry
is remembered with the file's signature ``(inode, size, mtime_ns, ctime_ns)``; a scan stats
every ``papers/*.toml`` file and re-parses (with :mod:`tomllib`) only those whose signature
changed, so a hand edit is always seen. The cache may be deleted at any time.

Like git's index, an entry whose file changed within ``RACY_NS`` of the scan is saved without
a signature, because a second change within the file system's timestamp granularity could
keep size and times equal; it is simply parsed again next time.

The cache file is :mod:`marshal` data (plain tuples, fast to load; it is tied to the Python
version, which is part of its name). A cache that cannot be read is ignored and rebuilt.
"""

from __future__ import annotations

import marshal
import os
import sys
import time
from dataclasses import dataclass, field, fields
from pathlib import Path

from ..errors import StoreError
from ..gc_pause import gc_paused
from ..record import Event, Paper, Person, Record, Source
from .paperfile import parse, read_text

#: The field names of the dataclasses a row holds, in order: part of the cache's identity, so a
#: cache written for other fields is never read (rows are positional, for speed).
SCHEMA = tuple(
    (cls.__name__, tuple(f.name for f in fields(cls))) for cls in (Record, Paper, Person, Source, Event)
)
CACHE_VERSION = (3, SCHEMA)
RACY_NS = 100_000_000  # 0.1 s
CACHE_NAME = f"index-v3-py{sys.version_info[0]}{sys.version_info[1]}.marshal"

Signature = tuple  # (st_ino, st_size, st_mtime_ns, st_ctime_ns)


def signature(st: os.stat_result) -> Signature:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


# --------------------------------------------------------------------------- rows


def paper_to_row(p: Paper, share=None) -> tuple:
    """A paper as plain tuples (what marshal can store). ``share`` (a dict) makes equal short
    values one object, which marshal then stores once and loads once."""
    r = p.record
    one = (lambda v: v) if share is None else (lambda v: share.setdefault(v, v))
    return (
        r.key, r.title, r.abstract, one(r.entry_type), one(r.venue), r.year, r.shorttitle, one(r.tags),
        tuple((a.family, a.given, a.literal) for a in r.authors),
        r.doi, r.url, r.pages, r.fields, one(tuple(sorted(r.generated))),
        tuple((one(s.file), s.paragraph, s.line) for s in r.sources),
        one(p.status), one(tuple((one(e.event), one(e.date)) for e in p.history)), p.notes, one(p.user_tags),
        p.priority, p.rating,
    )  # fmt: skip


def row_to_paper(row: tuple, _sets: dict = {}, _histories: dict = {}) -> Paper:  # noqa: B006 - memos
    """The paper a row describes (the hot loop of loading: kept free of needless calls;
    equal ``generated`` sets and histories, common after an import, are shared)."""
    (key, title, abstract, etype, venue, year, short, tags, authors, doi, url, pages, fields, gen,
     sources, status, history, notes, utags, priority, rating) = row  # fmt: skip
    generated = _sets.get(gen)
    if generated is None:
        generated = _sets[gen] = frozenset(gen)
    if sources:
        sources = (Source(*sources[0]),) if len(sources) == 1 else tuple([Source(*s) for s in sources])
    if history:
        events = _histories.get(history)
        if events is None:
            events = _histories[history] = tuple([Event(*e) for e in history])
        history = events
    if authors:
        authors = tuple([Person(*a) for a in authors])
    record = Record(key, title, abstract, etype, venue, year, short, tags, authors, doi, url, pages, fields, generated, sources)
    return Paper(record, status, history, notes, utags, priority, rating)


# --------------------------------------------------------------------------- the index


@dataclass
class Index:
    """Papers by file name (``"canvit2026.toml"``), their files' signatures, and which file
    holds each key."""

    papers: dict[str, Paper] = field(default_factory=dict)
    sigs: dict[str, Signature | None] = field(default_factory=dict)  # None: not trusted
    by_key: dict[str, str] = field(default_factory=dict)
    temp_files: list[str] = field(default_factory=list)  # leftovers of killed writers
    changes: int = 0  # entries that differ from the cache file on disk
    #: files that do not parse: name -> the one-line error (file:line:col); left out of
    #: ``papers`` and ``sigs`` (so they are read again, and reported, on every scan)
    broken: dict[str, str] = field(default_factory=dict)

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
    """The index saved in the cache (its ``by_key`` left empty), or an empty one when there
    is none or it cannot be read."""
    with gc_paused():
        try:
            from .atomic import read_bounded

            data = read_bounded(cache_dir / CACHE_NAME, limit=2 << 30)  # a regular file only (no FIFO)
            version, names, sigs, keys, rows = marshal.loads(data)
            if version != CACHE_VERSION:
                return Index()
            by_key = dict(zip(keys, names))
            if len(by_key) != len(names):  # a key in two files: let scan() report it
                by_key = {}
            return Index(papers=dict(zip(names, map(row_to_paper, rows))), sigs=dict(zip(names, sigs)), by_key=by_key)
        except (OSError, ValueError, EOFError, TypeError):
            return Index()


def save_cache(cache_dir: Path, index: Index, scan_ns: int) -> None:
    """Write the index to the cache (atomically; a failure to write is ignored: it is a cache)."""
    limit = scan_ns - RACY_NS
    names = tuple(sorted(index.papers))
    sigs = tuple(s if s is not None and s[2] < limit and s[3] < limit else None for s in map(index.sigs.get, names))
    share: dict = {}
    rows = tuple(paper_to_row(index.papers[n], share) for n in names)
    keys = tuple(index.papers[n].key for n in names)
    from .atomic import check_inside, replace_files

    try:
        if os.path.islink(cache_dir):  # a .cache link may lead out of the store: never write there
            return
        cache_dir.mkdir(exist_ok=True)
        check_inside(cache_dir, cache_dir.parent)
        replace_files(cache_dir, {CACHE_NAME: marshal.dumps((CACHE_VERSION, names, sigs, keys, rows))}, inside=cache_dir.parent)
        index.changes = 0
        for old in cache_dir.glob(f"index-v*-py{sys.version_info[0]}{sys.version_info[1]}.marshal"):
            if old.name != CACHE_NAME:  # left by an older readinglist
                old.unlink()
    except OSError:
        pass


def scan(papers_dir: Path, previous: Index, stats: Stats | None = None) -> tuple[Index, int]:
    """Stat every paper file and build the index, re-parsing files whose signature changed.

    ``stats`` is :func:`stat_files`'s result when the caller has it already (see
    :func:`load_and_stat`). Returns the index and the scan's start time (for
    :func:`save_cache`). Raises StoreError for a file that does not parse, and for two files
    that claim the same key.
    """
    with gc_paused():
        return _scan(papers_dir, previous, stats or stat_files(papers_dir))


Stats = tuple  # (signatures by file name, leftover temp files, when the stat pass started)


def stat_files(papers_dir: Path) -> Stats:
    """The signature of every paper file (one ``stat`` each), the temp files killed writers
    left, and the time the pass started."""
    scan_ns = time.time_ns()
    try:
        names = os.listdir(papers_dir)
    except FileNotFoundError:
        names = []
    temp = [n for n in names if n.startswith(".") and n.endswith(".tmp")]
    stat = os.stat
    sigs: dict[str, Signature] = {}
    folder = os.open(papers_dir, os.O_RDONLY) if os.stat in os.supports_dir_fd and names else None
    base = "" if folder is not None else os.fspath(papers_dir) + os.sep
    try:
        for name in names:
            if name.endswith(".toml") and not name.startswith("."):
                try:
                    st = stat(base + name, dir_fd=folder)
                except FileNotFoundError:  # removed while we looked
                    continue
                sigs[name] = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    finally:
        if folder is not None:
            os.close(folder)
    return sigs, temp, scan_ns


#: Below this many files a second process costs more than the stat pass it saves.
FORK_MIN_FILES = 2000


def load_and_stat(cache_dir: Path, papers_dir: Path) -> tuple[Index, Stats]:
    """:func:`load_cache` and :func:`stat_files` at once: on a large store a forked child does
    the stat pass (system calls, ~80 ms for 20,000 files) while this process unmarshals the
    cache (~130 ms), and sends its result back through a pipe. Falls back to doing both here
    where there is no fork, on a small store, or if the child fails in any way."""
    pid = None
    read_end = -1
    if hasattr(os, "fork") and _file_count_hint(cache_dir) >= FORK_MIN_FILES:
        try:
            read_end, write_end = os.pipe()
            pid = os.fork()
        except OSError:
            pid = None
        if pid == 0:  # the child: stat, send, leave without running any cleanup
            code = 1
            try:
                os.close(read_end)
                data = marshal.dumps(stat_files(papers_dir))
                with os.fdopen(write_end, "wb") as out:
                    out.write(data)
                code = 0
            finally:
                os._exit(code)
        if pid is not None:
            os.close(write_end)
    previous = load_cache(cache_dir)
    stats = None
    if pid is not None:
        try:
            with os.fdopen(read_end, "rb") as pipe:
                data = pipe.read()
            _, status = os.waitpid(pid, 0)
            if status == 0:
                stats = marshal.loads(data)
        except (OSError, ValueError, EOFError, TypeError):
            stats = None
    return previous, stats or stat_files(papers_dir)


def _file_count_hint(cache_dir: Path) -> int:
    """How many papers the cache held, from its size (no need to read it): ~1.5 KB a paper."""
    try:
        return (cache_dir / CACHE_NAME).stat().st_size // 1500
    except OSError:
        return 0


def _scan(papers_dir: Path, previous: Index, stats: Stats) -> tuple[Index, int]:
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
        parsed, vanished = parse_files(papers_dir, changed)
    except StoreError:  # one bad file must not hide the others: parse one by one, note the bad
        parsed, vanished = {}, []
        for name in changed:
            try:
                more, lost = _parse_share(papers_dir, [name], None)
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
#: ...and from this many, forked workers share the parsing among the machine's cores.
PARALLEL_MIN_FILES = 2000


def parse_files(papers_dir: Path, names: list[str]) -> tuple[dict[str, Paper], list[str]]:
    """The papers in ``names`` (files in ``papers_dir``), and the names that were not found.

    Many files (a fresh clone, a deleted cache) are parsed with a compiled TOML reader when
    one is installed, and shared among forked workers on a machine with several cores; the
    result is the same as parsing them one by one here, including which error is raised
    first (the first bad file in ``names``' order). A worker that fails in any other way
    leaves its share to this process.
    """
    from .paperfile import compiled_loads

    loads = compiled_loads() if len(names) >= COMPILED_MIN_FILES else None
    workers = _cores() if len(names) >= PARALLEL_MIN_FILES and hasattr(os, "fork") else 1
    if workers < 2:
        return _parse_share(papers_dir, names, loads)
    size = -(-len(names) // workers)
    shares = [names[i : i + size] for i in range(0, len(names), size)]
    children = []
    for share in shares[1:]:
        children.append((share, _fork_parse(papers_dir, share, loads)))
    parsed: dict[str, Paper] = {}
    vanished: list[str] = []
    error = None
    try:
        parsed, vanished = _parse_share(papers_dir, shares[0], loads)
    except StoreError as exc:  # the first share holds the first bad file: report it...
        error = exc
    for share, child in children:  # ...after collecting every worker
        result = _collect(child)
        if error is not None:
            continue
        if result is None:  # the worker failed: parse its share here
            try:
                more, gone = _parse_share(papers_dir, share, loads)
            except StoreError as exc:
                error = exc
                continue
        elif result[0] == "error":
            error = StoreError(result[1])
            continue
        else:
            _, rows_names, rows, gone = result
            with gc_paused():
                more = dict(zip(rows_names, map(row_to_paper, rows)))
        parsed.update(more)
        vanished += gone
    if error is not None:
        raise error
    return parsed, vanished


def _cores() -> int:
    try:
        return min(len(os.sched_getaffinity(0)), 4)
    except (AttributeError, OSError):
        return min(os.cpu_count() or 1, 4)


def _parse_share(papers_dir: Path, names: list[str], loads) -> tuple[dict[str, Paper], list[str]]:
    parsed: dict[str, Paper] = {}
    vanished: list[str] = []
    for name in names:
        path = papers_dir / name
        try:
            parsed[name] = parse(read_text(path), path, loads=loads)
        except FileNotFoundError:
            vanished.append(name)
    return parsed, vanished


def _fork_parse(papers_dir: Path, names: list[str], loads) -> tuple[int, int] | None:
    """A forked worker parsing ``names``: (pid, read end of its pipe), or None if it cannot
    start. It sends marshal data: ("ok", names, rows, vanished) or ("error", message)."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the worker: parse, send, leave without running any cleanup
        code = 1
        try:
            os.close(read_end)
            try:
                with gc_paused():
                    parsed, vanished = _parse_share(papers_dir, names, loads)
                    rows = [paper_to_row(p) for p in parsed.values()]
                data = marshal.dumps(("ok", list(parsed), rows, vanished))
            except StoreError as exc:
                data = marshal.dumps(("error", str(exc)))
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _collect(child: tuple[int, int] | None):
    """What a worker sent, or None if it failed."""
    if child is None:
        return None
    pid, read_end = child
    try:
        with os.fdopen(read_end, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        if status != 0:
            return None
        return marshal.loads(data)
    except (OSError, ValueError, EOFError, TypeError):
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
