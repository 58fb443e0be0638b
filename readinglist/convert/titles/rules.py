"""The rule-made title: the name's description or the contribution phrase (:mod:`.named`,
:mod:`.contribution`), weighed against the abstract's most central noun phrase
(:mod:`readinglist.convert.phrases`) and repaired when it fails the form checks. It is the first
candidate of the learned choice (:mod:`.choice`) and the title the tagger weighs.
"""

from __future__ import annotations

from functools import lru_cache

from ..kinds import contradicts, name_kind
from .casing import expand, sentence_case
from .checks import defects, form_checked
from .constants import CUT_ANY, FALLBACK_TITLE, FINITE, KEPT_MAX_WORDS, MAX_WORDS, NOT_CONTENT, PURPOSE_PARTICIPLES, RELATIVE, RULE_MARGIN
from .described import described_subtitle, fits_described, stated_description
from .contribution import background_only, contribution_phrases, fallback, find_contribution, Found, with_topic
from .named import name_description, what_we_did
from .postedits import relative_as_purpose, verb_gerund
from .relations import says_the_reverse
from .text import ALNUM, before_finite_verb, capitalise, clean, finish, first_five_tokens, first_tokens, gerund_of, head_noun, LEADING, PARTICIPLE_END, strip_dangling, word_list
from .topic import drives, phrase_with_topic, restates, topic_phrase


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
    always gives way to the phrase, unless that phrase is background and the abstract says
    what the authors propose or study (:func:`_contribution_kept`)."""
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
        if drives(" ".join(words)):  # "rapid advancement of deepfake generation": why the work is needed
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
    # "a ranker that can predict ..." is read as the post-edit will write it ("... for predicting ...")
    body_ok = bool(body) and not defects(relative_as_purpose(body), plain, named) and len(title.split()) > 3
    if named and name and name.lower() in body.lower():
        body_ok = False  # "GTP: generative trajectory planning" is fine, the name twice is not
    if named and name and (contradicts(head_noun(phrase), name_kind(plain, name)) or not fits_described(phrase, plain, name)):
        return title  # the phrase would call the named thing a kind it is not
    if body_ok and score_words(body.split(), plain) + RULE_MARGIN >= score_words(phrase, plain):
        return title
    if not named and background_only(phrase, plain):
        kept = _contribution_kept(title, plain, body_ok)
        if kept:
            return kept
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


def _contribution_kept(title: str, plain: str, body_ok: bool) -> str:
    """Honest before clever: when the abstract says what the authors propose or study and the
    phrase that would replace it is background, the contribution stays: the rule-made title
    when it passes, else the contribution's head phrase ("a neuroscience-inspired module | that
    can be ...") with the topic, else the contribution with its clause as titles say it
    (:func:`_clause_reduced`), or "" when none passes the form checks."""
    found = find_contribution(plain, MAX_WORDS, max_tier=1)
    if found is None:
        return ""
    said = LEADING.sub("", " ".join(found.words)).split()
    words = title.split() if body_ok else said
    head = _head_phrase(words)
    if head is not words:
        if len([w for w in head if w.lower() not in NOT_CONTENT]) < 2:
            return ""
        words = with_topic(Found(found.tier, head, found.analytic), plain)  # joined as any contribution is
    head_first = first_tokens(plain)
    if words and len(words) <= KEPT_MAX_WORDS:
        kept = form_checked(LEADING.sub("", " ".join(words)).split(), plain, None, False, head_first)
        if kept:
            return kept
    # its clause said as titles say it ("an architecture that is capable of X" -> "architecture
    # capable of X", "a method to reduce X" -> "method for reducing X")
    reduced = _clause_reduced(said)
    if not reduced or len(reduced) > KEPT_MAX_WORDS:
        return ""
    return form_checked(reduced, plain, None, False, head_first)


_REDUCED_END = frozenset("and or but while whereas thus thereby to by via through using so".split())
_CLAUSE_STARTS = RELATIVE | {"to"}


def _gerund(verb: str, certain: bool) -> str | None:
    """The -ing form of a base verb after "to" (:func:`.postedits.verb_gerund`), or of any plain
    word the words before show to be a verb (``certain``: "designed to resist" -> "resisting");
    None for "to the", "to jointly", "to learning", "to segmentation"."""
    ing = verb_gerund(verb, base=True)
    if ing or not certain or not verb.isalpha() or verb in NOT_CONTENT or verb.endswith(("ly", "ing", "ed")):
        return ing
    return gerund_of(verb + "s")


def _clause_reduced(words: list[str]) -> list[str]:
    """The contribution phrase with its first clause after the head as a title says it, cut at the
    next clause: "that/which is|are <adjective> ..." without "that is" ("architecture capable of
    amodal perception"), "to <verb> ..." and "that <verb>s ..." as "for <verb>ing ..." ("method
    for reducing the variation among workers"); [] when there is no such clause."""
    at = next((i for i, w in enumerate(words) if i >= 2 and w.lower() in _CLAUSE_STARTS), None)
    if at is None or at + 2 >= len(words):
        return []
    word, after = words[at].lower(), words[at + 1].lower()
    start = at + 2  # after "to <verb>", "that is", "that <verb>s"
    if word == "to":
        ing = _gerund(after, words[at - 1].lower() in PURPOSE_PARTICIPLES)
        if not ing:
            return []
        out = words[:at] + ["for", ing]
    elif after in ("is", "are") and word in ("that", "which"):
        nxt = words[at + 2].lower()
        if nxt in NOT_CONTENT or not nxt.isalpha() or nxt.endswith("ly"):
            return []  # "a loss that is a variant of X", "... that is truly equivariant"
        out = words[:at]
    else:
        said = relative_as_purpose(" ".join(words)).split()
        gerund = at + 2 if after.endswith("ly") else at + 1  # "that explicitly attends" -> "for explicitly attending"
        if said[:at] != words[:at] or said[at : at + 1] != ["for"] or not said[gerund:][:1] or not said[gerund].endswith("ing"):
            return []  # a verb the post-edit does not turn into a gerund
        words, out, start = said, said[: gerund + 1], gerund + 1
    for w in words[start:]:
        low = w.lower()
        if low in RELATIVE or low in _REDUCED_END or low in FINITE:
            break
        out.append(w.rstrip(",;:"))
        if w[-1:] in ",;:":
            break
    return strip_dangling(out)


def _head_phrase(words: list[str]) -> list[str]:
    """The words up to a relative clause or a participle that follows the head, before any
    preposition ("information-theoretic framework | showing that ...", "module | that can be
    ..."), or ``words`` itself when there is none. Any -ing word there counts: the stricter
    :func:`.checks.verbal_ending` changed 3 of 6,000 titles, two of them back to titles the
    stop-43 readers had judged false."""
    for i, w in enumerate(words):
        low = w.lower().strip(",;:")
        if i >= 2 and (low in RELATIVE or PARTICIPLE_END.search(low) or (low.endswith("ing") and len(low) > 5)):
            return strip_dangling(words[:i])
        if low in CUT_ANY:
            break
    return words


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
