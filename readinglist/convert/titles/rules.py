"""The rule-made title: the name's description or the contribution phrase (:mod:`.named`,
:mod:`.contribution`), weighed against the abstract's most central noun phrase
(:mod:`readinglist.convert.phrases`) and repaired when it fails the form checks. It is the first
candidate of the learned choice (:mod:`.choice`) and the title the tagger weighs.
"""

from __future__ import annotations

from functools import lru_cache

from ..kinds import contradicts, name_kind
from .casing import expand, sentence_case
from .checks import defects
from .constants import FALLBACK_TITLE, MAX_WORDS, NOT_CONTENT, RULE_MARGIN
from .described import described_subtitle, fits_described, stated_description
from .contribution import contribution_phrases, fallback, find_contribution, Found, with_topic
from .named import name_description, what_we_did
from .relations import says_the_reverse
from .text import ALNUM, before_finite_verb, capitalise, clean, finish, first_five_tokens, head_noun, LEADING, strip_dangling, word_list
from .topic import phrase_with_topic, restates, topic_phrase


def title_for_tags(plain: str, name: str | None) -> str:
    """The title the tagger weighs (the rule-made one, so the learned choice of a title phrase
    leaves the tags as they were; computed once with :func:`make_title`)."""
    return rule_made_title(plain or "", clean(name) if name else None)


@lru_cache(maxsize=4)
def rule_made_title(text: str, name: str | None) -> str:
    """The title the rules make (before the choice by expected ROUGE); ``name`` cleaned."""
    title = _rule_title(text, name)
    title = _repair(title, text, name) or title or FALLBACK_TITLE
    if name and title.startswith(f"{name}: "):
        desc = title[len(name) + 2 :].split()
        joined = phrase_with_topic(desc, text, MAX_WORDS - len(name.split()) - 1)
        if joined is not desc and name.lower() not in " ".join(joined[len(desc):]).lower():
            title = finish(f"{name}: {' '.join(joined)}") or title
    return title


def _repair(title: str, plain: str, name: str | None) -> str:
    """The better of the rule-made title and the abstract's best noun phrase
    (:mod:`readinglist.phrases`, scored by the learned phrase model), led by the name when there
    is one; a rule-made title that is a clause, a background sentence, a fragment or too short
    always gives way to the phrase."""
    from ..phrases import best_phrase, score_words

    named = bool(name) and (title == name or title.startswith(f"{name}: "))
    body = title[len(name or "") + 2 :] if named and title != name else ("" if named else title)
    budget = MAX_WORDS - (len(word_list(name or "")) if named else 0)
    opening = first_five_tokens(plain)

    name_words = {w for w in ALNUM.findall((name or "").lower()) if len(w) > 2} if named else set()

    def unfit(words: list[str]) -> bool:
        low = ALNUM.findall(" ".join(words).lower())
        if name_words & set(low):  # "MetaTeacher: a MetaTeacher framework" says the name twice
            return True
        if len(strip_dangling(before_finite_verb(words))) < min_words:
            return True  # "auxiliary differentiable constraint (is ...)": too short once cut at its verb
        return len(words) >= 4 and tuple(low[:5]) == opening

    min_words = max(2, 4 - len(word_list(name))) if named and name else 4
    phrase = best_phrase(plain, min(budget, 11), avoid=name or "", reject=unfit, min_words=min_words) if budget > 1 else []
    if named and phrase and name:
        phrase = [w for w in phrase if w.lower() != name.lower()]
    phrase = strip_dangling(before_finite_verb(phrase))
    if len(phrase) < 2:
        return title
    from .postedits import relative_as_purpose

    # "a ranker that can predict ..." is read as the post-edit will write it ("... for predicting ...")
    body_ok = bool(body) and not defects(relative_as_purpose(body), plain, named) and len(title.split()) > 3
    if named and name and name.lower() in body.lower():
        body_ok = False  # "GTP: generative trajectory planning" is fine, the name twice is not
    if named and name and (contradicts(head_noun(phrase), name_kind(plain, name)) or not fits_described(phrase, plain, name)):
        return title  # the phrase would call the named thing a kind it is not
    if body_ok and score_words(body.split(), plain) + RULE_MARGIN >= score_words(phrase, plain):
        return title
    if named and name and not (name_words & set(ALNUM.findall(body.lower()))):
        # honest before clever: what the abstract says the name is, not a phrase of elsewhere;
        # a description running on into a relative clause is kept up to it
        said = stated_description(body, plain, name)
        if said and (said != body or body_ok):
            return finish(f"{name}: {said}") or title
    if not named:
        phrase = phrase_with_topic(phrase, plain)
    text = sentence_case(" ".join(phrase), plain)
    repaired = finish(f"{name}: {text}" if named else capitalise(text))
    return repaired or title


def _rule_title(text: str, name: str | None) -> str:
    if name:
        budget = MAX_WORDS - len(word_list(name))
        desc = name_description(text, name, budget) if budget > 0 else []
        if not desc:
            desc = contribution_phrases(text, budget, keep_article=True) if budget > 0 else []
        if not desc and budget > 0:
            desc = name_description(text, name, budget, allow_subject=True)
        if not desc and budget > 0:
            desc = what_we_did(text, name, budget)
        if budget > 0 and not fits_described(desc, text, name):
            desc = described_subtitle(text, name, budget) or desc  # "GovBench, a benchmark ...": not "automating ..."
        if not desc and budget > 0:
            desc = described_subtitle(text, name, budget)  # "a unified Joint-OCTAMamba framework"
        if desc and len([w for w in desc if w.lower() not in NOT_CONTENT]) <= 3 and "for" not in desc:
            topic = topic_phrase(text)  # "VESPER: a video benchmark" -> "... for evaluating ..."
            if (topic and name not in topic and not restates(desc, topic)
                    and len(desc) + 1 + len(topic.split()) <= budget and not says_the_reverse(desc, topic.split(), text)):
                desc = desc + ["for"] + topic.split()
        if desc:
            desc = strip_dangling(expand(desc, text, budget))
        if desc:
            title = finish(f"{name}: {' '.join(desc)}")
        else:
            title = finish(" ".join(word_list(name)[:MAX_WORDS]))
        if title:
            return title
    words: list[str] = []
    found = find_contribution(text, MAX_WORDS)
    if found is not None:
        found = Found(found.tier, LEADING.sub("", " ".join(found.words)).split(), found.analytic)
        words = strip_dangling(expand(with_topic(found, text), text, MAX_WORDS))
    if not words:
        words = fallback(text, MAX_WORDS)
    return finish(capitalise(" ".join(words)))
