"""The immutable values that flow through readinglist.

``Record`` is the bibliographic part of a paper (what converters and importers produce and
exporters write); ``Paper`` is a record plus the reader's own state as kept in the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

# the words the store and the CLI share (in a module of their own: single-paper commands use
# them without creating the dataclasses below)
from .constants import GENERATED_FIELDS as GENERATED_FIELDS, SORTS as SORTS, STATUS_EVENTS as STATUS_EVENTS, STATUSES as STATUSES
from .constants import person_text, source_text


@dataclass(frozen=True, slots=True)
class Source:
    """Where a record came from: a file and, for abstract lists, the paragraph and line."""

    file: str
    paragraph: int | None = None  # 1-based number of the abstract paragraph in the file
    line: int | None = None  # 1-based line where that paragraph starts

    def __str__(self) -> str:
        return source_text(self.file, self.paragraph, self.line)


@dataclass(frozen=True, slots=True)
class Person:
    """An author. ``literal`` is used for names that must not be split (institutions)."""

    family: str = ""
    given: str = ""
    literal: str = ""

    def __str__(self) -> str:
        return person_text(self.family, self.given, self.literal)


@dataclass(frozen=True, slots=True)
class Record:
    """One bibliographic record.

    Text fields hold the source's own text: ``abstract`` keeps its LaTeX and Markdown as
    written (whitespace normalised); ``title`` is clean Unicode. Exporters derive what each
    target needs with :mod:`readinglist.text`.
    """

    key: str
    title: str
    abstract: str = ""
    entry_type: str = "inproceedings"
    venue: str | None = None  # short venue name as in the list header, e.g. "NeurIPS"
    year: int | None = None
    shorttitle: str | None = None  # the system name the paper introduces, if any
    tags: tuple[str, ...] = ()  # topic tags (generated unless edited by hand)
    authors: tuple[Person, ...] = ()
    doi: str | None = None
    url: str | None = None
    pages: str | None = None
    #: Any other fields an importer brought along, as sorted (name, value) pairs.
    fields: tuple[tuple[str, str], ...] = ()
    #: Names of fields (from GENERATED_FIELDS) whose value was made by readinglist.
    generated: frozenset[str] = frozenset()
    sources: tuple[Source, ...] = ()

    def evolve(self, **changes) -> Record:
        return replace(self, **changes)

    @property
    def is_generated(self) -> bool:
        """True while the title is still a generated stand-in for the real one."""
        return "title" in self.generated


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a paper's reading history."""

    event: str  # "added", "started", "finished", "skipped", "reset"
    date: str  # ISO 8601 date-time, UTC, e.g. "2026-11-30T06:15:00Z"


@dataclass(frozen=True, slots=True)
class Paper:
    """A record and the reader's state for it."""

    record: Record
    status: str = "unread"
    history: tuple[Event, ...] = ()
    notes: str = ""
    user_tags: tuple[str, ...] = ()
    priority: int | None = None  # 1 (highest) .. 3
    rating: int | None = None  # 1 .. 5

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

    def evolve(self, **changes) -> Paper:
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A paragraph that was not taken as an abstract, and why."""

    source: Source
    reason: str
    text: str  # the paragraph's first characters, for the report
    #: how many skipped blocks this stands for: 1, or (a summary of a long file's skips past the
    #: first ones listed, ``text`` empty, ``source`` the first of them) how many had ``reason``
    count: int = 1


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A paragraph or record that is the same paper as one already seen."""

    source: Source
    key: str  # the key of the record it was merged into
    similarity: float  # 100.0 for an exact (normalised) match
    exact: bool


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an importer produced from one input, and what it left out."""

    records: tuple[Record, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    duplicates: tuple[Duplicate, ...] = ()
    #: Reader state carried by the input (JabRef readstatus, Zotero Read_Status, ...), by key.
    states: dict = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
