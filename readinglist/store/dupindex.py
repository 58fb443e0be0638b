"""The store's near-duplicate index, kept between imports in ``<store>/.cache/``.

An import matches every incoming abstract against the store's abstracts with
:class:`~readinglist.convert.matching.NearIndex`. Building that index normalises and sketches
every abstract in the store (seconds on a large store) before the first
abstract is matched. :class:`StoredNearIndex` is the same index whose contents are kept in an
file (``near-v1-pyXY.marshal``: each paper's file name, file signature and abstract hash, and
sorted arrays of (phrase hash, paper) postings, one segment per import), so an import only looks
up the phrases of the abstracts it brings (a binary search each) and adds its own papers.

It answers as a :class:`NearIndex` built afresh from the store (the algorithm is
NearIndex's own; only its tables are read from the file when first asked for):

* ``_postings`` (phrase -> ids), ``_exact`` (normalised text -> ids), ``_texts`` (id ->
  normalised text) and ``_order`` (id -> rank for ties) are mappings over the file, with this
  import's changes on top;
* a paper's normalised text is made from its abstract only when a candidate is verified;
* ranks of the store's papers follow their file names' order, as in a fresh index built from
  ``sorted(papers)``, and so do the papers of one phrase.

Phrases are told apart by a 42-bit hash: two phrases sharing one (about one pair in a store of
a million phrases) share their postings, which only adds a candidate to verify.

The file is a cache: each entry remembers the paper file's signature and a hash of its abstract;
an entry whose paper is gone or whose abstract changed is dropped when the index is opened, and a
paper the file does not know (a hand-added file, an import that was killed before saving the
index) is added then. A file that cannot be read is rebuilt. :meth:`StoredNearIndex.save` writes
the changes after the store's own files were written.

The mappings over the file are in :mod:`.dupviews`; the postings (hash, merge, compaction) in
:mod:`.postings`.
"""

from __future__ import annotations

import marshal
import os
import sys
from array import array
from bisect import bisect_left, insort
from collections.abc import Callable, Mapping
from pathlib import Path

from ..convert.matching import NearIndex, normalize
from ..record import Paper
from .dupviews import Bucket, Layered, Order, Texts
from .postings import ROW_BITS, ROW_MASK, compacted, merged, phrase_hash

FILE_NAME = f"near-v1-py{sys.version_info[0]}{sys.version_info[1]}.marshal"  # marshal: per Python version
VERSION = 1
#: Above this many rows (papers, living or dropped) the file is not kept: the index is built
#: in memory as before.
MAX_ROWS = ROW_MASK
#: Each save adds a segment of sorted postings; beyond this many they are merged into one.
MAX_SEGMENTS = 6
#: The bits of the table of phrase hashes an import folded (2 MB; at 50,000 abstracts a tenth
#: of the phrases a look-up asks for are in it by chance).
SEEN_BITS = 24
SEEN_MASK = (1 << SEEN_BITS) - 1
#: Every FENCE-th posting of a segment is kept in a small array (its fence) that a look-up
#: searches first, so that the search of a large segment ends within FENCE postings (a few
#: cache lines) instead of jumping across megabytes: a look-up costs about the same at 5,000
#: and 50,000 papers.
FENCE = 128
#: A phrase with more postings than this is looked up as a :class:`Bucket`: its size from the
#: postings' bounds, its papers named only when a query counts it among its rarest phrases (the
#: commoner ones are only asked, by a binary search each, whether they hold the candidates).
LAZY_MIN = 2

_EXACT = "\x00"  # prefix of a whole normalised text, indexed beside its phrases


class StoredNearIndex(NearIndex):
    """A :class:`NearIndex` of a store's abstracts, read from and saved to ``cache_dir``.

    Open it with :meth:`open` (from the store's papers) or :meth:`open_lazy` (from the files'
    signatures, reading an abstract only when it must); use ``add``/``best``/``candidates`` as on
    a NearIndex (ids are the papers' file names); :meth:`fold` now and then during a large
    import (its additions become a compact segment, so memory does not grow with the import);
    :meth:`save` once the store's files are written.
    """

    def __init__(self) -> None:  # use open() or open_lazy()
        super().__init__()
        self._path: Path | None = None
        self._names: list[str | None] = []  # row -> file name (None: dropped, or no longer valid)
        self._dropped: list[int] = []  # the rows whose name is None, sorted
        self._sigs: dict = {}  # file name -> its signature at the last save (every paper file)
        self._ahashes: list[int] = []  # row -> hash of the abstract indexed
        self._segments: list[array] = []  # sorted postings
        self._fences: list[array] = []  # each segment's fence (see FENCE)
        self._saved_segments = 0  # how many of them the file holds (the others: this import's)
        # a bit per value of the low SEEN_BITS bits of a phrase's (per-process) hash, set for the
        # phrases this import folded: most phrases of a new abstract are in none of them, and
        # need no search of its segments
        self._seen: bytearray | None = None
        self._rows: dict[str, int] = {}  # file name -> row, rows still valid
        self._abstract_of: Callable[[str], str] = lambda name: ""
        self._abstracts: dict[str, str] = {}  # id -> abstract, of the texts added since the last fold
        self._sketches: dict[str, list[str]] = {}  # id -> its sketch, of the texts added since the last fold
        self._last: tuple[str, list[str]] = ("", [])  # the last sketch made, for add()

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, cache_dir: Path, papers: Mapping[str, Paper], sigs: Mapping[str, object] | None = None) -> StoredNearIndex:
        """The index of ``papers`` (file name -> paper, the store's index), from the file in
        ``cache_dir`` where it can be read, else built here (and saved by :meth:`save`)."""
        sigs = sigs or {}
        abstracts = {name: p.record.abstract for name, p in papers.items()}  # as indexed, whatever happens to papers
        return cls.open_lazy(cache_dir, {name: sigs.get(name) for name in abstracts}, abstracts.__getitem__)

    @classmethod
    def open_lazy(cls, cache_dir: Path, sigs: Mapping[str, object | None], abstract_of: Callable[[str], str]) -> StoredNearIndex:
        """The index of the papers whose files have signatures ``sigs`` (file name -> signature,
        None where it is not trusted: every paper of the store), from the file in ``cache_dir``.
        ``abstract_of(name)`` gives a paper's abstract as it is indexed ("" for none): as it is
        now, and for a paper this import changed, as it was when :meth:`fold` last ran. It is
        only asked for papers whose file changed since the file was saved, for candidates to
        verify and for a paper added again."""
        self = cls()
        self._path = Path(cache_dir) / FILE_NAME
        self._abstract_of = abstract_of
        self._load()
        known = {name: row for row, name in enumerate(self._names) if name is not None}
        missing: list[tuple[str, str]] = []
        file_sigs, ahashes, rows = self._sigs, self._ahashes, self._rows
        # only the papers whose file changed since the save (or whose signature is not trusted)
        # are looked at one by one; the others keep their rows as they are. (Names are the keys
        # of ``sigs`` throughout: the cache marshals that table again, and marshal's output
        # depends on which objects are shared.)
        differ, self._sigs = _changed(sigs, file_sigs)
        del file_sigs  # (its signatures equal to the caller's are freed)
        for name in sorted(name for name in sigs if name in differ) if differ else ():
            row = known.pop(name, None)
            if row is not None:
                abstract = abstract_of(name)
                if abstract and ahashes[row] == phrase_hash(abstract):
                    rows[name] = row  # (the file changed, its abstract did not)
                    continue
                self._drop(row)  # the abstract changed (indexed again below) or went
                if abstract:
                    missing.append((name, abstract))
            else:  # a file the index never saw (or saw without an abstract)
                abstract = abstract_of(name)
                if abstract:
                    missing.append((name, abstract))
        for name in sigs:
            if name not in differ:
                row = known.pop(name, None)
                if row is not None:
                    rows[name] = row  # unchanged
        for row in known.values():  # papers that are gone
            self._drop(row)
        self._texts = Texts(self._rows, abstract_of)  # type: ignore[assignment]
        self._postings = Layered(self._lookup)  # type: ignore[assignment]
        self._exact = Layered(self._base_exact)  # type: ignore[assignment]
        order = self._order = Order(list(self._rows) + [name for name, _ in missing])  # type: ignore[assignment]
        for name, abstract in missing:
            self.add(name, abstract)
        order.clear_top()  # every paper of the store ranks by its file name, as in a fresh index
        self._added = len(self._rows) + len(missing)
        return self

    def _load(self) -> None:
        """The file's tables, or none when it is missing, of another version or damaged."""
        assert self._path is not None
        try:
            from .atomic import read_bounded

            version, names, sigs, ahashes, segments = marshal.loads(read_bounded(self._path, limit=1 << 30))
            if version != VERSION or len(names) != len(ahashes) or not isinstance(sigs, dict):
                return
            segments = list(segments)
            arrays = []
            for k, raw in enumerate(segments):
                seg = array("q")
                seg.frombytes(raw)
                arrays.append(seg)
                segments[k] = raw = b""  # (each segment's bytes freed once copied: the peak of an import)
        except (OSError, ValueError, EOFError, TypeError):
            return
        self._names, self._sigs, self._ahashes, self._segments = list(names), sigs, list(ahashes), arrays
        self._fences = [seg[::FENCE] for seg in arrays]
        self._dropped = [row for row, name in enumerate(self._names) if name is None]
        self._saved_segments = len(arrays)
        self._saved_names = tuple(names)  # (a save that would write the same tables writes nothing)

    # ------------------------------------------------------------------ the file's entries

    def _lookup(self, key: str) -> str | list[str] | None:
        segments = self._segments
        searched = len(segments)
        seen = self._seen
        if seen is not None:
            i = hash(key) & SEEN_MASK  # (the string's own hash: kept on it, no work)
            if not (seen[i >> 3] >> (i & 7)) & 1:  # no posting of this import has the phrase
                searched = self._saved_segments
        if not searched:
            return None
        h = phrase_hash(key) << ROW_BITS
        end = h + ROW_MASK + 1
        ranges = []
        raw = 0
        fences = self._fences
        for k in range(searched):
            seg, fence = segments[k], fences[k]
            # the fence first (small: it stays in the processor's cache), then FENCE postings
            f = bisect_left(fence, h)
            size = len(seg)
            i = bisect_left(seg, h, (f - 1) * FENCE if f else 0, min(f * FENCE, size))
            if i == size or seg[i] >= end:  # (most phrases of a new abstract: no posting)
                continue
            g = bisect_left(fence, end, f)
            j = bisect_left(seg, end, max(i, (g - 1) * FENCE), min(g * FENCE, size))
            ranges.append((seg, i, j))
            raw += j - i
        if not raw:
            return None
        if raw > LAZY_MIN:
            count = raw - self._dropped_in(h, ranges)
            if count > LAZY_MIN:  # a common phrase: counted now, named if the query counts it
                return Bucket(self, ranges, count)
        return self._named(ranges)

    def _named(self, ranges) -> str | list[str] | None:
        """The papers of the postings ``ranges`` ((segment, start, stop) each) as a fresh index
        lists them: one name, a list, or None."""
        live = self._names
        names: list[str] = []
        for seg, i, j in ranges:
            for value in seg[i:j]:
                name = live[value & ROW_MASK]
                if name is not None:
                    names.append(name)
        if not names:
            return None
        if len(names) == 1:
            return names[0]
        # a fresh index lists a phrase's papers in the order it added them: the store's by
        # name, then this import's as they came
        names.sort(key=self._order.ranks().__getitem__)  # type: ignore[attr-defined]
        return names

    def _holds(self, ranges, name: str) -> bool:
        """True when the postings ``ranges`` (of one phrase) hold the paper in file ``name``."""
        row = self._rows.get(name)
        if row is None:
            return False
        for seg, i, j in ranges:
            value = (seg[i] & ~ROW_MASK) | row
            k = bisect_left(seg, value, i, j)
            if k < j and seg[k] == value:
                return True
        return False

    def _dropped_in(self, h: int, ranges) -> int:
        """How many of the postings ``ranges`` of phrase hash ``h`` are of dropped rows: a pass
        over the postings or a binary search per dropped row, whichever is shorter."""
        dropped = self._dropped
        if not dropped:
            return 0
        live = self._names
        count = 0
        for seg, i, j in ranges:
            if j - i <= len(dropped):
                count += sum(1 for value in seg[i:j] if live[value & ROW_MASK] is None)
                continue
            for row in dropped:
                k = bisect_left(seg, h | row, i, j)
                count += k < j and seg[k] == h | row
        return count

    def _drop(self, row: int) -> None:
        """Mark ``row`` dropped (its paper gone or indexed again under a new row)."""
        if self._names[row] is not None:
            self._names[row] = None
            insort(self._dropped, row)

    def _base_exact(self, norm: str):
        found = self._lookup(_EXACT + norm)
        if found is None:
            return None
        abstract_of = self._abstract_of
        same = [n for n in ([found] if isinstance(found, str) else found) if normalize(abstract_of(n)) == norm]
        return None if not same else same[0] if len(same) == 1 else same

    # ------------------------------------------------------------------ folding and saving

    def fold(self) -> None:
        """Turn the texts added since the last fold into rows and a segment of postings, as a
        save would (without writing anything), and forget their texts, sketches and the phrases
        looked up so far: a large import holds a few integers per phrase instead of strings.
        From now on their abstracts are read with ``abstract_of``."""
        texts: Texts = self._texts  # type: ignore[assignment]
        names, ahashes = self._names, self._ahashes
        for name in texts.gone | texts.top.keys():
            row = self._rows.pop(name, None)
            if row is not None:
                self._drop(row)
        postings: list[int] = []
        if self._seen is None:
            self._seen = bytearray(1 << (SEEN_BITS - 3))
        seen = self._seen
        for name, norm in texts.top.items():
            row = len(names)
            names.append(name)
            ahashes.append(phrase_hash(self._abstracts[name]))
            sketch = self._sketches.get(name)
            for key in (*(NearIndex._sketch(norm) if sketch is None else sketch), _EXACT + norm):
                postings.append((phrase_hash(key) << ROW_BITS) | row)
                i = hash(key) & SEEN_MASK
                seen[i >> 3] |= 1 << (i & 7)
            self._rows[name] = row
        texts.top.clear()
        texts.gone.clear()
        self._abstracts.clear()
        self._sketches.clear()
        self._last = ("", [])
        self._postings = Layered(self._lookup)  # type: ignore[assignment]
        self._exact = Layered(self._base_exact)  # type: ignore[assignment]
        if not postings:
            return
        postings.sort()
        segments = self._segments
        segments.append(array("q", postings))
        # this import's segments merge as they grow (each at most half the one before), so a
        # look-up searches a few of them, and the merging costs a few passes over the postings
        while len(segments) - self._saved_segments >= 2 and len(segments[-2]) <= 2 * len(segments[-1]):
            last = segments.pop()
            segments[-1] = merged(segments[-1], last)
        fences = self._fences
        del fences[self._saved_segments :]
        fences += (seg[::FENCE] for seg in segments[self._saved_segments :])

    def save(self, sigs: Mapping[str, object] | None = None) -> None:
        """Write this import's changes to the file (rows of papers gone or changed dropped,
        added papers indexed), with each paper file's signature from ``sigs``. A failure to
        write is ignored: the next import finds the file behind and brings it up to date."""
        path, self._path = self._path, None
        if path is None:
            return
        self.fold()
        names, ahashes = self._names, self._ahashes
        if len(names) > MAX_ROWS:
            return
        segments = self._segments[: self._saved_segments]
        added = self._segments[self._saved_segments :]
        table = sigs if isinstance(sigs, dict) else dict(sigs or {})  # (not copied: the import's peak)
        if not added and tuple(names) == getattr(self, "_saved_names", None) and table == self._sigs:
            return  # an import that changed nothing rewrites nothing
        if added:
            segments.append(merged(*added) if len(added) > 1 else added[0])
        dropped = sum(1 for n in names if n is None)
        if len(segments) > MAX_SEGMENTS or dropped > len(names) // 4 + 64:
            names, ahashes, segments = compacted(names, ahashes, segments)
        # marshal writes an array as the bytes object it loads again, without a copy of its own
        data = marshal.dumps((VERSION, names, table, ahashes, segments))
        from .atomic import check_inside, replace_files

        try:
            folder = path.parent
            if os.path.islink(folder):  # a .cache link may lead out of the store: never write there
                return
            folder.mkdir(exist_ok=True)
            check_inside(folder, folder.parent)
            replace_files(folder, {path.name: data}, inside=folder.parent)
        except OSError:
            pass

    def _sketch(self, norm: str) -> list[str]:  # type: ignore[override]
        last_norm, sketch = self._last
        if norm == last_norm:  # an import's best() and then add() of one abstract: sketched once
            return sketch
        sketch = NearIndex._sketch(norm)
        self._last = (norm, sketch)
        return sketch

    def add(self, id: str, text: str) -> None:
        super().add(id, text)
        self._abstracts[id] = text  # its hash goes to the file, its sketch to the postings
        norm, sketch = self._last
        if self._texts[id] == norm:  # (sketched by best() just before, or by add itself)
            self._sketches[id] = sketch


def _changed(sigs: Mapping[str, object | None], saved: dict) -> tuple[set[str], dict]:
    """The names of ``sigs`` whose signature is not the ``saved`` one, or is None (not trusted),
    and names only ``saved`` has; and ``saved`` again, where a signature equals the caller's
    made of the caller's object (the saved table is kept only to tell at save whether the
    signatures changed: one table of tuples held, not two, 13 MB at 50,000 papers)."""
    differ = {name for name in saved if name not in sigs}
    same: dict = {name: saved[name] for name in differ}
    missing = same  # (any object that is no signature)
    for name, sig in sigs.items():
        old = saved.get(name, missing)
        if old is missing:
            differ.add(name)
        elif sig is None or old != sig:
            differ.add(name)
            same[name] = old
        else:
            same[name] = sig
    return differ, same
