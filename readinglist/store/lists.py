"""Curated reading lists: ``<store>/lists/<name>.toml``, hand-editable and git-mergeable.

A list is chosen papers in an order, under headings, each with an optional line on why::

    # readinglist list — edit freely: sections and papers keep the order written here.
    title = "Week 12: active vision"
    introduction = '''
    Two papers on *glimpses*, then one on memory.
    '''

    [[sections]]
    title = "Start here"
    papers = [
      { key = "canvit2026", comment = "read §3 only" },
      { key = "m2le2026" },
    ]

One paper per line, so two people adding papers to different sections merge without conflicts.
The file is rewritten deterministically (TOML comments inside it are not kept), always through
:func:`~readinglist.store.atomic.write_atomic`, under the store's lock.

Papers are referenced by key. :func:`resolve` follows a key renamed later: by hand (the paper's
file still has the old key's name) or by ``reconcile --rekey`` (which rewrites the lists, see
:func:`follow_rename`). A key that matches no paper is reported with did-you-mean suggestions,
never dropped silently.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from collections.abc import Iterable

from ..errors import ListError, UnknownKeyError, ValidationError, did_you_mean
from .listfiles import (
    suggest,
    check_name,
    folder,
    load,
    load_all,
    names,
    parse,
    path_of,
    render,
    render_units,
    save,
)
from .listmodel import HEADER, Entry, Item, ReadingList, Resolved, Section

if TYPE_CHECKING:  # pragma: no cover
    from ..record import Paper
    from .library import Store

__all__ = [
    "HEADER", "Entry", "Item", "ReadingList", "Resolved", "Section", "check_name", "folder", "load", "load_all",
    "names", "parse", "path_of", "render", "render_units", "save", "resolve", "create", "add", "remove", "move",
    "set_comment", "follow_rename", "containing", "forget", "AddReport",
]  # fmt: skip

# --------------------------------------------------------------------------- resolving keys


#: A list with more entries than this is resolved in one query on the store's cache rather than
#: paper file by paper file.
BULK_FROM = 64
#: Keys of a list that match no paper given did-you-mean suggestions (each one compares the
#: key with every key of the store); the others are named without.
SUGGESTED = 20


def resolve(store: Store, lst: ReadingList) -> Resolved:
    """The list's papers in order, following renamed keys; missing keys with suggestions (the
    first SUGGESTED of them). Linear in the list's entries: each key is looked up once."""
    from ..errors import StoreError
    from .paperfile import file_stem

    items: list[Item] = []
    unreadable: list[tuple[str, str]] = []
    missing: list[tuple[str, tuple[str, ...]]] = []
    renamed: list[tuple[str, str]] = []
    by_file: dict[str, Paper] | None = None
    bulk: dict[str, Paper] | None = None  # key -> paper, of the list's keys, as the cache has them
    if sum(len(s.entries) for s in lst.sections) > BULK_FROM:
        bulk = store._papers_with_keys(e.key for s in lst.sections for e in s.entries)
    all_keys: list[str] | None = None
    found: dict[str, tuple[str, object]] = {}  # key -> ("paper" | "renamed" | "missing" | "unreadable", what)

    def look_up(key: str) -> tuple[str, object]:
        nonlocal by_file, all_keys
        if bulk is not None:
            paper = bulk.get(key)
            if paper is not None:
                return "paper", paper
        try:
            if bulk is not None and not store._broken:
                raise UnknownKeyError(key)  # (not in the cache: no file to read; suggestions below)
            return "paper", store.get(key)
        except UnknownKeyError as exc:
            if by_file is None:
                by_file = store._renamed_files()
            paper = by_file.get(file_stem(key))
            if paper is not None:
                return "renamed", paper
            suggestions = exc.suggestions
            if bulk is not None and len(missing) < SUGGESTED:
                if all_keys is None:
                    all_keys = [k for _, k in store._names_and_keys()]
                suggestions = store._suggest(key, all_keys)
            return "missing", suggestions if len(missing) < SUGGESTED else ()
        except StoreError as exc:  # its file does not parse (a git conflict): the rest is shown
            return "unreadable", str(exc)

    for position, section in enumerate(lst.sections):
        for entry in section.entries:
            kind, what = found.get(entry.key) or found.setdefault(entry.key, look_up(entry.key))
            if kind == "missing":
                missing.append((entry.key, what))  # type: ignore[arg-type]
            elif kind == "unreadable":
                unreadable.append((entry.key, what))  # type: ignore[arg-type]
            else:
                if kind == "renamed":
                    renamed.append((entry.key, what.key))  # type: ignore[attr-defined]
                items.append(Item(section.title, entry, what, position))  # type: ignore[arg-type]
    return Resolved(lst, tuple(items), tuple(missing), tuple(renamed), tuple(unreadable))


def _current_keys(lst: ReadingList, resolved: Resolved) -> ReadingList:
    """``lst`` with followed renames written as the papers' keys now."""
    if not resolved.renamed:
        return lst
    new = dict(resolved.renamed)
    return replace(
        lst,
        sections=tuple(
            replace(s, entries=tuple(replace(e, key=new.get(e.key, e.key)) for e in s.entries)) for s in lst.sections
        ),
    )


# --------------------------------------------------------------------------- operations


def create(store: Store, name: str, *, title: str = "", introduction: str = "") -> ReadingList:
    """A new, empty list; ListError if one with that name exists."""
    path = path_of(store, name)
    with store.transaction():
        if path.exists():
            raise ListError(f"{path}: a list called {name!r} exists already")
        same = [n for n in names(store) if n.casefold() == name.casefold()]
        if same:  # one file on macOS and Windows: a clone there would lose one of them
            raise ListError(f"{path}: the list {same[0]!r} exists already, and names that differ only in case are one file on macOS and Windows")
        lst = ReadingList(name=name, title=title or name, introduction=introduction)
        save(store, lst)
    return lst


def _find_section(lst: ReadingList, title: str | None) -> int | None:
    if title is None:
        return None
    for i, s in enumerate(lst.sections):
        if s.title.casefold() == title.casefold():
            return i
    return None


@dataclass(frozen=True)
class AddReport:
    list: ReadingList
    added: tuple[str, ...] = ()
    already: tuple[str, ...] = ()  # keys already in the list (their comment updated if given)


def add(
    store: Store, name: str, keys: Iterable[str], *, section: str | None = None, comment: str | None = None
) -> AddReport:
    """Append papers to a section (made when new; default: the last one). Every key is checked
    first (UnknownKeyError with suggestions), so a typo adds nothing."""
    keys = list(dict.fromkeys(keys))
    with store.transaction():
        lst = load(store, name)
        resolved = resolve(store, lst)
        lst = _current_keys(lst, resolved)
        papers = [store.get(k) for k in keys]  # raises before anything changes
        sections = [list(s.entries) for s in lst.sections]
        titles = [s.title for s in lst.sections]
        where = _find_section(lst, section)
        if where is None:
            if section is not None or not sections:
                titles.append(section or "")
                sections.append([])
            where = len(sections) - 1
        present = {e.key: (i, j) for i, entries in enumerate(sections) for j, e in enumerate(entries)}
        added, already = [], []
        for p in papers:
            if p.key in present:
                i, j = present[p.key]
                if comment is not None:
                    sections[i][j] = replace(sections[i][j], comment=comment)
                already.append(p.key)
                continue
            sections[where].append(Entry(p.key, comment or ""))
            present[p.key] = (where, len(sections[where]) - 1)
            added.append(p.key)
        lst = replace(lst, sections=tuple(Section(t, tuple(e)) for t, e in zip(titles, sections)))
        save(store, lst)
    return AddReport(lst, tuple(added), tuple(already))


def _locate_entry(lst: ReadingList, key: str, store: Store) -> tuple[int, int]:
    for i, s in enumerate(lst.sections):
        for j, e in enumerate(s.entries):
            if e.key == key:
                return i, j
    keys = [e.key for e in lst.entries]
    raise ListError(f"list {lst.name}: {key!r} is not in it" + did_you_mean(suggest(key, keys), "; {}"))


def remove(store: Store, name: str, keys: Iterable[str]) -> ReadingList:
    """Take papers out of a list (all or none: an absent key changes nothing)."""
    keys = list(dict.fromkeys(keys))
    with store.transaction():
        lst = load(store, name)
        lst = _current_keys(lst, resolve(store, lst))
        for key in keys:
            _locate_entry(lst, key, store)
        gone = set(keys)
        lst = replace(
            lst, sections=tuple(replace(s, entries=tuple(e for e in s.entries if e.key not in gone)) for s in lst.sections)
        )
        save(store, lst)
    return lst


def move(
    store: Store,
    name: str,
    key: str,
    *,
    section: str | None = None,
    before: str | None = None,
    after: str | None = None,
    position: int | None = None,
) -> ReadingList:
    """Move a paper: to another section (made when new), before/after another paper, or to a
    1-based position in its (new) section. Without a place it goes to the end of the section."""
    if sum(x is not None for x in (before, after, position)) > 1:
        raise ValidationError("give at most one of --before, --after, --position")
    with store.transaction():
        lst = load(store, name)
        lst = _current_keys(lst, resolve(store, lst))
        i, j = _locate_entry(lst, key, store)
        sections = [list(s.entries) for s in lst.sections]
        titles = [s.title for s in lst.sections]
        entry = sections[i].pop(j)
        if before is not None or after is not None:
            anchor = before if before is not None else after
            if anchor == key:
                raise ValidationError(f"cannot move {key} next to itself")
            ai, aj = _locate_entry(replace(lst, sections=tuple(Section(t, tuple(e)) for t, e in zip(titles, sections))), anchor, store)  # type: ignore[arg-type]
            sections[ai].insert(aj if before is not None else aj + 1, entry)
        else:
            target = i
            if section is not None:
                found = _find_section(replace(lst, sections=tuple(Section(t) for t in titles)), section)
                if found is None:
                    titles.append(section)
                    sections.append([])
                    found = len(sections) - 1
                target = found
            if position is not None:
                if position < 1:
                    raise ValidationError("--position counts from 1")
                sections[target].insert(position - 1, entry)
            else:
                sections[target].append(entry)
        lst = replace(lst, sections=tuple(Section(t, tuple(e)) for t, e in zip(titles, sections)))
        save(store, lst)
    return lst


def set_comment(store: Store, name: str, key: str, comment: str) -> ReadingList:
    with store.transaction():
        lst = load(store, name)
        lst = _current_keys(lst, resolve(store, lst))
        i, j = _locate_entry(lst, key, store)
        sections = [list(s.entries) for s in lst.sections]
        sections[i][j] = replace(sections[i][j], comment=comment)
        lst = replace(lst, sections=tuple(Section(s.title, tuple(e)) for s, e in zip(lst.sections, sections)))
        save(store, lst)
    return lst


def follow_rename(store: Store, old: str, new: str) -> list[str]:
    """Rewrite every list that names ``old`` to name ``new`` (called when a paper is rekeyed);
    the names of the lists changed. A list that does not parse (or holds a git conflict) and
    may name ``old`` refuses the rename (ListError naming it: nothing is written), for it
    could not follow; one that cannot name it is left alone."""
    from .atomic import read_bounded

    changed = []
    for name in names(store):
        try:
            lst = load(store, name)
        except ListError as exc:
            try:
                text = read_bounded(path_of(store, name), limit=16 << 20).decode("utf-8", "replace")
            except OSError:
                text = old
            if old in text:
                raise ListError(f"{exc}; it may name {old}, which is being renamed {new}: fix the list first (nothing was changed)") from None
            continue
        if old not in lst.keys:
            continue
        lst = replace(
            lst,
            sections=tuple(
                replace(s, entries=tuple(replace(e, key=new) if e.key == old else e for e in s.entries))
                for s in lst.sections
            ),
        )
        save(store, lst)
        changed.append(name)
    return changed


def containing(store: Store, keys: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The lists that name any of ``keys``: list name -> the keys it names, in ``keys``' order.
    A list that does not parse is left out (``lists`` reports it)."""
    wanted = list(dict.fromkeys(keys))
    found = {}
    for lst in load_all(store)[0]:
        named = set(lst.keys)
        hits = tuple(k for k in wanted if k in named)
        if hits:
            found[lst.name] = hits
    return found


def forget(store: Store, keys: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Take ``keys`` out of every list that names them (their papers were removed), so no list
    names a key no paper has; what :func:`containing` gave before."""
    found = containing(store, keys)
    for name, hits in found.items():
        remove(store, name, hits)
    return found

