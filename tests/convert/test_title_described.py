"""A name's description as the rules cleaned it counts as said (issue 25: honest before clever).

"We propose QuaVid, a novel framework for accurate AVDM quantization": the rule-made subtitle drops
"novel" and spells out the acronym, so it is no longer the abstract's words letter for letter, yet
it is still what the abstract says the name is. It must not give way to a phrase of the background
("QuaVid: driving streaming video generation ..."), which says something false about the paper.
The same holds for an appositive after a hyphen typed for a dash ("CARES-a context-aware ...").
"""

from __future__ import annotations

import pytest

from readinglist.convert.generation import generation_text
from readinglist.convert.naming import detect_name
from readinglist.convert.titles.checks import ends_on_a_verb
from readinglist.convert.titles.text import goes_on

from helpers import titled

QUANTIZER = (
    "Autoregressive video diffusion models (AVDMs) generate long videos frame by frame and drive streaming video "
    "generation for interactive world simulation. Their inference cost makes model quantization a natural direction "
    "for cutting latency. However, quantizing AVDMs is hard, since errors in early frames accumulate over later ones. "
    "We propose QuaVid, a novel framework for accurate AVDM quantization. QuaVid weights each frame by its effect on "
    "final quality and isolates outlier channels. Experiments on streaming video generation benchmarks show that "
    "QuaVid keeps quality at 4-bit precision."
)


def test_the_cleaned_appositive_stays_against_the_background():
    title = titled(QUANTIZER)
    assert title.startswith("QuaVid: ")
    assert "framework for accurate" in title and title.endswith("quantization")
    assert "streaming" not in title and "driving" not in title


@pytest.mark.parametrize(
    ("title", "verb"),
    [
        # "makes model quantization a natural direction": a noun with its complement, not a verb
        ("a framework for model quantization", False),
        ("open problems of data sparsity", False),
        # a gerund start is the verb phrase the abstract completes ("making X a key challenge")
        ("making model quantization", True),
        # "source labels tell us where ...": a verb cut from its object
        ("models for source labels tell", True),
    ],
)
def test_a_noun_before_an_article_is_no_verb(title, verb):
    plain = (
        "Their cost makes model quantization a natural direction, and source labels tell us where errors arise. "
        "Our study makes data sparsity a first concern."
    )
    assert ends_on_a_verb(title.split(), plain) is verb


@pytest.mark.parametrize(
    ("after", "on"),
    [
        (" non-negative, interpretable embeddings from similarity matrices", True),
        (" bijective 3D contact correspondences", True),
        (" which prunes edges", False),
        (" and we show that it scales", False),
        (" achieving state-of-the-art results", False),
        (" 3D meshes", False),
        (" Experiments follow", False),
        ("", False),
    ],
)
def test_what_goes_on_after_a_comma(after, on):
    assert goes_on(after) is on


SELECTOR = (
    "Vision-language models (VLMs) spend most of their compute on image tokens, yet many queries need only a "
    "coarse view. We introduce \\emph{CARES}-a \\textbf{C}ontext-\\textbf{A}ware \\textbf{R}esolution "
    "\\textbf{S}elector, a lightweight module that predicts the smallest input resolution a query needs. "
    "CARES cuts compute by up to 80% while keeping accuracy on five benchmarks."
)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("we propose SimBelief-a novel meta-RL framework", "we propose SimBelief, a novel meta-RL framework"),
        ("we introduce MapBench-the first dataset", "we introduce MapBench, the first dataset"),
        ("KG-RAG-an agentic framework", "KG-RAG, an agentic framework"),
        # hyphens inside words stay
        ("a one-to-many mapping in the T-a mode", "a one-to-many mapping in the T-a mode"),
        ("a Vision-and-Language model", "a Vision-and-Language model"),
    ],
)
def test_a_hyphen_typed_for_a_dash_before_an_appositive(typed, read):
    assert generation_text(typed) == read


def test_the_name_before_a_typed_dash_gets_its_appositive():
    plain = generation_text(SELECTOR)
    assert detect_name(SELECTOR, plain) == "CARES"
    title = titled(SELECTOR)
    assert title.startswith("CARES: ") and "context-aware resolution selector" in title.lower()
