"""The writers' lock of a store: an exclusive ``flock`` on its ``.lock`` file, waited for up to a
timeout.

On POSIX this is the few lines of :func:`fcntl.flock` that filelock's ``UnixFileLock`` runs (the
same kind of lock, so readinglist processes with either wait for each other); importing filelock
itself brings logging, platform, hashlib... into every command that changes one paper. Where there is no ``fcntl`` (Windows), filelock does it.
"""

from __future__ import annotations

import os
import time

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: how often a waiting writer tries again (filelock's default)
POLL_SECONDS = 0.05


class Timeout(Exception):
    """The lock stayed held by another process for the whole timeout."""


class StoreLock:
    """``acquire()`` / ``release()`` of an exclusive lock on ``path`` (made when missing, never
    removed, never written to); ``timeout`` in seconds, negative: wait as long as it takes. Not re-entrant: the
    store takes it once per outermost transaction."""

    def __init__(self, path: str, *, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None
        self._other = None
        if fcntl is None:  # pragma: no cover - Windows
            from filelock import FileLock

            self._other = FileLock(path, timeout=timeout)

    def acquire(self) -> None:
        if self._other is not None:  # pragma: no cover - Windows
            from filelock import Timeout as FileLockTimeout

            try:
                self._other.acquire()
            except FileLockTimeout:
                raise Timeout(self.path) from None
            return
        assert self._fd is None, "the store's lock is taken once"
        # read-only, never truncated: flock needs no write access, and a ``.lock`` that is a
        # hard link to a file out of the store (or any file the store did not make) stays as it is
        fd = os.open(self.path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), 0o644)  # (a FIFO: no wait)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if 0 <= self.timeout and deadline <= time.monotonic():
                    os.close(fd)
                    raise Timeout(self.path) from None
                time.sleep(POLL_SECONDS)
            except OSError:
                os.close(fd)
                raise
            else:
                self._fd = fd
                return

    def release(self) -> None:
        if self._other is not None:  # pragma: no cover - Windows
            self._other.release()
            return
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
