"""The process environment the command runs in, made sane before any command runs (the console
script's :func:`~readinglist.cli.main` calls :func:`prepare`; the library never does).

- **Standard streams.** A closed descriptor 0, 1 or 2 (``readinglist list >&-``) is reopened on
  ``/dev/null``, so that no file the store opens later (its lock, its cache) takes its number
  and receives what a child process writes there; a closed stdout is then an error before any
  work is done (nothing is written half). Output never fails on an encoding: a C/POSIX
  locale's ASCII becomes UTF-8 (what Python itself does there unless ``PYTHONUTF8=0``), any
  other encoding writes what it cannot encode as ``\\xNN`` escapes.
- **Arguments.** An argument that is not UTF-8 text (``note -m $'\\xff'``: Python hands it over
  as lone surrogates) is refused with one line naming it, before any work.
"""

from __future__ import annotations

import os
import sys


def _reopen_closed() -> set[int]:
    """Reopen each closed standard descriptor on /dev/null; the ones that were closed."""
    closed = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(fd)
    for fd in sorted(closed):
        opened = os.open(os.devnull, os.O_RDWR)
        if opened != fd:  # (the lower ones are open by now, so this does not happen)
            os.dup2(opened, fd)
            os.close(opened)
    if 2 in closed or sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
    if 0 in closed or sys.stdin is None:
        sys.stdin = open(0, encoding="utf-8", errors="surrogateescape", closefd=False)  # noqa: SIM115
    return closed


def _encoding(stream) -> str:
    import codecs

    try:
        return codecs.lookup(stream.encoding).name
    except (AttributeError, LookupError, TypeError):
        return ""


def _fix_encoding(stream) -> None:
    """ASCII (a C locale) -> UTF-8; any encoding: escapes instead of UnicodeEncodeError."""
    if not hasattr(stream, "reconfigure"):
        return
    try:
        if _encoding(stream) == "ascii":
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
        elif _encoding(stream) != "utf-8" or stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")
    except (ValueError, OSError):  # (a stream already written to keeps its encoding)
        pass


def bad_argument(argv: list[str]) -> str | None:
    """The error line for the first argument that is not UTF-8 text, else None. (Under a
    non-UTF-8 locale, an argument that is UTF-8 is kept as Python decoded it: a path in it
    still opens.)"""
    from ..text.controls import escape_controls

    for i, arg in enumerate(argv, 1):
        try:
            arg.encode("utf-8")
            continue
        except UnicodeEncodeError:
            pass
        raw = os.fsencode(arg)
        try:
            raw.decode("utf-8")
            continue
        except UnicodeDecodeError as exc:
            shown = escape_controls(raw.decode("utf-8", "backslashreplace"), keep="")
            return f"readinglist: error: argument {i} ({shown}) is not UTF-8 text (byte 0x{raw[exc.start]:02x} at {exc.start + 1}); nothing was done"
    return None


def prepare(argv: list[str]) -> int | None:
    """Make the streams sane (see the module's text); an exit status when the command must not
    run (stdout closed, an argument that is not text), after saying why on stderr."""
    closed = _reopen_closed()
    if 1 in closed or sys.stdout is None:
        sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        sys.stderr.write("readinglist: error: standard output is closed; nothing was done\n")
        return 1
    _fix_encoding(sys.stdout)
    _fix_encoding(sys.stderr)
    message = bad_argument(argv)
    if message is not None:
        sys.stderr.write(message + "\n")
        return 2
    return None
