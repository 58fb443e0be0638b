"""The report of what an abstract list's reader did not take (:class:`SkipLog`): the first
blocks listed one by one, the rest counted by reason, so that a file of a million stray lines
costs no memory."""

from __future__ import annotations

import re
from functools import lru_cache

from ..record import Skipped, Source
from ..text import normalize_space

#: Skipped blocks listed one by one per file; past them, they are counted by reason.
MAX_LISTED = 100

_COUNTS = re.compile(r" \([\d,]+ (?:words?|characters?)[^)]*\)| in [\d,]+ words")


@lru_cache(maxsize=1024)
def reason_class(reason: str) -> str:
    """``reason`` without its figures: "too short for an abstract (2 words)" -> "too short for
    an abstract" (what a summary of many skips counts by)."""
    return _COUNTS.sub("", reason)


def _excerpt(s: str, limit: int = 60) -> str:
    s = normalize_space(s)
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"


class SkipLog:
    """The blocks of one list that were not taken: the first ``limit`` listed, the rest counted
    by :func:`reason_class`."""

    def __init__(self, source: str, limit: int = MAX_LISTED) -> None:
        self.source = source
        self.limit = limit
        self.listed: list[Skipped] = []
        self.more: dict[str, list[int]] = {}  # reason class -> [count, first line]
        self.total = 0

    def add(self, number: int | None, line: int, reason: str, text: str) -> None:
        self.total += 1
        if len(self.listed) < self.limit:
            self.listed.append(Skipped(Source(self.source, number, line), reason, _excerpt(text)))
            return
        kind = reason_class(reason)
        counted = self.more.get(kind)
        if counted is None:
            self.more[kind] = [1, line]
        else:
            counted[0] += 1

    def entries(self) -> tuple[Skipped, ...]:
        """The listed skips, then one summary :class:`Skipped` per reason (``count`` > 0)."""
        return tuple(self.listed) + tuple(
            Skipped(Source(self.source, None, first), reason, "", count=count) for reason, (count, first) in self.more.items()
        )
