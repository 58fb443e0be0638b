"""Sentence case and acronyms: a spelled-out name lowercased but for acronyms and proper words,
the acronyms an abstract defines ("... foundation model (AVFM)"), and spelling them out while a
title has room.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .constants import KEEP_ACRONYMS
from .forms import common_words, proper_words


# a Capitalised word ("Aligned", "Of") or a few capitals spelling an acronym ("UNlearning")
_ONE_CAPITAL = re.compile(r"[A-Z][a-z]+|[A-Z]{2,3}[a-z]{3,}")
_LOWER_WORD = re.compile(r"\b[a-z]+\b")
_TWO_CAPITALS = re.compile(r"[A-Z].*[A-Z]")
_ACRO_DEF = re.compile(r"\(([A-Z][A-Za-z0-9\u00b2\u00b3\-]*[A-Z][A-Za-z]*?)(s?)\)")


def sentence_case(phrase: str, plain: str) -> str:
    """Lowercase Title-Case words of a spelled-out name; keep acronyms and proper words, and a
    part joined to a proper word by a hyphen or an en dash that is no common word and that the
    abstract never writes in lowercase ("German\u2013Bulgarian"; but "Gaussian-based",
    "Bayes-adaptive")."""
    out = []
    for word in phrase.split():
        parts = _JOINED.split(word)  # the parts and, between them, the hyphens or en dashes
        new_parts = []
        proper = False  # the part before the last hyphen kept its capital as a proper word
        for part in parts:
            if part.islower() or part in "-\u2013":  # no capital: none of the rules below applies
                new_parts.append(part)
                proper = proper and part in "-\u2013"  # ("" between the hyphens of "--")
                continue
            core = part.strip(",;:")
            one_capital = _ONE_CAPITAL.fullmatch(core)
            low = core.lower()
            kept = (low in proper_words() or (proper and low not in _lowercase_words(plain) and low not in common_words())
                    or _coined(word, len(new_parts), parts, plain))
            proper = bool(one_capital) and kept
            if one_capital and not kept:
                part = part.lower()  # "Aligned" of "Aligned Mass Transport"; "UNlearning" spells the acronym
            elif _INNER_CAPITAL.fullmatch(core) and low in _lowercase_words(plain):
                part = part.lower()  # "MotIf-driven contrastive leaRning" spells MICRO; the abstract writes "motif"
            new_parts.append(part)
        out.append("".join(new_parts))
    return " ".join(out)


_JOINED = re.compile("([-\u2013])")  # "Kolmogorov-Arnold", "German\u2013Bulgarian"


def _coined(word: str, at: int, parts: list[str], plain: str) -> bool:
    """Is ``parts[at]`` (the parts alternate with their hyphens) joined to capitals ("Iso-C",
    "Mixup-CAM") in a term the abstract writes so in mid-sentence and never writes in lowercase?
    Such a term is a coined name and keeps its capital; "Multi-GPU" of an abstract that says
    "multi-node" does not."""
    if at + 2 >= len(parts) or not parts[at + 2].strip(",;:").isupper():
        return False
    core = word.strip(",;:")
    return (parts[at].lower() not in _lowercase_words(plain)
            and re.search(rf"(?<=[a-z,;]\s){re.escape(core)}(?![\w-])", plain) is not None)


_INNER_CAPITAL = re.compile(r"[A-Za-z][a-z]+[A-Z][a-z]+")


@lru_cache(maxsize=16)
def _lowercase_words(plain: str) -> frozenset[str]:
    return frozenset(_LOWER_WORD.findall(plain))


@lru_cache(maxsize=16)
def _acronyms(plain: str) -> dict[str, str]:
    """Acronyms the abstract spells out: {"AVFM": "active-vision foundation model"} (singular)."""
    out: dict[str, str] = {}
    for m in _ACRO_DEF.finditer(plain):
        acro, plural = m.group(1), m.group(2)
        letters = sum(1 for ch in acro if ch.isupper() or ch.isdigit())
        before = plain[max(0, m.start() - 400) : m.start()].split()
        if m.start() > 400:
            before = before[1:]  # may be cut inside a word
            if len(before) < 3 * letters + 8:
                before = plain[: m.start()].split()
        taken: list[str] = []
        count = 0
        while before and count < letters:
            w = before.pop()
            taken.insert(0, w)
            count += len([p for p in w.split("-") if p])
        if not taken or taken[0][:1].lower() != acro[:1].lower() or count > letters + 1:
            continue
        if any(not re.fullmatch(r"[\w\-]+", w) for w in taken):
            continue
        long = " ".join(taken)
        if plural and long.endswith("s"):
            long = long[:-1]
        out.setdefault(acro, sentence_case(long, plain))
    return out


def expand(words: list[str], plain: str, budget: int) -> list[str]:
    """Spell out acronyms defined in the abstract (but not everyday ones) while room is left."""
    if not any(_TWO_CAPITALS.search(w) for w in words):
        return words  # every acronym _acronyms finds has two capitals
    defs = _acronyms(plain)
    out = list(words)
    for i, w in enumerate(out):
        core = w.strip(",;:")
        key, plural = (core[:-1], "s") if core.endswith("s") and core[:-1] in defs else (core, "")
        if key in defs and key not in KEEP_ACRONYMS:
            long = defs[key].split()
            after = out[i + 1].lower().strip(",;:") if i + 1 < len(out) else ""
            if after and after.rstrip("s") == long[-1].lower().rstrip("s"):
                continue  # "GAT network": "graph attention network network" says its head twice
            if len(out) - 1 + len(long) <= budget:
                long[-1] += plural
                out = out[:i] + long + out[i + 1 :]
                return expand(out, plain, budget)
    return out
