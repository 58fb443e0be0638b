"""Learned scope openers (train_scope_openers.py): a phrase the abstract names only as where the
work is evaluated, what a problem stems from or leads to, is never offered as a title phrase."""

from __future__ import annotations

import json
import re

import pytest

from helpers import training_corpus

from readinglist.convert import train_scope_openers
from readinglist.convert.scope import PAIRS, in_scope


def scoped_words(sentence: str) -> list[str]:
    tokens = re.findall(r"[\w-]+|[^\w\s]", sentence.lower())
    return [t for t, inside in zip(tokens, in_scope(tokens)) if inside]


@pytest.mark.parametrize("opening", ["Experiments on", "Our method suffers from", "This is due to", "The error stems from"])
def test_a_learned_opener_opens_a_scope_up_to_the_clause_end(opening):
    assert tuple(opening.lower().split()[-2:]) in PAIRS  # shipped in data/scope_openers.json
    inside = scoped_words(f"{opening} dense hashing caches, and we train quickly.")
    assert {"dense", "hashing", "caches"} <= set(inside)
    assert "train" not in inside and "quickly" not in inside


def test_the_words_a_title_is_made_of_open_no_scope():
    for pair in [("framework", "for"), ("method", "for"), ("benchmark", "for"), ("based", "on")]:
        assert pair not in PAIRS


def test_the_trainer_keeps_pairs_whose_phrases_seldom_reach_the_title(tmp_path):
    # written for this test: "experiments on <dataset>" never reaches the title, "framework for <task>" always does
    rows = [{"title": f"Sparse kit {i} for gauge ranking",
             "abstract": f"We propose a framework for gauge ranking. Experiments on ledger{i} tide{i} data, with gains."}
            for i in range(300)]
    corpus = training_corpus(tmp_path, rows)
    out = tmp_path / "scope_openers.json"
    assert train_scope_openers.main([str(corpus), "--out", str(out)]) == 0
    model = json.loads(out.read_text(encoding="utf-8"))
    assert model["papers"] == 300
    assert model["openers"]["experiments on"] == [0, 900]
    assert "framework for" not in model["openers"]
    assert model["command"].startswith("python -m readinglist.convert.train_scope_openers") and model["corpus_sha256"]
