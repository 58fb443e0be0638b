"""One forked child doing one piece of work while this process does another (POSIX only).

:func:`fork` starts ``work()`` in a child that sends the bytes it returns through a pipe
(:func:`fork_writer`: ``work(out)`` writes them as it goes);
:func:`collect` reads them and waits for the child, giving None when the child failed in any
way, so the caller does that work itself and gets the result (and the errors) it would have
got without a child. Used where one process would take noticeably longer: a fresh clone's
stat pass and parsing (:mod:`readinglist.store.cache`), a large ``.bib`` file's entries
(:mod:`readinglist.formats.bibtex.reader`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from typing import BinaryIO

Child = tuple[int, int]  # (pid, read end of its pipe)


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
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: work, send, leave without running any cleanup
        code = 1
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                work(out)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


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
