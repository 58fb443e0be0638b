"""Where an abstract speaks of something that is *not* the paper's own contribution.

A title built from "an alternative to attaching fixed prompts", "improvements over recent
unsupervised single image techniques", "without any optimization", "such as headline
generation" or "While prior research has focused on predicting backchannel timing" says the
opposite of the paper, or names what it compares against, avoids or merely cites. The phrase
stage (:mod:`readinglist.convert.phrases`) asks :class:`Scope` token by token whether the words
it is reading sit in such a scope, and never offers them as a title phrase (their words still
count towards how often the abstract repeats a word).

A scope opens at a word of negation, contrast, comparison, removal or example
(:data:`OPENERS`, and a few two-word ones such as "compared to", "rather than", "improvements
over", "argue against"), or at a sentence that starts with a contrastive subordinate clause
("While ...,", "Unlike ...,"); it closes at the end of the clause: punctuation, or a word that
starts a new clause ("we", "which", "while", ...). A list of examples ("such as A, B, and C")
runs on over its commas.
"""

from __future__ import annotations

#: Words after which the next words are something the paper avoids, removes, compares against,
#: argues against, replaces, or gives as an example of prior work.
OPENERS = frozenset(
    """without unlike versus vs than instead outperform outperforms outperformed outperforming surpass
    surpasses surpassed surpassing beats avoid avoids avoided avoiding eliminate eliminates eliminated
    eliminating obviate obviates obviating bypass bypasses bypassing circumvent circumvents circumventing
    sidestep sidesteps sidestepping alleviate alleviates alleviating mitigate mitigates mitigating remove
    removes removing replace replaces replacing reduce reduces reducing existing prior previous conventional
    traditional""".split()
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
        ("superiority", "over"), ("free", "of"), ("instead", "of"), ("rather", "than"),
    }
)
#: A sentence starting with one of these opens a scope up to its first comma.
SUBORDINATE_OPENERS = frozenset("while whereas although though despite unlike compared contrary".split())
#: Words that end a scope: the start of a new clause.
CLOSERS = frozenset("we which that while whereas but our this these it they by to".split())
_CLOSE_PUNCT = frozenset(";:.!?()[]{}")


class Scope:
    """A reader of one sentence's tokens: :meth:`step` each token in order, and it answers
    whether that token lies in a scope of negation, contrast, comparison or example."""

    __slots__ = ("_open", "_list", "_prev", "_first", "_to_comma")

    def __init__(self) -> None:
        self._open = False
        self._list = False  # an example list: commas do not close it
        self._prev = ""
        self._first = True
        self._to_comma = False  # a sentence-initial "While ...," clause

    def step(self, token: str) -> bool:
        """Is ``token`` (a word or a punctuation mark) inside a scope?"""
        low = token.lower()
        prev, self._prev = self._prev, low
        if self._first:
            self._first = False
            if low in SUBORDINATE_OPENERS:
                self._open = self._to_comma = True
                return True
        if low in LIST_OPENERS or (prev, low) == ("such", "as"):
            self._open = self._list = True
            return False  # the opener itself is never a phrase word
        if low in OPENERS or (prev, low) in PAIRS:
            self._open = True
            return False
        if low in _CLOSE_PUNCT or (low == "," and not self._list) or (low in CLOSERS and not self._to_comma):
            self._open = self._list = self._to_comma = False
            return False
        return self._open
