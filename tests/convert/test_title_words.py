"""The title-word model: probabilities that a title uses an abstract's words, and the expected
ROUGE-1 built on them (properties only: no learned number is pinned)."""

from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from readinglist.convert import title_words as tw

ABSTRACT = (
    "Graph neural networks struggle with long-range dependencies. We propose RingNet, a ring "
    "attention layer for graph neural networks that passes messages along cycles. RingNet improves "
    "long-range graph benchmarks by a wide margin."
)


def test_model_says_how_it_was_made():
    model = tw.load_model()
    assert model["command"].startswith("python -m readinglist.convert.train_title_words")
    assert len(model["corpus_sha256"]) == 64
    assert set(model["weights"]) == set(tw.FEATURES)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400), st.one_of(st.none(), st.text(max_size=20)), st.text(max_size=60))
def test_probabilities_are_probabilities_and_match_the_named_features(text, name, rule_title):
    probs = tw.word_probabilities(text, name, rule_title)
    features = tw.word_features(text, name, None, rule_title)
    assert set(probs) == set(features) == set(tw.tokens(text))
    weights = tw.load_model()["weights"]
    for word, f in features.items():
        z = sum(weights.get(k, 0.0) * v for k, v in f.items())
        assert math.isclose(probs[word], 1.0 / (1.0 + math.exp(-z)), rel_tol=1e-9, abs_tol=1e-12)
        assert 0.0 <= probs[word] <= 1.0


def test_named_and_topic_words_are_likelier_than_filler():
    probs = tw.word_probabilities(ABSTRACT, "RingNet", "")
    assert probs["ringnet"] > probs["margin"]
    assert probs["graph"] > probs["wide"]


@given(st.text(max_size=80))
def test_expected_rouge_is_a_score(title):
    probs = tw.word_probabilities(ABSTRACT, "RingNet", "")
    assert 0.0 <= tw.expected_rouge(title, probs) < 2.0


def test_expected_rouge_prefers_the_topic():
    probs = tw.word_probabilities(ABSTRACT, "RingNet", "")
    good = tw.expected_rouge("RingNet: ring attention for graph neural networks", probs)
    assert good > tw.expected_rouge("RingNet: a wide margin", probs)


_SENTENCE_PIECES = st.sampled_from(list("aB1 .!?,'-é\u212aİ\n") + ["We propose ", "This paper ", "the ", ". The ", "e.g. "])


@settings(max_examples=300, deadline=None)
@given(st.lists(_SENTENCE_PIECES, max_size=60).map("".join))
def test_sentence_tokens_are_each_sentences_tokens(text):
    """word_probabilities reads an ASCII abstract's sentences in place in its lowercased text:
    the same tokens as tokens() of each sentence, for any text."""
    from readinglist.convert import lexicon

    sentences = lexicon.split_sentences(text) or ((0, text),)
    assert tw.sentence_tokens(text, text.lower(), sentences) == [tw.tokens(s) for _o, s in sentences]
