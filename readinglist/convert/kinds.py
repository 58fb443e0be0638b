"""What kind of thing a paper's name names, so that its title does not call it something else.

"VESPER, a video benchmark" titled "VESPER: vision-language-action models for ..." calls a
benchmark "models"; "GMC, a correlation metric" titled "GMC: ... IQA models" does the same to a
metric. :func:`name_kind` reads the kind noun the abstract gives the name where it introduces it
("NAME, a [few words] KIND", "a [few words] KIND (called|named|dubbed) NAME", "the NAME KIND");
:func:`contradicts` says whether a title phrase's head noun is a kind of another family.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: Kind nouns in families: a title may call a thing by any noun of its own family.
FAMILIES = {
    "data": "benchmark benchmarks dataset datasets corpus corpora suite testbed collection leaderboard environment environments",
    "measure": "metric metrics score scores index measure measures",
    "model": "model models network networks architecture architectures transformer transformers",
    "method": """framework frameworks method methods approach approaches algorithm algorithms technique
        techniques strategy strategies pipeline pipelines system systems scheme schemes paradigm toolkit library
        optimizer optimiser agent agents""",
}
KIND_OF = {word: family for family, words in FAMILIES.items() for word in words.split()}
_KINDS = "|".join(sorted(KIND_OF, key=len, reverse=True))
# a kind noun that is part of a compound ("a large language model (LLM)-powered system") is not the kind
_NOT_COMPOUND = r"(?!-|\s*\([^()]{1,20}\)-)"
_AFTER = re.compile(rf"^\)?\s*(?:\([^()]*\)\s*)?,\s*(?:which is\s+)?(?:a|an|the|our)\s+(?:(?:[\w-]+|\([^()]{{1,20}}\)-[\w-]+)\s+){{0,5}}?({_KINDS})\b{_NOT_COMPOUND}",
                    re.IGNORECASE)
_DIRECT = re.compile(rf"^\)?\s+({_KINDS})\b", re.IGNORECASE)
# "a benchmark, NAME", "the KIND called NAME" (an article, and no preposition between it and the
# kind noun: the abstract says what NAME is, not "using our data as benchmark, NAME offers")
_BEFORE = re.compile(
    rf"\b(?:a|an|the|our)\s+(?:(?!(?:as|of|for|with|in|on|from|by)\s)[\w-]+\s+){{0,5}}?({_KINDS})\s*,?\s*(?:(?:called|named|dubbed|termed|coined)\s+)?$", re.IGNORECASE
)


@lru_cache(maxsize=16)
def name_kind(plain: str, name: str) -> str | None:
    """The family of the kind noun the abstract gives ``name`` where it first says what it is
    ("VESPER, a video benchmark" -> "data"), or None when it gives none."""
    start = plain.find(name)
    while start >= 0:
        end = start + len(name)
        after = plain[end : end + 120]
        m = _AFTER.match(after) or _DIRECT.match(after)
        if not m:
            m = _BEFORE.search(plain[max(0, start - 60) : start])
        if m:
            return KIND_OF[m.group(1).lower()]
        start = plain.find(name, end)
    return None


# what the kind is for, said right after its noun ("a framework to evaluate ...", "a benchmark for
# ...", "a metric that measures ..."); anything else ("a benchmark featuring 150 tasks", "in which
# videos are annotated") is a detail, not what the thing is
_PURPOSE = re.compile(r"^\s*,?\s*(?:(?:designed|built|tailored|dedicated|specifically designed)\s+)?(?:for|to|that|which)\s+[a-z]", re.IGNORECASE)
_ARTICLE_START = re.compile(r"\b(?:a|an|the|our)\s+", re.IGNORECASE)
_LONGER = re.compile(rf"^(?:\s+(?!(?:that|which|for|to|of|with|in|on|from|by|and|or|as)\b)[\w-]+){{0,3}}?\s+({_KINDS})\b", re.IGNORECASE)


@lru_cache(maxsize=16)
def described_kind(plain: str, name: str) -> tuple[str, str, str, int] | None:
    """Where the abstract says what ``name`` is: (its kind noun, the phrase from the article to
    that noun with the name left out, what it is for as written after the noun or "", where in
    ``plain`` the description ends) --
    "we introduce a comprehensive framework, named FLIP, to evaluate federated prompt learning
    algorithms" -> ("framework", "a comprehensive framework", "to evaluate federated prompt
    learning algorithms", ...); "GovBench, a benchmark featuring 150 tasks" -> ("benchmark", "a
    benchmark", "", ...). None when the abstract gives no kind noun."""
    start = plain.find(name)
    while start >= 0:
        end = start + len(name)
        after = plain[end : end + 200]
        m = _AFTER.match(after)
        if m:
            art = _ARTICLE_START.search(after[: m.end(1)])
            stop = m.end(1)
            more = _LONGER.match(after[stop:])  # "a benchmark Romanian speech dataset": the last kind noun
            kind = more.group(1) if more else m.group(1)
            stop += more.end() if more else 0
            lead = after[art.start() : stop] if art else kind
            return kind.lower(), lead, _purpose(after[stop:]), end + stop
        m = _DIRECT.match(after)
        if m:
            articles = list(_ARTICLE_START.finditer(plain[max(0, start - 60) : start]))
            before = plain[max(0, start - 60) : start][articles[-1].start() :].rstrip(" (") if articles else ""
            if before and not re.search(r"[,.;:()]", before):
                return m.group(1).lower(), f"{before.strip()} {m.group(1)}", _purpose(after[m.end(1) :]), end + m.end(1)
        window = plain[max(0, start - 60) : start]
        m = _BEFORE.search(window)
        if m:
            lead = window[m.start() : m.end(1)]
            rest = re.sub(r"^\)?\s*(?:\([^()]*\)\s*)?", "", after)
            return m.group(1).lower(), lead.strip(), _purpose(rest), end
        start = plain.find(name, end)
    return None


def _purpose(rest: str) -> str:
    """What follows a kind noun when it says what the thing is for, up to the clause's end."""
    if not _PURPOSE.match(rest):
        return ""
    return re.split(r"[.;:!?]\s|\(|,\s*(?:and|which|while|where|achieving|enabling|with)\b", rest.lstrip(" ,"), maxsplit=1)[0].strip()


def contradicts(head: str, kind: str | None) -> bool:
    """Does a title phrase with this head noun call the named thing a kind of another family
    than ``kind``?"""
    if kind is None:
        return False
    family = KIND_OF.get(head)
    return family is not None and family != kind
