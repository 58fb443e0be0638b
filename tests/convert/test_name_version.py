"""A name keeps the version its abstract writes after it ("HerO 2", "InternVL3.5"): the version
is what tells this paper from the earlier one of the same name."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from readinglist.convert.name_shape import with_version
from readinglist.convert.naming import detect_name
from readinglist.convert.keys import KeyParts, make_key


@pytest.mark.parametrize(
    "name, text, expected",
    [
        # spaced, hyphenated and glued versions; the most common one wins
        ("HerO", "This paper presents HerO 2, our system. HerO 2 is an enhanced version of HerO, "
                 "last year's best model. HerO 2 ranked second.", "HerO 2"),
        ("InternVL", "We introduce InternVL3.5, a family of models. Compared with InternVL3, "
                     "InternVL3.5 gains 16 points; InternVL 3.5 is open.", "InternVL3.5"),
        ("OrthoAI", "We present OrthoAI v2, extending OrthoAI v1. OrthoAI v2 adds an agent.", "OrthoAI v2"),
        ("PARD", "We propose PARD-2, a draft model. PARD-2 is fast.", "PARD-2"),
        ("Kandinsky", "This report introduces Kandinsky 5.0, a family of models.", "Kandinsky 5.0"),
        # no version, or one in fewer than half of the mentions: the name as it is
        ("CanViT", "We introduce CanViT, a foundation model. CanViT is fast.", "CanViT"),
        ("Foo", "We propose Foo. Foo 2 is a variant we also test. Foo beats all.", "Foo"),
        # a measure or a size after the name is no version
        ("Foo", "We propose Foo. Foo 2% better, Foo 3x faster, Foo 7B params.", "Foo"),
        ("GPT4", "We study GPT4 0-shot.", "GPT4"),
    ],
)
def test_with_version(name, text, expected):
    assert with_version(name, text) == expected


def test_detected_name_carries_its_version_and_the_key_does_not():
    text = ("This paper presents HerO 2, Team HUMANE's system for the shared task. HerO 2 is an "
            "enhanced version of HerO, the best open model of last year. HerO 2 ranked second.")
    name = detect_name(text, text)
    assert name == "HerO 2"
    assert make_key("[name|title:2][year]", KeyParts(name=name, title=f"{name}: x", year=2026)) == "hero2026"


@given(st.text(alphabet="Ab 12.v-%x", max_size=40), st.sampled_from(["Ab", "AbV", "A1"]))
def test_with_version_only_ever_appends_what_follows_a_mention(text, name):
    out = with_version(name, text)
    assert out.startswith(name)
    assert out == name or out in text
