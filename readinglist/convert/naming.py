"""Detect the system name an abstract introduces ("We introduce CanViT, ...").

``detect_name(raw, plain)`` is a pure function: ``raw`` is the abstract as written (LaTeX and
Markdown kept, used only to see which words the authors emphasised), ``plain`` its clean Unicode
text from :func:`readinglist.text.to_plain`. It returns the name in its display form or None.

Precision over recall: a name is only returned when the abstract *introduces* it, seen from
cues such as "we propose X", "X, a new ...", "(X)" right after a we-propose phrase, "called X",
"our framework, X," or emphasis on a coined word. Prior work the paper builds on or compares
with, metrics, and ordinary acronyms for background concepts (LLM, RL, PEFT ...) are not names.
Each cue gives a candidate a strength. These hand-written cue rules are one source of
candidates and features for the learned choice in :mod:`readinglist.convert.name_model`, which
``detect_name`` uses; :func:`detect_name_by_rules` is the rules alone (strongest cue wins, ties
go to the earliest), used when no trained weights are installed.
"""

from __future__ import annotations

from collections.abc import Sequence

import re

from .lexicon import (  # noqa: F401 - GENERIC_ACRONYMS, KNOWN_SYSTEMS, split_sentences are re-exported
    NAME_CHARS,
    NAME_PATTERN,
    NAME_RE,
    NOT_A_NAME_WORD,
    OTHER_SPACE,
    GENERIC_ACRONYMS,
    KNOWN_SYSTEMS,
    LOWER,
    UPPER,
    finditer_at,
    is_generic,
    strip_possessive,
    is_coined,
    literal_spans,
    split_sentences,
)

__all__ = ["detect_name", "is_coined", "split_sentences", "GENERIC_ACRONYMS", "KNOWN_SYSTEMS"]




# Function words that may sit inside a spelled-out name "Merging Strength ... via ... (M2LE)".
_SMALL = "of|for|via|and|with|in|on|by|to|the|from|a|an|under|over|through|using|at|as"

_ADV = r"(?:(?:first|further|also|then|now|hence|thus|therefore|additionally|here|next|instead|finally|newly)\s+)?"
_VERB = (
    r"(?:introduce|propose|present|develop|design|build|release|construct|create|curate|contribute"
    r"|offer|instantiate\s+(?:this|our|the|these|that)\s+\w+(?:\s+\w+)?\s+(?:with|as|in|via|through))"
)
# "we propose", "This paper introduces", "by introducing", "we propose and analyze"
_CUE = re.compile(
    rf"(?:\b(?:[Ww]e|[Tt]his (?:paper|work|study)|[Oo]ur (?:paper|work))\s+{_ADV}{_VERB}(?:s|d)?"
    rf"|\b(?:by |[Hh]ere,? )?(?:introducing|proposing|presenting|developing)"
    rf"|\b[Ww]e {_ADV}(?:call|term|dub|name))\b(?:\s+and\s+(?:analy[sz]e|evaluate|study|validate|test))?"
)
# The name right after the cue: "we introduce CanViT, ..."; "we propose **LIFT** (...)".
_AFTER_DIRECT = re.compile(
    rf"\s+(?:the\s+|our\s+)?(?P<n>{NAME_PATTERN})(?P<follow>\s*(?:[,:;(\u2014\u2013]|\.(?:\s|$)|$)"
    rf"|\s+(?:which|that|to|for|as|in|on|with|by|via|is|are|consists|comprises|achieves|outperforms)\b)"
)
# "we introduce the VESPER benchmark"
_AFTER_THE_KIND = re.compile(
    rf"\s+(?:the|our|a|an)\s+(?:new\s+|novel\s+)?(?P<n>{NAME_PATTERN})\s+(?P<kind>benchmark|dataset|corpus|framework|model"
    rf"|method|algorithm|suite|library|toolkit|toolbox|system|architecture|approach|optimi[sz]er|agent|platform"
    rf"|environment|simulator|pipeline|family|series|protocol|engine|network|transformer|tool|test ?bed|language)\b"
)
# "we propose Merging Strength Modulation via Joint Loss Estimation (M²LE)"
_AFTER_EXPANSION = re.compile(
    rf"\s+(?P<art>(?:(?:a|an|the|our)\s+)?(?:(?:new|novel|simple|unified|general)\s+)?)(?P<long>[^\s,.;:()]+"
    rf"(?:\s+[^\s,.;:()]+){{0,11}}?)\s*\((?P<n>{NAME_PATTERN})\)"
)
# "we propose a new benchmark, DriftBench, that ..."
_AFTER_NP_APPOSITIVE = re.compile(
    rf"\s+(?:a|an|the|our)\s+[^,.;:()]{{1,80}}?,\s+(?:(?:called|named|termed|dubbed|coined|namely)\s+)?(?P<n>{NAME_PATTERN})"
    rf"(?=\s*[,.;:(]|\s+(?:which|that|to|for)\b)"
)
_CALLED = re.compile(
    rf"\b(?:called|termed|dubbed|named|coined|nicknamed|(?:which|that) we (?:call|term|dub|name|refer to as)"
    rf"|referred to as|we refer to (?:it|them|(?:this|our|the) \w+) as"
    rf"|namely|we (?:call|term|dub|name) (?:it|them|(?:this|our|the) \w+))\s+(?P<n>{NAME_PATTERN})"
)
_OUR_KIND = re.compile(
    rf"\b[Oo]ur (?:proposed |new )?(?:method|framework|model|approach|system|benchmark|dataset|algorithm|tool"
    rf"|library|architecture|agent|pipeline|optimi[sz]er|technique|suite),?\s+(?P<n>{NAME_PATTERN})(?=\s*[,(])"
)
# "X, a new ...", "X (...), the first ...", "X is a novel ...": found from the tail, then the
# name is read backwards (scanning every position for a name first is slow).
_NOVEL_TAILS = (
    re.compile(r", (?:an? (?:new|novel)|the first|our)\b"),
    re.compile(r" is (?:an? (?:new|novel)|the first)\b"),
)
_NAME_BEFORE_TAIL = re.compile(rf"(?<![{NAME_CHARS}\-])(?P<n>{NAME_PATTERN})(?:\s*\([^()]{{1,120}}\))?$")
# Emphasis in the raw text, one pattern per syntax so each starts with a literal.
_EMPHASIS = (
    ("**", re.compile(r"\*\*([^*\s][^*]{0,40}?)\*\*")),
    ("__", re.compile(r"(?<![\w])__([^_\s][^_]{0,40}?)__")),
    ("*", re.compile(r"(?<![\w*])\*([^*\s][^*]{0,40}?)\*(?![\w*])")),
    ("\\", re.compile(r"\\(?:textbf|textsc|texttt|mathbf|mathrm|textit|emph|mathsf|textsf)\{([^{}]{1,40})\}")),
)
# Every match of _CUE, _CALLED and _OUR_KIND starts with one of these (in the lowercased text), so
# those patterns are only tried where a literal occurs instead of being scanned along the text.
# (A space stands for any white space: other white space makes finditer_at scan the whole text.)
_CUE_STARTS = ("we ", "this ", "our ", "by ", "here", "introducing", "proposing", "presenting", "developing")
_CALLED_STARTS = ("called", "termed", "dubbed", "named", "coined", "nicknamed", "namely", "which we", "that we", "we ", "referred")
_OUR_KIND_STARTS = ("our ",)
# Acronyms given in parentheses, as in "multi-agent reinforcement learning (MARL)".
_DEFINED = re.compile(rf"\((?P<n>{NAME_PATTERN})\)")
# Words that mark a mention right after them as someone else's work or a thing compared with
# (in any case, then white space or nothing).
_PRIOR_CUES = tuple(
    """such as|e.g.|e.g.,|i.e.|i.e.,|like|including|than|over|versus|vs|vs.|against|extend|extends|extending|extended
    |compare to|compared to|compare with|compared with|comparing to|comparing with|outperform|outperforms|outperforming
    |surpass|surpasses|surpassing|beat|beats|beyond|unlike|existing|prior|previous|baseline|baselines|adapt|adapts
    |adapting|build on|builds on|building on|based on|upon""".replace("\n    ", "").split("|")
)
_PRIOR_BEFORE = re.compile("(?:" + "|".join(map(re.escape, _PRIOR_CUES)) + r")\s*$", re.IGNORECASE)
_PRIOR_SENTENCE = re.compile(
    r"\b(?:prior|previous|existing|recent|popular|widely[- ]used|state-of-the-art|baselines?|such as|e\.g\.)\b",
    re.IGNORECASE,
)
_METRIC_HEAD = re.compile(
    r"^\s*,?\s*(?:a|an|the)?\s*(?:new|novel|simple|principled)?\s*(?:(?!(?:for|of|to|in|on|with|that|which|and|from)\b)[\w-]+\s+){0,3}?"
    r"(?:metric|measure|score|index|criterion|statistic|rate|distance|divergence)s?"
    r"(?=\s*[,.;:)]|\s*$|\s+(?:for|of|that|which|to|in|on|based|between|over|and)\b)",
    re.IGNORECASE,
)
_SUBJECT_VERBS = re.compile(
    r"^(?:'s|’s|\s+(?:achieves|attains|outperforms|surpasses|improves|reduces|delivers|reaches|yields|matches"
    r"|attaches|combines|uses|leverages|learns|enables|provides|supports|scales|generalizes|generalises"
    r"|consists|comprises|contains|covers|includes|offers|exposes|maintains|preserves|runs|operates"
    r"|builds|produces|predicts|recovers|sets|removes|decouples|adapts|integrates|employs|exploits))\b"
)
_METRIC_TAIL = re.compile(r"\b(?:metric|score|measure|index|criterion|rate)s?$", re.IGNORECASE)
_NAMING_WORD = re.compile(r"\b(?:termed|called|named|dubbed|namely|coined)\s+")
_PREPOSITION = re.compile(
    r"\b(?:of|for|on|with|from|using|via|in|to|under|over|through|by|between|among|based|that|which)\b"
)
_PLAIN_CAPITALISED = re.compile(rf"^[{UPPER}][{LOWER}]+(?:-[{UPPER}][{LOWER}]+)*$")
_STRONG, _MEDIUM, _WEAK = 3, 2, 1












def _ok_plain_word(token: str, follow: str) -> bool:
    """A plain capitalised word after a cue is a name only with an appositive or expansion."""
    if token in NOT_A_NAME_WORD or not _PLAIN_CAPITALISED.match(token):
        return False
    return follow.strip()[:1] in {",", ":", "(", "\u2014", "\u2013"}


def _candidates(raw: str, plain: str) -> list[tuple[int, int, str]]:
    """(strength, position, name) for every cue found."""
    found: list[tuple[int, int, str]] = []
    sentences = split_sentences(plain)
    low_plain = plain.lower()
    low = low_plain if len(low_plain) == len(plain) and not OTHER_SPACE.search(plain) else None
    all_cues = finditer_at(_CUE, plain, low, _CUE_STARTS)
    defined_in_background: set[str] = set()
    cue_sentences: list[int] = []
    for idx, (offset, sent) in enumerate(sentences):
        end = offset + len(sent)
        cues = [c for c in all_cues if offset <= c.start() < end]
        if cues:
            cue_sentences.append(idx)
        else:
            for d in _DEFINED.finditer(sent):
                defined_in_background.add(strip_possessive(d["n"]))
        for cue in cues:
            rest = sent[cue.end() - offset :]
            pos = cue.end()
            m = _AFTER_DIRECT.match(rest)
            if m:
                tok = m["n"]
                if is_coined(tok) or _ok_plain_word(tok, m["follow"]):
                    if not _METRIC_HEAD.match(rest[m.end("n") :]):
                        found.append((_STRONG, pos, tok))
                    continue
            m = _AFTER_THE_KIND.match(rest)
            if m and is_coined(m["n"]):
                found.append((_STRONG, pos, m["n"]))
                continue
            m = _AFTER_EXPANSION.match(rest)
            if m and (is_coined(m["n"]) or re.fullmatch(r"[A-Z]{2,}s?", m["n"])):
                strength = _expansion_strength(m["art"], m["long"], rest[m.end() :])
                if strength:
                    found.append((strength, pos, m["n"]))
                continue
            m = _AFTER_NP_APPOSITIVE.match(rest)
            if m and (is_coined(m["n"]) or _ok_plain_word(m["n"], rest[m.end() :])):
                found.append((_STRONG, pos, m["n"]))
                continue
    for m in finditer_at(_CALLED, plain, low, _CALLED_STARTS):
        tok = m["n"]
        sent = _sentence_at(sentences, m.start())
        if is_coined(tok) or (re.search(r"\b(?:[Ww]e|[Oo]ur)\b", sent) and _ok_plain_word(tok, plain[m.end() : m.end() + 2])):
            found.append((_STRONG, m.start(), tok))
    for m in finditer_at(_OUR_KIND, plain, low, _OUR_KIND_STARTS):
        if is_coined(m["n"]) or _PLAIN_CAPITALISED.match(m["n"]):
            found.append((_STRONG, m.start(), m["n"]))
    tails = sorted((t for pattern in _NOVEL_TAILS for t in pattern.finditer(plain)), key=lambda t: t.start())
    for tail in tails:
        m = _NAME_BEFORE_TAIL.search(plain, max(0, tail.start() - 160), tail.start())
        if not m:
            continue
        plain_word = bool(_PLAIN_CAPITALISED.match(m["n"])) and m["n"] not in NOT_A_NAME_WORD
        if plain_word and tail.group(0).startswith(",") and _starts_sentence(plain, m.start()):
            plain_word = False  # "Furthermore, our ..."
        if (is_coined(m["n"]) or plain_word) and not _prior_context(plain, m.start()):
            found.append((_MEDIUM, m.start(), m["n"]))
    for trigger, pattern in _EMPHASIS:
        if trigger not in raw:
            continue
        for m in pattern.finditer(raw):
            tok = m.group(1).strip()
            if NAME_RE.fullmatch(tok) and is_coined(tok):
                at = plain.find(tok)
                if at >= 0 and not _prior_context(plain, at):
                    found.append((_MEDIUM, at, tok))
    found.extend(_subject_after_cue(plain, sentences, cue_sentences, defined_in_background))
    metric_cache: dict[str, bool] = {}

    def _metric(name: str) -> bool:
        if name not in metric_cache:
            metric_cache[name] = _is_metric(plain, name)
        return metric_cache[name]

    return [
        (s, p, strip_possessive(n))
        for s, p, n in found
        if not is_generic(n)
        and (s == _STRONG or strip_possessive(n) not in defined_in_background)
        and not _metric(strip_possessive(n))
    ]


# The pieces of the per-name patterns, compiled once (see lexicon.literal_spans).
_NAME_CHAR_OR_HYPHEN = re.compile(rf"[{NAME_CHARS}\-]")
_NAME_GOES_ON = re.compile(rf"[{NAME_CHARS}]|-[{NAME_CHARS}]")
_PAREN_SUFFIX = re.compile(r"(?:\s*\([^()]{0,80}\))?")


def _is_metric(plain: str, name: str) -> bool:
    """Is the name described as a metric or score anywhere ("ORBIT, a new metric", "the X score")?"""
    for _start, end in literal_spans(plain, name, _NAME_CHAR_OR_HYPHEN, suffix=_PAREN_SUFFIX):
        after = plain[end : end + 80]
        if _METRIC_HEAD.match(after) and (after.lstrip()[:1] == "," or re.match(r"\s+\w+s?\b", after)):
            head = re.match(r"\s*,?\s*(\w+)", after)
            if after.lstrip()[:1] == "," or (head and _METRIC_TAIL.search(head.group(1))):
                return True
    return False


def _expansion_strength(article: str, long: str, after: str) -> int:
    """How sure "we propose <article> <long> (NAME)" makes NAME the paper's own name (0: not)."""
    if _METRIC_HEAD.match(after) or _METRIC_TAIL.search(long):
        return 0
    named = _NAMING_WORD.split(long)
    if len(named) > 1:
        return _STRONG  # "a training scheme termed Progressive Token Dropping (PTD)"
    if not article.strip():
        return _STRONG if long[:1].isupper() else 0
    # "a <noun phrase> (NAME)": the parenthesis must belong to the contribution itself, not to
    # a phrase inside it ("a regulariser based on the maximum mean discrepancy (MMD)").
    return 0 if _PREPOSITION.search(long) else _MEDIUM


def _starts_sentence(plain: str, pos: int) -> bool:
    before = plain[:pos].rstrip()
    return not before or before[-1] in ".!?:;"


def _sentence_at(sentences: Sequence[tuple[int, str]], pos: int) -> str:
    for offset, sent in reversed(sentences):
        if offset <= pos:
            return sent
    return ""


# Earlier items of a list the name ends: "compared with GraphGPS and | Exphormer".
_LIST_BEFORE = re.compile(rf"(?:(?<![{NAME_CHARS}\-])[A-Z0-9\u0370-\u03ff][{NAME_CHARS}\-+.]*(?:\s*\([^()]{{0,40}}\))?(?:\s*,)?\s+(?:(?:and|or)\s+)?)+$")


# The last characters of every _PRIOR_BEFORE cue (any case, as its IGNORECASE matches them: "ſ"
# is an "s") and of the list test's ",", "and", "or".
_PRIOR_LAST = frozenset(",.DEGHMNORSTdeghmnorstſ")


def _prior_context(plain: str, pos: int) -> bool:
    """Is the mention at ``pos`` someone else's work ("unlike X", "such as A, B and X")?"""
    before = plain[max(0, pos - 30) : pos]
    tail = before.rstrip()
    if tail and tail[-1] not in _PRIOR_LAST:
        return False  # every cue below ends on one of those (before white space): none can match
    return _prior_context_by_patterns(plain, pos)


def _prior_context_by_patterns(plain: str, pos: int) -> bool:
    """:func:`_prior_context` without its quick exit: the cue patterns alone."""
    before = plain[max(0, pos - 30) : pos]
    if _after_prior_cue(before):
        return True
    window = plain[max(0, pos - 100) : pos]
    if not _LIST_END.search(window):
        return False
    listed = _LIST_BEFORE.search(window)
    if not listed:
        return False
    # The list may have swallowed a capitalised cue ("Unlike BernNet, ..."): try each item start.
    starts = [listed.start()] + [listed.start() + m.end() for m in re.finditer(r"\s+", listed.group(0))]
    return any(_after_prior_cue(window[max(0, i - 30) : i]) for i in starts)


_LIST_END = re.compile(r"(?:,|\band|\bor)\s*$")


def _after_prior_cue(before: str) -> bool:
    """``bool(_PRIOR_BEFORE.search(before))``: does ``before`` end on a cue (and white space)?
    In ASCII text, where lowercasing is what the pattern's IGNORECASE does and str.rstrip strips
    what its \\s matches, by looking at the end alone instead of trying the cues everywhere."""
    if not before.isascii():
        return bool(_PRIOR_BEFORE.search(before))
    return before.rstrip().lower().endswith(_PRIOR_CUES)


def _subject_after_cue(plain, sentences, cue_sentences, defined_in_background):
    """ "We introduce a <unnamed> interface ... . CONCORD attaches ..." : the name is the subject
    of the sentence right after an unnamed contribution, and comes back as subject again."""
    out = []
    for idx in cue_sentences:
        if idx + 1 >= len(sentences):
            continue
        offset, sent = sentences[idx + 1]
        m = NAME_RE.match(sent)
        if not m:
            continue
        tok = m.group(0)
        if not is_coined(tok) or tok in defined_in_background or _PRIOR_SENTENCE.search(sentences[idx][1]):
            continue
        if not _SUBJECT_VERBS.match(sent[m.end() :]):
            continue
        uses = [u for u, _end in literal_spans(plain, tok, _NAME_CHAR_OR_HYPHEN, _NAME_GOES_ON)]
        subject_uses = sum(1 for u in uses if _SUBJECT_VERBS.match(plain[u + len(tok) :]))
        if len(uses) >= 2 and subject_uses >= 2 and not any(_prior_context(plain, u) for u in uses):
            out.append((_WEAK, offset, tok))
    return out


def detect_name(raw: str, plain: str) -> str | None:
    """The name of the method, benchmark or data set the abstract introduces, or None: the
    learned choice among candidates (:mod:`readinglist.convert.name_model`), which reads the cue rules
    below as one of its features."""
    from .name_model import choose, load_model
    from .name_shape import with_version

    if not plain:
        return None
    name = choose(raw or "", plain) if load_model().get("weights") else detect_name_by_rules(raw, plain)
    return with_version(name, plain) if name else None


def detect_name_by_rules(raw: str, plain: str) -> str | None:
    """The strongest, earliest candidate of the hand-written cue rules (no learned weights)."""
    if not plain:
        return None
    found = _candidates(raw or "", plain)
    if not found:
        return None
    strength, _pos, name = min(found, key=lambda c: (-c[0], c[1]))
    return name


# The rules' pieces the learned model reads as features (readinglist.convert.name_model).
rule_candidates = _candidates
prior_context = _prior_context
starts_sentence = _starts_sentence
