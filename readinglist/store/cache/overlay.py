"""A transaction's view of the cache: the cache's rows with the papers the transaction changed
(not written yet) put over them, so that a query inside a transaction runs the same SQL
(:mod:`.query`) as one outside, and sees the transaction's own changes.

The changed papers' rows live in TEMP tables of the transaction's connection, never in the
cache's file (which only ever holds what the files say); TEMP views named as the cache's tables
(SQLite looks an unqualified name up in ``temp`` first) show the cache's rows of every other
file and the transaction's rows. Nothing of it outlives the connection.
"""

from __future__ import annotations

import sqlite3

#: The tables a paper's rows are in (see :func:`~.database.bundle_row`), but ``jsonl``.
STAGED_TABLES = ("papers", "texts", "rows", "tags")


def _statements() -> list[str]:
    out = [
        "PRAGMA temp_store=MEMORY",
        "CREATE TEMP TABLE staged (name TEXT PRIMARY KEY)",  # every file the transaction changed or removed
    ]
    for t in STAGED_TABLES:
        out += [
            f"CREATE TEMP TABLE staged_{t} AS SELECT * FROM main.{t} WHERE 0",
            f"CREATE INDEX temp.staged_{t}_name ON staged_{t}(name)",
            f"CREATE TEMP VIEW {t} AS SELECT * FROM main.{t} WHERE name NOT IN temp.staged UNION ALL SELECT * FROM temp.staged_{t}",
        ]
    # the JSON lines kept for unchanged papers (a changed one's is made from its row when asked
    # for); a line made inside a transaction is not kept (see query.make_json)
    out += [
        "CREATE TEMP VIEW jsonl AS SELECT * FROM main.jsonl WHERE name NOT IN temp.staged",
        "CREATE TEMP TRIGGER drop_jsonl INSTEAD OF INSERT ON jsonl BEGIN SELECT 1; END",
    ]
    return out


def install(db: sqlite3.Connection) -> None:
    """Make ``db`` (the cache, brought up to date with the files) a transaction's view: until it
    is closed, its queries see what :func:`put` staged instead of the cache's rows of those files."""
    for statement in _statements():
        db.execute(statement)


def put(db: sqlite3.Connection, name: str, bundle: tuple | None) -> None:
    """File ``name`` now holds the paper whose rows are ``bundle`` (:func:`~.database.bundle`;
    None: the file is removed), in the view :func:`install` made of ``db``."""
    db.execute("INSERT OR IGNORE INTO temp.staged VALUES (?)", (name,))
    for t in STAGED_TABLES:
        db.execute(f"DELETE FROM temp.staged_{t} WHERE name = ?", (name,))
    if bundle is not None:
        papers, texts, row, tags = bundle
        db.execute(f"INSERT INTO temp.staged_papers VALUES ({','.join('?' * len(papers))})", papers)
        db.execute("INSERT INTO temp.staged_texts VALUES (?,?,?,?)", texts)
        db.execute("INSERT INTO temp.staged_rows VALUES (?,?)", (name, row))
        db.executemany("INSERT INTO temp.staged_tags VALUES (?,?)", [(t, name) for t in tags])


def staged(db: sqlite3.Connection) -> set[str]:
    """The files the view's transaction changed or removed."""
    return {name for (name,) in db.execute("SELECT name FROM temp.staged")}
