"""The stat pass over the paper files: each file's signature ``(inode, size, mtime_ns, ctime_ns)``,
the folder's listing, and the digest of the signatures that tells, in one comparison, that
nothing changed (on a large store a forked child stats half of the files).
"""

from __future__ import annotations


import marshal
import os
import struct
import time
from collections.abc import Iterable
from pathlib import Path

from ...errors import StoreError
from ...forking import collect, discard, fork_writer, workers as usable_workers


TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    pass


RACY_NS = 100_000_000  # 0.1 s

Signature = tuple  # (st_ino, st_size, st_mtime_ns, st_ctime_ns), and st_mode for a file that is not regular


def signature(st: os.stat_result) -> Signature:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


Stats = tuple  # (signatures by file name, leftover temp files, when the stat pass started)


def stat_files(papers_dir: Path, *, processes: int = 1) -> Stats:
    """The signature of every paper file (one ``stat`` each), the temp files killed writers
    left, and the time the pass started. ``processes`` > 1: on a large store a forked child stats
    half of the files (the pass is system calls, which two cores make twice as fast); if the
    child fails in any way, this process stats its half too."""
    scan = Scan(papers_dir, processes=processes)
    try:
        return scan.sigs(), scan.temp, scan.scan_ns
    finally:
        scan.close()


class Scan:
    """One stat pass over the paper files, which a read compares with the cache by
    :meth:`digest` before it asks for the signatures themselves (:meth:`sigs`).

    On a large store (and ``processes`` > 1) a forked child stats half of the files and sends first the
    :func:`digest_part` of its half (16 bytes), then its signatures; when the digest shows that
    nothing changed, the common case, the signatures are never sent, read nor merged (the child
    is stopped by :meth:`close`). If the child fails in any way, this process stats its half."""

    __slots__ = ("papers_dir", "temp", "scan_ns", "listing", "_sigs", "_rest", "_child", "_part")

    def __init__(self, papers_dir: Path, *, processes: int = 1, listing: Listing | None = None) -> None:
        self.papers_dir = papers_dir
        self.scan_ns = time.time_ns()
        # self.listing: a listing of the folder worth remembering (see list_folder), or None
        names, self.temp, self.listing = list_folder(papers_dir, listing, self.scan_ns)
        self._rest: list[str] = []  # the child's half
        self._child: tuple[int, int] | None = None
        self._part: tuple[int, int] | None = None  # the child's digest part, once read
        if len(names) >= FORK_MIN_FILES and usable_workers(processes) >= 2:
            half = len(names) // 2
            names, self._rest = names[:half], names[half:]
            self._child = fork_writer(self._send)
        self._sigs = stat_names(papers_dir, names)

    def _send(self, out) -> None:
        """(in the child) The digest part of the child's half, then its signatures."""
        sigs = stat_names(self.papers_dir, self._rest)
        out.write(PART.pack(*digest_part(sigs)))
        out.flush()
        out.write(marshal.dumps(sigs))

    def digest(self) -> int | None:
        """:func:`digest` of :meth:`sigs`, without them where a child stats half of the files."""
        part = self._child_part()
        if part is None:
            return digest(self._sigs)
        mine, count = digest_part(self._sigs)
        return combined(mine + part[0], count + part[1])

    def sigs(self) -> dict[str, Signature]:
        """Every paper file's signature (the child's half received and merged)."""
        if self._child_part() is not None:
            child, self._child = self._child, None
            received = collect_marshalled(child)
            if isinstance(received, dict):
                self._sigs.update(received)
            else:
                self._sigs.update(stat_names(self.papers_dir, self._rest))
        return self._sigs

    def _child_part(self) -> tuple[int, int] | None:
        """The child's digest part (read once), or None when there is no child: none was
        started, or it failed, and then this process has stat'ed its half."""
        if self._part is None and self._child is not None:
            header = read_exactly(self._child[1], PART.size)
            if header is None:
                self._take_over()
            else:
                self._part = PART.unpack(header)
        return self._part if self._child is not None else None

    def _take_over(self) -> None:
        child, self._child = self._child, None
        discard(child)
        self._sigs.update(stat_names(self.papers_dir, self._rest))

    def close(self) -> None:
        """Stop a child whose signatures were not needed (and wait for it)."""
        child, self._child = self._child, None
        discard(child)


Listing = tuple  # (the folder's signature, the names of its paper files, of its temp files)


def list_folder(folder: Path, known: Listing | None, scan_ns: int) -> tuple[list[str], list[str], Listing | None]:
    """The names of the paper files (``*.toml``, not hidden) in ``folder``, of the temp files
    killed writers left there (``.*.tmp``), and the listing to remember for the next scan (None:
    nothing new worth remembering).

    ``known`` is a listing remembered earlier: when the folder's signature (inode, mtime and ctime)
    is the same, so are its names -- creating, removing or renaming an entry updates both times
    of the folder (POSIX), and nothing can set a ctime back -- and the ``os.listdir`` of tens of
    thousands of names is spared. A file edited in place changes no name:
    the stat of every file still sees it. A new listing is worth remembering only when the
    folder last changed more than ``RACY_NS`` before the scan began: a change in the same tick
    of the file system's clock could leave both times as they were (the rule git's index uses
    for files, and the cache for the paper files)."""
    try:
        st = os.stat(folder)
        sig = (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
        if known is not None and known[0] == sig:
            return known[1], known[2], None
        names = os.listdir(folder)
    except FileNotFoundError:
        return [], [], None
    except OSError as exc:
        from ..atomic import describe

        raise StoreError(f"{folder}: cannot read the papers folder: {describe(exc)}") from None
    papers = [n for n in names if n.endswith(".toml") and not n.startswith(".")]
    temp = [n for n in names if n.startswith(".") and n.endswith(".tmp")]
    limit = scan_ns - RACY_NS
    return papers, temp, ((sig, papers, temp) if st.st_mtime_ns < limit and st.st_ctime_ns < limit else None)


#: A digest part as the stat child sends it: (sum of the signatures' hashes mod 2**64, count).
PART = struct.Struct("<QQ")


def read_exactly(fd: int, n: int) -> bytes | None:
    """``n`` bytes from the pipe ``fd``, or None if it ends (or fails) first."""
    data = b""
    try:
        while len(data) < n:
            more = os.read(fd, n - len(data))
            if not more:
                return None
            data += more
    except OSError:
        return None
    return data


def stat_names(papers_dir: Path, names: list[str]) -> dict[str, Signature]:
    """The signatures of the paper files ``names`` (those found)."""
    stat = os.stat
    sigs: dict[str, Signature] = {}
    folder = os.open(papers_dir, os.O_RDONLY) if os.stat in os.supports_dir_fd and names else None
    base = "" if folder is not None else os.fspath(papers_dir) + os.sep
    try:
        for name in names:
            try:
                st = stat(base + name, dir_fd=folder)
            except FileNotFoundError:  # removed while we looked
                continue
            if st.st_mode & 0o170000 == 0o100000:
                sigs[name] = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            else:  # a folder, FIFO or device: never opened by the bulk reader (see odd)
                sigs[name] = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)
    finally:
        if folder is not None:
            os.close(folder)
    return sigs


def odd(sigs: dict[str, Signature | None], names: Iterable[str]) -> frozenset[str]:
    """Which of ``names`` the stat pass found are not regular files (see :func:`_stat_names`)."""
    return frozenset(n for n in names if (s := sigs.get(n)) is not None and len(s) != 4)


#: Below this many files a second process costs more than the stat pass it saves.
FORK_MIN_FILES = 2000


def digest(sigs: dict) -> int | None:
    """A number that changes when any signature does (None when one is not trusted): comparing
    it spares loading every stored signature when nothing changed, the common case. Signatures
    are tuples of ints, whose hashes are the same in every process of one Python version."""
    if None in sigs.values():
        return None
    return combined(*digest_part(sigs))


def digest_part(sigs: dict) -> tuple[int, int]:
    """(the sum of the signatures' hashes mod 2**64, their count): :func:`digest` of a dict
    made of several parts is :func:`_combined` of the parts' sums (a stat pass done by two
    processes sends no signatures to learn that nothing changed)."""
    return sum(map(hash, sigs.values())) % (1 << 64), len(sigs)


def combined(total: int, count: int) -> int:
    return (total + count) & 0x7FFF_FFFF_FFFF_FFFF  # an SQLite integer

def collect_marshalled(child: tuple[int, int] | None):
    """What a worker sent (marshal data), or None if it failed."""
    data = collect(child)
    try:
        return None if data is None else marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
