"""The role one mention of a candidate name plays in the abstract: features for the name model.

A paper's own name is *defined* ("we propose X", "X, a new ...", "(X), a memory-augmented
transformer", "experiments show that X outperforms ..."); other names are *used*: cited ("X [12]",
"X (Smith et al., 2020)"), compared against ("outperforms X", "compared with X", "than X"), the data
a method is evaluated on ("experiments on X", "on the X dataset", "results on X show"), or a
measure ("the X score", "X metric"). :func:`mention_roles` reads the text right before and right
after one mention and names the roles it sees; :mod:`readinglist.convert.name_model` turns them
into features (``role_*``, and ``role_used_all`` when every mention read is a use), which the
learned models weigh. Pure functions over short windows of text: no scan of the whole abstract.
"""

from __future__ import annotations

import re

# A few list items before the mention: "on CIFAR-10, ImageNet and | X", "than A and | X".
_LIST = r"(?:[\w.+-]+(?:\s*\([^()]{0,30}\))?(?:\s*,\s*|\s+and\s+|\s+or\s+)){0,4}"
_EVAL_BEFORE = re.compile(
    r"\b(?:experiments?|results?|evaluat\w*|tested|tests|benchmark(?:ed|ing|s)?|validat\w*|performance|accuracy"
    r"|achiev\w*|outperform\w*|gains?|improvements?|sota|state-of-the-art|trained|fine-tuned|studies|analys[ie]s)"
    rf"\b[^.;:]{{0,50}}?\b(?:on|across|over)\s+(?:the\s+|several\s+|multiple\s+|four\s+|three\s+|two\s+|five\s+)?"
    rf"(?:(?:challenging|popular|public|standard|widely[- ]used|large-scale|real-world|benchmark|existing)\s+)?{_LIST}$",
    re.IGNORECASE,
)
_DATA_AFTER = re.compile(r"^(?:\s*\([^()]{0,40}\))?(?:\s*(?:-|\s)\s*)(?:data\s?sets?|benchmarks?|corpus|corpora|leaderboard|suite|challenge)\b", re.IGNORECASE)
_USE_PREPOSITION = re.compile(r"\b(?:on|from|using|in|with|of|across|to)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
_COMPARED_BEFORE = re.compile(
    r"\b(?:outperform(?:s|ing|ed)?|surpass(?:es|ing|ed)?|beat(?:s|ing)?|than|compared\s+(?:with|to)|comparison\s+(?:with|to)"
    r"|against|versus|vs\.?|relative\s+to|improv(?:es|ing|ed)\s+(?:up)?on|baselines?(?:\s+(?:such\s+as|including|like))?"
    r"|competitors?(?:\s+such\s+as)?|rivals?)\s+(?:the\s+|prior\s+|existing\s+|previous\s+|strong\s+)?"
    rf"(?:(?:state-of-the-art|sota|popular|competitive|recent)\s+)?(?:(?:methods?|models?|baselines?|approaches)\s+"
    rf"(?:such\s+as|like|including|e\.g\.,?)\s+)?{_LIST}$",
    re.IGNORECASE,
)
_CITED_AFTER = re.compile(
    r"^(?:\s*\[\s*\d[\d,\s\u2013-]*\]|\s*\((?:[^()]{0,60}\bet\s+al\.?,?\s*)?(?:19|20)\d\d[a-z]?\)|\s+et\s+al\b"
    r"|\s*\([A-Z][\w-]+(?:\s+(?:and|&)\s+[A-Z][\w-]+)?,?\s+(?:19|20)\d\d\))"
)
_METRIC_AFTER = re.compile(
    r"^(?:\s*\([^()]{0,40}\))?\s+(?:score|scores|metric|metrics|measure|measures|index|criterion|statistic|distance|divergence)\b",
    re.IGNORECASE,
)
_SHOWS_BEFORE = re.compile(
    r"\b(?:show|shows|showed|shown|demonstrate|demonstrates|demonstrated|confirm|confirms|reveal|reveals|find|verify|verifies|indicate|indicates)"
    r"\s+that\s+(?:the\s+proposed\s+|our\s+|the\s+)?$",
    re.IGNORECASE,
)
# "(MUNKEY), a memory-augmented transformer": the appositive after the parenthesis that holds the name
_PAREN_APPOSITIVE = re.compile(r"^\s*\)\s*(?:,\s*(?:a|an|the|our)\b|\s+is\s+(?:a|an|the)\b|\s*[:\u2014\u2013]\s*(?:a|an|the)\b)")
_CLAUSE_SUBJECT = re.compile(
    r"^(?:\s*\([^()]{1,60}\))?\s+(?:consistently\s+|significantly\s+|also\s+|further\s+)?(?:achieves|attains|outperforms|surpasses|improves"
    r"|reduces|delivers|reaches|yields|matches|enables|provides|sets|establishes|exceeds|beats)\b"
)

# The lowercase words every match of _EVAL_BEFORE / _COMPARED_BEFORE starts with.
_EVAL_NEEDS = re.compile(
    "experiment|result|evaluat|test|benchmark|validat|performance|accuracy|achiev|outperform|gain|improvement|sota"
    "|state-of-the-art|trained|fine-tuned|studies|analys"
)
_COMPARED_NEEDS = re.compile("outperform|surpass|beat|than|compar|against|versus|vs|relative|improv|baseline|competitor|rival")
# the prepositions every match of _EVAL_BEFORE holds
_EVAL_PREPOSITIONS = re.compile(r"\b(?:on|across|over)\s")


def _ends_on(pattern: re.Pattern, tail: str, low: str, starts: re.Pattern) -> bool:
    """``bool(pattern.search(tail))`` for a pattern anchored at the end whose every match starts
    where ``starts`` matches ``low`` (``tail`` lowercased, of the same length): the pattern is
    tried only there, not at every position."""
    if len(low) != len(tail):
        return bool(pattern.search(tail))
    return any(pattern.match(tail, m.start()) for m in starts.finditer(low))


#: the roles that say the mention is a use of someone else's thing (or a measure), not a definition
USE_ROLES = ("role_eval_object", "role_used_dataset", "role_compared", "role_cited", "role_metric_after")
#: the roles that say the paper's own thing is meant
OWN_ROLES = ("role_shows_that", "role_paren_appositive", "role_clause_subject")


def mention_roles(before: str, after: str) -> list[str]:
    """The roles of one mention, from the text right ``before`` it (up to 80 characters) and right
    ``after`` it (up to 140): a list of ``role_*`` feature names (see the module docstring)."""
    out = []
    tail = before[-80:]
    low = tail.lower()
    # each pattern that must end where the mention starts is tried only when a word it needs
    # occurs (searching for an end-anchored pattern tries every position of the window)
    if _EVAL_PREPOSITIONS.search(low) and _ends_on(_EVAL_BEFORE, tail, low, _EVAL_NEEDS):
        out.append("role_eval_object")
    if _DATA_AFTER.match(after) and _USE_PREPOSITION.search(tail[-40:]):
        out.append("role_used_dataset")
    if _ends_on(_COMPARED_BEFORE, tail, low, _COMPARED_NEEDS):
        out.append("role_compared")
    if _CITED_AFTER.match(after):
        out.append("role_cited")
    if _METRIC_AFTER.match(after):
        out.append("role_metric_after")
    if "that" in low[-50:] and _SHOWS_BEFORE.search(tail[-50:]):
        out.append("role_shows_that")
    if after[:1] == ")" and _PAREN_APPOSITIVE.match(after):
        out.append("role_paren_appositive")
    if tail.rstrip().endswith(",") and _CLAUSE_SUBJECT.match(after):
        out.append("role_clause_subject")
    return out
