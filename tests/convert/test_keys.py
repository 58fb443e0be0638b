"""Citation keys: pattern, ASCII folding, Better BibTeX suffixes."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from readinglist.convert.keys import (
    KeyParts,
    clean_key,
    compile_pattern,
    make_key,
    salient_words,
    unique_key,
)

DEFAULT = "[name|title:2][year]"


@pytest.mark.parametrize(
    "name, title, year, expected",
    [
        ("CanViT", "CanViT: a task- and policy-agnostic active-vision foundation model", 2026, "canvit2026"),
        ("M²LE", "M²LE: merging strength modulation via joint loss estimation", 2026, "m2le2026"),
        ("MDA-DD", "MDA-DD: multimodal dataset distillation", 2026, "mdadd2026"),
        # a spelled-out name: one initial per word, and per part of a hyphenated word, as its
        # acronym has; a hyphenated one-word name stays whole
        ("Generative Trajectory Planning", "Generative Trajectory Planning: planning", 2026, "gtp2026"),
        ("Mode-Controlled Policy Optimization", "Mode-Controlled Policy Optimization: a dial", 2026, "mcpo2026"),
        ("Joint-OCTAMamba", "Joint-OCTAMamba: retinal vessel segmentation", 2026, "jointoctamamba2026"),
        # a version written apart is left out: the year follows, "hero22026" would read as a number
        ("HerO 2", "HerO 2: a fact-checking system", 2026, "hero2026"),
        ("Kandinsky 5.0", "Kandinsky 5.0: foundation models", 2026, "kandinsky2026"),
        ("Gemini Embedding 2", "Gemini Embedding 2: a multimodal embedding model", 2026, "ge2026"),
        ("ResTv2", "ResTv2: a vision transformer", 2023, "restv22023"),
        (None, "ℓ1 regularization that prunes knowledge tentacles", 2026, "l1regularization2026"),
        (None, "A new approach to the theory of grokking", 2025, "theorygrokking2025"),
    ],
)
def test_default_pattern(name, title, year, expected):
    assert make_key(DEFAULT, KeyParts(name=name, title=title, year=year)) == expected


def test_pattern_fields_and_literals():
    parts = KeyParts(name="LIFT", title="LIFT: language-side reasoning", venue="NeurIPS", year=2026)
    assert make_key("[venue][shortyear]-[name]", parts) == "neurips26lift"
    assert make_key("[title:3]", parts) == "languagesidereasoning"


def test_bad_pattern_field_is_rejected():
    with pytest.raises(ValueError, match=r"\[author\]"):
        compile_pattern("[author][year]")


def test_empty_parts_still_give_a_key():
    assert make_key(DEFAULT, KeyParts(title="", year=None)) == "paper"
    assert make_key(DEFAULT, KeyParts(title="of the", year=2024)) == "paper2024"


def test_salient_words_skip_stopwords_and_name():
    assert salient_words("CanViT: a foundation model for active vision", skip="CanViT") == ["foundation", "active", "vision"]


def test_unique_key_suffixes_like_better_bibtex():
    taken = {"x2026"}
    assert unique_key("y2026", taken) == "y2026"
    assert unique_key("x2026", taken) == "x2026a"
    taken |= {f"x2026{c}" for c in "abcdefghijklmnopqrstuvwxyz"}
    assert unique_key("x2026", taken) == "x2026aa"


@given(st.text(), st.text(), st.one_of(st.none(), st.integers(1900, 2100)))
def test_keys_are_ascii_bibtex_safe_and_deterministic(name, title, year):
    parts = KeyParts(name=name or None, title=title, year=year)
    key = make_key(DEFAULT, parts)
    assert re.fullmatch(r"[a-z0-9]*[a-z][a-z0-9]*", key), key  # ASCII, never all digits
    assert len(key) <= 40
    assert make_key(DEFAULT, parts) == key


@given(st.lists(st.text(alphabet="abc", min_size=1, max_size=3), max_size=40))
def test_unique_key_never_returns_a_taken_key(bases):
    taken: set[str] = set()
    for base in bases:
        key = unique_key(base, taken)
        assert key not in taken and key.startswith(base)
        taken.add(key)


def test_clean_key_folds_unicode():
    assert clean_key("Ünïcödé ℓ²") == "unicodel2"
