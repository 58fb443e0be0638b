"""Atomic file writes: a temporary file in the same folder, fsync, then a rename.

A crash or a kill at any moment leaves each file either as it was or as it is meant to be,
never torn. New files get the usual mode (0666 less the umask), not ``mkstemp``'s 0600, so a
store or an export shared in git or with a group stays readable.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from collections.abc import Mapping

#: Above this many files, one ``os.sync()`` replaces an fsync per file (same guarantee, faster).
SYNC_EACH_MAX = 64


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def replace_files(folder: str | os.PathLike, files: Mapping[str, str | None]) -> None:
    """Write each ``name -> text`` in ``folder`` atomically (``None`` deletes ``name``).

    All temporary files are written and synced before the first rename, so an interrupted
    batch leaves every file old or new. Raises OSError; temporary files are removed on failure.
    """
    folder = Path(folder)
    mode = 0o666 & ~_umask()
    many = sum(text is not None for text in files.values()) > SYNC_EACH_MAX and hasattr(os, "sync")
    written: list[tuple[str, str]] = []  # (temp path, file name)
    try:
        for name, text in files.items():
            if text is None:
                continue
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
            written.append((tmp, name))
            with os.fdopen(fd, "wb") as fh:
                os.fchmod(fh.fileno(), mode)
                fh.write(text.encode("utf-8"))
                if not many:
                    fh.flush()
                    os.fsync(fh.fileno())
        if many:
            os.sync()
        for tmp, name in written:
            os.replace(tmp, folder / name)
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


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically, creating its folder if needed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_files(path.parent, {path.name: text})


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
