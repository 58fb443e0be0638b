"""A comma between two modifiers of one head ("a massively multilingual, rubric-agnostic reward
model") does not end the phrase; a comma before a clause, a list or after a noun does."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.titles.text import clause, describe

HEAD = st.lists(st.sampled_from("gauge ledger tide relay prism ridge".split()), min_size=1, max_size=3, unique=True)


@pytest.mark.parametrize("first, second", [
    ("massively multilingual", "rubric-agnostic"), ("fully streamable", "speech-driven"),
    ("large-scale", "high-quality"), ("training-free", "plug-and-play"),
    # "-level", "-bias", "-all" compounds and "-ical" adjectives (stop 43: "a street-level, language-guided
    # framework" had been cut to "a street-level", "a practical, one-size-fits-all method" to "a practical")
    ("street-level", "language-guided"), ("low-bias", "trainable"), ("practical", "one-size-fits-all"),
])
def test_two_modifiers_joined_by_a_comma_stay_one_phrase(first, second):
    text = f"a {first}, {second} reward model trained on 72 languages, achieving the best coverage"
    assert clause(text) == f"a {first}, {second} reward model trained on 72 languages"


@pytest.mark.parametrize("text, kept", [
    ("a simple reward model, which ranks answers", "a simple reward model"),
    ("prioritized replay and, in an ideal setting, more", "prioritized replay and"),
    ("a scalable, achieving the best", "a scalable"),         # a participle's clause follows
    ("a reward model, rubric-agnostic and fast", "a reward model"),  # a noun before the comma
])
def test_a_comma_before_a_clause_or_after_a_noun_still_ends_it(text, kept):
    assert clause(text) == kept


@settings(max_examples=50, deadline=None)
@given(HEAD)
def test_the_described_phrase_keeps_its_head(head):
    words = describe(f"a lightweight, differentiable {' '.join(head)} estimator that adapts quickly, beating others", 12)
    assert words[:3] == ["a", "lightweight,", "differentiable"] and "estimator" in words and "beating" not in words
