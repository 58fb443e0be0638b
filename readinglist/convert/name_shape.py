"""The shape of a candidate name, for :mod:`readinglist.convert.name_model`: the token patterns
that find candidates (coined-looking tokens, runs of capitalised words), whether a token looks
coined, and :func:`shape_features` of a name (its case, digits, hyphens, how many training
abstracts use it, whether it spells an everyday acronym). Pure functions; no model is read here
(the word statistics are passed in)."""

from __future__ import annotations

import re
from functools import lru_cache

from . import lexicon
from .lexicon import NAME_CHARS

# A token: letters/digits joined by - + . ' ; may end in ++ or + ("FruitNeRF++", "Dr.V", "M0.5"); "&"
# joins two parts when a capital follows it ("TopP&R", "Walk&Retrieve").
_TOKEN_BODY = rf"[{NAME_CHARS}]+(?:(?:[-+]|\.(?=[{NAME_CHARS}])|&(?=[A-Z]))[{NAME_CHARS}]+)*(?:\+\+|\+(?![{NAME_CHARS}]))?"
TOKEN = re.compile(rf"(?<![{NAME_CHARS}\-+&]){_TOKEN_BODY}")
# The tokens that may be a candidate: those with a capital (every capital of NAME_CHARS is in _CAPITALS:
# A-Z, Latin-1's capitals, the Latin Extended blocks (both cases) and the Greek block) or a "+";
# an all-lowercase one never is. The look-ahead scans the run of token
# characters from the token's start, so it lets through every such token (and a few others,
# which the candidates' own test leaves out), and never starts a token where _TOKEN would not.
_CAPITALS = lexicon.UPPER + "\u0100-\u024f\u0370-\u03ff"
TOKEN_CAPITAL = re.compile(rf"(?<![{NAME_CHARS}\-+&])(?=[{NAME_CHARS}\-+.&]*[{_CAPITALS}+]){_TOKEN_BODY}")
_CAP_WORD = rf"(?:[A-Z][{NAME_CHARS}]+(?:-[{NAME_CHARS}]+)*)"
CAP_RUN = re.compile(rf"(?<![{NAME_CHARS}\-])({_CAP_WORD}(?: (?:(?:of|for|and|in|on|the|&) )?{_CAP_WORD}){{1,3}})(?![{NAME_CHARS}])")
STOP = lexicon.MINOR_WORDS


def bucket(n: int, edges: tuple[int, ...]) -> str:
    for e in edges:
        if n <= e:
            return str(e)
    return f"{edges[-1]}+"


# Coined shapes lexicon.is_coined leaves out because titles need it strict: capitals ending in
# one or two small letters ("CAFe", "GIBLy"; not a plural "LLMs"), capitals joined to a name
# suffix ("CAR-bench", "SEAL-pose") and hyphenated phrases that coin a procedure
# ("Align-then-Unlearn", "Render-in-the-Loop").
_CAPS_THEN_SMALL = re.compile(r"[A-Z]{2,}[a-z]{1,2}(?<!s)")
_CAPS_NAME_SUFFIX = re.compile(
    r"[A-Z][A-Z0-9]+-(?:bench|pose|net|former|gen|agent|bot|seg|det|eval|coder|chat|zero|pro|mini|lite|flow|fusion|world|verse|edit)"
)
_HYPHEN_PHRASE = re.compile(r"[A-Z][a-z]+(?:-(?:then|and|to|in|the|of|for|as|or|with|by|on))+-[A-Z0-9][A-Za-z0-9]*")


@lru_cache(maxsize=65536)
def is_loosely_coined(token: str) -> bool:
    return lexicon.is_coined(token) or bool(
        _CAPS_THEN_SMALL.fullmatch(token) or _CAPS_NAME_SUFFIX.fullmatch(token) or _HYPHEN_PHRASE.fullmatch(token)
    )


CAMEL_START = re.compile(r"[A-Z][a-z]+[A-Z0-9]")
RARE_WORD = re.compile(r"[A-Z][a-z]{2,}")


_MIXED = re.compile(r"[a-z][A-Z]")
_DIGIT = re.compile(r"\d")
_CAPITALISED = re.compile(r"[A-Z][a-z]+")
_KNOWN_PREFIXES = tuple(k for k in lexicon.KNOWN_SYSTEMS if len(k) >= 3)


def capitalised_count(name: str, frequent: dict) -> int:
    """How many training abstracts capitalise ``name`` (``frequent_names`` of the name model: a
    token as written, a phrase of capitalised words lowercased)."""
    return frequent.get(name if " " not in name else name.lower(), 0)


def shape_features(name: str, common: frozenset, frequent: dict, own_counts: int = 0) -> dict[str, float]:
    words = name.split()
    f: dict[str, float] = {f"words_{min(len(words), 4)}": 1.0}
    if len(words) == 1:
        tok = name
        core = tok.rstrip("+")
        f["coined"] = float(is_loosely_coined(core))
        f["all_caps"] = float(core.isupper() and len(core) >= 2)
        f["mixed_case"] = float(bool(_MIXED.search(core)))
        f["has_digit"] = float(bool(_DIGIT.search(core)))
        f["has_hyphen"] = float("-" in core)
        f["plus_plus"] = float(tok.endswith("+"))
        f["capitalised_word"] = float(bool(_CAPITALISED.fullmatch(core)))
        f["short_2_3"] = float(len(core) <= 3)
        f["common_word"] = float(core.lower() in common)
        generic = lexicon.is_generic(core)
        acronym = generic and _everyday(core)
        f["generic_acronym"] = float(acronym)
        # "LLaVA-4D", "SAM3D-Phys", "GPT4Tools": built on a known model, may be a new system;
        # "GPT-4o", "Qwen2.5" are the known model itself (the corpus counts tell them apart)
        f["known_family_variant"] = float(generic and not acronym)
        parts = [p for p in re.split(r"[-+]", core) if p]
        f["generic_parts"] = float(len(parts) > 1 and all(lexicon.is_generic(p) or p.isdigit() for p in parts))
        low = core.lower()
        f["built_on_known"] = float(
            not f["generic_acronym"] and low.startswith(_KNOWN_PREFIXES)
            and any(low.startswith(k) and len(low) > len(k) + 1 for k in _KNOWN_PREFIXES)
        )
        df = max(0, capitalised_count(core, frequent) - own_counts)
        f[f"corpus_df_{bucket(df, (2, 9, 49))}"] = 1.0
    else:
        f["multi_title_case"] = float(all(w[:1].isupper() for w in words if w.lower() not in STOP))
        f["multi_has_coined"] = float(any(is_loosely_coined(w) for w in words))
        f["multi_common_words"] = float(all(w.lower() in common or w.lower() in STOP for w in words))
        f["multi_generic"] = float(any(lexicon.is_generic(w) for w in words))
        # "Evidence Attribution Recall", "Calibrated Agreement Score": a measure, not a system
        f["multi_metric_head"] = float(words[-1].lower().rstrip("s") in _METRIC_WORDS)
        # "Mixup and CutMix", "Grounded-SAM and Metric3Dv2": two names joined, never one
        f["multi_joined"] = float(any(w in ("and", "&") for w in words))
        # "Large Language Models", "Vision-Language Models": spelled-out everyday acronyms
        initials = "".join(p[:1] for w in words if w.lower() not in STOP for p in w.split("-") if p).upper()
        f["generic_acronym"] = float(len(initials) >= 2 and initials in lexicon.GENERIC_ACRONYMS)
        # how many training abstracts capitalise this phrase ("Knowledge Distillation": many)
        df = max(0, capitalised_count(name, frequent) - own_counts)
        f[f"phrase_df_{bucket(df, (2, 9, 49))}"] = 1.0
    return f


_METRIC_WORDS = frozenset(
    "score metric measure index criterion statistic rate distance divergence recall precision accuracy error ratio"
    " coefficient gap".split()
)


def _everyday(core: str) -> bool:
    """An everyday acronym or a known family's bare name ("LLM", "LLMs", "GPT", "Adam"), never a new system."""
    upper = lexicon.strip_possessive(core).upper()
    if upper in lexicon.GENERIC_ACRONYMS or (upper.endswith("S") and upper[:-1] in lexicon.GENERIC_ACRONYMS):
        return True
    low = core.lower()
    return any(low in (k, k + "s") for k in lexicon.KNOWN_SYSTEMS)


# What may follow a name as its version: "V2", "v2.0" (spaced, hyphenated or glued), "3.5"
# (spaced or glued) or a small number after a space or hyphen ("HerO 2", "PARD-2"); never a
# number glued to a word, a sign or a unit ("2%", "2x", "2B", "0-shot").
_VERSION = re.compile(
    rf"(?P<sep>[ \-]?)(?P<ver>[Vv]\d+(?:\.\d+)*|\d+(?:\.\d+)+|(?<=[ \-])\d{{1,2}})(?![{NAME_CHARS}%+×])(?!-[A-Za-z])(?!\.\d)"
)


def with_version(name: str, plain: str) -> str:
    """``name`` with the version the abstract mostly writes after it: "HerO 2" of an abstract that
    says "HerO 2" four times and "HerO" once (the earlier system), "InternVL3.5", "OrthoAI v2".
    The name unchanged when fewer than half of its mentions carry one version."""
    versions: dict[str, int] = {}
    forms: dict[tuple[str, str], int] = {}
    mentions = 0
    for m in re.finditer(re.escape(name), plain):
        if m.start() and (plain[m.start() - 1].isalnum() or plain[m.start() - 1] == "-"):
            continue  # inside a longer word
        mentions += 1
        v = _VERSION.match(plain, m.end())
        if v and (v.group("sep") or not name[-1].isdigit()):  # "GPT4" + "0" is no version
            key = v.group("ver").lower().lstrip("v")
            versions[key] = versions.get(key, 0) + 1
            forms[key, v.group(0)] = forms.get((key, v.group(0)), 0) + 1
    if not versions:
        return name
    best = max(versions, key=lambda k: versions[k])
    if 2 * versions[best] < mentions:
        return name
    return name + max((f for k, f in forms if k == best), key=lambda f: forms[best, f])
