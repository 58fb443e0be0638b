"""Candidate source 2, a system name's description: an appositive ("CanViT, the first ... AVFM"),
the noun phrase it names ("we introduce a benchmark, VESPER"), a "which ..." clause as a gerund,
what the authors did before naming it, or the spelled-out name.
"""

from __future__ import annotations

import re

from ..lexicon import literal_spans
from .casing import sentence_case
from .constants import KINDS, NOT_CONTENT, STOP_BEFORE_NAME
from .text import article, BY_MEANS, clean, describe, fit, gerund_of, word_list
from .topic import topic_phrase


_NP_BEFORE = re.compile(
    r"\b(?:introduce|propose|present|develop|release|design|build|create|curate|construct|offer)[sd]?\s+"
    r"((?:a|an)\s+[^,.;:()]{1,80}?)(?:,\s*(?:(?:called|named|termed|dubbed|namely|(?:which|that)\s+we\s+(?:call|name|term|dub|refer\s+to\s+as))\s+)?"
    r"|\s+(?:called|named|termed|dubbed)\s+)$"
)
_WORD_CHAR_OR_HYPHEN = re.compile(r"[\w\-]")
_WORD_CHAR = re.compile(r"\w")


def name_description(plain: str, name: str, budget: int, allow_subject: bool = False) -> list[str]:
    expansion: str | None = None
    for start, end in literal_spans(plain, name, _WORD_CHAR_OR_HYPHEN, _WORD_CHAR):
        before = plain[max(0, start - 160) : start]
        after = plain[end :]
        post = re.match(r"\s*(?:\(([^()]{3,120})\)|:\s*([A-Z][^,.;:()]{3,120}),)", after)
        if expansion is None and post:
            expansion = post.group(1) or post.group(2)
        if expansion is None and after.startswith(")") and before.endswith("("):
            words: list[str] = []
            for w in reversed(before[:-1].split()[-12:]):
                if re.search(r"[,.;:()]", w):
                    break
                words.insert(0, w)
            expansion = _spelled_out(" ".join(words), name) or None
        rest = after
        if rest.startswith(")"):
            rest = rest[1:]
        rest = re.sub(r"^\s*(?:\([^()]*\)|:\s*[A-Z][^,.;:()]*(?=,))", "", rest)
        rest = rest.lstrip("}*_")
        kind = re.match(rf"^\s+({KINDS})\b", rest)
        if kind:
            rest = rest[kind.end() :]
        appositive = re.match(r"^(?:,\s*(?:is\s+)?|\s*\bis\s+)((?:a|an|the|our)\b.*)", rest)
        which = re.match(r"^,?\s+(?:which|that)\s+([a-z]+)\b(.*)", rest)
        np_before = _NP_BEFORE.search(before)
        subject = re.match(r"^,?\s+([a-z]+s)\b(.*)", rest)
        desc: list[str] = []
        says_what_it_does = False  # a "which ..." clause: the spelled-out name says more
        if np_before and not appositive:
            relative = re.match(r"^,?\s+((?:that|which|whose|to|for)\b.*)", rest)
            phrase = np_before.group(1) + (" " + relative.group(1) if relative else "")
            desc = _bare_kind_for_topic(article(describe(phrase, budget)), plain, budget)
            if len([w for w in desc if w.lower() not in NOT_CONTENT]) < 2:
                desc = []
        if desc:
            pass
        elif appositive:
            desc = article(describe(appositive.group(1), budget))
            if desc and desc[0].lower() in {"our"}:
                desc = desc[1:]
        elif which:
            ger = gerund_of(which.group(1))
            if ger:
                desc = describe(ger + which.group(2), budget)
                says_what_it_does = True
        elif allow_subject and subject and (start == 0 or _starts_subject(before)):
            ger = gerund_of(subject.group(1))
            if ger:
                desc = describe(ger + subject.group(2), budget)
        if desc and (not expansion or (len(desc) > 4 and not says_what_it_does)):
            return desc
        if expansion:
            return fit(word_list(sentence_case(clean(expansion), plain)), budget)
        if desc:
            return desc
    if expansion:
        return fit(word_list(sentence_case(clean(expansion), plain)), budget)
    return []


def _starts_subject(before: str) -> bool:
    """Is the name the subject here ("Our framework, Tandem, trains ...", "The resulting model,
    which we refer to as X, generates ...")?"""
    return bool(re.search(
        r"(?:^|[.!?]\s+)(?:(?:[Oo]ur|[Tt]he|[Tt]his)\s+[\w-]+(?:\s+[\w-]+)?,\s*"
        r"(?:(?:which|that)\s+we\s+(?:call|name|term|dub|refer\s+to\s+as)\s+)?)?$", before))


_GENERIC_KIND = re.compile(
    r"^(?:a|an)\s+(?:framework|method|approach|model|system|pipeline|algorithm|technique|scheme|procedure)"
    r"\s+(?:that|which)\s+"
)


def _bare_kind_for_topic(desc: list[str], plain: str, budget: int) -> list[str]:
    """"a framework that decomposes each layer" (a relative clause cut short) says less than
    "a framework for personalized federated learning" (the topic of the first sentence)."""
    m = _GENERIC_KIND.match(" ".join(desc))
    if not m or len(desc) > 6:
        return desc
    topic = topic_phrase(plain)
    if not topic or len(desc[:2]) + 1 + len(topic.split()) > budget:
        return desc
    return desc[:2] + ["for"] + topic.split()


# "We train LLMs to emit compact traces ..., a procedure we call TraceTrim."
_WE_DID_AS_NAME = re.compile(
    r"(?:^|[.!?]\s+)(?:(?:Here|In this (?:work|paper)|Specifically),?\s+)?[Ww]e\s+([a-z]+)\s+([^.;:!?]{10,400}?),\s*"
    r"(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:(?:which|that)\s+)?we\s+(?:call|name|term|dub|refer\s+to\s+as)\s+$"
)


def what_we_did(plain: str, name: str, budget: int) -> list[str]:
    """The description of a name given after what the authors did ("We train LLMs to emit
    compact reasoning traces ..., a procedure we call TraceTrim" -> "training LLMs to emit
    compact reasoning traces")."""
    at = plain.find(name)
    if at <= 0:
        return []
    m = _WE_DID_AS_NAME.search(plain[max(0, at - 420) : at])
    if not m:
        return []
    ger = gerund_of(m.group(1) + "s")
    if not ger:
        return []
    what = BY_MEANS.split(m.group(2), 1)[0]  # "... by rewarding answers ..." is how, not what
    return describe(f"{ger} {what}", budget)


def _spelled_out(candidate: str, acronym: str) -> str:
    """The words before "(ACRO)" that spell it: back to the cue, starting at a capital."""
    words = candidate.split()
    start = len(words)
    while start > 0 and words[start - 1].lower() not in STOP_BEFORE_NAME:
        start -= 1
    run = words[start:]
    while run and not run[0][:1].isupper():
        run = run[1:]
    return " ".join(run) if run and run[0][:1].lower() == acronym[:1].lower() else ""
