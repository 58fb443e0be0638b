"""The queries on the cache: the filters and sorts of ``find`` in SQL (:func:`select`), the rows
the ``list`` table reads (:class:`Listed`), the groups ``stats`` counts (:func:`tally`), whole
papers, search candidates.
"""

from __future__ import annotations


import marshal
import sqlite3
from collections.abc import Iterable
from collections import namedtuple

from ...record import PaperTags
from ...gc_pause import gc_paused

from . import database

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from ...record import Paper


# --------------------------------------------------------------------------- queries

#: Each sort order over the ``papers`` columns (every order ends with the key, so reversing it
#: reverses the list): "priority" puts 1 first, "rating" the best first, unset values last.
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
BRIEF_COLUMNS = "p.key, p.status, p.venue, p.year, p.priority, p.rating, p.title, p.tags, p.utags, p.finished"
WORD_TEST = "(instr(t.lt, ?) OR instr(t.ln, ?) OR instr(t.la, ?))"


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
    json: bool = False,
) -> sqlite3.Cursor:
    """Rows of the papers that match, in ``order`` (None: any), at most ``limit`` (a cursor: the
    caller converts them one by one, so the query's rows and the papers are never all held).

    ``statuses``: any of these; ``tags`` (casefolded): all of them; ``equal``: (column, value)
    pairs among year, priority, rating and venue_cf; ``words`` (lowercased): each must occur in
    the title, notes or abstract as a substring (a superset of search's whole words: the caller
    scores). Rows hold BRIEF_COLUMNS (``brief``), the :func:`plain_line` (``lines``), the
    the name and the :func:`json_line` as UTF-8 or None (``json``: see :func:`json_rows`) or the
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
        # tag (not a GROUP BY over every paper of all of them, about twice as slow for a few
        # large tags)
        others = " AND ".join(["EXISTS (SELECT 1 FROM tags WHERE tag = ? AND name = t.name)"] * (len(tags) - 1))
        where.append(f"p.name IN (SELECT t.name FROM tags t WHERE t.tag = ?{' AND ' + others if others else ''})")
        params += tags
    words = list(words)
    columns = "p.line" if lines else "p.name, j.line" if json else BRIEF_COLUMNS if brief else "r.row"
    if json:
        joins += " LEFT JOIN jsonl j ON j.name = p.name"
    elif not (brief or lines):
        joins += " JOIN rows r ON r.name = p.name"
    columns += ", p.key"
    if words:
        joins += " JOIN texts t ON t.name = p.name"
        columns += ", t.lt, t.ln, t.la"
        for w in words:
            where.append(WORD_TEST)
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


class Listed(PaperTags, namedtuple("Listed", "record status priority rating user_tags finished")):
    """What the ``list``/``search`` table shows of a paper, read from the cache
    without loading the whole paper: the attributes they read, named as on
    :class:`~readinglist.record.Paper` (``record`` holds the record's part, a
    :class:`ListedRecord`): record, status, priority, rating, user_tags, finished."""

    __slots__ = ()

    @classmethod
    def of(cls, p: Paper) -> Listed:
        r = p.record
        return cls(ListedRecord(r.key, r.venue, r.year, r.title, r.tags), p.status, p.priority, p.rating, p.user_tags, p.finished)


def listed(rows: Iterable[tuple]) -> list[Listed]:
    """:class:`Listed` rows from query rows that start with BRIEF_COLUMNS."""
    new = tuple.__new__
    sep = database.TAG_SEP
    split: dict[str, tuple[str, ...]] = {"": ()}  # papers share their tags: each column split once

    def tags(column: str) -> tuple[str, ...]:
        found = split.get(column)
        if found is None:
            found = split[column] = tuple(column.split(sep))
        return found

    return [
        new(Listed, (new(ListedRecord, (r[0], r[2], r[3], r[6], tags(r[7]))), r[1], r[4], r[5], tags(r[8]), r[9]))
        for r in rows
    ]  # fmt: skip


#: What ``stats`` reads of a paper (:class:`~readinglist.stats.Alike`), grouped: a row per group
#: with its count, in the order of each group's first key.
TALLY_SQL = (
    "SELECT status, venue, year, tags, utags, finished, count(*), min(key) AS first FROM papers"
    " GROUP BY status, venue, year, tags, utags, finished ORDER BY first"
)


def tally(db: sqlite3.Connection) -> list:
    """Every paper counted in :class:`~readinglist.stats.Alike` groups, by SQL (no value is
    built per paper): what :func:`~readinglist.stats.alike` makes of the papers sorted by key."""
    from ...stats import Alike

    new = tuple.__new__
    sep = database.TAG_SEP
    split: dict[str, tuple[str, ...]] = {"": ()}

    def tags(column: str) -> tuple[str, ...]:
        found = split.get(column)
        if found is None:
            found = split[column] = tuple(column.split(sep))
        return found

    return [new(Alike, (s, v, y, tags(t), tags(u), f, n)) for s, v, y, t, u, f, n, _ in db.execute(TALLY_SQL)]


def papers_of(rows: Iterable[tuple]) -> list[Paper]:
    """Papers from query rows whose first column is the marshalled paper."""
    from ..paperfile import row_to_paper

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


def json_rows(db: sqlite3.Connection, rows: Iterable[tuple]) -> list[bytes]:
    """The JSON line (UTF-8) of each of ``rows`` (``select(json=True)``'s: name, line or None):
    a line the cache does not hold yet (the paper was written since its line was last printed)
    is made from the paper's row (:func:`~.lines.json_line`) and kept, unless another process is
    writing the cache now (a read never waits for a write it does not need)."""
    out: list[bytes] = []
    missing: dict[str, int] = {}
    for name, line, *_ in rows:
        if line is None:
            missing[name] = len(out)
        out.append(line)
    if missing:
        for name, line in make_json(db, list(missing)).items():
            out[missing[name]] = line
    return [line for line in out if line is not None]  # (None: removed meanwhile)


def make_json(db: sqlite3.Connection, names: list[str]) -> dict[str, bytes]:
    """name -> the JSON line of the paper in each file of ``names``, kept in the cache when it
    can be written at once (read and written in one transaction: a writer that changes a
    paper's row drops its line in its own)."""
    from ..paperfile import row_to_paper
    from .lines import json_line

    try:
        db.execute("PRAGMA busy_timeout=0")
        db.execute("BEGIN IMMEDIATE")
        keep = True
    except sqlite3.OperationalError:
        keep = False
    try:
        loads = marshal.loads
        with gc_paused():
            made = {name: json_line(row_to_paper(loads(row[0]))).encode() for name, row in rows_by_name(db, names, brief=False).items()}
        if keep:
            db.executemany("INSERT OR REPLACE INTO jsonl VALUES (?, ?)", made.items())
            db.execute("COMMIT")
            keep = False
    finally:
        if keep:
            db.execute("ROLLBACK")
    return made


def search_candidates(db: sqlite3.Connection, words: list[str]) -> list[tuple]:
    """(name, key, lowercased title, notes, abstract) of the papers whose texts hold every
    word as a substring (the caller scores whole words)."""
    where = " AND ".join(WORD_TEST for _ in words)
    sql = f"SELECT t.name, p.key, t.lt, t.ln, t.la FROM texts t JOIN papers p ON p.name = t.name WHERE {where}"
    return db.execute(sql, [w for w in words for _ in range(3)]).fetchall()
