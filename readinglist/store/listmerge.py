"""The git merge driver for curated lists (``lists/<name>.toml``): entry by entry.

* **sections** are told apart by title (case-folded) and, for repeated titles, by which of
  them it is; a section added on one side is in, one removed on one side is out unless the
  other side changed it (then it stays: nothing is lost).
* **papers** of a section merge as a sequence (:func:`~readinglist.text.merge3.merge3`): what
  one side added, removed or moved is done; two people appending to one section keep both
  papers (ours first). A paper moved to different places on both sides keeps ours' place.
* **comments** and the **title**: three-way; changed differently on both sides is a true
  conflict. The **introduction** is merged as text, line by line (as a paper's notes).

The merged list is written by :func:`~.lists.render`; a true conflict gets git's markers around
the conflicting lines (an entry, the title, the introduction), which :mod:`.conflicts` names.
"""

from __future__ import annotations

import os
from dataclasses import replace

from ..text.merge3 import Conflict, marked, merge3, merge_text
from .gitmerge import NONE, Merged, three
from .lists import Entry, ReadingList, Section, parse, render_units


def _ids(lst: ReadingList) -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    out = []
    for s in lst.sections:
        t = s.title.casefold()
        seen[t] = seen.get(t, 0) + 1
        out.append((t, seen[t]))
    return out


def _sections(lst: ReadingList | None) -> dict[tuple[str, int], Section]:
    return dict(zip(_ids(lst), lst.sections)) if lst is not None else {}


def _sequence(base: list, ours: list, theirs: list) -> list:
    """A sequence merge where order is soft: a conflict gives ours' stretch, then what theirs'
    adds to the base."""
    out: list = []
    for c in merge3(base, ours, theirs, inserts="union"):
        if isinstance(c, Conflict):
            out += [*c.ours, *(x for x in c.theirs if x not in c.ours and x not in base)]
        else:
            out += c
    return list(dict.fromkeys(out))


def _kept(ids: list, base_ids: list, other: dict, base: dict) -> list:
    """``ids`` with the base sections it removed put back where the other side changed them."""
    out = list(ids)
    for i, sid in enumerate(base_ids):
        if sid not in out and sid in other and other[sid] != base[sid]:
            before = [b for b in base_ids[:i] if b in out]
            out.insert(out.index(before[-1]) + 1 if before else 0, sid)
    return out


def merge_lists(base: ReadingList | None, ours: ReadingList, theirs: ReadingList) -> tuple[ReadingList, ReadingList, list[str]]:
    """(merged with ours' values on conflicts, the same with theirs', what conflicts)."""
    conflicts: list[str] = []
    b_sec, o_sec, t_sec = _sections(base), _sections(ours), _sections(theirs)
    b_ids = _ids(base) if base is not None else []
    o_ids = _kept(_ids(ours), b_ids, t_sec, b_sec)
    t_ids = _kept(_ids(theirs), b_ids, o_sec, b_sec)
    order = _sequence(b_ids, o_ids, t_ids)

    def keys(sections: dict, sid) -> list[str]:
        s = sections.get(sid)
        return [e.key for e in s.entries] if s is not None else []

    placed: dict[str, list] = {sid: _sequence(keys(b_sec, sid), keys(o_sec, sid), keys(t_sec, sid)) for sid in order}

    def where(sections: dict) -> dict[str, tuple]:
        return {e.key: sid for sid, s in sections.items() for e in s.entries}

    b_at, o_at, t_at = where(b_sec), where(o_sec), where(t_sec)
    seen: set[str] = set()
    for sid in order:  # a paper in two sections (moved on both sides): one place, ours' if it can
        out = []
        for key in placed[sid]:
            want, _ = three(b_at.get(key, NONE), o_at.get(key, NONE), t_at.get(key, NONE))
            elsewhere = want is not NONE and want != sid and want in placed and key in placed[want]
            if key in seen or elsewhere:
                continue
            seen.add(key)
            out.append(key)
        placed[sid] = out

    def comments(lst: ReadingList | None) -> dict[str, str]:
        return {e.key: e.comment for e in lst.entries} if lst is not None else {}

    b_c, o_c, t_c = comments(base), comments(ours), comments(theirs)
    chosen_o: dict[str, str] = {}
    chosen_t: dict[str, str] = {}
    for key in seen:
        sides = [c[key] for c in (o_c, t_c) if key in c]
        if key in o_c and key in t_c:
            value, conflict = three(b_c.get(key, NONE), o_c[key], t_c[key])
            chosen_o[key] = value  # type: ignore[assignment]
            chosen_t[key] = t_c[key] if conflict else value  # type: ignore[assignment]
            if conflict:
                conflicts.append(f"the comment of {key}")
        else:
            chosen_o[key] = chosen_t[key] = sides[0] if sides else b_c.get(key, "")

    b = base if base is not None else None
    title, t_conflict = three(b.title if b is not None else NONE, ours.title, theirs.title)
    if t_conflict:
        conflicts.append("the title")
    intro = merge_text(b.introduction if b is not None else "", ours.introduction, theirs.introduction)
    if isinstance(intro, tuple):
        conflicts.append("the introduction")
        intro_o, intro_t = intro
    else:
        intro_o = intro_t = intro

    def section_of(sid) -> Section:
        for sections in (o_sec, t_sec, b_sec):
            if sid in sections:
                return sections[sid]
        raise AssertionError(sid)  # pragma: no cover - every id comes from one of them

    def build(title: str, intro: str, chosen: dict[str, str]) -> ReadingList:
        sections = tuple(
            replace(section_of(sid), entries=tuple(Entry(k, chosen[k]) for k in placed[sid])) for sid in order
        )
        return replace(ours, title=title, introduction=intro, sections=sections)

    return (
        build(title, intro_o, chosen_o),  # type: ignore[arg-type]
        build(theirs.title if t_conflict else title, intro_t, chosen_t),  # type: ignore[arg-type]
        conflicts,
    )


def merge_list_texts(base: str | None, ours: str, theirs: str, path: str | os.PathLike = "", *, marker_size: int = 7) -> Merged:
    """Merge three versions of a list file; ListError when ours or theirs does not parse."""
    from ..errors import ListError

    path = str(path)
    name = os.path.basename(path).removesuffix(".toml") or "list"
    try:
        b = parse(base, name, path) if base and base.strip() else None
    except ListError:
        b = None  # a base with conflicts (a criss-cross merge) or broken: merge two-way
    o, t = parse(ours, name, path), parse(theirs, name, path)
    merged_o, merged_t, conflicts = merge_lists(b, o, t)
    units_o = render_units(merged_o)
    if not conflicts:
        return Merged("".join(units_o))
    return Merged(marked(units_o, render_units(merged_t), size=marker_size), tuple(conflicts))
