"""The role a mention plays (defined by the paper vs. cited, compared with, evaluated on, a measure),
read by the name model: a name the abstract only uses is not the paper's name, and one it defines is.
Every abstract here is written for the test."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from readinglist.convert.name_model import candidates
from readinglist.convert.name_roles import OWN_ROLES, USE_ROLES, mention_roles
from readinglist.convert.naming import detect_name
from readinglist.convert.generation import generation_text


def name_of(text: str) -> str | None:
    return detect_name(text, generation_text(text))


def roles_of(text: str, name: str) -> set[str]:
    plain = generation_text(text)
    found = {c.name: c for c in candidates(text, plain)}
    assert name in found, sorted(found)
    return {k for k in found[name].features if k.startswith("role_")}


@pytest.mark.parametrize(
    ("before", "after", "role"),
    [
        ("Extensive experiments on ", " demonstrate that our method is fast.", "role_eval_object"),
        ("We report results across CIFAR-10, SVHN and ", ", where it wins.", "role_eval_object"),
        ("it reaches 81% accuracy on the ", " dataset and beyond.", "role_used_dataset"),
        ("Our model consistently outperforms ", " and other baselines.", "role_compared"),
        ("It is compared with strong baselines such as ", ".", "role_compared"),
        ("Graph transformers such as ", " [12] are slow.", "role_cited"),
        ("A recent model, ", " (Smith et al., 2021), is slow.", "role_cited"),
        ("We report the ", " score of each system.", "role_metric_after"),
        ("Experiments show that ", " halves the memory.", "role_shows_that"),
        ("We propose Sparse Routing (", "), a router for long inputs.", "role_paren_appositive"),
        ("On four benchmarks, ", " consistently outperforms the baselines.", "role_clause_subject"),
    ],
)
def test_each_role_is_read_from_the_words_around_a_mention(before, after, role):
    assert role in mention_roles(before, after)


def test_a_name_introduced_plainly_has_no_use_role():
    assert not set(mention_roles("In this paper we introduce ", ", a planner for robots.")) & set(USE_ROLES)


@given(st.text(max_size=200), st.text(max_size=200), st.text(max_size=300))
def test_roles_are_named_features_and_read_only_the_words_next_to_the_mention(far, before, after):
    near = before[-80:].rjust(80)  # the whole window: what lies further back is never read
    roles = mention_roles(far + near, after)
    assert set(roles) <= set(USE_ROLES) | set(OWN_ROLES)
    assert roles == mention_roles(near, after)


def test_a_benchmark_the_method_is_evaluated_on_is_not_the_papers_name():
    text = (
        "Video editing models follow instructions poorly when the edit needs reasoning. We present "
        "a unified model that reflects on its own edits during training. Extensive experiments on "
        "ReasonEditBench demonstrate that the model significantly improves editing accuracy."
    )
    assert "role_eval_object" in roles_of(text, "ReasonEditBench")
    assert name_of(text) != "ReasonEditBench"


def test_a_dataset_used_for_evaluation_is_not_the_papers_name():
    text = (
        "Person re-identification with event cameras is little studied. We design an attribute-guided "
        "framework that uses pedestrian attributes as mid-level features. Experiments on the PedEvent "
        "dataset and two further datasets validate the effectiveness of the framework."
    )
    assert {"role_used_dataset", "role_eval_object"} <= roles_of(text, "PedEvent")
    assert name_of(text) != "PedEvent"


def test_a_baseline_the_paper_outperforms_is_not_its_name():
    text = (
        "Auction design with neural networks is hard to scale. We study attention-based architectures "
        "for learning revenue-maximising auctions. We find that our attention model consistently "
        "outperforms RegretNetwork in revenue, and that our loss trades revenue for regret."
    )
    assert "role_compared" in roles_of(text, "RegretNetwork")
    assert name_of(text) != "RegretNetwork"


def test_a_cited_prior_tool_is_not_the_papers_name():
    text = (
        "Object detectors guided by corners [4] are accurate but slow. CornerSeer [7] and its "
        "successors keep dense heat maps. We show that a sparse set of learned queries suffices, "
        "and we halve the inference time at equal accuracy."
    )
    assert "role_cited" in roles_of(text, "CornerSeer")
    assert name_of(text) != "CornerSeer"


def test_a_score_the_paper_reports_is_not_its_name():
    text = (
        "Clinical language models must agree with physicians. We fine-tune a model with physician "
        "feedback and report the ClinAlign score of each system, which rises by 12 points. The "
        "method needs no extra annotation."
    )
    assert "role_metric_after" in roles_of(text, "ClinAlign")
    assert name_of(text) != "ClinAlign"


def test_an_acronym_defined_with_an_appositive_is_the_papers_name():
    """ "We instantiate this idea with Long Form via KEY (ACRONYM), a ..." names the paper's system
    even when the long form is not in title case; its capitals ("UNlearning") are not the name."""
    text = (
        "Forgetting training images on request is a practical need. Most methods erase samples after "
        "training. We instantiate a different idea with Forgetting by DELetable keys (FORDEL), a "
        "memory-augmented transformer that keeps instance memory outside its weights. On three image "
        "benchmarks, FORDEL outperforms all post-hoc baselines."
    )
    assert "role_paren_appositive" in roles_of(text, "FORDEL")
    assert name_of(text) == "FORDEL"


def test_a_benchmark_released_beside_the_method_is_not_the_methods_name():
    """The paper makes both a method and the benchmark it is evaluated on: the name is the method's."""
    text = (
        "Editing videos by instruction fails when the edit needs reasoning. We propose MindCut, a unified "
        "editor that reflects on its own edits during training. To measure reasoning-aware editing, we "
        "also build CutReasonBench, a benchmark of 1,200 instructions. Extensive experiments on "
        "CutReasonBench demonstrate that MindCut significantly improves editing accuracy."
    )
    found = {c.name: c.features for c in candidates(text, generation_text(text))}
    assert {"benchmark_like", "used_while_rival_defined", "benchmark_beside_method"} <= set(found["CutReasonBench"])
    assert "used_while_rival_defined" not in found["MindCut"]
    assert name_of(text) == "MindCut"


@pytest.mark.parametrize(
    ("before", "after", "role"),
    [
        ("We revisit mirror descent [", "], a tool for simplex games.", "role_bracketed"),
        ("as shown before [Ortiz, Lam, ", " 19; Park 20].", "role_bracketed"),
        ("Unlike ", ", our sampler needs no warm-up.", "role_contrast"),
        ("We train the policy instead of ", ", which overfits.", "role_contrast"),
        ("We identify the limitations of ", " on long inputs.", "role_contrast"),
        ("We extend the recently proposed ", " algorithm to graphs.", "role_built_on"),
        ("Okafor et al. (2019) define a score, or ", ", that counts errors.", "role_built_on"),
        ("we fine-tune label distributions drawn from ", ", a corpus of votes.", "role_built_on"),
        ("employing the pretrained ", " model as the encoder.", "role_built_on"),
        ("We compare six methods (", ", MoBar, DinoQux) under shift.", "role_enumerated"),
        ("We compare six methods (KiteSim, MoBar, ", ") under shift.", "role_enumerated"),
        ("the suites KiteSim, ", ", and DinoQux were built from scratch.", "role_enumerated"),
    ],
)
def test_each_role_of_a_thing_the_paper_uses_or_sets_itself_against(before, after, role):
    assert role in mention_roles(before, after)
    assert role in USE_ROLES


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("In this paper we propose ", ", a sampler that needs no warm-up."),
        ("We introduce a new benchmark, ", ", for long-horizon planning."),
        ("Experiments show that ", " halves the error of prior samplers."),
    ],
)
def test_a_name_the_paper_introduces_has_no_use_role(before, after):
    assert not set(mention_roles(before, after)) & set(USE_ROLES)


_ROLE_PIECES = ["unlike ", "Unlike ", "instead of ", "rather than ", "without ", "limitations of ", "replacing ", "in contrast to ",
                "recently proposed ", "proposed by Lee ", "et al. ", "(2019) ", "pretrained ", "extend ", "built upon ", "fine-tune ",
                "drawn from ", "data from ", "leveraging features from ", "the ", "a ", "existing ", "X, ", "and ", " ", "\n", "ſ", "K",
                "from ", "by ", "on top of ", "in ", "as ", "as opposed to ", "et\nal ", "generated by ", "x" * 30, "pre-trained with ", "xdata ", "irreplaceable ", "ſ" * 3, "data ",
                "outperforms ", "than ", "compared with ", "experiments on ", "results across ", "CIFAR-10, ", "xoutperform ",
                "state-of-the-art ", "vs. ", "baselines such as ", "(", "KiteSim, ", "MoBar ,", "or ", ", and "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_ROLE_PIECES), max_size=10).map("".join))
@example("pre-trained with " + "x" * 30 + "unlike ")  # "trained with" starts inside the near window, "pre-" before it
def test_a_contrast_or_a_use_is_found_as_the_pattern_finds_it(before):
    """The quick path (each pattern tried only where a word it starts with occurs) agrees with a
    plain search of the pattern."""
    from readinglist.convert import name_roles

    roles = mention_roles(before, " is used.")
    tail = before[-80:]
    assert ("role_contrast" in roles) == bool(name_roles._CONTRAST_BEFORE.search(tail)), tail
    assert ("role_compared" in roles) == bool(name_roles._COMPARED_BEFORE.search(tail)), tail
    assert ("role_enumerated" in roles) == bool(name_roles._LIST_BEFORE_ITEMS.search(tail)), tail
    assert ("role_eval_object" in roles) == bool(name_roles._EVAL_BEFORE.search(tail)), tail
    near = max(0, len(tail) - name_roles._NEAR)  # the near cues are looked for in the last _NEAR characters
    built_on = name_roles._BUILT_ON_BEFORE.search(tail, near) or name_roles._CREDITED_BEFORE.search(tail)
    assert ("role_built_on" in roles) == bool(built_on), tail


def test_a_baseline_the_paper_sets_itself_against_is_not_its_name():
    text = (
        "Sampling from multimodal posteriors is slow. Unlike HopWalker, our sampler needs no warm-up phase "
        "and no tuning of its step size. It mixes between modes in a few hundred steps on four targets."
    )
    assert "role_contrast" in roles_of(text, "HopWalker")
    assert name_of(text) != "HopWalker"


def test_a_dataset_the_labels_are_drawn_from_is_not_the_papers_name():
    text = (
        "Annotators often disagree, and the disagreement carries signal. We fine-tune inference models on label "
        "distributions subsampled from PolyVoteNLI, a corpus with fifty judgments per item, and find that the "
        "number of annotators needed depends on the metric. Soft labels beat label smoothing at every budget."
    )
    assert "role_built_on" in roles_of(text, "PolyVoteNLI")
    assert name_of(text) != "PolyVoteNLI"


def test_a_citation_key_in_brackets_is_not_the_papers_name():
    text = (
        "We revisit mirror descent with area penalties [Kolbe21], a tool for games over the simplex. We give "
        "faster solvers for the subproblems of the [Kolbe21] method and improved rates for matrix games."
    )
    assert "role_bracketed" in roles_of(text, "Kolbe21")
    assert name_of(text) != "Kolbe21"


def test_methods_the_paper_only_lists_are_not_its_name():
    text = (
        "How do self-supervised video models behave under distribution shift? We study five popular methods "
        "(v-KiteSim, v-MoBar, v-DinoQux, v-LeapMix, v-RotaCon) on seventeen shifts and find that masked models "
        "learn time well while contrastive ones are robust to viewpoint changes."
    )
    assert "role_enumerated" in roles_of(text, "v-KiteSim")
    assert name_of(text) is None


def test_a_problem_spelled_in_lowercase_is_not_the_papers_name():
    text = (
        "We study off-policy evaluation with hidden states. We develop an estimator that solves a sparse "
        "instrumental regression (SIRG) problem at each step, and we bound its error in the horizon and the "
        "sample size. These are the first finite-sample bounds in this setting."
    )
    found = {c.name: c.features for c in candidates(text, generation_text(text))}
    assert {"long_form_lowercase", "part_word_after"} <= set(found["SIRG"])
    assert name_of(text) is None


def test_the_fields_term_in_a_background_sentence_is_not_the_papers_name():
    text = (
        "Graph Token Routing (GTR) is widely used in recommender systems. Its embeddings often collapse to a "
        "few dimensions. We show why this happens and add a decorrelation penalty that removes the collapse "
        "at no extra cost on three benchmarks."
    )
    found = {c.name: c.features for c in candidates(text, generation_text(text))}
    assert "only_in_background_sentences" in found["Graph Token Routing"]
    assert name_of(text) is None


@settings(max_examples=40, deadline=None)
@given(st.from_regex(r"[A-Z][a-z]{2,4}[A-Z][a-z]{2,4}", fullmatch=True), st.from_regex(r"[A-Z][a-z]{2,4}[A-Z][a-z]{2,4}", fullmatch=True),
       st.sampled_from(["Unlike {x}, {o} needs no labels.", "{o} outperforms {x} on every task.",
                        "Experiments on {x} show that {o} is fast.", "We fine-tune the pretrained {x} model inside {o}."]))
def test_a_defined_name_stays_the_name_whatever_other_thing_the_abstract_uses(own, other, sentence):
    """Metamorphic: a sentence that uses, compares with or sets the paper against another named thing
    never takes the name away from the one the paper defines, nor gives it to the other."""
    if own.lower() == other.lower() or own in other or other in own:
        return
    text = (f"Labelling large image sets is costly. We propose {own}, a self-training method for segmentation. "
            + sentence.format(o=own, x=other) + f" {own} halves the annotation budget.")
    assert name_of(text) == own
