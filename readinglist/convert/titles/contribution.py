"""Candidate source 1, the contribution sentence: the object of the strongest "we propose"
(tier 0), "we study" (tier 1) or "we evaluate/extend" (tier 2) cue, with pointers back to
earlier text resolved, its source or appositive added, joined to the topic; the first finding or
sentence when there is no cue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..lexicon import OTHER_SPACE as _OTHER_SPACE, finditer_at as _finditer_at, split_sentences
from .constants import ANALYTIC_HEADS, ANAPHORA, MAKE_VERBS, CUE_ADVERBS, CUE_STARTS, CUT_ANY, CUT_CLAUSE, GERUNDS, KINDS, MAX_CHARS, MAX_WORDS, MEANS, NOT_CONTENT, NOT_FOR_HEADS, RELATIVE
from .relations import says_the_reverse
from .text import article, before_finite_verb, BY_MEANS, clause, describe, fit, gerund_of, head_noun, LEADING, PAREN, strip_dangling, word_list
from .topic import open_question, says_topic, topic_phrase


_VERB_CUE = (
    # (tier, pattern): lower tiers win; the object follows the match.
    (0, re.compile(
        r"\b(?:[Ww]e|[Tt]his (?:paper|work|study)|[Oo]ur (?:paper|work))\s+(?:(?:first|further|also|then|here|now|additionally|instead|therefore|thus)\s+)?"
        rf"(?:{MAKE_VERBS}|curate|release|contribute|offer)(?:s|d)?"
        r"(?:\s+and\s+(?:analy[sz]e|evaluate|study|validate|test)s?)?\b|\bby\s+(?:introducing|proposing|presenting)\b")),
    (1, re.compile(
        r"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:(?:first|further|also|then|here|now|systematically|formally)\s+)?"
        r"(?:stud(?:y|ies)|investigate|examine|explore|analy[sz]e|formali[sz]e|derive|establish|give|provide|characteri[sz]e|revisit|re-evaluate)s?\b"
        r"|\b[Ww]e\s+(?:conduct|perform|carry\s+out)\s+(?=(?:(?:a|an|the)\s+)?(?:[\w-]+\s+){0,4}?(?:study|analysis|investigation|audit|survey)\b)")),
    (2, re.compile(
        r"\b[Ww]e\s+(?:(?:first|further|also|then|here|now|systematically)\s+)?"
        r"(?P<v>extend|generali[sz]e|adapt|apply|re-?evaluate|evaluate|benchmark|collect|compile|audit|quantify|measure|probe)(?:s|d|ed)?\b")),
)


# "we address this gap by deriving upper bounds on ...": the gerund after the authors' "by" (its
# object follows the match), read when no verb above says what the paper does
_BY_DOING = re.compile(r"\b[Ww]e\s+(?:[^.;:,]{0,80}?\s)?by\s+(?=[a-z]{3,}ing\s)")


# "A cross-scale GNN is proposed", "a novel X (X-Net) is developed": something new (an indefinite
# article) that is proposed, in the passive voice; what comes before "is" is the object
_PASSIVE = re.compile(r"(?:^|[.;,:]\s+|\s)(?:[Aa]n?)\s+((?:(?!is\b|are\b|was\b|were\b|which\b|that\b)[^\s.;:]+\s+){1,10}?)"
                      r"(?:is|are)\s+(?:(?:first|further|also|then|here|thus|therefore)\s+)?"
                      r"(?:proposed|introduced|presented|developed|designed|devised)\b")


def _passive_object(plain: str, budget: int) -> Found | None:
    """The first thing the abstract says is proposed in the passive voice, as a tier-0 contribution."""
    if " is " not in plain and " are " not in plain:
        return None
    for m in _PASSIVE.finditer(plain):
        words = describe(m.group(1).rstrip(", "), budget)
        if words and words[0].lower() in ANAPHORA:
            continue
        if len([w for w in words if w.lower() not in NOT_CONTENT]) >= 2:
            return Found(0, words)
    return None


def introduces(sentence: str) -> bool:
    """Does the sentence say what the authors propose ("we introduce / propose / present ...",
    "this paper develops ..."), not what they use ("we use the forward Euler method to ...")?"""
    return bool(_VERB_CUE[0][1].search(sentence))


# Objects that are an artefact: kept as they are ("We collected a dataset of ..." -> "Dataset of ...").
_ARTEFACT_OBJECT = re.compile(rf"^(?:(?:a|an|the|our)\s+)?(?:[\w-]+\s+){{0,3}}?(?:{KINDS}|collection|set|database)\b", re.IGNORECASE)
_BAD_OBJECT = re.compile(r"^(?:this|these|those|such|it|them|the question|whether|that)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """A contribution phrase: its cue tier (0 propose, 1 study, 2 evaluate) and its words;
    ``analytic`` when it explains something (an account, a view, an explanation of ...): the word
    that joins it to the topic ("of", or "in" when it already says what it is of)."""

    tier: int
    words: list[str]
    analytic: str = ""  # "" or the word that joins it to its topic when it explains something


def contribution_phrases(plain: str, budget: int, keep_article: bool = False) -> list[str]:
    """The object of the strongest "we propose / we study" cue (tiers 0 and 1), as words."""
    found = find_contribution(plain, budget, max_tier=1)
    if found is None:
        return []
    if keep_article:
        return article(found.words)
    return LEADING.sub("", " ".join(found.words)).split()


def find_contribution(plain: str, budget: int, max_tier: int = 2) -> Found | None:
    """The object of the strongest contribution cue: "we propose" (tier 0) before "we study"
    (tier 1) before "we evaluate/extend" (tier 2, turned into a gerund), earliest first."""
    low: str | None = plain.lower()
    if len(plain) != len(low or "") or _OTHER_SPACE.search(plain):
        low = None
    found = _best_object(plain, low, budget, [c for c in _VERB_CUE if c[0] <= min(max_tier, 1)])
    if found is None and max_tier >= 1 and (learned := learned_cue()) is not None:
        # "we define X", "this paper describes X", "we focus on X": learned verbs, read as "we study X"
        found = _best_object(plain, low, budget, [(1, learned)])
    if found is None:  # "a novel dual-path deep unfolding network is proposed": the passive voice
        found = _passive_object(plain, budget)
    if found is None and max_tier >= 1:  # "we overcome this by generating X": what they do, said as a means
        found = _best_object(plain, low, budget, [(1, _BY_DOING)])
    if found is None and max_tier >= 2:  # evaluation verbs only when nothing is proposed or studied
        found = _best_object(plain, low, budget, [c for c in _VERB_CUE if c[0] == 2])
    return found


@lru_cache(maxsize=1)
def learned_cue() -> re.Pattern | None:
    """"we <verb>" or "this paper <verb>" for the verb forms learned to say what a paper does
    (``data/contribution_cues.json``, :mod:`readinglist.convert.train_contribution_cues`), "on"
    after the verb left out ("we focus on X"); None without the data."""
    from ..models import DATA, read_model

    verbs = read_model(DATA / "contribution_cues.json").get("verbs", ())
    if not verbs:
        return None
    return re.compile(
        r"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:(?:" + "|".join(CUE_ADVERBS) + r")\s+)?"
        r"(?:" + "|".join(sorted(map(re.escape, verbs), key=len, reverse=True)) + r")\b(?:\s+on\b)?")


def _best_object(plain: str, low: str | None, budget: int, cues) -> Found | None:
    best: tuple[int, int, list[str], str] | None = None
    tiers = [(tier, _finditer_at(cue, plain, low, CUE_STARTS[tier])) for tier, cue in cues]
    for offset, sent in split_sentences(plain):
        end = offset + len(sent)
        for tier, cue_matches in tiers:
            if best is not None and tier >= best[0]:
                break
            for m in cue_matches:
                if not offset <= m.start() < end:
                    continue
                obj = sent[m.end() - offset :].strip()
                analytic, resolved = "", False
                if _DEICTIC_LITERAL.search(obj[:160]):
                    obj, analytic, resolved = _resolve_anaphora(obj, plain, offset)
                if not obj or _BAD_OBJECT.match(obj) or (obj[:1].isupper() and tier == 0 and not re.match(r"[A-Z][a-z]*[-\s]", obj)):
                    continue
                gerund = None
                if tier == 0 and obj.startswith("to "):
                    verb = re.match(r"to\s+([a-z]+)\s+(?=\S)", obj)
                    ger = gerund_of(verb.group(1) + "s") if verb else None
                    if not ger or not verb:
                        continue
                    obj = f"{ger} {obj[verb.end():]}"
                    if re.match(r"[a-z]+\s+(?:these|this|those|such|it|them)\b", obj):
                        means = BY_MEANS.search(obj)  # "to recover these abilities by distilling ..."
                        if not means:
                            continue
                        obj = obj[means.end() :]
                if tier == 2 and not _ARTEFACT_OBJECT.match(obj):
                    gerund = GERUNDS.get(m.group("v").lower())
                words = describe(obj, budget - (1 if gerund else 0))
                if words and words[0].lower() in {"the"}:
                    words = words[1:]
                words = _with_source(words, obj, budget)
                if gerund and words:
                    words = [gerund] + (words[1:] if words[0].lower() in {"a", "an", "the"} else words)
                    by = next((i for i, w in enumerate(words) if i > 2 and w in MEANS and words[i + 1 :][:1] and words[i + 1].endswith("ing")), None)
                    words = strip_dangling(words[:by]) if by else words  # "... by sampling ..." is how, not what
                elif len(words) <= 3:
                    words = _with_appositive(words, obj, budget)
                if len([w for w in words if w.lower() not in NOT_CONTENT]) < (2 if resolved else 3):
                    continue
                if any(w.lower() in ANAPHORA for w in words[:3]):
                    continue
                if not analytic and head_noun(words) in ANALYTIC_HEADS:
                    analytic = "in" if any(w.lower() == "of" for w in words) else "of"
                best = (tier, offset, words, analytic)
                break
    if best is None:
        return None
    return Found(best[0], best[2], best[3])


_DEICTIC_LITERAL = re.compile(r"\b(?:this|these|such)\b", re.IGNORECASE)
# "this target through the canonical predictive quotient" -> "the canonical predictive quotient"
_THIS_VIA = re.compile(r"^(?:this|these)\s+[\w-]+\s+(?:through|via|with|using|by|as)\s+(?=\S)", re.IGNORECASE)
# "a potential explanation of this phenomenon: evaluation meta-knowledge, ..." -> after the colon
_THIS_COLON = re.compile(r"^[^.;:]{0,80}?\b(?:of|for|behind|to)\s+(?:this|these|such)\s+[\w-]+(?:\s+[\w-]+)?\s*:\s*(?=\S)")
# "an account of this relationship" -> "an account of <the open question, or the topic>"
_OF_THIS = re.compile(r"\b(of|for|behind|to|on)\s+(?:this|these)\s+([a-z][\w-]*)\b")


def _resolve_anaphora(obj: str, plain: str, offset: int) -> tuple[str, str, bool]:
    """Replace a pointer back to earlier text in a contribution phrase by what it points to.

    Returns (object, analytic, resolved): ``analytic`` is the preposition ("in") that joins the
    object to what it explained ("an explanation of this phenomenon: X"), else "";
    ``resolved`` says whether the object was rewritten."""
    m = _THIS_VIA.match(obj)
    if m:
        return obj[m.end() :], "", True
    m = _THIS_COLON.match(obj)
    if m:
        return obj[m.end() :], "in" if head_noun(word_list(m.group(0))) in NOT_FOR_HEADS else "", True
    m = _OF_THIS.search(obj[:160])
    if m:
        question = open_question(plain[:offset])
        if question:  # a question is a clause: what followed it may belong to either
            return f"{obj[: m.start()]}{m.group(1)} {question}", "", True
        topic = topic_phrase(plain)
        if topic:
            return f"{obj[: m.start()]}{m.group(1)} {topic}{obj[m.end() :]}", "", True
    return obj, "", False


_SOURCE_LITERAL = re.compile(r", (?:built|based|derived|drawn|collected|extracted|compiled|constructed|curated|mined) ")
_SOURCE = re.compile(
    r"^,\s*(?:built|based)\s+(on|upon|from)\s+"
    r"|^,\s*(?:derived|drawn|collected|extracted|compiled|constructed|curated|mined)\s+(from)\s+"
)


def _with_source(words: list[str], obj: str, budget: int) -> list[str]:
    """"a benchmark for X, built on 375 judgments of the Court" -> "... on judgments of the Court"."""
    if not words or not _SOURCE_LITERAL.search(obj, 0, MAX_CHARS):
        return words
    text = PAREN.sub("", obj[:MAX_CHARS])
    head = clause(text)
    m = _SOURCE.match(text[len(head) :])
    if not m:
        return words
    prep = "on" if m.group(1) in {"on", "upon"} else "from"
    rest: list[str] = []
    for w in word_list(text[len(head) + m.end() :]):
        low = w.lower().strip(",;:.")
        if not rest and re.fullmatch(r"[\d,.]+", low):
            continue  # "375 judgments" -> "judgments"
        if low.endswith("ing") or low in CUT_CLAUSE or len(rest) >= 9:
            break
        rest.append(w.rstrip(",;:."))
        if w[-1:] in ",;:.":
            break
    rest = strip_dangling(rest)
    if len(rest) < 2 or len(words) + 1 + len(rest) > budget:
        return words
    return words + [prep] + rest


# "the canonical predictive quotient, a Bayes-act quotient of hidden predictive states"
_APPOSITIVE_OF = re.compile(r",\s*(?:a|an|the)\s+((?:[\w-]+\s+){0,4}?)(of|for)\s+")
# "a new metric, Calibrated Agreement Score (CAS), that ..." -> "Calibrated Agreement Score"
_KIND_THEN_NAME = re.compile(r"^(?:a|an|the)\s+(?:new\s+|novel\s+)?[\w-]+(?:\s+[\w-]+)?,\s+((?:[A-Z][\w-]*\s+){1,5}[A-Z][\w-]*)\s*[,(]")


def _with_appositive(words: list[str], obj: str, budget: int) -> list[str]:
    """A short contribution gets what its appositive says it is of or for
    ("canonical predictive quotient, a quotient of hidden predictive states" ->
    "canonical predictive quotient of hidden predictive states"), and "a new metric, Calibrated
    Agreement Score (CAS)" becomes "calibrated agreement score"."""
    named = _KIND_THEN_NAME.match(obj)
    if named:
        return fit(word_list(named.group(1).lower()), budget)
    text = PAREN.sub("", obj[:MAX_CHARS])
    head = clause(text)
    m = _APPOSITIVE_OF.match(text, len(head))
    if not m or any(w.lower() in CUT_ANY or w.lower() in RELATIVE for w in word_list(m.group(1))):
        return words
    if not words or word_list(m.group(1))[-1:] != [words[-1].lower()]:
        return words  # "competition, the tendency of ..." says what it does, not what it is of
    rest = describe(text[m.end() :], 6)
    if len(rest) < 2 or len(words) + 1 + len(rest) > budget:
        return words
    return words + [m.group(2)] + rest


def with_topic(found: Found, plain: str) -> list[str]:
    """Pair a contribution with the paper's topic ("... method for knowledge editing", "view of
    collapse in recursive training"), cutting a relative clause off a long one to make room."""
    words = found.words
    if found.tier == 2:
        return words
    limit = 11 if found.tier == 0 else 8
    cut = next((i for i, w in enumerate(words) if i >= 2 and w.lower() in RELATIVE), None)
    if cut is not None:  # "a scheme that restricts ... for T" would read as if T were its object
        words = strip_dangling(words[:cut])
        if len([w for w in words if w.lower() not in NOT_CONTENT]) < 2:
            return found.words
    if len(words) > limit:
        return found.words
    if " for " in f" {' '.join(words).lower()} ":
        return found.words
    topic = topic_phrase(plain)
    if not topic or says_the_reverse(words, topic.split(), plain):
        return found.words
    if says_topic(words, topic) or len(words) + 1 + len(topic.split()) > MAX_WORDS:
        return found.words
    # "an account of X", "a view of collapse in X", "a method for X"
    return words + [found.analytic or "for"] + topic.split()


_FINDING = re.compile(r"^(?:[Ww]e|[Hh]ere,? we|[Tt]his (?:paper|work|study))\s+(?:(?:first|also|further|then)\s+)?(?:find|show|demonstrate|observe|argue|report|prove|shows|demonstrates|argues|reports)\s+that\b\s*")
_SUBCLAUSE = re.compile(r"\s+(?:when|because|since|unless|although|whereas|while|if)\s+.*$")
_WE_DO = re.compile(r"^(?:[Ww]e|[Tt]his (?:paper|work|study)|[Oo]ur (?:paper|work))\s+([a-z]{3,})\s+(?!that\b)(?=\S)")


def fallback(plain: str, budget: int) -> list[str]:
    """The first sentence; a finding ("We find that X ...") is given as X, up to its first
    subordinate clause."""
    sents = split_sentences(plain)
    first = sents[0][1] if sents else plain
    said = _WE_DO.match(first)
    if said:  # "This paper formulates X as Y" -> "Formulating X as Y"
        verb = said.group(1).lower()
        ger = gerund_of(verb if verb.endswith("s") else verb + "s")
        if ger:
            first = f"{ger} {first[said.end():]}"
    for _offset, sent in sents[:4]:  # a finding says more than the background before it
        finding = _FINDING.match(sent)
        if finding and len(sent) - finding.end() > 20:
            first = sent[finding.end() :]
            if first.startswith(","):  # "that, for noisy regression, transformers ..."
                first = first.split(", ", 2)[-1]
            first = _SUBCLAUSE.sub("", first)
            first = re.sub(r"^(?:the|a|an)\s+", "", first, flags=re.IGNORECASE)
            words = word_list(clause(PAREN.sub("", first)))
            relative = next((i for i, w in enumerate(words) if i >= 3 and w.lower() in RELATIVE), None)
            if len(words) > budget and relative:  # "X implement ridge regression | whose strength ..."
                first = " ".join(words[:relative])
            break
    words = fit(word_list(clause(PAREN.sub("", first)) or first), budget)
    if not words:
        words = fit(word_list(first), budget)
    return before_finite_verb(words)


_OWN = re.compile(r"\b(?:we|our|this (?:paper|work|study))\b", re.IGNORECASE)


@lru_cache(maxsize=4)
def own_sentences(plain: str) -> frozenset[int]:
    """The indices (in :func:`split_sentences`) of the sentences where the authors speak of their
    own work ("we", "our", "this paper"): what a phrase of them names may be the paper's own."""
    return frozenset(i for i, (_o, sent) in enumerate(split_sentences(plain)) if _OWN.search(sent))


def background_only(phrase: list[str], plain: str) -> bool:
    """Is the phrase said only in sentences where the authors do not speak of their own work
    (the background, the problem, a prior method)?"""
    said = " ".join(phrase).lower()
    where = [i for i, (_o, sent) in enumerate(split_sentences(plain)) if said in sent.lower()]
    return bool(where) and own_sentences(plain).isdisjoint(where)


def led_by_proposed(words: list[str], plain: str) -> bool:
    """Do ``words`` start (articles aside) with the first two words of what the authors say they
    propose (the tier-0 contribution phrase, :func:`find_contribution`)?"""
    found = find_contribution(plain, MAX_WORDS, max_tier=0)
    if found is None or found.tier != 0:
        return False
    said = _lead(found.words)
    return len(said) == 2 and _lead(words) == said


def _lead(words: list[str]) -> list[str]:
    """The first two words, lowercase, articles aside."""
    return [w.lower() for w in words if w.lower() not in ("a", "an", "the")][:2]
