"""What the commands share: the state the global options set, the store they open and the
output helpers. Neither typer nor click is imported here (see :mod:`.fast`); the options the
commands declare are in :mod:`.options`."""

from __future__ import annotations

import contextlib
import sys

from ..errors import ReadinglistError

# the weeks `stats` covers unless --weeks says, and the most it takes (typer's option, cli/fast.py)
WEEKS = 12
WEEKS_MAX = 104


class State:
    """What the global options say, and the configuration and store they lead to (each made
    when first asked for). A plain class: :mod:`.fast` runs without the dataclass machinery."""

    def __init__(self) -> None:
        self.config_path: str | None = None
        self.store_path: str | None = None
        self.color = "auto"
        self.pager = True
        self.warned: set = set()
        self._config: object = None
        self._store: object = None

    @property
    def processes(self) -> int:
        """How many processes the library may fork for a large job: the CLI owns its process,
        so one per core (the library itself never forks unasked: see readinglist.forking)."""
        from ..forking import cores

        return cores()

    def set_options(self, *, config: str | None, store: str | None, color: str, pager: bool) -> None:
        """What the global options say (the root command's callback, or :mod:`.fast`)."""
        self.config_path, self.store_path, self.color, self.pager = config, store, color, pager
        self._config = self._store = None

    @property
    def config(self):
        if self._config is None:
            from ..config import load_config

            self._config = load_config(self.config_path, store=self.store_path)
        return self._config

    @property
    def store(self):
        """The store, which must exist (a mistyped --store is an error, not a new store)."""
        return self.open_store(create=False)

    def open_store(self, *, create: bool, here: bool = False):
        """The store; ``here``: outside any project, ``./library`` rather than the user's default
        store (``build`` makes a project in the current folder, as ``git init`` does).

        When the store is known without a config file (``--store``, a project's ``library/``,
        READINGLIST_STORE: :func:`~readinglist.project.find_store`), the configuration is
        loaded only if the store asks for it (an import does; ``mark`` or ``note`` never)."""
        if self._store is None:
            from ..project import find_store
            from ..store.library import Store

            path = None if here else find_store(self.config_path, store=self.store_path)
            if path is not None:
                self._store = Store.open(path, config=lambda: self.config, create=create, processes=self.processes)
            else:
                cfg = self.config
                path = cfg.root / "library" if here and cfg.store_from == "user default" else cfg.store
                self._store = Store.open(path, config=cfg, create=create, processes=self.processes)
            self._store.on_commit(self._refresh_auto_exports)
            self._store.building = _building_status
        return self._store

    def _refresh_auto_exports(self) -> None:
        """After a change to the store: rewrite the auto-exports whose text changed (one stat
        when the store has none), saying so on stderr."""
        import os

        store = self._store
        if not os.path.exists(os.path.join(store.root, "auto-export.toml")):  # type: ignore[attr-defined]
            return
        from ..autoexport import refresh
        from ..errors import ReadinglistError

        try:
            done = refresh(store, self.config, processes=self.processes)  # type: ignore[arg-type]
        except ReadinglistError as exc:  # the file itself is broken: the change is made all the same
            echo(f"warning: auto-export: {exc}", err=True)
            return
        for r in done:
            if r.error:
                echo(f"warning: auto-export {r.path} not updated: {r.error}", err=True)
            elif r.written:
                echo(f"auto-export: updated {r.path} ({count_phrase(r.papers, 'paper')})", err=True)


#: From this many paper files, a cache made from nothing takes long enough to say so.
BUILDING_MIN = 500


def _building_status(count: int):
    """While the store's cache is made from nothing (the first command after a ``git clone``):
    a line on stderr when it is a terminal, saying what is being done and for how long (erased
    when done); nothing when stderr is piped, or for a small store."""
    if count < BUILDING_MIN or not sys.stderr.isatty():
        return contextlib.nullcontext()
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    status = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=status_console(), transient=True)
    status.add_task(f"indexing the {count:,} papers of this store (its first use here; later commands use the index)", total=None)
    return _shown(status)


@contextlib.contextmanager
def _shown(display):
    """``display`` (a rich Progress) shown meanwhile, unless another one is (an import's bar)."""
    from rich.errors import LiveError

    try:
        display.start()
    except LiveError:
        yield
        return
    try:
        yield
    finally:
        display.stop()


state = State()


# --------------------------------------------------------------------------- output helpers


def plain_output() -> bool:
    """Plain text for pipes and files (tab-separated lines, ASCII bars); NO_COLOR only drops colour."""
    return not sys.stdout.isatty()


def _color(stream=None) -> bool:
    from ..terminal import use_color

    return use_color(state.color, stream)


def rich_console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, no_color=not _color(sys.stderr if stderr else sys.stdout), highlight=False)


def status_console():
    """The console of a transient display on stderr (a progress bar, a status line): three
    columns narrower than the terminal. A line that fills the terminal's width, or that the
    terminal's echo of Ctrl-C (``^C``, at the end of the line) makes wrap, takes two rows where
    rich counts one, and erasing the display would then leave it on the screen."""
    console = rich_console(stderr=True)
    console.width = max(20, console.width - 3)
    return console


def write_paged(text: str) -> None:
    """Long output goes through $PAGER on a terminal (as git does) unless --no-pager."""
    if state.pager:
        from ..terminal import page

        page(text)
    else:
        sys.stdout.write(text)


def paper_as_json(paper) -> dict:
    """A paper as the JSON object the commands print (:func:`~readinglist.store.cache.paper_json`)."""
    from ..store.cache import paper_json

    return paper_json(paper)


def _print_papers(papers, *, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json_lines(map(paper_as_json, papers)))
        return
    if plain_output():  # one write of all lines
        from ..store.cache import plain_line_of

        sys.stdout.write("".join(map(plain_line_of, papers)))
        return
    from ..terminal import paper_table, width

    if papers:
        write_paged("\n".join(paper_table(papers, total_width=width(), color=_color())) + "\n")
    echo(count_phrase(len(papers), "paper"), err=True)


def list_papers(where, sort, reverse, limit, as_json) -> None:
    """What ``readinglist list`` does (see :mod:`.library` for its options; ``where``: the
    filters, a :class:`~readinglist.selection.Filter`)."""
    if reverse:  # every order ends with the key: the reversed order is the reversed list
        sort = sort[1:] if sort.startswith("-") else "-" + sort
    if not as_json and plain_output():  # the cache keeps each paper's line: one text a paper
        sys.stdout.write("".join(find_papers(where, sort, limit=limit, lines=True)))
        return
    if as_json and utf8(sys.stdout):  # ...and its JSON line (made for a UTF-8 stdout)
        _write_utf8(find_papers(where, sort, limit=limit, json=True))
        return
    papers = find_papers(where, sort, limit=limit, brief=not as_json)
    _print_papers(papers, as_json=as_json)


def search_papers(text, limit, as_json) -> None:
    """What ``readinglist search`` does (see :mod:`.library` for its options)."""
    hits = state.store.search(text, limit=limit, brief=not as_json)
    warn_broken()
    if as_json:
        sys.stdout.write(json_lines({**paper_as_json(paper), "score": round(score, 2)} for paper, score in hits))
        return
    if not hits:
        echo(f"no paper matches {text!r}", err=True)
        return
    _print_papers([paper for paper, _ in hits], as_json=False)


def count_phrase(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 paper", "2 papers" """
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def next_papers(where, limit, as_json) -> None:
    """The body of ``readinglist next`` (typer's command and :mod:`.fast` call it): ``list
    --status reading --status unread --sort next`` (the query sorts and cuts: only the papers
    shown are read), printed as list prints."""
    list_papers(where.replace(status=("reading", "unread")), "next", False, limit, as_json)

def _write_utf8(lines: list[bytes]) -> None:
    """Lines of UTF-8 (the cache's, for a UTF-8 stdout) written as they are, a thousand at a time."""
    out = getattr(sys.stdout, "buffer", None)
    if out is None:
        sys.stdout.write(b"".join(lines).decode())
        return
    sys.stdout.flush()
    for i in range(0, len(lines), 1000):
        out.write(b"".join(lines[i : i + 1000]))


def find_papers(where, sort, **more):
    papers = state.store.find(where, sort=sort, **more)
    warn_broken()
    return papers


def warn_broken() -> None:
    """A paper file that does not parse is reported once (file:line:col) and skipped."""
    for message in state.store.broken:
        if message not in state.warned:
            state.warned.add(message)
            echo(f"readinglist: warning: {message}; skipped", err=True)


def echo(message: str = "", *, err: bool = False) -> None:
    """Print a line of text that may hold user text (``typer.echo`` without importing typer):
    every control, bidi and zero-width character in it is shown escaped
    (:func:`~readinglist.text.controls.escape_controls`, the one function every command's
    output of user text goes through), then a newline; flushed."""
    from ..text.controls import escape_controls

    stream = sys.stderr if err else sys.stdout
    stream.write(escape_controls(message) + "\n")
    stream.flush()


def json_lines(values) -> str:
    """Each of ``values`` as a line of JSON for stdout (:func:`~readinglist.store.cache.json_text`,
    as the cache makes a paper's :func:`~readinglist.store.cache.json_line`)."""
    from ..store.cache import json_text

    ascii_only = not utf8(sys.stdout)
    return "".join([json_text(value, ascii_only=ascii_only) + "\n" for value in values])


def utf8(stream) -> bool:
    import codecs

    try:
        return codecs.lookup(stream.encoding).name == "utf-8"
    except (AttributeError, LookupError, TypeError):
        return False


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except Exception:
        return False


#: What the commands turn into one line and exit status 1 (see :func:`error_line`); an OSError
#: is the last guard for a file the library did not expect to fail (a folder it may not read).
HANDLED = (ReadinglistError, RecursionError, OSError)


def error_line(exc: BaseException) -> str:
    """A library error (or a RecursionError, an OSError) as the one line the CLI prints before
    exit status 1."""
    if isinstance(exc, RecursionError):  # the last guard: readers bound their depth, but never a traceback
        return "readinglist: error: an input is nested too deeply to process; nothing was written"
    from ..text.controls import escape_controls

    if isinstance(exc, OSError) and not isinstance(exc, ReadinglistError):
        from ..store.atomic import describe

        where = f"{exc.filename}: " if exc.filename is not None else ""
        return f"readinglist: error: {escape_controls(where + describe(exc), keep='')}"
    return f"readinglist: error: {escape_controls(str(exc), keep='')}"
