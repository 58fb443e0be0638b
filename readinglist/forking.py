"""Every process readinglist forks (POSIX only): one child doing one piece of work while this
process does another, and the pools of generation workers.

:func:`fork` starts ``work()`` in a child that sends the bytes it returns through a pipe
(:func:`fork_writer`: ``work(out)`` writes them as it goes);
:func:`collect` reads them and waits for the child, giving None when the child failed in any
way, so the caller does that work itself and gets the result (and the errors) it would have
got without a child. Used where one process would take noticeably longer: a fresh clone's
stat pass and parsing (:mod:`readinglist.store.cache`), a large ``.bib`` file's entries
(:mod:`readinglist.formats.bibtex.reader`), a large export's second half
(:mod:`readinglist.formats.exporting`). :func:`pool` forks a ``multiprocessing`` pool
(:class:`readinglist.convert.pipeline.Workers`).

The library forks only when its caller asks: every site takes ``processes`` (default 1, no
fork) and asks :func:`workers` how many processes it may use; the CLI, which owns its process,
passes :func:`cores`.

Every child :func:`leaves_with_parent`: it ignores SIGINT (Ctrl-C reaches the whole foreground
process group; the parent decides, and stops its children), takes SIGTERM's default action (it
dies at once, without a traceback), and dies when its parent dies, however the parent ends (even
by SIGKILL): ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux, elsewhere a thread that watches the
parent's pid. No child outlives the command that started it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from typing import BinaryIO, NoReturn

Child = tuple[int, int]  # (pid, read end of its pipe)


def workers(processes: int, limit: int | None = None) -> int:
    """How many processes a job may use when its caller passed ``processes``: 1 (no fork)
    unless the caller asked for more and this system can fork; at most ``limit``."""
    if processes < 2 or not hasattr(os, "fork"):
        return 1
    return processes if limit is None else max(1, min(processes, limit))


def cores() -> int:
    """The cores this process may run on (what the CLI passes as ``processes``)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def fork(work: Callable[[], bytes]) -> Child | None:
    """A forked child running ``work()`` and sending what it returns, or None if it cannot start."""
    return fork_writer(lambda out: out.write(work()))


def fork_writer(work: Callable[[BinaryIO], object]) -> Child | None:
    """A forked child running ``work(out)``, which writes to the pipe as it goes (a child that
    streams its results), or None if it cannot start. The child leaves with status 0 when
    ``work`` returns, 1 when it raises, without running any cleanup of this process."""
    if not hasattr(os, "fork"):
        return None
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    parent = os.getpid()
    try:
        with _sigint_ignored():  # (no Ctrl-C between the fork and the child's own settings)
            pid = os.fork()
            if pid == 0:  # the child starts here, still ignoring SIGINT, and never leaves this block
                _child(parent, read_end, write_end, work)
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    os.close(write_end)
    return pid, read_end


def _child(parent: int, read_end: int, write_end: int, work: Callable[[BinaryIO], object]) -> NoReturn:
    """The forked child: work, send, leave without running any cleanup. Called inside the block
    that ignores SIGINT: leaving that block would restore the parent's Ctrl-C handler for a moment
    (a Ctrl-C then raised KeyboardInterrupt in the child, which ran on in the parent's code)."""
    code = 1
    try:
        leaves_with_parent(parent)
        os.close(read_end)
        with os.fdopen(write_end, "wb") as out:
            work(out)
        code = 0
    finally:
        os._exit(code)


def collect(child: Child | None) -> bytes | None:
    """What the child sent, once it ended; None if it failed (or there is no child)."""
    if child is None:
        return None
    pid, read_end = child
    try:
        with os.fdopen(read_end, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
    except OSError:
        return None
    return data if status == 0 else None


def discard(child: Child | None) -> None:
    """Stop the child (its work is not wanted any more) and wait for it."""
    if child is not None:
        import signal

        with contextlib.suppress(OSError):
            os.kill(child[0], signal.SIGKILL)
        collect(child)


def pool(processes: int):
    """A ``multiprocessing`` pool of ``processes`` forked workers that leave with this process
    (see :func:`leaves_with_parent`); close it with ``terminate()`` and ``join()``."""
    import multiprocessing

    with _sigint_ignored():  # (the workers are born ignoring Ctrl-C)
        return multiprocessing.get_context("fork").Pool(processes, initializer=leaves_with_parent, initargs=(os.getpid(),))


def leaves_with_parent(parent: int) -> None:
    """Called first in a forked child of ``parent``: SIGINT ignored, SIGTERM's default action,
    and death with the parent (at once if it is gone already)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if not _death_signal():
        import threading

        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the child could ask
        os._exit(1)


def _death_signal() -> bool:
    """Ask Linux to send this process SIGKILL when its parent ends; False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _watch_parent(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


@contextlib.contextmanager
def _sigint_ignored():
    """SIGINT ignored meanwhile (in the main thread only: elsewhere signals cannot be set)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
