"""What the paper avoids, replaces, compares against or cites is never offered as its title."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import BLIND, HELDOUT, HELDOUT_MORE, SEEDS

from readinglist.convert.phrases import best_phrase, candidate_phrases
from readinglist.convert.scope import in_scope, may_have_scope
from readinglist.convert.titles import make_title
from readinglist.text import to_plain

ALL = SEEDS + HELDOUT + HELDOUT_MORE + BLIND

# made-up words: never a function word, a verb the phrase model knows, or a cue
WORD = st.text("bcdfghklmnprstvz", min_size=3, max_size=5).map(lambda s: s + "ex")

SCOPES = [
    "without {}",
    "instead of {}",
    "rather than {}",
    "unlike {}",
    "an alternative to {}",
    "which outperforms {}",
    "with improvements over {}",
    "that avoids {}",
    "and eliminates {}",
    "compared with {}",
    "for tasks such as {}",
    "due to {}",
    "because of {}",
    "improving on recent {}",
    "which current {}",
    "inspired by {}",
    "motivated by {}",
    "that goes beyond {}",
    "which challenges the {}",
]


def scoped_words(sentence: str) -> list[str]:
    tokens = re.findall(r"[\w-]+|[^\w\s]", sentence.lower())
    return [t for t, inside in zip(tokens, in_scope(tokens)) if inside]


@pytest.mark.parametrize("form", SCOPES)
def test_each_opener_opens_a_scope_that_ends_with_its_clause(form):
    sentence = "We propose adaptive grafting " + form.format("dense hashing caches") + ", and we train quickly."
    inside = scoped_words(sentence)
    assert {"dense", "hashing", "caches"} <= set(inside)
    assert "adaptive" not in inside and "train" not in inside and "quickly" not in inside


def test_a_contrastive_opening_clause_is_a_scope_up_to_its_comma():
    inside = scoped_words("While prior work has focused on predicting backchannel timing, we model backchannel form.")
    assert "timing" in inside and "form" not in inside and "model" not in inside


def test_an_example_list_runs_on_over_its_commas():
    inside = scoped_words("It has many uses such as headline generation, query rewriting, and caption writing; we study length.")
    assert {"headline", "rewriting", "caption"} <= set(inside) and "length" not in inside


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SCOPES), st.lists(WORD, min_size=7, max_size=7, unique=True))
def test_a_phrase_in_a_scope_never_becomes_a_title_phrase(form, words):
    method, task, avoided = words[:2], words[2:4], words[4:]
    avoided_text = " ".join(avoided)
    abstract = (
        f"Recent work on {' '.join(task)} is limited. We propose {' '.join(method)} for {' '.join(task)} "
        + form.format(avoided_text)
        + f". Experiments show that {' '.join(method)} is accurate."
    )
    for phrase, _s, _o in candidate_phrases(abstract):
        assert avoided_text not in " ".join(phrase).lower(), phrase
    title = make_title(abstract, abstract, None).lower()
    if avoided_text in title:
        # only with the word that says what the paper does with it ("... without X")
        before = title[: title.index(avoided_text)].split()
        opener = form.format("").split()
        assert before and before[-1] == opener[-1], (title, form)


def test_the_opposite_is_not_the_method():
    abstract = (
        "Attaching prompts to the input is effective at conditioning language models. However, prompts "
        "are always included in the input text during inference. We propose prompt parameter folding, an "
        "efficient alternative to attaching fixed prompts to the input. We show that prompt parameter "
        "folding is up to 280 times more efficient than attaching fixed prompts."
    )
    title = make_title(abstract, abstract, None).lower()
    assert "attaching fixed prompts" not in title and "fixed prompts" not in title, title


def _tokens(text: str) -> list[str]:
    return re.findall(r"[^\s,;:.!?()\[\]{}\"“”~|=<>]+", text.lower())


@pytest.mark.parametrize("raw", ALL[:60], ids=[a[:30] for a in ALL[:60]])
def test_the_best_phrase_is_words_the_abstract_says_in_that_order(raw):
    """No two phrases of a sentence are glued with a "for" the abstract never says
    ("tabular medical data for input token")."""
    plain = to_plain(raw)
    words = [w.lower() for w in best_phrase(plain, 11, min_words=4)]
    if words:
        toks = _tokens(plain)
        n = len(words)
        assert any(toks[i : i + n] == words for i in range(len(toks) - n + 1)), words


def test_a_clause_fallback_becomes_a_gerund_phrase():
    abstract = "This paper formulates hypothesis verification as a sequential decision problem. It is hard."
    title = make_title(abstract, abstract, None)
    assert title.startswith("Formulating hypothesis verification"), title
    assert not re.search(r"\b(?:is|are|has|have)\b", title), title


def test_a_subject_before_a_finite_verb_is_kept_without_the_verb():
    abstract = (
        "In recent years, the task of video prediction---forecasting future video given past video "
        "frames---has attracted attention in the research community."
    )
    title = make_title(abstract, abstract, None)
    assert not re.search(r"\b(?:has|have|is|are)\b", title), title


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["without", "such", "as", "we", ",", ".", "model", "while", "compared", "to", "data", "and"]), max_size=30))
def test_a_sentence_without_a_start_word_has_no_scope(tokens):
    if not may_have_scope(tokens):
        assert not any(in_scope(tokens))
