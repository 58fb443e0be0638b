"""What may follow "for" in a composed title: what the work serves (said again after the
opening, the first sentence's subject, a term the abstract abbreviates, or what something is
said to be for), never a phrase the opening only names as motivation or consequence."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.titles.candidates import candidates
from readinglist.convert.titles.features import Scorer
from readinglist.convert.titles.purpose import said_again, served

_WORD = st.sampled_from("lattice quorum ledger beacon spectral tandem relay prism mosaic ridge harbour".split())
_PHRASE = st.lists(_WORD, min_size=2, max_size=3, unique=True)

FIRST = "River gauge ranking shapes coastal planning."
LATER = "We propose a tidal sorting network. It sorts gauges by their past readings. Tests on three coasts show fewer misses."


def _motivated(text: str, later: str = LATER) -> str:
    """An abstract whose second sentence names ``text`` only as what the topic matters to."""
    return f"{FIRST} Such ranking plays a vital role in {text}. {later}"


@settings(max_examples=60, deadline=None)
@given(_PHRASE)
def test_a_phrase_the_opening_only_motivates_with_is_not_served(phrase):
    text = " ".join(phrase)
    plain = _motivated(text)
    assert not said_again(phrase, plain, 1)
    assert not served(phrase, plain, 1)
    # the work said to serve it later: its head, in either number, is said again
    head = phrase[-1]
    for later in (f"{LATER} The network helps {head}s.", f"We propose a sorting network for {text}. It sorts gauges."):
        again = _motivated(text, later)
        assert said_again(phrase, again, 1) and served(phrase, again, 1)


@settings(max_examples=60, deadline=None)
@given(_PHRASE)
def test_said_again_only_counts_sentences_after_the_opening_and_after_its_own(phrase):
    text = " ".join(phrase)
    head = phrase[-1]
    # the other opening sentence saying it is no repetition
    assert not said_again(phrase, f"{FIRST} Ranking serves {text} and {head}. {LATER}", 1)
    # nor is the phrase's own sentence, nor one before it
    plain = f"{FIRST} Gauges matter. We study {head}. We propose {text}. Tests pass."
    assert not said_again(phrase, plain, 3)
    assert said_again(phrase, plain, 1)


@settings(max_examples=60, deadline=None)
@given(_PHRASE)
def test_the_subject_an_abbreviated_term_and_what_something_is_for_are_served(phrase):
    text = " ".join(phrase)
    cap = text[:1].upper() + text[1:]
    assert served(phrase, f"{cap} shapes coastal planning. Ranking is slow. {LATER}", 0)
    assert served(phrase, f"The {text} shapes coastal planning. Ranking is slow. {LATER}", 0)
    assert not served(phrase, f"Planning shapes the {text}. Ranking is slow. {LATER}", 0)
    # the subject of the first sentence's main clause, after a subordinate one
    assert served(phrase, f"Since gauges drift, {text} is hard to rank. Ranking is slow. {LATER}", 0)
    assert not served(phrase, f"Gauges drift, {text} is hard to rank. Ranking is slow. {LATER}", 0)
    initials = "".join(w[0] for w in phrase).upper()
    assert served(phrase, f"{FIRST} Ranking is adopted in {text} ({initials}). {LATER}", 1)
    assert served(phrase, f"{FIRST} Gauges are ranked for the {text}. {LATER}", 1)


def _fors(plain: str) -> list[list[str]]:
    scorer = Scorer(lambda t, d=0.0: 0.3, [], 8.0)
    return [b for _e, _new, _n, _a, b in candidates(plain, 15, scorer) if b is not None]


def test_no_composed_pair_puts_a_motivation_phrase_after_for():
    plain = _motivated("regional flood insurance")
    assert not any("insurance" in b for b in _fors(plain))
    again = _motivated("regional flood insurance", f"{LATER} The ranking also prices regional flood insurance.")
    assert any(b == ["regional", "flood", "insurance"] for b in _fors(again))
