"""The ``readinglist`` command: a thin typer layer over the library API.

Each command parses its options, makes one library call and prints the result. Library errors
(:class:`~readinglist.errors.ReadinglistError`) become one line on stderr and exit status 1;
usage errors exit 2. Heavy modules are imported inside the commands so start-up stays fast.

The commands live in one module per group, and a run imports only the module of its command:

- :mod:`.root`: the root app (global options, one-line errors) and :data:`~.root.COMMANDS`, the
  table ``--help`` lists the commands from;
- :mod:`.common`: the state the global options set and output helpers (no typer);
- :mod:`.options`: the arguments and options several commands declare;
- :mod:`.reading`: show, mark, note, tag, rate, priority, next, rm, edit, open (what the first
  six do is in :mod:`.papers`, which :mod:`.fast` runs without typer for their plain forms);
- :mod:`.library`: list, search, stats, where, formats;
- :mod:`.transfer`: import, export, build, reconcile;
- :mod:`.lists`: the curated lists (``lists`` and its subcommands).
"""

from __future__ import annotations

import os
import sys

__all__ = ["COMMANDS", "app", "full_app", "main"]


def __getattr__(name: str):
    """``app``, ``full_app`` and ``COMMANDS`` (from :mod:`.root`), imported when first asked for:
    the console script's plain single-paper commands run without typer (see :mod:`.fast`)."""
    if name in ("COMMANDS", "app", "full_app"):
        from . import root

        return getattr(root, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console-script entry point (library errors become one line, see ``root._Group``).

    The process ends with ``os._exit`` once its output is flushed: freeing the tens of
    thousands of cached papers one by one at interpreter exit takes time on a large store and
    serves nothing (every file was written and closed by then). For the same reason
    the short-lived process runs without the cyclic garbage collector: readinglist builds no
    reference cycles worth collecting, and the collector's passes would only walk the loaded
    papers again (library code merely pauses it, see :mod:`readinglist.gc_pause`).
    """
    import gc

    gc.disable()
    from ..interrupts import install, message
    from .process import prepare

    install()  # Ctrl-C, SIGTERM, SIGHUP: cleanup runs, then one line (see interrupts.message)

    code = prepare(sys.argv[1:]) or 0
    try:
        if not code:
            fast = _fast(sys.argv[1:])  # None: not a command line for the typer-free parser
            code = fast if fast is not None else _typer_app()
    except BrokenPipeError:  # `readinglist list --json | head -1`: the reader left, nothing to report
        _quiet_stdout()
        code = 1
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):
            print(exc.code, file=sys.stderr)
    except KeyboardInterrupt as exc:
        line, code = message(exc)
        print(line, file=sys.stderr)
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # `readinglist list | head`: the reader left, nothing to report
        _quiet_stdout()
        code = code or 1
    try:
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        pass
    os._exit(code)


def _typer_app() -> int:
    """The command line run by the typer app (which ends in SystemExit with its status)."""
    from .root import app

    app(standalone_mode=True)
    return 0


def _fast(argv: list[str]) -> int | None:
    from .fast import run

    return run(argv)


def _quiet_stdout() -> None:
    """After a broken pipe: what is still buffered goes nowhere (no second error at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
