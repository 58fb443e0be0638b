"""Word lists and text helpers shared by the generators (naming, titles, name_model, phrases).

One place for what "a coined name", "an everyday acronym", "a known prior system", "a word a
title must not end on" and "a sentence" mean, so the generators cannot drift apart.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "DANGLING", "GENERIC_ACRONYMS", "KNOWN_SYSTEMS", "NAME_CHARS", "NAME_PATTERN", "NOT_A_NAME_WORD", "OTHER_SPACE",
    "finditer_at", "is_coined", "is_generic", "literal_spans", "split_sentences", "strip_possessive",
]

#: Words a title must not end on.
#: Words an acronym's letters skip and a Title-Case name may hold in lower case ("Graph
#: Normalization for Sparse Data" -> GNSD).
MINOR_WORDS = frozenset("of for and in on the & a an to with via by from".split())
DANGLING = frozenset(
    """a an the and or nor but of for to in on at by with without from into onto over under via as
    than that which whose where when while whereas who whom if so such this these those its their
    our is are be was were being been has have had can may will would should could not both either
    each every between among across through toward towards against about after before during
    beyond upon within versus vs using based e.g i.e including like per whether how what why its
    also only very more most less further then thus although because since though did do does
    her his it might must shall we directly well""".split()
)


# Characters a coined name is made of: letters, digits, superscripts/subscripts, Greek.
NAME_CHARS = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f0-9\u00b2\u00b3\u00b9\u2070-\u209f\u0370-\u03ff"


NAME_PATTERN = rf"[{NAME_CHARS}]+(?:[-+][{NAME_CHARS}]+)*"


NAME_RE = re.compile(NAME_PATTERN)


#: Acronyms and abbreviations for background concepts: never a paper's own name.
GENERIC_ACRONYMS = frozenset(
    """AI ML DL NLP NLU NLG CV RL IRL MARL LLM LM PLM SLM VLM MLLM LVLM LMM VLA LCLM VQA QA ODQA
    RAG ICL COT SFT RLHF RLAIF PEFT MOE GNN GCN GAT CNN RNN LSTM GRU MLP SVM KNN PCA ICA SVD NMF
    GAN VAE DDPM DDIM SDE ODE PDE MDP POMDP MCTS MCMC SGD GD MLE MAP EM KL JS TV MSE MAE RMSE
    AUC AUROC AUPRC ROC FID IS PSNR SSIM LPIPS BLEU ROUGE METEOR IOU MIOU MAP F1 EER WER CER
    OOD IID ERM DRO DP HE MPC FL TEE GPU GPUS TPU CPU NPU FPGA ASIC API SDK HPC FLOP FLOPS
    SOTA OCR ASR TTS NER POS SRL NLI STS MT NMT IR CTR EHR EMR ICU MRI CT PET ECG EEG FMRI WSI
    MIL CL DST IRT QNN VQE QAOA NISQ FDR FWER CI CIS CLT LLN OPE OPR CMC CMCS TD PG AC DQN
    KG KGE GBDT XGB USA US EU UK NASA NIH FDA GDPR HIPAA PII CSV JSON SQL HTML URL PDF RGB
    RGBD LIDAR IMU GPS UAV AV ADAS SLAM NERF VIT DIT SAM GPT ADAM ADAMW LORA QLORA DPO PPO GRPO
    RLOO TRPO SAC DDPG TD3 BERT CLIP T5 VGG YOLO DINO MAML ELBO""".split()
)


#: Families of well-known prior models, optimisers and data sets (matched as name prefixes).
KNOWN_SYSTEMS = (
    "gpt", "llama", "llava", "qwen", "gemma", "gemini", "claude", "mistral", "mixtral", "deepseek",
    "phi-", "kimi", "grok", "palm", "bert", "roberta", "deberta", "electra", "t5", "bart", "clip",
    "siglip", "blip", "dino", "sam", "vit", "deit", "swin", "resnet", "vgg", "unet", "u-net",
    "yolo", "alexnet", "efficientnet", "mobilenet", "convnext", "stable diffusion", "sdxl",
    "dall-e", "imagen", "sora", "alphafold", "openfold", "esm", "adam", "adamw", "muon", "sgd",
    "lora", "qlora", "dora", "ppo", "grpo", "dpo", "rloo", "reinforce", "trpo", "imagenet",
    "cifar", "mnist", "coco", "ms-coco", "ade20k", "squad", "glue", "superglue", "mmlu", "gsm8k",
    "humaneval", "wikitext", "c4", "laion", "openai", "anthropic", "google", "meta", "nvidia",
    "pytorch", "tensorflow", "jax", "huggingface", "megatron", "deepspeed", "nanogpt",
)


OTHER_SPACE = re.compile(r"[^\S ]")


_SENT_SPLIT = re.compile(r"[.!?]\s+(?=[A-Z\u00c0-\u024f0-9\"“(])")


_ABBREV_END = re.compile(r"(?:\b(?:e\.g|i\.e|et al|vs|cf|etc|Fig|Eq|Sec|resp|approx|Art|No)\.)$")


NOT_A_NAME_WORD = frozenset(
    """A An The This These That Those Our We It Its Two Three Four Five First Second New Novel Here
    There Such Each Both Several Many Most Some Any All One Existing Prior Previous Recent Further
    Finally However Moreover Specifically Experiments Results Code Extensive""".split()
)


_POSSESSIVE = re.compile(r"(?:'s|’s|')$")


def strip_possessive(token: str) -> str:
    if "'" not in token and "’" not in token:
        return token  # every possessive ending has an apostrophe
    return _POSSESSIVE.sub("", token)


_PART_SPLIT = re.compile(r"[-+]")
# lower and upper case letters of A-Z and Latin-1 (ß is lower; × and ÷ are not letters)
LOWER = "a-z\u00df-\u00f6\u00f8-\u00ff"
UPPER = "A-Z\u00c0-\u00d6\u00d8-\u00de"
_MIXED_CASE = re.compile(rf"[{LOWER}][{UPPER}]|[{UPPER}]{{2,}}[{LOWER}]{{2,}}")
_DIGIT_LIKE = re.compile(r"[0-9\u00b2\u00b3\u00b9\u2070-\u209f\u0370-\u03ff]")
_LATIN = re.compile(rf"[{LOWER}{UPPER}]")


@lru_cache(maxsize=65536)
def is_coined(token: str) -> bool:
    """Does the token look like a coined name (CanViT, M²LE, MDA-DD, RLQ-Grad, VESPER)?

    Mixed case inside the word, digits or superscripts with letters, hyphenated parts in
    capitals, or three or more capitals. Plain words (``Muon``), compounds with a lowercase part
    (``LLM-based``) and two-letter acronyms (``RL``) are not coined.
    """
    token = strip_possessive(token)
    parts = _PART_SPLIT.split(token)
    if not any(ch.isalpha() for ch in token):
        return False
    for part in parts:
        if len(part) >= 2 and part.isalpha() and part.islower():
            return False  # "LLM-based", "GPU-accelerated"
    if _MIXED_CASE.search(token):
        return True
    if _DIGIT_LIKE.search(token) and _LATIN.search(token):
        letters = [ch for ch in token if ch.isalpha()]
        return len(letters) >= 2 and any(ch.isupper() for ch in letters)
    if len(parts) > 1:
        return any(p.isupper() for p in parts if p) and token[0].isupper()
    letters = [ch for ch in token if ch.isalpha()]
    return len(letters) >= 3 and all(ch.isupper() for ch in letters)


@lru_cache(maxsize=65536)
def is_generic(token: str) -> bool:
    """An ordinary acronym (LLM, LLMs, CIs) or a well-known prior system (GPT-4o, DINOv3)."""
    token = strip_possessive(token)
    upper = token.upper()
    if upper in GENERIC_ACRONYMS:
        return True
    if upper.endswith("S") and upper[:-1] in GENERIC_ACRONYMS:
        return True
    low = token.lower()
    if not low.startswith(KNOWN_SYSTEMS):
        return False  # no family is a prefix (the loop below would find none)
    for family in KNOWN_SYSTEMS:
        if low == family or (low.startswith(family) and _FAMILY_SUFFIX.match(low[len(family):])):
            return True
    return False


_FAMILY_SUFFIX = re.compile(r"[-\s.]?(?:v?\d|[a-z]?$|-)")


@lru_cache(maxsize=16)
def split_sentences(plain: str) -> tuple[tuple[int, str], ...]:
    """(start offset, sentence) pairs; abbreviations like "e.g." do not end a sentence."""
    out: list[tuple[int, str]] = []
    start = 0
    for m in _SENT_SPLIT.finditer(plain):
        end = m.start() + 1
        if _ABBREV_END.search(plain, max(start, end - 10), end):
            continue
        out.append((start, plain[start:end]))
        start = m.end()
    if start < len(plain):
        out.append((start, plain[start:]))
    return tuple(out)


def finditer_at(pattern: re.Pattern, text: str, low: str | None, starts: tuple[str, ...]) -> list[re.Match]:
    """``list(pattern.finditer(text))`` for a pattern whose every match starts at one of the
    ``starts`` literals in ``low`` (``text`` lowercased, or None when ``text`` has white space
    other than spaces or lowercasing changed its length): the pattern is only tried there."""
    if low is None:
        return list(pattern.finditer(text))
    hits: set[int] = set()
    for lit in starts:
        i = low.find(lit)
        while i >= 0:
            hits.add(i)
            i = low.find(lit, i + 1)
    out = []
    last = 0
    for i in sorted(hits):
        if i < last:
            continue
        m = pattern.match(text, i)
        if m:
            out.append(m)
            last = max(m.end(), i + 1)
    return out


def literal_spans(
    text: str, literal: str, bad_before: re.Pattern, bad_after: re.Pattern | None = None, suffix: re.Pattern | None = None
) -> list[tuple[int, int]]:
    """The (start, end) spans of ``re.finditer(rf"(?<!B){re.escape(literal)}(?!A)S?", text)``
    where B is ``bad_before`` (one character), A ``bad_after`` and S ``suffix``, found with
    ``str.find`` instead of compiling a pattern for each literal (names differ per abstract, and
    a pattern per name also pushes the fixed patterns out of ``re``'s cache). Non-overlapping,
    left to right, as ``finditer``; an empty literal has no spans."""
    out: list[tuple[int, int]] = []
    if not literal:
        return out
    n = len(literal)
    i = text.find(literal)
    while i >= 0:
        if (i == 0 or not bad_before.match(text, i - 1)) and (bad_after is None or not bad_after.match(text, i + n)):
            end = suffix.match(text, i + n).end() if suffix is not None else i + n  # type: ignore[union-attr]
            out.append((i, end))
            i = text.find(literal, end)
        else:
            i = text.find(literal, i + 1)
    return out
