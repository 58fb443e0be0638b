"""train_title_ends: the words real titles do not end on, learned from a corpus of titles."""

from __future__ import annotations

import gzip
import json

from readinglist.convert import train_title_ends
from readinglist.convert.titles import words_of_title


def test_a_modifier_that_never_ends_a_title_is_learned_and_a_head_noun_is_not(tmp_path):
    # written for this test: 70 titles with "sparse" before its noun, all ending on "retrieval"
    # (0 ends in 70 titles: a smoothed rate of 0.5 / 72, under MAX_RATE)
    titles = [f"Sparse attention number {i} for document retrieval" for i in range(70)]
    titles += [f"Dense passage retrieval, variant {i}" for i in range(3)]  # "variant 3": ends on a digit
    titles += ["Few examples of text-to-image"]  # too few titles to judge "text-to-image"
    corpus = tmp_path / "train.jsonl.gz"
    with gzip.open(corpus, "wt", encoding="utf-8") as f:
        for i, t in enumerate(titles):
            f.write(json.dumps({"id": str(i), "title": t, "abstract": "x", "source": "test"}) + "\n")
    out = tmp_path / "title_ends.json"
    assert train_title_ends.main([str(corpus), "--out", str(out)]) == 0
    model = json.loads(out.read_text(encoding="utf-8"))
    never = set(model["not_final"])
    assert {"sparse", "attention", "for", "document"} <= never
    assert "retrieval" not in never  # ends 70 of the 73 titles it is in
    assert "text-to-image" not in never and "examples" not in never  # in one title only
    assert model["papers"] == len(titles) and model["corpus_sha256"]
    assert model["command"].startswith("python -m readinglist.convert.train_title_ends")


def test_title_words_keep_hyphenated_words_whole():
    assert words_of_title("EmoCLIP: learning from Large-Scale, end-to-end data.") == [
        "emoclip", "learning", "from", "large-scale", "end-to-end", "data"]
