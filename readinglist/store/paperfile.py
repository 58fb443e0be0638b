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

* :func:`parse` reads a file's text into a :class:`~readinglist.record.Paper` (a file as
  readinglist wrote it without a TOML parser: :func:`~.paperrow.read_rendered`; any other with
  :mod:`tomllib`); a field named in ``GENERATED_FIELDS`` counts as generated while its value
  still equals the one in ``[generated]``.
* :func:`render` writes a new file in a fixed order and format, so the same paper always gives
  the same bytes (:func:`~.paperrow.render_row` of the paper's row: the text tomlkit would
  make, written directly).
* :func:`edit` changes an existing file's text from one paper to another with :mod:`tomlkit`,
  touching only the values that differ: comments, blank lines, key order and the formatting of
  every other value stay as the person left them, and a change is a few lines in ``git diff``.

A file as a row (the plain tuple the cache stores and single-paper commands change) is in
:mod:`.paperrow`, whose names this module exports too.

``tomlkit`` is imported inside the writing functions only, so reading a paper stays fast.
"""

from __future__ import annotations

import os
import re

from ..errors import StoreError
from ..record import GENERATED_FIELDS, STATUSES, Event, Paper, Person, Record, Source
# a file as a row (read, written, named) is in .paperrow; its names are this module's too
from .paperrow import (
    HEADER as HEADER,
    TOP_KEYS as TOP_KEYS,
    STATE_KEYS as STATE_KEYS,
    PRIORITIES as PRIORITIES,
    RATINGS as RATINGS,
    MAX_HISTORY as MAX_HISTORY,
    _FIELD_NAME as _FIELD_NAME,
    _CONTROL as _CONTROL,
    file_stem as file_stem,
    PAPER_LIMIT as PAPER_LIMIT,
    read_text as read_text,
    read_texts as read_texts,
    read_rendered as read_rendered,
    _Unusual as _Unusual,
    _EMPTY as _EMPTY,
    _strs_or_unusual as _strs_or_unusual,
    _opt_str as _opt_str,
    _plain_row as _plain_row,
    literal_ok as literal_ok,
    _ESCAPES as _ESCAPES,
    _BARE_KEY as _BARE_KEY,
    _TO_ESCAPE as _TO_ESCAPE,
    _basic as _basic,
    _long_text as _long_text,
    _value_text as _value_text,
    _HEADER_LINES as _HEADER_LINES,
    render_row as render_row,
)

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from typing import Any, NoReturn


_TOML_POSITION = re.compile(r"^(.*) \(at line (\d+), column (\d+)\)$")


# --------------------------------------------------------------------------- reading


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
        from .conflicts import describe

        conflict = describe(text, path)  # git's conflict markers: name the fields, not the TOML
        if conflict:
            raise StoreError(conflict) from None
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


def _inline(row: dict) -> str:
    return "{" + ", ".join(f"{k} = {_value_text(v)}" for k, v in row.items()) + "}"


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


def render(paper: Paper) -> str:
    """The text of a new file for ``paper``; the same paper always gives the same bytes
    (:func:`render_row` of its row).

    Written directly (about ten times faster than building a tomlkit document, which matters
    for imports of thousands of papers); the tests check that the text equals the tomlkit
    document built from the same values with :func:`_item`, so new files and later edits
    look alike.
    """
    return render_row(paper_to_row(paper))


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
    if before:
        _insert_at(body, _body_index(body, before[-1]) + 1, name, item)
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
        if other in doc:
            table.add(tomlkit.nl())  # the blank line in front of the table that follows
            _insert_at(doc, _body_index(doc, other, first=True), name, table)
            return
    doc.add(name, table)


# tomlkit has no public way to put a new key anywhere but at the end, so the two functions below
# use its internals: ``Container._map`` (key -> position in the body, a tuple for a table split in
# parts) and ``Container._insert_at``. Both are in every tomlkit from 0.12.0 to 0.15.3 (0.15.3
# removed ``_insert_after``, which this module used before); pyproject.toml bounds tomlkit to the
# releases tests/store/test_paperfile_tomlkit.py has passed on.


def _body_index(container, name: str, *, first: bool = False) -> int:
    """Where the key ``name`` sits in ``container``'s body (its first or last part)."""
    from tomlkit.items import SingleKey

    index = container._map[SingleKey(name)]
    if isinstance(index, tuple):
        return min(index) if first else max(index)
    return index


def _insert_at(container, index: int, name: str, item) -> None:
    """Put ``name = item`` at ``index`` of ``container``'s body (appended when that is its end)."""
    if index >= len(container.body):
        container.append(name, item)
    else:
        container._insert_at(index, name, item)
