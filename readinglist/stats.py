"""Reading-progress figures for ``readinglist stats``: pure counting, no printing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, date, datetime

from .record import Paper
from .tagform import tag_key, unique_tags

Row = tuple[str, int, int, int]  # label, read, reading, total


def _rows(groups: dict[str, list[Paper]]) -> list[Row]:
    rows = []
    for label, papers in groups.items():
        counts = Counter(p.status for p in papers)
        rows.append((label, counts["read"], counts["reading"], len(papers)))
    return rows


def progress_rows(papers: Iterable[Paper]) -> list[tuple[str, list[Row]]]:
    """Sections of (label, read, reading, total) rows: overall, per venue-year, per tag.

    Venues are sorted by name; tags by how many papers carry them, then by name.
    """
    papers = list(papers)
    return [("all papers", _rows({"all": papers}))] + [(title, _rows(by)) for title, by in groups(papers)]


SPARKS = "▁▂▃▄▅▆▇█"


def finished_on(paper: Paper) -> str | None:
    """The date (YYYY-MM-DD) a read paper was last finished, from its history; None otherwise."""
    if paper.status != "read":
        return None
    for event in reversed(paper.history):
        if event.event == "finished":
            return event.date[:10]
    return None


def read_per_week(papers: Iterable[Paper], *, weeks: int = 12, today: date | None = None) -> list[int]:
    """How many papers were finished in each of the last ``weeks`` weeks (oldest first), the
    last one being the 7 days up to ``today`` (default: today, UTC)."""
    if today is None:
        today = datetime.now(UTC).date()
    counts = [0] * weeks
    for p in papers:
        day = finished_on(p)
        if not day:
            continue
        try:
            ago = (today - date.fromisoformat(day)).days
        except ValueError:  # a hand-edited date that is not one
            continue
        if 0 <= ago < 7 * weeks:
            counts[weeks - 1 - ago // 7] += 1
    return counts


def sparkline(counts: list[int]) -> str:
    """One character per count: ``▁`` for none, ``▂``..``█`` scaled to the largest."""
    top = max(counts, default=0)
    if top == 0:
        return SPARKS[0] * len(counts)
    return "".join(SPARKS[0] if c == 0 else SPARKS[1 + round((len(SPARKS) - 2) * c / top)] if c < top else SPARKS[-1] for c in counts)


def groups(papers: Iterable[Paper]) -> list[tuple[str, dict[str, list[Paper]]]]:
    """The papers by venue-year (sorted by name) and by tag (most common first)."""
    by_venue: dict[str, list[Paper]] = {}
    by_tag: dict[str, list[Paper]] = {}
    spelled: dict[str, str] = {}  # tag_key -> the first spelling seen (tagform.py: one tag, any form)
    keys: dict[str, str] = {}  # tag -> its tag_key (papers share their tags: each folded once)
    distinct: dict[tuple[str, ...], tuple[str, ...]] = {}  # a paper's tags -> unique_tags of them
    for p in papers:
        venue = " ".join(str(x) for x in (p.record.venue, p.record.year) if x) or "(no venue)"
        by_venue.setdefault(venue, []).append(p)
        tags = p.tags
        if tags not in distinct:
            distinct[tags] = unique_tags(tags)
        for t in distinct[tags]:
            k = keys.get(t)
            if k is None:
                k = keys[t] = tag_key(t)
            by_tag.setdefault(spelled.setdefault(k, t), []).append(p)
    return [
        ("by venue", dict(sorted(by_venue.items()))),
        ("by tag", dict(sorted(by_tag.items(), key=lambda kv: (-len(kv[1]), kv[0])))),
    ]
