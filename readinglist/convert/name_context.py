"""Where and how a candidate name is mentioned, for :mod:`readinglist.convert.name_model`: the
cue patterns read right before and after a mention ("we propose X", "X, a ...", "(X) dataset"),
which sentences carry the contribution, speak of the field or credit others, links to code, the
abbreviation definitions of the Schwartz-Hearst kind, and the quick paths that try an
end-anchored pattern only where a word it starts with occurs. Pure functions over text."""

from __future__ import annotations

import bisect
import re

from . import lexicon
from .lexicon import NAME_CHARS

CUE_BEFORE = re.compile(
    r"(?:\b(?:introduce|propose|present|develop|design|build|release|construct|create|curate|contribute|offer|provide|call|term|dub)[sd]?"
    r"|\b(?:introducing|proposing|presenting|developing)|address (?:this|these|the) \w+ with)\s+(?:(?:the|our|a|an)\s+)?(?:(?:new|novel)\s+)?$",
    re.IGNORECASE,
)
CALLED_BEFORE = re.compile(
    r"\b(?:called|termed|dubbed|named|coined|namely|(?:call|term|dub|name) (?:it|them|this|our \w+)|refer to (?:it |them |this \w+ )?as"
    r"|referred to as)\s+$",
    re.IGNORECASE,
)
APPOS_AFTER = re.compile(r"^(?:\s*\([^()]{1,120}\))?\s*(?:,\s*(?:a|an|the|our)\b|:\s*(?:a|an|the)\b|\s+is\s+(?:a|an|the)\b|\s*[\u2014\u2013]\s*(?:a|an|the)\b)")
KIND_AFTER = re.compile(
    r"^\s+(?:benchmark|dataset|data set|corpus|framework|model|method|algorithm|suite|library|toolkit|system|architecture|approach"
    r"|optimi[sz]er|agent|platform|environment|simulator|pipeline|family|protocol|engine|network|transformer|tool|testbed|loss)s?\b",
    re.IGNORECASE,
)
OUR_BEFORE = re.compile(
    r"\b(?:our|the proposed|our proposed)\s+(?:[\w-]+\s+){0,2}?(?:method|framework|model|approach|system|benchmark|dataset|algorithm"
    r"|tool|library|architecture|agent|pipeline|optimi[sz]er|technique|suite),?\s+$",
    re.IGNORECASE,
)
NP_COMMA_BEFORE = re.compile(r"\b(?:a|an|the)\s+(?:[\w-]+\s+){0,6}?[\w-]+,\s+$", re.IGNORECASE)
SUBJECT_AFTER = re.compile(
    r"^(?:\s*\([^()]{1,120}\))?\s+(?:achieves|attains|outperforms|surpasses|improves|reduces|delivers|reaches|yields|matches|combines|uses"
    r"|leverages|learns|enables|provides|supports|scales|generalizes|consists|comprises|contains|covers|includes|offers|employs"
    r"|integrates|introduces|consistently|significantly|also|can|is|features|performs|demonstrates|shows|establishes)\b"
)
_CUE_SENTENCE = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:work|paper))\b.*\b(?:introduc|propos|present|develop|design|build|releas|construct|creat|curat|contribut|offer|instantiat)",
    re.IGNORECASE,
)
# _CUE_SENTENCE in two linear scans (its ".*" makes one search try every "we" against the rest
# of the line): the verb after the first "we ..." (whose end is the earliest), on the same line.
_CUE_SUBJECT = re.compile(r"\b(?=[wto])(?:we|this (?:paper|work|study)|our (?:work|paper))\b", re.IGNORECASE)
_CUE_VERB = re.compile(
    r"\b(?=[ipdbrcuo])(?:introduc|propos|present|develop|design|build|releas|construct|creat|curat|contribut|offer|instantiat)", re.IGNORECASE
)


def cue_sentence(sentence: str) -> bool:
    """``bool(_CUE_SENTENCE.search(sentence))``, quicker."""
    if "\n" in sentence:
        return bool(_CUE_SENTENCE.search(sentence))
    subject = _CUE_SUBJECT.search(sentence)
    return bool(subject and _CUE_VERB.search(sentence, subject.end()))
# A sentence about the field, not the paper: no "we"/"our"/"this paper" and a word of the state of the art
OWN_VOICE = re.compile(r"\b(?=[wouth])(?:we|our|us|this (?:paper|work|study|article)|here)\b", re.IGNORECASE)
_BACKGROUND = re.compile(
    r"(?=[hiwcdepr])(?:\b(?:has|have) (?:been|become|emerged|shown|recently|achieved|gained|attracted|demonstrated)|\bis (?:a|an|the) (?:popular|widely|common|standard|de facto|prominent|leading)"
    r"|\b(?:widely|commonly|increasingly|extensively) (?:used|adopted|studied|applied)|\bde facto|\bprior work|\bexisting (?:methods|approaches|work)"
    r"|\brecent (?:work|advances|years|studies|progress)|\bremains? (?:a|an|challenging|difficult|limited|unclear))",
    re.IGNORECASE,
)


# a sentence that credits others: "Lee et al.", "(2021)", "[12]"
CREDIT = re.compile(r"(?=[e(\[])(?:\bet\s+al\b|\((?:[^()]{0,40}\s)?(?:19|20)\d\d[a-z]?\)|\[\d[\d,\s\u2013-]*\])")


def background_sentence(sentence: str) -> bool:
    """Does a sentence not in the paper's own voice speak of the field ("X is widely used")?"""
    return bool(_BACKGROUND.search(sentence))


# "the X module", "an X problem": a mention right before one of these is a part of the system or a
# problem it studies
PART_AFTER = re.compile(
    r"^(?:\s*\))?\s+(?:module|layer|block|component|unit|head|operator|problem|task|term|regulari[sz]er|kernel|encoder|decoder"
    r"|branch|mechanism|strategy|step|stage|backbone|condition|assumption|setting)s?\b",
    re.IGNORECASE,
)
FUNCTION_START = frozenset(
    """While When Where In To For As By With Unlike Since Although Though Our The This These That Those We It Its A An
    However Moreover Furthermore Additionally Finally First Second Third Then Thus Hence Therefore Specifically Using
    Building Based Given From On At Despite Both Each Such Existing Recent Current Prior Previous""".split()
)
EMPH = re.compile(
    r"\\(?:textbf|textsc|texttt|mathbf|mathrm|textit|emph|mathsf|textsf|mathtt|mathcal)\{([^{}]{1,60})\}|\*\*([^*]{1,60})\*\*"
)
PAREN_AFTER = re.compile(r"^\s*\(")
# Links to the paper's code or data ("https://github.com/someone/IsoCLIP"): their path names the system.
URL = re.compile(r"(?:https?://|www\.|github\.com/|huggingface\.co/)\S+", re.IGNORECASE)
REPO = re.compile(r"(?:github\.com|huggingface\.co|gitlab\.com)/(?:datasets/|spaces/)?[^/\s]+/([^/\s.#?]+)", re.IGNORECASE)
# ... whose owner ("github.com/grimalPaul/gsn-factory") is a person or a lab, not the system: of 427
# owners in train rows 50,000-52,999, 2 are in the paper's title
OWNER = re.compile(r"(?:github\.com|huggingface\.co|gitlab\.com)/(?:datasets/|spaces/)?([^/\s]+)/", re.IGNORECASE)


def acronym_long_form(words: list[str], acro: str) -> list[str] | None:
    """Schwartz-Hearst: the shortest run of words before "(ACRO)" whose letters, read from the
    right, contain the acronym's letters in order, the first matching a word's initial."""
    letters = [ch.lower() for ch in acro if ch.isalnum()]
    capitals = [ch.lower() for ch in acro if ch.isupper() or ch.isdigit()]
    if re.search(r"[a-z]{2}", acro) and len(capitals) >= 2:
        letters = capitals  # "SenCache" <- "Sensitivity-Aware Caching": its capitals spell the long form
    if len(letters) < 2 or not acro[:1].isalpha():
        return None
    max_words = min(len(letters) + 5, 2 * len(letters))
    window = words[-max_words:]
    text = " ".join(window).lower()
    si, li = len(letters) - 1, len(text) - 1
    while si >= 0:
        ch = letters[si]
        while li >= 0 and (text[li] != ch or (si == 0 and li > 0 and text[li - 1].isalnum())):
            li -= 1
        if li < 0:
            return None
        si -= 1
        li -= 1
    start = text.rfind(" ", 0, li + 2) + 1
    n_before = len(text[:start].split())
    long = window[n_before:]
    if not long or any(re.search(r"[(),.;:]", w) for w in long):
        return None
    return long


# "a new video understanding benchmark RiskCueBench", "The resulting model FLAGNet": a kind noun
# right before the name (the name is what that thing is called)
_KIND_NOUNS = frozenset(
    """benchmark dataset corpus framework model method algorithm suite library toolkit system architecture approach
    optimizer optimiser agent platform environment simulator pipeline protocol network transformer tool testbed
    technique strategy paradigm module mechanism scheme metric loss estimator policy""".split()
)
_NAMING_VERBS = frozenset(("called", "named", "termed", "dubbed"))


def kind_word_before(before: str) -> bool:
    """Does ``before`` (the text right before a mention) end on a kind noun ("benchmark", "models,"),
    perhaps followed by "called"/"named"/...?"""
    if before[-1:] not in (" ", "\n", "\t"):
        return False
    words = before[-40:].rsplit(None, 2)
    if words and words[-1].lower() in _NAMING_VERBS:
        words = words[:-1]
    if not words:
        return False
    last = words[-1].rstrip(",").lower()
    return last in _KIND_NOUNS or (last.endswith("s") and last[:-1] in _KIND_NOUNS)


# "we introduce a new video understanding benchmark RiskCueBench": a contribution verb a few
# words before the name, in the same clause (after_cue wants it right before)
_CUE_FAR = re.compile(
    r"\b(?:introduce|propose|present|develop|design|build|release|construct|create|curate|contribute|offer|provide)[sd]?"
    r"\s+(?:[\w-]+\s+){1,8}$",
    re.IGNORECASE,
)
TOOL_BEFORE = re.compile(r"\b(?:via|using|with|use|uses|apply|applying|on|to)\s+(?:the\s+)?$", re.IGNORECASE)
# The words every match of _CUE_BEFORE / _CALLED_BEFORE starts with (lowercase).
CUE_STARTS = ("introduc", "propos", "present", "develop", "design", "build", "releas", "construct", "creat", "curat",
               "contribut", "offer", "provid", "call", "term", "dub", "address")
CALLED_STARTS = ("call", "term", "dub", "name", "coin", "refer")


def find_all(text: str, literal: str) -> list[int]:
    out = []
    i = text.find(literal)
    while i >= 0:
        out.append(i)
        i = text.find(literal, i + 1)
    return out


def after_cue_far(window: str, end: int, cue_verbs: list[int] | None) -> bool:
    """``bool(_CUE_FAR.search(window))`` for the ``window`` of text that ends at ``end``, tried only
    where a contribution verb starts (``cue_verbs``: where one of _CUE_STARTS starts in the
    lowercased text, sorted; None: look everywhere)."""
    if cue_verbs is None or not window.isascii():
        return ends_on(_CUE_FAR, window, CUE_STARTS)
    start = end - len(window)
    i = bisect.bisect_left(cue_verbs, start)
    while i < len(cue_verbs) and cue_verbs[i] < end:
        if _CUE_FAR.match(window, cue_verbs[i] - start):
            return True
        i += 1
    return False


def ends_on(pattern: re.Pattern, text: str, starts: tuple[str, ...]) -> bool:
    """``bool(pattern.search(text))`` for a cue pattern whose every match starts with one of the
    ``starts`` words: in ASCII text (where lowercasing is what IGNORECASE does) the pattern is
    only tried where one of them occurs, not at every position of the text."""
    return bool(lexicon.finditer_at(pattern, text, text.lower() if text.isascii() else None, starts))
_NAME_CHAR = re.compile(rf"[{NAME_CHARS}]")


def occurrences(plain: str, name: str) -> list[int]:
    """Where ``name`` occurs as a whole word (not inside "X-Net" or "XNet")."""
    out = []
    i = plain.find(name)
    n = len(name)
    while i >= 0:
        before = plain[i - 1 : i]
        after = plain[i + n : i + n + 2]
        if not (before and (_NAME_CHAR.match(before) or before == "-")) and not (
            after[:1] == "+" or (after[:1] and _NAME_CHAR.match(after[:1])) or (after[:1] == "-" and _NAME_CHAR.match(after[1:2] or " "))
        ):
            out.append(i)
        i = plain.find(name, i + 1)
    return out


def sentence_index(starts: list[int], pos: int) -> int:
    """The index of the sentence (``starts``: where each begins, ascending) that holds ``pos``."""
    return max(0, bisect.bisect_right(starts, pos) - 1)
