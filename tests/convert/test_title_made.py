"""What may lead a composed "<a> for <b>" title: what the paper makes, in the authors' words
(every object of "we propose / present ...", a phrase they call theirs), and never after "for"
a phrase the abstract only names as what the work rests on."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.titles.candidates import _made_phrases, _makes, _only_means, _owned, candidates
from readinglist.convert.titles.features import Scorer

_WORD = st.sampled_from("lattice sparse kernel quorum ledger beacon spectral tandem relay prism mosaic ridge".split())
_PHRASE = st.lists(_WORD, min_size=2, max_size=4, unique=True)

OPENING = "Ranking of river gauges is slow on sparse sensor grids. Sparse sensor grids hide floods."


def _pairs(plain: str) -> list[tuple[list[str], list[str]]]:
    scorer = Scorer(lambda t, d=0.0: 0.3, [], 8.0)
    return [(a, b) for _e, _new, _n, a, b in candidates(plain, 15, scorer) if b is not None]


@settings(max_examples=60, deadline=None)
@given(_PHRASE)
def test_every_object_the_authors_present_is_made_up_to_its_first_preposition(phrase):
    text = " ".join(phrase)
    plain = f"{OPENING} We propose a ridge relay. We also present a {text} estimator with a tidal gauge that adapts."
    made = _made_phrases(plain)
    assert _makes(phrase, made)
    assert _makes([*phrase, "estimator"], made)
    # what the estimator comes with is not what this cue makes (whatever the contribution phrase is)
    objects = [(phrase, lead) for phrase, lead in made if phrase.strip().endswith("tidal gauge")]
    assert objects and all(phrase.find(" tidal gauge ") >= lead for phrase, lead in objects)
    assert not _makes(phrase, _made_phrases(f"{OPENING} A {text} estimator with a tidal gauge adapts."))


def test_the_appositive_of_a_presented_name_is_made():
    plain = f"{OPENING} We present FloodRank, a gauge ranking policy that keeps recent readings."
    made = _made_phrases(plain)
    assert _makes(["gauge", "ranking", "policy"], made)
    assert _makes(["gauge", "ranking"], made)
    assert not _makes(["recent", "readings"], made)


@settings(max_examples=60, deadline=None)
@given(_PHRASE, st.sampled_from(["our", "Our", "the proposed", "a novel", "our new"]))
def test_a_phrase_the_authors_call_theirs_is_owned(phrase, mark):
    text = " ".join(phrase)
    assert _owned(phrase, f"{OPENING} Tests show that {mark} {text} ranks gauges well.")
    assert not _owned(phrase, f"{OPENING} Tests show that the {text} ranks gauges well.")
    assert not _owned(phrase[:1] + ["gauge"], f"{OPENING} Tests show that {mark} {text} ranks gauges well.")


def test_a_pair_is_led_by_a_phrase_the_authors_call_theirs_and_not_by_one_they_compare_with():
    ours = _pairs(f"{OPENING} Experiments show that our tandem kernel estimator improves recall over the prism relay baseline.")
    assert any(a == ["tandem", "kernel", "estimator"] for a, _b in ours)
    assert not any(a == ["prism", "relay", "baseline"] for a, _b in ours)


@settings(max_examples=40, deadline=None)
@given(_PHRASE, st.sampled_from(["rooted in", "inspired by", "based on", "built on", "using"]))
def test_a_phrase_said_only_as_what_the_work_rests_on_is_a_means(phrase, means):
    text = " ".join(phrase)
    assert _only_means(phrase, f"Gauges are ranked by a rule {means} {text}. We study it.")
    assert not _only_means(phrase, f"Gauges are ranked by a rule {means} {text}. The {text} is new.")
    assert not _only_means(phrase, "Gauges are ranked by a rule. We study it.")


def test_no_pair_puts_after_for_what_the_method_only_rests_on():
    plain = ("Tidal ledger theory explains how coastal floods build up over days. "
             "Early flood warning is hard. We propose a gauge ranking method based on tidal ledger theory. "
             "It makes early flood warning a day earlier.")  # said again: what the method serves
    pairs = _pairs(plain)
    assert any(a == ["gauge", "ranking", "method"] for a, _b in pairs)
    assert not any(b == ["tidal", "ledger", "theory"] for _a, b in pairs)


def test_an_example_of_something_is_not_what_a_pair_serves():
    plain = "Ranking models, e.g., gauge ladders, are slow. We study it."
    assert _only_means(["gauge", "ladders"], plain)
    assert not _only_means(["gauge", "ladders"], plain + " Gauge ladders need data.")


def test_an_acronym_between_a_phrase_and_its_stated_purpose_keeps_the_pair():
    said = "We introduce a tidal ranking model {} for flood warning systems in river basins."

    def stated(gap: str) -> bool:
        return any(a == ["tidal", "ranking", "model"] and b[:3] == ["flood", "warning", "systems"]
                   for a, b in _pairs(f"{OPENING} {said.format(gap)}"))

    assert stated("(TRM) tailored") and stated("(TRM)")
    assert not stated("(TRM) and a baseline")


@settings(max_examples=40, deadline=None)
@given(_PHRASE)
def test_what_the_contribution_phrase_works_on_does_not_lead(phrase):
    text = " ".join(phrase)
    plain = f"{OPENING} We propose a {text} method with tidal ledgers for river basins."
    made = _made_phrases(plain)
    assert _makes([*phrase, "method"], made)
    assert not _makes(["tidal", "ledgers"], made)  # its input, not what it makes
    assert not _makes(["river", "basins"], made)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["based on", "using", "rooted in", "the", "trust", "region", "theory", "e.g.,", "we", "fit",
                                 "models", "such as", "a", "trust region", "."]), min_size=1, max_size=30),
       st.sampled_from([["trust", "region"], ["region", "theory"], ["models"], ["trust", "region", "theory"]]))
def test_only_means_reads_every_place_the_phrase_is_said(words, b):
    """_only_means finds the places a phrase is said with str.find: the same places, and the same
    answer, as a regular expression made for the phrase (written for this test)."""
    import re

    from readinglist.convert.titles.candidates import _MEANS_BEFORE, _only_means

    plain = " ".join(words)
    low, said = plain.lower(), " ".join(b).lower()
    ats = [m.start() for m in re.finditer(re.escape(said), low)]
    expected = bool(ats) and all(_MEANS_BEFORE.search(low, max(0, at - 40), at) for at in ats)
    assert _only_means(b, plain) == expected
