"""Reading-progress figures for ``readinglist stats``: pure counting, no printing.

``stats`` reads only a few things of each paper (:class:`Alike`): papers alike in all of them are
counted as one group. :func:`alike` folds papers into groups; the cache answers the same groups
with one SQL ``GROUP BY`` (:func:`~readinglist.store.cache.tally`, ``Store.tally()``), so
``stats`` never builds a value per paper. The figures below are computed from the groups."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable
from datetime import UTC, date, datetime

from .tagform import tag_key

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from .record import Paper
    from .store.cache import Listed

Row = tuple[str, int, int, int]  # label, read, reading, total


class Alike(namedtuple("Alike", "status venue year tags user_tags finished count")):
    """``count`` papers alike in all that ``stats`` reads of them: the status, the record's
    venue, year and (topic) tags, the user's tags and the day the paper was last finished
    (``Paper.finished``). (collections' named tuple: typing's would cost start-up.)"""

    __slots__ = ()


def alike(papers: Iterable[Paper | Listed]) -> list[Alike]:
    """``papers`` as :class:`Alike` groups, in the order of each group's first paper (for
    papers sorted by key, the cache's ``tally`` gives the same list)."""
    counts: dict[tuple, int] = {}
    for p in papers:
        r = p.record
        both = (p.status, r.venue, r.year, r.tags, p.user_tags, p.finished)
        counts[both] = counts.get(both, 0) + 1
    return [Alike._make((*both, n)) for both, n in counts.items()]


def counts(members: Iterable[Alike]) -> tuple[int, int, int]:
    """How many papers of ``members`` are read, how many being read, how many in all."""
    read = reading = total = 0
    for g in members:
        total += g.count
        if g.status == "read":
            read += g.count
        elif g.status == "reading":
            reading += g.count
    return read, reading, total


def progress_rows(papers: Iterable[Alike]) -> list[tuple[str, list[Row]]]:
    """Sections of (label, read, reading, total) rows: overall, per venue-year, per tag.

    Venues are sorted by name; tags by how many papers carry them, then by name.
    """
    papers = list(papers)
    return [("all papers", [("all", *counts(papers))])] + [
        (title, [(label, *counts(members)) for label, members in by.items()]) for title, by in groups(papers)
    ]


SPARKS = "▁▂▃▄▅▆▇█"


def read_per_week(papers: Iterable[Alike], *, weeks: int = 12, today: date | None = None) -> list[int]:
    """How many papers were finished in each of the last ``weeks`` weeks (oldest first), the
    last one being the 7 days up to ``today`` (default: today, UTC)."""
    if today is None:
        today = datetime.now(UTC).date()
    per_week = [0] * weeks
    for g in papers:
        day = g.finished  # the day a read paper was last finished
        if not day:
            continue
        try:
            ago = (today - date.fromisoformat(day)).days
        except ValueError:  # a hand-edited date that is not one
            continue
        if 0 <= ago < 7 * weeks:
            per_week[weeks - 1 - ago // 7] += g.count
    return per_week


def sparkline(counts: list[int]) -> str:
    """One character per count: ``▁`` for none, ``▂``..``█`` scaled to the largest."""
    top = max(counts, default=0)
    if top == 0:
        return SPARKS[0] * len(counts)
    return "".join(SPARKS[0] if c == 0 else SPARKS[1 + round((len(SPARKS) - 2) * c / top)] if c < top else SPARKS[-1] for c in counts)


def groups(papers: Iterable[Alike]) -> list[tuple[str, dict[str, list[Alike]]]]:
    """The groups by venue-year (sorted by name) and by tag (most common first). A tag is
    spelled as in the first group that has it (:func:`~readinglist.tagform.tag_key`: one tag,
    any form)."""
    by_venue: dict[str, list[Alike]] = {}
    by_tag: dict[str, list[Alike]] = {}
    spelled: dict[str, str] = {}  # tag_key -> the first spelling seen
    label_of: dict[str, str] = {}  # a spelling -> its tag's label (tag_key once per spelling)
    # groups share their venue and their tags: the lists a group joins are found once for each
    # venue-year, and for each set of tags
    venues: dict[tuple, list[Alike]] = {}
    tag_groups: dict[tuple, list[list[Alike]]] = {}
    for g in papers:
        members = venues.get((g.venue, g.year))
        if members is None:
            venue = " ".join(str(x) for x in (g.venue, g.year) if x) or "(no venue)"
            members = venues[g.venue, g.year] = by_venue.setdefault(venue, [])
        members.append(g)
        both = (g.tags, g.user_tags)
        targets = tag_groups.get(both)
        if targets is None:
            labels: dict[str, None] = {}  # (a label stands for one tag_key: unique_tags' order)
            for t in g.tags + g.user_tags:
                label = label_of.get(t)
                if label is None:
                    label = label_of[t] = spelled.setdefault(tag_key(t), t)
                labels[label] = None
            targets = tag_groups[both] = [by_tag.setdefault(label, []) for label in labels]
        for members in targets:
            members.append(g)
    size = {label: sum(g.count for g in members) for label, members in by_tag.items()}
    return [
        ("by venue", dict(sorted(by_venue.items()))),
        ("by tag", dict(sorted(by_tag.items(), key=lambda kv: (-size[kv[0]], kv[0])))),
    ]
