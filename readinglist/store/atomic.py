"""The one file layer: atomic writes that keep modes and never leave the store, and one
bounded reader.

Writes (:func:`replace_files`): a temporary file in the same folder (:mod:`.tempfiles` writes
it), fsync, then a rename. A crash or a kill at any moment leaves each file either as it was or
as it is meant to be, never torn. A file that exists keeps its permission bits (``chmod 600`` on a private paper survives
every write); a new file gets the usual mode (0666 less the umask), not ``mkstemp``'s 0600, so
a store shared in git or with a group stays readable.

Links: with ``inside`` (the store's root) given, the folder must resolve inside that root and a
target that is a symbolic link is refused (:class:`LinkRefused`): the store reads a paper file
that is a link, but never writes through one, nor replaces the person's link with a file. An
export (:func:`write_atomic` without ``inside``) writes to the file a link points to, as
editors do.

Reads (:func:`read_bounded`): only regular files, at most ``limit`` bytes. A FIFO, a device, a
socket or a folder where a file should be is refused before anything is read (so ``/dev/zero``
or a FIFO named ``papers/x.toml`` never hangs a command nor eats the memory).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from collections.abc import Mapping

from .tempfiles import (  # (check_inside and LinkRefused are this layer's too)
    LinkRefused as LinkRefused,
    Staged,
    Text as Text,
    check_inside as check_inside,
    link_refused,
    new_file_mode,
    remove_leftovers,
    write_temp,
)

#: Above this many files, one ``os.sync()`` replaces an fsync per file (same guarantee, faster).
SYNC_EACH_MAX = 64
#: Largest input file read (abstract lists, .bib, CSL-JSON): 256 MB.
INPUT_LIMIT = 256 << 20


class NotRegularFile(OSError):
    """A FIFO, device, socket or folder where a regular file was expected."""


class TooLarge(OSError):
    """A file larger than the reader's limit."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def replace_files(folder: str | os.PathLike, files: Mapping[str, Text | Staged | None], *, inside: str | os.PathLike | None = None) -> None:
    """Write each ``name -> text`` in ``folder`` atomically (``None`` deletes ``name``; text
    may also be an iterable of strings, written piece by piece, or a :class:`Staged` file).

    All temporary files are written and synced before the first rename, so an interrupted
    batch leaves every file old or new. An existing file keeps its mode. With ``inside``,
    ``folder`` must lie inside that folder and no target may be a symbolic link
    (LinkRefused). Raises OSError; temporary files are removed on failure.
    """
    folder = Path(folder)
    if inside is not None:
        check_inside(folder, inside)
    base = os.fspath(folder) + os.sep

    if inside is not None:
        for name, text in files.items():
            if text is None and os.path.islink(base + name):  # (written names: checked below)
                raise link_refused(folder, name)
    new_mode = new_file_mode()
    staged = any(isinstance(text, Staged) for text in files.values())
    many = (staged or sum(text is not None for text in files.values()) > SYNC_EACH_MAX) and hasattr(os, "sync")
    written: list[tuple[str, str]] = []  # (temp path, file name)
    token = f"{os.getpid()}-{os.urandom(3).hex()}"
    try:
        for name, text in files.items():
            if text is None:
                continue
            if isinstance(text, Staged):  # written already; synced by the os.sync() below
                written.append((text.path, name))
                if not many:  # (where there is none)
                    fd = os.open(text.path, os.O_RDONLY)
                    try:
                        os.fsync(fd)
                    finally:
                        os.close(fd)
                continue
            written.append((write_temp(folder, name, text, inside=inside, new_mode=new_mode, token=token, sync=not many), name))
        if many:
            os.sync()
        for tmp, name in written:
            os.replace(tmp, base + name)
        written = []
        for name, text in files.items():
            if text is None:
                try:
                    os.unlink(folder / name)
                except FileNotFoundError:
                    pass
        fsync_dir(folder)
    except BaseException:
        for tmp, _ in written:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise


def write_atomic(path: str | os.PathLike, text: Text, *, inside: str | os.PathLike | None = None) -> None:
    """Write ``text`` to ``path`` atomically, creating its folder if needed.

    Without ``inside``, a ``path`` that is a symbolic link is followed: the file it points to is
    replaced (the link stays). With ``inside``, see :func:`replace_files`."""
    path = Path(path)
    if inside is None and os.path.islink(path):
        path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_files(path.parent, {path.name: text}, inside=inside)


def write_output(path: str | os.PathLike, text: Text) -> None:
    """:func:`write_atomic` for an export the user named: every failure is an OutputError with
    one line naming the path (a folder, an empty name, no such folder, a regular file where a
    folder should be, no permission, a full disk)."""
    from ..errors import OutputError

    name = os.fspath(path)
    if not name.strip():
        raise OutputError("the output file name is empty")
    p = Path(name)
    if p.is_dir() or name.endswith(os.sep):
        raise OutputError(f"{name}: is a folder; give a file name (e.g. {os.path.join(name, 'papers.bib')})")
    if p.exists() and not p.is_file():
        st = p.stat()
        raise OutputError(f"{name}: is {_kind(st.st_mode)}, not a file readinglist can replace")
    for folder in p.parents:
        if os.path.lexists(folder):
            if not folder.is_dir():
                raise OutputError(f"{name}: cannot write: {folder} is a file, not a folder")
            break
    target = Path(os.path.realpath(p)) if os.path.islink(p) else p  # (where write_atomic writes)
    remove_leftovers(target.parent, target.name)  # (of an export killed before)
    try:
        write_atomic(p, text)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ENOTDIR:
            reason = "a part of this path is a file, not a folder"
        elif exc.errno == errno.ENOSPC:
            reason = "no space left on the device; nothing was written"
        raise OutputError(f"{name}: cannot write: {reason}") from None


def open_regular(path: str | os.PathLike) -> int:
    """A read-only descriptor of the regular file at ``path`` (the caller closes it); the errors
    of :func:`read_bounded` but TooLarge. What a reader of a file of any size opens."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(errno.EINVAL, f"{_kind(st.st_mode)}, not a regular file", os.fspath(path))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(st.st_mode):  # swapped between the stat and the open
        os.close(fd)
        raise NotRegularFile(errno.EINVAL, f"{_kind(st.st_mode)}, not a regular file", os.fspath(path))
    return fd


def read_bounded(path: str | os.PathLike, *, limit: int = INPUT_LIMIT) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises FileNotFoundError, PermissionError (OSError) as ``open`` does, NotRegularFile for a
    folder, FIFO, device or socket (checked before it is opened, and again once open), and
    TooLarge above ``limit`` bytes. Symbolic links are followed (reading through one is safe).
    """
    fd = open_regular(path)
    try:
        st = os.fstat(fd)
        if st.st_size > limit:
            raise TooLarge(errno.EFBIG, f"larger than {limit >> 20} MB ({st.st_size} bytes)", os.fspath(path))
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise TooLarge(errno.EFBIG, f"larger than {limit >> 20} MB", os.fspath(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


def byte_place(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column), both counted from 1, of the byte at ``offset`` in ``data`` (where a
    UnicodeDecodeError says the text stopped being UTF-8)."""
    return data.count(b"\n", 0, offset) + 1, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def describe(exc: OSError) -> str:
    """A short reason for an OSError from this module or ``open`` (no path in it)."""
    if isinstance(exc, (NotRegularFile, TooLarge, LinkRefused)):
        return exc.strerror or str(exc)
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, IsADirectoryError):
        return "a folder, not a file"
    return exc.strerror or str(exc)


def fsync_dir(path: str | os.PathLike) -> None:
    """Make a rename in ``path`` durable (no-op where folders cannot be opened, e.g. Windows)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
