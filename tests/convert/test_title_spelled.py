"""What a name stands for is said whole: a hyphenated word may give one initial per part, and no
candidate that holds only a cut of the spelled-out name ("order constrained optimization ..." of
"multi-agent first order constrained optimization ...") takes its place."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.titles.candidates import spells_out
from readinglist.convert.titles.choice import _cut_of

WORD = st.text("bcdfghklmnprstvz", min_size=3, max_size=6).map(lambda s: s + "ex")


def test_a_hyphenated_word_may_give_an_initial_per_part():
    words = "multi-agent first order constrained optimization in policy space".split()
    assert spells_out(words, "MAFOCOPS")
    assert spells_out("scalable vector network".split(), "SaVeNet")
    assert not spells_out(words, "MAFOCOS")


@settings(max_examples=60, deadline=None)
@given(st.lists(WORD, min_size=4, max_size=7, unique=True))
def test_a_cut_of_the_spelled_out_name_is_told_from_the_whole(spelled):
    assert not _cut_of(spelled, spelled)                          # the whole, as is
    assert not _cut_of(spelled + ["for", "tides"], spelled)        # the whole, and what it is for
    assert _cut_of(spelled[1:], spelled)                          # its first word cut off
    assert _cut_of(["a", "tidal"] + spelled[-3:], spelled)        # three of its words in another phrase
    assert not _cut_of(["tidal", "gauge", "ranking"], spelled)     # none of it


def test_every_article_agrees_with_the_word_after_it():
    from readinglist.convert.titles.postedits import articles_agree

    assert articles_agree("ProxyFormer: an referring video object segmentation architecture") == (
        "ProxyFormer: a referring video object segmentation architecture")
    assert articles_agree("Framework for a AI-enhanced tool") == "Framework for an AI-enhanced tool"
    assert articles_agree("An unified view of a LLM") == "A unified view of an LLM"
    assert articles_agree("HuggingGPT: an LLM-powered agent for a task") == "HuggingGPT: an LLM-powered agent for a task"


@given(st.lists(st.sampled_from(["a", "an", "A", "An", "LLM", "remote", "AI", "unified", "x", "for", "of"]), max_size=12))
def test_articles_agree_changes_nothing_but_articles(words):
    from readinglist.convert.titles.postedits import articles_agree

    title = " ".join(words)
    out = articles_agree(title).split(" ")
    assert len(out) == len(title.split(" "))
    for before, after in zip(title.split(" "), out):
        assert before == after or (before.lower() in ("a", "an") and after.lower() in ("a", "an") and before[0].isupper() == after[0].isupper())
    assert articles_agree(" ".join(out)) == " ".join(out)
