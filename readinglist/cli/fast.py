"""The everyday commands without typer.

``show KEY [--json]``, ``mark STATUS KEY...``, ``note KEY -m TEXT [-a]``, ``tag KEY TAG...``,
``rate KEY N``, ``priority KEY N``, ``search TEXT [-n N] [--json]``, ``stats [--weeks N]``, ``merge-file BASE OURS THEIRS [PATH] [--marker-size N]``
(the git merge driver) and ``list`` with its own options (after any of ``--store``,
``--config``, ``--color``, ``--no-pager``) are parsed here and run by the same functions the
typer commands call (:mod:`.papers`, :func:`.common.list_papers`), so such a process never
imports typer and click (they cost more start-up than a command that changes one paper needs for the rest). Every other command line, anything this parser is
not sure of (help, another option, a value typer would reject or convert, shell completion, a
stream that is not UTF-8) gets :func:`plan` = None and goes to the typer app, which answers as it
always did. tests/test_cli_fast.py runs the same command lines both ways and compares.
"""

from __future__ import annotations

import os
import sys

from .filters import gathered, parser_table

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from typing import Any

#: global options that take a value -> their parameter in the root callback
_GLOBAL_VALUES = {"--store": "store", "--config": "config", "--color": "color"}
#: the highest value ``rate`` and ``priority`` take (typer's IntRange on N)
_HIGHEST = {"rate": 5, "priority": 3}
#: ``list``'s options -> (parameter, kind): "flag", "text", "texts" (repeatable) or the
#: (lowest, highest) of a number (typer's IntRange; None: no bound). The filter options come
#: from their one declaration (cli/filters.py); tests/test_cli_fast.py checks the others
#: against the typer command.
_LIST_OPTIONS: dict[str, tuple[str, Any]] = {
    **parser_table(),
    "--sort": ("sort", "text"),
    "--reverse": ("reverse", "flag"),
    "-r": ("reverse", "flag"),
    "--limit": ("limit", (0, None)),
    "-n": ("limit", (0, None)),
    "--json": ("as_json", "flag"),
}
_LIST_DEFAULTS: dict[str, Any] = dict(sort="key", reverse=False, limit=None, as_json=False)
#: ``next``'s options, as for list (the filters it takes: reading.next_'s filter_options)
_NEXT_FILTERS = ("tags", "venue", "year")
_NEXT_OPTIONS: dict[str, tuple[str, Any]] = {
    **parser_table(_NEXT_FILTERS),
    **{name: _LIST_OPTIONS[name] for name in ("--limit", "-n", "--json")},
}
_NEXT_DEFAULTS: dict[str, Any] = dict(limit=10, as_json=False)


def _word(arg: str) -> bool:
    """A positional value click would take as it is (not an option, not ``-``/``--``, not empty)."""
    return bool(arg) and not arg.startswith("-")


def _small_int(arg: str, highest: int | None, lowest: int = 0) -> int | None:
    """``arg`` as click's IntRange(lowest, highest) reads it, when it is plainly digits in range."""
    if arg.isascii() and arg.isdigit() and len(arg) <= 9 and lowest <= int(arg) and (highest is None or int(arg) <= highest):
        return int(arg)
    return None


def _list_options(args: list[str], options: dict[str, tuple[str, Any]] = _LIST_OPTIONS, defaults: dict[str, Any] = _LIST_DEFAULTS) -> dict | None:
    """``list``'s (or ``next``'s, with its ``options`` and ``defaults``) keyword arguments when
    ``args`` are only its options in plain forms (each once, but --tag and --status), else None;
    the filters among them as one ``where``."""
    kwargs: dict[str, Any] = dict(defaults)
    seen: set[str] = set()
    i = 0
    while i < len(args):
        name, eq, value = args[i].partition("=")
        if name not in options or (eq and not name.startswith("--")):
            return None
        param, kind = options[name]
        if kind == "flag":
            if eq:
                return None
            kwargs[param] = True
            i += 1
            continue
        if not eq:
            if i + 1 >= len(args):
                return None
            value = args[i + 1]
        i += 1 if eq else 2
        if not _word(value) or (param in seen and kind != "texts"):
            return None
        seen.add(param)
        if kind == "texts":
            kwargs[param] = [*(kwargs.get(param) or ()), value]
        elif kind == "text":
            kwargs[param] = value
        else:
            lowest, highest = kind
            number = _small_int(value, highest, lowest)
            if number is None:
                return None
            kwargs[param] = number
    return gathered(kwargs)


def _globals(argv: list[str]) -> tuple[dict, int] | None:
    """The root options before the command and the command's index, else None."""
    opts: dict = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name in _GLOBAL_VALUES:
            if not eq:
                if i + 1 >= len(argv):
                    return None
                value = argv[i + 1]
            i += 1 if eq else 2
            key = _GLOBAL_VALUES[name]
            if key in opts or not _word(value) or (key == "color" and value not in ("auto", "always", "never")):
                return None
            opts[key] = value
        elif arg == "--no-pager":
            if "no_pager" in opts:
                return None
            opts["no_pager"] = True
            i += 1
        elif _word(arg):
            return opts, i
        else:
            return None
    return None


def _command(name: str, args: list[str]) -> dict | None:
    """The keyword arguments of :mod:`.papers`' function ``name`` for a plain form, else None."""
    if name == "show":
        words = [a for a in args if a != "--json"]
        if len(words) == 1 and _word(words[0]):
            return dict(key=words[0], as_json=len(words) < len(args))
    elif name == "mark":
        if len(args) >= 2 and all(map(_word, args)):
            return gathered(dict(status=args[0], keys=args[1:], dry_run=False))  # status: the new one; no filters
    elif name == "tag":
        if len(args) >= 2 and all(map(_word, args)):
            return gathered(dict(words=args, keys=None, remove=False, dry_run=False))
    elif name in _HIGHEST:
        if len(args) == 2 and _word(args[0]):
            n = _small_int(args[1], _HIGHEST[name])
            if n is not None:
                return dict(key=args[0], n=n)
    elif name == "list":
        return _list_options(args)
    elif name == "next":
        return _list_options(args, _NEXT_OPTIONS, _NEXT_DEFAULTS)
    elif name == "stats":
        from .common import WEEKS, WEEKS_MAX

        if not args:
            return dict(weeks=WEEKS)
        option, eq, value = args[0].partition("=")
        if option == "--weeks" and len(args) == (1 if eq else 2):
            weeks = _small_int(value if eq else args[1], WEEKS_MAX, 1)  # as typer's min=1, max=WEEKS_MAX
            if weeks is not None:
                return dict(weeks=weeks)
    elif name == "search":
        text = None
        limit, as_json, limited = 20, False, False
        i = 0
        while i < len(args):
            arg = args[i]
            option, eq, value = arg.partition("=")
            if arg == "--json" and not as_json:
                as_json = True
            elif option in ("-n", "--limit") and not limited and not (eq and option == "-n"):
                if not eq:
                    if i + 1 >= len(args):
                        return None
                    i += 1
                    value = args[i]
                n = _small_int(value, None, 1)  # typer's min=1
                if n is None:
                    return None
                limit, limited = n, True
            elif _word(arg) and text is None:
                text = arg
            else:
                return None
            i += 1
        if text is not None:
            return dict(text=text, limit=limit, as_json=as_json)
    elif name == "note":
        key = message = None
        append = False
        i = 0
        while i < len(args):
            arg = args[i]
            if arg in ("-a", "--append"):
                append = True
            elif arg in ("-m", "--message") and message is None and i + 1 < len(args) and _word(args[i + 1]):
                message = args[i + 1]
                i += 1
            elif arg.startswith("--message=") and message is None:
                message = arg[len("--message=") :]
            elif _word(arg) and key is None:
                key = arg
            else:
                return None
            i += 1
        if key is not None and message is not None:  # without -m, $EDITOR opens: typer's
            return dict(key=key, message=message, append=append)
    elif name == "merge-file":  # what git runs for every file both sides changed: no typer
        size = 7
        if len(args) >= 2 and args[-2] == "--marker-size":
            n = _small_int(args[-1], None, 1)
            if n is None:
                return None
            size, args = n, args[:-2]
        if len(args) in (3, 4) and all(map(_word, args)):
            return dict(base=args[0], ours=args[1], theirs=args[2], path=args[3] if len(args) == 4 else "", marker_size=size)
    return None


def plan(argv: list[str]) -> tuple[dict, str, dict] | None:
    """(root options, command, its keyword arguments) when ``argv`` is a plain form of a
    single-paper command this module runs, else None (typer runs it)."""
    if any(k.startswith("_READINGLIST_COMPLETE") for k in os.environ):
        return None
    found = _globals(argv)
    if found is None:
        return None
    opts, i = found
    kwargs = _command(argv[i], argv[i + 1 :])
    if kwargs is None:
        return None
    return opts, argv[i], kwargs


def run(argv: list[str]) -> int | None:
    """Run ``argv`` without typer: its exit status, or None when typer must run it."""
    from .common import utf8

    if not (utf8(sys.stdout) and utf8(sys.stderr)):
        return None
    planned = plan(argv)
    if planned is None:
        return None
    opts, name, kwargs = planned
    from . import papers
    from .common import HANDLED, echo, error_line, state

    state.set_options(
        config=opts.get("config", os.environ.get("READINGLIST_CONFIG") or None),  # click reads an empty variable as unset
        store=opts.get("store"),
        color=opts.get("color", "auto"),
        pager=not opts.get("no_pager", False),
    )
    try:
        if name == "list":
            from .common import list_papers

            list_papers(**kwargs)
        elif name == "search":
            from .common import search_papers

            search_papers(**kwargs)
        elif name == "next":
            from .common import next_papers

            next_papers(**kwargs)
        elif name == "stats":
            from .report import stats_report

            stats_report(**kwargs)
        elif name == "merge-file":  # needs no store nor configuration
            from ..store.gitmerge import run_driver

            code, message = run_driver(**kwargs)
            if message:
                echo(message, err=True)
            return code
        else:
            getattr(papers, name)(**kwargs)
    except BrokenPipeError:
        raise
    except HANDLED as exc:
        echo(error_line(exc), err=True)
        return 1
    return 0
