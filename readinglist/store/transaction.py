"""A store's transactions: the lock, the texts a transaction will write (pending, spilled to
temporary files when there are many), the writing of them all at its end (temp file, fsync,
rename), and the hooks that run then. :class:`Transactions` is the writing side of
:class:`~readinglist.store.library.Store`.

Every write goes through a temporary file in ``papers/``, ``fsync`` and ``os.replace`` while
the lock is held: a killed writer leaves each file either old or new, never torn. A
transaction that raises writes nothing.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from collections.abc import Callable, Mapping

from ..errors import StoreError
from . import paperrow

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import TypeGuard

    from .tempfiles import Staged
    from .cache import Synced
    from .lock import StoreLock


def _staged(text) -> TypeGuard[Staged]:
    """Whether a pending value is a :class:`~readinglist.store.atomic.Staged` file (not text
    nor None); atomic is not imported to ask, so that reading commands never load it."""
    return text is not None and text.__class__ is not str


#: A transaction holding more new texts than this writes them to temporary files as it goes
#: (renamed into place with the rest when it ends), so a large import's memory does not grow
#: with the text of every file it writes.
SPILL_AFTER = 512


class Transactions:
    """The lock, the pending texts and the hooks of a store (see :meth:`transaction`)."""

    root: Path
    papers_dir: Path
    lock_path: Path
    lock_timeout: float
    def _init_transactions(self) -> None:
        self._lock: StoreLock | None = None
        self._depth = 0
        self._pending: dict[str, str | Staged | None] = {}  # file name -> new text (None: delete)
        self._unstaged = 0  # texts in _pending not written to temporary files yet
        self._after_flush: list[Callable[[], None]] = []  # run once written, the lock still held
        self._at_end: list[Callable[[], None]] = []  # run when the transaction ends, written or not
        self._on_commit: list[Callable[[], None]] = []  # run after each transaction that succeeded, unlocked
        self._committed = False  # the on_commit callbacks are running
        self._view: Synced | None = None  # the transaction's view of the cache, made by its first query (see .query)

    @contextmanager
    def transaction(self):
        """Hold the store's lock for a batch of changes and write them together at the end.

        Reads inside the transaction see its own changes. If the block raises, nothing of it
        is written. Transactions nest (only the outermost one writes).
        """
        if self._depth == 0:
            self._acquire()
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
                try:
                    self._close_view()
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
                    self._close_view()
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

    def _close_view(self) -> None:
        """Drop the transaction's view of the cache (its changes are in the files now, or nowhere)."""
        view, self._view = self._view, None
        if view is not None:
            view.close()

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
            where = exc.filename or papers
            raise StoreError(f"{where}: cannot write the store: {exc.strerror or exc}") from None

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
        from .tempfiles import stage_files

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

    def _read(self, name: str) -> str | None:
        """The current text of papers/<name> (pending writes first), or None if there is none."""
        if name in self._pending:
            text = self._pending[name]
            return text if text is None or isinstance(text, str) else text.text()
        try:
            return paperrow.read_text(self.papers_dir / name)
        except FileNotFoundError:
            return None
