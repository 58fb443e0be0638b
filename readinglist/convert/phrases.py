"""Noun phrases of an abstract as candidate title phrases, scored by how central they are.

A phrase is a run of content words between function words, verbs and punctuation ("sparse
hypergraph community detection"); two phrases joined by "of", "for", "in", "on", "with", "via",
"under" or "from" make one longer phrase ("community detection in stochastic block models").
The phrases are found by :mod:`readinglist.convert.phrase_spans`; this module scores them.
A phrase is central when its words recur in the abstract (real titles reuse the abstract's most
repeated content words) and it comes from the sentence that states the contribution.

:func:`best_phrase` gives the best one as a title phrase: a noun phrase without a finite verb,
at most ``budget`` words, never ending on a dangling word. Pure Python, linear in the text.
"""

from __future__ import annotations

from collections.abc import Set

import math
import operator
import re
from collections import Counter
from functools import lru_cache
from itertools import repeat

from . import lexicon
from .models import DATA, read_model
from .phrase_spans import BREAK, JOIN, WEAK, candidate_phrases, content as content_form, phrases_and_counts

__all__ = ["candidate_phrases", "best_phrase"]

_CUE = re.compile(r"\b(?:we|this paper|this work|our)\b", re.IGNORECASE)


_MODEL_PATH = DATA / "phrase_model.json"


@lru_cache(maxsize=1)
def load_model() -> dict:
    """Learned weights and per-word title affinities (``data/phrase_model.json``)."""
    return read_model(_MODEL_PATH)


@lru_cache(maxsize=1)
def learned_verbs() -> frozenset[str]:
    return frozenset(load_model().get("verbs", ()))


# What a word of a phrase adds to its features, worked out once per word and abstract:
# (log of its count in the abstract or None when it occurs once, title affinity, weak head word,
# capitalised, coined); _JOIN_WORD for the joining words ("of", "for", ...), which add nothing.
_WordInfo = tuple[float | None, float, bool, bool, bool]
_JOIN_WORD: _WordInfo = (None, 0.0, False, False, False)
_WORDS_KEYS = tuple(f"words_{n}" for n in range(9))
_SENTENCE_KEYS = tuple(f"sentence_{n}" for n in range(5))


# What a word is, whatever the abstract: None for the joining words ("of", "for", ...), else
# (its content form, a weak head word, capitalised, coined); worked out once per distinct word.
_WORD_KIND: dict[str, tuple[str, bool, bool, bool] | None] = {}


def _word_kind(word: str) -> tuple[str, bool, bool, bool] | None:
    if word.lower() in JOIN:
        kind = None
    else:
        low = content_form(word)
        kind = (low, low in WEAK, word[:1].isupper(), not word.islower() and lexicon.is_coined(word))
    if len(_WORD_KIND) > 200_000:
        _WORD_KIND.clear()
    _WORD_KIND[word] = kind
    return kind


def _word_info(word: str, tf: Counter, affinity: dict, cache: dict[str, _WordInfo]) -> _WordInfo:
    kind = _WORD_KIND[word] if word in _WORD_KIND else _word_kind(word)
    if kind is None:
        info = _JOIN_WORD
    else:
        low, weak, capitalised, coined = kind
        count = tf.get(low, 0)
        info = (math.log(count) if count > 1 else None, affinity.get(low, affinity.get("<rare>", 0.0)), weak, capitalised, coined)
    cache[word] = info
    return info


def _features(infos: list[_WordInfo], n_words: int, s_idx: int, cue_sents: Set[int]) -> dict[str, float]:
    # The named features, those that are zero left out, always in this order (the score adds
    # them up in it): bias, centrality_sum, centrality_mean, title_affinity_sum,
    # title_affinity_mean, title_affinity_first, title_affinity_last, words_N, joined,
    # in_cue_sentence, sentence_N, weak_words, capitalised_words, coined_words.
    n = len(infos)
    logs, aff, weak, capitalised, coined = zip(*infos) if infos else ((), (), (), (), ())
    cent = sum([x for x in logs if x is not None])
    aff_sum = sum(aff)
    f = {"bias": 1.0}
    if cent:
        f["centrality_sum"] = cent
    v = cent / max(1, n)
    if v:
        f["centrality_mean"] = v
    if aff_sum:
        f["title_affinity_sum"] = aff_sum
    v = aff_sum / max(1, n)
    if v:
        f["title_affinity_mean"] = v
    if aff:
        if aff[0]:
            f["title_affinity_first"] = aff[0]
        if aff[-1]:
            f["title_affinity_last"] = aff[-1]
    f[_WORDS_KEYS[min(n, 8)]] = 1.0
    if n < n_words:
        f["joined"] = 1.0
    if s_idx in cue_sents:
        f["in_cue_sentence"] = 1.0
    f[_SENTENCE_KEYS[min(s_idx, 4)]] = 1.0
    for key, flags in (("weak_words", weak), ("capitalised_words", capitalised), ("coined_words", coined)):
        count = flags.count(True)  # the flags are bools
        if count:
            f[key] = float(count)
    return f


def phrase_features(
    words: list[str], s_idx: int, tf: Counter, cue_sents: Set[int], affinity: dict, cache: dict | None = None
) -> dict[str, float]:
    """The named features of one candidate phrase (``cache``: what its words add, kept between
    the phrases of one abstract)."""
    if cache is None:
        cache = {}
    infos = [cache[w] if w in cache else _word_info(w, tf, affinity, cache) for w in words]
    return _features([i for i in infos if i is not _JOIN_WORD], len(words), s_idx, cue_sents)


@lru_cache(maxsize=4)
def _context(plain: str) -> tuple[tuple, Counter, frozenset, tuple, dict]:
    """What every phrase of one abstract is scored against (computed once per abstract)."""
    found, counts = phrases_and_counts(plain)
    phrases = tuple(found)
    # each word once per occurrence: the runs themselves, not the longer phrases joined from them
    tf = Counter(counts)
    sentences = lexicon.split_sentences(plain)
    cue_sents = frozenset(i for i, (_o, s) in enumerate(sentences) if _CUE.search(s))
    return phrases, tf, cue_sents, sentences, {}


@lru_cache(maxsize=4)
def _scored(plain: str, budget: int) -> tuple[tuple[float, list[str], int, list[_WordInfo], str], ...]:
    """(score, words, sentence index, what its content words add, its words joined in lowercase)
    of every distinct candidate phrase of at most ``budget`` words with two content words or
    more, not all of them weak. A phrase never ends on a joining or break word (runs are made of
    neither, and a joined phrase ends on a run), so none needs trimming. A one-word phrase is
    passed over before it is looked up among those seen (none of several words has its key)."""
    phrases, tf, cue_sents, _sentences, cache = _context(plain)
    if not phrases:
        return ()
    model = load_model()
    weights, affinity = model.get("weights", _DEFAULT_WEIGHTS), model.get("affinity", {})
    wv = _weight_vector(weights)
    out = []
    seen: set[str] = set()
    get = cache.get
    for words, s_idx, _o in phrases:
        if not 1 < len(words) <= budget:
            continue  # one content word at most, or too long
        key = " ".join(words).lower()
        if key in seen:
            continue
        seen.add(key)
        content = [i for i in [get(w) or _word_info(w, tf, affinity, cache) for w in words] if i is not _JOIN_WORD]
        if len(content) < 2:
            continue
        score = _phrase_score(content, len(words), s_idx in cue_sents, s_idx, wv)
        if score is not None:
            out.append((score, words, s_idx, content, key))
    return tuple(out)


def _weight_vector(weights: dict[str, float]) -> tuple:
    """The weights of :func:`_features`' named features, as :func:`_phrase_score` reads them."""
    g = weights.get
    return (
        g("bias", 0.0), g("centrality_sum", 0.0), g("centrality_mean", 0.0), g("title_affinity_sum", 0.0),
        g("title_affinity_mean", 0.0), g("title_affinity_first", 0.0), g("title_affinity_last", 0.0),
        tuple(g(k, 0.0) for k in _WORDS_KEYS), g("joined", 0.0), g("in_cue_sentence", 0.0),
        tuple(g(k, 0.0) for k in _SENTENCE_KEYS), g("weak_words", 0.0), g("capitalised_words", 0.0),
        g("coined_words", 0.0),
    )


def _phrase_score(content: list[_WordInfo], n_words: int, in_cue: bool, s_idx: int, wv: tuple) -> float | None:
    """``_score(_features(infos, n_words, s_idx, cue_sents), weights)`` without the dict: the
    same products added up in the same order (a weight times 1.0 is the weight); None when every
    content word is weak (such a phrase is no candidate). ``content`` has two words or more."""
    logs, aff, weak, capitalised, coined = zip(*content)
    weak_count = weak.count(True)
    n = len(content)
    if weak_count == n:
        return None
    (w_bias, w_cent, w_cent_mean, w_aff, w_aff_mean, w_aff_first, w_aff_last, w_words, w_joined, w_cue,
     w_sentence, w_weak, w_capitalised, w_coined) = wv
    cent = sum([x for x in logs if x is not None])
    aff_sum = sum(aff)
    terms = [w_bias]
    if cent:
        terms.append(w_cent * cent)
        terms.append(w_cent_mean * (cent / n))  # not zero when the sum is not
    if aff_sum:
        terms.append(w_aff * aff_sum)
    v = aff_sum / n
    if v:
        terms.append(w_aff_mean * v)
    if aff[0]:
        terms.append(w_aff_first * aff[0])
    if aff[-1]:
        terms.append(w_aff_last * aff[-1])
    terms.append(w_words[min(n, 8)])
    if n < n_words:
        terms.append(w_joined)
    if in_cue:
        terms.append(w_cue)
    terms.append(w_sentence[min(s_idx, 4)])
    if weak_count:
        terms.append(w_weak * float(weak_count))
    count = capitalised.count(True)
    if count:
        terms.append(w_capitalised * float(count))
    count = coined.count(True)
    if count:
        terms.append(w_coined * float(count))
    return sum(terms)


def _score(features: dict[str, float], weights: dict[str, float]) -> float:
    """``sum(weights.get(k, 0.0) * v for k, v in features.items())``, the same sum in the same
    order, added up without a Python-level loop."""
    return sum(map(operator.mul, map(weights.get, features, repeat(0.0)), features.values()))


def scored_phrases(plain: str, budget: int) -> list[tuple[float, list[str], dict[str, float], int]]:
    """(score, words, features, sentence index) of every distinct candidate phrase of at most
    ``budget`` words (the features for training; see :func:`ranked_phrases`)."""
    _phrases, _tf, cue_sents, _sentences, _cache = _context(plain)
    return [(score, words, _features(infos, len(words), s_idx, cue_sents), s_idx) for score, words, s_idx, infos, _key in _scored(plain, budget)]


def ranked_phrases(plain: str, budget: int) -> list[tuple[float, list[str], int]]:
    """(score, words, sentence index) of every distinct candidate phrase of at most ``budget``
    words, in the order of the text (:func:`scored_phrases` without the features)."""
    return [(score, words, s_idx) for score, words, s_idx, _content, _key in _scored(plain, budget)]


_DEFAULT_WEIGHTS = {"centrality_sum": 1.0, "words_2": -0.5, "in_cue_sentence": 0.8, "weak_words": -0.6}


def score_words(words: list[str], plain: str) -> float:
    """The model's score for any word sequence as a title phrase of this abstract (so a phrase
    made by other rules can be weighed against the abstract's own phrases)."""
    _phrases, tf, cue_sents, sentences, cache = _context(plain)
    model = load_model()
    weights, affinity = model.get("weights", _DEFAULT_WEIGHTS), model.get("affinity", {})
    said = [w for w in words if w.lower() not in BREAK]
    s_idx = 0
    if said:
        at = plain.find(said[0])
        s_idx = next((i for i, (o, s) in enumerate(sentences) if o <= at < o + len(s)), 0) if at >= 0 else 0
    kept = [w for w in words if w.lower() not in BREAK or w.lower() in JOIN]
    f = phrase_features(kept, s_idx, tf, cue_sents, affinity, cache)
    return _score(f, weights)


def best_phrase(plain: str, budget: int, *, avoid: str = "", min_words: int = 4, reject=None) -> list[str]:
    """The best-scoring phrase of the abstract (see the module docstring), or []. A phrase
    shorter than ``min_words`` is joined to the best phrase of its sentence that shares no word
    with it ("multi-agent clinical diagnosis" + "for" + "large language models") when the budget
    allows, else passed over; ``reject`` passes over phrases the caller cannot use."""
    avoid = avoid.lower()
    ranked = sorted(
        ((score, words, s_idx) for score, words, s_idx, _c, key in _scored(plain, budget)
         if not avoid or (avoid not in key and key not in avoid)),
        key=lambda sw: -sw[0],
    )
    for _score, words, _s_idx in ranked[:20]:
        if len(words) >= min_words and not (reject and reject(words)):
            return words
    return []
