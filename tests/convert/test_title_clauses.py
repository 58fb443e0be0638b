"""A title that is part of a sentence (issue 25): opening on a word that opens the abstracts'
sentences but no title, holding a word titles do not hold (a sentence's verb, adverb or
connective), a finite verb, or starting in lowercase; the choice gives such a rule-made title up
for a candidate that passes, and a sentence's adverb inside a title is dropped. The words it
relies on are learned (data/title_forms.json); every text here is written for the tests."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from readinglist.convert.titles import make_title
from readinglist.convert.titles.checks import reads_as_clause
from readinglist.convert.titles.forms import abstract_only, not_initial, verb_forms
from readinglist.convert.titles.postedits import without_adverbs


def test_the_learned_lists_hold_sentence_words_and_not_title_words():
    assert {"despite", "though", "however", "in"} <= not_initial()
    assert {"specifically", "recently", "exceeds", "leverages"} <= abstract_only()
    assert not {"learning", "ranking", "graph", "neural"} & (not_initial() | abstract_only())
    assert "for" in not_initial() and "for" not in abstract_only()  # inside a title, not at its start


@given(st.sampled_from(["Despite", "Though", "However", "In"]), st.sampled_from(["sparse toy rankers", "a classic voting rule"]))
def test_a_title_opening_on_a_sentence_opener_is_a_clause(opener, rest):
    assert reads_as_clause(f"{opener} {rest}", None)
    assert not reads_as_clause(f"Sparse toy rankers for {rest}", None)


def test_a_word_titles_do_not_hold_makes_a_clause_anywhere_in_it():
    assert reads_as_clause("Toy ranker exceeds the baseline", None)  # a sentence's verb
    assert reads_as_clause("Toy voting rules specifically", None)  # an adverb at the end
    assert reads_as_clause("ToyRank: voting rules that can rank", "ToyRank")  # a finite verb
    assert not reads_as_clause("ToyRank: sparse voting rules for toy ranking", "ToyRank")


def test_a_sentence_that_lost_its_subject_is_a_clause():
    """"Investigated whether ...", "Defined modified distances": a past form titles do not hold
    opens a sentence whose subject was cut, not a title; an -ed word titles do hold stays."""
    assert "investigated" in abstract_only()
    assert reads_as_clause("Investigated whether toy rankers predict the vote", None)
    assert reads_as_clause("ToyRank: investigated whether toy rankers predict the vote", "ToyRank")
    assert not reads_as_clause("Randomized smoothing for toy rankers", None)
    assert not reads_as_clause("Learned index structures for toy rankers", None)


def test_a_title_ending_on_a_word_cut_short_ends_badly():
    from readinglist.convert.titles.checks import ends_badly

    assert ends_badly("Satellite video agent dr")
    assert not ends_badly("Video agents for satellite images")
    assert not ends_badly("A toy ranker for Go")
    assert not ends_badly("Toy rankers, part II")


def test_whole_relative_and_participle_phrases_and_inner_adverbs_are_left_to_the_post_edits():
    # long but whole: a relative clause with its verb, a participle's phrase, a number word
    assert not reads_as_clause("ToyRank: a ranker that leverages voting rules", "ToyRank")
    assert not reads_as_clause("ToyRank: a ranker designed for three toy tasks", "ToyRank")
    # an adverb before a verb's form inside the title is dropped by the post-edit, not a clause
    assert not reads_as_clause("A toy ranker for effectively merging votes", None)
    assert without_adverbs("A toy ranker for effectively merging votes") == "A toy ranker for merging votes"


def test_a_verbs_s_form_after_its_subject_makes_a_clause_and_a_plural_noun_does_not():
    assert {"inherits", "supplies", "alters"} <= verb_forms()
    assert not {"models", "methods", "networks", "votes", "rankings"} & verb_forms()
    assert reads_as_clause("Toy ranker inherits voting merits", None)
    assert reads_as_clause("ToyRank: the ranker alters its ballots", "ToyRank")
    assert not reads_as_clause("Toy ranker of inherited voting merits", None)
    assert not reads_as_clause("ToyRank: a ranker which alters ballots", "ToyRank")  # a whole relative clause


def test_a_title_without_a_name_starting_in_lowercase_is_a_clause_and_a_subtitle_is_not():
    assert reads_as_clause("toy voting rules for sparse ranking", None)
    assert not reads_as_clause("ToyRank: toy voting rules for sparse ranking", "ToyRank")
    assert not reads_as_clause("iRank voting rules for sparse ranking", None)  # a word with a capital


def test_the_adverb_post_edit_keeps_an_article_or_a_number_its_adjective():
    kept = "A publicly available toy corpus of votes"
    assert without_adverbs(kept) == kept  # "a available" would be wrong
    assert without_adverbs("With 20 carefully designed toy tasks") == "With 20 carefully designed toy tasks"
    assert without_adverbs("Toy votes specifically") == "Toy votes specifically"  # the last word: a clause instead
    assert without_adverbs("ToyRank: a ranker specifically designed for votes") == "ToyRank: a ranker designed for votes"


_ABSTRACT = (
    "Despite significant advances in voting theory, ranking many candidates from sparse ballots stays slow. "
    "We propose sparse ballot ranking, a voting rule for ranking candidates from sparse ballots. "
    "Sparse ballot ranking recovers the true order of candidates with far fewer ballots than plurality voting. "
    "Experiments on toy elections show that sparse ballot ranking needs ten times fewer ballots."
)


def test_no_generated_title_opens_on_a_sentence_opener_or_holds_a_sentence_word():
    made = make_title(_ABSTRACT, _ABSTRACT, None)
    assert made and not reads_as_clause(made, None)
    assert "ballot" in made.lower()
