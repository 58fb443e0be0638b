"""An established term the training abstracts capitalise ("Monte Carlo", "Euler") is not the
paper's own name, however the abstract introduces it; a coined word is."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.name_model import EVERYDAY_MIN_DF, choose, everyday_term, load_model
from readinglist.text import to_plain

# a toy model's counts: how many training abstracts capitalise each
TOY = {"frequent": {"Euler": 23, "monte carlo": 178, "Falcon": 3, "neural network": 135, "GPT-4": 900}}


@pytest.mark.parametrize("name", ["Euler", "Monte Carlo", "Neural Network"])
def test_a_run_of_plain_words_many_abstracts_capitalise_is_an_everyday_term(name):
    assert everyday_term(name, TOY)


@pytest.mark.parametrize("name", ["Falcon", "GPT-4", "MonteCarloNet", "Tiramisu"])
def test_a_coined_word_a_model_name_or_an_unseen_word_is_not(name):
    assert not everyday_term(name, TOY)


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_the_count_alone_decides_for_plain_words(count):
    model = {"frequent": {"Quokka": count, "quokka rover": count}}
    assert everyday_term("Quokka", model) == (count >= EVERYDAY_MIN_DF)
    assert everyday_term("Quokka Rover", model) == (count >= EVERYDAY_MIN_DF)


def test_the_shipped_counts_keep_established_terms_from_being_a_papers_name():
    assert everyday_term("Monte Carlo", load_model()) and everyday_term("Euler", load_model())
    # written for this test: the abstract says it introduces the term as if a name
    abstract = ("Sampling posteriors is slow. We introduce Monte Carlo, a sampler for Bayesian neural networks "
                "that refines the posterior. Monte Carlo improves calibration on five benchmarks.")
    assert choose(abstract, to_plain(abstract)) is None
    coined = abstract.replace("Monte Carlo", "Quokkaflow")
    assert choose(coined, to_plain(coined)) == "Quokkaflow"
