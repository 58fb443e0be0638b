"""detect_name: the name an abstract introduces, checked by hand on every seed abstract and on
held-out abstracts written to exercise other ways of introducing (or merely mentioning) names."""

from __future__ import annotations

import pytest
from helpers import BLIND, HELDOUT, HELDOUT_MORE, SEEDS, by_prefix
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.naming import detect_name, is_coined
from readinglist.text import to_plain

# Decided by reading each abstract: the name is what *this* paper introduces.
SEED_NAMES = {
    "Knowledge editing has emerged": None,  # unnamed l1 regularisation method
    "Large language model (LLM) post-training": "CapTrack",
    "Many prediction problems involve": None,  # CPQ is a formalised concept, ICL background
    "Dynamic Sparse Training (DST)": None,  # extends CHT, DST is background
    "Active computer vision promises": "CanViT",  # not AVFM (background), not Canvas Attention
    "Relational out-of-distribution errors": None,  # CycleAcc is a metric, COCO/GQA data sets
    "Legal judgment prediction": None,  # an unnamed benchmark; ECtHR is a court
    "AI benchmarks increasingly leverage": None,  # IRT background
    "Since Vision-Language Models": "VESPER",
    "Passive image provenance": None,
    "Model merging techniques": "IsoLoCo",  # not DiLoCo or Iso-C (prior work)
    "Source labels tell us": None,
    "Most Vision-Language Models": "LIFT",
    "Language models (LMs) raise": "BlockSearch",  # not MSA (compared with)
    "Large language models have demonstrated": None,
    "Production training of large models": "CONCORD",  # named only as the subject after "We introduce a ..."
    "Structure prediction models are": "POISK",  # not the benchmarked Protenix-v2 etc.
    "Training instabilities such as": None,  # Muon, Adam, NanoGPT are prior work
    "We present an encoding method": None,  # FILM and TAG are benchmarks
    "Continual learning (CL) aims": "M²LE",  # not LoRA/PEFT/CL, not its parts HIM/TSP
    "The validity of AI safety": None,
    "When researchers iteratively refine": "DriftBench",  # KBV is a metric
    "Machine unlearning for vision": "MUNKEY",
    "Modelling opinion dynamics": None,  # MARL background
    "Variational quantum algorithms": "RLQ-Grad",  # not PPO or QNN
    "Due to the gigapixel-scale": "TMEvolve",  # not WSI/MIL
    "The open-source model ecosystem": "ModelLens",
    "We propose and analyze a model-based bootstrap": None,  # CMC/LLN/CLT/OPE/OPR/CIs background
    "Online decision-making faces": "GTP",
    "Large Language Models (LLMs) are trained": "MATT",  # not AIM (a part of it)
    "Most FDR-controlled feature selection": None,
    "Large language models (LLMs) increasingly act": None,
    "A central goal of safety research": None,  # "model incrimination" is a term, not a name
    "Harmful fine-tuning can rapidly": None,
    "Multimodal dataset distillation (MDD)": "MDA-DD",  # not MDD (background) or SOCM (a part)
    "Recursive training on synthetic data": None,  # VaDE, VAE, DDPM prior work
    "Existing accounts of grokking": None,
    "LLM post-training is usually framed": "MCPO",  # not PPO/GRPO/RLOO/KL
}

HELDOUT_NAMES = {
    "Charts are a dense medium": "ChartQuest",  # "a new benchmark, ChartQuest, that"
    "Policy-gradient methods for fine-tuning": "FlowPO",  # "a framework called FlowPO"
    "Adaptive optimizers such as Adam": None,  # analysis of prior optimisers
    "Medical visual question answering": "MedVQA-X",  # "This paper introduces \textbf{...}"
    "Temporal graphs arise": None,  # extends GraphSAGE, compares with TGN
    "Large language models are increasingly used as automatic judges": None,  # a metric (CAS)
    "Neural fields represent signals": "Φ-Net",  # Greek letter
    "Federated learning (FL) enables": None,  # FL, IID, FedAvg, FedProx: background and baselines
    "State space models offer": "Mamba-ND",  # builds on Mamba, introduces Mamba-ND
    "Reinforcement learning from human feedback (RLHF)": None,
    "Large language models are widely assumed": None,  # evaluates GPT-4o etc.
    "Text-to-3D generation with score": "3DGS-Edit",  # name starting with a digit
    "Training large vision transformers": "PTD",  # "a training scheme termed ... (PTD)"
    "Transformers can learn linear regression": None,
    "Two-sample testing with deep kernels": None,  # MMD is a concept inside the phrase
    "Aurora-Bench is a new benchmark": "Aurora-Bench",  # "X is a new ..."
    "Continuous control benchmarks": None,  # bold baselines PPO and SAC
    "Knowledge distillation from large teachers": "DistilMix",  # "namely DistilMix"
    "Speech recognition systems degrade": "AccentShift",  # "the \textsc{...} benchmark"
    "Differential privacy (DP) provides": None,  # DP-SGD is prior work
    "Protein language models capture": "ProtFold-LM",  # not AlphaFold
    "Quantum error correction requires": None,  # FPGA, unnamed decoder
    "Despite rapid progress in retrieval-augmented": "Tandem",  # "Our framework, Tandem,"
    "Interpretability methods based on sparse": "TreeSAE",  # "which we call TreeSAE"
    "Graph neural networks (GNNs) are vulnerable": None,  # GCN, GAT analysed
    "Wearable sensors enable continuous": None,  # an unnamed data set
    "Although code generation models": "RepoShift",
    "Existing theories of double descent": None,
    "Language models often state": None,
    "Many sequential decision problems": None,
    "Clinical notes frequently copy": None,  # "note cloning" is a coined term, not a name
    "Automatic speech translation": None,
    "Deep ensembles are widely used": None,
    "Large language models are increasingly used as research": None,
    "Retrieval-augmented generation systems": None,  # EAR is a metric
    "Graph transformers are increasingly": None,
    "Mixture-of-experts language models": None,
    "We find that the gains": None,
    "Offline reinforcement learning suffers": None,
    "Point cloud segmentation networks": "SensorMix",  # "In this work, we introduce SensorMix, a ..."
    "Protein design models are typically": "ProteinGym-Lab",
    "Federated learning across hospitals": None,  # FedAvg is a baseline
}

BLIND_NAMES = {
    "End-to-end automatic speech recognition": "SwitchTok",  # "a ... scheme, dubbed SwitchTok, that"
    "Self-supervised speech models like": None,  # wav2vec 2.0, HuBERT, WavLM are probed, not introduced
    "Chest X-ray interpretation": "RadGround",  # not MIMIC-CXR, CheXpert, MAIRA-2, LLaVA-Med
    "Deep segmentation networks for MRI": "UAPS",  # not TENT ("Unlike prior ... such as TENT")
    "Federated learning (FL) with partial": None,  # FedAvg, SCAFFOLD background
    "Personalized federated learning": "FedSplice",  # "a framework called FedSplice"
    "Message-passing graph neural networks": "RatioConv",  # "termed RatioConv"
    "Graph transformers combine": None,  # "Compared with GraphGPS and Exphormer, our approach"
    "Text-to-image diffusion models generate": "FlashStep",  # \textbf{FlashStep}
    "Video diffusion models often": None,
    "Structure-based drug design": "PocketFlow-3D",  # "Our model, PocketFlow-3D, is"
    "Learning dexterous manipulation": "HiSC",  # not PPO, SAC
    "Offline reinforcement learning (RL) algorithms": None,  # CQL, IQL, TD3+BC, D4RL
    "Large language models (LLMs) solve math": "TraceTrim",  # "a procedure we call TraceTrim"
    "LLM-based agents are increasingly": "OfficeArena",  # not GPT-4o
    "Direct preference optimization (DPO)": None,  # DPO, PPO prior work
    "Retrieval-augmented generation (RAG) grounds": "ConflictRAG",
    "Training language models with differential": None,  # DP-SGD, GPT-2, Pythia
    "Membership inference attacks (MIAs)": "ZeroRef",  # "which we name ZeroRef"
    "Variational quantum circuits are often": None,
    "Neural operators learn solution maps": "WaMO",  # not FNO, U-NO, Transolver
    "Machine-learned interatomic potentials": "CrystalText",  # "We release CrystalText, a dataset"
    "Proteins are dynamic molecules": "ConfDiff-X",  # "which we refer to as ConfDiff-X"
    "We study the convergence of stochastic": None,  # SGD background
    "Sparse autoencoders (SAEs) have become": None,  # TopK, JumpReLU, Gemma-2 are prior work
    "The key–value (KV) cache dominates": "KVQuill",
    "Post-training pruning methods such as": None,  # SparseGPT, Wanda, LoRA
    "Class-incremental learning requires": "λ-Drift",  # not CODA-Prompt, L2P
    "Audio-visual speech recognition improves": "AVFuse",  # "a model named AVFuse"; not AV-HuBERT, Whisper
    "Adversarial training improves robustness": None,  # ResNet-50, ViT-B, CLIP, RobustBench
}


def test_every_abstract_has_an_expectation():
    assert len(SEEDS) == len(SEED_NAMES) == 38
    assert len(HELDOUT) + len(HELDOUT_MORE) == len(HELDOUT_NAMES)
    assert len(HELDOUT_MORE) >= 16
    for prefix in SEED_NAMES:
        by_prefix(SEEDS, prefix)
    for prefix in HELDOUT_NAMES:
        by_prefix(HELDOUT + HELDOUT_MORE, prefix)
    assert len(BLIND) == len(BLIND_NAMES) == 30


def same_system(got: str | None, expected: str | None, plain: str) -> bool:
    """The expected name, or its spelled-out form written right before it ("Generative
    Trajectory Planning (GTP)"): both name the same system."""
    if got == expected:
        return True
    return bool(got and expected and f"{got} ({expected})" in plain)


def agreement(table: dict, pool: list[str]) -> tuple[int, list[str]]:
    wrong = []
    for prefix, expected in table.items():
        raw = by_prefix(pool, prefix)
        plain = to_plain(raw)
        if not same_system(detect_name(raw, plain), expected, plain):
            wrong.append(prefix)
    return len(table) - len(wrong), wrong


def test_seed_system_names_are_found():
    """The system names of the seeds are found (as written, or spelled out); one miss is allowed
    so that a retrained model is judged on the whole set, not held to each case."""
    named = {p: e for p, e in SEED_NAMES.items() if e}
    right, wrong = agreement(named, SEEDS)
    assert right >= len(named) - 1, wrong


@pytest.mark.parametrize(
    ("table", "pool", "at_least"),
    [(SEED_NAMES, SEEDS, 0.9), (HELDOUT_NAMES, HELDOUT + HELDOUT_MORE, 0.9), (BLIND_NAMES, BLIND, 0.9)],
    ids=["seeds", "heldout", "blind"],
)
def test_names_agree_with_the_hand_labels(table, pool, at_least):
    """The learned choice agrees with the project's hand labels (names and "no name") on most
    abstracts; measured in aggregate so a better model is never held to today's mistakes."""
    right, wrong = agreement(table, pool)
    assert right / len(table) >= at_least, wrong


CUE_CASES = [
        ("We introduce NovaNet, a network for tides.", "NovaNet"),
        ("We propose Sparse Token Routing (STR) for long inputs.", "STR"),
        ("We propose a method that, unlike LoRA (Hu et al.), trains adapters.", None),
        ("We propose a loss based on the Jensen gap (JG) for training.", None),
        ("We introduce the ORBIT metric, which scores plans.", None),
        ("We introduce ORBIT, a new metric for plan quality.", None),
        ("Unlike PPO, our method needs no critic.", None),
        ("We compare LLaMA-3 and GPT-4o on these tasks.", None),
        ("We propose LLM-guided search for proofs.", None),
        ("We introduce Atlas, a benchmark of maps.", "Atlas"),
        ("We introduce Gaussian process priors for drift.", None),
        ("Our method, Kestrel, halves the cost.", "Kestrel"),
        ("We propose FooNet, a new distance learning network.", "FooNet"),
        ("We propose the Calibrated Agreement Score (CAS), a score that rewards.", None),
        ("We release 7B and 70B models.", None),
        ("we dub this approach SkipLayer and show it is fast.", "SkipLayer"),
        ("The model, which we refer to as Tern-2, is fast.", "Tern-2"),
        ("Compared with GraphGPS and Exphormer, our approach is faster.", None),
        ("Unlike BernNet, ChebNetII, or GPRGNN, our filter is rational.", None),
        ("", None),
]


def test_cues_and_non_cues():
    """Small cases written by the project, decided as a reader would; in aggregate, since the
    learned choice still names a few metrics ("We introduce ORBIT, a new metric ...")."""
    wrong = [(s, e) for s, e in CUE_CASES if not same_system(detect_name(s, s), e, s)]
    assert len(wrong) <= len(CUE_CASES) // 4, wrong


@pytest.mark.parametrize(
    ("token", "coined"),
    [("CanViT", True), ("M²LE", True), ("MDA-DD", True), ("RLQ-Grad", True), ("VESPER", True),
     ("Iso-C", True), ("3DGS", True), ("Muon", False), ("LLM-based", False), ("RL", False),
     ("Vision-Language", False), ("7B", False), ("the", False)],
)
def test_is_coined(token, coined):
    assert is_coined(token) is coined


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_safe_and_deterministic(text):
    first = detect_name(text, text)
    assert first is None or (first and first in text)
    assert detect_name(text, text) == first


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["We introduce", "We propose", "This paper presents"]),
       st.from_regex(r"[A-Z][a-z]{2,6}[A-Z][a-z]{2,6}", fullmatch=True))
def test_introduced_coined_names_are_found(cue, name):
    text = f"Prior work is slow. {cue} {name}, a fast solver for sparse systems."
    assert detect_name(text, text) == name


@pytest.mark.parametrize("name", ["Schützen", "Élan", "NaïveRL", "ZürichNet", "ÆsirGen", "CaféBench"])
def test_names_with_accented_letters_are_found_whole(name):
    """A name spelled with letters outside A-Z is neither cut at the first one ("Sch") nor lost."""
    text = f"Prior work is slow. We introduce {name}, a fast solver for sparse systems. {name} scales well."
    assert detect_name(text, text) == name
