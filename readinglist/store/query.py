"""A store's reading side: the one query engine, in SQL on the cache (:mod:`.cache`, brought
up to date with the files by :func:`~.cache.sync`): :meth:`Queries.find` and
:meth:`Queries.search` with their filters, sorts and scores, ``len``, iteration, ``keys``, and
the look-ups of the write paths (which file holds a key, every key). A query loads only the
papers it returns.

Inside a transaction the same SQL runs on the transaction's view of the cache
(:mod:`.cache.overlay`): the cache synced once under the lock, with the papers the transaction
changed (not written yet) put over it, so the transaction sees its own changes.
"""

from __future__ import annotations

import os
import re
import contextlib
from collections import namedtuple
from collections.abc import Callable, Iterable, Iterator

from ..constants import SORTS
from ..errors import ReadinglistError, StoreError, ValidationError
from ..tagform import tag_key
from . import rules
from .transaction import Transactions

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    import sqlite3
    from typing import Any

    from pathlib import Path

    from ..record import Paper
    from ..selection import Filter

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


#: What :meth:`Queries._load_index` returns: papers by file name, and their files' signatures.
Loaded = namedtuple("Loaded", "papers sigs")


class Queries(Transactions):
    """The queries of a store (see :meth:`find`)."""

    cache_dir: Path
    processes: int
    _broken: dict[str, str]
    building: Callable[[int], contextlib.AbstractContextManager] | None

    def _open_view(self):
        """The transaction's view of the cache (:mod:`.cache.overlay`), made on its first query:
        the cache synced with the files once under the lock (nobody else can change them then),
        with the transaction's changes so far put over it. StoreError when a paper file does not
        parse (a write that needs the whole store refuses)."""
        from . import cache

        if self._view is not None:
            return self._view
        with self._building_cache():
            synced = cache.sync(self.cache_dir, self.papers_dir, processes=self.processes)
        try:
            self._broken = synced.broken
            if synced.broken:
                raise StoreError(next(iter(synced.broken.values())) + "; fix or remove this file first")
            if synced.temp_files:
                self._remove_temp_files(synced.temp_files)
            cache.overlay.install(synced.db)
        except BaseException:
            synced.close()
            raise
        self._view = synced
        for name, text in self._pending.items():  # the transaction's changes so far
            if text is not None and not isinstance(text, str):  # staged in a temporary file
                text = text.text()
            self._staged_paper(name, None if text is None else self._paper_of(name, text))
        return synced

    def _staged_paper(self, name: str, paper: Paper | None) -> None:
        """File ``name`` will hold ``paper`` (None: be removed) once the transaction is written:
        its queries see it so from now on."""
        if self._view is not None:
            from . import cache

            cache.overlay.put(self._view.db, name, None if paper is None else cache.bundle(name, paper))

    def _paper_of(self, name: str, text: str) -> Paper:
        """The paper in papers/<name>, whose text is ``text`` (a file as readinglist wrote it is
        read without a TOML parser: :func:`.paperrow.read_rendered`)."""
        from .paperfile import parse

        return parse(text, self.papers_dir / name)

    def _load_index(self, *, save: bool = True) -> Loaded:
        """Every paper of the transaction (its changes included) in memory, by file name, with
        the signatures the cache holds for their files (None for those the transaction changed):
        what an import started after the transaction changed files begins from. (``save``: kept
        for the importer's call; nothing is saved.)"""
        from . import cache

        def load(db: sqlite3.Connection) -> Loaded:
            rows = db.execute("SELECT p.name, r.row FROM papers p JOIN rows r ON r.name = p.name ORDER BY p.name")
            names, papers = [], []
            for name, row in rows:
                names.append(name)
                papers.append(row)
            changed = cache.overlay.staged(db) if self._depth > 0 else set()
            stored = cache.stored_sigs(db)
            return Loaded(dict(zip(names, cache.papers_of((r,) for r in papers))), {n: None if n in changed else stored.get(n) for n in names})

        return self._query(load)

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
        """``run(db)`` on the cache database brought up to date with the paper files (queries run
        in SQL and load only the papers they return); inside a transaction, on its view
        (:meth:`_open_view`). The cache is derived data: one that fails a query (damaged pages)
        is removed and the query runs again on a new one (or, where none can be made, on rows
        in memory)."""
        import sqlite3

        from . import cache

        for attempt in (1, 2):
            if self._depth > 0:
                synced = self._open_view()
            else:
                with self._building_cache():
                    synced = cache.sync(self.cache_dir, self.papers_dir, processes=self.processes)
                self._broken = synced.broken
            try:
                return run(synced.db)
            except ReadinglistError:
                raise
            except (sqlite3.DatabaseError, *cache.DAMAGED):
                if attempt == 2:  # a new cache fails too: not the cache's doing
                    raise
                self._close_view()
                cache.remove(self.cache_dir)
            finally:
                if self._depth == 0:
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

    def __len__(self) -> int:
        return self._query(lambda db: db.execute("SELECT count(*) FROM papers").fetchone()[0])

    def __iter__(self) -> Iterator[Paper]:
        """Every paper, sorted by key."""
        return iter(self.find())

    def keys(self) -> list[str]:
        """Every key, sorted."""
        return self._query(lambda db: [k for (k,) in db.execute("SELECT key FROM papers ORDER BY key")])

    def _names_and_keys(self) -> list[tuple[str, str]]:
        """(file name, key) of every paper, in the order the cache wrote their rows (the
        transaction's changed papers last, as it changed them): the order did-you-mean
        suggestions that score the same come in."""

        def query(db: sqlite3.Connection) -> list[tuple[str, str]]:
            if self._view is None:
                return db.execute("SELECT p.name, p.key FROM rows r JOIN papers p ON p.name = r.name ORDER BY r.rowid").fetchall()
            return db.execute(
                "SELECT name, key FROM (SELECT 0 AS s, r.rowid AS o, p.name, p.key FROM main.rows r JOIN main.papers p ON p.name = r.name"
                " WHERE r.name NOT IN temp.staged UNION ALL SELECT 1, r.rowid, p.name, p.key FROM temp.staged_rows r"
                " JOIN temp.staged_papers p ON p.name = r.name) ORDER BY s, o"
            ).fetchall()

        return self._query(query)

    def _name_of(self, key: str) -> str | None:
        """The file that holds the paper ``key`` (as the cache has it), or None."""
        found = self._query(lambda db: db.execute("SELECT name FROM papers WHERE key = ? ORDER BY name LIMIT 1", (key,)).fetchone())
        return None if found is None else found[0]

    def _papers_with_keys(self, keys: Iterable[str]) -> dict[str, Paper]:
        """key -> the paper, of those of ``keys`` some file holds."""
        from . import cache

        keys = list(dict.fromkeys(keys))

        def query(db: sqlite3.Connection) -> dict[str, Paper]:
            rows = []
            for i in range(0, len(keys), 500):
                part = keys[i : i + 500]
                sql = f"SELECT r.row FROM papers p JOIN rows r ON r.name = p.name WHERE p.key IN ({','.join('?' * len(part))}) ORDER BY p.name"
                rows += db.execute(sql, part).fetchall()
            return {p.key: p for p in cache.papers_of(rows)}

        return self._query(query)

    def _renamed_files(self) -> dict[str, Paper]:
        """Papers whose file name is no longer their key (renamed by hand): the file's stem -> paper."""
        from . import cache

        def query(db: sqlite3.Connection) -> dict[str, Paper]:
            sql = "SELECT r.row, p.name FROM papers p JOIN rows r ON r.name = p.name WHERE p.name != p.key || '.toml' ORDER BY p.name"
            rows = db.execute(sql).fetchall()
            return {name.removesuffix(".toml"): paper for paper, (_, name) in zip(cache.papers_of(rows), rows)}

        return self._query(query)

    def find(
        self,
        where: Filter | None = None,
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
        json: bool = False,
    ) -> list:
        """The papers that match every given filter, sorted.

        ``where``: the filters as one value (:class:`~readinglist.selection.Filter`, what the
        CLI passes), instead of the keywords; ``status``: one status or several; ``tags``: all must be on the paper (topic or user tags,
        case-insensitive); ``venue``: case-insensitive; ``search``: words that must all occur in
        the title, abstract or notes (see :meth:`search`). ``sort`` is one of SORTS, ``-`` in
        front reverses; "priority" puts 1 first, "rating" the best first (unset ones last);
        "relevance" (best search match first) needs ``search``. ``limit``: at most this many.
        ``brief``: :class:`~readinglist.store.cache.Listed` rows (what the ``list`` table
        shows) instead of whole papers, much cheaper for a large result; ``lines``: the line a
        piped ``list`` prints of each (:func:`~readinglist.store.cache.plain_line`), cheaper still;
        ``json``: the line ``list --json`` prints of each, as UTF-8 (:func:`~readinglist.store.cache.json_line`).
        """
        if where is not None:
            status, tags, venue, year, priority = where.status or None, where.tags, where.venue, where.year, where.priority
            rating, search = where.rating, where.search
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
                rules.check_status(s)
        wanted = {tag_key(t) for t in rules.clean_tags(tags)} if tags else set()
        venue_cf = venue.casefold() if venue else None
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
                lines=lines, json=json,
            )  # fmt: skip
            rows: Iterable = cursor  # (without a search, converted as they come)
            if score is not None:
                lowered = score.lowered
                scored = [(r, points) for r in cursor if (points := lowered(r[-3], r[-2], r[-1])) > 0]
                if order == "relevance":
                    scored.sort(key=lambda rs: (-rs[1], rs[0][-4]), reverse=reverse)
                rows = [r for r, _ in scored[:limit]] if limit is not None else [r for r, _ in scored]
            if json:
                return cache.json_rows(db, rows)
            if lines:
                return [r[0] for r in rows]
            return cache.listed(rows) if brief else cache.papers_of(rows)

        return self._query(query)

    def tally(self) -> list:
        """Every paper counted in groups alike in all that ``stats`` reads
        (:class:`~readinglist.stats.Alike`), by the cache's SQL: ``stats`` builds no value per paper."""
        from . import cache

        return self._query(cache.tally)

    def search(self, text: str, limit: int | None = None, *, brief: bool = False) -> list[tuple]:
        """Papers whose title, abstract or notes contain every word of ``text``, best first,
        with a score 0-100 (words in the title count most, then notes, then the abstract).
        ``brief``: :class:`~readinglist.store.cache.Listed` rows instead of whole papers."""
        _check_limit(limit)
        score = _matcher(text)
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
