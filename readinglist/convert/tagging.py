"""Topic tags from a user-editable taxonomy (``[tags.taxonomy]`` in config.toml).

Phrase syntax (documented for users in ``readinglist/data/config.toml``):

* ``language model`` -- a plain phrase: whole words, case-insensitive, each word in any simple
  form (``model``/``models``/``modeling``/``modelled``, ``study``/``studies``); a space or a
  hyphen between words matches a space or a hyphen (``fine-tuning`` = ``fine tuning``).
* ``LLM``, ``LoRA`` -- an entry with a capital after its first letter is an acronym or proper
  spelling, matched case-sensitively as a whole word, plural ``s`` allowed (``LLMs``).
* ``optimi*`` -- a trailing ``*`` matches any word starting with the prefix (``optimizer``,
  ``optimisation``); the prefix needs at least three letters.

Scoring: every *distinct* phrase of a tag that occurs counts 1 point, or 2 when it occurs in the
generated title, the system name or the abstract's first sentence; a phrase that occurs three or
more times gets half a point more. A tag needs ``min_score`` points (default 2), so a passing
mention does not make a tag. Tags are ordered by score, then by taxonomy order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from collections.abc import Mapping, Sequence

__all__ = ["Tagger", "compile_taxonomy", "stem", "MIN_SCORE"]

MIN_SCORE = 2.0
_TOKEN = re.compile(r"\w+")
_FIRST_SENTENCE = re.compile(r"^.*?[.!?](?=\s+[A-Z0-9\"“(]|\s*$)")
_CASED = re.compile(r"^.[^\s]*[A-Z]")


def stem(word: str) -> str:
    """A crude, deterministic stem so ``models``/``modeling``/``modelled`` meet at ``model``."""
    w = word.lower()
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
        if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "aeiouls":
            w = w[:-1]
        elif len(w) > 3 and w.endswith("ll"):
            w = w[:-1]
    elif len(w) > 4 and w.endswith("ed") and not w.endswith("eed"):
        w = w[:-2]
        if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "aeious":
            w = w[:-1]
    elif len(w) > 4 and w.endswith("es") and w[-3] in "sxz" or w.endswith(("ches", "shes")):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


_STEM_CACHE: dict[str, str] = {}


def _remember_stem(token: str) -> str:
    if len(_STEM_CACHE) > 200_000:
        _STEM_CACHE.clear()
    _STEM_CACHE[token] = result = stem(token)
    return result


@dataclass(frozen=True)
class _Phrase:
    tag: int  # index into Tagger.names
    ident: int  # distinct phrase id
    words: tuple[str, ...]  # stems, or exact spellings when cased
    cased: bool
    wildcard: bool  # last word is a prefix


@dataclass(frozen=True)
class Tagger:
    """A compiled taxonomy. Build with :func:`compile_taxonomy`; call :meth:`tags`."""

    names: tuple[str, ...]
    min_score: float = MIN_SCORE
    fallback: str = ""  # the one tag of a text that mentions no topic ("" for none)
    _by_stem: dict = field(default_factory=dict, repr=False, compare=False)
    _by_exact: dict = field(default_factory=dict, repr=False, compare=False)
    _by_prefix: dict = field(default_factory=dict, repr=False, compare=False)
    _by_ident: dict = field(default_factory=dict, repr=False, compare=False)
    _starters: dict = field(default_factory=dict, repr=False, compare=False)  # token -> phrases it may start

    def _matches(self, text: str, lead_tokens: int = 0) -> tuple[dict[int, int], set[int]]:
        """({phrase id: occurrences} in a text, ids of phrases starting in its first
        ``lead_tokens`` tokens).

        Which phrases a token can start is worked out once per distinct token string and
        remembered, so an abstract costs one tokenisation and one dictionary look-up per token.
        A match inside a longer match of another tag does not count ("sparse" inside
        "sparse autoencoder" is not an efficiency cue)."""
        tokens = _TOKEN.findall(text)
        starters = self._starters
        unseen = set(tokens).difference(starters)
        if unseen:
            if len(starters) > 200_000:
                starters.clear()
                unseen = set(tokens)
            for tok in unseen:
                starters[tok] = self._starting(tok)
        starts = [(i, c) for i, tok in enumerate(tokens) if (c := starters[tok])]
        if not starts:
            return {}, set()
        cache = _STEM_CACHE
        n = len(tokens)
        longs: list[tuple[int, int, _Phrase]] = []
        for i, (_singles, multis) in starts:
            for ph in multis:
                k = len(ph.words)
                if i + k > n:
                    continue
                ok = True
                for j in range(1, k):
                    t, w = tokens[i + j], ph.words[j]
                    if ph.wildcard and j == k - 1:
                        ok = t.lower().startswith(w)
                    elif ph.cased:
                        ok = t == w or (j == k - 1 and t == w + "s")
                    else:
                        ok = (cache[t] if t in cache else _remember_stem(t)) == w
                    if not ok:
                        break
                if ok:
                    longs.append((i, i + k, ph))
        found: dict[int, int] = {}
        lead: set[int] = set()
        covered: dict[int, set[int]] = {}  # token position -> tags of multi-word matches over it
        # matches by start, so that finding a longer one around a match looks at the few starts
        # within a phrase's length before it (linear in the text, not quadratic in its matches)
        by_begin: dict[int, list[tuple[int, _Phrase]]] = {}
        for b, e, o in longs:
            by_begin.setdefault(b, []).append((e, o))
        longest = max((e - b for b, e, _ in longs), default=0)
        for begin, end, ph in longs:
            for pos in range(begin, end):
                covered.setdefault(pos, set()).add(ph.tag)
            if any(
                o.tag != ph.tag and end <= e and e - b > end - begin
                for b in range(max(0, begin - longest), begin + 1)
                for e, o in by_begin.get(b, ())
            ):
                continue
            found[ph.ident] = found.get(ph.ident, 0) + 1
            if begin < lead_tokens:
                lead.add(ph.ident)
        for i, (singles, _multis) in starts:
            cover = covered.get(i) if covered else None
            for ph in singles:
                if cover and (len(cover) > 1 or ph.tag not in cover):
                    continue  # inside a longer match of another tag
                found[ph.ident] = found.get(ph.ident, 0) + 1
                if i < lead_tokens:
                    lead.add(ph.ident)
        return found, lead

    def scores(self, plain: str, *, name: str | None = None, title: str | None = None) -> dict[str, float]:
        """Every tag's score (only tags with at least one match)."""
        m = _FIRST_SENTENCE.match(plain)
        first = m.group(0) if m else plain
        body, lead = self._matches(plain, len(_TOKEN.findall(first)))
        extra = " . ".join(p for p in (name, title) if p)
        if extra:
            lead |= set(self._matches(extra)[0])
        per_tag: dict[int, float] = {}
        for ident in set(body) | set(lead):
            ph = self._phrase(ident)
            weight = 2.0 if ident in lead else 1.0
            if body.get(ident, 0) >= 3:
                weight += 0.5
            per_tag[ph.tag] = per_tag.get(ph.tag, 0.0) + weight
        return {self.names[t]: s for t, s in per_tag.items()}

    def _starting(self, tok: str) -> tuple[tuple[_Phrase, ...], tuple[_Phrase, ...]] | None:
        """(one-word phrases this token is, longer phrases it may start) or None."""
        cands = self._by_stem.get(_STEM_CACHE[tok] if tok in _STEM_CACHE else _remember_stem(tok), ())
        if not tok.islower():
            cands += self._by_exact.get(tok) or (self._by_exact.get(tok[:-1], ()) if tok[-1] == "s" else ())
        if self._by_prefix:
            cands += self._by_prefix.get(tok[:3].lower(), ())
        singles, multis = [], []
        for ph in cands:
            if len(ph.words) > 1:
                first_ok = tok == ph.words[0] if ph.cased else True  # uncased: found by its stem
                if first_ok:
                    multis.append(ph)
            elif ph.wildcard:
                if tok.lower().startswith(ph.words[0]):
                    singles.append(ph)
            elif not ph.cased or tok == ph.words[0] or tok == ph.words[0] + "s":
                singles.append(ph)
        return (tuple(singles), tuple(multis)) if singles or multis else None

    def _phrase(self, ident: int) -> _Phrase:
        return self._by_ident[ident]

    def tags(
        self, plain: str, *, name: str | None = None, title: str | None = None, max_tags: int = 4, min_tags: int = 2
    ) -> tuple[str, ...]:
        """The tags that reach ``min_score``, strongest first (ties: taxonomy order); when fewer
        than ``min_tags`` reach it, the strongest of the others that the abstract mentions at all
        fill up to ``min_tags`` (2-4 tags when the abstract touches two topics or more); an
        abstract that mentions no topic at all gets the ``fallback`` tag alone, if any."""
        scores = self.scores(plain or "", name=name, title=title)
        order = {n: i for i, n in enumerate(self.names)}
        ranked = sorted(scores, key=lambda t: (-scores[t], order[t]))
        strong = [t for t in ranked if scores[t] >= self.min_score]
        if len(strong) < min_tags:
            strong += [t for t in ranked if scores[t] < self.min_score][: min_tags - len(strong)]
        if not strong and self.fallback and max_tags > 0:
            return (self.fallback,)
        return tuple(strong[: max(0, max_tags)])


def _parse(entry: str) -> tuple[tuple[str, ...], bool, bool] | None:
    entry = entry.strip()
    wildcard = entry.endswith("*")
    if wildcard:
        entry = entry[:-1]
    words = _TOKEN.findall(entry)
    if not words:
        return None
    cased = bool(_CASED.match(entry)) or any(len(w) > 1 and w.isupper() for w in words)
    if wildcard:
        if len(words[-1]) < 3:
            return None
        last = words[-1].lower()
        head = tuple(w if cased else stem(w) for w in words[:-1])
        return head + (last,), cased, True
    return tuple(w if cased else stem(w) for w in words), cased, False


@lru_cache(maxsize=32)
def _compile(items: tuple[tuple[str, tuple[str, ...]], ...], min_score: float, fallback: str = "") -> Tagger:
    names = tuple(tag for tag, _ in items)
    tagger = Tagger(names=names, min_score=min_score, fallback=fallback)
    by_ident = tagger._by_ident
    seen: dict[tuple, int] = {}
    for t, (_tag, entries) in enumerate(items):
        for entry in entries:
            parsed = _parse(entry)
            if parsed is None:
                continue
            words, cased, wildcard = parsed
            key = (t, words, cased, wildcard)
            if key in seen:
                continue
            ident = len(by_ident)
            seen[key] = ident
            ph = _Phrase(tag=t, ident=ident, words=words, cased=cased, wildcard=wildcard)
            by_ident[ident] = ph
            if wildcard and len(words) == 1:
                tagger._by_prefix[words[0][:3]] = tagger._by_prefix.get(words[0][:3], ()) + (ph,)
            elif cased:
                tagger._by_exact[words[0]] = tagger._by_exact.get(words[0], ()) + (ph,)
            else:
                tagger._by_stem[words[0]] = tagger._by_stem.get(words[0], ()) + (ph,)
    return tagger


def tagger_for(config) -> Tagger:
    """The tagger a :class:`~readinglist.config.Config` sets up (its taxonomy, ``min_score`` and
    ``fallback_tag``; ``max_tags`` is applied by the caller). The one place these settings are
    read, so that :func:`~readinglist.convert.version.generator_version` covers each of them."""
    return compile_taxonomy(config.taxonomy, min_score=config.min_score, fallback=config.fallback_tag)


def tagger_settings(config) -> tuple:
    """What of ``config`` the generated tags depend on (see :func:`tagger_for`), as plain values."""
    taxonomy = sorted((tag, tuple(phrases)) for tag, phrases in config.taxonomy.items())
    return (taxonomy, float(config.min_score), int(config.max_tags), str(config.fallback_tag))


def compile_taxonomy(taxonomy: Mapping[str, Sequence[str]], *, min_score: float = MIN_SCORE, fallback: str = "") -> Tagger:
    """Compile a taxonomy ({tag: [phrases]}) once; the result is cached per taxonomy.
    ``fallback``: the tag of a text that mentions none of its topics."""
    items = tuple((str(tag), tuple(str(p) for p in ([phrases] if isinstance(phrases, str) else phrases))) for tag, phrases in taxonomy.items())
    return _compile(items, float(min_score), fallback)
