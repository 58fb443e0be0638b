"""The words a paper's reading state is written in, and how an author and a source read as
text (see :mod:`readinglist.record`, which exports them with the records; kept apart so that
the store's single-paper commands need not create the record dataclasses)."""

from __future__ import annotations

STATUSES = ("unread", "reading", "read", "skipped")

#: Orders :meth:`readinglist.store.Store.find` knows ("-" in front reverses one): priority puts
#: 1 first, rating the best first, next is the reading order of ``readinglist next``, relevance
#: needs a search.
SORTS = ("key", "title", "year", "venue", "status", "priority", "rating", "added", "changed", "next", "relevance")

#: The history event a change to each status records ("added" is written once, on import).
STATUS_EVENTS = {"reading": "started", "read": "finished", "skipped": "skipped", "unread": "reset"}
#: Fields a generator may have made; ``Record.generated`` names the ones that still are.
GENERATED_FIELDS = ("key", "title", "shorttitle", "tags")


def person_text(family: str, given: str, literal: str) -> str:
    """An author as text: the literal name, else "family, given" (``str`` of a Person)."""
    if literal:
        return literal
    return f"{family}, {given}" if given else family


def source_text(file: str, paragraph: int | None, line: int | None) -> str:
    """Where a record came from as text: "file:line (paragraph n)" (``str`` of a Source)."""
    where = file
    if line is not None:
        where += f":{line}"
    if paragraph is not None:
        where += f" (paragraph {paragraph})"
    return where
