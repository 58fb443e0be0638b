"""A name's subtitle says what the abstract says the named thing is (convert/titles/described.py):
a benchmark, a dataset, a metric or a framework to evaluate something is titled as one, never by
a side detail or what it evaluates; a title is never the name alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.kinds import FAMILIES, described_kind
from readinglist.convert.titles import make_title
from readinglist.convert.titles.described import described_family, described_subtitle, fits_described, fits_family
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


INPUTS = st.sampled_from(["ground pressure sequences", "sparse sensor readings", "noisy radar returns", "handwritten notes"])
OUTPUTS = st.sampled_from(["full-body motion", "dense depth maps", "structured tables", "clean transcripts"])
METHOD_KINDS = st.sampled_from(["algorithm", "framework", "model", "network", "method"])


def test_the_described_family_gives_the_kind_and_what_it_is_for():
    plain = "Roofs vary. We present RoofNet, an edge-aware network for roof plane segmentation. It is fast."
    assert described_family(plain, "RoofNet") == (
        "model", ["roof", "plane", "segmentation"], "we present roofnet, an edge-aware network for roof plane segmentation.")
    plain = "We present TabSearch, an approach to handle resource constraints in tabular search."
    assert described_family(plain, "TabSearch")[:2] == ("method", ["handling", "resource", "constraints", "in", "tabular", "search"])
    assert described_family("We use RoofNet to count roofs. RoofNet works.", "RoofNet") is None


@given(NAME, METHOD_KINDS, INPUTS, OUTPUTS, TASKS)
def test_a_subtitle_part_fits_the_family_only_as_its_kind_its_purpose_or_its_spelling(name, kind, source, output, task):
    """"Pressure2Motion: ground pressure sequences for ..." calls the algorithm its input."""
    plain = (f"Progress in {task} depends on {source}. We present {name}, a novel {kind} for {task} "
             f"that synthesizes {output} from {source}.")
    described = described_family(plain, name)
    assert described is not None
    assert fits_family(["novel", kind], described, name)
    assert fits_family(task.split(), described, name)  # what it is for, as the abstract says it
    assert not fits_family(source.split(), described, name)  # its input
    assert not fits_family(output.split(), described, name)  # what it makes is not what it is


@given(NAME, METHOD_KINDS, INPUTS, TASKS, st.sampled_from(["enhanced by", "based on", "that uses", "which integrates"]))
def test_a_subtitle_part_may_be_the_means_the_description_names(name, kind, means, task, cue):
    """"PowerCLIP, a pre-training framework enhanced by powerset alignment": "powerset alignment
    for ..." says how it works; what it works "from" or "against" is no such means."""
    plain = f"We study {task}. We present {name}, a {kind} for {task} {cue} {means}."
    assert fits_family(means.split(), described_family(plain, name), name)
    against = f"We study {task}. We present {name}, a {kind} for {task} that protects images against {means}."
    assert not fits_family(means.split(), described_family(against, name), name)


def test_the_choice_drops_a_pair_headed_by_the_named_things_input(monkeypatch):
    """Of two composed pairs, the one scoring higher says "<the algorithm's input> for <task>":
    the choice takes the one headed by the kind the abstract gives the name."""
    import importlib

    choice = importlib.import_module("readinglist.convert.titles.choice")
    raw = ("Accurate motion capture is essential for sports science. Cameras are costly. We present PressoNet, "
           "a novel algorithm that synthesizes full-body motion from ground pressure sequences. Experiments on "
           "two datasets show that PressoNet outperforms strong baselines.")
    task = ["motion", "capture"]

    def candidates(plain, budget, scorer, kind=None, name=None):
        out = []
        for score, head in ((10.0, ["ground", "pressure", "sequences"]), (5.0, ["pose", "synthesis", "algorithm"])):
            _e, new, n = scorer.pair(*scorer.info(head)[1:], *scorer.info(task)[1:])
            out.append((score, new, n, head, task))
        return out

    monkeypatch.setattr(choice, "candidates", candidates)
    title = make_title(raw, to_plain(raw), "PressoNet")
    assert title == "PressoNet: pose synthesis algorithm for motion capture", title
    monkeypatch.setattr(choice, "fits_family", lambda *_a: True)  # without the check, the input wins
    assert make_title(raw, to_plain(raw), "PressoNet") == "PressoNet: ground pressure sequences for motion capture"


_WORDS = st.sampled_from(["with", "using", "based", "on", "a", "novel", "new", "the", "model", "attention", "graph",
                          "(gnn)", "x-y", "via", "net", "proposed", "of", "leveraging", "_", "é"])


@settings(max_examples=300)
@given(st.lists(_WORDS, min_size=1, max_size=4), st.lists(_WORDS, max_size=14), st.sampled_from(["", "s", ")", "-x"]))
def test_said_after_is_the_regex_it_replaces(phrase_words, sentence_words, suffix):
    """The phrase look-up of fits_family answers as the per-phrase regex it replaced (which
    compiled a pattern for every candidate and flushed the re module's cache)."""
    import re

    from readinglist.convert.titles import described

    phrase = " ".join(phrase_words)
    sentence = " ".join(sentence_words[: len(sentence_words) // 2] + [phrase + suffix] + sentence_words[len(sentence_words) // 2 :])
    for pattern, anchored in ((described._MEANS_BEFORE, described._MEANS_END), (described._OWN_PART, described._OWN_PART_END)):
        expected = bool(re.search(pattern + re.escape(phrase) + r"\b", sentence))
        assert described._said_after(phrase, sentence, (anchored,)) == expected, (phrase, sentence)
