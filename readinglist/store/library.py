"""The reading store: one hand-editable TOML file per paper, kept in git.

Layout of a store folder::

    papers/<key>.toml   one paper each (see :mod:`readinglist.store.paperfile`); the source of truth
    .cache/             a derived index (see :mod:`readinglist.store.cache`); may be deleted any time
    .lock               taken by every writer (flock: store/lock.py), so concurrent writers lose nothing
    .gitignore          ".cache/", ".lock" and temporary files

Reading one paper (``get``) and changing one (``set_status``, ``set_note``, ...) go straight to
``papers/<key>.toml``; only when a person renamed the key inside a file does the store consult
the index. Listing, filtering and searching load the index: every file is stat'ed and only
changed ones are parsed again. Every write goes through a temporary file in ``papers/``,
``fsync`` and ``os.replace`` while the lock is held: a killed writer leaves each file either
old or new, never torn. A file that does not parse is never overwritten.

Typical use::

    store = Store.open("library")
    store.set_status("canvit2026", "reading")
    for paper in store.find(status="unread", tags=["llm"], sort="priority"):
        ...
"""

from __future__ import annotations

import os
import re
import contextlib
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator, Mapping

from ..errors import ConflictError, ReadinglistError, StoreError, UnknownKeyError, UnknownKeysError, ValidationError
from ..constants import SORTS, STATUSES
from ..tagform import tag_key
from . import paperrow, rules
from .paperrow import PRIORITIES, RATINGS

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    import sqlite3
    from datetime import datetime
    from typing import Any, TypeGuard

    from ..record import Paper, Record
    from .importer import ImportSummary as ImportSummary

    from .atomic import Staged
    from .cache import Index
    from .importer import Importer
    from .lock import StoreLock

GITIGNORE = "# derived by readinglist; safe to delete\n.cache/\n.lock\npapers/.*.tmp\n"
#: Sort orders :meth:`Store.find` knows; prefix with "-" to reverse.
#: The index is written back to the cache after this many files were parsed again.
CACHE_SAVE_AFTER = 64


def _staged(text) -> TypeGuard[Staged]:
    """Whether a pending value is a :class:`~readinglist.store.atomic.Staged` file (not text
    nor None); atomic is not imported to ask, so that reading commands never load it."""
    return text is not None and text.__class__ is not str


#: A transaction holding more new texts than this writes them to temporary files as it goes
#: (renamed into place with the rest when it ends), so a large import's memory does not grow
#: with the text of every file it writes.
SPILL_AFTER = 512

Clock = Callable[[], "datetime | str"]


def __getattr__(name: str):
    """``ImportSummary`` (defined with the importer, which makes it; imported when asked for)."""
    if name == "ImportSummary":
        from .importer import ImportSummary

        return ImportSummary
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def utc_now() -> datetime:
    from datetime import datetime, UTC

    return datetime.now(UTC)


def _stamp(value) -> str:
    if isinstance(value, str):
        return value
    if value.tzinfo is not None:
        from datetime import UTC

        value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------- pure helpers


# (the rules, and the checks of the values they take, are in .rules; these names stay for the
# modules that use them from here)
_strip_record = rules.strip_record
_trim_history = rules.trim_history
check_status = rules.check_status  # public: the CLI checks a status before it selects papers
_check_status = rules.check_status
_clean_tags = rules.clean_tags


_WORDS = re.compile(r"\w+")


class _Matcher:
    """A scorer for :meth:`Store.search`: every word of ``text`` must occur as a whole word
    (case-insensitive; a plural ``-s``/``-es`` also matches: "vision" finds "Vision-language"
    and "visions", never "provision") in the title, notes or abstract. A word in the title
    counts 3, in the notes 2, in the abstract 1; the whole phrase adds 3 in the title, 1
    elsewhere. Scores are 0-100 (100: every word and the phrase in the title).

    ``words`` are the lowercased words; each occurs as a substring of any text that matches (the
    cache's SQL pre-selects with that), so :meth:`lowered` scores the cache's lowercased texts."""

    def __init__(self, text: str):
        self.words = words = list(dict.fromkeys(_WORDS.findall(text.lower())))
        # a cheap substring test first; the word-boundary regex only runs on texts that contain it
        self.patterns = [(w, re.compile(rf"(?<!\w){re.escape(w)}(?:e?s)?(?!\w)").search) for w in words]
        self.phrase = phrase = " ".join(text.lower().split())
        self.phrase_re = re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)").search if phrase else None
        self.best = 3 * len(words) + 3

    def __call__(self, paper: Paper) -> float:
        return self.lowered(paper.record.title.lower(), paper.notes.lower(), paper.record.abstract.lower())

    def lowered(self, title: str, notes: str, abstract: str) -> float:
        """The score of a paper with these (lowercased) texts."""
        total = 0
        for w, found in self.patterns:
            if w in title and found(title):
                total += 3
            elif w in notes and found(notes):
                total += 2
            elif w in abstract and found(abstract):
                total += 1
            else:
                return 0.0
        phrase, phrase_re = self.phrase, self.phrase_re
        if phrase_re is not None and len(self.words) > 1:

            def has(text: str) -> bool:
                return phrase in text and phrase_re(text) is not None

            total += 3 if has(title) else 1 if (has(notes) or has(abstract)) else 0
        return 100.0 * total / self.best if self.words else 0.0


_matcher = _Matcher


def _check_limit(limit) -> None:
    if limit is not None and (not isinstance(limit, int) or limit < 0):
        raise ValidationError(f"limit must be 0 or more, not {limit!r}")


def _sort_key(name: str):
    def none_last(v):
        return (v is None, v if v is not None else 0)

    def event_date(paper: Paper, first: bool) -> str:
        if not paper.history:
            return ""
        return paper.history[0].date if first else paper.history[-1].date

    keys = {
        "key": lambda p: p.key,
        "title": lambda p: (p.record.title.casefold(), p.key),
        "year": lambda p: (none_last(p.record.year), p.key),
        "venue": lambda p: ((p.record.venue or "\uffff").casefold(), p.key),
        "status": lambda p: (STATUSES.index(p.status), p.key),
        "priority": lambda p: (none_last(p.priority), p.key),
        "rating": lambda p: (p.rating is None, -(p.rating or 0), p.key),  # best first
        "added": lambda p: (event_date(p, True), p.key),
        "changed": lambda p: (event_date(p, False), p.key),
        # what to read next: priority 1 first (none last), then the longest waiting
        "next": lambda p: (none_last(p.priority), event_date(p, True), p.key),
    }
    return keys[name]


# --------------------------------------------------------------------------- the store


class Store:
    """A folder of paper files. Open it with :meth:`Store.open`.

    Every method that changes a paper takes the store's lock, writes atomically and returns
    the paper as it now is. Several changes can be batched (one lock, one sync) in
    :meth:`transaction`; a transaction that raises writes nothing.
    """

    def __init__(self, root: Path, *, config=None, clock: Clock | None = None, lock_timeout: float = 30.0):
        self.root = root
        self.papers_dir = root / "papers"
        self.cache_dir = root / ".cache"
        self.lock_path = root / ".lock"
        self._config = config
        self.clock: Clock = clock or utc_now
        self.lock_timeout = lock_timeout
        self._lock: StoreLock | None = None
        self._depth = 0
        self._pending: dict[str, str | Staged | None] = {}  # file name -> new text (None: delete)
        self._unstaged = 0  # texts in _pending not written to temporary files yet
        self._index: Index | None = None  # loaded on demand
        self._index_locked = False  # the index was scanned while this transaction held the lock
        self._after_flush: list[Callable[[], None]] = []  # run once written, the lock still held
        self._at_end: list[Callable[[], None]] = []  # run when the transaction ends, written or not
        self._on_commit: list[Callable[[], None]] = []  # run after each transaction that succeeded, unlocked
        self._committed = False  # the on_commit callbacks are running
        self._broken: dict[str, str] = {}  # files that did not parse when last read
        #: ``building(count)``: a context manager around the making of a cache from nothing
        #: (the first read of a fresh clone: seconds on a large store), given the number of paper
        #: files; the CLI shows what it is doing meanwhile
        self.building: Callable[[int], contextlib.AbstractContextManager] | None = None

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path, *, config=None, create: bool = True, clock: Clock | None = None, lock_timeout: float = 30.0) -> Store:
        """Open the store in folder ``path``, creating it (and its ``.gitignore``) if ``create``.

        ``config`` (a :class:`~readinglist.config.Config`, or a function that returns one when
        it is first needed) supplies the near-duplicate threshold for imports; ``clock`` returns the time history events are stamped with
        (default: now, UTC); ``lock_timeout`` is how long a writer waits for another one.
        """
        root = Path(path)
        if root.exists() and not root.is_dir():
            raise StoreError(f"{root}: not a folder, so it cannot be a store")
        if not (root / "papers").is_dir():
            if not create:
                raise StoreError(f"{root}: no store here (no papers/ folder; `readinglist import` makes one)")
            try:
                (root / "papers").mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{root}: cannot create the store: {exc.strerror}") from None
        ignore = root / ".gitignore"
        if create and not os.path.lexists(ignore):
            try:  # never through a link (a dangling .gitignore link would create a file elsewhere)
                fd = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(GITIGNORE)
            except OSError:
                pass  # a read-only store can still be read
        return cls(root, config=config, clock=clock, lock_timeout=lock_timeout)

    @property
    def config(self):
        """The configuration given to :meth:`open` (made then if it was given as a function
        that makes it), else the built-in defaults."""
        if self._config is None:
            from ..config import default_config

            self._config = default_config()
        elif callable(self._config):
            self._config = self._config()
        return self._config

    def __repr__(self) -> str:
        return f"Store({str(self.root)!r})"

    # ------------------------------------------------------------------ locking and writing

    @contextmanager
    def transaction(self):
        """Hold the store's lock for a batch of changes and write them together at the end.

        Reads inside the transaction see its own changes. If the block raises, nothing of it
        is written. Transactions nest (only the outermost one writes).
        """
        if self._depth == 0:
            self._acquire()
            self._index_locked = False
        self._depth += 1
        try:
            yield self
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                self._discard_staged(self._pending)
                self._pending.clear()
                self._unstaged = 0
                self._after_flush = []
                self._index = None  # it may hold papers that were never written
                try:
                    self._run_at_end()
                finally:
                    self._release()
            raise
        self._depth -= 1
        if self._depth == 0:
            from ..interrupts import uninterrupted

            try:
                with uninterrupted():  # (an interruption comes after the files and the cache are written)
                    self._flush()
                    after, self._after_flush = self._after_flush, []
                    for hook in after:
                        hook()
            finally:
                self._after_flush = []
                try:
                    self._run_at_end()
                finally:
                    self._release()
            if self._on_commit and not self._committed:
                self._committed = True  # a callback's own transactions call no callback again
                try:
                    for callback in self._on_commit:
                        callback()
                finally:
                    self._committed = False

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after each outermost transaction that succeeded, once the store's
        lock is released (the CLI refreshes the auto-exports so)."""
        self._on_commit.append(callback)

    def _run_at_end(self) -> None:
        hooks, self._at_end = self._at_end, []
        for hook in hooks:
            hook()

    def _acquire(self) -> None:
        from .lock import StoreLock, Timeout

        if os.path.islink(self.lock_path):  # opening it would truncate what a link points to
            raise StoreError(f"{self.lock_path} is a symbolic link; remove it (readinglist makes the lock file itself)")
        if self._lock is None:
            self._lock = StoreLock(str(self.lock_path), timeout=self.lock_timeout)
        try:
            self._lock.acquire()
        except Timeout:
            raise StoreError(
                f"{self.lock_path}: the store is locked by another readinglist process "
                f"(waited {self.lock_timeout:g} s); try again when it has finished"
            ) from None
        except OSError as exc:
            raise StoreError(f"{self.lock_path}: cannot lock the store: {exc.strerror}") from None

    def _release(self) -> None:
        assert self._lock is not None  # only after _acquire
        self._lock.release()

    def _flush(self) -> None:
        """Write the pending files: temp file + fsync each, then os.replace each, then fsync
        the folder. A large batch syncs once with ``os.sync()`` (same guarantee, far faster)."""
        pending, self._pending = self._pending, {}
        self._unstaged = 0
        if not pending:
            return
        from .atomic import replace_files

        papers = self.papers_dir
        try:
            replace_files(papers, pending, inside=self.root)
        except OSError as exc:
            self._discard_staged(pending)  # (those replace_files started on are gone already)
            self._index = None
            where = exc.filename or papers
            raise StoreError(f"{where}: cannot write the store: {exc.strerror or exc}") from None
        if self._index is not None:
            from .cache import signature

            for name, text in pending.items():
                if text is not None and name in self._index.papers:
                    self._index.sigs[name] = signature(os.stat(papers / name))

    def _stage(self, name: str, text: str | None) -> None:
        if self._depth == 0:
            raise AssertionError("writes happen inside a transaction")  # pragma: no cover
        old = self._pending.get(name)
        if _staged(old):
            old.discard()
        self._pending[name] = text
        if text is not None:
            self._unstaged += 1
            if self._unstaged > SPILL_AFTER:
                self._stage_pending()

    def _stage_pending(self) -> None:
        """Write the pending texts to temporary files now (see SPILL_AFTER)."""
        from .atomic import stage_files

        texts = {name: text for name, text in self._pending.items() if isinstance(text, str)}
        try:
            staged = stage_files(self.papers_dir, texts, inside=self.root)
        except OSError as exc:
            where = exc.filename or self.papers_dir
            raise StoreError(f"{where}: cannot write the store: {exc.strerror or exc}") from None
        self._pending.update(staged)
        self._unstaged = 0

    @staticmethod
    def _discard_staged(pending: Mapping) -> None:
        for text in pending.values():
            if _staged(text):
                text.discard()

    # ------------------------------------------------------------------ reading one paper

    def _read(self, name: str) -> str | None:
        """The current text of papers/<name> (pending writes first), or None if there is none."""
        if name in self._pending:
            text = self._pending[name]
            return text if text is None or isinstance(text, str) else text.text()
        try:
            return paperrow.read_text(self.papers_dir / name)
        except FileNotFoundError:
            return None

    def _paper_of(self, name: str, text: str) -> Paper:
        """The paper in papers/<name>, whose text is ``text`` (a file as readinglist wrote it is
        read without a TOML parser: :func:`.paperrow.read_rendered`)."""
        from .paperfile import parse

        return parse(text, self.papers_dir / name)

    def _locate(self, key: str) -> tuple[str, str, Paper]:
        """(file name, text, paper) of the paper with ``key``: first ``papers/<key>.toml``,
        then the index (for keys renamed by hand). UnknownKeyError with suggestions on a miss."""
        if not isinstance(key, str) or not key:
            raise UnknownKeyError(str(key))
        from ..keyform import is_valid_key

        if is_valid_key(key):  # never build a path from anything else
            name = paperrow.file_stem(key) + ".toml"
            text = self._read(name)
            if text is not None:
                paper = self._paper_of(name, text)
                if paper.record.key == key:
                    return name, text, paper
        index = self._load_index()
        name = index.by_key.get(key)
        if name is not None:
            text = self._read(name)
            if text is not None:
                paper = self._paper_of(name, text)
                if paper.record.key == key:
                    return name, text, paper
        if index.broken:  # the key may be in a file that does not parse: say so
            raise StoreError(f"no paper with key {key!r}, and a paper file does not parse: " + "; ".join(index.broken.values()))
        raise UnknownKeyError(key, suggestions=self._suggest(key, index.by_key))

    @staticmethod
    def _suggest(key: str, keys) -> tuple[str, ...]:
        keys = list(keys)
        if not keys:
            return ()
        try:
            from rapidfuzz import process
            from rapidfuzz.distance import Indel

            hits = process.extract(key.lower(), keys, scorer=Indel.normalized_similarity, limit=3, score_cutoff=0.5)
            # only the keys about as close as the best one: "did you mean canvit2026?", not a list
            return tuple(k for k, score, _ in hits if score >= hits[0][1] - 0.1)
        except ImportError:  # pragma: no cover
            import difflib

            return tuple(difflib.get_close_matches(key, keys, n=3))

    def get(self, key: str) -> Paper:
        """The paper with ``key``. UnknownKeyError (with the 3 closest keys) if there is none."""
        return self._locate(key)[2]

    def __contains__(self, key: object) -> bool:
        try:
            self._locate(key)  # type: ignore[arg-type]
        except UnknownKeyError:
            return False
        return True

    # ------------------------------------------------------------------ the index

    def _load_index(self, *, save: bool = True):
        """The index of every paper file: scanned afresh, except once a transaction has
        scanned it under the lock (then nobody else can have changed it). ``save=False``: the
        caller saves the cache itself later (an import, after writing), so a changed index is
        not written twice."""
        from . import cache

        if self._index is not None and self._depth > 0 and self._index_locked:
            return self._index
        if self._index is not None:
            index, scan_ns = cache.scan(self.papers_dir, self._index)
        else:
            previous, stats = cache.load_and_stat(self.cache_dir, self.papers_dir)
            index, scan_ns = cache.scan(self.papers_dir, previous, stats)
        self._broken = index.broken
        if index.broken and self._depth > 0:  # a write that needs every paper refuses
            raise StoreError(next(iter(index.broken.values())) + "; fix or remove this file first")
        self._index = index
        self._index_locked = self._depth > 0
        for name, text in self._pending.items():  # a transaction's own changes
            if text is not None and not isinstance(text, str):  # staged in a temporary file
                text = text.text()
            if text is None:
                index.put(name, None)
            else:
                from .paperfile import parse

                index.put(name, parse(text, self.papers_dir / name))
        if index.temp_files and self._depth > 0:
            self._remove_temp_files(index.temp_files)
        if save and index.changes >= CACHE_SAVE_AFTER and not self._pending:
            cache.save_cache(self.cache_dir, index, scan_ns)
        return index

    def _remove_temp_files(self, names: list[str]) -> None:
        """Temporary files of writers that were killed (only called with the lock held)."""
        from .atomic import check_inside

        try:
            check_inside(self.papers_dir, self.root)
        except OSError:
            return
        for name in names:
            try:
                os.unlink(self.papers_dir / name)
            except OSError:
                pass
        names.clear()

    @property
    def broken(self) -> list[str]:
        """One-line errors (file:line:col) for the paper files that do not parse. Reading
        (list, find, search, iteration, stats) skips them; writes that need the whole store
        (imports) refuse, and so does any change to such a paper."""
        return list(self._broken.values())

    def _query(self, run: Callable[[sqlite3.Connection], Any]) -> Any:
        """``run(db)`` on the cache database, brought up to date with the paper files (the read
        path outside transactions: queries run in SQL and load only the papers they return).
        The cache is derived data: one that fails a query (damaged pages) is removed and the
        query runs again on a new one (or, where none can be made, on rows in memory)."""
        import sqlite3

        from . import cache

        for attempt in (1, 2):
            with self._building_cache():
                synced = cache.sync(self.cache_dir, self.papers_dir)
            self._broken = synced.broken
            try:
                return run(synced.db)
            except ReadinglistError:
                raise
            except (sqlite3.DatabaseError, *cache.DAMAGED):
                if attempt == 2:  # a new cache fails too: not the cache's doing
                    raise
                cache.remove(self.cache_dir)
            finally:
                synced.close()
        raise AssertionError("unreachable")  # pragma: no cover

    def _building_cache(self):
        """:attr:`building` around a cache made from nothing (a fresh clone's first read), else
        nothing."""
        from . import cache

        if self.building is None or os.path.lexists(self.cache_dir / cache.CACHE_NAME):
            return contextlib.nullcontext()
        try:
            with os.scandir(self.papers_dir) as entries:
                count = sum(1 for e in entries if e.name.endswith(".toml"))
        except OSError:
            return contextlib.nullcontext()
        return self.building(count)

    def _papers(self) -> list[Paper]:
        return list(self._load_index().papers.values())

    def __len__(self) -> int:
        if self._depth > 0:
            return len(self._load_index().papers)
        return self._query(lambda db: db.execute("SELECT count(*) FROM papers").fetchone()[0])

    def __iter__(self) -> Iterator[Paper]:
        """Every paper, sorted by key."""
        if self._depth > 0:
            return iter(sorted(self._papers(), key=_sort_key("key")))
        return iter(self.find())

    def keys(self) -> list[str]:
        """Every key, sorted."""
        if self._depth > 0:
            return sorted(self._load_index().by_key)
        return self._query(lambda db: [k for (k,) in db.execute("SELECT key FROM papers ORDER BY key")])

    def find(
        self,
        *,
        status: str | Iterable[str] | None = None,
        tags: Iterable[str] = (),
        venue: str | None = None,
        year: int | None = None,
        priority: int | None = None,
        rating: int | None = None,
        search: str | None = None,
        sort: str = "key",
        limit: int | None = None,
        brief: bool = False,
        lines: bool = False,
    ) -> list:
        """The papers that match every given filter, sorted.

        ``status``: one status or several; ``tags``: all must be on the paper (topic or user tags,
        case-insensitive); ``venue``: case-insensitive; ``search``: words that must all occur in
        the title, abstract or notes (see :meth:`search`). ``sort`` is one of SORTS, ``-`` in
        front reverses; "priority" puts 1 first, "rating" the best first (unset ones last);
        "relevance" (best search match first) needs ``search``. ``limit``: at most this many.
        ``brief``: :class:`~readinglist.store.cache.Listed` rows (what the ``list`` table
        shows) instead of whole papers, much cheaper for a large result; ``lines``: the line a
        piped ``list`` prints of each (:func:`~readinglist.store.cache.plain_line`), cheaper still.
        """
        reverse = sort.startswith("-")
        order = sort.lstrip("-")
        if order not in SORTS:
            raise ValidationError(f"unknown sort {sort!r}; use one of {', '.join(SORTS)}")
        if order == "relevance" and not search:
            raise ValidationError("sort 'relevance' needs a search text")
        _check_limit(limit)
        statuses = None
        if status is not None:
            statuses = {status} if isinstance(status, str) else set(status)
            for s in statuses:
                _check_status(s)
        wanted = {tag_key(t) for t in _clean_tags(tags)} if tags else set()
        venue_cf = venue.casefold() if venue else None
        if self._depth > 0:  # inside a transaction: its own changes are not written yet
            out = self._find_in_memory(statuses, wanted, venue_cf, year, priority, rating, search, order, reverse)
            out = out[:limit] if limit is not None else out
            if lines:
                from .cache import plain_line_of

                return [plain_line_of(p) for p in out]
            if brief:
                from .cache import Listed

                return [Listed.of(p) for p in out]
            return out
        score = None
        if search:
            score = _matcher(search)
            if not score.words:
                return []
        from . import cache

        equal = [(c, v) for c, v in (("year", year), ("priority", priority), ("rating", rating), ("venue_cf", venue_cf)) if v is not None]

        def query(db: sqlite3.Connection) -> list:
            cursor = cache.select(
                db, statuses=statuses, tags=wanted, equal=equal, words=score.words if score else (),
                order=None if order == "relevance" else order, reverse=reverse, limit=None if score else limit, brief=brief,
                lines=lines,
            )  # fmt: skip
            if score is None:  # rows converted as they come
                if lines:
                    return [r[0] for r in cursor]
                return cache.listed(cursor) if brief else cache.papers_of(cursor)
            lowered = score.lowered
            return [(r, points) for r in cursor if (points := lowered(r[-3], r[-2], r[-1])) > 0]

        found = self._query(query)
        if score is None:
            return found
        scored = found
        if order == "relevance":
            scored.sort(key=lambda rs: (-rs[1], rs[0][-4]), reverse=reverse)
        rows = [r for r, _ in scored[:limit]] if limit is not None else [r for r, _ in scored]
        if lines:
            return [r[0] for r in rows]
        return cache.listed(rows) if brief else cache.papers_of(rows)

    def _find_in_memory(self, statuses, wanted, venue_cf, year, priority, rating, search, order, reverse) -> list[Paper]:
        folds: dict[tuple[str, ...], frozenset[str]] = {}

        def folded(tags: tuple[str, ...]) -> frozenset[str]:
            f = folds.get(tags)
            if f is None:
                f = folds[tags] = frozenset(tag_key(t) for t in tags)
            return f

        papers = self._papers()
        out = []
        for p in papers:
            if statuses is not None and p.status not in statuses:
                continue
            if year is not None and p.record.year != year:
                continue
            if priority is not None and p.priority != priority:
                continue
            if rating is not None and p.rating != rating:
                continue
            if venue_cf is not None and (p.record.venue or "").casefold() != venue_cf:
                continue
            if wanted and not (wanted <= folded(p.record.tags) | folded(p.user_tags)):
                continue
            out.append(p)
        if search:
            score = _matcher(search)
            scored = [(p, score(p)) for p in out]
            scored = [(p, s) for p, s in scored if s > 0]
            if order == "relevance":
                scored.sort(key=lambda ps: (-ps[1], ps[0].key))
                out = [p for p, _ in scored]
                return out[::-1] if reverse else out
            out = [p for p, _ in scored]
        out.sort(key=_sort_key(order), reverse=reverse)
        return out

    def search(self, text: str, limit: int | None = None, *, brief: bool = False) -> list[tuple]:
        """Papers whose title, abstract or notes contain every word of ``text``, best first,
        with a score 0-100 (words in the title count most, then notes, then the abstract).
        ``brief``: :class:`~readinglist.store.cache.Listed` rows instead of whole papers."""
        _check_limit(limit)
        score = _matcher(text)
        if self._depth > 0:
            hits = [(p, s) for p in self._papers() if (s := score(p)) > 0]
            hits.sort(key=lambda ps: (-ps[1], ps[0].key))
            hits = hits[:limit] if limit is not None else hits
            if brief:
                from .cache import Listed

                return [(Listed.of(p), s) for p, s in hits]
            return hits
        words = score.words
        if not words:
            return []
        from . import cache

        lowered = score.lowered

        def query(db: sqlite3.Connection) -> tuple[list, dict]:
            scored = [(-s, key, name) for name, key, t, n, a in cache.search_candidates(db, words) if (s := lowered(t, n, a)) > 0]
            scored.sort()
            if limit is not None:
                scored = scored[:limit]
            return scored, cache.rows_by_name(db, [name for _, _, name in scored], brief=brief)

        scored, rows = self._query(query)
        found_rows = [rows[name] for _, _, name in scored]
        papers = cache.listed(found_rows) if brief else cache.papers_of(found_rows)
        return [(p, -s) for p, (s, _, _) in zip(papers, scored)]

    # ------------------------------------------------------------------ changing one paper

    def _now(self) -> str:
        return _stamp(self.clock())

    def _save(self, name: str, text: str | None, old: Paper | None, new: Paper) -> Paper:
        """Stage ``new`` into papers/<name>, whose current text is ``text``, parsing to ``old``."""
        from .paperfile import canonical, paper_to_row

        new = canonical(new)
        new_row = paper_to_row(new)
        if text is None or (old is not None and text == paperrow.render_row(paper_to_row(old))):
            # a new file, or one nobody edited by hand: render it afresh (0.1 ms) instead of a
            # tomlkit round trip (1.5 ms and a 15 ms import); the result is the same text
            new_text = paperrow.render_row(new_row)
        else:  # keep the person's comments, layout and edits
            assert old is not None  # ``text`` exists, so it parsed to ``old``
            from .paperfile import edit

            new_text = edit(text, old, new, self.papers_dir / name)
        if new_text != text:
            self._stage(name, new_text)
            if self._index is not None:
                self._index.put(name, new)
        return new

    def _modify(self, key: str, change: Callable[[Paper], Paper]) -> Paper:
        """Change the paper ``key`` as ``change`` turns it into a new one (a rule of
        :mod:`.rules`); the paper as it now is."""
        with self.transaction():
            name, text, old = self._locate(key)
            new = change(old)
            if new == old:
                return old
            return self._save(name, text, old, new)

    def set_status(self, key: str, status: str) -> Paper:
        """Set the reading status (unread, reading, read, skipped) and log it in the history
        (started, finished, skipped, reset). Setting the status a paper has changes nothing."""
        rules.check_status(status)
        return self._modify(key, lambda p: p if p.status == status else rules.with_status(p, status, self._now()))

    def set_note(self, key: str, text: str, *, append: bool = False, expect: str | None = None) -> Paper:
        """Replace the paper's notes (Markdown) with ``text``, or add it as a new paragraph.
        Leading and trailing blank lines are dropped; an empty text clears the notes.

        ``expect``: the notes as the caller last saw them (say, when an editor opened). If
        another command changed them meanwhile, ConflictError and nothing is written: the
        other change is never lost."""
        text = rules.clean_note(text)
        return self._modify(key, lambda p: rules.with_note(p, text, append=append, expect=expect))

    def add_tags(self, key: str, tags: Iterable[str]) -> Paper:
        """Add the user's own tags (kept apart from generated topic tags; order kept)."""
        tags = rules.clean_tags(tags)
        return self._modify(key, lambda p: rules.with_tags_added(p, tags))

    def remove_tags(self, key: str, tags: Iterable[str]) -> Paper:
        """Remove tags: from the user's tags, and from the topic tags (then the topic tags count
        as edited by hand and a re-import will not bring the tag back). ValidationError if the
        paper does not have one of them."""
        tags = rules.clean_tags(tags)
        return self._modify(key, lambda p: rules.with_tags_removed(p, tags))

    def rename_tag(self, old: str, new: str, *, dry_run: bool = False) -> list[Paper]:
        """Rename the tag ``old`` (any letter case) to ``new`` on every paper that has it, in
        place among the user's tags and among the topic tags (which then count as edited by
        hand, as with :meth:`remove_tags`, so a re-import does not bring ``old`` back). The
        papers changed (with ``dry_run``: that would change, as they are), in key order."""
        (old,), (new,) = rules.clean_tags([old]), rules.clean_tags([new])

        def change(p: Paper) -> Paper:
            return rules.with_tag_renamed(p, old, new)

        with self.transaction():
            todo = [p for p in self.find(tags=(old,)) if change(p) != p]
            if dry_run:
                return todo
            return [self._modify(p.key, change) for p in todo]

    def rate(self, key: str, n: int | None) -> Paper:
        """Rate the paper 1-5, or clear the rating with None."""
        n = rules.check_range("rating", n, RATINGS)
        return self._modify(key, lambda p: rules.with_rating(p, n))

    def set_priority(self, key: str, n: int | None) -> Paper:
        """Set the priority 1 (read first) to 3, or clear it with None."""
        n = rules.check_range("priority", n, PRIORITIES)
        return self._modify(key, lambda p: rules.with_priority(p, n))

    # ------------------------------------------------------------------ records in bulk

    def _new_file_name(self, key: str, taken: set[str], *, listed: bool = False) -> str:
        """A free file name for a new paper: ``<key>.toml``, else ``<key>-2.toml``, ...
        ``taken`` holds the casefolded names in use (names differing in case clash on macOS);
        ``listed``: it holds every name in ``papers/`` (see :meth:`_listed_names`), so no file
        need be looked for."""
        stem = paperrow.file_stem(key)
        name, n = f"{stem}.toml", 1
        while name.casefold() in taken or (not listed and (self.papers_dir / name).exists()):
            n += 1
            name = f"{stem}-{n}.toml"
        return name

    def _new_paper(self, record: Record, state: Mapping | None, now: str) -> Paper:
        return rules.new_paper(record, state, now)

    def import_records(self, records: Iterable[Record], *, states: Mapping[str, dict] | None = None) -> ImportSummary:
        """Add new records and update the papers they match; nothing a reader set is lost.

        An incoming record with an abstract matches the paper whose abstract is the same once
        normalised (similarity 100, ``exact``), else the most similar one scoring at least
        ``config.duplicate_threshold`` (:class:`~readinglist.convert.matching.NearIndex`); one without
        an abstract matches by key, then by DOI.
        A matched paper keeps its key and state and is updated by :func:`merge_record`. A new
        record gets its key, or the next free one (``renamed``), and the state ``states`` gives
        for its incoming key (status, priority, rating, notes, tags), else ``unread``.
        All of it is written in one transaction (see :meth:`importing` to hand records over in
        batches).
        """
        with self.importing() as importer:
            importer.add(records, states)
        return importer.summary()

    @contextmanager
    def importing(self) -> Iterator[Importer]:
        """An :class:`~readinglist.store.importer.Importer` whose ``add(records, states)``
        imports a batch at a time, as :meth:`import_records` does; its ``summary()`` tells what
        was done once the block ended. Everything is written when the block ends (nothing if it
        raises). The store's papers are never all loaded: keys, matches and abstracts are looked
        up in the cache, so memory does not grow with the store nor with the import."""
        from .importer import Importer

        with self.transaction():
            importer = Importer(self)
            self._at_end.append(importer.close)  # (the outermost transaction's end, however it ends)
            yield importer
            self._after_flush.append(importer.commit)

    def _listed_names(self) -> set[str]:
        """The casefolded names of everything in ``papers/`` (files that do not parse, folders,
        temporary files too) and of the transaction's papers: one listing instead of a look
        for each new paper's file (with the lock held, nobody else adds any)."""
        try:
            names = {n.casefold() for n in os.listdir(self.papers_dir)}
        except OSError:
            names = set()
        names.update(n.casefold() for n in self._pending)
        if self._index is not None:
            names.update(n.casefold() for n in self._index.papers)
        return names

    def replace_record(self, key: str, record: Record, *, rekey: bool = False) -> Paper:
        """Put official metadata (``record``) on the paper ``key``, keeping its state.

        Every value ``record`` has replaces the stored one (see :func:`merge_record` with
        ``official=True``); values it lacks (often tags) are kept. With ``rekey`` the paper takes
        ``record.key`` (its file is renamed to match); StoreError if another paper has that key.
        """
        record = rules.strip_record(record)[0]
        with self.transaction():
            name, text, old = self._locate(key)
            from .merge import merge_record

            merged = merge_record(old.record, record, official=True)
            if not rekey or record.key == old.key:
                return self._save(name, text, old, old.evolve(record=merged))
            return self._rekey(name, text, old, merged, record.key)

    def rekey(self, key: str, new_key: str) -> Paper:
        """Give the paper ``key`` the citation key ``new_key``: its file is renamed to match, its
        state and history stay, and every curated list that names it follows. StoreError (nothing
        changed) when ``new_key`` is not a valid key or another paper has it, also in another case."""
        with self.transaction():
            name, text, old = self._locate(key)
            if new_key == old.key:
                return old
            return self._rekey(name, text, old, old.record, new_key)

    def _rekey(self, name: str, text: str, old: Paper, record: Record, new_key: str) -> Paper:
        from ..convert.keys import fold_key, key_problem

        problem = key_problem(new_key)
        if problem:
            raise StoreError(f"cannot give {old.key} the key {new_key!r}: {problem}")
        index = self._load_index()
        for other_key, other in index.by_key.items():
            if fold_key(other_key) == fold_key(new_key) and other != name:
                raise StoreError(f"cannot give {old.key} the key {new_key!r}: {self.papers_dir / other} has it" + (f" (as {other_key!r}: keys differ in case only)" if other_key != new_key else ""))
        new = old.evolve(record=record.evolve(key=new_key, generated=record.generated - {"key"}))
        new_name = paperrow.file_stem(new_key) + ".toml"
        if new_name.casefold() == name.casefold():
            new_name = name  # a change of case only: the file keeps its name (case-insensitive file systems)
        if new_name != name:
            new_name = self._new_file_name(new_key, {n.casefold() for n in index.papers})
            self._stage(name, None)
            index.put(name, None)
        saved = self._save(new_name, text if new_name == name else None, old, new)
        from . import lists

        lists.follow_rename(self, old.key, new_key)  # curated lists follow the new key
        return saved

    # ------------------------------------------------------------------ whole papers

    def check_keys(self, keys: Iterable[str]) -> list[Paper]:
        """The papers with ``keys``, in order; one UnknownKeyError naming every unknown key (each
        with its suggestions) when any is missing, so a command on several keys changes nothing."""
        papers, unknown = [], []
        for key in dict.fromkeys(keys):
            try:
                papers.append(self.get(key))
            except UnknownKeyError as exc:
                unknown.append(exc)
        if len(unknown) == 1:
            raise unknown[0]
        if unknown:
            raise UnknownKeysError(unknown)
        return papers

    def names_a_paper(self, word: str) -> bool:
        """Whether ``papers/<word>.toml`` exists: a cheap test that a word is a paper's key
        (the CLI's guard against ``tag KEY1 KEY2``), with no index scan."""
        try:
            return bool(word) and (self.papers_dir / (paperrow.file_stem(word) + ".toml")).is_file()
        except (OSError, ValueError):
            return False

    def remove(self, keys: Iterable[str]) -> list[Paper]:
        """Delete the papers with ``keys`` (all of them or, if one is unknown, none); the curated
        lists that named them drop their entries (:func:`.lists.containing` says which, before)."""
        keys = list(dict.fromkeys(keys))
        with self.transaction():
            located = []
            unknown = []
            for key in dict.fromkeys(keys):
                try:
                    located.append(self._locate(key))
                except UnknownKeyError as exc:
                    unknown.append(exc)
            if unknown:
                self.check_keys(e.key for e in unknown)  # raises, naming them all
            index = self._index
            for name, _, _ in located:
                self._stage(name, None)
                if index is not None:
                    index.put(name, None)
            from . import lists

            lists.forget(self, [paper.key for _, _, paper in located])
            return [paper for _, _, paper in located]

    def paper_text(self, key: str) -> tuple[str, str]:
        """(path, text) of the paper's file, for editing it as a whole."""
        name, text, _ = self._locate(key)
        return str(self.papers_dir / name), text

    def replace_text(self, key: str, old_text: str, new_text: str) -> Paper:
        """Write ``new_text`` (a whole paper file, edited by hand) over the paper ``key``.

        It must parse (StoreError naming line and column otherwise), keep a key no other paper
        has, and the file must still hold ``old_text`` (else someone changed it meanwhile:
        StoreError, nothing written)."""
        with self.transaction():
            name, text, old = self._locate(key)
            if text != old_text:
                raise ConflictError(f"{self.papers_dir / name} changed while you edited it; nothing written")
            from .paperfile import parse

            new = parse(new_text, self.papers_dir / name)
            if new.key != old.key:
                index = self._load_index()
                other = index.by_key.get(new.key)
                if other is not None and other != name:
                    raise StoreError(f"key {new.key!r} is taken by {self.papers_dir / other}; nothing written")
            if new_text != text:
                self._stage(name, new_text)
                if self._index is not None:
                    self._index.put(name, new)
            return new
