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

import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Iterable, Sequence

from ..errors import ListError, UnknownKeyError, UnknownListError, ValidationError

if TYPE_CHECKING:  # pragma: no cover
    from ..record import Paper
    from .library import Store

_list = list  # Resolved has a field called ``list``

HEADER = "# readinglist list — edit freely: sections and papers keep the order written here.\n"


@dataclass(frozen=True, slots=True)
class Entry:
    """One paper of a list: its key and the curator's line on it."""

    key: str
    comment: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    title: str = ""  # "" for the papers before the first heading
    entries: tuple[Entry, ...] = ()


@dataclass(frozen=True, slots=True)
class ReadingList:
    """A curated list as stored. ``keys`` are in reading order, sections in file order."""

    name: str
    title: str = ""
    introduction: str = ""  # Markdown
    sections: tuple[Section, ...] = ()

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(e for s in self.sections for e in s.entries)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(e.key for e in self.entries)

    @property
    def heading(self) -> str:
        return self.title or self.name


@dataclass(frozen=True, slots=True)
class Item:
    """A list entry with its paper (after following renames)."""

    section: str  # its section's title (titles may repeat: ``index`` tells sections apart)
    entry: Entry
    paper: Paper
    index: int = 0  # the position of its section in ``ReadingList.sections``


@dataclass(frozen=True, slots=True)
class Resolved:
    """A list with its papers: what exporters and ``lists show`` use."""

    list: ReadingList
    items: tuple[Item, ...] = ()
    missing: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (key, did-you-mean suggestions)
    renamed: tuple[tuple[str, str], ...] = ()  # (key in the list, the paper's key now)
    unreadable: tuple[tuple[str, str], ...] = ()  # (key, why its file cannot be read: a conflict, ...)

    @property
    def papers(self) -> _list[Paper]:  # the field ``list`` shadows the builtin in this class
        """The papers in reading order (a paper listed twice appears once, first place wins)."""
        seen: set[str] = set()
        out = []
        for item in self.items:
            if item.paper.key not in seen:
                seen.add(item.paper.key)
                out.append(item.paper)
        return out

    def by_section(self) -> _list[tuple[Section, _list[Item]]]:
        """Each section of the list with its items (found papers), in order: sections are told
        apart by position, so two sections with one title keep their own papers."""
        groups: _list[_list[Item]] = [[] for _ in self.list.sections]
        for item in self.items:
            groups[item.index].append(item)
        return list(zip(self.list.sections, groups))

    @property
    def progress(self) -> tuple[int, int]:
        """(papers read, papers in the list)."""
        papers = self.papers
        return sum(p.status == "read" for p in papers), len(papers)

    def messages(self) -> _list[str]:
        """One line per key that was followed or is missing."""
        out = [f"list {self.list.name}: {old} was renamed {new}" for old, new in self.renamed]
        for key, suggestions in self.missing:
            msg = f"list {self.list.name}: no paper with key {key!r}"
            if suggestions:
                msg += "; did you mean " + " or ".join(suggestions) + "?"
            out.append(msg)
        out += [f"list {self.list.name}: {key} left out: {why}" for key, why in self.unreadable]
        return out


# --------------------------------------------------------------------------- files


def check_name(name: str) -> str:
    """``name`` when it may name a list file (the store's one name rule,
    :func:`~readinglist.keyform.is_valid_name`), else ValidationError."""
    from ..keyform import RESERVED_NAMES, is_valid_name

    if not is_valid_name(name):
        why = (
            "a name Windows reserves for a device"
            if isinstance(name, str) and name.split(".")[0].lower() in RESERVED_NAMES
            else "use ASCII letters, digits, '.', '_', '+' and '-' (starting with a letter or digit, not ending in '.', at most 120)"
        )
        raise ValidationError(f"bad list name {name!r}: {why}")
    return name


def folder(store: Store) -> Path:
    return store.root / "lists"


def path_of(store: Store, name: str) -> Path:
    return folder(store) / f"{check_name(name)}.toml"


def names(store: Store) -> list[str]:
    """The names of every list in the store, sorted."""
    d = folder(store)
    if not d.is_dir():
        return []
    from ..keyform import is_valid_name

    return sorted(p.stem for p in d.glob("*.toml") if is_valid_name(p.stem) and p.is_file())


def parse(text: str, name: str, path: str | Path = "") -> ReadingList:
    """A list file's text -> ReadingList; ListError naming the file (and line) when it is bad."""
    where = str(path) or f"{name}.toml"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        from .conflicts import describe

        conflict = describe(text, where, kind="list")
        if conflict:
            raise ListError(conflict) from None
        raise ListError(f"{where}: {exc}; fix it by hand") from None
    except RecursionError:
        raise ListError(f"{where}: arrays or tables nested too deeply; fix it by hand") from None

    def bad(what: str):
        return ListError(f"{where}: {what}")

    title = data.get("title", "")
    intro = data.get("introduction", "")
    if not isinstance(title, str):
        raise bad("title must be a string")
    if not isinstance(intro, str):
        raise bad("introduction must be a string")
    raw_sections = data.get("sections", [])
    if not isinstance(raw_sections, list):
        raise bad("sections must be an array of tables ([[sections]])")
    sections = []
    for i, s in enumerate(raw_sections, 1):
        if not isinstance(s, dict):
            raise bad(f"section {i} must be a table")
        s_title = s.get("title", "")
        if not isinstance(s_title, str):
            raise bad(f"section {i}: title must be a string")
        entries = []
        papers = s.get("papers", [])
        if not isinstance(papers, list):
            raise bad(f"section {s_title or i!r}: papers must be an array")
        for p in papers:
            if isinstance(p, str):  # a bare key is fine when written by hand
                p = {"key": p}
            if not isinstance(p, dict) or not isinstance(p.get("key"), str) or not p["key"].strip():
                raise bad(f"section {s_title or i!r}: each paper needs a key ({p!r})")
            comment = p.get("comment", "")
            if not isinstance(comment, str):
                raise bad(f"section {s_title or i!r}: the comment of {p['key']} must be a string")
            entries.append(Entry(p["key"].strip(), comment))
        sections.append(Section(s_title, tuple(entries)))
    return ReadingList(name=name, title=title, introduction=intro, sections=tuple(sections))


def _str(s: str) -> str:
    """A TOML basic string: JSON's escaping, DEL escaped too (TOML forbids it raw); text typed
    under a non-UTF-8 locale decoded (see :func:`~readinglist.text.controls.os_text`)."""
    import json

    from ..text.controls import os_text

    return json.dumps(os_text(s), ensure_ascii=False).replace("\x7f", "\\u007f")


def _multiline(s: str) -> str:
    if "'''" not in s and not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", s.replace("\r\n", "\n")):
        from ..text.controls import os_text

        return "'''\n" + os_text(s).rstrip("\n") + "\n'''"
    return _str(s)


def render(lst: ReadingList) -> str:
    """The file text of ``lst``: same list, same bytes; one paper per line."""
    return "".join(render_units(lst))


def render_units(lst: ReadingList) -> list[str]:
    """:func:`render` as its statements, one string each (a line, or the whole multi-line
    introduction): what a merge puts between conflict markers."""
    out = [HEADER, f"title = {_str(lst.title)}\n"]
    if lst.introduction.strip():
        out.append(f"introduction = {_multiline(lst.introduction)}\n")
    for s in lst.sections:
        out += ["\n", "[[sections]]\n", f"title = {_str(s.title)}\n"]
        if s.entries:
            out.append("papers = [\n")
            for e in s.entries:
                comment = f", comment = {_str(e.comment)}" if e.comment else ""
                out.append(f"  {{ key = {_str(e.key)}{comment} }},\n")
            out.append("]\n")
        else:
            out.append("papers = []\n")
    return out


def load(store: Store, name: str) -> ReadingList:
    """The list ``name``; UnknownListError (with the closest names) when there is none."""
    from .atomic import describe, read_bounded

    path = path_of(store, name)
    pending = _pending(store)
    if name in pending:  # saved earlier in this transaction, written with its papers
        return pending[name]
    try:
        text = read_bounded(path, limit=16 << 20).decode("utf-8")
    except FileNotFoundError:
        raise UnknownListError(name, _suggest(name, names(store))) from None
    except UnicodeDecodeError:
        raise ListError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise ListError(f"{path}: cannot read: {describe(exc)}") from None
    return parse(text, name, path)


def _suggest(word: str, candidates: Sequence[str]) -> tuple[str, ...]:
    import difflib

    return tuple(difflib.get_close_matches(word, list(candidates), n=3, cutoff=0.5))


def load_all(store: Store) -> tuple[list[ReadingList], list[ListError]]:
    """Every list that can be read, and one error (naming its file) per list that cannot: a
    broken or conflicted list never keeps the others from being shown."""
    found, broken = [], []
    for name in names(store):
        try:
            found.append(load(store, name))
        except ListError as exc:
            broken.append(exc)
    return found, broken


def _pending(store: Store) -> dict[str, ReadingList]:
    """The lists saved in the store's current transaction and not written yet."""
    pending = store.__dict__.get("_lists_pending")
    if pending is None or store._depth == 0:
        pending = store.__dict__["_lists_pending"] = {}
    return pending


def _write(store: Store, lst: ReadingList) -> Path:
    from .atomic import remove_leftovers, write_atomic

    path = path_of(store, lst.name)
    remove_leftovers(path.parent)  # (the temporary files of a list write that was killed)
    try:
        write_atomic(path, render(lst), inside=store.root)  # never through a link out of the store
    except OSError as exc:
        raise ListError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return path


def save(store: Store, lst: ReadingList) -> Path:
    """Write ``lst`` atomically when the store's transaction (which the caller holds) writes
    its papers: a transaction that fails later (a ``reconcile --rekey`` refused on its tenth
    paper) leaves the lists as they were, never naming keys that no paper got."""
    path = path_of(store, lst.name)
    if store._depth == 0:
        return _write(store, lst)
    pending = _pending(store)
    if not pending:

        def flush() -> None:
            for item in list(pending.values()):
                _write(store, item)

        store._after_flush.append(flush)
        store._at_end.append(pending.clear)
    pending[lst.name] = lst
    return path


# --------------------------------------------------------------------------- resolving keys


def _renamed_by_file(store: Store) -> dict[str, Paper]:
    """Papers whose file name is no longer their key (renamed by hand): old stem -> paper."""
    index = store._load_index()
    out = {}
    for file_name, paper in index.papers.items():
        stem = file_name[: -len(".toml")] if file_name.endswith(".toml") else file_name
        if stem != paper.key:
            out[stem] = paper
    return out


def resolve(store: Store, lst: ReadingList) -> Resolved:
    """The list's papers in order, following renamed keys; missing keys with suggestions."""
    from ..errors import StoreError
    from .paperfile import file_stem

    items: list[Item] = []
    unreadable: list[tuple[str, str]] = []
    missing: list[tuple[str, tuple[str, ...]]] = []
    renamed: list[tuple[str, str]] = []
    by_file: dict[str, Paper] | None = None
    for index, section in enumerate(lst.sections):
        for entry in section.entries:
            try:
                paper = store.get(entry.key)
            except UnknownKeyError as exc:
                if by_file is None:
                    by_file = _renamed_by_file(store)
                found = by_file.get(file_stem(entry.key))
                if found is None:
                    missing.append((entry.key, exc.suggestions))
                    continue
                paper = found
                renamed.append((entry.key, paper.key))
            except StoreError as exc:  # its file does not parse (a git conflict): the rest is shown
                unreadable.append((entry.key, str(exc)))
                continue
            items.append(Item(section.title, entry, paper, index))
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
    raise ListError(
        f"list {lst.name}: {key!r} is not in it"
        + (f"; did you mean {' or '.join(_suggest(key, keys))}?" if _suggest(key, keys) else "")
    )


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
