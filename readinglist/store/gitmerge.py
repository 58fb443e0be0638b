"""The git merge driver for paper files: field by field, so that changes which do not conflict
(one person rates a paper, another tags it) merge even when git's line merge would not.

``readinglist git-setup`` (:mod:`.gitsetup`) names this driver in ``.gitattributes`` and in the
clone's git config; git then runs ``readinglist merge-file %O %A %B %P`` for every paper or list
file both sides changed, and :func:`merge_file` decides:

* **status**: three-way (changed on one side: that side's); changed on both sides to different
  statuses, the one whose status event in the history is the later; the same second on both
  sides is a true conflict.
* **rating**: three-way; rated differently on both sides, the side with the later new event in
  the history; neither side has one (ratings are not events): a true conflict.
* **tags** (topic and your own), **history**, **sources**: sets of changes from the base: what
  either side added is in, what either side removed is out (tags compared in their normal form,
  :func:`~readinglist.tagform.tag_key`); the history stays in date order, trimmed as the store
  trims it.
* **notes**: a three-way text merge, line by line (:func:`~readinglist.text.merge3.merge_text`):
  two people appending to the notes keep both; editing the same line differently is a true
  conflict.
* **every other field** (title, venue, year, abstract, authors, ``[fields]`` entries, priority,
  ...): three-way; changed differently on both sides is a true conflict, except that a value
  edited by hand wins over a regenerated one (as a re-import keeps a person's edits).

Lists are merged entry by entry in :mod:`.listmerge`. The merged file is written as the store
writes (:func:`~.paperedit.edit` of ours' text, so a hand-edited file keeps its look); a true
conflict is written with git's markers around each conflicting field's ``name = value`` lines,
ours then theirs, which :mod:`.conflicts` names when readinglist reads the file.
"""

from __future__ import annotations

import os
from collections import namedtuple

from ..errors import StoreError
from ..record import GENERATED_FIELDS, Event, Paper, Record
from ..text.merge3 import merge_text

NONE = object()  # no base (the file was added on both sides, or its base does not parse)


class Merged(namedtuple("Merged", "text conflicts", defaults=((),))):
    """The merged file's text and the true conflicts it holds (``"[state] rating"``, ...);
    a named tuple, not a dataclass: git runs the merge driver once per file, and the
    dataclasses import would be most of its start-up."""

    __slots__ = ()


def three(base, ours, theirs) -> tuple[object, bool]:
    """(value, conflict) of a three-way merge of one value; ours on a conflict."""
    if ours == theirs:
        return ours, False
    if base is not NONE and ours == base:
        return theirs, False
    if base is not NONE and theirs == base:
        return ours, False
    return ours, True


def merge_set(base, ours, theirs, key=lambda x: x) -> tuple:
    """A set-like sequence changed on two sides: ours' order, then theirs' new items; an item
    either side removed from ``base`` is out."""
    base = () if base is NONE else base
    in_base = {key(x) for x in base}
    in_ours, in_theirs = {key(x) for x in ours}, {key(x) for x in theirs}
    removed = (in_base - in_ours) | (in_base - in_theirs)
    out, seen = [], set()
    for x in (*ours, *theirs):
        k = key(x)
        if k not in removed and k not in seen:
            seen.add(k)
            out.append(x)
    return tuple(out)


def _new_events(paper: Paper, base: Paper | None) -> list[Event]:
    old = set(base.history) if base is not None else set()
    return [e for e in paper.history if e not in old]


def _latest(events: list[Event], kinds=None) -> str:
    dates = [e.date for e in events if kinds is None or e.event in kinds]
    return max(dates) if dates else ""


class _Fields:
    """The merged values of one paper, with both sides' values where they truly conflict."""

    def __init__(self) -> None:
        self.ours: dict[tuple[str | None, str], object] = {}  # (table, name) -> value, ours on conflicts
        self.theirs: dict[tuple[str | None, str], object] = {}
        self.conflicts: list[tuple[str | None, str]] = []

    def put(self, table, name, value, conflict=False, theirs_value=None) -> None:
        self.ours[table, name] = value
        self.theirs[table, name] = theirs_value if conflict else value
        if conflict:
            self.conflicts.append((table, name))


def _record_values(r: Record) -> dict:
    return {
        "key": r.key, "type": r.entry_type, "title": r.title, "shorttitle": r.shorttitle, "venue": r.venue,
        "year": r.year, "abstract": r.abstract, "authors": r.authors, "doi": r.doi, "url": r.url, "pages": r.pages,
    }  # fmt: skip


_ATTR = {"type": "entry_type"}


def merge_papers(base: Paper | None, ours: Paper, theirs: Paper) -> tuple[Paper, Paper, list[tuple[str | None, str]]]:
    """(merged with ours' values on conflicts, the same with theirs', the conflicting fields)."""
    from ..tagform import tag_key
    from .rules import trim_history

    f = _Fields()
    b_rec = _record_values(base.record) if base is not None else None
    o_rec, t_rec = _record_values(ours.record), _record_values(theirs.record)
    generated = set()
    for name in o_rec:
        if name not in GENERATED_FIELDS:
            value, conflict = three(b_rec[name] if b_rec is not None else NONE, o_rec[name], t_rec[name])
            f.put(None, name, value, conflict, t_rec[name])
            continue
        # a generated field: its value and whether it is still generated merge as one
        b = (b_rec[name], name in base.record.generated) if base is not None and b_rec is not None else NONE
        o = (o_rec[name], name in ours.record.generated)
        t = (t_rec[name], name in theirs.record.generated)
        unit, conflict = three(b, o, t)
        if conflict and o[1] != t[1]:  # an edit by hand beats a regenerated value
            unit, conflict = (o if not o[1] else t), False
        value, still = unit[0], bool(unit[1])  # type: ignore[index]
        if still:
            generated.add(name)
        f.put(None, name, value, conflict, t[0])
    b_tags = base.record.tags if base is not None else NONE
    tags = merge_set(b_tags, ours.record.tags, theirs.record.tags, tag_key)
    if any(tags == side.record.tags and "tags" in side.record.generated for side in (ours, theirs)):
        generated.add("tags")
    f.put(None, "tags", tags)
    b_fields = dict(base.record.fields) if base is not None else {}
    o_fields, t_fields = dict(ours.record.fields), dict(theirs.record.fields)
    for name in dict.fromkeys([*o_fields, *t_fields, *b_fields]):
        b = b_fields.get(name) if base is not None else NONE
        value, conflict = three(b, o_fields.get(name), t_fields.get(name))
        f.put("fields", name, value, conflict, t_fields.get(name))
    f.put(None, "sources", merge_set(base.record.sources if base is not None else NONE, ours.record.sources, theirs.record.sources))

    history = merge_set(base.history if base is not None else NONE, ours.history, theirs.history)
    history = trim_history(tuple(sorted(history, key=lambda e: (e.event != "added", e.date))))
    f.put("state", "history", history)
    new_o, new_t = _new_events(ours, base), _new_events(theirs, base)
    from ..constants import STATUS_EVENTS

    status, conflict = three(base.status if base is not None else NONE, ours.status, theirs.status)
    if conflict:
        o_at, t_at = _latest(new_o, STATUS_EVENTS.values()), _latest(new_t, STATUS_EVENTS.values())
        if o_at != t_at:
            status, conflict = (ours.status if o_at > t_at else theirs.status), False
    f.put("state", "status", status, conflict, theirs.status)
    rating, conflict = three(base.rating if base is not None else NONE, ours.rating, theirs.rating)
    if conflict:
        o_at, t_at = _latest(new_o), _latest(new_t)
        if o_at != t_at:
            rating, conflict = (ours.rating if o_at > t_at else theirs.rating), False
    f.put("state", "rating", rating, conflict, theirs.rating)
    priority, conflict = three(base.priority if base is not None else NONE, ours.priority, theirs.priority)
    f.put("state", "priority", priority, conflict, theirs.priority)
    f.put("state", "tags", merge_set(base.user_tags if base is not None else NONE, ours.user_tags, theirs.user_tags, tag_key))
    notes = merge_text(base.notes if base is not None else "", ours.notes, theirs.notes)
    if isinstance(notes, tuple):
        f.put("state", "notes", notes[0], True, notes[1])
    else:
        f.put("state", "notes", notes)

    def build(values: dict) -> Paper:
        top = {(_ATTR.get(n, n)): v for (t, n), v in values.items() if t is None}
        fields = tuple(sorted((n, v) for (t, n), v in values.items() if t == "fields" and v is not None))
        record = Record(**top, fields=fields, generated=frozenset(g for g in generated if top.get(g)))
        return Paper(
            record,
            status=values["state", "status"],
            history=values["state", "history"],
            notes=values["state", "notes"] or "",
            user_tags=values["state", "tags"],
            priority=values["state", "priority"],
            rating=values["state", "rating"],
        )

    return build(f.ours), build(f.theirs), f.conflicts


def _parse(text: str | None, path) -> Paper | None:
    from .paperfile import parse

    if text is None or not text.strip():
        return None
    return parse(text, path)


def _rendered(text: str, old: Paper, new: Paper, path) -> str:
    """``text`` (parsing to ``old``) changed to ``new`` as the store writes it."""
    from .paperedit import edit
    from .paperfile import canonical, render

    new = canonical(new)
    if text == render(old):
        return render(new)
    return edit(text, old, new, path)


def _placeholder(i: int) -> str:
    return f"@@readinglist-merge-conflict-{i}@@"


def _side(p: Paper, table: str | None, name: str) -> str:
    """The ``name = value`` line(s) of one side of a conflict, as the store writes them."""
    from .paperedit import assign, state_values, top_values

    if table == "fields":
        value = dict(p.record.fields).get(name)
    else:
        value = (top_values(p.record) if table is None else state_values(p))[name]
    return "" if value in (None, "", ()) else assign(name, value)


def _conflict_text(text: str, conflicts, ours: Paper, theirs: Paper, size: int) -> str:
    """``text`` (the merge with ours' values) with each conflicting field's line(s) replaced by
    a block of ours' and theirs' ``name = value`` lines between git's markers."""
    import tomlkit

    from .paperedit import body_index, insert_at
    from .paperrow import STATE_KEYS, TOP_KEYS

    doc = tomlkit.parse(text)
    blocks = {}
    for i, (table, name) in enumerate(conflicts):
        container = doc if table is None else doc.get(table)
        if container is None:
            container = tomlkit.table()
            doc.add(table, container)
        ph = tomlkit.string(_placeholder(i))
        if name in container:
            container[name] = ph
        else:
            order = TOP_KEYS if table is None else STATE_KEYS if table == "state" else ()
            before = [k for k in order[: order.index(name)] if k in container] if name in order else []
            body = container if table is None else container.value
            if before:
                insert_at(body, body_index(body, before[-1]) + 1, name, ph)
            else:
                container[name] = ph

        blocks[_placeholder(i)] = (
            "<" * size + " ours\n" + _side(ours, table, name) + "=" * size + "\n" + _side(theirs, table, name) + ">" * size + " theirs\n"
        )
    out = []
    for line in tomlkit.dumps(doc).splitlines(keepends=True):
        hit = next((ph for ph in blocks if ph in line), None)
        out.append(blocks[hit] if hit else line)
    return "".join(out)


def merge_paper_texts(base: str | None, ours: str, theirs: str, path: str | os.PathLike = "", *, marker_size: int = 7) -> Merged:
    """Merge three versions of a paper file (see the module docstring); StoreError when ours
    or theirs does not parse (the caller merges such files line by line)."""
    try:
        b = _parse(base, path)
    except StoreError:
        b = None  # a base with conflicts (a criss-cross merge) or broken: merge two-way
    o, t = _parse(ours, path), _parse(theirs, path)
    if o is None or t is None:
        raise StoreError(f"{path}: an empty paper file cannot be merged field by field")
    merged_o, merged_t, conflicts = merge_papers(b, o, t)
    text = _rendered(ours, o, merged_o, path)
    if not conflicts:
        return Merged(text)
    names = [f"[{table}] {name}" if table else name for table, name in conflicts]
    return Merged(_conflict_text(text, conflicts, merged_o, merged_t, marker_size), tuple(names))


def merge_lines(base: str, ours: str, theirs: str, *, marker_size: int = 7) -> Merged:
    """A line merge with git's markers (for files that cannot be merged by their fields)."""
    from ..text.merge3 import Conflict, merge3

    def lines(text: str) -> list[str]:
        return [line if line.endswith("\n") else line + "\n" for line in text.splitlines(True)]

    chunks = merge3(lines(base), lines(ours), lines(theirs), inserts="both")
    out: list[str] = []
    for c in chunks:
        if isinstance(c, Conflict):
            out.append("<" * marker_size + " ours\n" + "".join(c.ours) + "=" * marker_size + "\n")
            out.append("".join(c.theirs) + ">" * marker_size + " theirs\n")
        else:
            out.extend(c)
    conflicted = any(isinstance(c, Conflict) for c in chunks)
    return Merged("".join(out), ("lines",) if conflicted else ())


def merge_file(base: str | None, ours: str, theirs: str, path: str, *, marker_size: int = 7) -> Merged:
    """Merge three versions of the store file ``path`` (relative to the repository, as git's
    ``%P`` names it): a list file (``lists/*.toml``) entry by entry, a paper file field by
    field, anything else (or a side that does not parse) line by line."""
    from ..errors import ReadinglistError

    parts = os.path.normpath(path).split(os.sep)
    try:
        if len(parts) >= 2 and parts[-2] == "lists":
            from .listmerge import merge_list_texts

            return merge_list_texts(base, ours, theirs, path, marker_size=marker_size)
        if len(parts) >= 2 and parts[-2] == "papers":
            return merge_paper_texts(base, ours, theirs, path, marker_size=marker_size)
    except ReadinglistError:
        pass
    return merge_lines(base or "", ours, theirs, marker_size=marker_size)


def run_driver(base: str, ours: str, theirs: str, path: str = "", *, marker_size: int = 7) -> tuple[int, str]:
    """What git's merge driver command does: merge the files ``base``, ``ours`` and ``theirs``
    (git's %O %A %B) for the store file ``path`` (%P), write the result into ``ours``, and give
    (exit status, message): 0 and "" when merged cleanly, 1 and a line naming the conflicts."""

    def read(p: str) -> str:
        try:
            with open(p, "rb") as fh:
                return fh.read().decode("utf-8", "surrogateescape")
        except FileNotFoundError:
            return ""

    texts = [read(p) for p in (base, ours, theirs)]
    try:
        merged = merge_file(texts[0], texts[1], texts[2], path or ours, marker_size=marker_size)
    except Exception:  # noqa: BLE001 - git must get a merge: never leave ours alone as if it won
        merged = merge_lines(*texts, marker_size=marker_size)
    with open(ours, "wb") as fh:
        fh.write(merged.text.encode("utf-8", "surrogateescape"))
    if merged.conflicts:
        return 1, f"readinglist: {path or ours}: conflict in {', '.join(merged.conflicts)}; both versions are in the file"
    return 0, ""
