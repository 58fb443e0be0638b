"""Deciding whether two abstracts are the same paper.

Used for duplicate abstracts within and across lists (the converter), for matching an imported
record to a paper already in the store, and by :mod:`readinglist.reconciler`.

* :func:`normalize` is what gets compared: lowercase, LaTeX commands, math delimiters, Markdown
  markers and punctuation dropped, accents folded, whitespace collapsed. It is plain ``re`` and
  ``str`` work, cheap enough to run on every abstract.
* :func:`fingerprint` is a short stable hash of the normalised text: the key for exact
  duplicates.
* :class:`NearIndex` finds near duplicates without comparing every pair: a bottom-k sketch
  of each text's words goes into an inverted index; a query verifies only the few texts
  sharing most of its sketch, with rapidfuzz's ``fuzz.ratio`` on the normalised texts (0-100,
  an Indel similarity). A 1-3 word edit, a reflow or a LaTeX-cleaned copy of an abstract scores
  97-100; two different abstracts on the same topic score 40-65 (the seeds' closest pair: 46),
  so the default threshold of 92 separates them with a wide gap.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache
from hashlib import blake2b
from ..text.symbols import GREEK_LETTERS, GREEK_VARIANTS

__all__ = ["normalize", "fingerprint", "NearIndex"]

# LaTeX command names that stand for a letter: kept as that letter so a LaTeX abstract and a
# Unicode copy of it normalise alike (``$\ell_1$`` and ``ℓ1`` both become ``l1``: NFKD folds ℓ
# to l). Every other command name is dropped, its braced argument kept (``\emph{x}`` -> ``x``).
_LETTERS = {**GREEK_LETTERS, **GREEK_VARIANTS}
_LETTERS.update({"ell": "l", "i": "i", "j": "j", "o": "o", "ss": "ss", "ae": "ae", "oe": "oe", "aa": "a", "l": "l"})

# ``\name`` (with an optional star), or a backslash and one non-letter (``\%``, ``\'``, ``\\``).
_COMMAND = re.compile(r"\\(?:([A-Za-z]+)\*?|[^A-Za-z\s])?")
# Characters that join rather than separate: braces, math delimiters, sub/superscripts and
# Markdown's underscores (``__CapTrack__``, ``M$^2$LE``, ``{\'e}``). Every other character
# that is not a letter or digit separates words.
_JOINERS = b"{}$_^"
_BYTE_TABLE = bytes((ord(chr(c).lower()) if chr(c).isalnum() else 32) if c < 128 else c for c in range(256))
_NON_ASCII = re.compile(rb"[\x80-\xff]+")  # a run of whole UTF-8 characters


_SPACES = re.compile(rb"  +")


@lru_cache(maxsize=4096)
def _separate_run(run: bytes) -> bytes:
    from unicodedata import combining

    return "".join("" if combining(c) else c.lower() if c.isalnum() else " " for c in run.decode("utf-8")).encode("utf-8")


def _separate(match: re.Match) -> bytes:
    """Non-ASCII characters: accents (combining marks) go, letters and digits stay (Greek,
    CJK), everything else (dashes, quotes, symbols) separates words."""
    return _separate_run(match.group())


def _command(match: re.Match) -> str:
    name = match.group(1)
    if name is None:  # \% \' \" ... : an escaped character or an accent on what follows
        return ""
    letter = _LETTERS.get(name.lower())
    if letter is not None:
        return letter
    # one-letter commands are accents (\c{c}, \v{s}); longer ones are words (\emph{x})
    return "" if len(name) == 1 else " "


@lru_cache(maxsize=256)
def normalize(text: str) -> str:
    """The comparable form of ``text``: lowercase words of letters and digits, one space apart.

    LaTeX commands and math delimiters, Markdown markers, punctuation and accents are dropped
    (``\\emph{Caf\\'e} $\\ell_1$`` and ``*café* ℓ1`` both give ``cafe l1``);
    ``normalize(normalize(t)) == normalize(t)``. Cached: the converter asks for the same
    text's form three times (fingerprint, query, index).
    """
    if "\\" in text:
        text = _COMMAND.sub(_command, text)
    if text.isascii():
        data = text.encode("ascii")
    else:  # NFKD splits accented letters into letter + accent and folds ligatures, ², ℓ...
        # (ASCII letters are lowercased by the byte table below, the others by _separate)
        data = _NON_ASCII.sub(_separate, unicodedata.normalize("NFKD", text).encode("utf-8"))
    # one C-speed pass through a byte table: lowercase letters and digits stay, joiners go,
    # every other ASCII character becomes a space; the bytes of non-ASCII letters pass as they are
    return _SPACES.sub(b" ", data.translate(_BYTE_TABLE, _JOINERS)).strip().decode("utf-8")


def fingerprint(text: str) -> str:
    """A 16-hex-digit hash of :func:`normalize` (``text``): equal for exact duplicates."""
    return blake2b(normalize(text).encode("utf-8"), digest_size=8).hexdigest()


# Content-defined chunking: a normalised text is cut at these common words into phrases of a
# few words; an edit changes only the phrase it falls in.
_BOUNDARIES = (" of ", " and ", " a ", " to ")
_CUT = " the "
#: Phrases shorter than this (characters) are too common to index.
_MIN_PHRASE = 12
#: A text with fewer phrases than this is also indexed by its words.
_FEW_PHRASES = 4


class NearIndex:
    """An index of texts that answers "which indexed text is (nearly) this one?".

    >>> index = NearIndex()
    >>> index.add("a", "Knowledge editing updates facts in large language models.")
    >>> index.best("Knowledge  editing updates facts in large\\nlanguage models!", 92)
    ('a', 100.0)

    Each text is sketched by its phrases: the normalised text cut at common words ("the",
    "of", "and", "a", "to"; content-defined chunking, so two texts that differ by a few words
    share most phrases). An inverted index maps a phrase to the texts holding it. A
    query counts, per indexed text, the phrases it shares, and verifies the texts sharing the
    most (at least ``MIN_SHARE`` of the query's phrases, at most ``VERIFY`` texts) with
    rapidfuzz's ``fuzz.ratio`` on the normalised texts. Identical normalised texts are found
    through a dict and score 100.
    """

    #: A phrase shared by more texts than this carries little evidence; a query skips it
    #: once it has ``MIN_KEYS`` rarer phrases.
    MAX_POSTING = 64
    MIN_KEYS = 8
    #: A phrase held by more texts than this is never counted (unless it is the query's rarest).
    MAX_COMMON = 512
    #: A candidate must share this fraction of the query's phrases to be verified...
    MIN_SHARE = 0.2
    #: ...and at most this many candidates (the ones sharing the most) are verified.
    VERIFY = 8

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}  # id -> normalised text
        # phrase -> the id holding it, or a list of ids when several do (most phrases belong to
        # one text: keeping a bare id spares a list per phrase, and the garbage collector's time)
        self._postings: dict[str, str | list[str]] = {}
        self._exact: dict[str, str | list[str]] = {}  # normalised text -> id(s), as postings
        self._order: dict[str, int] = {}  # id -> when it was added, for stable ties
        self._added = 0

    def __len__(self) -> int:
        return len(self._texts)

    def __contains__(self, id: object) -> bool:
        return id in self._texts

    @staticmethod
    def _sketch(norm: str) -> list[str]:
        for word in _BOUNDARIES:
            norm = norm.replace(word, _CUT)
        phrases = set(norm.split(_CUT))
        kept = [p for p in phrases if len(p) >= _MIN_PHRASE]
        if len(kept) < _FEW_PHRASES:  # a short text: its words stand in for phrases
            kept += {w for w in norm.split() if len(w) >= 4 or not kept} - phrases
        return kept

    def add(self, id: str, text: str) -> None:
        """Index ``text`` under ``id`` (adding an id again replaces its text)."""
        if id in self._texts:
            self.remove(id)
        norm = normalize(text)
        sketch = self._sketch(norm)
        self._texts[id] = norm
        self._order[id] = self._added
        self._added += 1
        bucket = self._exact.get(norm)
        if bucket is None:
            self._exact[norm] = id
        elif isinstance(bucket, list):
            bucket.append(id)
        else:
            self._exact[norm] = [bucket, id]
        postings = self._postings
        for phrase in sketch:
            bucket = postings.get(phrase)
            if bucket is None:
                postings[phrase] = id
            elif isinstance(bucket, list):
                bucket.append(id)
            else:
                postings[phrase] = [bucket, id]

    def remove(self, id: str) -> None:
        """Forget ``id`` (no error if it is not indexed)."""
        norm = self._texts.pop(id, None)
        if norm is None:
            return
        del self._order[id]
        postings = self._postings
        for phrase in self._sketch(norm):  # recomputed: removing is rare, memory is not
            bucket = postings[phrase]
            if isinstance(bucket, list):  # (a list or a StoredNearIndex's lazy one)
                bucket.remove(id)
                if len(bucket) == 1:
                    postings[phrase] = bucket[0]
            else:
                del postings[phrase]
        bucket = self._exact[norm]
        if bucket.__class__ is list:
            bucket.remove(id)
            if len(bucket) == 1:
                self._exact[norm] = bucket[0]
        else:
            del self._exact[norm]

    def candidates(self, text: str, threshold: float, limit: int = 5) -> list[tuple[str, float]]:
        """Up to ``limit`` indexed ``(id, score)`` pairs whose text scores at least
        ``threshold`` (0-100) against ``text``, best first (ties in the order they were added).

        A text whose normalised form is empty (only markup or punctuation) matches nothing.
        """
        norm = normalize(text)
        if not norm:
            return []
        same = self._exact.get(norm, [])
        found: dict[str, float] = {id: 100.0 for id in ([same] if isinstance(same, str) else same)}
        if len(found) < limit:
            postings = self._postings
            sketch = self._sketch(norm)
            buckets: list[list[str]] = []
            for phrase in sketch:
                bucket = postings.get(phrase)
                if bucket is not None:
                    buckets.append(bucket if isinstance(bucket, list) else [bucket])
            # A text scoring ``threshold`` shares most of the query's phrases: at 92 (the
            # duplicate default) a 1-3 word edit keeps ~90% of them; lower thresholds ask less.
            # Phrases no indexed text holds count against every candidate, so a new abstract
            # (most of its phrases unseen) is settled here, without verifying anything.
            share = min(0.5, max(self.MIN_SHARE, (threshold - 70) / 60))
            need = share * len(sketch)
            if buckets and len(buckets) >= need:
                buckets.sort(key=len)
                used = 0
                for bucket in buckets:
                    # common phrases carry little evidence and cost a pass over their postings:
                    # once a few rarer phrases are in, stop (a near duplicate shares those too);
                    # a phrase held by hundreds of texts is never worth counting
                    if len(bucket) > self.MAX_POSTING and (used >= self.MIN_KEYS or (used and len(bucket) > self.MAX_COMMON)):
                        break
                    used += 1
                # a candidate may share every phrase left uncounted, and must reach ``need``
                least = max(1, int(need - (len(buckets) - used)))
                # ...so it holds one of the rarest ``used - least + 1`` counted phrases: those name
                # the candidates (in the order a count of every counted phrase would meet them);
                # the commoner ones are only asked which of those they hold
                rare = used - least + 1
                hits: Counter[str] = Counter()
                for bucket in buckets[:rare]:
                    hits.update(bucket)
                for bucket in buckets[rare:used]:
                    among = getattr(bucket, "among", None)  # (a StoredNearIndex's lazy bucket answers without naming its texts)
                    hits.update(among(hits) if among is not None else hits.keys() & bucket)
                self._verify(norm, hits, least, threshold, found)
        order = self._order
        ranked = sorted(found.items(), key=lambda item: (-item[1], order[item[0]]))
        return ranked[:limit]

    def _verify(self, norm: str, hits: Counter, least: int, threshold: float, found: dict[str, float]) -> None:
        """Score the texts sharing the most phrases (at least ``least``) with rapidfuzz."""
        from rapidfuzz.fuzz import ratio

        # ratio >= threshold needs lengths within 2*short/(short+long) >= threshold/100
        n = len(norm)
        lo, hi = n * threshold / (200 - threshold), n * (200 - threshold) / threshold
        texts = self._texts
        verified = 0
        for id, shared in hits.most_common():
            if shared < least or verified >= self.VERIFY:
                break
            if id in found:
                continue
            other = texts[id]
            if not lo <= len(other) <= hi:
                continue
            verified += 1
            score = ratio(norm, other, score_cutoff=threshold)
            if score >= threshold:
                found[id] = float(score)

    def best(self, text: str, threshold: float) -> tuple[str, float] | None:
        """The indexed ``(id, score)`` most similar to ``text`` if it scores at least
        ``threshold`` (0-100), else None."""
        found = self.candidates(text, threshold, limit=1)
        return found[0] if found else None
