"""Edits of a paper file with :mod:`tomlkit` that keep a person's changes: :func:`edit`
changes a file's text from one paper to another, touching only the values that differ
(comments, blank lines, key order and the formatting of every other value stay as the person
left them, and a change is a few lines in ``git diff``). A new file is written without tomlkit
(:func:`~.paperrow.render_row`); :func:`_assign` and :func:`_item` format values exactly as it
does (tests/store/test_paperfile.py checks that they agree).

``tomlkit`` is imported inside the functions only: reading a paper never loads it.
"""

from __future__ import annotations

import os

from ..constants import GENERATED_FIELDS
from ..errors import StoreError
from .paperrow import STATE_KEYS, TOP_KEYS, basic, BARE_KEY, long_text, value_text, literal_ok

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from ..record import Paper, Person, Record, Source


def _plain(value):
    return tuple(value) if isinstance(value, list) else value


def top_values(record: Record) -> dict:
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


def state_values(paper: Paper) -> dict:
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
    return {f: v for f in GENERATED_FIELDS if f in record.generated and (v := getattr(record, f)) not in (None, "", ())}


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
    return "{" + ", ".join(f"{k} = {value_text(v)}" for k, v in row.items()) + "}"


def _rows_text(rows: list[dict]) -> str:
    return "[\n" + "".join(f"    {_inline(row)},\n" for row in rows) + "]"


def assign(name: str, value) -> str:
    """One ``name = value`` line (several for multi-line arrays), formatted as :func:`_item`
    formats it, so a new file looks exactly like values written by :func:`edit`."""
    if name in ("abstract", "notes"):
        text = long_text(value)
    elif name == "authors":
        text = _rows_text([_person_row(p) for p in value])
    elif name == "history":
        text = _rows_text([{"event": e.event, "date": e.date} for e in value])
    else:
        text = value_text(value)
    key = name if name in _KNOWN_KEYS or BARE_KEY.fullmatch(name) else basic(name)
    return f"{key} = {text}\n"


#: The names :func:`_assign` is given (all bare keys).
_KNOWN_KEYS = frozenset(TOP_KEYS + STATE_KEYS + GENERATED_FIELDS)


def _person_row(p: Person) -> dict:
    return {k: v for k, v in (("family", p.family), ("given", p.given), ("literal", p.literal)) if v}


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
        insert_at(body, body_index(body, before[-1]) + 1, name, item)
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
    old_top, new_top = top_values(old.record), top_values(new.record)
    for name in TOP_KEYS:
        if old_top[name] != new_top[name]:
            _set(doc, TOP_KEYS, name, new_top[name])
    if old.record.fields != new.record.fields:
        if "fields" in doc:
            del doc["fields"]
        if new.record.fields:
            _insert_table(doc, "fields", _fields_table(new.record.fields), before=("state", "generated", "sources"))
    old_state, new_state = state_values(old), state_values(new)
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
            insert_at(doc, body_index(doc, other, first=True), name, table)
            return
    doc.add(name, table)


# tomlkit has no public way to put a new key anywhere but at the end, so the two functions below
# use its internals: ``Container._map`` (key -> position in the body, a tuple for a table split in
# parts) and ``Container._insert_at``. Both are in every tomlkit from 0.12.0 to 0.15.3 (0.15.3
# removed ``_insert_after``, which this module used before); pyproject.toml bounds tomlkit to the
# releases tests/store/test_paperfile_tomlkit.py has passed on.


def body_index(container, name: str, *, first: bool = False) -> int:
    """Where the key ``name`` sits in ``container``'s body (its first or last part)."""
    from tomlkit.items import SingleKey

    index = container._map[SingleKey(name)]
    if isinstance(index, tuple):
        return min(index) if first else max(index)
    return index


def insert_at(container, index: int, name: str, item) -> None:
    """Put ``name = item`` at ``index`` of ``container``'s body (appended when that is its end)."""
    if index >= len(container.body):
        container.append(name, item)
    else:
        container._insert_at(index, name, item)
