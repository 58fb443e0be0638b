"""lexicon helpers: the fast forms must find exactly what the regular expressions they replace find."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.lexicon import NAME_CHARS
from readinglist.convert.lexicon import literal_spans

# Few characters, so that literals recur, touch each other and sit next to word characters.
_TEXT = st.text(alphabet="aAB2²-+_ (),.xé", max_size=60)
_LITERAL = st.text(alphabet="aAB2²-+(x", min_size=1, max_size=4)

_BEFORE = re.compile(rf"[{NAME_CHARS}\-]")
_AFTER = re.compile(rf"[{NAME_CHARS}]|-[{NAME_CHARS}]")
_SUFFIX = re.compile(r"(?:\s*\([^()]{0,80}\))?")


def _spans(pattern: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(pattern, text)]


@settings(max_examples=300, deadline=None)
@given(_TEXT, _LITERAL)
def test_literal_spans_matches_finditer(text: str, literal: str) -> None:
    esc = re.escape(literal)
    assert literal_spans(text, literal, _BEFORE, suffix=_SUFFIX) == _spans(
        rf"(?<![{NAME_CHARS}\-]){esc}(?:\s*\([^()]{{0,80}}\))?", text
    )
    assert literal_spans(text, literal, _BEFORE, _AFTER) == _spans(rf"(?<![{NAME_CHARS}\-]){esc}(?![{NAME_CHARS}]|-[{NAME_CHARS}])", text)
    assert literal_spans(text, literal, re.compile(r"[\w\-]"), re.compile(r"\w")) == _spans(rf"(?<![\w\-]){esc}(?![\w])", text)


def test_literal_spans_examples() -> None:
    text = "CanViT (ours), CanViT-B and xCanViT; CanViT."
    assert [s for s, _e in literal_spans(text, "CanViT", _BEFORE, _AFTER)] == [0, 37]
    assert literal_spans(text, "CanViT", _BEFORE, suffix=_SUFFIX)[0] == (0, 13)
    assert literal_spans(text, "", _BEFORE) == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["We", "we", "this paper", "This work", "our paper", "propose", "introduces", "x", "\n", ", ", "weed", "ſ"]), max_size=12))
def test_cue_sentence_matches_its_pattern(pieces: list[str]) -> None:
    from readinglist.convert.name_context import _CUE_SENTENCE, cue_sentence

    sentence = " ".join(pieces)
    assert cue_sentence(sentence) == bool(_CUE_SENTENCE.search(sentence))


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


_CUES = ["such as", "e.g.,", "i.e.", "like", "than", "vs.", "Compared to", "outperforms", "SURPASSES", "builds on",
         "baselines", "upon", "unlike", "GraphGPS", "X-Net (2)", ",", "and", "or", " ", "\n", "ſuch aſ", "Extended", "x"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_CUES), max_size=10), st.sampled_from(["", " ", "  ", "\n"]))
def test_prior_context_quick_exit_changes_nothing(pieces: list[str], gap: str) -> None:
    from readinglist.convert.naming import _prior_context, _prior_context_by_patterns

    plain = " ".join(pieces) + gap + "CanViT is new."
    pos = len(plain) - len("CanViT is new.")
    assert _prior_context(plain, pos) == _prior_context_by_patterns(plain, pos)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_CUES + ["\t", "\x1c", "\x85", "\u00a0", "K", "E.G.", "vs", "compared", " with"]), max_size=6))
def test_a_prior_cue_is_found_at_the_end_as_the_pattern_finds_it(pieces: list[str]) -> None:
    from readinglist.convert.naming import _PRIOR_BEFORE, _after_prior_cue

    text = "".join(pieces)
    assert _after_prior_cue(text) == bool(_PRIOR_BEFORE.search(text))


def test_prior_last_holds_every_case_of_the_cues_last_letters() -> None:
    from readinglist.convert.naming import _PRIOR_LAST

    last = re.compile(r"[segnrtdohm.,]", re.IGNORECASE)  # what the cues (and ",", "and", "or") end on
    assert {chr(c) for c in range(0x110000) if last.fullmatch(chr(c))} == set(_PRIOR_LAST)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Sparse", "graph", "learning", "of", "for", "the", "We", "propose", "it's", "models'",
                                 "that", "decouples", "GNN", "x", "on", ",", ".", "New", "3.5%", "quickly"]), max_size=40))
def test_phrase_word_counts_are_the_runs_words(words: list[str]) -> None:
    from collections import Counter

    from readinglist.convert import phrase_spans

    text = " ".join(words)
    found, counts = phrase_spans.phrases_and_counts(text)
    runs = [w for ws, _s, _o in found if phrase_spans.JOIN.isdisjoint(ws) for w in ws if len(w) > 2]
    assert Counter(counts) == Counter(phrase_spans.content(w) for w in runs)
    assert found == phrase_spans.candidate_phrases(text)


_PHRASE_WORDS = st.sampled_from(["Sparse", "graph", "graphs", "learning", "of", "for", "the", "We", "propose", "method",
                                 "model", "GNN", "CanViT", "on", ",", ".", "New", "detection", "community", "via", "x"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PHRASE_WORDS, max_size=60), st.integers(min_value=2, max_value=15))
def test_phrase_scores_are_the_weighted_sums_of_their_features(words: list[str], budget: int) -> None:
    """The score taken without building the feature dict is the weighted feature sum, to the
    last bit; no phrase ends on a word that would need trimming."""
    from readinglist.convert import phrase_spans, phrases

    text = " ".join(words)
    weights = phrases.load_model().get("weights", phrases._DEFAULT_WEIGHTS)
    for score, ws, f, _s in phrases.scored_phrases(text, budget):
        assert score == phrases._score(f, weights)
        assert len(ws) <= budget and ws[-1].lower() not in phrase_spans.JOIN | phrase_spans.BREAK
    assert [(s, w, i) for s, w, _f, i in phrases.scored_phrases(text, budget)] == phrases.ranked_phrases(text, budget)
