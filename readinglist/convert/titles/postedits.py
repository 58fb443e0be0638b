"""The post-edits applied to the chosen title, in order: a leading verb as its -ing form, an
acronym said twice ("SSL methods for semi-supervised learning") said once, a relative clause as
"for" + gerund, a sentence's adverb inside it dropped, Title-Case terms in lowercase, "for <attacks>" as "against <attacks>" when the
abstract defends against them, a headless opener given its article, a frame noun dropped from the start ("Problem of X" -> "X"), and last the authors' sentence
words that no candidate could replace ("our dataset", "... whether LLMs can ...") taken out.
"""

from __future__ import annotations

import re

from ..lexicon import DANGLING, MINOR_WORDS
from .constants import ATTACK_CUE, COMMON_DF, CUT_PREP, DEFENCE_CUE, FINITE, HOW_WORDS, MAX_WORDS, RELATIVE, THREAT_HEADS
from .forms import abstract_only, article_starts, common_words, frame_nouns, gerund_starts, proper_words
from .text import article, article_for, capitalise, gerund_of, head_noun, name_lead, word_list


# A run of two or more Capitalised words (minor words between them): "Large Language Models",
# "Memory and Computation", "Channel State Information"
_CAP_WORD = r"[A-Z][a-z]+(?:-(?:[A-Z][a-z]+|[a-z]+))*"  # "Model", "Zero-Shot", "Model-based"
_CAPITALISED_RUN = re.compile(
    rf"(?<![\w-]){_CAP_WORD}(?:\s+(?:(?:and|of|for|the|in|on|with|to)\s+)?{_CAP_WORD})*(?![\w-])"
)


def terms_in_lowercase(title: str, name: str | None) -> str:
    """Terms the abstract wrote in Title Case (mostly to spell out an acronym: "Large Language
    Models (LLMs)", "Channel State Information (CSI)") as a sentence-case title writes them:
    "... for large language models". Only a run of common words none of which is a proper word
    (learned: "Segment Anything", "Hugging Face" and "Riichi Mahjong" stay); a run that starts
    a title without a name keeps its first capital (after "Name: " the title goes on in lowercase)."""
    lead = name_lead(title, name)
    body = title[len(lead) :]
    if not _CAPITALISED_RUN.search(body):
        return title
    proper, common = proper_words(), common_words()

    def lower(m: re.Match) -> str:
        capitalised = [p for p in re.split(r"[\s-]+", m.group()) if p[:1].isupper()]
        if len(capitalised) < 2 or any((p := c.lower()) in proper or common.get(p, 0) < COMMON_DF for c in capitalised):
            return m.group()
        low = m.group().lower()
        return m.group()[0] + low[1:] if m.start() == 0 and not lead else low

    return lead + _CAPITALISED_RUN.sub(lower, body)


_ACRONYM = re.compile(r"(?<![\w-])(?=(?:[a-z0-9]*[A-Z]){2})[A-Za-z0-9]{2,8}(?![\w-])")


def _spelled_out_span(acronym: str, words: list[str]) -> tuple[int, int] | None:
    """The first run of ``words`` whose initials (hyphenated parts each, function words
    skipped) spell ``acronym``'s capitals: (start, end) or None."""
    letters = "".join(ch for ch in acronym if ch.isupper()).lower()
    for i, first in enumerate(words):
        if first.lower() in MINOR_WORDS:
            continue
        got = ""
        for j in range(i, len(words)):
            w = words[j].lower()
            if w not in MINOR_WORDS:
                got += "".join(part[0] for part in w.split("-") if part)
            if got == letters:
                return i, j + 1
            if not letters.startswith(got):
                break
    return None


def acronym_said_once(title: str, name: str | None) -> str:
    """"SSL methods for semi-supervised learning" says one thing twice (85 of 3,000 generated dev
    titles did): the acronym is replaced by the words after "for" that spell it out, and "for
    ..." goes ("Semi-supervised learning methods"); when the part after "for" uses an acronym
    the part before spells out ("language model evaluation for effectiveness of LMs"), "for
    ..." goes. Kept as it is when what is left would be three words or fewer."""
    lead = name_lead(title, name)
    body = title[len(lead) :]
    left, sep, right = body.partition(" for ")
    if not sep or " for " in right:
        return title
    left_words, right_words = left.split(), right.split()
    for k, word in enumerate(left_words):
        if _ACRONYM.fullmatch(word):
            span = _spelled_out_span(word, right_words)
            if span:
                spelled = right_words[span[0] : span[1]]
                last = spelled[-1]
                plural = word.endswith("s") and word[-2:-1].isupper()
                if plural and not last.endswith("s"):
                    spelled[-1] = last + "s"
                elif not plural and last.endswith("s") and not last.endswith(("ss", "is", "us")):
                    spelled[-1] = last[:-1]
                new = left_words[:k] + spelled + left_words[k + 1 :]
                if len(new) <= 3:
                    return title
                text = " ".join(new)
                return lead + (text[:1].upper() + text[1:] if not lead else text)
    for word in right_words:
        if _ACRONYM.fullmatch(word) and _spelled_out_span(word, left_words) and len(left_words) > 3:
            return lead + left
    return title


def acronym_twice(body: str) -> bool:
    """Does "<a> for <b>" say one thing twice, an acronym on one side that the other spells out
    ("NN architectures for overparameterized neural networks", "robust MAS for LLM-based
    multi-agent systems"), where :func:`acronym_said_once` leaves it (too little would be left)?"""
    left, sep, right = body.partition(" for ")
    if not sep:
        return False
    left_words, right_words = left.split(), right.split()
    return any(_ACRONYM.fullmatch(w) and _spelled_out_span(w, other)
               for words, other in ((left_words, right_words), (right_words, left_words)) for w in words)


_RELATIVE_VERB = re.compile(r"\s(?:that|which)\s+(?:(can|could|may|will)\s+)?(?:([a-z]+ly)\s+)?([a-z]+)(?=\s)")


def relative_as_purpose(title: str) -> str:
    """"a framework that generates 3D assets from videos" -> "a framework for generating 3D
    assets from videos" ("a ranker that can predict ..." -> "a ranker for predicting ..."): a relative clause (58 of 3,000 generated dev titles had one, 6 of the real
    ones) as the "for" + gerund real titles use. Left alone: a title already saying "for" before
    it, a verb the phrase model does not know as one, and "that aims to ..."."""
    m = _RELATIVE_VERB.search(title)
    if not m or re.search(r"\s(?:for|to)\s", title[: m.start() + 1]) or title[m.end() :].startswith(" to "):
        return title
    modal = bool(m.group(1))
    adverb, first = m.group(2), verb_gerund(m.group(3), modal)
    if not first:
        return title
    # a second verb joined by "and" follows suit ("performs matching and enables grounding")
    rest = re.sub(r"(?<=\sand\s)([a-z]+)(?=\s)", lambda v: verb_gerund(v.group(1), modal) or v.group(1), title[m.end() :], count=1)
    return f"{title[: m.start()]} for {adverb + ' ' if adverb else ''}{first}{rest}"


def verb_gerund(verb: str, base: bool = False) -> str | None:
    """The -ing form of a verb that starts a clause ("that generates", "that can predict", "to
    reduce"), when the phrase model knows it as a verb or real titles start with its -ing form
    (:func:`.forms.gerund_starts`); ``base`` for the base form after a modal or "to"."""
    from ..phrases import learned_verbs

    verbs = learned_verbs()
    if len(verb) < 4 or verb in DANGLING:
        return None  # "that the ...": the phrase model's verbs came from "to X", so "thes" is one
    if verb.endswith("ly") and gerund_of(verb + "s") not in gerund_starts().values():
        return None  # "to explicitly model" made "explicitly" one: "that explicitly attends" is no "explicitlying"
    if verb in verbs:
        return gerund_of(verb)
    if verb.endswith("s") and not verb.endswith("ss") and not base:
        # a third person ("unifies" -> "unifying") or a plural noun ("a benchmark that humans find hard")
        made = gerund_of(verb)
        return made if made in gerund_starts().values() else None
    # the base form, after a modal ("that can predict") or a plural ("metrics that evaluate")
    third = next((f for f in (verb + "s", verb + "es") if f in verbs), None)
    if third:
        return gerund_of(third)
    return gerund_starts().get(verb) if base else None


_ARTICLES = frozenset("a an the".split())


def without_adverbs(title: str) -> str:
    """The title without an -ly adverb that titles do not hold (:func:`.forms.abstract_only`)
    before a verb's form ("a framework specifically designed for ..." -> "a framework designed
    for ...", "for effectively integrating ..." -> "for integrating ..."; not after an article or
    a number: "a publicly available", "20 carefully designed"): the abstract's emphasis, not a
    name for the paper."""
    words = title.split(" ")
    said = abstract_only()
    kept = [w for i, w in enumerate(words) if not (0 < i < len(words) - 1 and w.endswith("ly") and w.lower() in said
                                                      and words[i + 1].endswith(("ing", "ed", "s")) and words[i - 1].isalpha()
                                                      and words[i - 1].lower() not in _ARTICLES)]
    return title if len(kept) == len(words) else " ".join(kept)


def as_gerund(title: str, name: str | None) -> str:
    """The title with a leading plain verb (after "Name: " when named) in the -ing form real
    titles start with ("Solve SDPs in polynomial time" -> "Solving SDPs in polynomial time")."""
    lead = name_lead(title, name)
    first, space, rest = title[len(lead) :].partition(" ")
    ing = gerund_starts().get(first.lower()) if first.isalpha() and space else None
    if not ing:
        return title
    return f"{lead}{ing.capitalize() if first[0].isupper() else ing} {rest}"


_DEFENCE = re.compile(DEFENCE_CUE, re.IGNORECASE)
_ATTACK = re.compile(ATTACK_CUE, re.IGNORECASE)


def against_threat(title: str, plain: str) -> str:
    """"ScoreOpt: score-based priors for adversarial attacks" -> "... against adversarial attacks"
    when the abstract defends (:func:`defends`): the last "for" of the title, when what follows it
    is headed by a threat (:data:`THREAT_HEADS`)."""
    at = title.rfind(" for ")  # "a defence for removing perturbations" stays
    after = word_list(title[at + 5 :]) if at >= 0 else []
    if not after or after[0].endswith("ing") or head_noun(after) not in THREAT_HEADS or not defends(plain):
        return title
    return f"{title[:at]} against {title[at + 5:]}"


def defends(plain: str) -> bool:
    """Do the authors' own sentences speak of a defence (robustness, mitigation, ...) and none of
    an attack of theirs ("a novel backdoor attack", "attack success")?"""
    from .contribution import own_sentences
    from ..lexicon import split_sentences

    sentences = split_sentences(plain)
    own = [sentences[i][1] for i in sorted(own_sentences(plain))]
    return any(_DEFENCE.search(s) for s in own) and not any(_ATTACK.search(s) for s in own)


def headless_opener(title: str, name: str | None) -> str:
    """"Framework for imitation learning ..." -> "A framework for imitation learning ...", "Role
    of priors in ..." -> "The role of priors in ...": a title (or its part after "Name: ") that
    starts with a noun real titles start with only after an article (learned:
    :func:`.forms.article_starts`) and goes on with a preposition gets that article."""
    lead = name_lead(title, name)
    words = title[len(lead) :].split()
    if len(words) < 3 or words[1].lower() not in CUT_PREP or len(title.split()) >= MAX_WORDS:
        return title
    first = words[0].lower()
    the = article_starts().get(first)
    if not the or not words[0].isalpha() or (words[0] != first and words[0] != first.capitalize()):
        return title  # an acronym or a name keeps its form
    made = article(["a" if the == "a" else "the", first, *words[1:]])
    text = " ".join(made)
    return lead + (text if lead else text[:1].upper() + text[1:])


def frame_dropped(title: str, name: str | None) -> str:
    """"Problem of private isotonic regression" -> "Private isotonic regression", "SpatialRank:
    problem of urban event ranking" -> "SpatialRank: urban event ranking": a title (or its part
    after "Name: ") that starts with a noun whose "the <noun> of X" names X and which real titles
    do not start with (learned: :func:`.forms.frame_nouns`) says X, when more than three words
    are left."""
    lead = name_lead(title, name)
    words = title[len(lead) :].split()
    if len(words) < 3 or words[1] != "of" or words[0].lower() not in frame_nouns() or not words[0][1:].islower():
        return title
    rest = words[3:] if words[2].lower() in ("a", "an", "the") else words[2:]
    if len(word_list(lead)) + len(rest) <= 3:
        return title
    text = " ".join(rest)
    return lead + (text if lead else capitalise(text))


_CLAUSE_OPENERS = RELATIVE | frozenset(HOW_WORDS) | {"if", "what"}


def sentence_words_out(title: str, name: str | None) -> str:
    """A title whose words are still the authors' sentence when no candidate passed the checks:
    "Name: our dataset for ..." -> "Name: a dataset for ..."; "Name: a risk evaluation framework
    for measuring whether LLMs can anticipate harms" -> "Name: a risk evaluation framework" (a
    clause with a finite verb is cut, with the "for <gerund>" that led to it, when three words
    are left); a title without a name starts with a capital ("multi-agent ..." -> "Multi-agent ...")."""
    lead = name_lead(title, name)
    words = title[len(lead) :].split()
    if not words:
        return title
    if words[0].lower() == "our" and len(words) > 1:
        words = article(["a", *words[1:]])
    low = [w.lower().strip(",;:") for w in words]
    opener = next((i for i, w in enumerate(low) if w in _CLAUSE_OPENERS), None)
    if opener is not None and not FINITE.isdisjoint(low[opener + 1 :]):
        cut = opener
        if cut >= 2 and low[cut - 2] == "for" and low[cut - 1].endswith("ing"):
            cut -= 2  # "... for measuring | whether ...": the purpose goes with its clause
        kept = words[:cut]
        while kept and kept[-1].lower() in DANGLING:
            kept = kept[:-1]
        if len(kept) >= 3:
            words = kept
    text = " ".join(words)
    if text == title[len(lead) :] and (lead or not words[0].islower()):
        return title  # nothing taken out (a bare name, "mRNA ..." keep their letter case)
    return lead + (text if lead else text[:1].upper() + text[1:])


def articles_agree(title: str) -> str:
    """Every "a" / "an" as the next word's sound asks: spelling out an acronym or dropping a
    word can leave "an referring video object segmentation architecture" or "a AI-enhanced
    tool" (5 of 6,000 dev and held-out titles); a capital stays a capital."""
    words = title.split(" ")
    for i, w in enumerate(words[:-1]):
        low = w.lower()
        if low in ("a", "an"):
            said = article_for(words[i + 1])
            if said != low:
                words[i] = said.capitalize() if w[0].isupper() else said
    return " ".join(words)
