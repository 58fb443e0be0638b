"""Features of a candidate for the learned choice: its expected ROUGE-1 against the real title
(from the title-word model's per-word probabilities) and the probability that it shares no
fewer of the real title's words than the abstract's opening does (:func:`_not_worse`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import repeat

from .constants import BOUND_MARGIN


WORD_TOKENS: dict[str, list[str]] = {}  # a word of a phrase -> its ROUGE tokens, kept between abstracts


def stems(words: Iterable[str]) -> set[str]:
    """The words, their hyphenated parts, and each without a plural -s ("transformers" says
    "transformer", "real-world" says "world")."""
    out: set[str] = set()
    cache = _WORD_STEMS
    if len(cache) > 200_000:
        cache.clear()
    for w in words:
        got = cache.get(w)
        if got is None:
            got = cache[w] = _word_stems(w)
        out.update(got)
    return out


_WORD_STEMS: dict[str, tuple[str, ...]] = {}  # a word -> what it says (see _stems), kept between abstracts


def _word_stems(w: str) -> tuple[str, ...]:
    out: list[str] = []
    for part in [w, *w.split("-")] if "-" in w else [w]:
        if part:
            out.append(part)
            if len(part) > 3 and part.endswith("s") and not part.endswith("ss"):
                out.append(part[:-1])
    return tuple(out)


_FIRST_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(\[])")


def opening_words(plain: str) -> list[str] | None:
    """The content tokens of the abstract's first ten words (of its first sentence), the
    baseline a title must beat: None when they have none."""
    from ..title_words import tokens

    m = _FIRST_SENTENCE.search(plain)
    first = plain[: m.start()] if m else plain
    return tokens(" ".join(first.split()[:10])) or None


def _count_distribution(probs: list[float]) -> list[float]:
    """P(k of these independent events happen), k = 0..len(probs) (a Poisson binomial)."""
    dist = [1.0]
    for p in probs:
        q = 1.0 - p
        dist = [x * q + y * p for x, y in zip(dist + [0.0], [0.0] + dist)]
    return dist


class Opening:
    """The abstract's opening tokens as the baseline a candidate title must not do worse than
    (see :func:`_not_worse`), with what depends only on which of them a candidate shares."""

    __slots__ = ("tokens", "size", "get", "length", "_by_shared")

    def __init__(self, tokens: list[str], get, length: float) -> None:
        self.tokens = dict.fromkeys(tokens)
        self.size = len(tokens)
        self.get = get
        self.length = length
        self._by_shared: dict[tuple[str, ...], tuple[list[float], list[float]]] = {}

    def split(self, shared: tuple[str, ...]) -> tuple[list[float], list[float]]:
        """(the distribution of how many of ``shared`` the real title uses, P(fewer than k of the
        opening's other tokens) for k = 0..their number + 1)."""
        got = self._by_shared.get(shared)
        if got is None:
            get = self.get
            other = _count_distribution([get(t, 0.0) for t in self.tokens if t not in shared])
            below = [0.0]
            for d in other:
                below.append(below[-1] + d)
            got = self._by_shared[shared] = (_count_distribution([get(t, 0.0) for t in shared]), below)
        return got


def not_worse(mine: dict[str, None], size: int, opening: Opening, need: float | None = None) -> float:
    """The probability that a candidate title (its distinct tokens ``mine``, ``size`` tokens in
    all) scores no lower ROUGE-1 against the real title than the abstract's opening tokens do,
    each word of the abstract in the real title independently with its probability and the
    real title of the expected length: with c, s and o the counts of the candidate's own, the
    shared and the opening's own words in the real title,
    (c + s) / (size + length) >= (o + s) / (opening size + length).

    Given ``need``, -inf when that probability cannot exceed ``need``: it is at most 1 minus
    P(c = 0 and o >= 1), and P(s = 0) times that when the candidate is the shorter (then s > 0
    may make up for o); an upper bound in O(words), checked (with a margin far above rounding)
    before the exact sum, which is then the same as without ``need``."""
    if not mine:
        return 0.0
    theirs = opening.tokens
    get = opening.get
    shared_dist, below = opening.split(tuple(t for t in theirs if t in mine))
    own_probs = [get(t, 0.0) for t in mine if t not in theirs]
    ratio = (opening.size + opening.length) / (size + opening.length)  # b / a
    if need is not None:
        none = 1.0 - below[1]  # P(o >= 1)
        if ratio > 1.0:
            none *= shared_dist[0]
        for p in own_probs:
            none *= 1.0 - p
        if 1.0 - none + BOUND_MARGIN <= need:
            return _CANNOT
    own = _count_distribution(own_probs)
    top = len(below) - 1  # below[top]: P(no more than all of them), 1
    # below[min(top, k)] for every k reached: below padded with its last value (each limit
    # below is under (len(own) + len(shared_dist)) * ratio)
    reach = int((len(own) + len(shared_dist)) * ratio) + 2
    upto = below if reach <= top else below + [below[top]] * (reach - top)
    total = 0.0
    for s, ps in enumerate(shared_dist):
        part = 0.0
        for c, pc in enumerate(own):
            limit = (c + s) * ratio - s + 1e-9  # o <= limit
            if limit >= 0.0:
                part += pc * upto[int(limit) + 1]
        total += ps * part
    return total


_CANNOT = float("-inf")


Option = tuple[float, dict[str, None], int, list[str], "list[str] | None"]
"""A candidate for the choice: (expected ROUGE-1, its new distinct tokens in order, its token
count, its words, the words after "for" of a pair or None)."""


class Scorer:
    """The expected ROUGE-1 of a candidate led by ``prefix`` (the name's tokens when the title is
    led by it), each token in the real title with its probability ``get(token)`` and the real
    title of the expected ``length``."""

    __slots__ = ("get", "prefix", "prefix_set", "base_hits", "base_len", "tokens")

    def __init__(self, get, prefix: list[str], length: float) -> None:
        from ..title_words import tokens

        self.tokens = tokens
        self.get = get
        self.prefix = prefix
        self.prefix_set = set(prefix)
        # sums are taken over distinct tokens in the order they come (never a set's order, which
        # changes from run to run: two candidates of equal score must always tie the same way)
        self.base_hits = sum([get(t, 0.0) for t in dict.fromkeys(prefix)])
        self.base_len = len(prefix) + length

    def info(self, words: list[str]) -> tuple[float, dict[str, None], int]:
        """(expected ROUGE-1, the new distinct tokens in order, the token count) of prefix + words."""
        cache, tokens = WORD_TOKENS, self.tokens
        toks: list[str] = []
        for w in words:
            got = cache.get(w)
            if got is None:
                got = cache[w] = tokens(w)
            toks += got
        prefix_set = self.prefix_set
        new = dict.fromkeys([t for t in toks if t not in prefix_set] if prefix_set else toks)
        hits = sum(map(self.get, new, repeat(0.0)))
        return 2.0 * (self.base_hits + hits) / (self.base_len + len(toks)) if toks or self.prefix else 0.0, new, len(toks)

    def pair(self, toks_a: dict[str, None], n_a: int, toks_b: dict[str, None], n_b: int) -> tuple[float, dict[str, None], int]:
        """The same for two candidates' tokens said one after the other ("<a> for <b>")."""
        both = {**toks_a, **toks_b}
        hits = sum(map(self.get, both, repeat(0.0)))
        return 2.0 * (self.base_hits + hits) / (self.base_len + n_a + n_b), both, n_a + n_b
