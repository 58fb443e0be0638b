"""What a TOML reader read from a paper file, checked and made into the paper's row: the one
validator of a paper's values (every reader of a paper file goes through :func:`checked_row`:
:func:`~.paperrow.read_rendered` without a TOML parser, :func:`~.paperfile.parse` and the bulk
read with one).

A value of the wrong type is a StoreError naming the file, line and column; only ``key`` is
required, everything else has a default, so a person may delete any line. A field named in
``GENERATED_FIELDS`` counts as generated while its value still equals the one in
``[generated]``. The checks run in the order a file lists its values, so the first bad one is
the one named; a valid file (nearly every one) costs one type test a value.
"""

from __future__ import annotations

import re

from ..constants import STATUSES
from ..errors import StoreError
from ..keyform import is_valid_key

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from typing import NoReturn

PRIORITIES = (1, 2, 3)
RATINGS = (1, 2, 3, 4, 5)

FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")

_EMPTY: dict = {}


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


def fail(path, text: str, table: str | None, name: str, what: str) -> NoReturn:
    """StoreError: ``name`` (in ``[table]``) of the file ``path`` (whose text is ``text``) ``what``."""
    where = f"[{table}] " if table else ""
    pos = _line_of(text, name, table)
    loc = f"{path}:{pos[0]}:{pos[1]}" if pos else f"{path}"
    raise StoreError(f"{loc}: {where}{name} {what}")


def _opt(table: dict, name: str, path, text: str, section: str | None = None):
    """The string ``name`` of ``table``, or None when it is absent."""
    value = table.get(name)
    if value is not None and value.__class__ is not str:
        fail(path, text, section, name, f"must be a string, not {value!r}")
    return value


def _int(table: dict, name: str, path, text: str, section: str | None = None, allowed: tuple[int, ...] = ()):
    value = table.get(name)
    if value is None:
        return None
    if value.__class__ is not int or (allowed and value not in allowed):
        if allowed:
            fail(path, text, section, name, f"must be one of {', '.join(map(str, allowed))}, not {value!r}")
        fail(path, text, section, name, f"must be a whole number, not {value!r}")
    return value


def _strs(table: dict, name: str, path, text: str, section: str | None = None) -> tuple[str, ...]:
    value = table.get(name)
    if value is None:
        return ()
    if value.__class__ is str:
        return (value,)
    if value.__class__ is list:
        for v in value:
            if v.__class__ is not str:
                break
        else:
            return tuple(value)
    fail(path, text, section, name, f"must be a list of strings, not {value!r}")


def _tables(table: dict, name: str, path, text: str, section: str | None = None) -> list[dict]:
    value = table.get(name)
    if value is None:
        return []
    if value.__class__ is list:
        for v in value:
            if v.__class__ is not dict:
                break
        else:
            return value
    fail(path, text, section, name, "must be a list of tables")


def _table(data: dict, name: str, path, text: str) -> dict:
    value = data.get(name, _EMPTY)
    if value.__class__ is not dict:
        fail(path, text, None, name, "must be a table")
    return value


def checked_row(data: dict, path, text: str = "") -> tuple:
    """The row (see :mod:`.paperrow`) of a paper file whose TOML reads as ``data``; StoreError
    naming ``path`` and the line of the first value that is not what a paper file holds."""
    state = _table(data, "state", path, text)
    gen = _table(data, "generated", path, text)
    key = data.get("key")
    if not is_valid_key(key):
        key = _opt(data, "key", path, text)
        if key is None:
            fail(path, text, None, "key", "is missing")
        from ..convert.keys import key_problem

        fail(path, text, None, "key", f"{key!r} is not a citation key: {key_problem(key)}")
    authors = tuple(
        [(_opt(a, "family", path, text) or "", _opt(a, "given", path, text) or "", _opt(a, "literal", path, text) or "") for a in _tables(data, "authors", path, text)]
    )
    sources = tuple(
        [
            (_opt(s, "file", path, text, "sources") or "", _int(s, "paragraph", path, text, "sources"), _int(s, "line", path, text, "sources"))
            for s in _tables(data, "sources", path, text)
        ]
    )
    history = tuple(
        [
            (_opt(e, "event", path, text, "state") or "", _opt(e, "date", path, text, "state") or "")
            for e in _tables(state, "history", path, text, "state")
        ]
    )
    extra = _table(data, "fields", path, text)
    if extra:
        for name, value in extra.items():
            if not FIELD_NAME.fullmatch(name):
                fail(path, text, "fields", name, "is not a BibTeX field name (ASCII letters, digits, _ and -, starting with a letter)")
            if value.__class__ is dict or value.__class__ is list:
                fail(path, text, "fields", name, f"must be text, not a {'table' if value.__class__ is dict else 'list'}")
        fields = tuple(sorted((str(k), v if v.__class__ is str else str(v)) for k, v in extra.items()))
    else:
        fields = ()
    title = _opt(data, "title", path, text) or ""
    abstract = _opt(data, "abstract", path, text) or ""
    etype = data.get("type", "misc")
    if etype.__class__ is not str:
        etype = _opt(data, "type", path, text)
    venue = _opt(data, "venue", path, text)
    year = _int(data, "year", path, text)
    shorttitle = _opt(data, "shorttitle", path, text)
    tags = _strs(data, "tags", path, text)
    doi, url, pages = _opt(data, "doi", path, text), _opt(data, "url", path, text), _opt(data, "pages", path, text)
    generated = []
    if gen:
        for name, value in (("key", key), ("shorttitle", shorttitle), ("tags", tags), ("title", title)):  # sorted
            g = gen.get(name)
            if g is not None and value == (tuple(g) if g.__class__ is list else g):
                generated.append(name)
    status = state.get("status", "unread")
    if status.__class__ is not str or status not in STATUSES:
        status = _opt(state, "status", path, text, "state")
        fail(path, text, "state", "status", f"must be one of {', '.join(STATUSES)}, not {status!r}")
    return (
        key, title, abstract, etype, venue, year, shorttitle, tags, authors, doi, url, pages, fields,
        tuple(generated), sources, status, history, _opt(state, "notes", path, text, "state") or "",
        _strs(state, "tags", path, text, "state"), _int(state, "priority", path, text, "state", PRIORITIES),
        _int(state, "rating", path, text, "state", RATINGS),
    )  # fmt: skip
