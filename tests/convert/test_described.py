"""A name's subtitle says what the abstract says the named thing is (convert/titles/described.py):
a benchmark, a dataset, a metric or a framework to evaluate something is titled as one, never by
a side detail or what it evaluates; a title is never the name alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.kinds import FAMILIES, described_kind
from readinglist.convert.titles import make_title
from readinglist.convert.titles.described import described_subtitle, fits_described
from readinglist.convert.titles.text import head_noun
from readinglist.text import to_plain

NAME = st.from_regex(r"[A-Z][a-z]{2,6}[A-Z][a-z]{1,4}", fullmatch=True)
DATA_KINDS = sorted(FAMILIES["data"].split()[::2] + FAMILIES["measure"].split()[::2])  # singular nouns
DETAILS = st.sampled_from([
    "federated prompt learning algorithms", "video centered social media", "image degradations",
    "text template images", "multi-step data transformation workflows", "noisy annotation pipelines",
])
TASKS = st.sampled_from(["data governance", "long video understanding", "protein structure prediction", "speech recognition"])


def abstract(name: str, kind: str, detail: str, task: str, introduce: str) -> str:
    intro = {
        "appositive": f"To bridge this gap, we introduce {name}, a {kind} featuring 150 diverse tasks.",
        "named": f"In this work, we introduce a comprehensive {kind}, named {name}, to evaluate {detail}.",
        "before": f"To reflect real conditions, we introduce a new {kind} {name} in which clips are annotated.",
    }[introduce]
    return (f"Progress in {task} depends on {detail}. Recently, {detail} have emerged for {task}. "
            f"However, existing work on {detail} fails to capture the challenge. {intro} "
            f"Our analysis on {name} reveals that current {detail} struggle with complex {task}.")


@settings(max_examples=40, deadline=None)
@given(NAME, st.sampled_from(DATA_KINDS), DETAILS, TASKS, st.sampled_from(["appositive", "named", "before"]))
def test_a_described_benchmark_is_titled_as_one(name, kind, detail, task, introduce):
    """"GovBench, a benchmark featuring ..." is not "GovBench: automating data governance" nor
    "RiskCueBench: video centered social media": the subtitle is headed by the kind noun."""
    raw = abstract(name, kind, detail, task, introduce)
    title = make_title(raw, to_plain(raw), name)
    assert title.startswith(f"{name}: "), title
    assert head_noun(title[len(name) + 2 :].split()) == kind, title


@settings(max_examples=25, deadline=None)
@given(NAME, DETAILS, TASKS)
def test_a_framework_to_evaluate_is_not_titled_by_what_it_evaluates(name, detail, task):
    """"we introduce a comprehensive framework, named FLIP, to evaluate federated prompt learning
    algorithms" is not "FLIP: federated prompt learning algorithms"."""
    raw = abstract(name, "framework", detail, task, "named")
    title = make_title(raw, to_plain(raw), name)
    assert head_noun(title[len(name) + 2 :].split()) == "framework", title
    assert "evaluat" in title.lower(), title


@pytest.mark.parametrize("kind", ["framework", "model", "network"])
def test_a_title_is_never_the_name_alone(kind):
    """"we introduce FAZMamba and a unified Joint-OCTAMamba framework" once gave the bare name."""
    raw = ("OCTA is a crucial non-invasive imaging technique for diagnosing retinal diseases. Current 2D-based "
           "methods for retinal vessel segmentation offer insufficient accuracy. To simultaneously improve the "
           f"segmentation of the foveal avascular zone, we introduce FAZMamba and a unified Joint-OCTAMamba {kind}. "
           "Experimental results on the OCTA-500 dataset demonstrate that Joint-OCTAMamba outperforms existing models.")
    title = make_title(raw, to_plain(raw), "Joint-OCTAMamba")
    assert title.startswith("Joint-OCTAMamba: ") and len(title.split()) > 3, title


@given(NAME, st.sampled_from(DATA_KINDS), TASKS)
def test_the_described_subtitle_is_headed_by_its_kind_and_says_its_purpose(name, kind, task):
    plain = f"We study {task}. We present {name}, a large {kind} for evaluating {task} at scale."
    found = described_kind(plain, name)
    assert found is not None and found[0] == kind and found[2].startswith("for evaluating")
    sub = described_subtitle(plain, name, 12)
    assert head_noun(sub) == kind and name not in sub and "evaluating" in sub


@given(NAME, st.sampled_from(["method", "model", "approach", "algorithm"]), TASKS)
def test_a_method_may_be_titled_by_its_task_and_a_vague_mention_says_nothing(name, kind, task):
    """"FABind: fast protein-ligand binding" is honest for "FABind, an end-to-end model that ...";
    "our method, X" or "the X model" says no kind to hold the subtitle to."""
    plain = f"We study {task}. We present {name}, an end-to-end {kind} that combines two stages."
    assert fits_described(task.split(), plain, name)
    vague = f"We study {task}. Our benchmark, {name}, works. The {name} dataset is large."
    assert described_kind(vague, name) is not None and fits_described(task.split(), vague, name)


def test_only_an_acronym_is_spelled_out():
    """"multi-modal queried object detection" spells MQ-Det; "brainteaser questions spanning ..."
    does not spell BrainBench (two capitals are no acronym) nor does a longer run."""
    from readinglist.convert.titles.described import _spells

    assert _spells("multi-modal queried object detection".split(), "MQ-Det")
    assert not _spells("brainteaser questions spanning for standard benchmarks".split(), "BrainBench")
    assert not _spells("algorithms for federated prompt learning".split(), "FPLA")
