"""What the work is for, as against what the abstract opens with for other reasons: the phrase
after "for" in a composed title ("<a> for <b>") comes from the opening sentences, which also
hold the motivation ("plays a vital role in global food security"), its consequences and
examples; the task or domain the work serves is said again, or said as the opening's subject,
as a term the abstract abbreviates, or as what something is for.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..lexicon import split_sentences
from .constants import OPENING_SENTENCES, SUBORDINATE
from .text import head_noun
from .topic import topic_phrase

_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")
_ARTICLES = re.compile(r"(?:\b(?:the|a|an)\s+)+$")
_ABBREVIATED = re.compile(r"\s*\(")


@lru_cache(maxsize=4)
def _sentences(plain: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each sentence lowercased, with its words (hyphenated ones also by their parts)."""
    out = []
    for _o, sent in split_sentences(plain):
        low = sent.lower()
        words = set(_WORD.findall(low))
        words |= {part for w in words if "-" in w for part in w.split("-") if part}
        out.append((low, frozenset(words)))
    return tuple(out)


def said_again(words: list[str], plain: str, sentence: int) -> bool:
    """Does the abstract say the head noun of ``words`` (in either number) again in a sentence
    after ``sentence`` and after its opening (:data:`.constants.OPENING_SENTENCES`)?"""
    head = head_noun(words)
    if not head:
        return False
    forms = {head, head[:-1] if head.endswith("s") else head + "s"}
    return any(not forms.isdisjoint(said) for _low, said in _sentences(plain)[max(sentence + 1, OPENING_SENTENCES):])


def served(words: list[str], plain: str, sentence: int) -> bool:
    """May ``words``, said in sentence ``sentence``, follow "for" in a title: is it what the work
    serves rather than the opening's motivation, consequence or example? It is when the abstract
    says its head again (:func:`said_again`), or says it as the first sentence's subject or the
    paper's topic (:func:`.topic.topic_phrase`), gives it
    an abbreviation ("federated learning (FL)") or puts "for" before it. Measured on train rows
    0-23,999 (the candidate phrases of the opening sentences in the 11,409 abstracts whose real
    title is "<P> for <Q>"): 3% of the others head Q, 26% of these; the others hold a tenth of
    the phrases that do."""
    if said_again(words, plain, sentence):
        return True
    sents = _sentences(plain)
    if sentence >= len(sents):
        return False
    low = sents[sentence][0]
    said = " ".join(words).lower()
    at = low.find(said)
    if at < 0:
        return False
    if _ABBREVIATED.match(low, at + len(said)):
        return True
    topic = topic_phrase(plain)  # "Since ..., evaluating X from video is critical"
    if topic and said in topic.lower():
        return True
    before = _ARTICLES.sub("", low[max(0, at - 40) : at]).split()
    if not before:
        return sentence == 0
    # the subject of the first sentence's main clause ("Since ..., evaluating X is critical")
    return before[-1] == "for" or (sentence == 0 and before[-1].endswith(",") and low.split(" ", 1)[0] in SUBORDINATE)

