"""readinglist.convert.matching: normalize, fingerprint and NearIndex on the seed abstracts."""

from __future__ import annotations

import re

import pytest
from helpers import ABSTRACTS, PERTURBATIONS, latex_cleaned, reflow, typos, word_edits
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.convert.matching import NearIndex, fingerprint, normalize

THRESHOLD = default_config().duplicate_threshold



def test_seeds_are_loaded():
    assert len(ABSTRACTS) == 38
    assert any("\\emph{" in a for a in ABSTRACTS) and any("$" in a for a in ABSTRACTS)


# -- normalize ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, expected",
    [
        (r"\emph{Caf\'e} $\ell_1$ regularization", "cafe l1 regularization"),
        ("*café* ℓ1 regularization", "cafe l1 regularization"),
        ("we introduce __CapTrack__, a **capability**-centric `framework`", "we introduce captrack a capability centric framework"),
        ("M$^2$LE and M²LE", "m2le and m2le"),
        ("prunes ``tentacles'' of \\textbf{each} vector", "prunes tentacles of each vector"),
        ("drops by $\\sim$8\\% with $\\alpha{=}0$", "drops by 8 with α 0"),
        ("Line one\r\nline  two\n\n\tthree", "line one line two three"),
        ("fran\\c{c}ais vs français, Schr\\\"odinger vs Schrödinger", "francais vs francais schrodinger vs schrodinger"),
        ("论文列表：中文", "论文列表 中文"),
        ("$$ {} -- !", ""),
    ],
)
def test_normalize_examples(raw, expected):
    assert normalize(raw) == expected


@pytest.mark.parametrize("name", ["reflow", "crlf", "extra_spaces", "emph_removed"])
def test_normalize_hides_layout_and_markup_changes(name):
    """Layout-only changes normalise to exactly the same text."""
    for abstract in ABSTRACTS:
        assert normalize(PERTURBATIONS[name](abstract)) == normalize(abstract)


def test_latex_cleaned_copy_normalises_alike():
    """pylatexenc's Unicode rendering of a LaTeX abstract normalises to (almost always) the
    same text as the LaTeX: ``$\\ell_1$`` vs ``ℓ_1``, ``\\emph{x}`` vs ``x``, ``\\%`` vs ``%``."""
    same = sum(normalize(latex_cleaned(a)) == normalize(a) for a in ABSTRACTS)
    assert same >= len(ABSTRACTS) - 3


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_normalize_is_idempotent(text):
    once = normalize(text)
    assert normalize(once) == once


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_normalize_output_is_lowercase_words(text):
    out = normalize(text)
    assert out == out.strip() and "  " not in out
    assert all(ch.isalnum() for word in out.split(" ") for ch in word)


_word = st.text(alphabet=st.characters(categories=("L", "N", "P")), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(_word, min_size=1, max_size=30), st.data())
def test_fingerprint_is_stable_under_whitespace(words, data):
    spaced = "".join(w + data.draw(st.sampled_from([" ", "  ", "\n", "\r\n", "\t", " \n "])) for w in words)
    assert fingerprint(spaced) == fingerprint(" ".join(words))
    assert fingerprint(" ".join(words)) == fingerprint(" ".join(words))  # deterministic
    assert re.fullmatch(r"[0-9a-f]{16}", fingerprint(spaced))


def test_fingerprint_tells_different_abstracts_apart():
    prints = {fingerprint(a) for a in ABSTRACTS}
    assert len(prints) == len(ABSTRACTS)
    assert fingerprint(reflow(ABSTRACTS[0])) == fingerprint(ABSTRACTS[0])
    assert fingerprint(typos(ABSTRACTS[0], 1, 0)) != fingerprint(ABSTRACTS[0])


# -- NearIndex ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seed_index() -> NearIndex:
    index = NearIndex()
    for i, abstract in enumerate(ABSTRACTS):
        index.add(f"s{i}", abstract)
    return index


@pytest.mark.parametrize("name", sorted(PERTURBATIONS))
def test_perturbed_copy_finds_its_original(seed_index, name):
    perturb = PERTURBATIONS[name]
    changed = 0
    for i, abstract in enumerate(ABSTRACTS):
        copy = perturb(abstract)
        changed += copy != abstract
        found = seed_index.best(copy, THRESHOLD)
        assert found is not None, f"{name}: abstract {i} not found"
        assert found[0] == f"s{i}", f"{name}: abstract {i} matched {found}"
    assert changed >= 2  # the perturbation did something (only some abstracts hold LaTeX)


def test_seed_abstracts_never_match_each_other():
    """Same-topic abstracts (several on LLM forgetting, model merging, unlearning) are
    different papers: none scores near the threshold against another."""
    from rapidfuzz.fuzz import ratio

    normed = [normalize(a) for a in ABSTRACTS]
    closest = max(ratio(a, b) for i, a in enumerate(normed) for b in normed[i + 1 :])
    assert closest < 70, closest  # the gap the default threshold (92) relies on
    for i, abstract in enumerate(ABSTRACTS):
        index = NearIndex()
        for j, other in enumerate(ABSTRACTS):
            if j != i:
                index.add(f"s{j}", other)
        assert index.best(abstract, THRESHOLD) is None
        assert index.candidates(abstract, 75, limit=10) == []


def test_candidates_are_ranked_and_limited():
    base = ABSTRACTS[10]  # model merging
    index = NearIndex()
    index.add("original", base)
    index.add("one-typo", typos(base, 1, 7))
    index.add("three-edits", word_edits(base, 3, 8))
    index.add("other-paper", ABSTRACTS[11])
    found = index.candidates(base, THRESHOLD, limit=5)
    assert [id for id, _ in found] == ["original", "one-typo", "three-edits"]
    assert found[0][1] == 100.0 and 100.0 > found[1][1] > found[2][1] >= THRESHOLD
    assert index.candidates(base, THRESHOLD, limit=2) == found[:2]
    assert index.best(base, THRESHOLD) == ("original", 100.0)


def test_exact_duplicates_tie_in_insertion_order():
    index = NearIndex()
    index.add("b", ABSTRACTS[0])
    index.add("a", reflow(ABSTRACTS[0]))
    assert index.candidates(ABSTRACTS[0], THRESHOLD) == [("b", 100.0), ("a", 100.0)]


def test_add_again_replaces_and_remove_forgets():
    index = NearIndex()
    index.add("x", ABSTRACTS[0])
    index.add("x", ABSTRACTS[1])
    assert len(index) == 1 and "x" in index
    assert index.best(ABSTRACTS[0], THRESHOLD) is None
    assert index.best(ABSTRACTS[1], THRESHOLD) == ("x", 100.0)
    index.remove("x")
    index.remove("never-added")
    assert len(index) == 0 and index.best(ABSTRACTS[1], 50) is None


def test_text_without_words_matches_nothing():
    index = NearIndex()
    index.add("empty", "$$ {} --")
    assert index.best("$$ {} --", 0) is None
    assert index.candidates("", 0) == []


def test_short_texts_match_on_their_own_words():
    index = NearIndex()
    index.add("t", "Sparse training.")
    assert index.best("sparse   TRAINING", THRESHOLD) == ("t", 100.0)
    assert index.best("sparse trainings", 80) == ("t", pytest.approx(96.77, abs=0.01))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=200), min_size=1, max_size=8), st.data())
def test_an_added_text_always_finds_itself(texts, data):
    index = NearIndex()
    for i, text in enumerate(texts):
        index.add(str(i), text)
    i = data.draw(st.integers(0, len(texts) - 1))
    found = index.best(texts[i], THRESHOLD)
    if not normalize(texts[i]):
        assert found is None
    else:
        assert found is not None and found[1] == 100.0
        assert normalize(texts[int(found[0])]) == normalize(texts[i])


@settings(max_examples=100, deadline=None)
@given(st.integers(0, len(ABSTRACTS) - 1), st.integers(1, 3), st.integers(0, 10_000))
def test_small_typos_always_match_at_the_default_threshold(i, n, seed):
    index = NearIndex()
    for j, abstract in enumerate(ABSTRACTS):
        index.add(str(j), abstract)
    assert index.best(typos(ABSTRACTS[i], n, seed), THRESHOLD)[0] == str(i)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, len(ABSTRACTS) - 1), min_size=1, max_size=12), st.data())
def test_remove_forgets_only_what_it_removes(picks, data):
    """Adding (possibly the same abstract under several ids) and removing keeps the index
    consistent: removed ids are never returned, the others still are."""
    index = NearIndex()
    for n, i in enumerate(picks):
        index.add(f"id{n}", ABSTRACTS[i])
    removed = data.draw(st.sets(st.integers(0, len(picks) - 1)))
    for n in removed:
        index.remove(f"id{n}")
    assert len(index) == len(picks) - len(removed)
    for n, i in enumerate(picks):
        ids = {id for id, _ in index.candidates(typos(ABSTRACTS[i], 1, n), THRESHOLD, limit=len(picks))}
        alive = {f"id{m}" for m, j in enumerate(picks) if j == i and m not in removed}
        assert ids == alive
