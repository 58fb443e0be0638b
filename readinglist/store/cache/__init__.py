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
workers when there are many (:func:`_parsed_parts`).

The package: :mod:`.files` (the stat pass), :mod:`.database` (the SQLite file and the rows
written for each paper), :mod:`.bulk` (the bulk read of paper files), :mod:`.update`
(:func:`sync`: the cache brought up to date, the one way there is), :mod:`.query` (the queries),
:mod:`.overlay` (a transaction's view: its changes put over the cache, for the same queries),
:mod:`.lines` (what the reading commands print of each paper, kept with its row). Its names are
this package's too.
"""

from __future__ import annotations

from .files import (  # noqa: F401
    RACY_NS as RACY_NS,
    Signature as Signature,
    signature as signature,
    Stats as Stats,
    stat_files as stat_files,
    Scan as Scan,
    Listing as Listing,
    list_folder as list_folder,
    PART as PART,
    read_exactly as read_exactly,
    stat_names as stat_names,
    odd as odd,
    FORK_MIN_FILES as FORK_MIN_FILES,
    digest as digest,
    digest_part as digest_part,
    combined as combined,
    collect_marshalled as collect_marshalled,
)
from .database import (  # noqa: F401
    SCHEMA as SCHEMA,
    DB_VERSION as DB_VERSION,
    SCHEMA_SQL as SCHEMA_SQL,
    TAG_SEP as TAG_SEP,
    CACHE_NAME as CACHE_NAME,
    IDENTITY as IDENTITY,
    READER_WAIT_SECONDS as READER_WAIT_SECONDS,
    WRITER_WAIT_SECONDS as WRITER_WAIT_SECONDS,
    locked as locked,
    connect as connect,
    remove_database as remove_database,
    identity as identity,
    ready as ready,
    STATEMENTS as STATEMENTS,
    current as current,
    use_wal as use_wal,
    create_schema as create_schema,
    memory_db as memory_db,
    remove as remove,
    remove_old as remove_old,
    meta as meta,
    remembered_listing as remembered_listing,
    LISTING as LISTING,
    remember_listing as remember_listing,
    DAMAGED as DAMAGED,
    stored_sigs as stored_sigs,
    write_rows as write_rows,
    put_rows as put_rows,
    put_sigs as put_sigs,
    bundle as bundle,
    STATUS_IX as STATUS_IX,
    bundle_row as bundle_row,
)
from .lines import (  # noqa: F401
    LINE_CONTROLS as LINE_CONTROLS,
    plain_line as plain_line,
    plain_line_of as plain_line_of,
    paper_json as paper_json,
    json_text as json_text,
    json_line as json_line,
)
from .bulk import (  # noqa: F401
    COMPILED_MIN_FILES as COMPILED_MIN_FILES,
    MAX_WORKERS as MAX_WORKERS,
    PARALLEL_MIN_FILES as PARALLEL_MIN_FILES,
    parse_files as parse_files,
    converted as converted,
    parse_share as parse_share,
    fork_parse as fork_parse,
    PARSE_US as PARSE_US,
    WORKER_PARSE_US as WORKER_PARSE_US,
    WRITE_US as WRITE_US,
    LOAD_US as LOAD_US,
    FIXED_US as FIXED_US,
    STREAM_CHUNK as STREAM_CHUNK,
    parsed_parts as parsed_parts,
    fork_stream as fork_stream,
    received as received,
    bundles as bundles,
)
from .update import (  # noqa: F401
    Synced as Synced,
    sync as sync,
    update_rows as update_rows,
    write_part as write_part,
    check_keys as check_keys,
)
from .query import (  # noqa: F401
    SQL_ORDER as SQL_ORDER,
    BRIEF_COLUMNS as BRIEF_COLUMNS,
    WORD_TEST as WORD_TEST,
    select as select,
    ListedRecord as ListedRecord,
    Listed as Listed,
    listed as listed,
    TALLY_SQL as TALLY_SQL,
    tally as tally,
    papers_of as papers_of,
    rows_by_name as rows_by_name,
    search_candidates as search_candidates,
    json_rows as json_rows,
    make_json as make_json,
)
from . import overlay as overlay  # noqa: E402,F401
