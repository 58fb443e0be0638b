"""One paper's TOML file: fast loading, rendering, and edits that keep a person's changes.

A paper lives in ``<store>/papers/<key>.toml``::

    # readinglist paper — edit freely. ...
    key = "canvit2026"
    type = "inproceedings"
    title = "..."
    ...
    [state]            status, priority, rating, tags (the user's own), notes, history
    [generated]        what readinglist generated for key, title, shorttitle, tags
    [[sources]]        where the record came from

* :func:`parse` reads a file's text (as readinglist wrote it: :func:`read_rendered`; else with :mod:`tomllib`) into a :class:`~readinglist.record.Paper`;
  a field named in ``GENERATED_FIELDS`` counts as generated while its value still equals the one
  in ``[generated]``.
* :func:`render` writes a new file with :mod:`tomlkit` in a fixed order and format, so the same
  paper always gives the same bytes.
* :func:`edit` changes an existing file's text from one paper to another with :mod:`tomlkit`,
  touching only the values that differ: comments, blank lines, key order and the formatting of
  every other value stay as the person left them, and a change is a few lines in ``git diff``.

``tomlkit`` is imported inside the writing functions only, so reading a paper stays fast.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from collections.abc import Container, Iterable, Iterator

from ..errors import StoreError
from ..record import GENERATED_FIELDS, STATUSES, Event, Paper, Person, Record, Source

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from typing import Any, NoReturn

HEADER = (
    "readinglist paper — edit freely. A field you change above [generated] is kept;",
    "one still equal to its [generated] value is regenerated on re-import.",
)
#: Top-level keys in the order a new file lists them (``fields`` is the ``[fields]`` table).
TOP_KEYS = ("key", "type", "title", "shorttitle", "venue", "year", "tags", "abstract", "authors", "doi", "url", "pages")
STATE_KEYS = ("status", "priority", "rating", "tags", "notes", "history")
PRIORITIES = (1, 2, 3)
RATINGS = (1, 2, 3, 4, 5)
#: How many history events a paper keeps: the first ("added") and the latest ones.
MAX_HISTORY = 10

_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._+-]+")
_TOML_POSITION = re.compile(r"^(.*) \(at line (\d+), column (\d+)\)$")
#: File names Windows reserves whatever the suffix.
_RESERVED = frozenset(["con", "prn", "aux", "nul"] + [f"{d}{n}" for d in ("com", "lpt") for n in range(1, 10)])
_FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


# --------------------------------------------------------------------------- file names


def file_stem(key: str) -> str:
    """The file name (without ``.toml``) a new paper with ``key`` gets: the key, made safe.

    Characters other than ASCII letters, digits and ``. _ + -`` become ``_``; a leading dot is
    dropped (dot files are the store's temporary files); a name Windows reserves (``con``,
    ``nul``, ``com1``, ...) gets a ``_`` so that the store can be checked out there.
    """
    stem = _UNSAFE_NAME.sub("_", key).lstrip(".")[:120] or "paper"
    if stem.split(".")[0].lower() in _RESERVED:
        stem += "_"
    return stem


# --------------------------------------------------------------------------- reading


#: The largest paper file read (notes included): 16 MB.
PAPER_LIMIT = 16 << 20


def read_text(path: Path) -> str:
    """The text of a paper file. FileNotFoundError when there is none; StoreError for a file
    that is not UTF-8 (naming line and column), not a regular file (a folder, a FIFO, a device),
    larger than PAPER_LIMIT, or unreadable."""
    from .atomic import describe, read_bounded

    try:
        data = read_bounded(path, limit=PAPER_LIMIT)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise StoreError(f"{path}: cannot read this paper file: {describe(exc)}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise StoreError(f"{path}:{line}:{col}: not UTF-8 text; fix or remove this byte") from None


def read_texts(folder: Path, names: Iterable[str], careful: Container[str] = ()) -> Iterator[tuple[str, str | None]]:
    """``(name, text)`` for each file ``name`` in ``folder`` (text None: there is no such file),
    as :func:`read_text` reads them (the same texts, the same errors), for many files at once:
    four system calls a file and no path objects (a fresh clone's scan reads every file; one
    :func:`read_text` a file took five times longer).

    Every file is opened without blocking and read only when it is a regular file within
    PAPER_LIMIT; anything else goes through :func:`read_text`, which names the problem.
    ``careful``: names the caller saw are not regular files (a FIFO, a device, a folder), so
    they are never opened here (read_text refuses them before opening them)."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        dir_fd = None
    if dir_fd is None or os.open not in os.supports_dir_fd:
        if dir_fd is not None:
            os.close(dir_fd)
        for name in names:
            try:
                yield name, read_text(folder / name)
            except FileNotFoundError:
                yield name, None
        return
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    open_, fstat, read, close = os.open, os.fstat, os.read, os.close
    try:
        for name in names:
            data = None
            if name not in careful:
                try:
                    fd = open_(name, flags, dir_fd=dir_fd)
                except OSError:
                    fd = -1
                if fd >= 0:
                    try:
                        st = fstat(fd)
                        if st.st_mode & 0o170000 == 0o100000 and st.st_size <= PAPER_LIMIT:
                            data = read(fd, st.st_size + 1)
                            if len(data) != st.st_size:  # changing as we read: the careful way
                                data = None
                    except OSError:
                        data = None
                    finally:
                        close(fd)
            if data is not None:
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:  # read_text names the line and column
                    pass
                else:
                    yield name, text
                    continue
            try:
                yield name, read_text(folder / name)
            except FileNotFoundError:
                yield name, None
    finally:
        os.close(dir_fd)


def compiled_loads():
    """A compiled TOML reader (``toml_rs``, a dependency) when it is installed, else None.

    Reading a whole store (a fresh clone, a deleted cache) parses every file; a compiled
    reader does that about ten times faster than :mod:`tomllib`. It is only used for that bulk
    read (importing it costs more than parsing one file), and only as a fast path: a file it
    rejects is read again with :mod:`tomllib`, whose error names the line and column.
    """
    global _COMPILED
    if _COMPILED is False:
        _COMPILED = None
        try:
            from functools import partial

            import toml_rs

            # TOML 1.0, as tomllib reads it (toml_rs would also take TOML 1.1 by default)
            _COMPILED = partial(toml_rs.loads, toml_version="1.0.0")
        except Exception:  # noqa: BLE001 - not installed, or broken: tomllib it is
            pass
    return _COMPILED


_COMPILED: Any = False  # not looked for yet


def parse(text: str, path: str | os.PathLike, *, loads=None) -> Paper:
    """The paper a file's text describes. Raises StoreError naming ``path`` (and line:column).

    Only ``key`` is required; everything else has a default, so a person may delete any line.
    A file as readinglist wrote it is read without a TOML parser (:func:`read_rendered`);
    ``loads`` is a faster TOML reader to try first for any other (see :func:`compiled_loads`).
    """
    row = read_rendered(text)
    if row is not None:
        return row_to_paper(row)
    return from_data(_load(text, path, loads), path, text)


def parse_row(text: str, path: str | os.PathLike, *, loads=None) -> tuple:
    """:func:`parse` as the plain tuple :func:`row_to_paper` reads (what the cache stores):
    the same paper, without building it for a plain file (the bulk read of a whole store,
    where ``loads``, a compiled reader, is faster than :func:`read_rendered`)."""
    if loads is None:
        row = read_rendered(text)
        if row is not None:
            return row
    data = _load(text, path, loads)
    try:
        return _plain_row(data)
    except _Unusual:
        return paper_to_row(_from_data_checked(data, path, text))


# --------------------------------------------------------------------------- reading what render writes

_R_KEY = re.compile(r"([A-Za-z0-9_-]+) = ")
_R_BASIC = re.compile(r'"((?:[^"\\\x00-\x1f\x7f]|\\(?:[btnfr"\\]|u[0-9a-fA-F]{4}))*)"')
_R_ESCAPE = re.compile(r"\\(?:([btnfr\"\\])|u([0-9a-fA-F]{4}))")
_R_UNESCAPE = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}
_R_INT = re.compile(r"-?[0-9]+")
_R_TABLES = {"\n[fields]\n": "fields", "\n[state]\n": "state", "\n[generated]\n": "generated"}


def _unescape(m: re.Match) -> str:
    return _R_UNESCAPE[m.group(1)] if m.group(1) else chr(int(m.group(2), 16))


def _r_basic(text: str, pos: int) -> tuple[str, int]:
    m = _R_BASIC.match(text, pos)
    if m is None:
        raise _Unusual
    value = m.group(1)
    return (_R_ESCAPE.sub(_unescape, value) if "\\" in value else value), m.end()


def _r_value(text: str, pos: int) -> tuple[object, int]:
    """One value as :func:`render_row` writes it, from ``pos``; (value, end)."""
    c = text[pos : pos + 1]
    if c == '"':
        return _r_basic(text, pos)
    if text.startswith("'''", pos):  # a multi-line literal string (abstract, notes)
        end = text.find("'''", pos + 3)
        if end < 0:
            raise _Unusual
        value = text[pos + 3 : end]
        return (value[1:] if value.startswith("\n") else value), end + 3
    if c == "[":
        items: list = []
        if text.startswith("[\n", pos):  # one inline table a line (authors, history)
            pos += 2
            while text.startswith("    {", pos):
                pos += 5
                row: dict = {}
                while True:
                    m = _R_KEY.match(text, pos)
                    if m is None or m.group(1) in row:
                        raise _Unusual
                    row[m.group(1)], pos = _r_basic(text, m.end())
                    if text.startswith("},\n", pos):
                        pos += 3
                        break
                    if not text.startswith(", ", pos):
                        raise _Unusual
                    pos += 2
                items.append(row)
        else:  # strings on one line (tags)
            pos += 1
            while True:
                value, pos = _r_basic(text, pos)
                items.append(value)
                if not text.startswith(", ", pos):
                    break
                pos += 2
        if text[pos : pos + 1] != "]":
            raise _Unusual
        return items, pos + 1
    m = _R_INT.match(text, pos)
    if m is None:
        raise _Unusual
    return int(m.group()), m.end()


def _read_rendered_data(text: str) -> dict:
    """What tomllib reads from a text :func:`render_row` wrote (the subset of TOML it writes);
    _Unusual for anything else."""
    if not text.startswith(_HEADER_LINES):
        raise _Unusual
    data: dict = {}
    table = data
    pos, end = len(_HEADER_LINES), len(text)
    while pos < end:
        if text.startswith("\n[", pos):
            line_end = text.find("\n", pos + 1) + 1
            header = text[pos:line_end]
            if header == "\n[[sources]]\n":
                table = {}
                data.setdefault("sources", []).append(table)
            elif header in _R_TABLES and _R_TABLES[header] not in data:
                table = data[_R_TABLES[header]] = {}
            else:
                raise _Unusual
            pos = line_end
            continue
        m = _R_KEY.match(text, pos)
        if m is None or m.group(1) in table:
            raise _Unusual
        table[m.group(1)], pos = _r_value(text, m.end())
        if text[pos : pos + 1] != "\n":
            raise _Unusual
        pos += 1
    return data


def read_rendered(text: str) -> tuple | None:
    """The row of a file exactly as :func:`render_row` writes it (every file readinglist wrote
    and nobody edited since), without a TOML parser: the file is read back into a row and
    rendered again, and only a text that comes back byte for byte counts (so the row is what
    tomllib would read: what render_row writes reads back as the row it came from). None for
    anything else (a hand edit, a comment, another layout), which goes to :func:`parse_row`.
    Single-paper commands read their file this way, and :meth:`Store._save` knows from it that
    the file can be written afresh rather than edited with tomlkit."""
    try:
        row = _plain_row(_read_rendered_data(text))
    except (_Unusual, ValueError, TypeError):
        return None
    return row if render_row(row) == text else None


def _load(text: str, path, loads) -> dict:
    if loads is not None:
        try:
            data = loads(text)
        except Exception:  # noqa: BLE001 - any failure: let tomllib find and report it
            pass
        else:
            if data.__class__ is dict:
                return data
    import tomllib  # (here: a file readinglist wrote is read without it, see read_rendered)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _TOML_POSITION.match(msg)
        if m:
            raise StoreError(f"{path}:{m.group(2)}:{m.group(3)}: not valid TOML: {m.group(1)}") from None
        raise StoreError(f"{path}: not valid TOML: {msg}") from None
    except RecursionError:
        raise StoreError(f"{path}: not a paper file: arrays or tables nested too deeply") from None


class _Fields:
    """Typed access to one table of a paper file, with errors naming the file and line."""

    def __init__(self, data: dict, path, text: str, table: str | None = None):
        self.data, self.path, self.text, self.section = data, path, text, table

    def fail(self, name: str, what: str) -> NoReturn:
        where = f"[{self.section}] " if self.section else ""
        pos = _line_of(self.text, name, self.section)
        loc = f"{self.path}:{pos[0]}:{pos[1]}" if pos else f"{self.path}"
        raise StoreError(f"{loc}: {where}{name} {what}")

    def optional(self, name: str) -> str | None:
        """The string value of ``name``, or None when it is absent."""
        value = self.data.get(name)
        if value is not None and not isinstance(value, str):
            self.fail(name, f"must be a string, not {value!r}")
        return value

    def string(self, name: str, default: str = "") -> str:
        """The string value of ``name``, or ``default`` when it is absent."""
        value = self.optional(name)
        return default if value is None else value

    def required(self, name: str) -> str:
        """The string value of ``name``, which must be there."""
        value = self.optional(name)
        if value is None:
            self.fail(name, "is missing")
        return value

    def int(self, name: str, allowed=None) -> int | None:
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or (allowed and value not in allowed):
            if allowed:
                self.fail(name, f"must be one of {', '.join(map(str, allowed))}, not {value!r}")
            self.fail(name, f"must be a whole number, not {value!r}")
        return value

    def strs(self, name: str) -> tuple[str, ...]:
        value = self.data.get(name, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(name, f"must be a list of strings, not {value!r}")
        return tuple(value)

    def tables(self, name: str) -> list[dict]:
        value = self.data.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.fail(name, "must be a list of tables")
        return value

    def table(self, name: str) -> dict:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            self.fail(name, "must be a table")
        return value


def _line_of(text: str, name: str, table: str | None) -> tuple[int, int] | None:
    """Best-effort ``(line, column)`` of the value in ``name = value`` (inside ``[table]`` when
    given), both 1-based."""
    start = 0
    if table:
        m = re.search(rf"^[ \t]*\[[ \t]*{re.escape(table)}[ \t]*\]", text, re.M)
        if not m:
            return None
        start = m.end()
    m = re.compile(rf"^[ \t]*\"?{re.escape(name)}\"?[ \t]*=[ \t]*", re.M).search(text, start)
    if not m:
        return None
    line_start = text.rfind("\n", 0, m.end()) + 1
    return text.count("\n", 0, m.end()) + 1, m.end() - line_start + 1


class _Unusual(Exception):
    """Raised by :func:`_from_plain_data` for anything but a plain, valid file."""


_EMPTY: dict = {}


def _strs_or_unusual(value) -> tuple[str, ...]:
    if value.__class__ is list:
        for v in value:
            if v.__class__ is not str:
                raise _Unusual
        return tuple(value)
    if value.__class__ is str:
        return (value,)
    raise _Unusual


def _opt_str(value):
    if value is None or value.__class__ is str:
        return value
    raise _Unusual


def _plain_row(data: dict) -> tuple:
    """The paper of a file whose values all have the expected types (nearly every file), as
    the plain tuple :func:`row_to_paper` reads (the cache stores it; a fresh clone's scan
    parses every file and never needs the dataclasses). Anything unexpected raises _Unusual,
    and the careful path, which names the file and line of the problem, takes over. Keep its
    checks in step with :func:`_from_data_checked` (tests/store/test_bulk_read.py checks that
    they agree)."""
    from ..keyform import is_valid_key

    get = data.get
    key = get("key")
    if not is_valid_key(key):
        raise _Unusual
    state = get("state", _EMPTY)
    gen = get("generated", _EMPTY)
    extra = get("fields", _EMPTY)
    if state.__class__ is not dict or gen.__class__ is not dict or extra.__class__ is not dict:
        raise _Unusual
    authors = get("authors")
    if authors is not None:
        if authors.__class__ is not list:
            raise _Unusual
        people = []
        for a in authors:
            if a.__class__ is not dict:
                raise _Unusual
            people.append((_opt_str(a.get("family")) or "", _opt_str(a.get("given")) or "", _opt_str(a.get("literal")) or ""))
        authors = tuple(people)
    else:
        authors = ()
    sources = get("sources")
    if sources is not None:
        if sources.__class__ is not list:
            raise _Unusual
        found = []
        for s in sources:
            if s.__class__ is not dict:
                raise _Unusual
            paragraph, line = s.get("paragraph"), s.get("line")
            if (paragraph is not None and paragraph.__class__ is not int) or (line is not None and line.__class__ is not int):
                raise _Unusual
            found.append((_opt_str(s.get("file")) or "", paragraph, line))
        sources = tuple(found)
    else:
        sources = ()
    history = state.get("history")
    if history is not None:
        if history.__class__ is not list:
            raise _Unusual
        events = []
        for e in history:
            if e.__class__ is not dict:
                raise _Unusual
            event, date = e.get("event", ""), e.get("date", "")
            if event.__class__ is not str or date.__class__ is not str:
                raise _Unusual
            events.append((event, date))
        history = tuple(events)
    else:
        history = ()
    year = get("year")
    if year is not None and year.__class__ is not int:
        raise _Unusual
    title = _opt_str(get("title")) or ""
    shorttitle = _opt_str(get("shorttitle"))
    tags = _strs_or_unusual(get("tags", []))
    generated = []
    if gen:
        for name, value in (("key", key), ("shorttitle", shorttitle), ("tags", tags), ("title", title)):  # sorted
            g = gen.get(name)
            if g is not None and value == (tuple(g) if g.__class__ is list else g):
                generated.append(name)
    status = state.get("status", "unread")
    priority, rating = state.get("priority"), state.get("rating")
    if (
        status not in STATUSES
        or status.__class__ is not str
        or (priority is not None and (priority.__class__ is not int or priority not in PRIORITIES))
        or (rating is not None and (rating.__class__ is not int or rating not in RATINGS))
    ):
        raise _Unusual
    if extra:
        for name, value in extra.items():
            if not _FIELD_NAME.fullmatch(name) or value.__class__ in (dict, list):
                raise _Unusual
        fields = tuple(sorted((str(k), v if v.__class__ is str else str(v)) for k, v in extra.items()))
    else:
        fields = ()
    return (
        key, title, _opt_str(get("abstract")) or "", _opt_str(get("type", "misc")), _opt_str(get("venue")), year,
        shorttitle, tags, authors, _opt_str(get("doi")), _opt_str(get("url")), _opt_str(get("pages")), fields,
        tuple(generated), sources, status, history, _opt_str(state.get("notes")) or "",
        _strs_or_unusual(state.get("tags", [])), priority, rating,
    )  # fmt: skip


def _from_plain_data(data: dict) -> Paper:
    """:func:`from_data` for a plain file (see :func:`_plain_row`): the same paper, built in a
    third of the time. _Unusual for anything else."""
    return row_to_paper(_plain_row(data))


def paper_to_row(p: Paper) -> tuple:
    """A paper as plain tuples (what marshal can store; :func:`row_to_paper` reads it back)."""
    r = p.record
    return (
        r.key, r.title, r.abstract, r.entry_type, r.venue, r.year, r.shorttitle, r.tags,
        tuple([(a.family, a.given, a.literal) for a in r.authors]),
        r.doi, r.url, r.pages, r.fields, tuple(sorted(r.generated)),
        tuple([(s.file, s.paragraph, s.line) for s in r.sources]),
        p.status, tuple([(e.event, e.date) for e in p.history]), p.notes, p.user_tags,
        p.priority, p.rating,
    )  # fmt: skip


def row_to_paper(row: tuple, _sets: dict = {}, _histories: dict = {}) -> Paper:  # noqa: B006 - memos
    """The paper a row describes (the hot loop of loading: kept free of needless calls;
    equal ``generated`` sets and histories, common after an import, are shared)."""
    (key, title, abstract, etype, venue, year, short, tags, authors, doi, url, pages, fields, gen,
     sources, status, history, notes, utags, priority, rating) = row  # fmt: skip
    generated = _sets.get(gen)
    if generated is None:
        generated = _sets[gen] = frozenset(gen)
    if sources:
        sources = (Source(*sources[0]),) if len(sources) == 1 else tuple([Source(*s) for s in sources])
    if history:
        events = _histories.get(history)
        if events is None:
            events = _histories[history] = tuple([Event(*e) for e in history])
        history = events
    if authors:
        authors = tuple([Person(*a) for a in authors])
    record = Record(key, title, abstract, etype, venue, year, short, tags, authors, doi, url, pages, fields, generated, sources)
    return Paper(record, status, history, notes, utags, priority, rating)


def from_data(data: dict, path, text: str = "") -> Paper:
    """The paper in a parsed paper file (a dict from tomllib)."""
    try:
        return _from_plain_data(data)
    except _Unusual:
        pass
    return _from_data_checked(data, path, text)


def _from_data_checked(data: dict, path, text: str = "") -> Paper:
    """:func:`from_data`, checking every value and naming the file and line of a bad one."""
    top = _Fields(data, path, text)
    state = _Fields(top.table("state"), path, text, "state")
    gen = top.table("generated")
    key = top.required("key")
    from ..convert.keys import key_problem

    problem = key_problem(key)
    if problem:
        top.fail("key", f"{key!r} is not a citation key: {problem}")
    authors = []
    for a in top.tables("authors"):
        f = _Fields(a, path, text)
        authors.append(Person(family=f.string("family", ""), given=f.string("given", ""), literal=f.string("literal", "")))
    sources = []
    for s in top.tables("sources"):
        f = _Fields(s, path, text, "sources")
        sources.append(Source(file=f.string("file", ""), paragraph=f.int("paragraph"), line=f.int("line")))
    history = []
    for e in state.tables("history"):
        f = _Fields(e, path, text, "state")
        history.append(Event(event=f.string("event", ""), date=f.string("date", "")))
    extra = _Fields(top.table("fields"), path, text, "fields")
    for name, value in extra.data.items():
        if not _FIELD_NAME.fullmatch(name):
            extra.fail(name, "is not a BibTeX field name (ASCII letters, digits, _ and -, starting with a letter)")
        if isinstance(value, (dict, list)):
            extra.fail(name, f"must be text, not a {'table' if isinstance(value, dict) else 'list'}")
    fields = tuple(sorted((str(k), v if isinstance(v, str) else str(v)) for k, v in extra.data.items()))
    record = Record(
        key=key,
        title=top.string("title", ""),
        abstract=top.string("abstract", ""),
        entry_type=top.string("type", "misc"),
        venue=top.optional("venue"),
        year=top.int("year"),
        shorttitle=top.optional("shorttitle"),
        tags=top.strs("tags"),
        authors=tuple(authors),
        doi=top.optional("doi"),
        url=top.optional("url"),
        pages=top.optional("pages"),
        fields=fields,
        generated=frozenset(),
        sources=tuple(sources),
    )
    still = frozenset(f for f in GENERATED_FIELDS if f in gen and _value(record, f) == _plain(gen[f]))
    status = state.string("status", "unread")
    if status not in STATUSES:
        state.fail("status", f"must be one of {', '.join(STATUSES)}, not {status!r}")
    return Paper(
        record=record.evolve(generated=still),
        status=status,
        history=tuple(history),
        notes=state.string("notes", ""),
        user_tags=state.strs("tags"),
        priority=state.int("priority", PRIORITIES),
        rating=state.int("rating", RATINGS),
    )


def _plain(value):
    return tuple(value) if isinstance(value, list) else value


def _value(record: Record, name: str):
    """A record's value of a generated field, as stored (tags as a tuple)."""
    return getattr(record, name)


# --------------------------------------------------------------------------- writing


def canonical(paper: Paper) -> Paper:
    """``paper`` as its file will read back: a generated field without a value is not kept
    as generated (there is nothing in ``[generated]`` to compare with)."""
    r = paper.record
    gen = frozenset(f for f in r.generated if _value(r, f) not in (None, "", ()))
    return paper if gen == r.generated else paper.evolve(record=r.evolve(generated=gen))


def _top_values(record: Record) -> dict:
    """The top-level values a record writes, None/empty for ones left out."""
    return {
        "key": record.key,
        "type": record.entry_type,
        "title": record.title,
        "shorttitle": record.shorttitle or None,
        "venue": record.venue or None,
        "year": record.year,
        "tags": record.tags,
        "abstract": record.abstract or None,
        "authors": record.authors or None,
        "doi": record.doi or None,
        "url": record.url or None,
        "pages": record.pages or None,
    }


def _state_values(paper: Paper) -> dict:
    return {
        "status": paper.status,
        "priority": paper.priority,
        "rating": paper.rating,
        "tags": paper.user_tags or None,
        "notes": paper.notes or None,
        "history": paper.history or None,
    }


def literal_ok(text: str) -> bool:
    """Whether ``text`` can be a multi-line literal string (no ``'''``, no control characters)."""
    return "'''" not in text and not text.startswith("'") and not text.endswith("'") and not _CONTROL.search(text)


def _text_item(text: str):
    """A long text (abstract, notes) as a multi-line literal string when it allows, so LaTeX
    backslashes stay single; text with several lines starts on the line after ``'''``."""
    import tomlkit
    from tomlkit.items import String, StringType, Trivia

    if not literal_ok(text):
        return tomlkit.string(text)
    original = "\n" + text if "\n" in text else text
    return String(StringType.MLL, text, original, Trivia())


def _inline_tables(rows: list[dict]):
    import tomlkit

    array = tomlkit.array()
    for row in rows:
        item = tomlkit.inline_table()
        item.update(row)
        array.append(item)
    return array.multiline(True)


def _item(name: str, value):
    """The tomlkit item for one value (same format in new files and in edits)."""
    import tomlkit

    if name in ("abstract", "notes"):
        return _text_item(value)
    if name == "authors":
        return _inline_tables([_person_row(p) for p in value])
    if name == "history":
        return _inline_tables([{"event": e.event, "date": e.date} for e in value])
    if name == "tags":
        array = tomlkit.array()
        array.extend(value)
        return array
    return tomlkit.item(value)


def _fields_table(fields: tuple[tuple[str, str], ...]):
    import tomlkit

    table = tomlkit.table()
    for k, v in fields:
        table.add(k, v)
    return table


def _generated_values(record: Record) -> dict:
    return {f: _value(record, f) for f in GENERATED_FIELDS if f in record.generated and _value(record, f) not in (None, "", ())}


def _sources_aot(sources: tuple[Source, ...]):
    import tomlkit

    aot = tomlkit.aot()
    for s in sources:
        table = tomlkit.table()
        table.add("file", s.file)
        if s.paragraph is not None:
            table.add("paragraph", s.paragraph)
        if s.line is not None:
            table.add("line", s.line)
        aot.append(table)
    return aot


_ESCAPES = {c: f"\\u{c:04x}" for c in (*range(0x20), 0x7F)}
_ESCAPES.update({0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\"})
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


_TO_ESCAPE = re.compile('[\x00-\x1f\x7f"\\\\]')


def _basic(text: str) -> str:
    """``text`` as a TOML basic string, escaped exactly as tomlkit escapes it."""
    if _TO_ESCAPE.search(text) is None:  # most values: nothing to escape (translate is slower)
        return '"' + text + '"'
    return '"' + text.translate(_ESCAPES) + '"'


def _long_text(text: str) -> str:
    if not literal_ok(text):
        return _basic(text)
    return "'''" + ("\n" if "\n" in text else "") + text + "'''"


def _inline(row: dict) -> str:
    return "{" + ", ".join(f"{k} = {_value_text(v)}" for k, v in row.items()) + "}"


def _value_text(value) -> str:
    if isinstance(value, str):
        return _basic(value)
    if isinstance(value, int):
        return str(value)
    return "[" + ", ".join(_basic(v) for v in value) + "]"


def _rows_text(rows: list[dict]) -> str:
    return "[\n" + "".join(f"    {_inline(row)},\n" for row in rows) + "]"


def _assign(name: str, value) -> str:
    """One ``name = value`` line (several for multi-line arrays), formatted as :func:`_item`
    formats it, so a new file looks exactly like values written by :func:`edit`."""
    if name in ("abstract", "notes"):
        text = _long_text(value)
    elif name == "authors":
        text = _rows_text([_person_row(p) for p in value])
    elif name == "history":
        text = _rows_text([{"event": e.event, "date": e.date} for e in value])
    else:
        text = _value_text(value)
    key = name if name in _KNOWN_KEYS or _BARE_KEY.fullmatch(name) else _basic(name)
    return f"{key} = {text}\n"


#: The names :func:`_assign` is given (all bare keys).
_KNOWN_KEYS = frozenset(TOP_KEYS + STATE_KEYS + GENERATED_FIELDS)


def _person_row(p: Person) -> dict:
    return {k: v for k, v in (("family", p.family), ("given", p.given), ("literal", p.literal)) if v}


_HEADER_LINES = "".join(f"# {line}\n" for line in HEADER)


def render(paper: Paper) -> str:
    """The text of a new file for ``paper``; the same paper always gives the same bytes
    (:func:`render_row` of its row).

    Written directly (about ten times faster than building a tomlkit document, which matters
    for imports of thousands of papers); the tests check that the text equals the tomlkit
    document built from the same values with :func:`_item`, so new files and later edits
    look alike.
    """
    return render_row(paper_to_row(paper))


def _rows_of_pairs(names: tuple[str, ...], pairs) -> str:
    """A multi-line array of inline tables (authors, history) from value tuples, leaving out
    empty values (as :func:`_person_row` does; history keeps both)."""
    return "[\n" + "".join("    {" + ", ".join(f"{k} = {_basic(v)}" for k, v in zip(names, values) if v or names[0] == "event") + "},\n" for values in pairs) + "]"


def render_row(row: tuple) -> str:
    """:func:`render` of the paper a row describes (see :func:`paper_to_row`): what a
    single-paper command writes without building the paper's dataclasses."""
    (key, title, abstract, etype, venue, year, short, tags, authors, doi, url, pages, fields, gen,
     sources, status, history, notes, utags, priority, rating) = row  # fmt: skip
    out = [_HEADER_LINES, f"key = {_basic(key)}\n"] if key else [_HEADER_LINES]
    if etype:
        out.append(f"type = {_basic(etype)}\n")
    if title:
        out.append(f"title = {_basic(title)}\n")
    for name, value in (("shorttitle", short), ("venue", venue)):
        if value:
            out.append(f"{name} = {_basic(value)}\n")
    if year is not None:
        out.append(f"year = {year}\n")
    if tags:
        out.append(f"tags = {_value_text(tags)}\n")
    if abstract:
        out.append(f"abstract = {_long_text(abstract)}\n")
    if authors:
        out.append(f"authors = {_rows_of_pairs(('family', 'given', 'literal'), authors)}\n")
    for name, value in (("doi", doi), ("url", url), ("pages", pages)):
        if value:
            out.append(f"{name} = {_basic(value)}\n")
    if fields:
        out.append("\n[fields]\n")
        out.extend(f"{k if _BARE_KEY.fullmatch(k) else _basic(k)} = {_basic(v)}\n" for k, v in fields)
    out.append(f"\n[state]\nstatus = {_basic(status)}\n")
    if priority is not None:
        out.append(f"priority = {priority}\n")
    if rating is not None:
        out.append(f"rating = {rating}\n")
    if utags:
        out.append(f"tags = {_value_text(utags)}\n")
    if notes:
        out.append(f"notes = {_long_text(notes)}\n")
    if history:
        out.append(f"history = {_rows_of_pairs(('event', 'date'), history)}\n")
    if gen:
        values = {"key": key, "title": title, "shorttitle": short, "tags": tags}
        kept = [name for name in GENERATED_FIELDS if name in gen and values[name] not in (None, "", ())]
        if kept:
            out.append("\n[generated]\n")
            out.extend(f"{name} = {_value_text(values[name])}\n" for name in kept)
    for file, paragraph, line in sources:
        out.append(f"\n[[sources]]\nfile = {_basic(file)}\n")
        if paragraph is not None:
            out.append(f"paragraph = {paragraph}\n")
        if line is not None:
            out.append(f"line = {line}\n")
    return "".join(out)


def _set(container, order: tuple[str, ...], name: str, value) -> None:
    """Set, replace or (for None/empty) remove ``name`` in a tomlkit table or document,
    inserting a new key after the nearest key that comes before it in ``order``."""
    if value in (None, "", ()):
        if name in container:
            del container[name]
        return
    item = _item(name, value)
    if name in container:
        container[name] = item
        return
    from tomlkit.items import Table

    body = container.value if isinstance(container, Table) else container  # a Container
    before = [k for k in order[: order.index(name)] if k in container]
    if before and hasattr(body, "_insert_after"):
        body._insert_after(before[-1], name, item)
    else:
        container[name] = item


def edit(text: str, old: Paper, new: Paper, path: str | os.PathLike) -> str:
    """``text`` (a file that parses to ``old``) changed to describe ``new``.

    Only values that differ between ``old`` and ``new`` are rewritten; comments, blank lines,
    the order of keys and the look of untouched values stay as they are. ``[generated]`` follows
    ``new.record.generated``: a field still generated gets its new value there too, a field that
    stopped being generated (official metadata came in) loses its entry, and the entry of a field
    a person edited by hand is left alone.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:  # tomllib accepted it, so this is rare; never overwrite it
        raise StoreError(f"{path}: cannot edit this file ({exc}); fix it by hand") from None
    old_top, new_top = _top_values(old.record), _top_values(new.record)
    for name in TOP_KEYS:
        if old_top[name] != new_top[name]:
            _set(doc, TOP_KEYS, name, new_top[name])
    if old.record.fields != new.record.fields:
        if "fields" in doc:
            del doc["fields"]
        if new.record.fields:
            _insert_table(doc, "fields", _fields_table(new.record.fields), before=("state", "generated", "sources"))
    old_state, new_state = _state_values(old), _state_values(new)
    if old_state != new_state:
        if "state" not in doc:
            table = tomlkit.table()
            for name, value in new_state.items():
                if value is not None:
                    table.add(name, _item(name, value))
            _insert_table(doc, "state", table, before=("generated", "sources"))
        else:
            state = doc["state"]
            for name in STATE_KEYS:
                if old_state[name] != new_state[name]:
                    _set(state, STATE_KEYS, name, new_state[name])
    gen_new = _generated_values(new.record)
    stopped = (old.record.generated - new.record.generated) | (set(GENERATED_FIELDS) - set(gen_new) & new.record.generated)
    if "generated" not in doc:
        if gen_new:
            table = tomlkit.table()
            for name, value in gen_new.items():
                table.add(name, _item(name, value))
            _insert_table(doc, "generated", table, before=("sources",))
    else:
        gen = doc["generated"]
        for name in GENERATED_FIELDS:
            if name in gen_new:
                if _plain(gen.get(name)) != gen_new[name]:
                    _set(gen, GENERATED_FIELDS, name, gen_new[name])
            elif name in stopped and name in gen:
                del gen[name]
        if not gen:
            del doc["generated"]
    if old.record.sources != new.record.sources:
        if "sources" in doc:
            del doc["sources"]
        if new.record.sources:
            doc.add("sources", _sources_aot(new.record.sources))
    return tomlkit.dumps(doc)


def _insert_table(doc, name: str, table, *, before: tuple[str, ...]) -> None:
    """Add a table in front of the first of ``before`` the document has, else at the end."""
    import tomlkit

    for other in before:
        if other in doc and hasattr(doc, "_insert_at"):
            index = doc._map[tomlkit_key(other)]
            index = index[0] if isinstance(index, tuple) else index
            table.add(tomlkit.nl())  # the blank line in front of the table that follows
            doc._insert_at(index, name, table)
            return
    doc.add(name, table)


def tomlkit_key(name: str):
    from tomlkit.items import SingleKey

    return SingleKey(name)
