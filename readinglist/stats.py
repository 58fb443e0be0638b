"""Reading-progress figures for ``readinglist stats``: pure counting, no printing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, date, datetime
from operator import attrgetter

from .record import Paper
from .tagform import tag_key, unique_tags

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from .store.cache import Listed

Row = tuple[str, int, int, int]  # label, read, reading, total


def _rows(groups: dict[str, list[Paper | Listed]]) -> list[Row]:
    rows = []
    status = attrgetter("status")
    for label, papers in groups.items():
        counts = Counter(map(status, papers))
        rows.append((label, counts["read"], counts["reading"], len(papers)))
    return rows


def progress_rows(papers: Iterable[Paper | Listed]) -> list[tuple[str, list[Row]]]:
    """Sections of (label, read, reading, total) rows: overall, per venue-year, per tag.

    Venues are sorted by name; tags by how many papers carry them, then by name.
    """
    papers = list(papers)
    return [("all papers", _rows({"all": papers}))] + [(title, _rows(by)) for title, by in groups(papers)]


SPARKS = "▁▂▃▄▅▆▇█"


def read_per_week(papers: Iterable[Paper | Listed], *, weeks: int = 12, today: date | None = None) -> list[int]:
    """How many papers were finished in each of the last ``weeks`` weeks (oldest first), the
    last one being the 7 days up to ``today`` (default: today, UTC)."""
    if today is None:
        today = datetime.now(UTC).date()
    counts = [0] * weeks
    for p in papers:
        day = p.finished  # the day a read paper was last finished (Paper and the cache's Listed keep it)
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


def groups(papers: Iterable[Paper | Listed]) -> list[tuple[str, dict[str, list[Paper | Listed]]]]:
    """The papers by venue-year (sorted by name) and by tag (most common first)."""
    by_venue: dict[str, list[Paper | Listed]] = {}
    by_tag: dict[str, list[Paper | Listed]] = {}
    spelled: dict[str, str] = {}  # tag_key -> the first spelling seen (tagform.py: one tag, any form)
    # papers share their venue and their tags: the groups a paper joins are found once for each
    # venue-year, and for each set of tags (the first spelling of a tag is the one first seen,
    # as when each paper's tags were folded in turn)
    venues: dict[tuple, list[Paper | Listed]] = {}
    tag_groups: dict[tuple, list[list[Paper | Listed]]] = {}
    for p in papers:
        record = p.record
        group = venues.get((record.venue, record.year))
        if group is None:
            venue = " ".join(str(x) for x in (record.venue, record.year) if x) or "(no venue)"
            group = venues[record.venue, record.year] = by_venue.setdefault(venue, [])
        group.append(p)
        both = (record.tags, p.user_tags)
        targets = tag_groups.get(both)
        if targets is None:
            targets = tag_groups[both] = [by_tag.setdefault(spelled.setdefault(tag_key(t), t), []) for t in unique_tags(p.tags)]
        for group in targets:
            group.append(p)
    return [
        ("by venue", dict(sorted(by_venue.items()))),
        ("by tag", dict(sorted(by_tag.items(), key=lambda kv: (-len(kv[1]), kv[0])))),
    ]
