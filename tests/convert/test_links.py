"""Which way two phrases of one sentence are related (titles/links.py, learned by
train_for_links.py): a composed "<a> for <b>" never runs against the abstract's own wording."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import training_corpus

from readinglist.convert import train_for_links
from readinglist.convert.titles import links

# made-up words: never a function word or a cue
WORD = st.text("bcdfghklmnprstvz", min_size=3, max_size=5).map(lambda s: s + "ex")

# a toy model written for these tests: "via" and "by" name the title's first phrase second,
# "enable" names it first
TOY = {"prior": [30, 10], "words": {"via": [1, 40], "by": [3, 30], "enable": [40, 1], "that": [20, 8]}}


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setattr(links, "load_model", lambda: TOY)


def tokens(text: str) -> list[str]:
    return links.TOKEN.findall(text.lower())


def test_link_finds_the_nearest_pair_and_the_words_between():
    found = links.link(tokens("Rewrites of graphs that enable message passing, and passing again"),
                       frozenset({"rewrites"}), frozenset({"passing"}))
    assert found == (True, ["of", "graphs", "that", "enable", "message"])


def test_a_clause_mark_or_a_long_gap_is_no_link():
    assert links.link(tokens("rewrites (of graphs) passing"), frozenset({"rewrites"}), frozenset({"passing"})) is None
    far = "rewrites " + "word " * links.WINDOW + "passing"
    assert links.link(tokens(far), frozenset({"rewrites"}), frozenset({"passing"})) is None


def test_the_head_must_follow_the_phrases_own_modifier():
    text = tokens("our agent system for data workflows for system design")
    assert links.link(text, frozenset({"system"}), frozenset({"workflows"}), "agent") == (True, ["for", "data"])
    assert links.link(text, frozenset({"system"}), frozenset({"workflows"}), "tool") is None


def test_a_word_between_shifts_the_share_from_the_prior(toy):
    prior = links.share_first([], TOY)
    assert prior == pytest.approx(0.75)
    assert links.share_first(["zorbex"], TOY) == pytest.approx(prior)  # an unknown word says nothing
    assert links.share_first(["via"], TOY) < 0.15 < prior < links.share_first(["enable"], TOY)


def test_b_that_enables_a_reads_reversed_and_a_that_enables_b_does_not(toy):
    text = "We build sparse rewrites that enable message passing on large molecules."
    assert links.reads_reversed(["message", "passing"], ["sparse", "rewrites"], text)
    assert not links.reads_reversed(["sparse", "rewrites"], ["message", "passing"], text)
    # "b via a": a is the means of b, the title's order
    text = "We speed up message passing via sparse rewrites."
    assert not links.reads_reversed(["sparse", "rewrites"], ["message", "passing"], text)
    assert links.reads_reversed(["message", "passing"], ["sparse", "rewrites"], text)


def test_phrases_in_different_sentences_are_never_reversed(toy):
    text = "Sparse rewrites are cheap. They enable much. Message passing is slow."
    assert not links.reads_reversed(["message", "passing"], ["sparse", "rewrites"], text)


@settings(max_examples=60, deadline=None)
@given(st.lists(WORD, min_size=4, max_size=4, unique=True), st.lists(st.sampled_from(["via", "by", "enable", "that", "the"]), max_size=3))
def test_never_both_ways_round(words, between):
    # whatever the words between, a sentence cannot say that both "a for b" and "b for a" run backwards
    a, b = words[:2], words[2:]
    text = f"The {' '.join(a)} {' '.join(between)} {' '.join(b)} works."
    model = TOY
    saved = links.load_model
    links.load_model = lambda: model  # type: ignore[assignment]
    try:
        assert not (links.reads_reversed(a, b, text) and links.reads_reversed(b, a, text))
    finally:
        links.load_model = saved


def test_the_trainer_counts_which_phrase_comes_first_around_each_word(tmp_path):
    # written for this test: titles "<P> for <Q>" whose abstracts say "Q via P" (20) or "P enables Q" (20)
    rows = [{"title": f"Kit{i}: sparse rewrites for message passing", "abstract": f"We speed up message passing via sparse rewrites. Case {i}."}
            for i in range(20)]
    rows += [{"title": f"Tool{i}: lattice sieves for prime search", "abstract": "Lattice sieves enable prime search at scale."}
             for i in range(20)]
    rows += [{"title": "Notes on nothing", "abstract": "Nothing here."}]
    corpus = training_corpus(tmp_path, rows)
    out = tmp_path / "for_links.json"
    assert train_for_links.main([str(corpus), "--out", str(out)]) == 0
    model = json.loads(out.read_text(encoding="utf-8"))
    assert model["papers"] == 40 and model["prior"] == [20, 20]
    assert model["words"]["via"] == [0, 20] and model["words"]["enable"] == [20, 0]
    assert model["command"].startswith("python -m readinglist.convert.train_for_links") and model["corpus_sha256"]


def test_title_heads_reads_the_last_word_before_for_and_the_head_after():
    assert train_for_links.title_heads("Tool: sparse rewrites for message passing in graphs") == ("rewrites", "passing")
    assert train_for_links.title_heads("Rewrites for passing for graphs") is None  # two "for"s
    assert train_for_links.title_heads("Message passing on graphs") is None


def test_a_topic_join_the_abstract_relates_the_other_way_is_the_reverse(toy):
    from readinglist.convert.titles.relations import says_the_reverse

    text = "Our sparse rewrites of molecular graphs enable message passing at scale."
    assert says_the_reverse(["message", "passing"], ["sparse", "rewrites"], text)
    assert not says_the_reverse(["sparse", "rewrites"], ["message", "passing"], text)


def test_a_purpose_of_the_made_things_own_kind_is_what_it_replaces():
    from readinglist.convert.titles.relations import says_the_reverse

    text = "Convolutional toy networks dominate grid tasks, yet their receptive field is small. We propose a shuffle network."
    assert says_the_reverse("shuffle network".split(), "convolutional toy networks".split(), text)
    assert says_the_reverse("shuffle networks".split(), "convolutional toy network".split(), text)  # either number
    assert not says_the_reverse("shuffle network".split(), "grid tasks".split(), text)


def test_a_modifier_is_refused_when_the_abstract_says_its_opposite_more_often():
    from readinglist.convert.titles.relations import opposite_said

    text = "Exact marginals are intractable. We approximate them with a cheap approximation."
    assert opposite_said(["exact", "inference", "of", "marginals"], text)
    assert not opposite_said(["approximate", "inference"], text)  # "exact" once, "approximat" twice
    assert not opposite_said(["exact", "marginals"], "We compute exact marginals exactly, no approximation.")
    assert not opposite_said(["cheap", "marginals"], text)  # no modifier with an opposite


def test_a_generated_title_never_joins_a_pair_the_abstract_relates_the_other_way():
    # written for this test: the task enables the method, so "<method> for <task>" is backwards
    # (the titles8 generator titled it "Sparse wavelet fusion scheme for glimbex tomography")
    from readinglist.convert.generation import generation_text
    from readinglist.convert.generators import builtin

    raw = ("Glimbex tomography is a central task in remote sensing. Accurate glimbex tomography enables sparse "
           "wavelet fusion across many satellite bands. We propose a new sparse wavelet fusion scheme that runs on "
           "a single device. Our sparse wavelet fusion scheme improves accuracy on three benchmarks.")
    title = builtin.generate(raw, generation_text(raw)).title.lower()
    assert "fusion scheme for glimbex tomography" not in title
    assert not links.reads_reversed(["glimbex", "tomography"], ["sparse", "wavelet", "fusion"], generation_text(raw))


def test_a_longer_phrase_is_also_found_by_its_last_modifier():
    assert links._heads(("sparse", "wavelet", "fusion", "scheme")) == (("scheme", "fusion"), ("fusion", "wavelet"))
    assert links._heads(("a", "fusion", "scheme")) == (("scheme", "fusion"),)
    assert links._heads(("scheme",)) == (("scheme", ""),)


def _careful(a: list[str], b: list[str], plain: str) -> bool:
    """reads_reversed the slow way: every sentence, every pair of heads, no index."""
    from readinglist.convert.lexicon import split_sentences
    from readinglist.convert.titles.constants import REVERSED_BELOW

    model = links.load_model()
    for a_head, a_before in links._heads(tuple(a)):
        for b_head, b_before in links._heads(tuple(b)):
            for _o, sent in split_sentences(plain):
                found = links.link(tokens(sent), links.forms(a_head), links.forms(b_head), a_before, b_before)
                if a_head != b_head and found is not None:
                    share = links.share_first(found[1], model)
                    if (share if found[0] else 1.0 - share) < REVERSED_BELOW:
                        return True
    return False


PIECES = ["sparse rewrites", "message passing", "rewrite", "passings", "via", "that enable", "by", ",", ".", "the",
          "to improve", "for", "rewrites for sparse passing"]


@settings(max_examples=150, deadline=None)
@example(["sparse rewrites", "that enable", "message passing"], (["message", "passing"], ["sparse", "rewrites"]))  # True
@given(st.lists(st.sampled_from(PIECES), min_size=2, max_size=30),
       st.sampled_from([(["message", "passing"], ["sparse", "rewrites"]), (["sparse", "rewrites"], ["message", "passing"]),
                        (["big", "sparse", "rewrite", "passings"], ["message", "passing"])]))
def test_the_indexed_reading_agrees_with_reading_every_sentence(pieces, pair):
    # the learned model (package data): the index over sentences only skips sentences without both heads
    text = "Intro. " + " ".join(pieces).replace(" .", ".").replace(" ,", ",") + " end."
    assert links.reads_reversed(*pair, text) == _careful(*pair, text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["exact", "exactly", "inexact", "approximate", "approximation", "approximately",
                                 "shorter", "longer", "long", "paths", "Exact", ",", "."]), max_size=25))
def test_the_one_pass_count_of_modifiers_agrees_with_counting_each(words):
    import re

    from readinglist.convert.titles.constants import OPPOSITE_MODIFIERS
    from readinglist.convert.titles.relations import contradicted_modifiers

    text = " ".join(words)
    low = text.lower()
    careful = {w for w, opposite in OPPOSITE_MODIFIERS.items()
               if len(re.findall(rf"\b{opposite}", low)) > len(re.findall(rf"\b{w}", low))}
    assert contradicted_modifiers(text) == careful
