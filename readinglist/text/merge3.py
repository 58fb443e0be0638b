"""A three-way merge of two sequences changed from a common one (diff3, as ``git merge-file``
does it for lines), in pure Python: what the git merge driver uses for notes, a list's
introduction and the order of a list's papers.

:func:`merge3` cuts the three sequences at the stretches of the base that both sides kept
(the sync regions), and decides each stretch between them: unchanged on one side, the other
side's version; changed alike, that version; changed differently, a :class:`Conflict` (both
versions and the base's). Two insertions at the same place (the base stretch empty) are not
a conflict when ``inserts`` is ``"both"`` (ours, then theirs: two people appending a line at
the same place keep both) or ``"union"`` (ours, then what theirs adds to it: papers of a list).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher


@dataclass(frozen=True, slots=True)
class Conflict:
    """One stretch changed differently on both sides."""

    base: tuple
    ours: tuple
    theirs: tuple



def _sync_regions(base: Sequence, ours: Sequence, theirs: Sequence) -> list[tuple[int, int, int, int]]:
    """(base start, base end, ours start, theirs start) of each stretch of ``base`` that both
    sides kept as it is, in order, ending with an empty one at the three ends."""
    ma = SequenceMatcher(None, base, ours, autojunk=False).get_matching_blocks()
    mb = SequenceMatcher(None, base, theirs, autojunk=False).get_matching_blocks()
    out = []
    i = j = 0
    while i < len(ma) - 1 and j < len(mb) - 1:  # the last block of each is the (n, m, 0) sentinel
        abase, a, alen = ma[i]
        bbase, b, blen = mb[j]
        start, end = max(abase, bbase), min(abase + alen, bbase + blen)
        if start < end:
            out.append((start, end, a + start - abase, b + start - bbase))
        if abase + alen < bbase + blen:
            i += 1
        else:
            j += 1
    out.append((len(base), len(base), len(ours), len(theirs)))
    return out


def merge3(base: Sequence[Hashable], ours: Sequence[Hashable], theirs: Sequence[Hashable], *, inserts: str = "conflict") -> list:
    """The merge as chunks: tuples of items both sides agree on, and :class:`Conflict`\\ s.

    ``inserts="both"``: two insertions at the same place give ours then theirs; ``"union"``:
    ours, then the items of theirs that ours has not.
    """
    chunks: list = []

    def emit(items) -> None:
        if not items:
            return
        if chunks and isinstance(chunks[-1], tuple):
            chunks[-1] = chunks[-1] + tuple(items)
        else:
            chunks.append(tuple(items))

    z = a = b = 0
    for zs, ze, as_, bs in _sync_regions(base, ours, theirs):
        zb, oa, tb = tuple(base[z:zs]), tuple(ours[a:as_]), tuple(theirs[b:bs])
        if oa == zb:
            emit(tb)
        elif tb == zb or oa == tb:
            emit(oa)
        elif not zb and inserts == "both":
            emit(oa + tb)
        elif not zb and inserts == "union":
            emit(oa + tuple(x for x in tb if x not in oa))
        else:
            chunks.append(Conflict(zb, oa, tb))
        emit(base[zs:ze])
        z, a, b = ze, as_ + (ze - zs), bs + (ze - zs)
    return chunks


def resolve(chunks: list, side: str) -> list:
    """The merged items, taking ``side`` ("ours" or "theirs") where the sides conflict."""
    out: list = []
    for c in chunks:
        out.extend(getattr(c, side) if isinstance(c, Conflict) else c)
    return out


def has_conflicts(chunks: list) -> bool:
    return any(isinstance(c, Conflict) for c in chunks)


def _lines(text: str) -> list[str]:
    return (text if text.endswith("\n") or not text else text + "\n").splitlines(keepends=True)


def merge_text(base: str, ours: str, theirs: str) -> tuple[str, str] | str:
    """Three-way merge of texts, line by line (two insertions at one place keep both): the
    merged text, or (ours' resolution, theirs' resolution) when lines conflict. A text that did
    not end in a newline still does not."""
    chunks = merge3(_lines(base), _lines(ours), _lines(theirs), inserts="both")
    # whether the result ends in a newline merges as a value of its own
    ends = [t.endswith("\n") if t else None for t in (base, ours, theirs)]
    end = ends[2] if ends[1] == ends[0] else ends[1]

    def joined(side: str) -> str:
        text = "".join(resolve(chunks, side))
        return text[:-1] if end is False and text.endswith("\n") else text

    if has_conflicts(chunks):
        return joined("ours"), joined("theirs")
    return joined("ours")


def marked(ours: Sequence[str], theirs: Sequence[str], *, size: int = 7, labels: tuple[str, str] = ("ours", "theirs")) -> str:
    """Two versions of a text (as units, each ending in a newline) as one, with git's conflict
    markers around each stretch where they differ."""
    out: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, ours, theirs, autojunk=False).get_opcodes():
        if op == "equal":
            out.extend(ours[i1:i2])
            continue
        out.append("<" * size + f" {labels[0]}\n")
        out.extend(ours[i1:i2])
        out.append("=" * size + "\n")
        out.extend(theirs[j1:j2])
        out.append(">" * size + f" {labels[1]}\n")
    return "".join(out)
