"""The training scripts that need scikit-learn (train_names, train_phrases, train_title_words) run
end to end on a tiny corpus written for the test, and the model each writes is one the generator
reads: the scripts are the only way to rebuild the package data, so a change that breaks one must
fail here, not months later when someone retrains.

They need the ``train`` extra (scikit-learn); without it they are skipped, and ``.ci/run``
installs it so that CI runs them."""

from __future__ import annotations

import gzip
import json
import random

import pytest

pytest.importorskip("sklearn")

from readinglist.convert import name_model, phrases, title_words  # noqa: E402

NAMES = ["Zorblax", "QuillNet", "FlexiCap", "MorphoRL", "TriGrad", "PolyMesh", "SynthVox", "GraphLens"]
TASKS = ["image segmentation", "protein folding", "speech recognition", "graph matching",
         "code generation", "molecule design", "traffic forecasting", "document retrieval"]
ADJS = ["sparse", "robust", "efficient", "adaptive", "hierarchical", "contrastive"]


def _corpus(tmp_path, n: int = 240):
    """``n`` papers written for the test: half "Name: adjective task" papers whose abstract
    proposes Name, half plain "Adjective task with ..." titles without a coined name; each
    abstract also names a baseline it beats."""
    rng = random.Random(7)
    path = tmp_path / "train.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for i in range(n):
            task, adj = rng.choice(TASKS), rng.choice(ADJS)
            name = f"{rng.choice(NAMES)}{i}"
            opening = f"Existing methods for {task} remain slow and brittle on large inputs."
            if i % 2:
                title = f"{name}: {adj} {task}"
                middle = f"We propose {name}, an {adj} approach to {task} built on learned priors."
            else:
                title = f"{adj.capitalize()} {task} with learned priors"
                middle = f"We present an {adj} method for {task} that uses learned priors."
            # a compared baseline with a coined name the title never uses: a candidate to reject
            result = f"Experiments on benchmark number {i} show gains over RivalNet{i % 40}."
            f.write(json.dumps({"id": str(i), "title": title, "abstract": f"{opening} {middle} {result}",
                                "source": "test"}) + "\n")
    return path


@pytest.fixture
def restored_models(monkeypatch):
    """The scripts point the generator's modules at the model they write: put them back after."""
    for module in (name_model, phrases, title_words):
        monkeypatch.setattr(module, "_MODEL_PATH", module._MODEL_PATH)
    yield
    for module in (name_model, phrases, title_words):
        module.load_model.cache_clear()
    phrases.learned_verbs.cache_clear()  # derived from the phrase model, cached on its own


def _trained(path) -> dict:
    model = json.loads(path.read_text(encoding="utf-8"))
    assert model["corpus_sha256"] and model["command"].startswith("python -m readinglist.convert.train_")
    return model


def test_train_names_writes_a_model_that_finds_a_proposed_name(tmp_path, restored_models):
    from readinglist.convert import train_names

    out = tmp_path / "name_model.json"
    assert train_names.main([str(_corpus(tmp_path)), "--out", str(out)]) == 0
    model = _trained(out)
    assert model["papers"] == 240
    for key in ("weights", "decision_weights", "name_weights"):
        assert model[key] and all(isinstance(w, float) for w in model[key].values())
    name_model.load_model.cache_clear()
    abstract = ("Existing methods for image segmentation remain slow. We propose Vexilor, a sparse "
                "approach to image segmentation built on learned priors. Experiments show gains.")
    from readinglist.convert.naming import detect_name
    from readinglist.convert.generation import generation_text

    assert name_model._MODEL_PATH == out  # the name found below comes from the model just trained
    assert detect_name(abstract, generation_text(abstract)) == "Vexilor"


def test_train_phrases_learns_weights_for_the_features_the_generator_scores(tmp_path, restored_models):
    from readinglist.convert import train_phrases

    out = tmp_path / "phrase_model.json"
    assert train_phrases.main([str(_corpus(tmp_path)), "--out", str(out), "--limit", "240"]) == 0
    model = _trained(out)
    assert model["papers"] == 240 and "<rare>" in model["affinity"]
    assert 0.0 < model["heldout_fifth_rouge1_of_chosen"] <= 1.0
    weights = model["weights"]
    # every feature the generator computes for a phrase of an abstract like the corpus's has a weight
    phrases.load_model.cache_clear()
    from readinglist.convert.generation import generation_text

    text = generation_text("Existing methods for graph matching remain slow and brittle on large inputs. We "
                           "present a robust method for graph matching that uses learned priors. "
                           "Experiments on benchmark number 3 show gains over RivalNet3.")
    emitted = {k for _s, _w, f, _i in phrases.scored_phrases(text, 15) for k in f}
    assert emitted and emitted <= set(weights)


def test_train_title_words_writes_a_model_the_word_scorer_reads(tmp_path, restored_models):
    from readinglist.convert import train_title_words

    out = tmp_path / "title_word_model.json"
    assert train_title_words.main([str(_corpus(tmp_path)), "--out", str(out), "--stats", "160", "--fit", "80"]) == 0
    model = _trained(out)
    assert set(model["weights"]) <= set(title_words.FEATURES)
    assert 0.5 < model["heldout_fifth_auc"] <= 1.0  # the task words are learnable from this corpus
    title_words._MODEL_PATH = out  # the fixture puts the package model back
    title_words.load_model.cache_clear()
    abstract = ("Existing methods for protein folding remain slow and brittle on large inputs. We present "
                "an adaptive method for protein folding that uses learned priors. Experiments on "
                "benchmark number 5 show gains over RivalNet5.")
    from readinglist.convert.generation import generation_text

    probs = title_words.word_probabilities(generation_text(abstract), None)
    # in this corpus the task words are always in the title and the boilerplate never is
    assert min(probs["protein"], probs["folding"]) > max(probs["existing"], probs["experiments"])
