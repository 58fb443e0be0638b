"""The direction of "X for Y": the "for" relations an abstract states, so that a title never joins
two of its phrases the wrong way round ("distributed training for model merging" when the
abstract says merging is a strategy for distributed training).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..lexicon import split_sentences
from .constants import OPPOSITE_MODIFIERS, REVERSE_MAX_DF
from .forms import common_words, not_for_subjects
from .links import reads_reversed
from .text import head_noun, singular


_FOR_SPLIT = re.compile(r"\bfor\b")
_CONTENT_TOKEN = re.compile(r"[a-z][a-z0-9]{3,}")
# where the object of a "for" ends: punctuation, or a word that opens a new clause or phrase
_OBJECT_END = re.compile(r"[,;:()]|\b(?:and|but|which|that|where|while|whereas|by|with|using|via|through|is|are|was|were)\b")


@lru_cache(maxsize=4)
def _for_relations(plain: str) -> tuple[tuple[tuple[frozenset[str], frozenset[str]], ...], frozenset[str]]:
    """(the content words up to six before, back to a comma; up to five of its object, read to
    where the phrase ends) of every "for" of the abstract, within its sentence: the "X for Y"
    relations the abstract itself states; and every word that comes after one."""
    out = []
    for _o, sent in split_sentences(plain):
        low = sent.lower()
        for m in _FOR_SPLIT.finditer(low):
            head = low[max(0, m.start() - 80) : m.start()]
            before = _CONTENT_TOKEN.findall(head[head.rfind(",") + 1 :])[-6:]
            tail = low[m.end() : m.end() + 80]
            end = _OBJECT_END.search(tail)
            after = _CONTENT_TOKEN.findall(tail[: end.start()] if end else tail)[:5]
            out.append((frozenset(before), frozenset(after)))
    return tuple(out), frozenset(w for _b, after in out for w in after)


def befores_of(made: list[str], plain: str) -> tuple[frozenset[str], ...]:
    """The words before each "for" of the abstract that ``made``'s head noun follows (and does
    not also precede)."""
    relations, after_any = _for_relations(plain)
    made_head = head_noun(made)
    if not made_head:
        return ()
    forms = {made_head, made_head[:-1] if made_head.endswith("s") else made_head + "s"}
    if forms.isdisjoint(after_any):
        return ()  # the quick answer for nearly every phrase
    # a phrase with modifiers must share one with the object too: "models" alone is not "generative models"
    others = {w for x in made for w in _CONTENT_TOKEN.findall(x.lower())} - forms
    return tuple(
        before
        for before, after in relations
        if not forms.isdisjoint(after) and forms.isdisjoint(before) and (not others or not others.isdisjoint(after))
    )


def precedes_a_for(purpose: list[str], befores: tuple[frozenset[str], ...]) -> bool:
    """Does a rare word of ``purpose`` come before one of those "for"s?"""
    if not befores:
        return False
    df = common_words()
    words = {w for x in purpose for w in _CONTENT_TOKEN.findall(x.lower()) if df.get(w, 0) < REVERSE_MAX_DF}
    return any(not words.isdisjoint(before) for before in befores)


def says_the_reverse(made: list[str], purpose: list[str], plain: str) -> bool:
    """Does the abstract say "<purpose> ... for <made>" ("merging-inspired aggregation is an
    effective strategy for low-communication distributed training"), so that "<made> for
    <purpose>" ("distributed training for model merging techniques") joins them the wrong way?
    Or is the purpose of the made thing's own kind, what it replaces (:func:`replaced`)?"""
    return precedes_a_for(purpose, befores_of(made, plain)) or reads_reversed(made, purpose, plain) or replaced(made, purpose)


def replaced(made: list[str], purpose: list[str]) -> bool:
    """Is ``purpose`` headed by the made thing's own head noun, in either number ("<a
    shuffle-exchange network> for convolutional neural networks", "<a forest model> for diffusion
    models")? A thing of the same kind is what it replaces or tells apart, not what it serves."""
    target = head_noun(purpose)
    head = head_noun(made)
    return bool(target) and bool(head) and singular(target) == singular(head)


def means_for(made: list[str]) -> bool:
    """Can ``made`` come before a "for" we compose: is its head noun (in either number) not a
    word real titles seldom put before "for" (:func:`.forms.not_for_subjects`, learned: "data",
    "effects", "behavior"; "framework", "filter" and "priors" often come there)? "Expert
    reviewer behavior for novelty assessment" joins two phrases the abstract never relates."""
    head = head_noun(made)
    if not head:
        return False
    seldom = not_for_subjects()
    return head not in seldom and (head[:-1] if head.endswith("s") else head + "s") not in seldom


def opposite_said(words: list[str], plain: str) -> bool:
    """Does ``words`` carry a modifier whose opposite the abstract says more often than the
    modifier itself (:data:`.constants.OPPOSITE_MODIFIERS`: "exact inference" of a method that
    approximates)?"""
    contradicted = contradicted_modifiers(plain)
    return bool(contradicted) and not contradicted.isdisjoint(w.lower() for w in words)


@lru_cache(maxsize=4)
def contradicted_modifiers(plain: str) -> frozenset[str]:
    """The modifiers of :data:`.constants.OPPOSITE_MODIFIERS` whose opposite the abstract says
    more often than the modifier (none for nearly every abstract)."""
    said = _MODIFIER_WORDS.findall(plain.lower())
    if not said:
        return frozenset()
    return frozenset(w for w, opposite in OPPOSITE_MODIFIERS.items()
                     if sum(x.startswith(opposite) for x in said) > sum(x.startswith(w) for x in said))


# every word starting with a modifier of the table or its opposite's stem ("exactly", "approximation")
_STEMS = "|".join(sorted(set(OPPOSITE_MODIFIERS) | set(OPPOSITE_MODIFIERS.values())))
_MODIFIER_WORDS = re.compile(rf"\b(?:{_STEMS})\w*")
