"""A store's reading side: the index of every paper (:mod:`.cache`, brought up to date with
the files), and the one query engine over it: :meth:`Queries.find` and :meth:`Queries.search`
with their filters, sorts and scores, ``len``, iteration and ``keys``.

Outside a transaction a query runs in SQL on the cache and loads only the papers it returns;
inside one, on the transaction's index (its own changes included), by the same filters
(tests/store/test_query_engines.py compares the two).
"""

from __future__ import annotations

import os
import re
import contextlib
from collections.abc import Callable, Iterable, Iterator

from ..constants import SORTS, STATUSES
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

#: The index is written back to the cache after this many files were parsed again.
CACHE_SAVE_AFTER = 64

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


class Queries(Transactions):
    """The index and the queries of a store (see :meth:`find`)."""

    cache_dir: Path
    processes: int
    _broken: dict[str, str]
    building: Callable[[int], contextlib.AbstractContextManager] | None

    def _load_index(self, *, save: bool = True):
        """The index of every paper file: scanned afresh, except once a transaction has
        scanned it under the lock (then nobody else can have changed it). ``save=False``: the
        caller saves the cache itself later (an import, after writing), so a changed index is
        not written twice."""
        from . import cache

        if self._index is not None and self._depth > 0 and self._index_locked:
            return self._index
        if self._index is not None:
            index, scan_ns = cache.scan(self.papers_dir, self._index, processes=self.processes)
        else:
            previous, stats = cache.load_and_stat(self.cache_dir, self.papers_dir, processes=self.processes)
            index, scan_ns = cache.scan(self.papers_dir, previous, stats, processes=self.processes)
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
                synced = cache.sync(self.cache_dir, self.papers_dir, processes=self.processes)
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
        if self._depth > 0:  # inside a transaction: its own changes are not written yet
            out = self._find_in_memory(statuses, wanted, venue_cf, year, priority, rating, search, order, reverse)
            out = out[:limit] if limit is not None else out
            if lines:
                from .cache import plain_line_of

                return [plain_line_of(p) for p in out]
            if json:
                from .cache import json_line

                return [json_line(p).encode() for p in out]
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
