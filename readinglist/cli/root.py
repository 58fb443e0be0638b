"""The root of the ``readinglist`` command: global options, errors as one line, and the table
of commands from which each command is built only when it is run.

Each command lives in the module of its group (:mod:`.reading`, :mod:`.library`,
:mod:`.transfer`, :mod:`.lists`, :mod:`.sharing`); :data:`COMMANDS` names the module and the one-line help of
every command, so ``readinglist --help`` lists them without importing any, and ``readinglist
mark ...`` imports the reading commands and builds ``mark`` alone (typer builds a command's
click parameters from its signature, one command at a time).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, MutableMapping
from typing import Any, Optional

import typer
from typer.core import TyperGroup

from .. import __version__
from .common import HANDLED, error_line, state

#: Every command, in the order ``--help`` lists them: name -> (module in this package, the
#: first paragraph of its help, which ``--help`` shortens to one line). tests/test_cli_lean.py
#: checks that this table and the commands the modules declare agree.
COMMANDS: dict[str, tuple[str, str]] = {
    "import": ("transfer", "Import abstract lists (and any format an importer plugin reads) into the store."),
    "list": ("library", "List papers: a table on a terminal (one line per paper, paged when long), tab-separated lines when piped, JSON lines with --json."),
    "show": ("reading", "Show one paper: title, tags, status, history, notes and abstract."),
    "search": ("library", "Full-text search over titles, notes and abstracts, best matches first: every word must occur as a whole word; a word in the title ranks above one in the notes, above one in the abstract. Prints the same table as list (tab-separated lines when piped)."),
    "mark": ("reading", "Set the reading status of papers: by key (all keys are checked first; one unknown key changes nothing), or every paper the filters select (the same filters as list)."),
    "note": ("reading", "Write notes (Markdown) on a paper; without -m, $EDITOR opens as git does."),
    "tag": ("reading", "Add your own tags to papers (kept apart from generated topic tags), or remove tags: one paper (KEY TAG...), several (--key K1 --key K2 TAG...) or those the filters select."),
    "rate": ("reading", "Rate a paper from 1 to 5 (0 clears the rating)."),
    "priority": ("reading", "Set a paper's priority from 1 (read first) to 3 (0 clears it)."),
    "next": ("reading", "What to read next: unread and started papers, priority 1 first (no priority last), then the ones waiting longest."),
    "rm": ("reading", "Remove papers from the store (their files are deleted; git keeps the history). Every key is checked first; on a terminal you are asked to confirm."),
    "rekey": ("reading", "Give a paper a new citation key: its file is renamed, its status, notes, tags and history stay, and the curated lists that name it follow. A re-import of its abstract still finds it."),
    "edit": ("reading", "Edit a paper's TOML file in $VISUAL / $EDITOR; it is checked before it is saved (a broken edit is reported with its line and column and nothing is written; on a terminal you may edit it again at once, and it is kept, so edit KEY --resume goes on with it later)."),
    "open": ("reading", "Open the paper's URL (or its DOI at doi.org) in the web browser ($BROWSER)."),
    "export": ("transfer", "Export a selection of the store, or a curated list, as BibTeX, CSL-JSON, Markdown or HTML."),
    "auto-export": ("transfer", "List the auto-exports (files rewritten after each change to the store, made with export --keep-updated), stop one, or refresh them now."),
    "stats": ("library", "Reading progress per venue and per tag: counts, a bar, and a sparkline of papers read per week (rich on a terminal, plain text when piped)."),
    "build": ("transfer", "The main job: import every list in seeds/ and write exports/ (a .bib and a CSL-JSON per venue-year, and a Markdown reading list). Folders come from config.toml."),
    "reconcile": ("transfer", "Replace generated titles with the official metadata (title, authors, DOI, URL, pages), matching papers by their abstracts; keys, status, notes and tags are kept."),
    "where": ("library", "Say which store and config file are in use, and why (the store is found as git finds a repository: --store, else a config.toml or library/ in this folder or one above, else READINGLIST_STORE, else the config file's, else your default store)."),
    "formats": ("library", "List the importer, exporter and title generator plugins (built-in and installed)."),
    "git-setup": ("sharing", "Let git merge the store's files with readinglist's merge driver: paper files field by field, curated lists entry by entry (writes the store's .gitattributes and this clone's git config; run it once in every clone)."),
    "merge-file": ("sharing", "The git merge driver that git-setup installs: merges a paper or list file's three versions and writes the result into OURS; exit status 1 when a true conflict is left in it, between git's markers."),
    "lists": ("lists", "Curated reading lists (lists/NAME.toml in the store): chosen papers, in order, under headings, each with an optional comment. Without a subcommand: every list with its progress."),
}


class _Group(TyperGroup):
    """Library errors become one line on stderr and exit status 1, never a traceback; usage
    errors (of this app only) one line and a hint (:func:`_show_usage_error`)."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except _USAGE_ERROR as exc:  # the root's own options
            _one_line(exc)
            raise

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except _USAGE_ERROR as exc:  # a command's options, an unknown command
            _one_line(exc)
            raise
        except BrokenPipeError:  # the reader of stdout left: main() ends quietly
            raise
        except HANDLED as exc:  # RecursionError: readers bound their depth, but never a traceback
            typer.echo(error_line(exc), err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM (see readinglist.interrupts): one line
            from ..interrupts import message

            line, code = message(exc)
            typer.echo(line, err=True)
            raise typer.Exit(code) from None


def _show_usage_error(self, file=None) -> None:
    """A usage error as one line plus a hint (instead of click's four-line block)."""
    import re

    ctx = self.ctx
    msg = self.format_message()
    msg = msg[:1].lower() + msg[1:]
    cmd = ctx.command_path if ctx is not None else "readinglist"
    from ..text.controls import escape_controls

    sys.stderr.write(f"readinglist: error: {escape_controls(msg.rstrip('.'), keep='')}\n")
    if ctx is not None:
        usage = ctx.command.get_usage(ctx).replace("Usage: ", "", 1).replace("\n", " ")
        usage = re.sub(r"\{(\w+)\}|\[([a-z]\w*)\]", lambda m: m.group(1).upper() if m.group(1) else f"[{m.group(2).upper()}]", " ".join(usage.split()))
        sys.stderr.write(f"hint: {usage}   ('{cmd} -h' for help)\n")


try:  # typer 0.28 vendors click as typer._click; older releases use click itself
    from typer._click.exceptions import UsageError as _USAGE_ERROR  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover
    from click.exceptions import UsageError as _USAGE_ERROR  # type: ignore[no-redef,import-not-found,unused-ignore]


def _one_line(exc) -> None:
    """Let ``exc``, a usage error of this app, be shown by :func:`_show_usage_error` (this exception
    only: click itself, and any other click app in the process, are left as they are). One
    that shows something else (the help, when no command is given) keeps its own way."""
    if type(exc).show is _USAGE_ERROR.show:
        import types

        exc.show = types.MethodType(_show_usage_error, exc)


def declared(module_name: str) -> typer.Typer:
    """The typer app of one command module (its ``commands``), imported now."""
    from importlib import import_module

    return import_module(f"{__package__}.{module_name}").commands


def command_name(info) -> str:
    """The name typer gives a registered command (its own, else its function's)."""
    return info.name or info.callback.__name__.lower().replace("_", "-")


def build_command(name: str):
    """The click command ``name`` as the full app would build it, built alone."""
    declared_app = declared(COMMANDS[name][0])
    for info in declared_app.registered_commands:
        if command_name(info) == name:
            single = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)
            single.registered_commands = [info]
            return typer.main.get_command(single)
    for group in declared_app.registered_groups:
        if group.name == name and group.typer_instance is not None:
            return typer.main.get_command(group.typer_instance)
    raise LookupError(f"{name} is in COMMANDS but module {COMMANDS[name][0]} does not declare it")


class _Commands(MutableMapping):
    """The root group's commands: every name of :data:`COMMANDS`, each built when first looked up."""

    def __init__(self) -> None:
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str):
        if name not in self._built:
            if name not in COMMANDS:
                raise KeyError(name)
            self._built[name] = build_command(name)
        return self._built[name]

    def __setitem__(self, name: str, command) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        raise TypeError("commands cannot be removed")

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(COMMANDS), **self._built})

    def __len__(self) -> int:
        return len(set(COMMANDS) | set(self._built))


class _LazyGroup(_Group):
    """The root group: lists commands from :data:`COMMANDS` and builds one only when it is run
    (or its help is asked for). Help, "did you mean" and completion see every name."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.commands = _Commands()

    def list_commands(self, ctx) -> list[str]:
        return list(self.commands)

    def format_commands(self, ctx, formatter) -> None:
        """The commands section of ``--help`` from the table (as click words it: each help's
        first sentence, shortened to the width), without building any command."""
        try:
            from typer._click.utils import make_default_short_help  # type: ignore[import-not-found,unused-ignore]
        except ImportError:  # pragma: no cover
            from click.utils import make_default_short_help  # type: ignore[no-redef,import-not-found,unused-ignore]
        if not COMMANDS:
            return
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, make_default_short_help(text, limit).strip()) for name, (_, text) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


_SETTINGS: dict[str, Any] = dict(
    name="readinglist",
    help="Turn conference abstract lists into a reading list: BibTeX, CSL-JSON and Markdown, "
    "with your reading status kept in git-friendly TOML.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

app = typer.Typer(cls=_LazyGroup, **_SETTINGS)


def full_app() -> typer.Typer:
    """Every command declared at once, built by typer as one app: what the lazy root must
    behave exactly like (tests/test_cli_lean.py compares them)."""
    full = typer.Typer(cls=_Group, **_SETTINGS)
    full.registered_callback = app.registered_callback
    for name, (module_name, _) in COMMANDS.items():
        declared_app = declared(module_name)
        full.registered_commands += [c for c in declared_app.registered_commands if command_name(c) == name]
        full.registered_groups += [g for g in declared_app.registered_groups if g.name == name]
    return full


def _version(value: bool) -> None:
    if value:
        typer.echo(f"readinglist {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    store: Optional[str] = typer.Option(
        None, "--store", metavar="PATH", help="The store folder (else found as git finds a repository: see `readinglist where`)."
    ),
    config: Optional[str] = typer.Option(
        None, "--config", envvar="READINGLIST_CONFIG", metavar="FILE", help="The config file (else ./config.toml, else the user's config dir)."
    ),
    color: str = typer.Option("auto", "--color", metavar="WHEN", help="auto | always | never: colour on a terminal (auto: unless NO_COLOR is set)."),
    no_pager: bool = typer.Option(False, "--no-pager", help="Never page long output through $PAGER."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    if color not in ("auto", "always", "never"):
        raise typer.BadParameter(f"{color!r} is not one of auto, always, never", param_hint="--color")
    state.set_options(config=config, store=store, color=color, pager=not no_pager)


