"""make_title: readable generated titles, checked on every seed and held-out abstract."""

from __future__ import annotations

import re

import pytest
from helpers import BLIND, HELDOUT, HELDOUT_MORE, SEEDS
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.naming import detect_name
from readinglist.convert.lexicon import DANGLING
from readinglist.convert.titles import MAX_WORDS, make_title, rule_made_title
from readinglist.text import to_plain

ALL = SEEDS + HELDOUT + HELDOUT_MORE + BLIND


def generated(raw: str) -> tuple[str | None, str]:
    plain = to_plain(raw)
    name = detect_name(raw, plain)
    return name, make_title(raw, plain, name)


def assert_well_formed(title: str) -> None:
    words = title.split()
    assert 1 <= len(words) <= MAX_WORDS, title
    for bad in ("\\", "$", "**", "__", "{", "}", "``", "''"):
        assert bad not in title, (bad, title)
    assert words[-1].lower().strip(",;:") not in DANGLING, title
    assert not re.search(r"[\s,;:.!?\-–—]$", title), title
    assert title == title.strip() and "  " not in title


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_titles_are_well_formed(raw):
    name, title = generated(raw)
    assert_well_formed(title)
    if name:
        assert title.startswith(name + ":") or title == name
        after = title[len(name) + 2 :]
        # sentence case after the colon: no Title-Case run of ordinary words
        assert not re.match(r"(?:[A-Z][a-z]+ ){2}[A-Z][a-z]+", after), title
    else:
        assert title[:1] == title[:1].upper()


# A contribution clause: "we propose/introduce/study/... a|an|the ..." (or "this paper/work ...").
CONTRIBUTION = re.compile(
    r"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:(?:first|further|also|here|then)\s+)?"
    r"(?:propose|introduce|present|develop|design|create|study|investigate|examine|analy[sz]e|formali[sz]e|extend|collect)(?:s|d|ed)?"
    r"\s+(?:a|an|the)\b"
)
# Finite verbs a sentence-shaped title would carry.
FINITE = frozenset(
    """is are was were has have had can could may might will would should does do did remains remain depends
    depend explains explain involves involve enables enable shows show aims relies rely arise arises
    promises faces offers requires suffers""".split()
)
# Words a title (and so a key) should not start with: sentence openers and pointers back to earlier text.
BAD_OPENERS = frozenset("existing many most recent prior previous current several some we our this these however here".split())


def finite_verb(title: str) -> str | None:
    """A finite verb outside a question clause ("How X shapes Y" is a noun clause)."""
    words = [w.lower().strip(",;:") for w in title.split()]
    if words and words[0] in {"how", "why", "whether", "what", "when"}:
        return None
    for i, w in enumerate(words):
        if w in FINITE and not any(q in words[:i] for q in ("how", "why", "whether", "what", "which")):
            return w
    return None


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_titles_read_like_titles(raw):
    """Noun phrases where the abstract states a contribution; no pointers back to earlier text;
    a key-worthy first word."""
    plain = to_plain(raw)
    name, title = generated(raw)
    words = [w.lower().strip(",;:") for w in title.split()]
    assert not {"this", "these", "such", "our", "we"} & set(words), title
    if name is None:
        from readinglist.convert.keys import salient_words

        assert salient_words(title)[0] not in BAD_OPENERS, title
        if CONTRIBUTION.search(plain):
            assert finite_verb(title) is None, (finite_verb(title), title)
            first_sentence = plain.split(". ")[0]
            assert not first_sentence.startswith(title), title



# The evaluator's form defects (../shared/tools/eval_realworld.py), as properties of every title
# of the project's own abstracts: what a person would write is a noun phrase, not a clause.
_FINITE = frozenset("is are was were can has have does do will may might could should would".split())


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_titles_are_noun_phrases_not_sentences(raw):
    name, title = generated(raw)
    body = title.split(": ", 1)[1] if name and title.startswith(name + ": ") else title
    assert not _FINITE & {w.lower() for w in re.findall(r"[A-Za-z]+", body)}, title
    assert not re.match(r"(?:this|these|we|our|in this)\b", body, re.IGNORECASE), title
    assert len(title.split()) >= 4, title
    assert "http" not in title and "www." not in title
    opening = re.findall(r"[a-z0-9]+", raw.lower())[:5]
    assert re.findall(r"[a-z0-9]+", title.lower())[:5] != opening, title
    if name:
        assert title.lower().count(name.lower()) == 1, title  # never the name repeated


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "Untitled abstract"),
        ("$$ ** __", "Untitled abstract"),
        ("Deep nets overfit.", "Deep nets overfit"),
        ("We propose a simple yet effective regularizer for sparse attention.", "Regularizer for sparse attention"),
        ("Graphs are everywhere. We study how these graphs grow over time.", "How graphs grow over time"),
        # topic from the first sentence's subject, joined to a short contribution
        ("Knowledge editing has emerged as a field. We propose a sparse update rule.", "Sparse update rule for knowledge editing"),
        # ... but not when the contribution already names it
        ("Knowledge editing has emerged as a field. We propose a sparse editing rule for knowledge editing.",
         "Sparse editing rule for knowledge editing"),
        # an analysis is "of" its topic; "Existing studies of X" -> X
        ("Existing studies of tokenization focus on English. We develop a formal linguistic theory.",
         "Formal linguistic theory of tokenization"),
        ("Existing studies of tokenization focus on English. We develop a formal theory of subwords.",
         "Formal theory of subwords in tokenization"),
        # "of this problem" points back to an open question
        ("Why transformers length-generalise poorly remains unclear. We give a causal account of this gap.",
         "Causal account of why transformers length-generalise poorly"),
        # a finding is given without "We find that"
        ("We find that deeper networks forget more slowly when trained with replay.", "Deeper networks forget more slowly"),
        # evaluation verbs become gerunds; artefacts stay nouns
        ("We extend diffusion models to graphs with cycles by sampling walks.", "Extending diffusion models to graphs with cycles"),
        ("We collected a dataset of 900 annotated court rulings.", "A dataset of 900 annotated court rulings"),  # its article: no headless opener
    ],
)
def test_small_cases(text, expected):
    assert make_title(text, text, None) == expected


def test_coined_term_is_the_rules_topic():
    """The rules join a short contribution to a term the abstract coins (the learned choice
    may then prefer another phrase of the abstract, so this is the rule-made title)."""
    text = "Models copy text, a behaviour we term echoing. We propose a fast detector that flags copies."
    assert rule_made_title(text, None) == "Fast detector for echoing"


def test_name_longer_than_budget_is_cut_not_crashed():
    name = " ".join(["Word"] * 20)
    assert len(make_title(name, name, name).split()) <= MAX_WORDS


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400), st.one_of(st.none(), st.text(min_size=1, max_size=20)))
def test_any_text_gives_a_short_nonempty_title(text, name):
    title = make_title(text, text, name)
    assert title and len(title.split()) <= MAX_WORDS
    assert make_title(text, text, name) == title


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("we propose a novel the of for model (LLM) $x$ **bold** graph data , . : that which".split()), max_size=40))
def test_wordy_text_never_dangles(words):
    text = " ".join(words)
    title = make_title(text, to_plain(text), None)
    assert title and len(title.split()) <= MAX_WORDS
    assert "$" not in title and "**" not in title


TOPIC = "Offline reinforcement learning suffers from extrapolation error. We give a remedy."


@pytest.mark.parametrize(
    ("phrase", "joined"),
    [
        # a phrase that does not say the topic gets it
        ("three-part remedy", "three-part remedy for offline reinforcement learning"),
        # ... not when it says it already, in words or as an acronym, or already says what it is for
        ("remedy for offline reinforcement learning", None),
        ("remedy for extrapolation error", None),
        ("remedy in ORL", None),
        ("value remedies of ORLs", None),
    ],
)
def test_a_phrase_is_joined_to_the_topic_only_when_it_lacks_it(phrase, joined):
    from readinglist.convert.titles.topic import phrase_with_topic

    words = phrase.split()
    assert " ".join(phrase_with_topic(words, TOPIC)) == (joined or phrase)


def test_the_topic_never_overflows_the_budget():
    from readinglist.convert.titles.topic import phrase_with_topic

    words = "a b c d e f g h i j".split()
    assert len(phrase_with_topic(words, TOPIC, budget=12)) <= 12


# The choice against the abstract's opening words: _not_worse is the probability that a
# candidate's ROUGE-1 against an unseen title is no lower than the opening's, each word in the
# title independently with its probability. Checked against counting every possible title.
_WORDS = st.sampled_from("graph neural network ring attention cycle message margin benchmark".split())


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_WORDS, min_size=1, max_size=6),
    st.lists(_WORDS, min_size=1, max_size=5),
    st.dictionaries(_WORDS, st.floats(0.0, 1.0), min_size=0, max_size=9),
    st.integers(0, 3),
    st.floats(1.0, 12.0),
)
def test_not_worse_is_the_probability_over_every_possible_title(candidate, opening, probs, extra, length):
    from itertools import product

    from readinglist.convert.titles.features import not_worse, Opening

    mine = dict.fromkeys(candidate)
    size = len(mine) + extra  # a title may say a word twice
    got = not_worse(mine, size, Opening(opening, probs.get, length))
    words = sorted(set(candidate) | set(opening))
    theirs = set(opening)
    want = 0.0
    for used in product((False, True), repeat=len(words)):
        chance = 1.0
        for w, u in zip(words, used):
            p = probs.get(w, 0.0)
            chance *= p if u else 1.0 - p
        hits = {w for w, u in zip(words, used) if u}
        if len(hits & set(mine)) / (size + length) >= len(hits & theirs) / (len(opening) + length) - 1e-12:
            want += chance
    assert 0.0 <= got <= 1.0 + 1e-9
    assert abs(got - want) < 1e-9


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_WORDS, min_size=0, max_size=6),
    st.lists(_WORDS, min_size=1, max_size=5),
    st.dictionaries(_WORDS, st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0)), min_size=0, max_size=9),
    st.integers(0, 3),
    st.floats(1.0, 12.0),
    st.floats(-1.5, 1.5),
)
def test_not_worse_given_what_it_must_beat_is_exact_or_cannot_beat_it(candidate, opening, probs, extra, length, need):
    """With ``need`` the probability is the same float as without it, or -inf only when it is
    no higher than ``need`` (the upper bound checked first never drops a candidate that wins)."""
    from readinglist.convert.titles.features import not_worse, Opening

    mine = dict.fromkeys(candidate)
    size = len(mine) + extra
    exact = not_worse(mine, size, Opening(opening, probs.get, length))
    got = not_worse(mine, size, Opening(opening, probs.get, length), need)
    assert got == exact or (got == float("-inf") and exact <= need)


def test_a_title_saying_all_the_opening_says_is_never_worse():
    from readinglist.convert.titles.features import not_worse, Opening

    probs = {"graph": 0.7, "neural": 0.4, "ring": 0.9}.get
    opening = Opening(["graph", "neural"], probs, 8.0)
    assert abs(not_worse(dict.fromkeys(["graph", "neural"]), 2, opening) - 1.0) < 1e-9
    # one more likely word of its own only helps; a longer title of unlikely words hurts
    more = not_worse(dict.fromkeys(["graph", "neural", "ring"]), 3, opening)
    padded = not_worse(dict.fromkeys(["graph", "neural", "margin", "cycle"]), 4, opening)
    assert more > padded


def test_for_before_a_plain_verb_is_not_a_title():
    from readinglist.convert.titles.checks import for_a_verb

    assert for_a_verb("bandit algorithm for minimize regret".split())
    assert not for_a_verb("bandit algorithm for minimizing regret".split())
    assert not for_a_verb("bandit algorithm for regret minimization".split())
    # at the end, after a plural noun or "to": a clause or a purpose cut off
    assert for_a_verb("sparse attention pattern for video models excel".split())
    assert for_a_verb("tree autoencoder for spatial data represent".split())
    assert for_a_verb("a variational relaxation to identify".split())
    assert not for_a_verb("language models for mental health support".split())
    assert not for_a_verb("graph transformers for spatial data".split())
    assert not for_a_verb("an analysis of loss landscapes".split())
    # a verb ending in -ss ("suppresses" learned as a verb), not a noun that ends so
    assert for_a_verb("concept redirection for suppress undesirable knowledge".split())
    assert not for_a_verb("learned policies for access control".split())
    assert not for_a_verb("a benchmark for chess".split())


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_no_title_runs_on_into_a_verb(raw):
    from readinglist.convert.titles.checks import for_a_verb

    _name, title = generated(raw)
    assert not for_a_verb(re.findall(r"[a-z0-9]+", title.lower())), title


def test_a_subject_and_its_verb_from_the_abstract_are_a_clause_not_a_title():
    from readinglist.convert.titles.checks import subject_and_verb

    plain = ("Recommender systems shape what people read: platforms learn user tastes from clicks and "
             "amplify them. We propose a damping scheme that keeps the catalogue diverse.")
    low = "platforms learn user tastes from clicks".split()
    assert subject_and_verb(low, plain)  # the abstract's clause, cut out
    assert not subject_and_verb("damping scheme for diverse catalogues".split(), plain)
    # the same words not written as subject and verb in the abstract are left alone
    assert not subject_and_verb(low, "We study clicks. Platforms that learn from them drift.")
    # a relative or question word may lead a clause in a title
    assert not subject_and_verb("predicting which platforms learn user tastes".split(), plain)


def test_a_clause_of_the_background_is_never_the_title():
    plain = ("Large language models learn human preferences from feedback data, and annotators reward "
             "fluent answers. We introduce a calibration penalty for reward models that discounts "
             "fluency when it is not evidence of correctness, and show it lowers reward hacking.")
    title = make_title(plain, plain, None)
    low = re.findall(r"[a-z0-9]+", title.lower())
    assert "models learn" not in " ".join(low), title
    assert "annotators reward" not in " ".join(low), title


@given(st.text(alphabet=st.sampled_from("aZ09 -.,İΣσẞﬀ\u0130x"), max_size=60))
def test_first_five_tokens_are_findalls_first_five(text):
    from readinglist.convert.titles.text import first_five_tokens

    assert first_five_tokens(text) == tuple(re.findall(r"[a-z0-9]+", text.lower())[:5])


def test_stems_let_a_pair_see_a_word_said_twice():
    from readinglist.convert.titles.features import stems

    assert {"transformer", "real", "world", "real-world"} <= stems(["transformers", "real-world"])
    assert "clas" not in stems(["class"])


def test_sentence_case_keeps_proper_words_and_lowercases_a_spelled_out_name():
    from readinglist.convert.titles.casing import sentence_case
    from readinglist.convert.titles import proper_words

    assert {"gaussian", "bayesian", "english", "markov"} <= proper_words()  # learned: data/title_forms.json
    plain = "We propose Aligned Mass Transport with Gaussian Splatting for Bayesian Optimization in English."
    assert sentence_case("Aligned Mass Transport", plain) == "aligned mass transport"
    assert sentence_case("Gaussian Splatting", plain) == "Gaussian splatting"
    assert sentence_case("Bayesian Optimization for English Tweets", plain) == "Bayesian optimization for English tweets"
    assert sentence_case("UNlearning with LLMs", plain) == "unlearning with LLMs"


def test_sentence_case_treats_each_part_of_a_joined_word_as_a_word():
    """Hyphens and en dashes (also TeX's "--") join parts, each cased on its own; a part joined
    to a proper word keeps its capital unless it is a common word or the abstract writes it in
    lowercase."""
    from readinglist.convert.titles.casing import sentence_case
    from readinglist.convert.titles import proper_words

    assert {"german", "kolmogorov", "markovian"} <= proper_words()  # learned: data/title_forms.json
    plain = "We release a German--Bulgarian corpus for Bayes-Adaptive Planning with Gaussian-Based models; it is based on text."
    assert sentence_case("German--Bulgarian Safety Dataset", plain) == "German--Bulgarian safety dataset"
    assert sentence_case("German\u2013Bulgarian Corpus", plain) == "German\u2013Bulgarian corpus"
    assert sentence_case("Non-Markovian Rewards", plain) == "non-Markovian rewards"
    assert sentence_case("Gaussian-Based Models", plain) == "Gaussian-based models"  # "based": lowercase in the abstract
    assert sentence_case("Bayes-Adaptive Planning", plain) == "Bayes-adaptive planning"  # "adaptive": a common word
    assert sentence_case("Vision-Language Models", plain) == "vision-language models"
    assert sentence_case("-Leading And-Trailing-", plain) == "-leading and-trailing-"


def test_a_term_in_title_case_is_written_in_lowercase_but_a_proper_name_is_not():
    from readinglist.convert.titles.postedits import terms_in_lowercase
    from readinglist.convert.titles import proper_words

    assert {"hugging", "anything"} <= proper_words()  # learned: data/title_forms.json
    assert terms_in_lowercase("Efficacy of Large Language Models in hate speech", None) == (
        "Efficacy of large language models in hate speech")
    assert terms_in_lowercase("Large Language Models for Channel State Information", None) == (
        "Large language models for channel state information")  # the title's first capital stays
    assert terms_in_lowercase("TIDE: Tuning-Integrated Dynamic Evolution", "TIDE") == "TIDE: tuning-integrated dynamic evolution"
    assert terms_in_lowercase("CoE: Memory and Computation efficient defense", "CoE") == "CoE: memory and computation efficient defense"
    for kept in ("Memory selection for Segment Anything", "Models in Hugging Face hubs", "A Riichi Mahjong environment",
                 "Benchmark for Estonian speech", "Dataset of Thompson Sampling runs", "Mamba Vision Net: a model"):
        assert terms_in_lowercase(kept, "Mamba Vision Net" if kept.startswith("Mamba") else None) == kept


@given(st.lists(st.sampled_from(list("AaBbLlMm -:") + ["Large", "Models", "Language", "Hugging", "Face", " and "]), max_size=30).map("".join),
       st.sampled_from([None, "LLM", "Large Models"]))
def test_lowercasing_terms_changes_letter_case_only(title, name):
    from readinglist.convert.titles.postedits import terms_in_lowercase

    out = terms_in_lowercase(title, name)
    assert out.lower() == title.lower()
    if name and title.startswith(f"{name}: "):
        assert out.startswith(f"{name}: ")


def test_a_title_ending_on_a_word_titles_never_end_on_gives_way():
    from readinglist.convert.titles.checks import ends_badly
    from readinglist.convert.titles import not_final

    assert {"large", "end-to-end", "semantic", "for"} <= not_final()  # learned: data/title_forms.json
    assert ends_badly("ForestPersons: person detection for covering large")
    assert ends_badly("Learning emotion representations from large-scale")
    assert not ends_badly("Learning emotion representations from large-scale captions")
    assert not ends_badly("Retrieval-augmented generation for end-to-end question answering")


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_no_title_ends_on_a_word_titles_never_end_on(raw):
    from readinglist.convert.titles.checks import ends_badly

    _name, title = generated(raw)
    assert not ends_badly(title), title


def test_a_title_starting_with_a_plain_verb_starts_with_its_gerund():
    from readinglist.convert.titles.postedits import as_gerund
    from readinglist.convert.titles import gerund_starts

    assert {"solve": "solving", "learn": "learning"}.items() <= gerund_starts().items()  # learned
    assert as_gerund("Solve SDPs in polynomial time", None) == "Solving SDPs in polynomial time"
    assert as_gerund("QueST: create hard coding problems", "QueST") == "QueST: creating hard coding problems"
    assert as_gerund("Learning to rank", None) == "Learning to rank"
    assert as_gerund("Solve", None) == "Solve"  # a title of one word is left alone
    assert as_gerund("Solve: a solver for games", "Solve") == "Solve: a solver for games"  # the name is not a verb


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_no_title_starts_with_a_verb_titles_start_with_as_a_gerund(raw):
    from readinglist.convert.titles import gerund_starts

    name, title = generated(raw)
    body = title[len(name) + 2 :] if name and title.startswith(f"{name}: ") else title
    assert body.split()[0].lower() not in gerund_starts(), title


def test_a_relative_clause_becomes_for_and_a_gerund():
    from readinglist.convert.titles.postedits import relative_as_purpose as purpose

    assert purpose("MORPHOS: an autoregressive framework that generates 3D assets from videos") == (
        "MORPHOS: an autoregressive framework for generating 3D assets from videos")
    assert purpose("Graph rewiring that efficiently enables message passing") == (
        "Graph rewiring for efficiently enabling message passing")
    assert purpose("A matcher that performs part-wise matching and enables grounding") == (
        "A matcher for performing part-wise matching and enabling grounding")
    assert purpose("A model that learns shapes and robust features") == "A model for learning shapes and robust features"
    assert purpose("TileRank: a ranker that can predict the cost of a query plan") == (
        "TileRank: a ranker for predicting the cost of a query plan")  # a modal before the verb
    # a verb the phrase model does not list but whose -ing form starts real titles (forms.gerund_starts)
    assert purpose("COLD: a decoding framework which unifies constrained generation and sampling") == (
        "COLD: a decoding framework for unifying constrained generation and sampling")
    assert purpose("A metric that quantifies reasoning efficiency") == "A metric for quantifying reasoning efficiency"
    assert purpose("SafeGround: a set of metrics that evaluate safety at two levels") == (
        "SafeGround: a set of metrics for evaluating safety at two levels")  # a plural's verb
    for kept in ("A benchmark for retrieval that measures recall",  # "for" already said
                 "A method that aims to solve scheduling",  # "aims to ..." has no gerund title form
                 "A theory that the world is flat",  # no verb after "that"
                 "A benchmark that humans find hard"):  # a noun, not a verb the titles start with
        assert purpose(kept) == kept


@pytest.mark.parametrize("verb, ing", [("uses", "using"), ("prunes", "pruning"), ("maps", "mapping"),
                                       ("applies", "applying"), ("frees", "freeing"), ("adapts", "adapting")])
def test_gerund(verb, ing):
    from readinglist.convert.titles.text import gerund_of

    assert gerund_of(verb) == ing


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_no_title_has_a_relative_clause_it_could_say_as_for_and_a_gerund(raw):
    from readinglist.convert.titles.postedits import relative_as_purpose

    _name, title = generated(raw)
    assert relative_as_purpose(title) == title, title


def test_an_acronym_and_its_spelled_out_form_are_said_once():
    from readinglist.convert.titles.postedits import acronym_said_once as once

    assert once("Discriminative SSL methods for semi-supervised learning", None) == (
        "Discriminative semi-supervised learning methods")
    assert once("Offline GCRL algorithm for goal-conditioned reinforcement learning", None) == (
        "Offline goal-conditioned reinforcement learning algorithm")
    assert once("TPARAG: black-box RAG systems for retrieval-augmented generation", "TPARAG") == (
        "TPARAG: black-box retrieval-augmented generation systems")
    assert once("VLMs on font tasks for modern vision-language models", None) == "Vision-language models on font tasks"
    assert once("LLM watermarking for advancements in large language models", None) == "Large language model watermarking"
    assert once("Multilingual ABSA models for aspect-based sentiment analysis", None) == (
        "Multilingual aspect-based sentiment analysis models")  # not "analysi"
    assert once("Financial language model evaluation for effectiveness of LMs", None) == "Financial language model evaluation"
    for kept in ("Graph transformers for spatial data",  # no acronym
                 "CLIP features for zero-shot detection",  # nothing spells CLIP out
                 "SSL methods for semi-supervised learning",  # "Semi-supervised learning methods": three words
                 "BERT models for natural language understanding"):
        assert once(kept, None) == kept


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_no_title_says_an_acronym_and_its_spelled_out_form(raw):
    from readinglist.convert.titles.postedits import acronym_said_once

    name, title = generated(raw)
    assert acronym_said_once(title, name) == title, title


_CLEAN_ALPHABET = st.sampled_from(list("ab Z9_-\\$*{}^\"“”‘`'’ℓ\t\n\u00a0.") + ["--", "  "])


@settings(max_examples=400, deadline=None)
@given(st.lists(_CLEAN_ALPHABET, max_size=30).map("".join) | st.text(max_size=40))
def test_clean_fast_path_is_what_the_substitutions_make(text):
    """_clean returns a text with nothing to drop as it is (stripped) without running its five
    substitutions; whatever the text, the result is what the substitutions make."""
    from readinglist.convert.titles import text as titles

    slow = titles._SUBSCRIPT.sub("", text)
    slow = titles._EN_DASH.sub("\u2013", slow)
    slow = titles._MARKUP.sub("", slow)
    slow = titles._QUOTES.sub("", slow)
    assert titles.clean(text) == titles._WS.sub(" ", slow).strip()


@given(st.lists(st.sampled_from(["real-world", "transformers", "class", "gas", "x-s", "-", "a-b-c", "models", "bus"]), max_size=6))
def test_stems_kept_per_word_are_what_the_words_say(words):
    """_stems keeps each word's stems between abstracts: the same set as working them out."""
    from readinglist.convert.titles.features import stems

    expected: set[str] = set()
    for w in words:
        for part in [w, *w.split("-")] if "-" in w else [w]:
            if part:
                expected.add(part)
                if len(part) > 3 and part.endswith("s") and not part.endswith("ss"):
                    expected.add(part[:-1])
    assert stems(words) == expected
    assert stems(words) == expected  # from the kept stems


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_a_named_thing_is_never_called_a_kind_it_is_not(raw):
    """"VESPER, a video benchmark" is never titled "VESPER: ... models for ...": the kind noun
    the abstract gives the name decides which kind nouns its title may lead with."""
    from readinglist.convert.kinds import KIND_OF, name_kind
    from readinglist.convert.titles.text import head_noun

    name, title = generated(raw)
    if not name or not title.startswith(f"{name}: "):
        return
    kind = name_kind(to_plain(raw), name)
    family = KIND_OF.get(head_noun(title[len(name) + 2 :].split()))
    assert kind is None or family is None or family == kind, (kind, title)


def test_x_for_y_is_never_joined_the_way_round_the_abstract_denies():
    """The abstract says merging serves distributed training ("merging-inspired aggregation is a
    strategy for distributed training"): the title never says "distributed training for model
    merging"."""
    from readinglist.convert.titles.relations import says_the_reverse

    plain = (
        "Model merging techniques combine finetuned models. Local SGD reduces communication. "
        "We propose IsoLoCo, which adapts Iso-C for distributed training. Merging-inspired aggregation "
        "is an effective strategy for low-communication distributed training."
    )
    assert says_the_reverse(["distributed", "training"], ["model", "merging", "techniques"], plain)
    assert not says_the_reverse(["model", "merging"], ["distributed", "training"], plain)
    title = make_title(plain, plain, "IsoLoCo").lower()
    assert "training for model merging" not in title, title


def test_a_participle_is_not_cut_from_its_object():
    """"GR3D: a spatial vision language model equipped" stops before the participle whose
    object ("with three grounding capabilities ...") did not fit."""
    raw = (
        "We present GR3D, a spatial vision language model equipped with three complementary grounding "
        "capabilities--explicit 2D grounding, implicit 2D grounding, and monocular 3D grounding--within a "
        "single framework. GR3D achieves consistent improvements across spatial benchmarks."
    )
    plain = to_plain(raw)
    title = make_title(raw, plain, "GR3D")
    assert not re.search(r"\b[a-z]{3,}[^e]ed$", title), title


@given(st.sampled_from(["fundamentally", "efficiently", "simultaneously", "tailored", "trained", "AI-assisted", "PyTorch-based"]),
       st.lists(st.sampled_from(["model", "graph", "learning", "for", "link", "prediction"]), min_size=1, max_size=6))
def test_a_title_never_ends_on_an_adverb_or_a_cut_participle(last, words):
    """"... in knowledge graphs fundamentally", "... framework tailored", "... for AI-assisted":
    an adverb or a participle whose object was cut ends 0.1% of real titles; the check rejects
    them whatever comes before."""
    from readinglist.convert.titles.checks import ends_badly

    assert ends_badly(" ".join(["Graph", *words, last]))


@pytest.mark.parametrize("noun", ["family", "assembly", "supply", "monopoly", "butterfly"])
def test_a_noun_ending_in_ly_is_a_fine_last_word(noun):
    from readinglist.convert.titles.checks import ends_badly

    assert not ends_badly(f"Detecting the {noun}")


@pytest.mark.parametrize("raw", ALL, ids=[a[:30] for a in ALL])
def test_a_composed_pair_says_what_the_authors_made(raw):
    """"Graph attention network for learning dynamics": a phrase of the background glued to the
    task is the commonest false title. Every "<a> for <b>" candidate takes <a> from a sentence
    where the authors speak of their own work ("we", "our", "this paper") when there is one."""
    from readinglist.convert.lexicon import split_sentences
    from readinglist.convert.title_words import word_probabilities
    from readinglist.convert.titles.candidates import candidates
    from readinglist.convert.titles.features import Scorer

    plain = to_plain(raw)
    probs = word_probabilities(plain, None, rule_made_title(plain, None))
    own = [sent.lower() for _o, sent in split_sentences(plain) if re.search(r"\b(?:we|our|this (?:paper|work|study))\b", sent, re.I)]
    for *_features, words, tail, in ((o[:3], o[3], o[4]) for o in candidates(plain, MAX_WORDS, Scorer(probs.get, [], 8.0))):
        if tail is not None and own:
            assert any(" ".join(words).lower() in sent or all(w.lower() in sent for w in words) for sent in own), (words, tail)


def test_background_phrases_are_not_presented_as_the_contribution():
    """The background sentences talk about graph attention networks; the authors study
    something else: no title presents a background phrase "for" the task."""
    plain = (
        "Graph attention networks are widely used for learning on graphs. Graph attention networks "
        "learn attention weights over neighbours, and graph attention networks dominate benchmarks. "
        "We study the balance of gradient norms during training and derive a conservation law. "
        "We propose an initialization scheme that balances the network at the start of training."
    )
    title = make_title(plain, plain, None).lower()
    assert not title.startswith("graph attention network"), title


@given(st.sampled_from(["tell", "show", "give", "let", "help"]), st.sampled_from(["us", "them", "how", "whether", "what"]))
def test_a_title_never_stops_on_a_verb_the_abstract_gives_an_object(verb, obj):
    """"Source labels tell us where a sample came from": "... for source labels tell" stops on a
    verb; whatever the verb, an object after it in the abstract marks it as one."""
    from readinglist.convert.titles.checks import ends_on_a_verb

    plain = f"Source labels {verb} {obj} where a sample came from. We propose aligned mass transport."
    assert ends_on_a_verb(["aligned", "mass", "for", "source", "labels", verb], plain)
    assert not ends_on_a_verb(["aligned", "mass", "transport"], plain)


@given(st.sampled_from(["play", "faces", "motivates", "shapes", "drives"]), st.sampled_from(["a", "an", "the", "its", "their"]))
def test_a_title_never_stops_on_a_verb_the_abstract_follows_with_an_article(verb, det):
    """"Texture cues in photos play a large role ...": "... for texture cues in photos play" is a
    clause cut after its verb; an article after the last two words, each time the abstract says
    them, marks the verb."""
    from readinglist.convert.titles.checks import ends_on_a_verb

    plain = f"Texture cues in photos {verb} {det} central part in classifier errors. We propose a cue-balanced sampler."
    assert ends_on_a_verb(["sampler", "for", "texture", "cues", "in", "photos", verb], plain)
    assert not ends_on_a_verb(["cue-balanced", "sampler"], plain)
    # a noun phrase the abstract also ends a clause with is no verb: "in photos" before "a" once
    # (a list) and before a full stop once
    twice = f"We label photos {det} second time. We study cues in photos. We propose a sampler."
    assert not ends_on_a_verb(["texture", "cues", "in", "photos"], twice)


def test_no_candidate_ends_on_the_verb_of_a_background_clause():
    from readinglist.convert.titles.checks import form_checked
    from readinglist.convert.titles.text import first_tokens

    # written for this test: the opening's subject and verb ("textures in photos play") must not end a title
    plain = ("Background textures in photos play a decisive role in the errors of image classifiers. "
             "We introduce a texture-balanced sampling scheme that reweights training images by their background "
             "texture, and we show that it reduces texture-driven errors on three image classification benchmarks.")
    head = first_tokens(plain)
    cut = "Texture-balanced sampling scheme for background textures in photos play".split()
    whole = "Texture-balanced sampling scheme for image classification benchmarks".split()
    assert form_checked(cut, plain, None, False, head) == ""
    assert form_checked(whole, plain, None, False, head) == "Texture-balanced sampling scheme for image classification benchmarks"


# written for these tests: a defence and an attack, each speaking of "adversarial attacks"
_DEFENCE_TEXT = ("Image classifiers are easily fooled by small input changes. We introduce a purifier that "
                 "removes such changes at test time and improves robust accuracy on three benchmarks.")
_ATTACK_TEXT = ("Speech recognisers are trained on clean recordings. We present a novel backdoor attack that hides "
                "a trigger in background noise; our attack success rate is above 95% against robust training.")


def test_a_defence_is_against_the_threat_not_for_it():
    from readinglist.convert.titles.postedits import against_threat

    assert against_threat("Denoising priors for adversarial attacks", _DEFENCE_TEXT) == "Denoising priors against adversarial attacks"
    # an attack paper keeps "for", as does a gerund after it and a phrase headed by no threat
    assert against_threat("Noise triggers for backdoor attacks", _ATTACK_TEXT) == "Noise triggers for backdoor attacks"
    assert against_threat("A purifier for removing adversarial perturbations", _DEFENCE_TEXT).endswith("for removing adversarial perturbations")
    assert against_threat("Denoising priors for image classifiers", _DEFENCE_TEXT) == "Denoising priors for image classifiers"


def test_no_pair_puts_a_word_titles_seldom_head_a_for_phrase_with_after_for():
    from readinglist.convert.titles.candidates import candidates
    from readinglist.convert.titles.features import Scorer
    from readinglist.convert.titles.forms import not_for_objects
    from readinglist.convert.titles.text import head_noun

    # written for this test: the opening names hidden layers (a part), the contribution a method
    text = ("Deep networks stack many hidden layers of random projection directions. Training such hidden layers "
            "is slow for graph classification. We propose a kernel machine that replaces the hidden layers with "
            "a closed-form graph kernel and matches deep networks on graph classification benchmarks.")
    options = candidates(text, 14, Scorer(lambda t, d=0.0: 0.2, [], 8.0))
    tails = [o[4] for o in options if o[4] is not None]
    assert tails  # pairs are still made
    assert all(head_noun(t) not in not_for_objects() for t in tails)
    assert {"layers", "directions"} <= not_for_objects()


def test_a_description_the_abstract_says_of_the_name_is_stated():
    from readinglist.convert.titles.choice import _stated

    text = "We present GlowNet, a sparse mixture of experts for radio astronomy images. It is fast."
    assert _stated("a sparse mixture of experts for radio astronomy images", text)
    assert not _stated("radio astronomy images for sparse experts", text)
    assert not _stated("fast", text)  # too short to say anything


def test_a_pair_the_abstract_says_itself_is_a_candidate_and_one_it_does_not_is_not():
    from readinglist.convert.titles.candidates import _said_pairs
    from readinglist.convert.titles.features import Scorer

    # written for this test
    text = ("Cells divide at uneven rates. We build a sparse tracking model designed for live cell imaging "
            "and compare it with optical flow on microscope videos.")
    scorer = Scorer(lambda t, d=0.0: 0.2, [], 8.0)
    every = [(scorer.info(w), w, 1) for w in (["sparse", "tracking", "model"], ["live", "cell", "imaging"],
                                              ["optical", "flow"], ["microscope", "videos"])]
    said = [(o[3], o[4]) for o in _said_pairs(text, every, scorer, 12, frozenset(), frozenset({1}))]
    assert said == [(["sparse", "tracking", "model"], ["live", "cell", "imaging"])]  # "designed" dropped
    # a word titles seldom head a "for" phrase with is not put after "for" even when said
    assert _said_pairs(text, every, scorer, 12, frozenset({"imaging"})) == []


def test_a_composed_pair_gives_up_the_cross_penalty_and_a_said_one_does_not(monkeypatch):
    from readinglist.convert.titles import candidates as cand
    from readinglist.convert.titles.features import Scorer

    text = ("Protein folding is slow to simulate. Molecular dynamics needs long runs. We propose a graph "
            "diffusion sampler for conformations and show a faster sampler.")
    scorer = Scorer(lambda t, d=0.0: 0.3, [], 8.0)

    def scores(penalty: float) -> dict:
        monkeypatch.setattr(cand, "CROSS_PENALTY", penalty)
        return {(tuple(o[3]), tuple(o[4])): o[0] for o in cand.candidates(text, 14, scorer) if o[4] is not None}

    plain, penalised = scores(0.0), scores(0.05)
    assert plain.keys() == penalised.keys() and plain
    for pair, score in plain.items():
        said = " for ".join(" ".join(p) for p in pair).lower() in text.lower()
        assert penalised[pair] == pytest.approx(score if said else score - 0.05)


def test_a_participle_of_someone_elses_clause_does_not_start_a_title():
    from readinglist.convert.titles.checks import _participial_start

    # written for this test
    text = ("Earlier systems index short documents, leaving long archives unsearched. We build an index "
            "for long archives, making search fast.")
    assert _participial_start(["leaving", "long", "archives"], text)
    assert not _participial_start(["making", "search", "fast"], text)  # the authors' own sentence
    assert not _participial_start(["indexing", "long", "archives"], text)


def test_a_said_pair_comes_from_the_authors_own_sentence():
    from readinglist.convert.titles.candidates import _said_pairs
    from readinglist.convert.titles.features import Scorer

    text = "Old trackers designed for fixed cameras fail. We track cells in live imaging."  # written for this test
    scorer = Scorer(lambda t, d=0.0: 0.2, [], 8.0)
    every = [(scorer.info(w), w, 0) for w in (["old", "trackers"], ["fixed", "cameras"])]
    assert _said_pairs(text, every, scorer, 12, frozenset(), frozenset({1})) == []
    assert len(_said_pairs(text, every, scorer, 12, frozenset(), frozenset())) == 1  # no own sentence: any


def test_a_description_with_a_relative_clause_is_not_replaced_by_a_phrase():
    # written for this test: the name's description has "that can predict" (a finite verb that the
    # post-edit turns into "for predicting"); the rule-made title must not give way to a phrase of
    # the background (the learned choice may still prefer a pair: left open, see issue 25)
    text = ("Query planners choose among many plans. Executing every plan to measure its cost is slow on large "
            "databases. We propose TileRank, a ranker that can predict the cost of a query plan without running it. "
            "TileRank cuts planning time by half on two benchmarks.")
    assert rule_made_title(text, "TileRank") == "TileRank: a ranker that can predict the cost of a query plan"


def test_a_bound_for_backdoor_risk_is_no_attack_of_the_authors():
    from readinglist.convert.titles.postedits import against_threat, defends

    # written for this test: a purifying defence that derives "a novel upper bound for backdoor risk"
    text = ("Backdoored models misbehave on triggered inputs. We purify a backdoored model with a few clean "
            "images, and we derive a novel upper bound for backdoor risk.")
    assert defends(text)
    assert against_threat("Clean-image unlearning for backdoor attacks", text) == "Clean-image unlearning against backdoor attacks"
    assert not defends("We present a novel stealthy backdoor attack on speech models that evades robust training.")


def test_filler_with_and_more_leaves_no_stray_conjunction():
    from readinglist.convert.titles.text import describe

    # written for this test
    words = describe("a new and more effective approach to schedule GPU jobs", 14)
    assert words[:2] == ["a", "approach"] and "and" not in words and "more" not in words


def test_what_for_governs_in_the_authors_sentence_is_a_said_pair_even_when_no_phrase_starts_there():
    from readinglist.convert.titles.candidates import _said_object, _said_pairs
    from readinglist.convert.titles.features import Scorer

    # written for this test: "slow tidal gauges" is no ranked phrase of its own
    text = "Tides are hard to read. We build a sparse wave model for slow tidal gauges, and test it."
    scorer = Scorer(lambda t, d=0.0: 0.2, [], 8.0)
    every = [(scorer.info(w), w, 1) for w in (["sparse", "wave", "model"], ["test", "runs"])]
    said = [(o[3], o[4]) for o in _said_pairs(text, every, scorer, 12, frozenset(), frozenset({1}))]
    assert said == [(["sparse", "wave", "model"], ["slow", "tidal", "gauges"])]
    assert _said_object("slow tidal gauges without any labels", 8) == ["slow", "tidal", "gauges"]
    assert _said_object("one two three four five six", 4) == []  # longer than the room: nothing cut


def test_a_purpose_clause_of_the_authors_sentence_is_said_as_for_and_a_gerund():
    from readinglist.convert.titles.candidates import _said_pairs
    from readinglist.convert.titles.features import Scorer

    # written for this test
    text = "Storms vary. We train a sparse wave model to predict storm surges from buoy readings."
    scorer = Scorer(lambda t, d=0.0: 0.2, [], 8.0)
    every = [(scorer.info(w), w, 1) for w in (["sparse", "wave", "model"], ["buoy", "readings"])]
    said = [(o[3], o[4]) for o in _said_pairs(text, every, scorer, 12, frozenset(), frozenset({1}))]
    assert (["sparse", "wave", "model"], ["predicting", "storm", "surges", "from", "buoy", "readings"]) in said
    # in a sentence of the background it is not the paper's purpose
    assert _said_pairs(text, every, scorer, 12, frozenset(), frozenset({0})) == []


def test_a_phrase_of_the_background_is_not_joined_to_the_topic():
    from readinglist.convert.titles import candidates as cand
    from readinglist.convert.titles.features import Scorer

    # written for this test: the second sentence is background (what others do), the third the authors'
    text = ("Tidal gauges are noisy. Earlier systems need manual calibration. "
            "We propose a sparse wave model that reads raw gauges.")
    scorer = Scorer(lambda t, d=0.0: 0.3, [], 8.0)
    made = [" ".join(o[3]).lower() for o in cand.candidates(text, 14, scorer) if o[4] is None]
    joined = [m for m in made if m.endswith(" for tidal gauges")]
    assert joined and all("calibration" not in m for m in joined)
    assert any("calibration" in m for m in made)  # the phrase itself stays a candidate


def test_a_phrase_of_the_opening_sentence_is_not_joined_to_the_topic_it_describes():
    """"Batch normalization is a standard technique in deep learning": "deep learning for batch
    normalization" says the reverse (blind reading, stop 42: of the 42 titles this changed, 70.8%
    were judged false before, 33.9% after)."""
    from readinglist.convert.titles import candidates as cand
    from readinglist.convert.titles.features import Scorer

    # written for this test: the opening says what the topic is, the second sentence is the authors'
    text = ("Tidal gauging (TG) has become a standard technique in flood forecasting. "
            "We propose a sparse wave model that reads raw gauges.")
    scorer = Scorer(lambda t, d=0.0: 0.6 if t in ("standard", "technique", "flood", "forecasting") else 0.2, [], 8.0)
    made = [" ".join(o[3]).lower() for o in cand.candidates(text, 14, scorer) if o[4] is None]
    assert "flood forecasting" in made  # the phrase itself stays a candidate
    assert not any(m.startswith(("flood", "standard")) and m.endswith(" for tidal gauging") for m in made)
    assert "sparse wave model for tidal gauging" in made  # the authors' phrase is still joined


def test_the_contribution_is_not_joined_to_the_topic_its_acronym_says():
    """"... capacity of GNNs" is of graph neural networks already: no "in graph neural networks"."""
    from readinglist.convert.titles.contribution import find_contribution, with_topic

    text = "Graph neural networks are widely used for learning on graphs. We give a theoretical view of the capacity of GNNs."
    found = find_contribution(text, 15)
    assert found is not None and "GNNs" in found.words
    assert "graph" not in " ".join(with_topic(found, text)).lower()


def test_a_phrase_joined_to_the_topic_gives_up_the_cross_penalty():
    """"<phrase> for <topic>" is composed by us, as a pair is: it weighs CROSS_PENALTY less than
    its expected ROUGE-1 (read blind, composed titles were judged false far more often)."""
    from readinglist.convert.titles import candidates as cand
    from readinglist.convert.titles.constants import CROSS_PENALTY
    from readinglist.convert.titles.features import Scorer

    text = ("Tidal gauges are noisy. Earlier systems need manual calibration. "
            "We propose a sparse wave model that reads raw gauges.")
    scorer = Scorer(lambda t, d=0.0: 0.3, [], 8.0)
    options = cand.candidates(text, 14, scorer)
    joined = [o for o in options if o[4] is None and " ".join(o[3]).lower().endswith(" for tidal gauges")]
    assert joined
    for o in joined:
        assert o[0] == pytest.approx(scorer.info(o[3])[0] - CROSS_PENALTY)
    alone = [o for o in options if o[4] is None and " ".join(o[3]).lower() == "sparse wave model"]
    assert alone and alone[0][0] == pytest.approx(scorer.info(alone[0][3])[0])


def test_a_pair_led_by_what_the_name_stands_for_gives_up_no_cross_penalty():
    from readinglist.convert.titles import candidates as cand
    from readinglist.convert.titles.features import Scorer

    assert cand.spells_out(["Sparse", "Wave", "Network"], "SpaWaNet")
    assert cand.spells_out(["sparse", "wave", "network"], "SWN")
    assert not cand.spells_out(["dense", "tracks"], "DeT")  # two capitals: too easily met by chance
    assert not cand.spells_out(["sparse", "wave", "model"], "SpaWaNet")
    assert not cand.spells_out(["sparse", "wave", "network"], None)
    # written for this test
    text = ("Tidal gauges are noisy instruments. Earlier systems rely on calibration. We propose SpaWaNet, "
            "a Sparse Wave Network, and a robust tide loss.")
    scorer = Scorer(lambda t, d=0.0: 0.3, [], 8.0)

    def pairs(name):
        return {(tuple(o[3]), tuple(o[4])): o[0] for o in cand.candidates(text, 14, scorer, None, name) if o[4] is not None}

    plain, named = pairs(None), pairs("SpaWaNet")
    assert plain.keys() == named.keys()
    led = [p for p in plain if [w.lower() for w in p[0]] == ["sparse", "wave", "network"]]
    assert led and all(named[p] == pytest.approx(plain[p] + cand.CROSS_PENALTY) for p in led)
    assert all(named[p] == plain[p] for p in plain if p not in led)


def test_what_the_name_stands_for_is_a_candidate_of_its_own():
    from readinglist.convert.titles import candidates as cand
    from readinglist.convert.titles.features import Scorer

    # written for this test
    text = ("Tidal gauges are noisy instruments. Earlier systems rely on calibration. We propose SpaWaNet, "
            "a Sparse Wave Network, and a robust tide loss.")
    scorer = Scorer(lambda t, d=0.0: 0.3, [], 8.0)
    alone = [o for o in cand.candidates(text, 14, scorer, None, "SpaWaNet")
             if o[4] is None and [w.lower() for w in o[3]] == ["sparse", "wave", "network"]]
    assert alone and alone[0][0] == pytest.approx(scorer.info(alone[0][3])[0] + cand.SPELLED_MARGIN)
    unnamed = [o for o in cand.candidates(text, 14, scorer) if o[4] is None and o[3] == alone[0][3]]
    assert all(o[0] == pytest.approx(scorer.info(o[3])[0]) for o in unnamed)  # no name: no margin


def test_a_finding_the_authors_state_is_a_candidate_and_one_about_a_pronoun_is_not():
    from readinglist.convert.titles import candidates as cand
    from readinglist.convert.titles.features import Scorer

    # written for this test
    text = ("Tide models drift over months. We show that sparse gauge networks halve forecast error, "
            "and we find that it matters little where gauges sit.")
    scorer = Scorer(lambda t, d=0.0: 0.3, [], 8.0)
    made = [" ".join(o[3]).lower() for o in cand.candidates(text, 14, scorer) if o[4] is None]
    assert "sparse gauge networks halve forecast error" in made
    assert not any(m.startswith("it matters") for m in made)


def test_reversed_relation_reads_the_whole_object_of_for() -> None:
    """The object of an abstract's "for" is read to its end, past three words: "<purpose> for
    the very large overfitted ensemble models" still makes "ensemble models for <purpose>"
    the wrong way round."""
    from readinglist.convert.titles.relations import says_the_reverse

    plain = (
        "Earlier reports question the role of glacier reweighting for the very large overfitted "
        "ensemble models. We study this role in theory."
    )
    assert says_the_reverse(["overfitted", "ensemble", "models"], ["glacier", "reweighting"], plain)


def test_reversed_relation_needs_more_than_a_shared_head_noun() -> None:
    """A "for" whose object shares only the head noun with the phrase ("for training tabular
    models") says nothing about "generative models"; nor does a word before a comma belong to
    the next clause's "for"."""
    from readinglist.convert.titles.relations import says_the_reverse

    plain = "Glacier tomography gives a framework for training tabular models. We use generative models."
    assert not says_the_reverse(["generative", "models"], ["glacier", "tomography"], plain)
    assert says_the_reverse(["tabular", "models"], ["glacier", "tomography"], plain)
    clause = "We bound the glacier costs, and use a new device for sparse tomography minimization."
    assert not says_the_reverse(["sparse", "tomography", "minimization"], ["glacier", "costs"], clause)
    assert says_the_reverse(
        ["sparse", "tomography", "minimization"], ["glacier", "costs"], "The glacier costs need a device for sparse tomography minimization."
    )


def test_an_acronym_before_its_own_head_is_not_spelled_out_twice():
    """"the GAT network" is not "the graph attention network network"."""
    from readinglist.convert.titles.casing import expand

    plain = "We study the graph attention network (GAT). GAT layers are common."
    assert expand("scheme that balances the GAT network".split(), plain, 14) == "scheme that balances the GAT network".split()
    assert expand("GAT layers for graphs".split(), plain, 14) == "graph attention network layers for graphs".split()


def test_the_contribution_stays_against_a_phrase_of_the_background():
    """"We propose a frame skipping framework including two components: ..." is what the paper
    makes; "large speech recognition systems" (the opening's background, a higher-scoring
    phrase) is not the title, and the framework's participle clause is cut, not kept."""
    raw = ("Convolutional backbones have become the basic element of widespread speech recognition systems. "
           "With the trends of large speech recognition systems, the growing memory and energy costs hinder their deployment on hearing aids. "
           "Therefore, backbone pruning attracts wide research interest. "
           "Recent work recognizes that silent frames are the critical bottleneck for pruning quality. "
           "However, their proposed methods increase the latency and still keep the silent frames. "
           "Motivated by these findings, we propose a frame skipping framework including two components: Energy Gating and Frame Merging. "
           "Energy Gating drops low-energy frames before the encoder, and Frame Merging fuses neighbouring frames with similar spectra. "
           "Extensive experiments prove that our framework surpasses existing works on two benchmarks.")
    name, title = generated(raw)
    assert name is None
    assert title.lower().startswith("frame skipping framework"), title
    assert "including" not in title.lower() and "speech recognition systems" not in title.lower(), title
    assert rule_made_title(to_plain(raw), None) == title
