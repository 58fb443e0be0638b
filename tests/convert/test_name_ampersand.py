"""A name joined by "&" ("TopP&R", "Walk&Retrieve") is one name, never its first part."""

from __future__ import annotations

from readinglist.convert.name_model import choose
from readinglist.convert.name_shape import TOKEN, TOKEN_CAPITAL
from readinglist.text import to_plain


def test_an_ampersand_before_a_capital_joins_one_token():
    text = "We propose TopP&R and Walk&Retrieve, at low R&D cost; rock & roll stays apart."
    for pattern in (TOKEN, TOKEN_CAPITAL):
        found = pattern.findall(text)
        assert "TopP&R" in found and "Walk&Retrieve" in found
        assert "TopP" not in found and "Walk" not in found and "R" not in found
    assert "rock" in TOKEN.findall(text) and "roll" in TOKEN.findall(text)


def test_the_whole_joined_name_is_chosen():
    # written for this test
    abstract = ("Evaluating generative models needs reliable support estimates. We propose TopP&R, a robust "
                "metric for fidelity and diversity. TopP&R gives tighter estimates than earlier metrics.")
    assert choose(abstract, to_plain(abstract)) == "TopP&R"
