"""A name's subtitle built from what the abstract says the named thing is: "we introduce a
comprehensive framework, named FLIP, to evaluate federated prompt learning algorithms" gives
"FLIP: a comprehensive framework for evaluating federated prompt learning algorithms", "GovBench,
a benchmark featuring 150 tasks ..." gives "GovBench: a benchmark for data governance" (its kind
noun and what it is for, else the paper's topic). Once the abstract says what the name is, a
subtitle that says something else ("FLIP: federated prompt learning algorithms", "GovBench:
automating data governance") calls it a side detail or the wrong kind of thing, so the learned
choice may only pick a subtitle headed by a kind noun of its family (:func:`fits_described`, for
benchmarks, datasets and metrics, which the rule-made title also keeps to; :func:`fits_family`,
for any kind, what the learned choice may put in its place).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..kinds import KIND_OF, described_kind
from ..lexicon import literal_spans, split_sentences
from .constants import MAKE_VERBS, NOT_CONTENT, PRONOUNS, RELATIVE
from .contribution import introduces
from .text import article, describe, gerund_of, head_noun, PARTICIPLE_END, strip_dangling
from .topic import restates, topic_phrase

_TO_VERB = re.compile(r"^to\s+([a-z]+)\b(.*)$", re.DOTALL)
_RELATIVE = re.compile(r"^(?:that|which)\s+(?:([a-z]+ly)\s+)?([a-z]+s)\b(.*)$", re.DOTALL)


def _informative(lead: str, purpose: str) -> bool:
    """Does the abstract introduce the name as a kind ("a benchmark", "a framework to ...") rather
    than point back at it ("the model", "our method")?"""
    return bool(purpose) or lead.split()[0].lower() in {"a", "an"}


def _for_purpose(purpose: str) -> str:
    """"to evaluate X" -> "for evaluating X", "that measures X" -> "for measuring X", "for X" kept."""
    purpose = re.sub(r"^(?:specifically\s+)?(?:designed|built|tailored|dedicated)\s+", "", purpose)
    if purpose.startswith("for "):
        return purpose
    m = _TO_VERB.match(purpose)
    if m:
        verb, rest = m.group(1), m.group(2)
        ger = gerund_of(verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s"))
        return f"for {ger}{rest}" if ger and verb not in {"be", "the", "a", "an"} else ""
    m = _RELATIVE.match(purpose)
    if m:
        ger = gerund_of(m.group(2))
        return f"for {m.group(1) + ' ' if m.group(1) else ''}{ger}{m.group(3)}" if ger else ""
    return ""


def described_subtitle(plain: str, name: str, budget: int) -> list[str]:
    """The subtitle from what the abstract says ``name`` is (see the module docstring), or []."""
    found = described_kind(plain, name)
    if found is None or budget < 3:
        return []
    kind, lead, purpose, _at = found
    if not _informative(lead, purpose):
        return []
    lead = lead.replace(name, " ").replace("  ", " ")
    if lead.split()[0].lower() == "the":
        lead = "a " + lead.split(None, 1)[1] if len(lead.split()) > 1 else lead
    purpose = _for_purpose(purpose)
    words = article(describe(f"{lead} {purpose}".strip(), budget))
    words = [w for w in words if w.lower() != name.lower()]
    if not words or head_noun(words) != kind:
        return []
    if len(words) <= len(lead.split()) + 1:  # no purpose: the paper's topic says what it is for
        topic = topic_phrase(plain)
        words = words[: len(describe(lead, budget))]
        if topic and name not in topic and not restates(words, topic) and len(words) + 1 + len(topic.split()) <= budget:
            words = words + ["for"] + topic.split()
    words = strip_dangling(words)
    return words if len(words) > 2 else []  # "a benchmark" alone says less than the rules' subtitle


def described_lead(plain: str, name: str, budget: int) -> tuple[list[str], str, int] | None:
    """The kind phrase alone ("a video understanding benchmark"), for the learned choice to join
    to what it is for ("... for <one of the abstract's phrases>"), the rest of its sentence in
    lowercase ("in which a classical policy ...": its parts, not its purpose) and the number of
    that sentence; None when the abstract does not introduce the name as a kind."""
    found = described_kind(plain, name)
    if found is None or not _informative(found[1], found[2]):
        return None
    words = article(describe(found[1].replace(name, " "), budget))
    if not words or head_noun(words) != found[0]:
        return None
    at = found[3]
    sentence = next((i for i, (o, s) in enumerate(split_sentences(plain)) if o <= at <= o + len(s)), 0)
    rest = re.split(r"[.!?](?:\s|$)", plain[at:], maxsplit=1)[0].lower()
    return words, rest, sentence


_EVALUATES = re.compile(r"^(?:to|for|that|which)\s+(?:evaluat|assess|benchmark|measur|quantif|compar|test|diagnos|audit)", re.IGNORECASE)


def _strict(kind: str, purpose: str) -> bool:
    """A benchmark, dataset or metric (or a framework "to evaluate ..."): a subtitle that does not
    say so reads as the paper's method ("GovBench: automating data governance")."""
    return KIND_OF[kind] in {"data", "measure"} or bool(_EVALUATES.match(purpose))


def fits_described(words: list[str], plain: str, name: str | None) -> bool:
    """May ``words`` follow "Name: "? When the abstract introduces the name as a benchmark, a
    dataset, a metric or a framework to evaluate something, the subtitle must be headed by that
    kind noun ("FLIP: federated prompt learning algorithms" names what FLIP evaluates) or spell
    the name out; anything goes otherwise ("FABind: fast protein-ligand binding")."""
    if not name:
        return True
    found = described_kind(plain, name)
    if found is None or not _informative(found[1], found[2]) or not _strict(found[0], found[2]):
        return True
    low = [w.lower() for w in words]
    if "for" in low and found[2] and not found[2].startswith("for "):
        tail = " ".join(low[low.index("for") + 1 :])
        verb = _for_purpose(found[2]).split()[1:2]
        if tail and tail in found[2].lower() and not set(verb) & set(low):
            return False  # "a framework for <what it evaluates>" drops "evaluating"
    return head_noun(words) == found[0] or _spells(words, name)  # not "standard benchmarks" it is compared with


def _spells(words: list[str], name: str) -> bool:
    """Do the words spell the name out: its capitals, in order, among their initials, from the
    first word on ("multi-modal queried object detection" and MQ-Det)?"""
    caps = "".join(c for c in name if c.isupper()).lower()
    initials = "".join(p[:1] for w in words for p in w.lower().split("-") if p and p not in {"a", "an", "the", "of", "for", "and"})
    if len(caps) < 3 or not initials.startswith(caps[0]) or len(initials) > len(caps) + 2:  # BrainBench is no acronym
        return False
    rest = iter(initials)
    return all(c in rest for c in caps)


def described_family(plain: str, name: str) -> tuple[str, list[str], str] | None:
    """When the abstract introduces ``name`` as a kind of thing ("Pressure2Motion, a novel motion
    capture algorithm that synthesizes ...", "a benchmark, VESPER"; in a sentence where the
    authors speak of their work, only one saying what they propose, :func:`.contribution.introduces`:
    "we use the forward Euler method to ..." names a tool they use): the family of its kind noun
    (:data:`readinglist.convert.kinds.FAMILIES`), what it is for, as lowercase words ("for
    roof plane segmentation" -> ["roof", "plane", "segmentation"], "to handle X" -> ["handling",
    "x"]), and that sentence in lowercase; None when it does not."""
    found = described_kind(plain, name)
    if found is None or not _informative(found[1], found[2]):
        return None
    sentence = next((s for o, s in split_sentences(plain) if o <= found[3] <= o + len(s)), "")
    if AUTHORS.search(sentence) and not introduces(sentence):
        return None  # "we use the forward Euler method to ...": a tool the paper uses, not what it makes
    return (KIND_OF[found[0]], [w.strip(",;:.()") for w in _for_purpose(found[2]).lower().split()[1:]],
            " ".join(sentence.lower().split()))



def fits_family(words: list[str], described: tuple[str, list[str], str], name: str) -> bool:
    """May a candidate subtitle whose head part (the phrase, or what comes before its "for") is
    ``words`` follow "Name: " when the abstract says what kind of thing the name is
    (``described``: :func:`described_family`)? When that part is headed by a noun of the kind's
    family ("a generative model", "framework"), spells the name out, is what the thing is for
    as the abstract says it ("roof plane segmentation" of "a network for roof plane
    segmentation"), the means that sentence says it works by ("a framework enhanced by
    powerset alignment") or a part it calls new ("... and a novel deep delta attention
    mechanism"); a head followed by a participle is the noun before it ("a 3D model integrated
    with wavelet transforms" is a model); not when it names something else of the abstract, an input, a part or
    the background ("Pressure2Motion: pressure data for ..." of "a motion capture algorithm that
    synthesizes human motion from a ground pressure sequence")."""
    if KIND_OF.get(head_before_participle(words)) == described[0] or _spells(words, name):
        return True
    low = [w.lower() for w in words]
    if len(low) >= 2 and described[1][: len(low)] == low:
        return True
    return _said_after(" ".join(low), described[2], (_MEANS_END, _OWN_PART_END))


def _said_after(phrase: str, sentence: str, before: tuple[re.Pattern, ...]) -> bool:
    """Does ``sentence`` say ``phrase`` as a whole (a word boundary after it) right after a text
    that one of ``before`` (patterns anchored at the end) matches? What ``re.search(pattern +
    re.escape(phrase) + r"\b", sentence)`` says, without compiling a pattern for every phrase
    (thousands per list: they flushed the ``re`` module's cache)."""
    start = sentence.find(phrase)
    while start != -1:
        end = start + len(phrase)
        if _boundary(sentence, end) and any(p.search(sentence, 0, start) for p in before):
            return True
        start = sentence.find(phrase, start + 1)
    return False


def _boundary(s: str, i: int) -> bool:
    """``\b`` at ``i``: a word character on one side only."""
    return _word_char(s, i - 1) != _word_char(s, i)


def _word_char(s: str, i: int) -> bool:
    return 0 <= i < len(s) and (s[i].isalnum() or s[i] == "_")


def head_before_participle(words: list[str]) -> str:
    """The head noun of a phrase whose head is followed by a participle and its object ("a
    3D model integrated with wavelet transforms", "a network based on attention"): the noun
    before the participle, not the participle :func:`.text.head_noun` stops at."""
    head = head_noun(words)
    if PARTICIPLE_END.search(head) or head == "based":
        low = [w.lower().strip(",;:") for w in words]
        at = low.index(head) if head in low else 0
        return low[at - 1] if at > 0 else head
    return head


# how the sentence that says what the name is names its means ("a framework that uses powerset
# alignment", "a model based on sparse attention"), not its input ("from single-view images")
_MEANS_BEFORE = (r"\b(?:with|using|uses|via|through|by|based on|built on|leverag\w*|integrat\w*|combin\w*|employ\w*"
                 r"|incorporat\w*|introduc\w*)\s+(?:(?:a|an|the|our|its|novel|new)\s+)*")
# a part the describing sentence calls new ("an encoder-decoder architecture with ... and a novel
# deep delta attention mechanism"): the authors' own, a means of the named thing
_OWN_PART = r"\b(?:novel|new|proposed)\s+"
_MEANS_END = re.compile(_MEANS_BEFORE + r"\Z")
_OWN_PART_END = re.compile(_OWN_PART + r"\Z")
#: "we", "our": the authors speaking (in a sentence: of their own work; in a title: their sentence)
AUTHORS = re.compile(r"\b(?:we|our)\b", re.IGNORECASE)


_APPOSITIVE_GAP = re.compile(r"(?:\s*\([^()]{1,80}\))?\s*(?:,|:|\s+is|\s*[\u2014\u2013])\s*(?:(?:a|an|the)\s+)?$", re.IGNORECASE)
_NAMING_GAP = re.compile(r"\s*(?:,\s*)?(?:(?:called|named|termed|dubbed)\s+)?(?:\(\s*)?$", re.IGNORECASE)


def stated_description(body: str, plain: str, name: str) -> str:
    """``body``, or its words up to a relative clause ("a hybrid transformer encoder pre-trained
    model" of "... model that encodes numbers"), when the abstract says that of the name
    (:func:`said_of_name`); else ""."""
    words = body.split()
    cut = next((i for i, w in enumerate(words) if w.lower() in RELATIVE), len(words))
    head = " ".join(words[:cut]).rstrip(",")
    return head if len([w for w in head.split() if w.lower() not in NOT_CONTENT]) >= 2 and said_of_name(head, plain, name) else ""


def said_of_name(body: str, plain: str, name: str) -> bool:
    """Is ``body`` (a title's part after "Name: ") a noun phrase the abstract says word for word
    of the name: its appositive ("CONE, a hybrid transformer encoder pre-trained model ...",
    "X (...): a ...", "X is a ...") or the phrase that names it ("a video benchmark called
    VESPER", "a new sampler, HopWalker")? Not when it runs on into a relative clause or holds a
    comma: a description cut there is no longer what the abstract says."""
    low = plain.lower()
    said = _said_phrase(body)
    if not said or len(low) != len(plain):
        return False
    for start, end in literal_spans(plain, name, _NAME_CHAR, _WORD_CHAR):
        after = low.find(said, end, end + 100 + len(said))
        if after >= 0 and _APPOSITIVE_GAP.match(low, end, after):
            return True
        before = low.rfind(said, max(0, start - 40 - len(said)), start)
        if before >= 0 and _NAMING_GAP.match(low, before + len(said), start):
            return True
    return False


_NAME_CHAR = re.compile(r"[\w\-]")
_WORD_CHAR = re.compile(r"\w")


def _said_phrase(text: str) -> str:
    """``text`` lowercased, its spaces single and a leading article dropped: a phrase the abstract
    may say word for word of what the paper made; "" when it is fewer than two words, holds a comma
    or runs on into a relative clause (a description cut there is no longer what the abstract says)."""
    said = re.sub(r"^(?:a|an|the)\s+", "", " ".join(text.split()).lower())
    words = said.split()
    return said if len(words) >= 2 and "," not in said and RELATIVE.isdisjoint(words) else ""


def proposed_as_said(title: str, plain: str) -> bool:
    """Is ``title`` (an article aside) the object of the authors' "we propose/introduce/present
    ...", said word for word (:func:`proposed`): what they say they made? Not with a pronoun of
    theirs in it ("approaches to enhancing our data") or a run of dashes."""
    said = _said_phrase(title)
    return bool(said) and PRONOUNS.isdisjoint(said.split()) and "--" not in said and proposed(said.split(), plain)


def proposed(words: list[str], plain: str) -> bool:
    """Do the authors say they propose ``words`` ("we propose a novel skip-tree task"), word for
    word and letter case aside? Then it is their contribution, whatever its head."""
    said = " ".join(words)
    low = plain.lower()
    text, said = (low, said.lower()) if len(low) == len(plain) else (plain, said)
    return any(text.startswith(said, at) and not text[at + len(said) : at + len(said) + 1].isalnum() for at in proposal_starts(plain))


@lru_cache(maxsize=4)
def proposal_starts(plain: str) -> tuple[int, ...]:
    """Where the objects of the abstract's "we propose / introduce ..." start (after the article
    and "novel", "new" ...)."""
    return tuple(m.end() for m in _PROPOSE.finditer(plain))


_PROPOSE = re.compile(r"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:\w+\s+)?"
                      rf"(?:{MAKE_VERBS})[sd]?\s+"
                      r"(?:(?:a|an|the|our|two|three|novel|new|simple|general)\s+)*")
