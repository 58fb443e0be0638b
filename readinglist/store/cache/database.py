"""The cache's SQLite file: its tables and identity, opening it safely (never through a link,
never a file that is not this version's), the rows written for each paper (:func:`bundle_row`).
"""

from __future__ import annotations


import contextlib
import marshal
import os
import sqlite3
import stat as stat_module
import sys
from collections.abc import Iterable
from pathlib import Path

from ...tagform import tag_key, unique_tags
from ...constants import STATUSES
from ...record import finished_date

from . import files
from .lines import plain_line

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from ...record import Paper


#: The field names of the values a row holds, in order: part of the cache's identity, so a
#: cache written for other fields is never read (rows are positional, for speed). Written out
#: (a test checks it against record.py's ``_fields``): the identity is its marshal data, which
#: a tuple built from the classes would not give byte for byte (every cache made again).
SCHEMA = (
    ("Record", ("key", "title", "abstract", "entry_type", "venue", "year", "shorttitle", "tags", "authors",
                "doi", "url", "pages", "fields", "generated", "sources")),
    ("Paper", ("record", "status", "history", "notes", "user_tags", "priority", "rating")),
    ("Person", ("family", "given", "literal")),
    ("Source", ("file", "paragraph", "line")),
    ("Event", ("event", "date")),
)  # fmt: skip


# --------------------------------------------------------------------------- the SQLite file

#: Bump when the tables change (the schema of the rows is part of the file's identity too).
DB_VERSION = 10  # 6: the tags index holds tagform.tag_key (NFC, case-folded); 7: piped lines escaped by escape_controls;
# 8: papers.finished (stats reads no history); 9: jsonl (list --json); 10: its lines hold every field
#: ``papers`` holds what filters, sorts and the ``list`` table need (narrow rows: listing
#: every paper reads little); ``texts`` the lowercased title, notes and abstract (search);
#: ``rows`` each whole paper (:func:`paper_to_row`, marshalled); ``jsonl`` the line ``list --json``
#: prints of it as UTF-8 (:func:`~.lines.json_line`), made when first printed (:func:`~.query.json_rows`:
#: a clone or an import does not pay for it) and dropped with the paper's row; ``tags`` each
#: paper's tags, casefolded (the --tag filter). All are keyed by the file's name.
SCHEMA_SQL = """
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
    line TEXT NOT NULL,         -- what a piped `list` prints of the paper (plain_line)
    finished TEXT               -- the day a read paper was last finished (record.finished_date)
) WITHOUT ROWID;
CREATE INDEX papers_key ON papers(key);
CREATE TABLE texts (name TEXT PRIMARY KEY, lt TEXT NOT NULL, ln TEXT NOT NULL, la TEXT NOT NULL);
CREATE TABLE rows (name TEXT PRIMARY KEY, row BLOB NOT NULL);
CREATE TABLE jsonl (name TEXT PRIMARY KEY, line BLOB NOT NULL);
CREATE TABLE tags (tag TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (tag, name)) WITHOUT ROWID;
CREATE INDEX tags_name ON tags(name);
"""
#: The tags column's separator (tags are printable: never in a tag).
TAG_SEP = "\x1f"
CACHE_NAME = f"index-v{DB_VERSION}-py{sys.version_info[0]}{sys.version_info[1]}.sqlite"
IDENTITY = marshal.dumps((DB_VERSION, SCHEMA, SCHEMA_SQL))


#: How long a reader waits for another process's lock on the cache before it does without it
#: (its rows in memory, parsed from the files): the cache is derived data, and a reader never
#: waits long on a lock it does not need. A writer (an import) waits WRITER_WAIT_SECONDS.
READER_WAIT_SECONDS = 1.0
WRITER_WAIT_SECONDS = 30.0


def locked(exc: sqlite3.Error) -> bool:
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
            from ..atomic import check_inside

            cache_dir.mkdir(exist_ok=True)
            check_inside(cache_dir, cache_dir.parent)
            remove_old(cache_dir)
    except OSError:
        return None
    for attempt in (1, 2):
        try:
            db = sqlite3.connect(path, timeout=wait, isolation_level=None, check_same_thread=False)
        except sqlite3.Error:
            return None
        try:
            if ready(db, create):
                return db
            db.close()
            return None
        except sqlite3.Error as exc:
            db.close()
            if attempt == 2 or not create or locked(exc):  # (never removes a cache in use)
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


def identity(db: sqlite3.Connection) -> bytes | None:
    if not db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone():
        return None
    row = db.execute("SELECT v FROM meta WHERE k='identity'").fetchone()
    return row[0] if row is not None else None


def ready(db: sqlite3.Connection, create: bool) -> bool:
    """Whether ``db`` is a current cache, making its tables in an empty or outdated file
    (sqlite3.Error when the file is not a database)."""
    db.execute("PRAGMA synchronous=OFF")  # a cache: a crash may lose it, never the store
    if current(db):
        use_wal(db)  # (a cache another process made and filled: an import's, see _use_wal)
        return True
    if not create:
        return False
    db.execute("BEGIN IMMEDIATE")
    try:
        if current(db):  # another process made it meanwhile
            db.execute("COMMIT")
            return True
        if db.execute("SELECT 1 FROM sqlite_master").fetchone():  # another version's tables
            raise sqlite3.DatabaseError("not this version's cache")  # removed and made again
        create_schema(db)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    # A new cache stays in rollback-journal mode until it is filled (see _use_wal).
    return True


#: The statements that make this version's tables, as SQLite keeps them in sqlite_master.
STATEMENTS = frozenset(" ".join(st.split()) for st in SCHEMA_SQL.split(";\n") if st.strip())


def current(db: sqlite3.Connection) -> bool:
    """Whether ``db`` is this version's cache: its identity, and the tables it really has (a
    file whose tables were changed under the same identity is not: its queries would fail)."""
    if identity(db) != IDENTITY:
        return False
    made = {" ".join(sql.split()) for (sql,) in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")}
    return made == STATEMENTS


def use_wal(db: sqlite3.Connection) -> None:
    """Put the cache in WAL mode (readers never wait for a writer) once it has been filled: a
    new cache's first fill, often every paper of a fresh clone, is written once in rollback
    mode (a new file's pages need no journal) instead of to the WAL and then again to the file
    (measured: a third less time for 20,000 papers). Called after a fill, and by every process
    that opens an existing cache."""
    with contextlib.suppress(sqlite3.Error):
        if db.execute("PRAGMA journal_mode").fetchone()[0] not in ("wal", "memory"):
            db.execute("PRAGMA journal_mode=WAL")


def create_schema(db: sqlite3.Connection) -> None:
    for statement in SCHEMA_SQL.split(";\n"):  # not executescript: it would commit first
        if statement.strip():
            db.execute(statement)
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("identity", IDENTITY), ("sigs", marshal.dumps({})), ("digest", files.digest({}))])


def memory_db() -> sqlite3.Connection:
    """A cache that lives in this process only (the store's cannot be written)."""
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    create_schema(db)
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


def remove_old(cache_dir: Path) -> None:
    """Cache files older readinglists left (only called when .cache is no link)."""
    for old in cache_dir.glob("index-v*"):
        if not old.name.startswith(CACHE_NAME) and not old.is_symlink():
            with contextlib.suppress(OSError):
                old.unlink()


def meta(db: sqlite3.Connection, k: str):
    row = db.execute("SELECT v FROM meta WHERE k = ?", (k,)).fetchone()
    return row[0] if row is not None else None


def remembered_listing(db: sqlite3.Connection) -> files.Listing | None:
    """The listing of the papers folder a scan remembered (see :func:`list_folder`), if any."""
    try:
        data = meta(db, LISTING)
        listing = marshal.loads(data) if data is not None else None
    except (sqlite3.Error, ValueError, EOFError, TypeError):
        return None
    if isinstance(listing, tuple) and len(listing) == 3 and isinstance(listing[1], list) and isinstance(listing[2], list):
        return listing
    return None


LISTING = "listing-v1"  # the meta key (a listing of another shape has another name)


def remember_listing(db: sqlite3.Connection, listing: files.Listing) -> None:
    """Keep ``listing`` for the next scan, unless another process is writing the cache now (a
    read never waits for a write it does not need; the next scan will remember it)."""
    try:
        wait = db.execute("PRAGMA busy_timeout").fetchone()[0]
        db.execute("PRAGMA busy_timeout=0")
        try:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (LISTING, marshal.dumps(listing)))
        finally:
            db.execute(f"PRAGMA busy_timeout={int(wait)}")
    except sqlite3.OperationalError:
        pass


#: What decoding a damaged cache's content raises (marshal data that is not, rows of another shape)
DAMAGED = (ValueError, EOFError, TypeError, IndexError, KeyError)


def stored_sigs(db: sqlite3.Connection) -> dict[str, files.Signature | None]:
    """The signature of every file the cache holds (None: parse it again); none when what is
    stored is not such a table (a damaged cache: every file is parsed again)."""
    data = meta(db, "sigs")
    try:
        sigs = marshal.loads(data) if data is not None else {}
    except DAMAGED:
        return {}
    return sigs if isinstance(sigs, dict) else {}


def write_rows(db: sqlite3.Connection, changed: list[tuple[str, tuple]], gone: Iterable[str], sigs: dict, stored: Iterable[str]) -> None:
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
        for table in ("papers", "texts", "rows", "jsonl", "tags"):
            db.executemany(f"DELETE FROM {table} WHERE name = ?", drop)
    if changed:
        db.executemany("INSERT INTO papers VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [b[0] for _, b in changed])
        db.executemany("INSERT INTO texts VALUES (?,?,?,?)", [b[1] for _, b in changed])
        db.executemany("INSERT INTO rows VALUES (?,?)", [(n, b[2]) for n, b in changed])
        db.executemany("INSERT OR IGNORE INTO tags VALUES (?, ?)", [(t, n) for n, b in changed for t in b[3]])


def put_sigs(db: sqlite3.Connection, sigs: dict) -> None:
    """Store the signature of every file the cache holds rows for (inside the caller's
    transaction); nothing is written when the table stored holds the same signatures, compared
    as values (marshal's bytes of two equal tables differ with which strings are shared or
    interned), so a transaction that changed nothing leaves the cache's file as it was."""
    data = meta(db, "sigs")
    if data is not None:
        with contextlib.suppress(*DAMAGED):
            if marshal.loads(data) == sigs:
                return
    db.executemany("UPDATE meta SET v = ? WHERE k = ?", [(marshal.dumps(sigs), "sigs"), (files.digest(sigs), "digest")])


def bundle(name: str, p: Paper) -> tuple:
    """Everything the cache stores of the paper in file ``name`` (see :func:`bundle_row`)."""
    from ..paperfile import paper_to_row

    return bundle_row(name, paper_to_row(p))


STATUS_IX = {s: i for i, s in enumerate(STATUSES)}


def bundle_row(name: str, row: tuple) -> tuple:
    """Everything the cache stores of the paper in file ``name``, from its row (marshal data,
    so that forked parsers make it): its ``papers`` row, its ``texts`` row, the marshalled
    row, its tags."""
    (key, title, abstract, _, venue, year, _, tags, _, _, _, _, _, _,
     _, status, history, notes, utags, priority, rating) = row  # fmt: skip
    return (
        (
            name, key, status, STATUS_IX.get(status, len(STATUSES)), venue, (venue or "").casefold(),
            (venue or "\uffff").casefold(), year, priority, rating, title, title.casefold(),
            history[0][1] if history else "", history[-1][1] if history else "",
            TAG_SEP.join(tags), TAG_SEP.join(utags),
            plain_line(key, status, venue, year, unique_tags(tags + utags) if utags else tags, title),
            finished_date(status, history),
        ),
        (name, title.lower(), notes.lower(), abstract.lower()),
        marshal.dumps(row),
        list(dict.fromkeys([tag_key(t) for t in tags + utags])),
    )  # fmt: skip
