"""Curated reading lists as values: entries, sections, a list, and a list with its papers
(:class:`Resolved`). The file format and the operations are in :mod:`readinglist.store.lists`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import did_you_mean

if TYPE_CHECKING:  # pragma: no cover
    from ..record import Paper

_list = list  # Resolved has a field called ``list``

#: Lines :meth:`Resolved.messages` gives per kind (renamed, missing, left out) before counting the rest.
MESSAGES = 20

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
        """One line per key that was followed or is missing (the first MESSAGES of each kind,
        then one line counting the rest: a hand-edited list of 200,000 keys is not 200,000 lines)."""
        out = [f"list {self.list.name}: {old} was renamed {new}" for old, new in self.renamed[:MESSAGES]]
        if len(self.renamed) > MESSAGES:
            out.append(f"list {self.list.name}: … and {len(self.renamed) - MESSAGES:,} more keys renamed since")
        for key, suggestions in self.missing[:MESSAGES]:
            out.append(f"list {self.list.name}: no paper with key {key!r}" + did_you_mean(suggestions, "; {}"))
        if len(self.missing) > MESSAGES:
            out.append(f"list {self.list.name}: … and {len(self.missing) - MESSAGES:,} more keys that no paper has")
        out += [f"list {self.list.name}: {key} left out: {why}" for key, why in self.unreadable[:MESSAGES]]
        if len(self.unreadable) > MESSAGES:
            out.append(f"list {self.list.name}: … and {len(self.unreadable) - MESSAGES:,} more papers left out (their files do not parse)")
        return out


