"""The reading store: one hand-editable TOML file per paper, kept in git.

Layout of a store folder::

    papers/<key>.toml   one paper each (see :mod:`readinglist.store.paperfile`); the source of truth
    .cache/             a derived index (see :mod:`readinglist.store.cache`); may be deleted any time
    .lock               taken by every writer (flock: store/lock.py), so concurrent writers lose nothing
    .gitignore          ".cache/", ".lock" and temporary files

Reading one paper (``get``) and changing one (``set_status``, ``set_note``, ...) go straight to
``papers/<key>.toml``; only when a person renamed the key inside a file does the store consult
the cache. A file that does not parse is never overwritten. :class:`Store` is made of:

* :mod:`.transaction` -- the lock, pending texts, staging, the writing at the end, hooks;
* :mod:`.query` -- the one query engine, in SQL on the cache (find, search, look-ups);
* :mod:`.wholepapers` -- imports, official metadata, re-keying, removal, whole-file edits;
* this module -- opening, reading one paper and changing it by the rules of :mod:`.rules`
  (pure ``Paper -> Paper`` functions).

Typical use::

    store = Store.open("library")
    store.set_status("canvit2026", "reading")
    for paper in store.find(status="unread", tags=["llm"], sort="priority"):
        ...
"""

from __future__ import annotations

import os
import contextlib
from pathlib import Path
from collections.abc import Callable, Iterable

from ..errors import StoreError, UnknownKeyError
from . import paperrow, rules
from .paperrow import PRIORITIES, RATINGS
from .wholepapers import WholePapers

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from datetime import datetime

    from ..record import Paper
    from .importer import ImportSummary as ImportSummary

GITIGNORE = "# derived by readinglist; safe to delete\n.cache/\n.lock\npapers/.*.tmp\n"

# (the rules, and the checks of the values they take, are in .rules)
check_status = rules.check_status  # public: the CLI checks a status before it selects papers


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


# --------------------------------------------------------------------------- the store


class Store(WholePapers):
    """A folder of paper files. Open it with :meth:`Store.open`.

    Every method that changes a paper takes the store's lock, writes atomically and returns
    the paper as it now is. Several changes can be batched (one lock, one sync) in
    :meth:`transaction`; a transaction that raises writes nothing.
    """

    def __init__(self, root: Path, *, config=None, clock: Clock | None = None, lock_timeout: float = 30.0, processes: int = 1):
        self.root = root
        self.processes = processes  # > 1: reading a large store may fork (see readinglist.forking)
        self.papers_dir = root / "papers"
        self.cache_dir = root / ".cache"
        self.lock_path = root / ".lock"
        self._config = config
        self.clock: Clock = clock or utc_now
        self.lock_timeout = lock_timeout
        self._init_transactions()
        self._broken: dict[str, str] = {}  # files that did not parse when last read
        #: ``building(count)``: a context manager around the making of a cache from nothing
        #: (the first read of a fresh clone: seconds on a large store), given the number of paper
        #: files; the CLI shows what it is doing meanwhile
        self.building: Callable[[int], contextlib.AbstractContextManager] | None = None
        #: what :meth:`open` made: (the first folder it made, None), or (the store's folder that
        #: was there, the names it held); None if the store was there
        self._made: tuple[Path, frozenset[str] | None] | None = None

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls, path, *, config=None, create: bool = True, clock: Clock | None = None, lock_timeout: float = 30.0, processes: int = 1
    ) -> Store:
        """Open the store in folder ``path``, creating it (and its ``.gitignore``) if ``create``.

        ``config`` (a :class:`~readinglist.config.Config`, or a function that returns one when
        it is first needed) supplies the near-duplicate threshold for imports; ``clock`` returns the time history events are stamped with
        (default: now, UTC); ``lock_timeout`` is how long a writer waits for another one;
        ``processes`` > 1 lets reading a large store (a fresh clone's cache) fork that many
        workers at most (the CLI passes its cores; by default nothing forks).
        """
        root = Path(path)
        if root.exists() and not root.is_dir():
            raise StoreError(f"{root}: not a folder, so it cannot be a store")
        made: tuple[Path, frozenset[str] | None] | None = None
        if not (root / "papers").is_dir():
            if not create:
                raise StoreError(f"{root}: no store here (no papers/ folder; `readinglist import` makes one)")
            top = root
            while not top.parent.exists() and top.parent != top:  # (the first folder to make)
                top = top.parent
            made = (root, frozenset(os.listdir(root))) if root.is_dir() else (top, None)
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
        store = cls(root, config=config, clock=clock, lock_timeout=lock_timeout, processes=processes)
        store._made = made
        return store

    def discard_if_new(self) -> bool:
        """Remove the store again if :meth:`open` made it and it still holds no paper (an
        import that failed before it was saved leaves no trace); True if it was removed."""
        if self._made is None or any(self.papers_dir.iterdir()):
            return False
        import shutil

        top, there = self._made
        if there is None:  # a folder this open made (with any parents it made)
            shutil.rmtree(top, ignore_errors=True)
        else:  # the folder was there (empty, or not a store): only the store files it lacked
            for name in {".gitignore", ".lock", ".cache", "papers"} - there:
                path = self.root / name
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path, ignore_errors=True)
                elif os.path.lexists(path):
                    os.unlink(path)
        self._made = None
        return True

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

    # ------------------------------------------------------------------ reading one paper

    def _locate(self, key: str) -> tuple[str, str, Paper]:
        """(file name, text, paper) of the paper with ``key``: first ``papers/<key>.toml``,
        then the cache (for keys renamed by hand). UnknownKeyError with suggestions on a miss."""
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
        held = self._name_of(key)
        if held is not None:
            text = self._read(held)
            if text is not None:
                paper = self._paper_of(held, text)
                if paper.record.key == key:
                    return held, text, paper
        if self._broken:  # the key may be in a file that does not parse: say so
            raise StoreError(f"no paper with key {key!r}, and a paper file does not parse: " + "; ".join(self._broken.values()))
        raise UnknownKeyError(key, suggestions=self._suggest(key, [k for _, k in self._names_and_keys()]))

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

    # ------------------------------------------------------------------ changing one paper

    def _now(self) -> str:
        return _stamp(self.clock())

    def _save(self, name: str, text: str | None, old: Paper | None, new: Paper) -> Paper:
        """Stage ``new`` into papers/<name>, whose current text is ``text``, parsing to ``old``."""
        from .paperfile import canonical, paper_to_row

        new = canonical(new)
        new_row = paper_to_row(new)
        if text is None or (old is not None and text == paperrow.render_row(paper_to_row(old))):
            # a new file, or one nobody edited by hand: render it afresh instead of a tomlkit
            # round trip (slower, and a costly import); the result is the same text
            new_text = paperrow.render_row(new_row)
        else:  # keep the person's comments, layout and edits
            assert old is not None  # ``text`` exists, so it parsed to ``old``
            from .paperedit import edit

            new_text = edit(text, old, new, self.papers_dir / name)
        if new_text != text:
            self._stage(name, new_text)
            self._staged_paper(name, new)
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

