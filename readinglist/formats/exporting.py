"""Small pieces every exporter shares: ordering, reading-state facts, provenance wording.

Kept free of heavy imports: the exporters themselves pull in bibtexparser or pylatexenc.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import ValidationError
from ..record import STATUS_EVENTS, Paper, Record



def unique(papers: Iterable[Paper]) -> list[Paper]:
    """The papers in the caller's order, refusing a key that appears twice.

    Exporters keep the order they are given: the caller chooses it (``readinglist export
    --sort``, by key by default, so that re-exports give small diffs)."""
    papers = list(papers)
    seen: dict[str, str] = {}
    for paper in papers:
        folded = paper.key.casefold()
        if folded in seen:
            other = seen[folded]
            if other == paper.key:
                raise ValidationError(f"cannot export: key {paper.key!r} appears twice")
            raise ValidationError(
                f"cannot export: keys {other!r} and {paper.key!r} differ only in case, and BibTeX takes them for one; "
                "change one of them (readinglist edit KEY)"
            )
        seen[folded] = paper.key
    return papers


def status_date(paper: Paper) -> str | None:
    """ISO date-time of the paper's last status change, or None when it never changed."""
    for event in reversed(paper.history):
        if event.event in STATUS_EVENTS.values():
            return event.date
    return None


def event_title(record: Record) -> str | None:
    """The event as people say it: ``NeurIPS 2026`` (venue short name and year)."""
    parts = [str(x) for x in (record.venue, record.year) if x]
    return " ".join(parts) or None


def placeholder_name(shorttitle: str | None, title: str) -> str:
    """What an authorless paper is called where an author's name would stand (``{name}`` in
    ``[export] anonymous_author``): its system name (``CanViT``), else its title's first four
    words (``Benchmark for evaluating legal…``)."""
    if shorttitle and shorttitle.strip():
        return " ".join(shorttitle.split())
    words = title.split()
    return " ".join(words[:4]) + ("…" if len(words) > 4 else "")


def join_tags(tags: Sequence[str]) -> str:
    """Tags as one comma-separated string (BibTeX keywords, CSL keyword)."""
    return ", ".join(tags)
