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
from dataclasses import dataclass, field
from pathlib import Path

from .record import Event, Paper, Person, Record, Source
from .storefile import parse, read_text

CACHE_VERSION = 1
RACY_NS = 100_000_000  # 0.1 s
CACHE_NAME = f"index-v{CACHE_VERSION}-py{sys.version_info[0]}{sys.version_info[1]}.marshal"

Signature = tuple  # (st_ino, st_size, st_mtime_ns, st_ctime_ns)


def signature(st: os.stat_result) -> Signature:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


# --------------------------------------------------------------------------- rows


def paper_to_row(p: Paper) -> tuple:
    """A paper as plain tuples (what marshal can store)."""
    r = p.record
    return (
        r.key, r.title, r.abstract, r.entry_type, r.venue, r.year, r.shorttitle, r.tags,
        tuple((a.family, a.given, a.literal) for a in r.authors),
        r.doi, r.url, r.pages, r.fields, tuple(sorted(r.generated)),
        tuple((s.file, s.paragraph, s.line) for s in r.sources),
        p.status, tuple((e.event, e.date) for e in p.history), p.notes, p.user_tags, p.priority, p.rating,
    )  # fmt: skip


def row_to_paper(row: tuple) -> Paper:
    (key, title, abstract, etype, venue, year, short, tags, authors, doi, url, pages, fields, gen,
     sources, status, history, notes, utags, priority, rating) = row  # fmt: skip
    record = Record(
        key, title, abstract, etype, venue, year, short, tags,
        tuple([Person(*a) for a in authors]) if authors else (),
        doi, url, pages, fields, frozenset(gen),
        tuple([Source(*s) for s in sources]) if sources else (),
    )  # fmt: skip
    return Paper(record, status, tuple([Event(*e) for e in history]) if history else (), notes, utags, priority, rating)


# --------------------------------------------------------------------------- the index


@dataclass
class Entry:
    sig: Signature | None  # None: not trusted (racy, or not yet written)
    paper: Paper


@dataclass
class Index:
    """Papers by file name (``"canvit2026.toml"``), and which file holds each key."""

    entries: dict[str, Entry] = field(default_factory=dict)
    by_key: dict[str, str] = field(default_factory=dict)
    temp_files: list[str] = field(default_factory=list)  # leftovers of killed writers
    changes: int = 0  # entries that differ from the cache file on disk

    def paper(self, name: str) -> Paper:
        return self.entries[name].paper

    def put(self, name: str, paper: Paper | None, sig: Signature | None = None) -> None:
        """Record that file ``name`` now holds ``paper`` (None: the file is gone)."""
        old = self.entries.pop(name, None)
        if old is not None and self.by_key.get(old.paper.key) == name:
            del self.by_key[old.paper.key]
        if paper is not None:
            self.entries[name] = Entry(sig, paper)
            self.by_key[paper.key] = name
        self.changes += 1


def load_cache(cache_dir: Path) -> dict[str, Entry]:
    """The entries saved in the cache, or {} when there is none or it cannot be read."""
    try:
        data = (cache_dir / CACHE_NAME).read_bytes()
        version, rows = marshal.loads(data)
        if version != CACHE_VERSION:
            return {}
        return {name: Entry(sig, row_to_paper(row)) for name, sig, row in rows}
    except (OSError, ValueError, EOFError, TypeError):
        return {}


def save_cache(cache_dir: Path, index: Index, scan_ns: int) -> None:
    """Write the index to the cache (atomically; a failure to write is ignored: it is a cache)."""
    limit = scan_ns - RACY_NS
    rows = [
        (name, e.sig if e.sig is not None and e.sig[2] < limit and e.sig[3] < limit else None, paper_to_row(e.paper))
        for name, e in sorted(index.entries.items())
    ]
    try:
        cache_dir.mkdir(exist_ok=True)
        tmp = cache_dir / f".{CACHE_NAME}.{os.getpid()}.tmp"
        tmp.write_bytes(marshal.dumps((CACHE_VERSION, rows)))
        os.replace(tmp, cache_dir / CACHE_NAME)
        index.changes = 0
    except OSError:
        pass


def scan(papers_dir: Path, previous: dict[str, Entry]) -> tuple[Index, int]:
    """Stat every paper file and build the index, re-parsing files whose signature changed.

    Returns the index and the scan's start time (for :func:`save_cache`). Raises StoreError
    for a file that does not parse, and for two files that claim the same key.
    """
    from .errors import StoreError

    scan_ns = time.time_ns()
    index = Index()
    entries = index.entries
    try:
        names = os.listdir(papers_dir)
    except FileNotFoundError:
        names = []
    join = os.path.join
    base = os.fspath(papers_dir)
    stat = os.stat
    for name in names:
        if not name.endswith(".toml") or name.startswith("."):
            if name.startswith(".") and name.endswith(".tmp"):
                index.temp_files.append(name)
            continue
        try:
            sig = signature(stat(join(base, name)))
        except FileNotFoundError:  # removed while we looked
            continue
        old = previous.get(name)
        if old is not None and old.sig == sig:
            entries[name] = old
            continue
        path = papers_dir / name
        try:
            paper = parse(read_text(path), path)
        except FileNotFoundError:
            continue
        entries[name] = Entry(sig, paper)
        index.changes += 1
    index.changes += sum(1 for name in previous if name not in entries)
    by_key = index.by_key
    for name, entry in entries.items():
        key = entry.paper.key
        other = by_key.get(key)
        if other is not None:
            first, second = sorted((other, name))
            raise StoreError(
                f"{papers_dir / first} and {papers_dir / second} both have key {key!r}; change the key in one of them"
            )
        by_key[key] = name
    return index, scan_ns
