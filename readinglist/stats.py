"""Reading-progress figures for ``readinglist stats``: pure counting, no printing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .record import Paper

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
    by_venue: dict[str, list[Paper]] = {}
    by_tag: dict[str, list[Paper]] = {}
    for p in papers:
        venue = " ".join(str(x) for x in (p.record.venue, p.record.year) if x) or "(no venue)"
        by_venue.setdefault(venue, []).append(p)
        for t in p.tags:
            by_tag.setdefault(t, []).append(p)
    venues = dict(sorted(by_venue.items()))
    tags = dict(sorted(by_tag.items(), key=lambda kv: (-len(kv[1]), kv[0])))
    return [("all papers", _rows({"all": papers})), ("by venue", _rows(venues)), ("by tag", _rows(tags))]
