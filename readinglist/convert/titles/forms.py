"""How real titles read, as learned from the training titles (``data/title_forms.json``): the
words they never end on, the words written with a capital, the verbs they start with as -ing,
the words they seldom put after "for", the words they seldom put before "for", the words they start with
only after an article, the nouns they do not start with before "of" ("problem", "task"), the sentence openers they do not start with, the words they do not hold, the verbs' -s forms;
and the word counts of the training abstracts (``data/title_word_model.json``).
"""

from __future__ import annotations

import re
from functools import lru_cache


def common_words():
    """Words the training abstracts use often (the title-word model's vocabulary, lowercase):
    "adaptive" of "Bayes-Adaptive" is one, "Bulgarian" of "German\u2013Bulgarian" is not."""
    from ..title_words import load_model

    return load_model().get("df", {})


TITLE_WORD = re.compile(r"[a-z0-9][a-z0-9'\-]*")


def words_of_title(title: str) -> list[str]:
    """A title's words as :mod:`readinglist.convert.train_title_forms` counts them: lowercase,
    hyphenated words whole ("end-to-end")."""
    return TITLE_WORD.findall(title.lower())


@lru_cache(maxsize=1)
def _forms() -> dict:
    from ..models import DATA, read_model

    return read_model(DATA / "title_forms.json")


@lru_cache(maxsize=1)
def not_final() -> frozenset[str]:
    """The words real titles almost never end on (learned: ``data/title_forms.json``)."""
    return frozenset(_forms().get("not_final", ()))


@lru_cache(maxsize=1)
def not_phrase_final() -> frozenset[str]:
    """Words the training abstracts almost always follow with more words ("magnetic",
    "consists", "capable", "plays"; too rare in titles for :func:`not_final`; learned:
    ``data/title_forms.json``): a title ending on one was cut from its phrase."""
    return frozenset(_forms().get("not_phrase_final", ()))


@lru_cache(maxsize=1)
def proper_words() -> frozenset[str]:
    """Words abstracts write with a capital inside a sentence ("gaussian", "bayesian", "kurdish";
    lowercase here; learned: ``data/title_forms.json``): sentence case keeps their capital."""
    return frozenset(_forms().get("proper", ()))


@lru_cache(maxsize=1)
def not_for_objects() -> frozenset[str]:
    """Words real titles seldom put at the head of a "for" phrase: a method, a part or a setting
    ("approach", "layers", "priors"), not a task (learned: ``data/title_forms.json``)."""
    return frozenset(_forms().get("not_for_object", ()))


@lru_cache(maxsize=1)
def not_for_subjects() -> frozenset[str]:
    """Words real titles seldom put right before "for" ("data", "effects", "problems"; seldom a
    means, a method or an artefact as "framework" or "filter" are; learned:
    ``data/title_forms.json``)."""
    return frozenset(_forms().get("not_for_subject", ()))


def article_starts() -> dict[str, str]:
    """Words real titles start with only after an article, with that article ("framework" ->
    "a", "role" -> "the"; learned: ``data/title_forms.json``)."""
    return _forms().get("article_start", {})


@lru_cache(maxsize=1)
def frame_nouns() -> frozenset[str]:
    """Nouns whose "the <noun> of X" names X, which real titles do not start with ("problem",
    "task", "field"; learned: ``data/title_forms.json``)."""
    return frozenset(_forms().get("frame", ()))


def gerund_starts() -> dict[str, str]:
    """Plain verbs whose -ing form starts real titles far more often ("solve" -> "solving";
    learned: ``data/title_forms.json``)."""
    return _forms().get("gerund_start", {})


@lru_cache(maxsize=1)
def not_initial() -> frozenset[str]:
    """Words that start many sentences of the training abstracts but almost no titles or subtitles
    ("despite", "though", "however", "in", "inspired", "existing"; learned:
    ``data/title_forms.json``): a title starting with one is a sentence's opening clause."""
    return frozenset(_forms().get("not_initial", ()))


@lru_cache(maxsize=1)
def abstract_only() -> frozenset[str]:
    """Words of many training abstracts that titles almost never hold: the verbs, adverbs and
    connectives of sentences ("exceeds", "leverages", "specifically", "recently", "paper";
    learned: ``data/title_forms.json``): a title holding one is a clause or cut from one."""
    return frozenset(_forms().get("abstract_only", ()))


@lru_cache(maxsize=1)
def verb_forms() -> frozenset[str]:
    """Verbs' -s forms: words the training abstracts follow with an article or a possessive
    ("inherits the", "supplies a") and titles seldom hold, unlike a plural noun ("inherits",
    "alters", "exceeds"; learned: ``data/title_forms.json``): one after its subject makes a clause."""
    return frozenset(_forms().get("verb_form", ()))
