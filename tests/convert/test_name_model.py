"""The learned name model and title phrases: candidates, features, the shipped weights, and
behaviour on small cases written by the project (never texts of the shared corpus)."""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert import lexicon, name_candidates, name_context, name_model, name_shape, phrases
from readinglist.convert.generation import generation_text
from readinglist.convert.naming import detect_name


def names(text: str) -> dict[str, dict[str, float]]:
    plain = generation_text(text)
    return {c.name: c.features for c in name_model.candidates(text, plain)}


def detect(text: str) -> str | None:
    plain = generation_text(text)
    return detect_name(text, plain)


@pytest.mark.parametrize("path", [name_model._MODEL_PATH, phrases._MODEL_PATH], ids=["names", "phrases"])
def test_shipped_weights_say_how_they_were_made(path):
    model = json.loads(path.read_text(encoding="utf-8"))
    assert re.fullmatch(r"[0-9a-f]{64}", model["corpus_sha256"])
    assert model["command"].startswith("python -m readinglist.convert.train_")
    assert model["weights"] and all(isinstance(w, float) for w in model["weights"].values())
    # named features, readable by a person ("coined", "after_cue", "coined&after_called", ...)
    assert all(re.fullmatch(r"[a-z0-9_&+]+", k) for k in model["weights"])


def test_name_model_threshold_and_word_statistics_are_numbers_and_words_only():
    model = json.loads(name_model._MODEL_PATH.read_text(encoding="utf-8"))
    assert 0 < model["threshold"] < 1
    assert all(re.fullmatch(r"[a-z][a-z-]*", w) for w in model["common_words"])
    # tokens as written, and lowercased phrases of two to four capitalised words
    assert all(isinstance(n, int) and (" " not in t or (t == t.lower() and 2 <= len(t.split()) <= 4))
               for t, n in model["frequent_names"].items())


def test_phrases_of_capitalised_runs_are_counted_and_read_as_a_multi_word_candidates_count():
    from readinglist.convert.train_names import _cap_phrases

    found = _cap_phrases("We compare Knowledge Distillation with Group Relative Policy Optimization on Tasks.")
    assert {"knowledge distillation", "group relative policy optimization", "relative policy"} <= found
    assert not any(p.split()[0] in ("of", "with", "we") or p.split()[-1] in ("of", "with") for p in found)
    text = "We propose Momentum Feature Mixing, a regulariser, and compare it with Knowledge Distillation."
    with mock.patch.dict(name_model.load_model(), frequent={"knowledge distillation": 60}, _shapes={}):
        found_names = names(text)
    assert found_names["Knowledge Distillation"].get("phrase_df_49+")
    assert found_names["Momentum Feature Mixing"].get("phrase_df_2")


def test_decision_model_and_thresholds_are_shipped():
    model = json.loads(name_model._MODEL_PATH.read_text(encoding="utf-8"))
    assert model["decision_weights"] and all(isinstance(w, float) for w in model["decision_weights"].values())
    assert all(re.fullmatch(r"[a-z0-9_&+]+", k) for k in model["decision_weights"])
    assert isinstance(model["rank_threshold"], float)
    assert model["name_weights"] and all(re.fullmatch(r"[a-z0-9_&+]+", k) for k in model["name_weights"])
    assert model["mix"] >= 0


@pytest.mark.parametrize(
    "text",
    [
        "We introduce ProbeKit, a toolkit for sparse probes. ProbeKit finds features that others miss.",
        "Sparse probes are popular. We propose a principled method, Graph Normalization (GraphNorm), for GNNs.",
        "We study how sparse probes behave under noise and give bounds for their error.",
    ],
)
def test_the_decision_score_lies_between_the_title_and_the_name_probabilities(text):
    model = name_model.load_model()
    ranked = name_model.rank(name_model.candidates(text, generation_text(text), skip_generic=True), model)
    if not ranked:
        return
    f = name_model.decision_features(ranked)
    p_title = name_model._sigmoid(name_model._logit(f, model["decision_weights"]))
    p_name = name_model._sigmoid(name_model._logit(f, model["name_weights"]))
    name, p = name_model.decide(ranked, model)
    assert min(p_title, p_name) - 1e-12 <= p <= max(p_title, p_name) + 1e-12
    assert (name is not None) == (p >= model["threshold"])
    # a model file without the Name model decides by the title probability alone
    old = {k: v for k, v in model.items() if k != "name_weights"}
    assert name_model.decide(ranked, old)[1] == pytest.approx(p_title)


def test_a_name_in_the_code_link_is_a_feature():
    found = names("We study sparse probes. Code: https://github.com/someone/ProbeKit.")
    assert found["ProbeKit"].get("in_url") and found["ProbeKit"].get("only_in_url")
    found = names("We introduce ProbeKit, a toolkit. Code: https://github.com/someone/ProbeKit.")
    assert found["ProbeKit"].get("in_url") and not found["ProbeKit"].get("only_in_url")


def test_a_clone_address_names_the_repository_without_its_git_suffix():
    found = names("We study sparse probes. Code: https://github.com/someone/ProbeKit.git")
    assert "ProbeKit" in found and "ProbeKit.git" not in found
    assert found["ProbeKit"].get("repo_name") and found["ProbeKit"].get("only_in_url")


def test_the_owner_of_a_code_link_is_never_the_name():
    text = ("We learn a sampling distribution conditioned on a prompt that makes text-to-image models follow "
            "it closely. The method needs no training. Code: https://github.com/JaneDoeLab/prompt-sampler.")
    found = names(text)
    assert found["JaneDoeLab"].get("url_owner_only")
    assert detect(text) != "JaneDoeLab"
    # the repository itself still names the system; an owner also said in the text is a candidate as usual
    found = names("We study sparse probes. Code: https://github.com/ProbeKit/ProbeKit.")
    assert not found["ProbeKit"].get("url_owner_only")
    found = names("ProbeLab releases sparse probes. Code: https://github.com/ProbeLab/probes.")
    assert not found["ProbeLab"].get("url_owner_only")


def test_a_known_models_variant_is_a_candidate_but_the_model_itself_is_not():
    found = names("We present LLaVA-4D, a model for 4D scenes, and compare it with GPT-4o and LLaVA.")
    assert found["LLaVA-4D"].get("known_family_variant") and not found["LLaVA-4D"].get("generic_acronym")
    assert found["LLaVA"].get("generic_acronym")


def test_a_name_after_its_kind_noun_or_a_distant_cue_has_that_context():
    found = names("Risks come early. We introduce a new video understanding benchmark RiskProbe in which clips are marked.")
    assert found["RiskProbe"].get("kind_word_before") and found["RiskProbe"].get("after_cue_far")
    assert not found["RiskProbe"].get("no_introducing_context")
    found = names("The resulting model, TuneNet, composes bars. We compare it with prior work.")
    assert found["TuneNet"].get("kind_word_before")
    found = names("We propose TuneNet, a composer. It beats the LSTM baseline.")
    assert not found["TuneNet"].get("kind_word_before") and not found["TuneNet"].get("after_cue_far")


def test_variants_of_a_name_are_told_from_the_name_they_extend():
    found = names("We propose OrthoNet, an orthogonal layer, in two variants, OrthoNet-D and OrthoNet-T.")
    assert found["OrthoNet"].get("has_variants_1+")
    assert found["OrthoNet-D"].get("variant_of_candidate") and found["OrthoNet-T"].get("variant_of_candidate")
    assert not found["OrthoNet"].get("variant_of_candidate")


def test_abbreviation_definitions_give_both_forms():
    found = names("Normalisation matters. We propose a principled method, Graph Normalization (GraphNorm), for GNNs.")
    assert found["GraphNorm"].get("defined_by_long_form")
    assert found["Graph Normalization"].get("is_long_form")
    assert "long_form_appositive_after" in found["GraphNorm"] or "long_form_np_comma_before" in found["GraphNorm"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We introduce FruitNeRF++, a fruit counting method for orchards.", "FruitNeRF++"),
        ("We propose CLIP-Adapter, a light adapter for vision-language models.", "CLIP-Adapter"),
        ("We introduce \\textsc{Pref-SHAP}, an explanation method for preferences.", "Pref-SHAP"),
        ("We present D$^2$HScore, a new score function for detection.", "D²HScore"),
        ("We introduce \\CFE{} (\\textbf{C}lassroom \\textbf{F}inal \\textbf{E}xam), a benchmark.", "CFE"),
        ("This paper provides Tessera, a toolkit for tiling kernels.", "Tessera"),
    ],
)
def test_candidates_cover_the_ways_names_are_written(text, name):
    assert name in names(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We introduce MOSAe, a tiling scheduler for sparse kernels.", "MOSAe"),
        ("We introduce TILE-bench, a suite of tiling tasks for compilers.", "TILE-bench"),
        ("We propose Split-then-Merge, a two-pass tiling schedule.", "Split-then-Merge"),
    ],
)
def test_coined_shapes_beyond_the_title_rules_are_coined_candidates(text, name):
    assert names(text)[name].get("coined")


@pytest.mark.parametrize("token", ["LLMs", "GPUs", "LLM-based", "Split-Merge", "Tiling", "TILE-aware"])
def test_plurals_and_compounds_of_everyday_words_are_not_coined(token):
    assert not name_shape.is_loosely_coined(token)


def test_a_run_of_capitals_stops_before_a_word_that_starts_a_clause():
    # a list without full stops: "This" begins the next sentence, it is not part of a name
    found = names("We introduce Digital Red Queen This paper provides a study of coevolution.")
    assert "Digital Red Queen" in found and not any(n.endswith("This") for n in found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Vision transformers are costly. We introduce GlimpseViT, a glimpse-based model that reads images in parts.", "GlimpseViT"),
        ("Point clouds are sparse. We propose PointWeave++, an extension of our earlier encoder to outdoor scenes.", "PointWeave++"),
        # prior work, baselines and everyday acronyms are not the paper's name
        ("Large language models (LLMs) hallucinate. We compare GPT-4o and LLaMA-3 on ten tasks and find errors.", None),
        ("We study the convergence of SGD with momentum under heavy-tailed noise and give tight rates.", None),
    ],
)
def test_small_cases(text, expected):
    assert detect(text) == expected


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_candidates_and_choice_never_raise_and_come_from_the_text(text):
    plain = generation_text(text)
    for cand in name_model.candidates(text, plain):
        assert cand.name and cand.name in plain
        assert all(isinstance(v, float) for v in cand.features.values())
    chosen = name_model.choose(text, plain)
    assert chosen is None or chosen in plain
    assert name_model.choose(text, plain) == chosen


_FRAGMENTS = ["Net", "GPT", "Ab", "x", "b", "-", "+", ".", " ", "9", "²", "α", "Ω", "ⁱ", "(", ")", "é", "We propose ", ", a "]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=30).map("".join))
def test_candidates_scan_only_the_tokens_with_a_capital(text):
    # the same candidates, features in the same order, as when every token is scanned
    def found():
        return [(c.name, c.pos, list(c.features.items()), c.other_form) for c in name_model.candidates(text, text)]

    with mock.patch.object(name_candidates, "TOKEN_CAPITAL", name_shape.TOKEN):
        every_token = found()
    assert found() == every_token


_CUE_PIECES = ["we ", "We ", "propose", "PROPOSED", "introduces", "present", "called", "term", "dub", "named it", "coined",
               "refer to it as", "referred to as", "address this problem with", "Address The Y With", "our ", "the ", "a ",
               "new ", "novel ", " ", "\n", "\t", "x", "ſ", "K", "building", "s", "them ", "namely", "\u00a0", "_", "1"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_CUE_PIECES), max_size=8).map("".join))
def test_a_cue_before_a_mention_is_found_as_the_pattern_finds_it(text):
    for pattern, starts in ((name_context.CUE_BEFORE, name_context.CUE_STARTS), (name_context.CALLED_BEFORE, name_context.CALLED_STARTS),
                            (name_context._CUE_FAR, name_context.CUE_STARTS)):
        assert name_context.ends_on(pattern, text, starts) == bool(pattern.search(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_CUE_PIECES), max_size=12).map("".join), st.integers(0, 200))
def test_a_distant_cue_is_found_as_the_pattern_finds_it(text, cut):
    # as candidates() looks for it: only where a contribution verb starts in the lowercased text
    low = text.lower()
    verbs = sorted(i for stem in name_context.CUE_STARTS for i in name_context.find_all(low, stem)) if len(low) == len(text) else None
    end = min(cut, len(text))
    window = text[max(0, end - 80) : end]
    assert name_context.after_cue_far(window, end, verbs) == bool(name_context._CUE_FAR.search(window))


def test_every_capital_of_a_name_is_one_the_token_scan_looks_for():
    capitals = [chr(i) for i in range(0x3000) if re.fullmatch(f"[{lexicon.NAME_CHARS}]", chr(i)) and chr(i).isupper()]
    assert capitals and all(re.fullmatch(f"[{name_shape._CAPITALS}]", c) for c in capitals)
    assert {"A", "Z", "Ü", "É", "Ł", "Σ"} <= set(capitals)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300), st.integers(min_value=2, max_value=15))
def test_best_phrase_is_short_and_from_the_text(text, budget):
    words = phrases.best_phrase(text, budget)
    assert len(words) <= budget
    assert all(w in text for w in words if w != "for")


def test_best_phrase_prefers_the_abstracts_recurring_words():
    text = ("Community detection in sparse hypergraphs is hard. We study community detection in sparse "
            "hypergraphs under noise and give thresholds for community detection.")
    assert "community detection" in " ".join(phrases.best_phrase(text, 10)).lower()


@pytest.mark.parametrize("text", ["We propose **0AA&**, a method for graphs.", "We propose \\textbf{GraphX-}, a method for graphs."])
def test_an_emphasised_name_is_trimmed_as_its_title_would_be(text):
    from readinglist.config import default_config
    from readinglist.convert.generation import generate
    from readinglist.convert.tagging import compile_taxonomy

    config = default_config()
    name, title, _tags, error = generate(text, compile_taxonomy(config.taxonomy), config.max_tags)
    assert error is None and name and title.startswith(f"{name}: "), (name, title)
    assert not name.endswith(("&", "-"))


@pytest.mark.parametrize("long_form, acronym", [
    ("NOrmed Index of Retention", "NOIR"),
    ("PArallel Decoding Attack", "PADA"),
])
def test_capitals_that_spell_an_acronym_are_not_the_name(long_form, acronym):
    """"NOrmed" of "NOrmed Index of Retention (NOIR)" only spells the acronym: the name is NOIR."""
    text = (
        f"Summaries are hard to judge. This paper proposes {long_form} ({acronym}), a metric for "
        f"evaluating summarization quality. Experiments show that {acronym} correlates with human judgments."
    )
    name = detect_name(text, generation_text(text))
    assert name != long_form.split()[0]
    assert name in (None, acronym, long_form)


def test_a_capitalised_word_of_a_long_form_gives_way_to_its_bracketed_short_form():
    """"CORrelated" only spells "Coral" in "CORrelated Actuator Leaps (Coral)": a short form
    that is a word, not capitals, is still the paper's name."""
    text = (
        "Exploring with independent noise on each actuator wastes effort on bodies with many muscles. "
        "Here, we propose CORrelated Actuator Leaps (Coral), a method that injects correlated noise into "
        "the latent state of the policy network. Coral-SAC reaches a higher reward than unstructured "
        "exploration on locomotion tasks, and Coral-PPO on musculoskeletal control."
    )
    name = detect_name(text, generation_text(text))
    assert name != "CORrelated"
    assert name in (None, "Coral")


def test_the_middle_one_of_three_listed_benchmarks_is_not_the_papers_name():
    """"A, B, and C were created": B is one of three, and the paper is not named by it."""
    text = (
        "Hand-designed activation functions leave accuracy on the table. This paper improves the search "
        "through three steps: First, the benchmark datasets Kite-Bench-CNN, Kite-Bench-ResNet, and "
        "Kite-Bench-ViT were created by training three architectures with thousands of generated "
        "activation functions. Second, a surrogate of their performance is fitted, which finds better "
        "activation functions on real tasks."
    )
    assert detect_name(text, generation_text(text)) != "Kite-Bench-ResNet"


def test_an_institution_whose_cases_are_used_is_not_the_papers_name():
    """The court of "judgments of the European Court of Human Rights (ECtHR)" is the source of the
    data, not what the paper made."""
    text = (
        "Legal judgment prediction has made progress. We introduce the first benchmark for evaluating "
        "legal reasoning, built on 375 judgments of the European Court of Human Rights (ECtHR) on "
        "freedom of assembly. We evaluate 10 language models on it."
    )
    assert detect_name(text, generation_text(text)) != "ECtHR"


def test_a_name_credited_to_other_authors_is_not_the_papers_name():
    text = (
        "Deep object recognition models do well on benchmarks. We reanalyze the ObjectNet dataset recently "
        "proposed by Barbu et al. containing objects in daily life situations. We find that models do "
        "much better on isolated objects."
    )
    assert detect_name(text, generation_text(text)) != "ObjectNet"


def test_every_feature_the_generator_computes_has_a_weight_in_the_package_models():
    """Feature drift: a feature renamed or added in the code but not in a retrained model would
    silently weigh 0. On the seeds' abstracts, each model's features are all named in its file."""
    from readinglist.convert import name_model, phrases, title_words
    from readinglist.convert.generation import generation_text

    from helpers import seed_abstracts

    nm, pm, tw = name_model.load_model(), phrases.load_model(), title_words.load_model()
    assert set(tw["weights"]) == set(title_words.FEATURES)
    rank, phrase, decision = set(), set(), set()
    for raw in seed_abstracts():
        plain = generation_text(raw)
        cands = [c for c in name_model.candidates(raw, plain) if not c.features.get("generic_acronym")]
        rank.update(k for c in cands for k in c.features)
        if cands:
            decision.update(name_model.decision_features(name_model.rank(cands, nm)))
        phrase.update(k for _s, _w, f, _i in phrases.scored_phrases(plain, 15) for k in f)
    assert rank and phrase and decision
    assert rank <= set(nm["weights"]), rank - set(nm["weights"])
    assert decision <= set(nm["decision_weights"]) & set(nm["name_weights"]), decision - set(nm["decision_weights"])
    assert phrase <= set(pm["weights"]), phrase - set(pm["weights"])
