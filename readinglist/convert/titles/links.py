"""Which way two phrases of one sentence are related, read from the words between them
(learned: ``data/for_links.json``, :mod:`readinglist.convert.train_for_links`).

Of the real titles "<P> for <Q>" whose abstract has P's and Q's head nouns in one sentence, the
abstract names P first in about three of four; the words between the two heads shift that
share: "Q via P", "Q by P", "Q using P", "Q based on P" name what the title puts before "for"
second, "P enables Q", "P to improve Q" first. A candidate "<a> for <b>" whose abstract says
"<b> ... to enable <a>" ("graph rewrites that enable message passing") runs against the
learned share in that sentence: the relation is the other way round.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from ..lexicon import split_sentences
from .constants import REVERSED_BELOW
from .text import head_noun

#: Tokens read: words (lowercase, hyphenated whole) and the marks that end a clause.
TOKEN = re.compile(r"[a-z0-9][a-z0-9\-]*|[,;:()\[\]]")
#: The heads of the two phrases are at most this many tokens apart.
WINDOW = 16
#: Pseudo-counts at the overall share that each word's share is smoothed with.
SMOOTH = 5.0
_BREAK = frozenset(",;:()[]")


def forms(head: str) -> frozenset[str]:
    """A head noun in both numbers ("model", "models")."""
    return frozenset({head, head[:-1] if head.endswith("s") else head + "s"}) if head else frozenset()


def link(tokens: list[str], first: frozenset[str], second: frozenset[str], before_first: str = "",
         before_second: str = "") -> tuple[bool, list[str]] | None:
    """The nearest co-occurrence of a form of ``first`` and a form of ``second`` in one
    sentence's tokens (each after its word ``before_*`` when one is given: the phrase's own
    modifier, so that "system" of "system design" is not the head of "multi-agent system"), at
    most ``WINDOW`` apart with no clause mark between: (``first`` comes first, the words
    between), or None."""
    at_first = _at(tokens, first, before_first)
    at_second = _at(tokens, second, before_second) if at_first else []
    best: tuple[int, int] | None = None
    for i in at_first:
        for j in at_second:
            if i != j and abs(i - j) <= WINDOW and (best is None or abs(i - j) < abs(best[0] - best[1])):
                gap = tokens[min(i, j) + 1 : max(i, j)]
                if _BREAK.isdisjoint(gap):
                    best = (i, j)
    if best is None:
        return None
    i, j = best
    return i < j, tokens[min(i, j) + 1 : max(i, j)]


def _at(tokens: list[str], heads: frozenset[str], before: str) -> list[int]:
    return [i for i, t in enumerate(tokens) if t in heads and (not before or (i and tokens[i - 1] == before))]


def share_first(gap: list[str], model: dict) -> float:
    """The learned probability that the phrase named first in the sentence is the one a title
    puts before "for", given the words between (naive Bayes over the words, each share smoothed
    towards the overall share)."""
    p_all, q_all = model.get("prior", (3, 1))
    prior = p_all / (p_all + q_all)
    words = model.get("words", {})
    logit = math.log(prior / (1 - prior))
    total = logit
    for w in set(gap):
        counts = words.get(w)
        if counts:
            p, q = counts
            share = (p + SMOOTH * prior) / (p + q + SMOOTH)
            total += math.log(share / (1 - share)) - logit
    return 1.0 / (1.0 + math.exp(-total))


@lru_cache(maxsize=4)
def _sentences(plain: str) -> tuple[str, ...]:
    """The abstract's sentences, lowercase."""
    return tuple(sent.lower() for _o, sent in split_sentences(plain))


@lru_cache(maxsize=256)
def _tokens(sentence: str) -> list[str]:
    return TOKEN.findall(sentence)


def reads_reversed(a: list[str], b: list[str], plain: str) -> bool:
    """Does a sentence of the abstract relate the phrases ``a`` and ``b`` so that real titles
    would put ``b`` before "for", not ``a`` (learned share below ``REVERSED_BELOW``)? Each phrase
    is found by its head noun after the word before it (:func:`_heads`)."""
    model = load_model()
    if not model:
        return False
    sentences = _sentences(plain)
    for a_head, a_before in _heads(tuple(a)):
        fa = forms(a_head)
        with_a = [sent for sent in sentences if a_head and a_head[:-1] in sent]  # each form holds all but its last letter
        for b_head, b_before in _heads(tuple(b)) if with_a else ():
            fb = forms(b_head)
            for sent in with_a if a_head != b_head else ():
                if b_head[:-1] not in sent:
                    continue  # nearly every pair: no sentence names both
                tokens = _tokens(sent)
                found = link(tokens, fa, fb, a_before, b_before)
                if found is not None:
                    a_first, gap = found
                    share = share_first(gap, model)
                    if (share if a_first else 1.0 - share) < REVERSED_BELOW:
                        return True
    return False


@lru_cache(maxsize=1024)
def _heads(words: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """A phrase's head noun (:func:`.text.head_noun`) and the word before it, lowercase; and when
    two modifiers come before the head, the last of them and the word before it too: "sparse
    wavelet fusion scheme" is spoken of as "sparse wavelet fusion"."""
    head = head_noun(list(words))
    low = [w.lower().strip(",;:") for w in words]
    at = low.index(head) if head in low else -1
    if at < 0:
        return ()
    found = (head, low[at - 1] if at > 0 and low[at - 1] not in _ARTICLES else "")
    return (found, (low[at - 1], low[at - 2])) if at >= 2 and low[at - 2] not in _ARTICLES else (found,)


_ARTICLES = frozenset("a an the".split())


@lru_cache(maxsize=1)
def load_model() -> dict:
    from ..models import DATA, read_model

    return read_model(DATA / "for_links.json")
