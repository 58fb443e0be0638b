"""Sentence case keeps a coined hyphenated term ("Iso-C") that the abstract writes so."""

from __future__ import annotations

from readinglist.convert.titles.casing import sentence_case

PLAIN = ("We evaluate merging methods and identify one in particular, Iso-C, as a promising approach. "
         "Training runs on Multi-GPU rigs and on multi-node clusters. Sharpness-Aware training is used.")


def test_a_coined_term_the_abstract_writes_in_mid_sentence_keeps_its_capital():
    assert sentence_case("Iso-C for Distributed Training", PLAIN) == "Iso-C for distributed training"


def test_a_prefix_the_abstract_also_writes_in_lowercase_is_lowercased():
    assert sentence_case("Multi-GPU Training", PLAIN) == "multi-GPU training"  # "multi-node" in the abstract


def test_two_words_joined_with_no_capitals_after_the_hyphen_are_lowercased():
    assert sentence_case("Sharpness-Aware Minimization", PLAIN) == "sharpness-aware minimization"


def test_a_term_only_at_a_sentence_start_is_no_evidence():
    plain = "Mixup-CAM improves maps. We study maps."
    assert sentence_case("Mixup-CAM Maps", plain) == "mixup-CAM maps"
