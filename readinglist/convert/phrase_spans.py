"""The candidate phrases of an abstract, stage 1 of :mod:`readinglist.convert.phrases`: runs of
content words between function words, verbs and punctuation ("sparse hypergraph community
detection"), and two runs joined by "of", "for", "in", "on", "with", "via", "under" or "from"
("community detection in stochastic block models"), never across what the paper avoids,
compares against or cites (:mod:`readinglist.convert.scope`). Pure Python, linear in the text.
"""

from __future__ import annotations

import re

from . import lexicon
from .scope import in_scope, may_have_scope

# Words that end a phrase: function words, auxiliaries, common verbs and adverbs of abstracts.
BREAK = frozenset(
    """a an the this these those that which who whom whose what when where why how is are was were be been being
    do does did has have had can could may might will would shall should must not no nor and or but if then than
    so such also both either neither each every all some any many much more most less few several other another
    it its we our us they their them he she his her you your i me my here there however moreover furthermore
    additionally finally first second third while whereas although though because since as at by to into onto
    over under up down out about against between among through during before after above below across along
    around within without upon towards toward beyond despite unlike like per vs versus e.g i.e etc et al
    propose proposes proposed introduce introduces introduced present presents presented show shows showed shown
    demonstrate demonstrates demonstrated achieve achieves achieved outperform outperforms outperformed use uses
    used using based enable enables enabled improve improves improved provide provides provided require requires
    required remain remains make makes made allow allows allowed lead leads led obtain obtains obtained find finds
    found study studies studied develop develops developed design designs designed perform performs performed
    evaluate evaluates evaluated conduct conducts conducted achieve yield yields yielded reduce reduces reduced
    leverage leverages leveraged establish establishes established address addresses addressed exhibit exhibits
    suffer suffers consider considers considered focus focuses aim aims seek seeks rely relies relying often
    typically usually commonly widely recently significantly substantially consistently still yet even only
    very well further new novel simple effective efficient existing current recent prior previous various
    different key main specific general extensive experiments results paper work performance state-of-the-art sota code
    available publicly github https http www com org one two three four five six seven eight nine ten""".split()
)
_NOT_ADVERBS = frozenset("family early anomaly assembly monopoly supply italy july reply butterfly".split())
_MAX_PHRASE = 11  # no title phrase is longer (titles ask for at most 11 words)
_NUMBER = re.compile(r"[\d.,%]+")
_PERCENT = re.compile(r"\d%")
_SUBJECTS = frozenset("that which who it they we he she this these".split())
# Words that may join two phrases into one.
JOIN = frozenset("of for in on with via under from".split())
# Head words that say nothing alone (kept inside a longer phrase).
WEAK = frozenset("approach method methods framework model models task tasks problem problems".split())
_TOKEN = re.compile(r"[^\s,;:.!?()\[\]{}\"“”~|=<>]+|[,;:.!?()\[\]{}\"“”~|=<>]")
_WORDLIKE = re.compile(r"^[\w][\w'’\-+/²³]*$")


def content(word: str) -> str:
    return word.lower().strip("'’")


# token -> (a phrase word?, the joining word it is or None, after it comes a verb?, all
# lowercase?, the word as counted in the abstract's word frequencies or None when it is not
# counted), worked out once per distinct token
_TOKEN_CLASS: dict[str, tuple[bool, str | None, bool, bool, str | None]] = {}


def _classify(tok: str) -> tuple[bool, str | None, bool, bool, str | None]:
    from .phrases import learned_verbs  # the phrase model's verbs (that module reads this one)

    low = tok.lower()
    adverb = (low.endswith("ly") and len(low) > 4 and low not in _NOT_ADVERBS) or low in learned_verbs()
    word = bool(_WORDLIKE.match(tok) and low not in BREAK and low not in JOIN and not adverb
                and not _NUMBER.fullmatch(tok) and not _PERCENT.search(tok))
    if len(_TOKEN_CLASS) > 200_000:
        _TOKEN_CLASS.clear()
    counted = content(tok) if len(tok) > 2 else None
    _TOKEN_CLASS[tok] = result = (word, low if low in JOIN else None, low in _SUBJECTS or adverb, tok.islower(), counted)
    return result


_HARD_BREAK: tuple[list[str], str | None] = ([], None)  # in a sentence's runs: no phrase joins across it


def candidate_phrases(plain: str) -> list[tuple[list[str], int, int]]:
    """(words, sentence index, start offset) of every phrase, joined phrases included."""
    return phrases_and_counts(plain)[0]


def phrases_and_counts(plain: str) -> tuple[list[tuple[list[str], int, int]], list[str]]:
    """The phrases, and every word of the runs (the phrases not joined from others) longer than
    two characters in its counted form: what the word frequencies count."""
    out: list[tuple[list[str], int, int]] = []
    counts: list[str] = []
    classes = _TOKEN_CLASS
    for s_idx, (offset, sent) in enumerate(lexicon.split_sentences(plain)):
        runs: list[tuple[list[str], str | None]] = []  # (run, joining word before it)
        run: list[str] = []
        join: str | None = None
        after_subject = False  # the word after "that", "which", "it" ... is a verb ("that decouples X")
        toks = _TOKEN.findall(sent)
        low_toks = _TOKEN.findall(sent.lower())
        if len(low_toks) != len(toks):  # lowercasing changed a token's bounds (rare letters)
            low_toks = [t.lower() for t in toks]
        scoped = in_scope(low_toks) if may_have_scope(low_toks) else None
        for t_idx, tok in enumerate(toks):
            word, join_word, subject, lower, counted = classes.get(tok) or _classify(tok)
            if scoped is not None and scoped[t_idx]:  # what the paper avoids, compares against or cites: no title phrase
                if word and counted is not None:
                    counts.append(counted)
                if run:
                    runs.append((run, join))
                    run = []
                join = None
                if runs and runs[-1] is not _HARD_BREAK:
                    runs.append(_HARD_BREAK)
                continue
            if word:
                if after_subject and not run and lower:
                    after_subject = False
                    continue
                run.append(tok)  # every run ends up among the phrases
                if counted is not None:
                    counts.append(counted)
                continue
            after_subject = subject
            if run:
                runs.append((run, join))
                run = []
                join = join_word
            elif join_word is None:
                join = None
            if join_word is None and runs and runs[-1] is not _HARD_BREAK:
                runs.append(_HARD_BREAK)  # (one for several in a row: each starts the chain afresh)
        if run:
            runs.append((run, join))
        chain: list[list[str]] = []  # phrases ending at the previous run, joined so far
        for words, j in runs:
            if not words:
                chain = []
                continue
            out.append((words, s_idx, offset))
            if not (j and chain):
                chain = [words]
                continue
            grown = [c + [j] + words for c in chain if len(c) + 1 + len(words) <= _MAX_PHRASE]
            for c in grown:
                out.append((c, s_idx, offset))
            chain = [words] + [c for c in grown if c.count(j) <= 2]
    return out, counts
