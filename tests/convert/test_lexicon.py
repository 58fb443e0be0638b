"""lexicon helpers: the fast forms must find exactly what the regular expressions they replace find."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.lexicon import NAME_CHARS as _C
from readinglist.convert.lexicon import literal_spans

# Few characters, so that literals recur, touch each other and sit next to word characters.
_TEXT = st.text(alphabet="aAB2²-+_ (),.xé", max_size=60)
_LITERAL = st.text(alphabet="aAB2²-+(x", min_size=1, max_size=4)

_BEFORE = re.compile(rf"[{_C}\-]")
_AFTER = re.compile(rf"[{_C}]|-[{_C}]")
_SUFFIX = re.compile(r"(?:\s*\([^()]{0,80}\))?")


def _spans(pattern: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(pattern, text)]


@settings(max_examples=300, deadline=None)
@given(_TEXT, _LITERAL)
def test_literal_spans_matches_finditer(text: str, literal: str) -> None:
    esc = re.escape(literal)
    assert literal_spans(text, literal, _BEFORE, suffix=_SUFFIX) == _spans(
        rf"(?<![{_C}\-]){esc}(?:\s*\([^()]{{0,80}}\))?", text
    )
    assert literal_spans(text, literal, _BEFORE, _AFTER) == _spans(rf"(?<![{_C}\-]){esc}(?![{_C}]|-[{_C}])", text)
    assert literal_spans(text, literal, re.compile(r"[\w\-]"), re.compile(r"\w")) == _spans(rf"(?<![\w\-]){esc}(?![\w])", text)


def test_literal_spans_examples() -> None:
    text = "CanViT (ours), CanViT-B and xCanViT; CanViT."
    assert [s for s, _e in literal_spans(text, "CanViT", _BEFORE, _AFTER)] == [0, 37]
    assert literal_spans(text, "CanViT", _BEFORE, suffix=_SUFFIX)[0] == (0, 13)
    assert literal_spans(text, "", _BEFORE) == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["We", "we", "this paper", "This work", "our paper", "propose", "introduces", "x", "\n", ", ", "weed", "ſ"]), max_size=12))
def test_cue_sentence_matches_its_pattern(pieces: list[str]) -> None:
    from readinglist.convert.name_model import _CUE_SENTENCE, _cue_sentence

    sentence = " ".join(pieces)
    assert _cue_sentence(sentence) == bool(_CUE_SENTENCE.search(sentence))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aGPTv4-.'’s\n LMx", max_size=12))
def test_possessive_and_generic_match_the_plain_forms(token: str) -> None:
    from readinglist.convert import lexicon

    assert lexicon.strip_possessive(token) == re.sub(r"(?:'s|’s|')$", "", token)
    low = lexicon.strip_possessive(token).lower()
    families = any(
        low == f or (low.startswith(f) and re.match(r"[-\s.]?(?:v?\d|[a-z]?$|-)", low[len(f) :])) for f in lexicon.KNOWN_SYSTEMS
    )
    upper = lexicon.strip_possessive(token).upper()
    acronym = upper in lexicon.GENERIC_ACRONYMS or (upper.endswith("S") and upper[:-1] in lexicon.GENERIC_ACRONYMS)
    assert lexicon.is_generic(token) == (acronym or families)
