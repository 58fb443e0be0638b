"""The immutable values that flow through readinglist.

``Record`` is the bibliographic part of a paper (what converters and importers produce and
exporters write); ``Paper`` is a record plus the reader's own state as kept in the store.

Each is a frozen, slotted class over :func:`collections.namedtuple` (no :mod:`dataclasses`:
its import is most of a single-paper command's start-up, and a paper built from a cache row is
one ``tuple.__new__``). ``evolve(**changes)`` is a copy with some fields changed; ``_fields``
names the fields in order. Like any tuple they are hashable and compare field by field.
"""

from __future__ import annotations

from collections import namedtuple

# the words the store and the CLI share (in a module of their own: the CLI uses them without
# this module)
from .constants import GENERATED_FIELDS as GENERATED_FIELDS, SORTS as SORTS, STATUS_EVENTS as STATUS_EVENTS, STATUSES as STATUSES
from .constants import person_text, source_text

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from typing import Self


class Evolving:
    """``evolve(**changes)``: a copy with some fields changed (every value here has it)."""

    __slots__ = ()

    def evolve(self, **changes) -> Self:
        return self._replace(**changes)  # type: ignore[attr-defined]  # (the named tuple's)


class Source(Evolving, namedtuple("Source", "file paragraph line", defaults=(None, None))):
    """Where a record came from: a file and, for abstract lists, the paragraph and line.

    ``paragraph``: the 1-based number of the abstract paragraph in the file; ``line``: the
    1-based line where that paragraph starts."""

    __slots__ = ()

    def __str__(self) -> str:
        return source_text(self.file, self.paragraph, self.line)



class Person(Evolving, namedtuple("Person", "family given literal", defaults=("", "", ""))):
    """An author. ``literal`` is used for names that must not be split (institutions)."""

    __slots__ = ()

    def __str__(self) -> str:
        return person_text(self.family, self.given, self.literal)



class Record(
    Evolving,
    namedtuple(
        "Record",
        "key title abstract entry_type venue year shorttitle tags authors doi url pages fields generated sources",
        defaults=("", "inproceedings", None, None, None, (), (), None, None, None, (), frozenset(), ()),
    )
):
    """One bibliographic record.

    Text fields hold the source's own text: ``abstract`` keeps its LaTeX and Markdown as
    written (whitespace normalised); ``title`` is clean Unicode. Exporters derive what each
    target needs with :mod:`readinglist.text`.

    ``venue``: the short venue name as in the list header, e.g. "NeurIPS"; ``shorttitle``: the
    system name the paper introduces, if any; ``tags``: topic tags (generated unless edited by
    hand); ``authors``: :class:`Person` values; ``fields``: any other fields an importer brought
    along, as sorted (name, value) pairs; ``generated``: the names of fields (from
    GENERATED_FIELDS) whose value was made by readinglist; ``sources``: :class:`Source` values.
    """

    __slots__ = ()


    @property
    def is_generated(self) -> bool:
        """True while the title is still a generated stand-in for the real one."""
        return "title" in self.generated


class Event(Evolving, namedtuple("Event", "event date")):
    """One line of a paper's reading history: ``event`` ("added", "started", "finished",
    "skipped", "reset") and ``date`` (ISO 8601 date-time, UTC, e.g. "2026-11-30T06:15:00Z")."""

    __slots__ = ()



class PaperTags:
    """What a paper and the cache's lighter rows of it (``store.cache.Listed``) share: the key
    and the tags, read from ``record`` (which has ``key`` and ``tags``) and ``user_tags``."""

    __slots__ = ()
    record: Record
    user_tags: tuple[str, ...]

    @property
    def key(self) -> str:
        return self.record.key

    @property
    def tags(self) -> tuple[str, ...]:
        """Topic tags followed by the user's own tags, without repeats."""
        if not self.user_tags:
            return self.record.tags
        from .tagform import unique_tags

        return unique_tags(self.record.tags + self.user_tags)


class Paper(Evolving, PaperTags, namedtuple("Paper", "record status history notes user_tags priority rating", defaults=("unread", (), "", (), None, None))):
    """A record and the reader's state for it: ``status`` (one of STATUSES), ``history``
    (:class:`Event` values), ``notes`` (Markdown), ``user_tags`` (the reader's own tags),
    ``priority`` (1, the highest, to 3) and ``rating`` (1 to 5), None when unset."""

    __slots__ = ()

    @property
    def finished(self) -> str | None:
        """The date (YYYY-MM-DD) a read paper was last finished (see :func:`finished_date`)."""
        return finished_date(self.status, self.history)


def finished_date(status: str, history) -> str | None:
    """The date (YYYY-MM-DD) of the last "finished" event in ``history`` ((event, date) pairs:
    :class:`Event` values, or a cache row's tuples) when ``status`` is "read"; None otherwise.
    (The cache keeps it for each paper: ``stats`` reads it without the history.)"""
    if status != "read":
        return None
    for event in reversed(history):
        if event[0] == "finished":
            return event[1][:10]
    return None



class Skipped(namedtuple("Skipped", "source reason text count", defaults=(1,))):
    """A paragraph that was not taken as an abstract, and why (``text``: the paragraph's first
    characters, for the report). ``count``: how many skipped blocks this stands for: 1, or (a
    summary of a long file's skips past the first ones listed, ``text`` empty, ``source`` the
    first of them) how many had ``reason``."""

    __slots__ = ()


class Duplicate(namedtuple("Duplicate", "source key similarity exact")):
    """A paragraph or record that is the same paper as one already seen: ``key`` is the key of
    the record it was merged into, ``similarity`` 100.0 for an exact (normalised) match."""

    __slots__ = ()


class ImportResult(Evolving, namedtuple("ImportResult", "records skipped duplicates states warnings")):
    """What an importer produced from one input, and what it left out. ``states``: reader state
    carried by the input (JabRef readstatus, Zotero Read_Status, ...), by key."""

    __slots__ = ()

    def __new__(cls, records=(), skipped=(), duplicates=(), states=None, warnings=()) -> ImportResult:
        return tuple.__new__(cls, (records, skipped, duplicates, {} if states is None else states, warnings))

