"""Honest before clever (issue 25): what the authors say they propose stays the title when the
phrase that would replace it comes from the background; its clause is said as titles say it; a
first sentence's subject that only says what drives the need for the work is no topic. Every
text here is written for the tests."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.generation import generation_text
from readinglist.convert.naming import detect_name
from readinglist.convert.titles import make_title
from readinglist.convert.titles.checks import form_checked
from readinglist.convert.titles.postedits import relative_as_purpose
from readinglist.convert.titles.rules import _clause_reduced
from readinglist.convert.titles.text import first_tokens
from readinglist.convert.titles.topic import drives, topic_phrase


def _title(abstract: str) -> str:
    plain = generation_text(abstract)
    return make_title(abstract, plain, detect_name(abstract, plain))


STRAGGLERS = (
    "Distributed training is essential for large scale training of deep neural networks. "
    "The dominant methods for large scale training are synchronous, but they require waiting for all workers in each step. "
    "These methods are therefore limited by the delays of straggling workers. "
    "We propose a simple decentralized method to reduce the variation among workers and thus improve the robustness "
    "of synchronous training. Our experiments show that it speeds up training on hundreds of accelerators."
)


def test_the_proposed_method_is_not_replaced_by_the_opening_phrase():
    """The first sentence's "large scale training of deep neural networks" names the field, not
    what the paper proposes: the title is led by the decentralized method."""
    title = _title(STRAGGLERS)
    assert title.lower().startswith(("decentralized method", "a decentralized method")), title


HEADS = st.sampled_from(["decentralized method", "ridge relay network", "sparse tandem estimator", "mosaic kernel scheme"])
OBJECTS = st.sampled_from(["the variation among workers", "the latency of beacon ledgers", "the cost of prism sensors"])


@settings(max_examples=30, deadline=None)
@given(HEADS, OBJECTS)
def test_a_purpose_clause_is_said_with_for_and_a_gerund(head, obj):
    """"a method to reduce X and thus improve Y" -> "method for reducing X" (cut at the next
    clause); "a network that learns X to do Y" -> "network for learning X"."""
    reduced = _clause_reduced(f"a {head} to reduce {obj} and thus improve the robustness of training".split())
    assert " ".join(reduced) == f"a {head} for reducing {obj}"
    learned = _clause_reduced(f"a {head} that learns {obj} to disentangle client knowledge".split())
    assert " ".join(learned) == f"a {head} for learning {obj}"


def test_that_is_before_an_adjective_is_left_out_and_before_a_noun_phrase_kept():
    assert " ".join(_clause_reduced("a neural network architecture that is capable of amodal perception".split())) == (
        "a neural network architecture capable of amodal perception")
    assert _clause_reduced("a ridge loss that is a variant of the hinge loss".split()) == []  # no adjective to keep
    assert _clause_reduced("a color equivariant architecture that is truly equivariant".split()) == []
    assert _clause_reduced("a ridge relay network for sparse sensor grids".split()) == []  # no clause at all
    # "to" before no base verb is no purpose clause ("to learning" is no "learninging")
    assert _clause_reduced("an approach to learning a transition model that works".split()) == []
    assert _clause_reduced("a ridge method to the best of our knowledge".split()) == []
    assert _clause_reduced("an approach to segmentation of cells in tissue".split()) == []
    # a verb the words before it show to be one: "designed to resist" -> "designed for resisting"
    assert " ".join(_clause_reduced("a ridge framework designed to resist beacon attacks, which".split())) == (
        "a ridge framework designed for resisting beacon attacks")


def test_an_adverb_after_that_is_no_verb():
    """"to explicitly model" taught the phrase model "explicitly" as a verb; "that explicitly
    attends" is not "for explicitlying attends"."""
    assert relative_as_purpose("a local focus mechanism that explicitly attends") == "a local focus mechanism that explicitly attends"
    assert relative_as_purpose("a ranker that can predict the future") == "a ranker for predicting the future"
    assert _clause_reduced("a local focus mechanism that explicitly attends".split()) == []


DRIVERS = st.sampled_from(["The rapid advancement of", "The growing popularity of", "The recent proliferation of",
                           "The explosive growth of", "The rise of"])
FIELDS = st.sampled_from(["deepfake generation techniques", "large language models", "beacon ledger networks"])


@settings(max_examples=25, deadline=None)
@given(DRIVERS, FIELDS)
def test_what_drives_the_need_is_no_topic(driver, field):
    """"The rapid advancement of deepfake generation has intensified the need for detection":
    the subject says why the work is needed; "<method> for rapid advancement of X" reverses it."""
    plain = (f"{driver} {field} has intensified the need for robust detection methods. "
             "We propose a local focus mechanism that attends to discriminative local features.")
    assert topic_phrase(plain) is None
    assert drives(f"{driver} {field}".split(" ", 1)[1])
    assert not form_checked(f"{driver.split(' ', 1)[1]} {field}".split(), plain, None, False, first_tokens(plain))
    # a subject that says what the paper is about is still its topic
    assert topic_phrase(f"Knowledge editing of {field} has emerged as a way to fix errors. We propose a method.") is not None
