"""The role a mention plays (defined by the paper vs. cited, compared with, evaluated on, a measure),
read by the name model: a name the abstract only uses is not the paper's name, and one it defines is.
Every abstract here is written for the test."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from readinglist.convert.name_model import candidates
from readinglist.convert.name_roles import OWN_ROLES, USE_ROLES, mention_roles
from readinglist.convert.naming import detect_name
from readinglist.convert.pipeline import generation_text


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
    roles = mention_roles(far + before[-80:], after)
    assert set(roles) <= set(USE_ROLES) | set(OWN_ROLES)
    assert roles == mention_roles(before[-80:], after)


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
