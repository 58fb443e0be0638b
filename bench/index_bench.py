"""The marshalled index against SQLite (stdlib sqlite3, FTS5 for search) as the derived cache.

The prototype comparison that chose the SQLite cache (store/cache.py since then). Its "marshal"
column times ``cache.load_cache`` (the marshalled blob when it was written; the SQLite file's
load-all now): run it on a checkout from before the SQLite cache to repeat the comparison, and
``bench/cli_bench.py --sizes 5000,20000,50000 --variant before=SRC`` for the commands themselves.

Measures, in this process and on the same N-paper store (a store bench/cli_bench.py made, or
any store: --store), the work a command does with the index once the files were stat'ed:

  load-all     every paper as a Paper (list, export)
  signatures   the file signatures only (what the freshness check compares with the stat pass)
  tag-big      papers with tag llm (a large result), as Papers
  tag-small    papers with tags llm, robotics and speech (a small result), as Papers
  search       "sparse attention": today's substring scorer over every paper; FTS5 with bm25
  update-one   write one changed paper back to the cache (a mark or a note)

SQLite holds one row per paper file: its signature, the filter columns (status, venue, year,
priority, rating, key), the marshalled paper row (as today's cache has it), a tag table with
an index, and an FTS5 table over title, notes and abstract. Medians of --runs; the ratio column
is SQLite's time over marshal's. Usage::

    python bench/index_bench.py [--store DIR] [--papers 50000] [--runs 5]
"""

from __future__ import annotations

import argparse
import marshal
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def timed(fn, runs: int) -> tuple[float, object]:
    out, times = None, []
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def build_sqlite(path: Path, index) -> None:
    from readinglist.store.cache import paper_to_row

    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.executescript(
        """
        PRAGMA journal_mode=WAL;
        CREATE TABLE papers (name TEXT PRIMARY KEY, ino INT, size INT, mtime INT, ctime INT, key TEXT, status TEXT,
                             venue TEXT, year INT, priority INT, rating INT, row BLOB);
        CREATE TABLE tags (name TEXT, tag TEXT);
        CREATE INDEX tags_by_tag ON tags(tag);
        CREATE VIRTUAL TABLE texts USING fts5(name UNINDEXED, title, notes, abstract);
        """
    )
    rows, tags, texts = [], [], []
    for name, paper in index.papers.items():
        sig = index.sigs.get(name) or (None, None, None, None)
        r = paper.record
        rows.append((name, *sig, r.key, paper.status, (r.venue or "").casefold(), r.year, paper.priority, paper.rating,
                     marshal.dumps(paper_to_row(paper))))  # fmt: skip
        tags += [(name, t.casefold()) for t in dict.fromkeys(r.tags + paper.user_tags)]
        texts.append((name, r.title, paper.notes, r.abstract))
    with db:
        db.executemany("INSERT INTO papers VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        db.executemany("INSERT INTO tags VALUES (?,?)", tags)
        db.executemany("INSERT INTO texts VALUES (?,?,?,?)", texts)
    db.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", type=Path, default=None)
    ap.add_argument("--papers", type=int, default=50_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()

    from readinglist.store import Store, cache
    from readinglist.store.cache import row_to_paper
    from readinglist.store.library import _matcher

    store_dir = args.store or Path(tempfile.gettempdir()) / "readinglist-cli-bench" / f"store-{args.papers}"
    if not (store_dir / "papers").is_dir():
        from cli_bench import make_store

        make_store(store_dir, args.papers)
    store = Store.open(store_dir, create=False)
    index = store._load_index()  # warm: the marshalled cache is current
    cache_dir = store.cache_dir
    n = len(index.papers)
    db_path = Path(tempfile.mkdtemp(prefix="index-bench-")) / "index.sqlite"
    t = time.perf_counter()
    build_sqlite(db_path, index)
    print(f"{n:,} papers; SQLite index built in {time.perf_counter() - t:.1f} s "
          f"({db_path.stat().st_size / 1e6:.0f} MB; marshal cache {(cache_dir / cache.CACHE_NAME).stat().st_size / 1e6:.0f} MB)")  # fmt: skip

    def marshal_all():
        return cache.load_cache(cache_dir)

    def marshal_filter(wanted):
        idx = cache.load_cache(cache_dir)
        return [p for p in idx.papers.values() if wanted <= {t.casefold() for t in p.tags}]

    def marshal_search():
        idx = cache.load_cache(cache_dir)
        score = _matcher("sparse attention")
        hits = [(p, s) for p in idx.papers.values() if (s := score(p)) > 0]
        hits.sort(key=lambda ps: (-ps[1], ps[0].key))
        return hits[:20]

    def marshal_update():
        idx = cache.load_cache(cache_dir)
        cache.save_cache(cache_dir, idx, time.time_ns())

    def sql(query, params=()):
        db = sqlite3.connect(db_path)
        try:
            return db.execute(query, params).fetchall()
        finally:
            db.close()

    def sqlite_all():
        return [row_to_paper(marshal.loads(row)) for (row,) in sql("SELECT row FROM papers")]

    def sqlite_sigs():
        return {name: sig for name, *sig in sql("SELECT name, ino, size, mtime, ctime FROM papers")}

    def sqlite_filter(wanted):
        q = " INTERSECT ".join("SELECT name FROM tags WHERE tag = ?" for _ in wanted)
        return [row_to_paper(marshal.loads(row)) for (row,) in sql(f"SELECT row FROM papers WHERE name IN ({q})", tuple(wanted))]

    def sqlite_search():
        rows = sql("SELECT p.row FROM texts JOIN papers p ON p.name = texts.name WHERE texts MATCH ? ORDER BY bm25(texts, 3.0, 2.0, 1.0) LIMIT 20",
                   ('"sparse" AND "attention"',))  # fmt: skip
        return [row_to_paper(marshal.loads(row)) for (row,) in rows]

    name = next(iter(index.papers))
    paper = index.papers[name]

    def sqlite_update():
        from readinglist.store.cache import paper_to_row

        db = sqlite3.connect(db_path)
        with db:
            db.execute("UPDATE papers SET status = ?, row = ? WHERE name = ?", ("read", marshal.dumps(paper_to_row(paper.evolve(status="read"))), name))
        db.close()

    big, small = {"llm"}, {"llm", "robotics", "speech"}
    cases = [
        ("load-all", marshal_all, sqlite_all),
        ("signatures", marshal_all, sqlite_sigs),
        ("tag-big", lambda: marshal_filter(big), lambda: sqlite_filter(big)),
        ("tag-small", lambda: marshal_filter(small), lambda: sqlite_filter(small)),
        ("search", marshal_search, sqlite_search),
        ("update-one", marshal_update, sqlite_update),
    ]
    print(f"{'operation':12} {'marshal ms':>11} {'sqlite ms':>10} {'sqlite/marshal':>15} {'results':>9}")
    for label, a, b in cases:
        ta, ra = timed(a, args.runs)
        tb, rb = timed(b, args.runs)
        count = len(rb) if isinstance(rb, (list, dict)) else ""
        print(f"{label:12} {ta * 1e3:11.0f} {tb * 1e3:10.0f} {tb / ta:15.2f} {count:>9}")
    os.unlink(db_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
