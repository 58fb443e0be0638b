"""The messages of the errors that suggest the closest names."""

from __future__ import annotations

from readinglist.errors import UnknownKeyError, UnknownKeysError, UnknownListError


def test_unknown_names_suggest_the_closest_ones_or_none():
    assert str(UnknownKeyError("a{0}b")) == "no paper with key 'a{0}b'"
    assert str(UnknownKeyError("cnvit", ("canvit", "{x}"))) == "no paper with key 'cnvit'; did you mean canvit or {x}?"
    both = UnknownKeysError([UnknownKeyError("k1", ("k10",)), UnknownKeyError("zz")])
    assert str(both) == "no papers with keys 'k1' (did you mean k10?), 'zz'"
    assert str(UnknownListError("wek-12", ("week-12",))) == "no list called 'wek-12'; did you mean week-12? (readinglist lists shows them all)"
    assert str(UnknownListError("x")) == "no list called 'x' (readinglist lists shows them all)"
