"""Where an abstract speaks of something that is *not* the paper's own contribution.

A title built from "an alternative to attaching fixed prompts", "improvements over recent
unsupervised single image techniques", "without any optimization", "such as headline
generation" or "While prior research has focused on predicting backchannel timing" says the
opposite of the paper, or names what it compares against, avoids or merely cites. The phrase
stage (:mod:`readinglist.convert.phrases`) asks :func:`in_scope` which tokens of a sentence sit
in such a scope, and never offers them as a title phrase (their words still
count towards how often the abstract repeats a word).

A scope opens at a word of negation, contrast, comparison, removal or example
(:data:`OPENERS`, and a few two-word ones such as "compared to", "rather than", "improvements
over", "argue against", "inspired by", "challenges the", and those learned from the training abstracts by
:mod:`.train_scope_openers`: "experiments on", "suffers from", "leading to"), or at a sentence that starts with a contrastive subordinate clause
("While ...,", "Unlike ...,"); it closes at the end of the clause: punctuation, or a word that
starts a new clause ("we", "which", "while", ...). A list of examples ("such as A, B, and C")
runs on over its commas.
"""

from __future__ import annotations

from .models import DATA, read_model


#: Words after which the next words are something the paper avoids, removes, compares against,
#: argues against, replaces, or gives as an example of prior work.
OPENERS = frozenset(
    """without unlike versus vs than instead outperform outperforms outperformed outperforming surpass
    surpasses surpassed surpassing beats avoid avoids avoided avoiding eliminate eliminates eliminated
    eliminating obviate obviates obviating bypass bypasses bypassing circumvent circumvents circumventing
    sidestep sidesteps sidestepping alleviate alleviates alleviating mitigate mitigates mitigating remove
    removes removing replace replaces replacing reduce reduces reducing existing prior previous conventional recent current
    traditional beyond""".split()
)
#: Openers of an example list, which runs on over commas ("such as A, B, and C").
LIST_OPENERS = frozenset("including e.g e.g. like".split())
#: (word before, word): two-word openers.
PAIRS = frozenset(
    {
        ("compared", "to"), ("compared", "with"), ("relative", "to"), ("contrast", "to"),
        ("opposed", "to"), ("contrary", "to"), ("alternative", "to"), ("alternatives", "to"), ("argue", "against"),
        ("argues", "against"), ("compared", "against"), ("improvement", "over"), ("improvements", "over"),
        ("gains", "over"), ("gain", "over"), ("advantage", "over"), ("advantages", "over"), ("improves", "over"),
        ("superiority", "over"), ("free", "of"), ("instead", "of"), ("rather", "than"), ("due", "to"),
        ("owing", "to"), ("because", "of"), ("inspired", "by"), ("motivated", "by"), ("challenge", "the"),
        ("challenges", "the"), ("challenging", "the"),
    }
) | frozenset(
    # learned (train_scope_openers: data/scope_openers.json): a word and a preposition after which the
    # abstract's phrase seldom reaches the real title ("due to", "suffers from", "evaluations on")
    tuple(pair.split()) for pair in read_model(DATA / "scope_openers.json").get("openers", {})
)
#: A sentence starting with one of these opens a scope up to its first comma.
SUBORDINATE_OPENERS = frozenset("while whereas although though despite unlike compared contrary because".split())
#: Words that end a scope: the start of a new clause.
CLOSERS = frozenset("we which that while whereas but our this these it they by to".split())
_CLOSE_PUNCT = frozenset(";:.!?()[]{}")
# Every scope starts at a word of one of these (a sentence's first word, or an opener): a
# sentence none of whose words contains one has no scope, and is not read for one.
_START_SET = OPENERS | LIST_OPENERS | SUBORDINATE_OPENERS | {a for a, _b in PAIRS} | {"such"}
_PAIR_FIRST = frozenset(a for a, _b in PAIRS)
# the tokens in_scope does anything with besides marking them
_SPECIAL = OPENERS | LIST_OPENERS | SUBORDINATE_OPENERS | CLOSERS | _CLOSE_PUNCT | {b for _a, b in PAIRS} | {",", "as"}


def may_have_scope(low_tokens: list[str]) -> bool:
    """Can a scope open among these lowercase tokens of a sentence? (False: :func:`in_scope`
    would mark none of them.)"""
    return not _START_SET.isdisjoint(low_tokens)


def in_scope(low_tokens: list[str]) -> list[bool]:
    """For each token of one sentence (words and punctuation marks, lowercase, in order), is it
    inside a scope of negation, contrast, comparison or example? An opener itself is not."""
    out = [False] * len(low_tokens)
    opened = listed = to_comma = False
    prev = ""
    special = _SPECIAL
    for i, low in enumerate(low_tokens):
        if low not in special:
            if opened:
                out[i] = True
        elif i == 0 and low in SUBORDINATE_OPENERS:
            opened = to_comma = True
            out[0] = True
        elif low in LIST_OPENERS or (low == "as" and prev == "such"):
            opened = listed = True
        elif low in OPENERS or (prev in _PAIR_FIRST and (prev, low) in PAIRS):
            opened = True
        elif low in _CLOSE_PUNCT or (low == "," and not listed) or (low in CLOSERS and not to_comma):
            opened = listed = to_comma = False
        elif opened:
            out[i] = True
        prev = low
    return out
