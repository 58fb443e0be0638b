"""A paper file as a row: the plain tuple a file parses to (what the cache stores, marshalled),
written and read back without a TOML parser (:mod:`readinglist.store.paperfile` turns rows
into :class:`~readinglist.record.Paper` values and back). Rows stay inside ``store/``.

A row holds a paper's values in this order (what the cache stores; see
:func:`~readinglist.store.paperfile.paper_to_row`): key, title, abstract, type, venue, year,
shorttitle, tags, authors ((family, given, literal) each), doi, url, pages, fields ((name,
value) pairs, sorted), generated (field names, sorted), sources ((file, paragraph, line) each),
status, history ((event, date) each), notes, the user's tags, priority, rating.

* :func:`render_row` writes a file's text; :func:`read_rendered` reads such a text back without
  a TOML parser (only a text that renders to the same bytes);
* :func:`~.paperdata.checked_row` (the one validator) makes a row of what a TOML reader read;
* :func:`file_stem`, :func:`read_text` and :func:`read_texts`: file names and reading.

A single-paper command (``mark``, ``note``, ``tag``, ...) reads and writes a file readinglist
wrote through these, without a TOML parser.
"""

from __future__ import annotations

import os
import re

from ..constants import GENERATED_FIELDS
from ..errors import StoreError
from ..keyform import file_stem as file_stem  # (the one name rule)
from .paperdata import PRIORITIES as PRIORITIES, RATINGS as RATINGS

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from collections.abc import Container, Iterable, Iterator
    from pathlib import Path

HEADER = (
    "readinglist paper — edit freely. A field you change above [generated] is kept;",
    "one still equal to its [generated] value is regenerated on re-import.",
)


#: Top-level keys in the order a new file lists them (``fields`` is the ``[fields]`` table).
TOP_KEYS = ("key", "type", "title", "shorttitle", "venue", "year", "tags", "abstract", "authors", "doi", "url", "pages")


STATE_KEYS = ("status", "priority", "rating", "tags", "notes", "history")


#: How many history events a paper keeps: the first ("added") and the latest ones.
MAX_HISTORY = 10


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


#: The largest paper file read (notes included): 16 MB.
PAPER_LIMIT = 16 << 20


def read_text(path: Path) -> str:
    """The text of a paper file. FileNotFoundError when there is none; StoreError for a file
    that is not UTF-8 (naming line and column), not a regular file (a folder, a FIFO, a device),
    larger than PAPER_LIMIT, or unreadable."""
    from .atomic import byte_place, describe, read_bounded

    try:
        data = read_bounded(path, limit=PAPER_LIMIT)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise StoreError(f"{path}: cannot read this paper file: {describe(exc)}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = byte_place(data, exc.start)
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
    from .paperdata import checked_row

    try:
        row = checked_row(_read_rendered_data(text), "", text)
    except (_Unusual, StoreError, ValueError, TypeError):
        return None
    return row if render_row(row) == text else None


class _Unusual(Exception):
    """Raised by :func:`_read_rendered_data` for anything but a text :func:`render_row` wrote."""


def literal_ok(text: str) -> bool:
    """Whether ``text`` can be a multi-line literal string (no ``'''``, no control characters)."""
    return "'''" not in text and not text.startswith("'") and not text.endswith("'") and not _CONTROL.search(text)


_ESCAPES = {c: f"\\u{c:04x}" for c in (*range(0x20), 0x7F)}


_ESCAPES.update({0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\"})


BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


_TO_ESCAPE = re.compile('[\x00-\x1f\x7f"\\\\]')


def basic(text: str) -> str:
    """``text`` as a TOML basic string, escaped exactly as tomlkit escapes it."""
    if _TO_ESCAPE.search(text) is None:  # most values: nothing to escape (translate is slower)
        return '"' + text + '"'
    return '"' + text.translate(_ESCAPES) + '"'


def long_text(text: str) -> str:
    if not literal_ok(text):
        return basic(text)
    return "'''" + ("\n" if "\n" in text else "") + text + "'''"


def value_text(value) -> str:
    if isinstance(value, str):
        return basic(value)
    if isinstance(value, int):
        return str(value)
    return "[" + ", ".join(basic(v) for v in value) + "]"


_HEADER_LINES = "".join(f"# {line}\n" for line in HEADER)


def _rows_of_pairs(names: tuple[str, ...], pairs) -> str:
    """A multi-line array of inline tables (authors, history) from value tuples, leaving out
    empty values (as :func:`_person_row` does; history keeps both)."""
    return "[\n" + "".join("    {" + ", ".join(f"{k} = {basic(v)}" for k, v in zip(names, values) if v or names[0] == "event") + "},\n" for values in pairs) + "]"


def render_row(row: tuple) -> str:
    """:func:`render` of the paper a row describes (see :func:`paper_to_row`): what a
    single-paper command writes."""
    (key, title, abstract, etype, venue, year, short, tags, authors, doi, url, pages, fields, gen,
     sources, status, history, notes, utags, priority, rating) = row  # fmt: skip
    out = [_HEADER_LINES, f"key = {basic(key)}\n"] if key else [_HEADER_LINES]
    if etype:
        out.append(f"type = {basic(etype)}\n")
    if title:
        out.append(f"title = {basic(title)}\n")
    for name, value in (("shorttitle", short), ("venue", venue)):
        if value:
            out.append(f"{name} = {basic(value)}\n")
    if year is not None:
        out.append(f"year = {year}\n")
    if tags:
        out.append(f"tags = {value_text(tags)}\n")
    if abstract:
        out.append(f"abstract = {long_text(abstract)}\n")
    if authors:
        out.append(f"authors = {_rows_of_pairs(('family', 'given', 'literal'), authors)}\n")
    for name, value in (("doi", doi), ("url", url), ("pages", pages)):
        if value:
            out.append(f"{name} = {basic(value)}\n")
    if fields:
        out.append("\n[fields]\n")
        out.extend(f"{k if BARE_KEY.fullmatch(k) else basic(k)} = {basic(v)}\n" for k, v in fields)
    out.append(f"\n[state]\nstatus = {basic(status)}\n")
    if priority is not None:
        out.append(f"priority = {priority}\n")
    if rating is not None:
        out.append(f"rating = {rating}\n")
    if utags:
        out.append(f"tags = {value_text(utags)}\n")
    if notes:
        out.append(f"notes = {long_text(notes)}\n")
    if history:
        out.append(f"history = {_rows_of_pairs(('event', 'date'), history)}\n")
    if gen:
        values = {"key": key, "title": title, "shorttitle": short, "tags": tags}
        kept = [name for name in GENERATED_FIELDS if name in gen and values[name] not in (None, "", ())]
        if kept:
            out.append("\n[generated]\n")
            out.extend(f"{name} = {value_text(values[name])}\n" for name in kept)
    for file, paragraph, line in sources:
        out.append(f"\n[[sources]]\nfile = {basic(file)}\n")
        if paragraph is not None:
            out.append(f"paragraph = {paragraph}\n")
        if line is not None:
            out.append(f"line = {line}\n")
    return "".join(out)
