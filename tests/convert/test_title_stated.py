"""A name's title keeps what the abstract says the name is (issue 25: honest before clever).

When the abstract says "we propose tinyZ, a lightweight LLM-based verifier ...", that appositive
is the paper's own account of the name; a phrase of the background scored higher by the title-word
model ("tinyZ: negatives slow RL-based fine-tuning of LLMs") must not take its place.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.titles.described import said_of_name, stated_description

from helpers import titled

VERIFIER = (
    "Verifiers decide which answers of a language model earn a reward in reinforcement learning (RL). "
    "Rule-based verifiers often reject correct answers, and these false negatives slow RL-based "
    "fine-tuning of LLMs. We propose tinyZ, a lightweight LLM-based verifier that augments existing "
    "rule-based methods. Adding tinyZ to RL-based fine-tuning of LLMs raises pass rates by up to 10% "
    "on math benchmarks and speeds up convergence."
)


def test_the_description_the_abstract_gives_the_name_is_its_subtitle():
    title = titled(VERIFIER)
    assert title.startswith("tinyZ: ")
    assert "lightweight LLM-based verifier" in title
    assert "negatives slow" not in title


@pytest.mark.parametrize(
    ("text", "name", "body", "said"),
    [
        ("We propose KiteNet, a sparse graph encoder for tables.", "KiteNet", "a sparse graph encoder for tables", True),
        ("We propose KiteNet, a sparse graph encoder for tables.", "KiteNet", "sparse graph encoder", True),
        ("We propose KiteNet (Kite Network): a sparse graph encoder.", "KiteNet", "a sparse graph encoder", True),
        ("KiteNet is a sparse graph encoder for tables.", "KiteNet", "a sparse graph encoder", True),
        ("We build a sparse graph encoder called KiteNet.", "KiteNet", "a sparse graph encoder", True),
        ("We build a sparse graph encoder, KiteNet, for tables.", "KiteNet", "sparse graph encoder", True),
        # said, but not of the name
        ("Dense graph encoders are slow. We propose KiteNet, which prunes edges.", "KiteNet", "dense graph encoders", False),
        ("We propose KiteNet. Experiments on a sparse graph encoder benchmark follow.", "KiteNet", "sparse graph encoder", False),
        # a description cut at a relative clause or a comma is no longer what the abstract says
        ("We propose KiteNet, a graph encoder that prunes edges.", "KiteNet", "a graph encoder that prunes", False),
        ("We propose KiteNet, a sparse, fast graph encoder.", "KiteNet", "sparse, fast graph encoder", False),
        ("We propose KiteNet, a sparse graph encoder.", "KiteNet", "encoder", False),
    ],
)
def test_what_is_said_of_the_name(text, name, body, said):
    assert said_of_name(body, text, name) is said


def test_a_description_running_on_into_a_relative_clause_is_kept_up_to_it():
    text = "We propose KiteNet, a sparse graph encoder that prunes edges of large tables."
    assert stated_description("a sparse graph encoder that prunes edges", text, "KiteNet") == "a sparse graph encoder"
    assert stated_description("a sparse graph encoder", text, "KiteNet") == "a sparse graph encoder"
    assert stated_description("edges of large tables", text, "KiteNet") == ""


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9).filter(
    lambda w: w not in {"that", "which", "where", "whose", "who", "whereby", "the", "and", "for"})


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORD, min_size=2, max_size=6), st.sampled_from([", a ", " is a ", ": a ", " (KN), a "]))
def test_an_appositive_is_said_of_the_name_and_the_same_words_elsewhere_are_not(words, gap):
    body = " ".join(words)
    assert said_of_name(body, f"We propose KiteNet{gap}{body}. It works.", "KiteNet")
    assert not said_of_name(body, f"We propose KiteNet. Earlier work built the {body} by hand and it fails.", "KiteNet")


ADAPTATION = (
    "Unsupervised domain adaptation for semantic segmentation transfers a model from synthetic images to "
    "real ones. Semantic segmentation under domain shift suffers from noisy pseudo-labels on real images. "
    "We propose a reconstruction-based strategy as a complement to pseudo-labelling for synthetic-to-real "
    "domain adaptation. Semantic segmentation on two real benchmarks improves by four points of mean IoU "
    "over pseudo-labelling alone."
)


def test_what_the_authors_say_they_propose_is_the_title_of_an_unnamed_paper():
    """Not "Pseudo-labelling for synthetic-to-real domain adaptation": the paper complements
    pseudo-labelling, it does not propose it."""
    title = titled(ADAPTATION)
    assert title.lower().startswith("reconstruction-based strategy")


@pytest.mark.parametrize(
    ("text", "title", "said"),
    [
        ("We propose a sparse graph encoder for tables. It is fast.", "Sparse graph encoder for tables", True),
        ("In this work, we introduce a new sampling method for adversarial training.", "Sampling method for adversarial training", True),
        ("This paper presents the first benchmark of table retrieval.", "First benchmark of table retrieval", True),
        # said, but not as what the authors propose
        ("Sparse graph encoders for tables are slow. We propose pruning.", "Sparse graph encoders for tables", False),
        ("We evaluate a sparse graph encoder for tables.", "Sparse graph encoder for tables", False),
        # the authors' own pronoun or a relative clause is no title of theirs
        ("We propose approaches to enhancing our pre-training data.", "Approaches to enhancing our pre-training data", False),
        ("We propose a graph encoder that prunes edges.", "Graph encoder that prunes edges", False),
    ],
)
def test_what_the_authors_say_they_propose(text, title, said):
    from readinglist.convert.titles.described import proposed_as_said

    assert proposed_as_said(title, text) is said


SHIFT = (
    "Covariate shift changes the input distribution between training and test, and importance-weighted "
    "learning corrects for it with density ratios. When the shift is continuous, the density ratio has to "
    "be estimated again at every step. We propose an online density ratio estimation method for dealing "
    "with distribution shifts that change over time, and bound its dynamic regret. Importance-weighted "
    "learning with our estimates tracks the shift on three benchmarks."
)


def test_a_title_whose_head_the_authors_propose_keeps_what_they_say_it_is_for():
    """The head "online density ratio estimation method" is what the authors propose; the title
    says it with their own "for dealing with distribution shifts", not a background phrase."""
    title = titled(SHIFT)
    assert title.lower().startswith("online density ratio estimation method")
    assert "importance-weighted learning" not in title.lower()


@pytest.mark.parametrize(
    ("body", "bad"),
    [
        ("Robust early learning to reduce the side effect for as critical parameters", True),
        ("Methodology for assessing robustness to subpopulation shift---specifically", True),
        ("Sparse toy rankers for the long tail of queries", False),
        ("Sparse toy rankers for whole-slide images", False),
    ],
)
def test_a_sentences_joints_are_notitled(body, bad):
    from readinglist.convert.titles.checks import defects

    assert defects(body, "A toy abstract about rankers.", False) is bad


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a simple and training-free method for visual token pruning", "a training-free method for visual token pruning"),
        ("a highly simple approach for contrastive pre-training", "a approach for contrastive pre-training"),
        ("an embarrassingly simple approach to few-shot learning", "a approach to few-shot learning"),
        ("a simple yet effective regularizer for sparse attention", "a regularizer for sparse attention"),
        ("an efficient, simple, and training-free method for selection", "an efficient and training-free method for selection"),
        ("a fast, scalable, and simple method for sorting", "a fast, scalable method for sorting"),
    ],
)
def test_filler_goes_with_its_conjunction_and_intensifier(text, expected):
    """"a simple and training-free method" loses "simple and", not "simple" alone (which left "an and
    training-free method"); "highly simple" goes whole (the article is mended later)."""
    from readinglist.convert.titles.text import describe

    assert " ".join(describe(text, 15)) == expected


def test_a_phrase_cut_at_its_verb_to_three_words_is_notitled():
    """The abstract's best phrase "auxiliary differentiable constraint c(x,y) on x" is cut at the
    verb after it; three words left make no title, the next phrase is taken."""
    text = ("Diffusion models learn rich priors over images. Considering the problem of inferring high-dimensional "
            "data x in a model that consists of a prior p(x) and an auxiliary differentiable constraint c(x,y) on x "
            "given some additional information y, we show that diffusion models can be used as plug-and-play priors.")
    assert len(titled(text).split()) >= 4


@pytest.mark.parametrize(
    ("title", "name", "expected"),
    [
        ("FISH: our dataset for 3D skeletons in fisheye images", "FISH", "FISH: a dataset for 3D skeletons in fisheye images"),
        ("Butterfly: a proactive risk evaluation framework for measuring whether LLMs can anticipate harms", "Butterfly",
         "Butterfly: a proactive risk evaluation framework"),
        # three words would be left: the title stays as it is
        ("Grounding: a benchmark for measuring how well an agent can exploit past observations", "Grounding",
         "Grounding: a benchmark for measuring how well an agent can exploit past observations"),
        ("Sparse wave model for tidal gauges", None, "Sparse wave model for tidal gauges"),
        ("multi-agent behaviour inference", None, "Multi-agent behaviour inference"),
        ("mRNA design with language models", None, "mRNA design with language models"),
        ("aA", "aA", "aA"),
    ],
)
def test_the_authors_sentence_words_no_candidate_replaced_are_taken_out(title, name, expected):
    from readinglist.convert.titles.postedits import sentence_words_out

    assert sentence_words_out(title, name) == expected


def test_an_acronym_in_parentheses_before_a_hyphen_goes_with_the_compound():
    """"EZApp, a large language model (LLM)-powered system": the description is a system, not "a
    large language model" cut at the parenthesis."""
    text = ("College applications are hard. We present EZApp, a large language model (LLM)-powered system that "
            "assists high-school students by structuring application forms.")
    title = titled(text)
    assert "model-powered system" in title, title


def test_a_candidate_holding_the_authors_we_or_our_fails_the_form_checks():
    """"Broad empirical evidence for our three-part taxonomy" is the authors' sentence: no candidate."""
    from readinglist.convert.titles.checks import form_checked

    plain = "Overfitting is studied. We give broad empirical evidence for our three-part taxonomy of overfitting."
    assert form_checked("broad empirical evidence for our three-part taxonomy".split(), plain, None, False, []) == ""
    assert form_checked("broad empirical evidence for a three-part taxonomy".split(), plain, None, False, []) != ""


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("large language models", True),
        ("unified multimodal models", True),
        ("graph neural networks", True),
        ("steering language models", False),  # says what it does
        ("compress large language models", False),
        ("a large language model", False),  # what the name is
        ("dual attribution for large language models", False),  # what it is, for what
        ("a benchmark for evaluating VLMs' safety reasoning", False),
    ],
)
def test_a_field_is_no_subtitle_for_a_name(body, field):
    """"DAVinCI: large language models" says the name is the field it works in."""
    from readinglist.convert.titles.checks import field_for_name

    assert field_for_name(body) is field


def test_a_name_is_not_titled_by_its_field():
    """The title made so far "DAVinCI: large language models" gives way to a candidate."""
    from readinglist.convert.titles.choice import by_expected_rouge

    text = ("Large language models (LLMs) often make claims without evidence. We present DAVinCI, a dual "
            "attribution and verification framework for claims made by large language models. Large language "
            "models cite sources poorly, and large language models verify them rarely; DAVinCI attributes each "
            "claim to its source and verifies it with an entailment model.")
    title = by_expected_rouge("DAVinCI: large language models", text, "DAVinCI")
    assert title.startswith("DAVinCI: ") and title != "DAVinCI: large language models", title


def test_a_subtitle_headed_as_the_abstract_says_the_name_is_weighs_more(monkeypatch):
    """"Zeta, an optimizer that ...": a candidate headed by another noun ("stiff equations ...") gives
    up HEAD_PENALTY of its expected ROUGE-1, so a slightly weaker one headed "optimizer" wins
    (blind reading, stop 42: false titles 9.3% -> 6.7% over two draws of 90 changed titles)."""
    from readinglist.convert.titles import choice
    from readinglist.convert.titles.constants import HEAD_PENALTY

    text = ("Stiff equations stall adaptive solvers. We present Zeta, an optimizer that adapts step sizes to curvature. "
            "Zeta converges on stiff equations in few steps.")
    other = "stiff equations with curvature".split()
    said = "curvature-adaptive step optimizer".split()
    tokens = dict.fromkeys(["stiff", "equations", "curvature", "adaptive", "step", "optimizer"])
    gap = HEAD_PENALTY / 2  # the other candidate is expected to score this much more

    def options(*_a, **_k):
        return [(0.30 + gap, tokens, len(other), other, None), (0.30, tokens, len(said), said, None)]

    monkeypatch.setattr(choice, "candidates", options)
    assert choice.by_expected_rouge("Zeta", text, "Zeta") == "Zeta: curvature-adaptive step optimizer"
    # with no word on what Zeta is, the better-scoring candidate wins as before
    plain = text.replace(", an optimizer that adapts step sizes to curvature", " to adapt step sizes to curvature")
    assert choice.by_expected_rouge("Zeta", plain, "Zeta") == "Zeta: stiff equations with curvature"


def test_a_subtitle_headed_by_a_word_of_the_same_kind_is_not_penalised(monkeypatch):
    """"SegDT, a segmentation model based on ...": "diffusion transformer for ..." is a model too."""
    from readinglist.convert.titles import choice
    from readinglist.convert.titles.constants import HEAD_PENALTY

    text = ("Medical images are hard to segment. We present SegDT, a segmentation model based on a diffusion "
            "transformer. SegDT segments skin lesions in few steps.")
    model = "diffusion transformer for lesion segmentation".split()
    said = "lesion segmentation model".split()
    tokens = dict.fromkeys(["diffusion", "transformer", "lesion", "segmentation", "model"])

    def options(*_a, **_k):
        return [(0.30 + HEAD_PENALTY / 2, tokens, len(model), model, None), (0.30, tokens, len(model), said, None)]

    monkeypatch.setattr(choice, "candidates", options)
    assert choice.by_expected_rouge("SegDT", text, "SegDT") == "SegDT: diffusion transformer for lesion segmentation"
