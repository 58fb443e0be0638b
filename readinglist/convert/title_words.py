"""Which words of an abstract will its title use? A learned per-word probability, and the
expected ROUGE-1 of a candidate title computed from it.

Real titles reuse a few of the abstract's words: the task or domain said in the first sentence,
the name, the contribution's head nouns. :func:`word_probabilities` gives every content word of
an abstract (lowercase alphanumeric tokens without stopwords, as ROUGE counts them) the
probability that the paper's title contains it, from a logistic regression over named features
(how often and how early the word occurs, whether the first or the contribution sentence says it,
whether it is part of the name, how often titles use it when abstracts do, how rare it is).
:func:`expected_rouge` scores a candidate title with those probabilities: the expected overlap
2 * sum(p) over (title words + expected title length), the F1 of ROUGE-1 taken in expectation.

Weights and per-word statistics are learned from real papers by
``python -m readinglist.convert.train_title_words`` (``data/title_word_model.json``, with the
corpus hash and the command). Pure Python at run time, linear in the abstract.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from functools import lru_cache

from . import lexicon
from .models import DATA, read_model

__all__ = ["tokens", "word_features", "word_probabilities", "expected_rouge", "load_model"]

# The stopwords ROUGE-1 leaves out (so a title's expected score counts what the score counts).
STOPWORDS = frozenset(
    """a an the and or but nor of to in on at by for from with without into onto over under
    via as than then that this these those which who whom whose what when where why how is are was were be
    been being do does did has have had it its we our us you your they their them he she his her i me my
    can could may might will would shall should must not no yes so such also both either neither each any
    all some more most less very too just only own same other between through during before after above
    below up down out off again further once here there about against among per vs versus toward towards
    upon within""".split()
)
_TOKEN = re.compile(r"[a-z0-9]+")
_CONTRIBUTION = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:paper|work))\s+(?:\w+\s+)?"
    r"(?:introduce|propose|present|develop|design|build|construct|create|release|study|investigate|formali[sz]e|show)",
)
_MODEL_PATH = DATA / "title_word_model.json"


def tokens(text: str) -> list[str]:
    """Lowercase alphanumeric tokens without stopwords (as ROUGE-1 counts them)."""
    low = text.lower()
    if not low.isascii():
        low = unicodedata.normalize("NFKC", low)
    return [t for t in _TOKEN.findall(low) if t not in STOPWORDS]


@lru_cache(maxsize=1)
def load_model() -> dict:
    """Learned weights, per-word title affinity and document frequency (``data/title_word_model.json``)."""
    return read_model(_MODEL_PATH)


#: The named features of a word, in the order :func:`_feature_rows` gives their values.
FEATURES = (
    "bias", "log_tf", "once", "first_position", "sentence_share", "in_first_sentence", "in_contribution_sentence",
    "no_contribution_sentence", "in_name", "affinity", "known_word", "idf", "capitals", "digit", "short",
    "affinity_x_log_tf", "first_x_affinity", "in_rule_title",
)
_CAPITALISED = re.compile(r"\b[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b")  # a capital after the first letter


def _feature_rows(plain: str, name: str | None, model: dict, rule_title: str = "") -> list[tuple[str, tuple[float, ...]]]:
    """(word, its feature values in the order of :data:`FEATURES`) for every distinct content word."""
    affinity: dict[str, float] = model.get("affinity", {})
    df: dict[str, int] = model.get("df", {})
    docs = max(1, model.get("docs", 1))
    rare_affinity = affinity.get("<rare>", -3.0)
    sentences = lexicon.split_sentences(plain)
    if not sentences:
        sentences = ((0, plain),)
    n_sent = len(sentences)
    name_tokens = set(tokens(name)) if name else set()
    rule_tokens = set(tokens(rule_title))
    tf: dict[str, int] = {}
    first: dict[str, int] = {}
    sent_count: dict[str, int] = {}
    first_sentence: set[str] = set()
    contribution_words: set[str] = set()
    capital: set[str] = set()
    contribution = -1
    pos = 0
    for s_idx, (_o, sent) in enumerate(sentences):
        toks = tokens(sent)
        for t in toks:
            tf[t] = tf.get(t, 0) + 1
            if t not in first:
                first[t] = pos
            pos += 1
        distinct = set(toks)
        for t in distinct:
            sent_count[t] = sent_count.get(t, 0) + 1
        if s_idx == 0:
            first_sentence = distinct
        if contribution < 0 and _CONTRIBUTION.search(sent.lower()):
            contribution = s_idx
            contribution_words = distinct
        for w in _CAPITALISED.findall(sent):
            capital.update(tokens(w))
    total = max(1, pos)
    no_contribution = 1.0 if contribution < 0 else 0.0
    log_docs = math.log(docs)
    out: list[tuple[str, tuple[float, ...]]] = []
    for t, count in tf.items():
        log_tf = math.log(count)
        aff = affinity.get(t)
        known = 1.0
        if aff is None:
            aff, known = rare_affinity, 0.0
        in_first = 1.0 if t in first_sentence else 0.0
        out.append((t, (
            1.0, log_tf, 1.0 if count == 1 else 0.0, first[t] / total, sent_count[t] / n_sent, in_first,
            1.0 if t in contribution_words else 0.0, no_contribution, 1.0 if t in name_tokens else 0.0,
            aff, known, log_docs - math.log(df.get(t, 0) + 1), 1.0 if t in capital else 0.0,
            1.0 if not t.isalpha() and any(c.isdigit() for c in t) else 0.0, 1.0 if len(t) <= 2 else 0.0,
            aff * log_tf, in_first * aff, 1.0 if t in rule_tokens else 0.0,
        )))
    return out


def word_features(plain: str, name: str | None, model: dict | None = None, rule_title: str = "") -> dict[str, dict[str, float]]:
    """The named features of every distinct content word of the abstract (for training);
    ``rule_title``: the title the rules made (:func:`readinglist.convert.titles.rule_made_title`)."""
    if model is None:
        model = load_model()
    return {t: dict(zip(FEATURES, values)) for t, values in _feature_rows(plain, name, model, rule_title)}


_STATIC: dict[str, tuple[float, float]] = {}  # word -> (its affinity, the part of z that depends on the word alone)


@lru_cache(maxsize=1)
def _constants() -> tuple[dict[str, float], dict[str, float], dict[str, int], float, float] | None:
    """(the weights of :data:`FEATURES`, affinity, document frequency, log of the document
    count, the affinity of a rare word) of the loaded model, or None when it has no weights."""
    model = load_model()
    weights: dict[str, float] = model.get("weights", {})
    if not weights:
        return None
    w = dict.fromkeys(FEATURES, 0.0)
    w.update((k, v) for k, v in weights.items() if k in w)
    affinity: dict[str, float] = model.get("affinity", {})
    return w, affinity, model.get("df", {}), math.log(max(1, model.get("docs", 1))), affinity.get("<rare>", -3.0)


def _static_part(t: str, w: dict[str, float], affinity: dict[str, float], df: dict[str, int], log_docs: float, rare_affinity: float) -> tuple[float, float]:
    """(the word's affinity, the part of z that depends on the word alone), kept in :data:`_STATIC`."""
    aff = affinity.get(t)
    z0 = w["known_word"]
    if aff is None:
        aff, z0 = rare_affinity, 0.0
    z0 += w["affinity"] * aff + w["idf"] * (log_docs - math.log(df.get(t, 0) + 1))
    if not t.isalpha() and any(c.isdigit() for c in t):
        z0 += w["digit"]
    if len(t) <= 2:
        z0 += w["short"]
    _STATIC[t] = got = (aff, z0)
    return got


def sentence_tokens(plain: str, low: str, sentences: tuple[tuple[int, str], ...]) -> list[list[str]]:
    """``[tokens(sent) for _offset, sent in sentences]`` for sentences of ``plain`` (``low``: it
    lowercased): an ASCII text's sentences are tokenised in place in ``low`` (no normalisation,
    and lowercasing keeps every offset)."""
    if not plain.isascii():
        return [tokens(sent) for _offset, sent in sentences]
    findall, stop = _TOKEN.findall, STOPWORDS
    return [[t for t in findall(low, offset, offset + len(sent)) if t not in stop] for offset, sent in sentences]


@lru_cache(maxsize=8)
def word_probabilities(plain: str, name: str | None, rule_title: str = "") -> dict[str, float]:
    """Probability that the paper's title uses each content word of the abstract: the logistic
    regression over :data:`FEATURES`, the same sum as over :func:`word_features`, with the part
    that depends on the word alone (affinity, document frequency, form) worked out once per word.
    Each word's z is added up in the order of :func:`word_features`' sum (the per-abstract terms,
    then the first sentence, the contribution sentence, the name, capitals, the rule-made title)."""
    constants = _constants()
    if constants is None:
        return {}
    w, affinity, df, log_docs, rare_affinity = constants
    sentences = lexicon.split_sentences(plain) or ((0, plain),)
    n_sent = len(sentences)
    every: list[str] = []
    sent_count: Counter = Counter()
    first_sentence: set[str] = set()
    contribution_words: set[str] = set()
    low = plain.lower()
    cue = _CONTRIBUTION.search(low) if len(low) == len(plain) else None
    contribution = -1
    for s_idx, ((offset, sent), toks) in enumerate(zip(sentences, sentence_tokens(plain, low, sentences))):
        every += toks
        distinct = set(toks)
        sent_count.update(distinct)
        if s_idx == 0:
            first_sentence = distinct
        if cue is not None and contribution < 0 and cue.start() < offset + len(sent):
            contribution = s_idx
            contribution_words = distinct
    if cue is None:  # lowercasing changed the length: sentence by sentence
        for s_idx, (_o, sent) in enumerate(sentences):
            if _CONTRIBUTION.search(sent.lower()):
                contribution, contribution_words = s_idx, set(tokens(sent))
                break
    capital = set(tokens(" ".join(_CAPITALISED.findall(plain)))) if not plain.islower() else set()
    tf = Counter(every)
    first = dict(zip(reversed(every), range(len(every) - 1, -1, -1)))  # each word's first position
    pos = len(every)
    name_tokens = set(tokens(name)) if name else set()
    rule_tokens = set(tokens(rule_title))
    base = w["bias"] + (w["no_contribution_sentence"] if contribution < 0 else 0.0)
    w_once, w_log_tf, w_aff_tf = w["once"], w["log_tf"], w["affinity_x_log_tf"]
    at_first = w["first_position"] / max(1, pos)
    per_sentence = w["sentence_share"] / n_sent
    w_in_first, w_first_aff = w["in_first_sentence"], w["first_x_affinity"]
    w_contribution, w_name, w_capitals, w_rule = w["in_contribution_sentence"], w["in_name"], w["capitals"], w["in_rule_title"]
    static = _STATIC
    if len(static) > 200_000:
        static.clear()
    for t in tf:
        if t not in static:
            _static_part(t, w, affinity, df, log_docs, rare_affinity)
    log = math.log
    z = {
        t: static[t][1] + base + at_first * first[t] + per_sentence * sent_count[t]
        + (w_once if c == 1 else (w_log_tf + w_aff_tf * static[t][0]) * log(c))
        for t, c in tf.items()
    }
    for t in first_sentence:
        z[t] += w_in_first + w_first_aff * static[t][0]
    keys = tf.keys()
    for words, weight in ((contribution_words, w_contribution), (name_tokens & keys, w_name),
                          (capital & keys, w_capitals), (rule_tokens & keys, w_rule)):
        for t in words:
            z[t] += weight
    exp = math.exp
    return {t: 1.0 / (1.0 + exp(-v)) if v > -700.0 else 0.0 for t, v in z.items()}


def expected_rouge(title: str, probs: dict[str, float], title_length: float | None = None) -> float:
    """Expected ROUGE-1 F1 of ``title`` against the (unseen) real title: 2 * sum of the
    probabilities of its distinct words over (its word count + the expected real title length)."""
    toks = tokens(title)
    if not toks:
        return 0.0
    if title_length is None:
        title_length = load_model().get("title_length", 8.0)
    hit = sum(probs.get(t, 0.0) for t in set(toks))
    return 2.0 * hit / (len(toks) + title_length)
