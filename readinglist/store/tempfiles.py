"""Temporary files beside the files they become: the one writer of such a file (it keeps the
mode of the file it will replace and never writes through a link: :func:`write_temp`), the
texts a transaction writes early (:class:`Staged`, :func:`stage_files`), and the removal of
those that killed writers left (:func:`remove_leftovers`). :mod:`.atomic` renames them into
place.

A temporary file is named ``.<name>.<pid>-<random>.tmp`` in the folder of ``name``: the store's
scan and :func:`remove_leftovers` know it by that.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from collections.abc import Iterable, Mapping

#: What a file is written from: text, bytes, or pieces of text written as they come.
Text = str | bytes | Iterable[str]


class LinkRefused(OSError):
    """A write that would go through a symbolic link or out of the store."""


def link_refused(folder: Path, name: str) -> LinkRefused:
    """The error for a write to ``folder/name``, a symbolic link."""
    return LinkRefused(
        errno.ELOOP,
        f"{folder / name} is a symbolic link; readinglist does not write through links "
        "(replace it with the file it points to)",
        str(folder / name),
    )


def check_inside(folder: str | os.PathLike, root: str | os.PathLike) -> None:
    """LinkRefused unless ``folder`` (links resolved) is ``root`` or inside it."""
    real, top = os.path.realpath(folder), os.path.realpath(root)
    if real != top and not real.startswith(top.rstrip(os.sep) + os.sep):
        raise LinkRefused(errno.EXDEV, f"{folder} leads out of the store (to {real}); readinglist does not write there", str(folder))


class Staged:
    """A file's new text already written to a temporary file beside it (see :func:`stage_files`):
    :func:`replace_files` takes it as it takes text, and renames it into place with the rest."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def text(self) -> str:
        with open(self.path, encoding="utf-8") as fh:
            return fh.read()

    def discard(self) -> None:
        try:
            os.unlink(self.path)
        except OSError:
            pass


def new_file_mode() -> int:
    """The mode of a new file: 0666 less the umask (not ``mkstemp``'s 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def stage_files(folder: str | os.PathLike, files: Mapping[str, str], *, inside: str | os.PathLike | None = None) -> dict[str, Staged]:
    """Write each ``name -> text`` to a temporary file in ``folder`` now, without syncing or
    renaming it: :func:`replace_files` later takes the :class:`Staged` results among its texts
    (so a large batch need not be held in memory until then). Nothing replaces a file yet; a
    kill leaves only temporary files, which the store removes. Raises OSError, leaving no
    temporary file of this call behind; the caller discards the staged files it does not use."""
    folder = Path(folder)
    if inside is not None:
        check_inside(folder, inside)
    new_mode = new_file_mode()
    token = f"{os.getpid()}-{os.urandom(3).hex()}"
    out: dict[str, Staged] = {}
    try:
        for name, text in files.items():
            out[name] = Staged(write_temp(folder, name, text, inside=inside, new_mode=new_mode, token=token, sync=False))
    except BaseException:
        for done in out.values():
            done.discard()
        raise
    return out


def write_temp(folder: Path, name: str, text: Text, *, inside, new_mode: int, token: str, sync: bool) -> str:
    """Write ``text`` to a new temporary file beside ``folder/name``, with the mode the file
    has (else the usual one); the temporary file's path. A target that is a symbolic link is
    refused with ``inside``. The temporary file is removed if writing fails."""
    base = os.fspath(folder) + os.sep
    # one lstat per file: a link is refused (with ``inside``), a file keeps its mode
    try:
        st: os.stat_result | None = os.lstat(base + name)
    except OSError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        if inside is not None:
            raise link_refused(folder, name)
        try:
            st = os.stat(base + name)
        except OSError:
            st = None
    mode = stat.S_IMODE(st.st_mode) if st is not None and stat.S_ISREG(st.st_mode) else new_mode
    fd, tmp = _create_temp(base, name, token)
    try:
        try:
            if mode != new_mode:  # the new file has the usual mode already (0666 - umask)
                os.fchmod(fd, mode)
            if isinstance(text, (str, bytes)):
                _write_all(fd, text.encode("utf-8") if isinstance(text, str) else text)
            else:  # pieces, written as they come (an export streams its text)
                with os.fdopen(fd, "wb", closefd=False) as fh:
                    for piece in text:
                        fh.write(piece.encode("utf-8"))
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
    except UnicodeEncodeError as exc:  # a lone surrogate: bytes that were not UTF-8 text
        try:
            os.unlink(tmp)
        except OSError:
            pass
        from ..errors import ValidationError

        bad = exc.object[exc.start] if isinstance(exc.object, str) else "?"
        raise ValidationError(f"{folder / name}: the text to write holds U+{ord(bad):04X}, which is not Unicode text (bytes that were not UTF-8); nothing was written") from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return tmp


def _create_temp(base: str, name: str, token: str) -> tuple[int, str]:
    """A new temporary file beside ``base + name`` (``.<name>.<pid>-<random>.tmp``, which the
    store's scan recognises as a leftover), opened for writing with the usual mode: one
    ``open`` call (``mkstemp`` would add a chmod and its own name loop). ``mkstemp`` only if
    the name is taken."""
    tmp = f"{base}.{name[:80]}.{token}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(tmp, flags, 0o666), tmp
    except FileExistsError:
        import tempfile

        fd, tmp = tempfile.mkstemp(prefix=f".{name[:80]}.", suffix=".tmp", dir=base)
        os.fchmod(fd, new_file_mode())
        return fd, tmp


_LEFTOVER = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]{1,10})-[0-9a-f]{6}\.tmp")


def remove_leftovers(folder: str | os.PathLike, name: str | None = None) -> list[str]:
    """Remove the temporary files that writers killed mid-write (``kill -9``, a power cut) left in
    ``folder`` (those of the file ``name`` only, when given): ``.<name>.<pid>-<random>.tmp``
    files whose writer, the process ``pid``, is gone. A live writer's files are left alone (it
    may be writing them now), and so is anything that is not a regular file. The names removed."""
    removed: list[str] = []
    try:
        entries = list(os.scandir(os.fspath(folder)))
    except OSError:
        return removed
    for entry in entries:
        m = _LEFTOVER.fullmatch(entry.name)
        if m is None or (name is not None and m["name"] != name[:80]):
            continue
        pid = int(m["pid"])
        try:
            if not entry.is_file(follow_symlinks=False) or pid == os.getpid() or _alive(pid):
                continue
            os.unlink(entry.path)
            removed.append(entry.name)
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # (another user's process: it is there)
    return True


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
