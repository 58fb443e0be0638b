"""The postings of the stored near-duplicate index (:mod:`readinglist.store.dupindex`): a
phrase's stable hash, a posting (that hash and a paper's row in one integer), and sorted arrays
of postings merged and compacted.
"""

from __future__ import annotations

import heapq
from array import array
from zlib import adler32, crc32

#: A posting is one 63-bit integer: the phrase's 42-bit hash, then the paper's 21-bit row.
ROW_BITS = 21
ROW_MASK = (1 << ROW_BITS) - 1


def phrase_hash(text: str) -> int:
    """A stable 42-bit hash of ``text`` (the high bits of a posting): CRC-32 and ten bits of
    Adler-32 (a third of the time of a cryptographic hash, which a lookup does not need)."""
    data = text.encode("utf-8")
    return (crc32(data) << 10) | (adler32(data) & 0x3FF)



#: Up to this many postings, two segments merge by sorting a list of them; beyond, one by one
#: (slower, but without a list of a million integer objects: the import's memory stays flat).
SORT_MERGE_MAX = 1 << 18


def merged(*segments: array) -> array:
    """Sorted segments as one."""
    if sum(len(seg) for seg in segments) <= SORT_MERGE_MAX:
        joined = array("q")
        for seg in segments:
            joined += seg
        return array("q", sorted(joined))  # (sorting sorted runs is a merge)
    return array("q", heapq.merge(*segments))


def compacted(names, ahashes, segments):
    """The tables without dropped rows, in one segment (each segment renumbered as it is
    merged: a row's new number keeps its order, so each stays sorted)."""
    renumber: dict[int, int] = {}
    kept_names: list[str] = []
    kept_hashes: list[int] = []
    for row, name in enumerate(names):
        if name is not None:
            renumber[row] = len(kept_names)
            kept_names.append(name)
            kept_hashes.append(ahashes[row])
    high = ~ROW_MASK
    get = renumber.get

    def renumbered(seg: array) -> array:
        return array("q", ((value & high) | new for value in seg if (new := get(value & ROW_MASK)) is not None))

    return kept_names, kept_hashes, [merged(*(renumbered(seg) for seg in segments))]
