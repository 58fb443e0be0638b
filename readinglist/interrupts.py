"""Interruptions (Ctrl-C, SIGTERM, SIGHUP) as one exception, and the sections they must not cut.

Without :func:`install` nothing changes: Python's SIGINT handler raises KeyboardInterrupt where
the main thread happens to be, and SIGTERM ends the process at once. The CLI calls
:func:`install` (the library never sets a signal handler on its own): SIGINT, SIGTERM and SIGHUP
then raise :class:`Interrupted` (a KeyboardInterrupt, so every ``finally`` and cleanup runs:
temporary files are removed, children stopped), except inside :func:`uninterrupted`, where the
signal is held until the section ends. Library code marks with it what must be done whole once
begun (a transaction's files renamed into place and the cache told): an interruption then
comes after it, and the command knows that the work was saved.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

_depth = 0  # uninterrupted sections entered
_held: int | None = None  # a signal received inside one


class Interrupted(KeyboardInterrupt):
    """A signal that ends the command: ``signum``, and ``kept``: what the interrupted work kept
    (a sentence for the one line the CLI prints; empty when nothing more is known)."""

    def __init__(self, signum: int = signal.SIGINT, kept: str = "") -> None:
        super().__init__(signum, kept)
        self.signum = signum
        self.kept = kept

    @property
    def exit_code(self) -> int:
        return 128 + int(self.signum)  # as a shell reports a process killed by the signal


def install() -> None:
    """SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted` from now on (main thread only)."""
    for signum in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:  # (nohup: stays ignored)
            signal.signal(signum, _raise)


def _raise(signum: int, frame) -> None:
    global _held
    if _depth:
        _held = signum
        return
    raise Interrupted(signum)


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """A section that an installed handler does not cut: a signal received meanwhile is raised
    as :class:`Interrupted` when it ends (only then)."""
    global _depth, _held
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _held is not None:
            signum, _held = _held, None
            raise Interrupted(signum)


def interrupted(exc: BaseException, kept: str) -> Interrupted:
    """``exc`` (a KeyboardInterrupt) as an :class:`Interrupted` that says ``kept``."""
    return Interrupted(getattr(exc, "signum", signal.SIGINT), kept)


def message(exc: BaseException) -> tuple[str, int]:
    """The one line the CLI prints for an interruption, and the exit status."""
    signum = getattr(exc, "signum", signal.SIGINT)
    kept = getattr(exc, "kept", "") or "each change to the store is saved whole or not at all"
    name = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
    return f"readinglist: {name}: {kept}", 128 + int(signum)
