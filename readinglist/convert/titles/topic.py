"""The paper's topic: a term the abstract coins, else the subject of its first sentence, or the
open question it poses; and joining a short phrase to that topic ("<phrase> for <topic>") when
the abstract does not say the reverse.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..lexicon import DANGLING, split_sentences
from .constants import CUT_ANY, MAX_WORDS, NOT_IN_TOPIC, NOT_TOPIC_START, PRONOUNS, SUBORDINATE, TOPIC_JOIN_MAX
from .forms import proper_words
from .relations import says_the_reverse


_OPEN_QUESTION = re.compile(
    r"\b((?:how|whether|why|what)\s+[^,.;:]{5,100}?)\s+(?:remains?|is|are)\s+(?:(?:still|largely|poorly|not\s+well|an?|yet)\s+)*"
    r"(?:open|unclear|unknown|understood|unexplored|unanswered)\b"
    r"|\bit\s+(?:is|remains)\s+(?:still\s+|largely\s+)?(?:unclear|unknown|not\s+known)\s+((?:how|whether|why|what)\s+[^,.;:]{5,100})"
)


def open_question(text: str) -> str | None:
    """"how model capacity shapes grokking remains an open question" -> "how model capacity
    shapes grokking" (the last such question before the contribution)."""
    if not any(w in text for w in ("open", "unclear", "unknown", "understood", "unexplored", "unanswered")):
        return None
    found = None
    for m in _OPEN_QUESTION.finditer(text):
        found = m.group(1) or m.group(2)
    if found is None:
        return None
    found = found.strip()
    if any(w.lower() in PRONOUNS for w in found.split()) or len(found.split()) > 12:
        return None
    return found


# The subject of the first sentence, read as the paper's topic.
_TOPIC_NP = re.compile(
    r"^(?:(?:[Tt]he|[Aa]n?)\s+)?(?P<np>(?:[A-Za-z][\w'\u2019-]*\s+){0,5}?[a-z][\w-]*)(?:\s+\([^()]*\))?\s+"
    r"(?P<verb>has|have|is|are|was|were|aims?|remains?|involves?|relies|rely|seeks?|offers?|enables?|promises?|raises?"
    r"|faces?|requires?|suffers?|can|often|typically|increasingly|usually|commonly|provides?|arises?|explains?|asks?"
    r"|depends?|struggles?|lacks?|plays?|dominates?|underpins?|allows?|must|tends?|continues?|attracts?|focus(?:es)?)\b"
)
_USED_AS = re.compile(r"\s+(?:(?:increasingly|widely|commonly|often|now|being)\s+)*used\s+as\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})\b")
_RELATIONAL = re.compile(
    r"^(?:(?:existing|prior|current|recent|standard|classical|central|main|key|the|a|an)\s+)*"
    r"(?:accounts?|explanations?|theories|validity|reliability|success|goal|understanding|study|studies|analysis|analyses)"
    r"\s+of\s+(?P<x>.+)$",
    re.IGNORECASE,
)
# a first sentence's subject that says what drives the need for the work, not what it is about
_DRIVER = re.compile(
    r"^(?:(?:the|a|an|rapid|recent|remarkable|growing|increasing|widespread|explosive|unprecedented|continuous|swift|fast)\s+)*"
    r"(?:advancements?|advances|progress|rise|proliferation|growth|popularity|surge|spread)\s+of\s",
    re.IGNORECASE,
)


def drives(phrase: str) -> bool:
    """Does the phrase say what drives the need for a work ("the rapid advancement of X", "the
    growing popularity of X"), not what the work is or is about?"""
    return bool(_DRIVER.match(phrase))


_TERM = re.compile(
    r"\bwe\s+(?:term|call|refer\s+to\s+as|dub)\s+(?!(?:it|this|them|these|that|the|a|an)\b)"
    r"([a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})(?=\s*[,.;:)]|$)"
)


@lru_cache(maxsize=16)
def topic_phrase(plain: str) -> str | None:
    """What the paper is about: a term it coins ("a process we term model incrimination"), else
    the subject of the first sentence ("Knowledge editing has emerged ...", "Existing accounts of
    grokking explain ..." -> "grokking", "Since ..., evaluating X is critical" -> "evaluating X");
    none when that subject says what drives the need for the work ("The rapid advancement of
    deepfake generation has intensified the need for detection", :func:`drives`)."""
    if "we term" in plain or "we call" in plain or "refer to as" in plain or "we dub" in plain:
        m = _TERM.search(plain)
        if m:
            return m.group(1)
    sents = split_sentences(plain)
    if not sents:
        return None
    first = sents[0][1]
    segments = [first]
    if first.split(" ", 1)[0].lower().strip(",") in SUBORDINATE:
        segments = first.split(", ")[1:]  # the main clause after "Since ..., "
    for seg in segments:
        topic = _topic_of(seg)
        if topic:
            return topic
    return None


def _topic_of(segment: str) -> str | None:
    m = _TOPIC_NP.match(segment)
    if not m:
        return None
    np = m.group("np")
    if " such as " in f" {np} ":
        np = f" {np} ".split(" such as ")[0].strip()
    if drives(np):
        return None  # "The rapid advancement of deepfake generation has intensified the need for detection": why, not what
    rel = _RELATIONAL.match(np)
    if rel:
        np = rel.group("x")
    words = np.split()
    if not words or len(words) > 6 or words[0].lower() in NOT_TOPIC_START:
        return None
    if any(w.lower() in NOT_IN_TOPIC for w in words):
        return None
    if m.group("verb") in {"is", "are"}:
        used = _USED_AS.match(segment, m.end())
        if used and used.group(1).split()[-1] not in DANGLING:
            np = f"{np} as {used.group(1)}"
    first = np.split(" ", 1)[0]
    if re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)*", first) and first.lower() not in proper_words():
        np = np[:1].lower() + np[1:]
    return np


def phrase_with_topic(phrase: list[str], plain: str, budget: int = MAX_WORDS - 3) -> list[str]:
    """A short phrase that does not say the paper's topic gets it ("a three-part solution to
    extrapolation errors" + "for deep offline reinforcement learning")."""
    if len(phrase) > TOPIC_JOIN_MAX or " for " in f" {' '.join(phrase).lower()} ":
        return phrase
    topic = topic_phrase(plain)
    if not topic:
        return phrase
    topic_words = topic.split()
    if len(topic_words) < 2:
        return phrase  # "researchers", "robustness": too little to say what the paper is about
    if says_topic(phrase, topic) or len(phrase) + 1 + len(topic_words) > budget:
        return phrase
    if says_the_reverse(phrase, topic_words, plain):
        return phrase
    return phrase + ["for"] + topic_words


def says_topic(phrase: list[str], topic: str) -> bool:
    """Does ``phrase`` say the topic already ("... of LLMs" and "large language models", "...
    capacity of GNNs" and "graph neural networks")? Then "for <topic>" is not added."""
    _words, content, initials = _topic_parts(topic)
    said = {w.lower().strip(",;:") for w in phrase}
    said |= {part for w in said if "-" in w for part in w.split("-")}
    return bool(content & said) or not initials.isdisjoint(said)


_TOPIC_WORD = re.compile(r"[\w-]{4,}")


@lru_cache(maxsize=16)
def _topic_parts(topic: str) -> tuple[list[str], frozenset[str], frozenset[str]]:
    """(the topic's words, its lowercase words of four characters or more, its initials and
    their plural): what :func:`_phrase_with_topic` checks a phrase against, once per topic (the
    words are copied into each joined phrase, never changed)."""
    topic_words = topic.split()
    initials = "".join(w[:1] for w in topic_words if w.lower() not in DANGLING).lower()
    return topic_words, frozenset(w.lower() for w in _TOPIC_WORD.findall(topic)), frozenset((initials, initials + "s"))


def restates(desc: list[str], topic: str) -> bool:
    """Does the description already say the topic's core ("a distillation recipe" and
    "knowledge distillation from large teachers")? The core is the topic before a preposition."""
    said = {w.lower().strip(",;:") for w in desc}
    for w in topic.lower().split():
        if w in CUT_ANY:
            break
        if len(w) >= 4 and w in said:
            return True
    return False
