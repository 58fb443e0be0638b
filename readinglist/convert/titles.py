"""Generate a readable stand-in title for an abstract that has none.

``make_title(raw, plain, name)`` is a pure function. With a system name it reads
"Name: <what it is>", the description taken from the abstract (an appositive such as
"CanViT, the first task- and policy-agnostic AVFM", a "which ..." clause turned into a gerund,
or the spelled-out name); a description of two content words gets the paper's topic
("VESPER: a video benchmark for evaluating ...").

Without a name it is a noun phrase for the paper's main contribution: the object of
"we propose/introduce/present ..." (tier 0), else "we study/formalize/derive ..." (tier 1), else
"we extend/evaluate/collect ..." as a gerund ("Extending X to Y") or an artefact ("Dataset of
..."). A pointer back to earlier text is resolved: "an account of this relationship" takes the
open question it points to ("how X shapes Y remains an open question"), "an explanation of
this phenomenon: Z" becomes Z, "this target through Y" becomes Y. A short contribution is
joined to the topic ("<contribution> for <topic>", "<account> of <topic>"), cutting a relative
clause to make room; the topic is a term the abstract coins ("a process we term X"), else the
subject of the first sentence ("Knowledge editing has emerged ...", "Existing accounts of X
..." -> X, "Since ..., evaluating X is critical" -> "evaluating X"). With no contribution
phrase, the first finding ("We find that X ...") gives X, or else the first sentence is used.

Last, :func:`_repair` weighs that rule-made title against the abstract's most central noun phrase
(:mod:`readinglist.convert.phrases`, a learned score): the phrase wins when it scores clearly
higher, and always when the rule-made title is a clause (a finite verb), starts with This/We/Our,
copies the abstract's opening words, is three words or fewer, or repeats the name. A title
phrase that does not say the paper's topic (in words or as its acronym) gets it when there is
room ("Lockdown: an isolated subspace training method for federated learning"): real titles
name their field far more often than an abstract's contribution sentence does.

Then :func:`_by_expected_rouge` makes the choice a learned one: the title model of
:mod:`readinglist.convert.title_words` gives every word of the abstract a probability that the
real title uses it. The candidates are that rule-made title, an abstract phrase alone or joined
to the topic, and "<phrase> for <phrase of the first two sentences>"; among those that pass the
same form checks the title becomes the one with the highest probability of sharing no fewer of
the real title's words than the abstract's first ten words do (:func:`_not_worse`: a title must
say more than the abstract's opening) plus ``CHOICE_WEIGHT`` times its expected ROUGE-1.

Every title: at most :data:`MAX_WORDS` words, clean text (no LaTeX or Markdown), sentence case
after the colon (acronyms and proper words kept), no trailing punctuation, never ends on an
article, preposition or conjunction, never cut inside a word, never empty.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice, repeat

from .kinds import contradicts, name_kind
from .lexicon import DANGLING, MINOR_WORDS, OTHER_SPACE as _OTHER_SPACE, finditer_at as _finditer_at, literal_spans, split_sentences

__all__ = ["make_title", "plain_title", "rule_made_title", "title_for_tags", "MAX_WORDS"]

MAX_WORDS = 15
_MAX_CHARS = 400  # a description is looked for in this much text after its cue
FALLBACK_TITLE = "Untitled abstract"

_ANAPHORA = frozenset("this these those such it its them both their they the-above former latter".split())
# Where a long phrase may be cut: clause starters first, then prepositions.
_CUT_CLAUSE = frozenset("that which whose where while whereas by to using via through so thereby".split())
_CUT_PREP = frozenset("for with in on of from under over across into without at as between among beyond".split())
_CUT_ANY = _CUT_CLAUSE | _CUT_PREP
_FILLER = re.compile(
    r"\b(?:(?:a|an)\s+)?(?:simple|effective|novel|new|general|generic)\s+(?:(?:yet|but|and)\s+(?:effective|efficient|powerful|general|scalable)\s+)?"
    r"|\b(?:simple|novel|new),\s+"
    r"|\bthe\s+first\s+|\bfirst\s+(?=systematic|large|comprehensive)",
    re.IGNORECASE,
)
_FILLER_WORDS = ("simple", "effective", "novel", "new", "general", "generic", "first")  # one is in every _FILLER match
_HOW_WORDS = ("how", "whether", "why", "when")
_LEADING = re.compile(r"^(?:(?:a|an|the|our|two|several|some)\s+)", re.IGNORECASE)
_PAREN = re.compile(r"\s*(?<![\w\-])\([^()]*\)(?![\w\-])|\s*\[[^\[\]]*\]")  # "SE(3)-equivariant" keeps its (3)
_QUOTES = re.compile(r"[\"“”‘`]|(?<![A-Za-z])'|(?<!s)'(?![A-Za-z])|(?<=s)'(?!\s)|’(?![A-Za-z])")
_MARKUP = re.compile(r"\\[A-Za-z]+|[\\$*{}^]|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])")
_SUBSCRIPT = re.compile(r"(?<=[^\W_])_(?=[^\W_])")
_WS = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]", re.UNICODE)
_TRAILING_PUNCT = re.compile(r"[\s,;:.!?\-–—/&]+$")
_VERB_CUE = (
    # (tier, pattern): lower tiers win; the object follows the match.
    (0, re.compile(
        r"\b(?:[Ww]e|[Tt]his (?:paper|work|study)|[Oo]ur (?:paper|work))\s+(?:(?:first|further|also|then|here|now|additionally|instead|therefore|thus)\s+)?"
        r"(?:introduce|propose|present|develop|design|build|construct|create|curate|release|contribute|offer)(?:s|d)?"
        r"(?:\s+and\s+(?:analy[sz]e|evaluate|study|validate|test)s?)?\b|\bby\s+(?:introducing|proposing|presenting)\b")),
    (1, re.compile(
        r"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:(?:first|further|also|then|here|now|systematically|formally)\s+)?"
        r"(?:stud(?:y|ies)|investigate|examine|explore|analy[sz]e|formali[sz]e|derive|establish|give|provide|characteri[sz]e|revisit|re-evaluate)s?\b"
        r"|\b[Ww]e\s+(?:conduct|perform|carry\s+out)\s+(?=(?:(?:a|an|the)\s+)?(?:[\w-]+\s+){0,4}?(?:study|analysis|investigation|audit|survey)\b)")),
    (2, re.compile(
        r"\b[Ww]e\s+(?:(?:first|further|also|then|here|now|systematically)\s+)?"
        r"(?P<v>extend|generali[sz]e|adapt|apply|re-?evaluate|evaluate|benchmark|collect|compile|audit|quantify|measure|probe)(?:s|d|ed)?\b")),
)
# The gerund a tier-2 title starts with ("We extend X to Y" -> "Extending X to Y").
_GERUNDS = {
    "extend": "extending", "generalize": "generalizing", "generalise": "generalising", "adapt": "adapting",
    "apply": "applying", "re-evaluate": "re-evaluating", "reevaluate": "re-evaluating", "evaluate": "evaluating",
    "benchmark": "benchmarking", "collect": "collecting", "compile": "compiling", "audit": "auditing",
    "quantify": "quantifying", "measure": "measuring", "probe": "probing",
}
# Every match of a _VERB_CUE tier starts with one of these (lowercased; see naming._finditer_at).
_CUE_STARTS = {0: ("we ", "this ", "our ", "by "), 1: ("we ", "this "), 2: ("we ",)}
_KINDS = (
    r"benchmark|dataset|data set|corpus|framework|model|method|algorithm|suite|library|toolkit|system"
    r"|architecture|approach|optimi[sz]er|agent|platform|environment|pipeline|family"
)
# Objects that are an artefact: kept as they are ("We collected a dataset of ..." -> "Dataset of ...").
_ARTEFACT_OBJECT = re.compile(rf"^(?:(?:a|an|the|our)\s+)?(?:[\w-]+\s+){{0,3}}?(?:{_KINDS}|collection|set|database)\b", re.IGNORECASE)
_NP_BEFORE = re.compile(
    r"\b(?:introduce|propose|present|develop|release|design|build|create|curate|construct|offer)[sd]?\s+"
    r"((?:a|an)\s+[^,.;:()]{1,80}?)(?:,\s*(?:(?:called|named|termed|dubbed|namely|(?:which|that)\s+we\s+(?:call|name|term|dub|refer\s+to\s+as))\s+)?"
    r"|\s+(?:called|named|termed|dubbed)\s+)$"
)
_AND_VERB = re.compile(
    r"\s+and\s+(?:then\s+|we\s+)?(?:show|find|demonstrate|prove|derive|propose|introduce|present|evaluate|use|apply"
    r"|obtain|establish|achieve|release|provide|observe|identify|argue|compare|discuss|conclude)s?\b"
)
_MATHY = re.compile(r"[=<>\u2208\u2264\u2265\u223c\u2248^|]|^[(\[]")
_NOT_CONTENT = frozenset("a an the our two three four five six several some many".split())
_HOW_THESE = re.compile(r"\b(how|whether|why|when)\s+(?:these|this|those|such)\s+", re.IGNORECASE)
_PROBLEM_AS = re.compile(r"^(?:the|this)\s+(?:problem|task|question|setting)\s+as\s+", re.IGNORECASE)
_MATH_TOKEN = re.compile(r"^[\u0370-\u03ff\u1d00-\u1dbf\u2100-\u214f\u2200-\u22ff_^()·]+$")
_BAD_OBJECT = re.compile(r"^(?:this|these|those|such|it|them|the question|whether|that)\b", re.IGNORECASE)
_LIST_AFTER_COMMA = re.compile(r"^,\s*(?:[^,;:.]{1,40},\s*)*(?:and|or)\s+[^,;:.]+")
_CLAUSE_END = re.compile(r"\s*(?:[;:!?](?=\s|$)|\.(?=\s|$)|\s[\u2014\u2013]\s|\s-{2,3}\s|,(?!\d))")
_KEEP_ACRONYMS = frozenset(
    "AI ML NLP RL LLM LM VLM MLLM CNN GNN RNN GPU QA VQA RAG ICL MoE KL SGD MLP API".split()
)
# a Capitalised word ("Aligned", "Of") or a few capitals spelling an acronym ("UNlearning")
_ONE_CAPITAL = re.compile(r"[A-Z][a-z]+|[A-Z]{2,3}[a-z]{3,}")
_LOWER_WORD = re.compile(r"\b[a-z]+\b")
_TWO_CAPITALS = re.compile(r"[A-Z].*[A-Z]")
_ACRO_DEF = re.compile(r"\(([A-Z][A-Za-z0-9\u00b2\u00b3\-]*[A-Z][A-Za-z]*?)(s?)\)")


def _words(text: str) -> list[str]:
    return text.split()


_ALNUM = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=64)
def _first_tokens(text: str) -> list[str]:
    """``re.findall(r"[a-z0-9]+", text.lower())[:MAX_WORDS]`` without tokenising all of it (the
    abstract's are asked for many times; callers never change the list)."""
    return [m.group() for m in islice(_ALNUM.finditer(text.lower()), MAX_WORDS)]


def _first_five_tokens(text: str) -> tuple[str, ...]:
    return tuple(_first_tokens(text)[:5])


def _name_lead(title: str, name: str | None) -> str:
    """``"Name: "`` when ``title`` is led by the name, else ``""``."""
    return f"{name}: " if name and title.startswith(f"{name}: ") else ""


_EN_DASH = re.compile(r"(?<=\w)--(?=\w)")
# Every match of _SUBSCRIPT, _EN_DASH, _MARKUP and _QUOTES holds one of these
_TO_CLEAN = re.compile(r"[_\\$*{}^\"“”‘`'’]|--")


def _clean(text: str) -> str:
    """Drop LaTeX/Markdown leftovers and quotes; ``ℓ_1`` becomes ``ℓ1``."""
    if text.isprintable() and "  " not in text and not _TO_CLEAN.search(text):
        return text.strip()  # nothing to drop, no white space but single spaces: what the subs leave
    text = _SUBSCRIPT.sub("", text)
    text = _EN_DASH.sub("\u2013", text)
    text = _MARKUP.sub("", text)
    text = _QUOTES.sub("", text)
    return _WS.sub(" ", text).strip()


def _strip_dangling(words: list[str]) -> list[str]:
    while words:
        last = words[-1].rstrip(",;:.!?").lower()
        if last in DANGLING or not _WORD.search(last) or (len(words) > 1 and len(last) == 1 and "a" <= last <= "z"):
            words = words[:-1]
        else:
            break
    return words


def _clause(text: str) -> str:
    """The text up to the first clause boundary (a comma that starts a list is kept)."""
    verb = _AND_VERB.search(text)
    if verb:
        text = text[: verb.start()]
    pos = 0
    while True:
        m = _CLAUSE_END.search(text, pos)
        if not m:
            return text
        if text[m.start() : m.end()].strip() == ",":
            lst = _LIST_AFTER_COMMA.match(text[m.start() :])
            if lst and len(_words(lst.group(0))) <= 12 and not re.match(r",\s*(?:which|who|where|while|and\s+(?:then|thus|we))\b", text[m.start() :]):
                pos = m.start() + lst.end()
                continue
        return text[: m.start()]


def _cut_anaphora(words: list[str]) -> list[str]:
    """"a framework that addresses this tension" -> "a framework": an anaphor needs its context."""
    for i, w in enumerate(words):
        if w.lower().strip(",;:") in _ANAPHORA and i > 0:
            for j in range(i - 1, 0, -1):
                if words[j].lower() in _CUT_CLAUSE or words[j].lower() in _CUT_PREP:
                    return words[:j]
            return words[:i]
    return words


def _fit(words: list[str], budget: int) -> list[str]:
    """At most ``budget`` words, cut before a clause or preposition where possible."""
    if len(words) > budget:
        top = min(budget, len(words) - 1)
        cut = next((j for j in range(top, 3, -1) if words[j].lower() in _CUT_CLAUSE), None)
        if cut is None:
            cut = next((j for j in range(top, 2, -1) if words[j].lower() in _CUT_ANY), None)
        if cut and words[cut].lower() == "by" and re.fullmatch(r"[a-z]+(?:ed|en)", words[cut - 1]):
            cut -= 1  # "papers written | by four assistants": the participle goes with its agent
        elif cut and cut > 3 and _PARTICIPLE_END.search(words[cut - 1]):
            cut -= 1  # "a model equipped | with three ...": the participle goes with its object
        words = words[: cut or budget]
    return _strip_dangling(words)


def _describe(text: str, budget: int) -> list[str]:
    """Trim a description: parentheses, filler, first clause, anaphora, length, dangling words."""
    text = _PAREN.sub("", text[:_MAX_CHARS])
    low = text.lower()
    if any(w in low for w in _FILLER_WORDS):
        text = _FILLER.sub(lambda m: "a " if m.group(0)[:2].lower() in {"a ", "an", "th"} else "", text)
    if any(w in low for w in _HOW_WORDS):
        text = _HOW_THESE.sub(r"\1 ", text)
    text = _PROBLEM_AS.sub("", text)
    text = _clause(text.strip())
    words = []
    for i, w in enumerate(_words(text)):
        if i and _MATHY.search(w):
            break  # "for p ∈ (1, 2]": a formula ends the phrase
        if i == 0 or not _MATH_TOKEN.match(w):
            words.append(w)
    words = _cut_anaphora(words)
    for i in range(2, len(words) - 1):  # "ensembles | that cover 84% of ...": results are no title
        if words[i].lower() in {"that", "which", "whose"} and any(re.search(r"\d[%×]", w) for w in words[i + 1 : i + 4]):
            words = words[:i]
            break
    return _fit(words, budget)


def _article(words: list[str]) -> list[str]:
    """"a" / "an" agreeing with the next word (after filler removal changed it)."""
    if len(words) > 1 and words[0].lower() in {"a", "an"}:
        nxt = words[1]
        vowel = bool(re.match(r"[aeioAEIO]|[uU](?!ni|se|sa|su|ti)|[FHLMNRSX](?:[A-Z0-9\-]|$)", nxt))
        words = [("an" if vowel else "a")] + words[1:]
    return words


def _sentence_case(phrase: str, plain: str) -> str:
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
            kept = low in proper_words() or (proper and low not in _lowercase_words(plain) and low not in _common_words())
            proper = bool(one_capital) and kept
            if one_capital and not kept:
                part = part.lower()  # "Aligned" of "Aligned Mass Transport"; "UNlearning" spells the acronym
            elif _INNER_CAPITAL.fullmatch(core) and low in _lowercase_words(plain):
                part = part.lower()  # "MotIf-driven contrastive leaRning" spells MICRO; the abstract writes "motif"
            new_parts.append(part)
        out.append("".join(new_parts))
    return " ".join(out)


_JOINED = re.compile("([-\u2013])")  # "Kolmogorov-Arnold", "German\u2013Bulgarian"


def _common_words():
    """Words the training abstracts use often (the title-word model's vocabulary, lowercase):
    "adaptive" of "Bayes-Adaptive" is one, "Bulgarian" of "German\u2013Bulgarian" is not."""
    from .title_words import load_model

    return load_model().get("df", {})


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
        out.setdefault(acro, _sentence_case(long, plain))
    return out


def _expand(words: list[str], plain: str, budget: int) -> list[str]:
    """Spell out acronyms defined in the abstract (but not everyday ones) while room is left."""
    if not any(_TWO_CAPITALS.search(w) for w in words):
        return words  # every acronym _acronyms finds has two capitals
    defs = _acronyms(plain)
    out = list(words)
    for i, w in enumerate(out):
        core = w.strip(",;:")
        key, plural = (core[:-1], "s") if core.endswith("s") and core[:-1] in defs else (core, "")
        if key in defs and key not in _KEEP_ACRONYMS:
            long = defs[key].split()
            if len(out) - 1 + len(long) <= budget:
                long[-1] += plural
                out = out[:i] + long + out[i + 1 :]
                return _expand(out, plain, budget)
    return out


_NOT_GERUND = frozenset("is was has does its this thus plus us".split())


def _gerund(verb: str) -> str | None:
    """"adapts" -> "adapting", "enhances" -> "enhancing", "applies" -> "applying"."""
    if not re.fullmatch(r"[a-z]+s", verb) or verb.endswith("ss") or verb in _NOT_GERUND:
        return None
    stem = verb[:-1]
    if stem.endswith("ie"):
        stem = stem[:-2] + "y"
    elif stem.endswith("e") and not stem.endswith(("ee", "ye", "oe")):
        stem = stem[:-1]  # "uses" -> "using", "prunes" -> "pruning" (never doubled)
    elif re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", stem):
        stem += stem[-1]  # "maps" -> "mapping"
    return stem + "ing"


_WORD_CHAR_OR_HYPHEN = re.compile(r"[\w\-]")
_WORD_CHAR = re.compile(r"\w")


def _name_description(plain: str, name: str, budget: int, allow_subject: bool = False) -> list[str]:
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
        kind = re.match(rf"^\s+({_KINDS})\b", rest)
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
            desc = _bare_kind_for_topic(_article(_describe(phrase, budget)), plain, budget)
            if len([w for w in desc if w.lower() not in _NOT_CONTENT]) < 2:
                desc = []
        if desc:
            pass
        elif appositive:
            desc = _article(_describe(appositive.group(1), budget))
            if desc and desc[0].lower() in {"our"}:
                desc = desc[1:]
        elif which:
            ger = _gerund(which.group(1))
            if ger:
                desc = _describe(ger + which.group(2), budget)
                says_what_it_does = True
        elif allow_subject and subject and (start == 0 or _starts_subject(before)):
            ger = _gerund(subject.group(1))
            if ger:
                desc = _describe(ger + subject.group(2), budget)
        if desc and (not expansion or (len(desc) > 4 and not says_what_it_does)):
            return desc
        if expansion:
            return _fit(_words(_sentence_case(_clean(expansion), plain)), budget)
        if desc:
            return desc
    if expansion:
        return _fit(_words(_sentence_case(_clean(expansion), plain)), budget)
    return []


_STOP_BEFORE_NAME = frozenset(
    "we propose introduce present develop call term name dub with called termed named dubbed namely this our a an the".split()
)


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
    topic = _topic(plain)
    if not topic or len(desc[:2]) + 1 + len(topic.split()) > budget:
        return desc
    return desc[:2] + ["for"] + topic.split()


# "We train LLMs to emit compact traces ..., a procedure we call TraceTrim."
_WE_DID_AS_NAME = re.compile(
    r"(?:^|[.!?]\s+)(?:(?:Here|In this (?:work|paper)|Specifically),?\s+)?[Ww]e\s+([a-z]+)\s+([^.;:!?]{10,400}?),\s*"
    r"(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:(?:which|that)\s+)?we\s+(?:call|name|term|dub|refer\s+to\s+as)\s+$"
)


def _what_we_did(plain: str, name: str, budget: int) -> list[str]:
    """The description of a name given after what the authors did ("We train LLMs to emit
    compact reasoning traces ..., a procedure we call TraceTrim" -> "training LLMs to emit
    compact reasoning traces")."""
    at = plain.find(name)
    if at <= 0:
        return []
    m = _WE_DID_AS_NAME.search(plain[max(0, at - 420) : at])
    if not m:
        return []
    ger = _gerund(m.group(1) + "s")
    if not ger:
        return []
    what = _BY_MEANS.split(m.group(2), 1)[0]  # "... by rewarding answers ..." is how, not what
    return _describe(f"{ger} {what}", budget)


_BY_MEANS = re.compile(r"\s+(?:by|via|through)\s+(?=[a-z]+ing\b)")


def _spelled_out(candidate: str, acronym: str) -> str:
    """The words before "(ACRO)" that spell it: back to the cue, starting at a capital."""
    words = candidate.split()
    start = len(words)
    while start > 0 and words[start - 1].lower() not in _STOP_BEFORE_NAME:
        start -= 1
    run = words[start:]
    while run and not run[0][:1].isupper():
        run = run[1:]
    return " ".join(run) if run and run[0][:1].lower() == acronym[:1].lower() else ""


@dataclass(frozen=True)
class _Found:
    """A contribution phrase: its cue tier (0 propose, 1 study, 2 evaluate) and its words;
    ``analytic`` when it explains something (an account, a view, an explanation of ...): the word
    that joins it to the topic ("of", or "in" when it already says what it is of)."""

    tier: int
    words: list[str]
    analytic: str = ""  # "" or the word that joins it to its topic when it explains something


def _contribution(plain: str, budget: int, keep_article: bool = False) -> list[str]:
    """The object of the strongest "we propose / we study" cue (tiers 0 and 1), as words."""
    found = _find_contribution(plain, budget, max_tier=1)
    if found is None:
        return []
    if keep_article:
        return _article(found.words)
    return _LEADING.sub("", " ".join(found.words)).split()


def _find_contribution(plain: str, budget: int, max_tier: int = 2) -> _Found | None:
    """The object of the strongest contribution cue: "we propose" (tier 0) before "we study"
    (tier 1) before "we evaluate/extend" (tier 2, turned into a gerund), earliest first."""
    low: str | None = plain.lower()
    if len(plain) != len(low or "") or _OTHER_SPACE.search(plain):
        low = None
    found = _best_object(plain, low, budget, [c for c in _VERB_CUE if c[0] <= min(max_tier, 1)])
    if found is None and max_tier >= 2:  # evaluation verbs only when nothing is proposed or studied
        found = _best_object(plain, low, budget, [c for c in _VERB_CUE if c[0] == 2])
    return found


def _best_object(plain: str, low: str | None, budget: int, cues) -> _Found | None:
    best: tuple[int, int, list[str], str] | None = None
    tiers = [(tier, _finditer_at(cue, plain, low, _CUE_STARTS[tier])) for tier, cue in cues]
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
                    ger = _gerund(verb.group(1) + "s") if verb else None
                    if not ger or not verb:
                        continue
                    obj = f"{ger} {obj[verb.end():]}"
                    if re.match(r"[a-z]+\s+(?:these|this|those|such|it|them)\b", obj):
                        means = _BY_MEANS.search(obj)  # "to recover these abilities by distilling ..."
                        if not means:
                            continue
                        obj = obj[means.end() :]
                if tier == 2 and not _ARTEFACT_OBJECT.match(obj):
                    gerund = _GERUNDS.get(m.group("v").lower())
                words = _describe(obj, budget - (1 if gerund else 0))
                if words and words[0].lower() in {"the"}:
                    words = words[1:]
                words = _with_source(words, obj, budget)
                if gerund and words:
                    words = [gerund] + (words[1:] if words[0].lower() in {"a", "an", "the"} else words)
                    by = next((i for i, w in enumerate(words) if i > 2 and w in _MEANS and words[i + 1 :][:1] and words[i + 1].endswith("ing")), None)
                    words = _strip_dangling(words[:by]) if by else words  # "... by sampling ..." is how, not what
                elif len(words) <= 3:
                    words = _with_appositive(words, obj, budget)
                if len([w for w in words if w.lower() not in _NOT_CONTENT]) < (2 if resolved else 3):
                    continue
                if any(w.lower() in _ANAPHORA for w in words[:3]):
                    continue
                if not analytic and _head(words) in _ANALYTIC_HEADS:
                    analytic = "in" if any(w.lower() == "of" for w in words) else "of"
                best = (tier, offset, words, analytic)
                break
    if best is None:
        return None
    return _Found(best[0], best[2], best[3])


_DEICTIC_LITERAL = re.compile(r"\b(?:this|these|such)\b", re.IGNORECASE)
# "this target through the canonical predictive quotient" -> "the canonical predictive quotient"
_THIS_VIA = re.compile(r"^(?:this|these)\s+[\w-]+\s+(?:through|via|with|using|by|as)\s+(?=\S)", re.IGNORECASE)
# "a potential explanation of this phenomenon: evaluation meta-knowledge, ..." -> after the colon
_THIS_COLON = re.compile(r"^[^.;:]{0,80}?\b(?:of|for|behind|to)\s+(?:this|these|such)\s+[\w-]+(?:\s+[\w-]+)?\s*:\s*(?=\S)")
# "an account of this relationship" -> "an account of <the open question, or the topic>"
_OF_THIS = re.compile(r"\b(of|for|behind|to|on)\s+(?:this|these)\s+([a-z][\w-]*)\b")
_OPEN_QUESTION = re.compile(
    r"\b((?:how|whether|why|what)\s+[^,.;:]{5,100}?)\s+(?:remains?|is|are)\s+(?:(?:still|largely|poorly|not\s+well|an?|yet)\s+)*"
    r"(?:open|unclear|unknown|understood|unexplored|unanswered)\b"
    r"|\bit\s+(?:is|remains)\s+(?:still\s+|largely\s+)?(?:unclear|unknown|not\s+known)\s+((?:how|whether|why|what)\s+[^,.;:]{5,100})"
)
_RELATIVE = frozenset("that which where whose who whereby".split())
_PRONOUNS = frozenset("it its they them their this these those he she we our".split())
_CAUSE_HEADS = frozenset("cause causes mechanism mechanisms source sources origin origins driver drivers".split())
_ANALYTIC_HEADS = frozenset(
    """account accounts view views theory theories analysis analyses explanation explanations perspective
    perspectives characterization characterisation understanding investigation examination picture lens""".split()
)
_NOT_FOR_HEADS = _ANALYTIC_HEADS | _CAUSE_HEADS  # a phrase with such a head is of something, not for it


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
        return obj[m.end() :], "in" if _head(_words(m.group(0))) in _NOT_FOR_HEADS else "", True
    m = _OF_THIS.search(obj[:160])
    if m:
        question = _open_question(plain[:offset])
        if question:  # a question is a clause: what followed it may belong to either
            return f"{obj[: m.start()]}{m.group(1)} {question}", "", True
        topic = _topic(plain)
        if topic:
            return f"{obj[: m.start()]}{m.group(1)} {topic}{obj[m.end() :]}", "", True
    return obj, "", False


def _open_question(text: str) -> str | None:
    """"how model capacity shapes grokking remains an open question" -> "how model capacity
    shapes grokking" (the last such question before the contribution)."""
    if not any(w in text for w in ("open", "unclear", "unknown", "understood", "unexplored", "unanswered")):
        return None
    found = None
    for m in _OPEN_QUESTION.finditer(text):
        found = m.group(1) or m.group(2)
    if found is None:
        return None
    found = found.strip()
    if any(w.lower() in _PRONOUNS for w in found.split()) or len(found.split()) > 12:
        return None
    return found


_SOURCE_LITERAL = re.compile(r", (?:built|based|derived|drawn|collected|extracted|compiled|constructed|curated|mined) ")
_SOURCE = re.compile(
    r"^,\s*(?:built|based)\s+(on|upon|from)\s+"
    r"|^,\s*(?:derived|drawn|collected|extracted|compiled|constructed|curated|mined)\s+(from)\s+"
)


def _with_source(words: list[str], obj: str, budget: int) -> list[str]:
    """"a benchmark for X, built on 375 judgments of the Court" -> "... on judgments of the Court"."""
    if not words or not _SOURCE_LITERAL.search(obj, 0, _MAX_CHARS):
        return words
    text = _PAREN.sub("", obj[:_MAX_CHARS])
    head = _clause(text)
    m = _SOURCE.match(text[len(head) :])
    if not m:
        return words
    prep = "on" if m.group(1) in {"on", "upon"} else "from"
    rest: list[str] = []
    for w in _words(text[len(head) + m.end() :]):
        low = w.lower().strip(",;:.")
        if not rest and re.fullmatch(r"[\d,.]+", low):
            continue  # "375 judgments" -> "judgments"
        if low.endswith("ing") or low in _CUT_CLAUSE or len(rest) >= 9:
            break
        rest.append(w.rstrip(",;:."))
        if w[-1:] in ",;:.":
            break
    rest = _strip_dangling(rest)
    if len(rest) < 2 or len(words) + 1 + len(rest) > budget:
        return words
    return words + [prep] + rest


_MEANS = frozenset("by via through".split())
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
        return _fit(_words(named.group(1).lower()), budget)
    text = _PAREN.sub("", obj[:_MAX_CHARS])
    head = _clause(text)
    m = _APPOSITIVE_OF.match(text, len(head))
    if not m or any(w.lower() in _CUT_ANY or w.lower() in _RELATIVE for w in _words(m.group(1))):
        return words
    if not words or _words(m.group(1))[-1:] != [words[-1].lower()]:
        return words  # "competition, the tendency of ..." says what it does, not what it is of
    rest = _describe(text[m.end() :], 6)
    if len(rest) < 2 or len(words) + 1 + len(rest) > budget:
        return words
    return words + [m.group(2)] + rest


def _head(words: list[str]) -> str:
    """The head noun of a phrase: its last word before the first preposition or clause word."""
    head = ""
    for w in words:
        low = w.lower().strip(",;:")
        if low in _CUT_ANY or low in {"and", "or"}:
            break
        head = low
    return head


# The subject of the first sentence, read as the paper's topic.
_TOPIC_NP = re.compile(
    r"^(?:(?:[Tt]he|[Aa]n?)\s+)?(?P<np>(?:[A-Za-z][\w'\u2019-]*\s+){0,5}?[a-z][\w-]*)(?:\s+\([^()]*\))?\s+"
    r"(?P<verb>has|have|is|are|was|were|aims?|remains?|involves?|relies|rely|seeks?|offers?|enables?|promises?|raises?"
    r"|faces?|requires?|suffers?|can|often|typically|increasingly|usually|commonly|provides?|arises?|explains?|asks?"
    r"|depends?|struggles?|lacks?|plays?|dominates?|underpins?|allows?|must|tends?|continues?|attracts?|focus(?:es)?)\b"
)
_USED_AS = re.compile(r"\s+(?:(?:increasingly|widely|commonly|often|now|being)\s+)*used\s+as\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})\b")
_RELATIONAL = re.compile(
    r"^(?:(?:existing|prior|current|recent|standard|classical|central|main|key|the|a|an)\s+)*"
    r"(?:accounts?|explanations?|theories|validity|reliability|success|goal|understanding|study|studies|analysis|analyses)"
    r"\s+of\s+(?P<x>.+)$",
    re.IGNORECASE,
)
_NOT_TOPIC_START = frozenset(
    """we our it its this these there here however in to for since while although despite when as because
    which that with given most many some several recent existing current prior such each their they one
    unlike though whereas""".split()
)
_NOT_IN_TOPIC = frozenset("that which who is are was were be has have can will not but we our it".split())
_SUBORDINATE = frozenset("since while although though as because despite given with when whereas unlike".split())
_TERM = re.compile(
    r"\bwe\s+(?:term|call|refer\s+to\s+as|dub)\s+(?!(?:it|this|them|these|that|the|a|an)\b)"
    r"([a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})(?=\s*[,.;:)]|$)"
)


@lru_cache(maxsize=16)
def _topic(plain: str) -> str | None:
    """What the paper is about: a term it coins ("a process we term model incrimination"), else
    the subject of the first sentence ("Knowledge editing has emerged ...", "Existing accounts of
    grokking explain ..." -> "grokking", "Since ..., evaluating X is critical" -> "evaluating X")."""
    if "we term" in plain or "we call" in plain or "refer to as" in plain or "we dub" in plain:
        m = _TERM.search(plain)
        if m:
            return m.group(1)
    sents = split_sentences(plain)
    if not sents:
        return None
    first = sents[0][1]
    segments = [first]
    if first.split(" ", 1)[0].lower().strip(",") in _SUBORDINATE:
        segments = first.split(", ")[1:]  # the main clause after "Since ..., "
    for seg in segments:
        topic = _topic_of(seg)
        if topic:
            return topic
    return None


def _topic_of(segment: str) -> str | None:
    m = _TOPIC_NP.match(segment)
    if not m:
        return None
    np = m.group("np")
    if " such as " in f" {np} ":
        np = f" {np} ".split(" such as ")[0].strip()
    rel = _RELATIONAL.match(np)
    if rel:
        np = rel.group("x")
    words = np.split()
    if not words or len(words) > 6 or words[0].lower() in _NOT_TOPIC_START:
        return None
    if any(w.lower() in _NOT_IN_TOPIC for w in words):
        return None
    if m.group("verb") in {"is", "are"}:
        used = _USED_AS.match(segment, m.end())
        if used and used.group(1).split()[-1] not in DANGLING:
            np = f"{np} as {used.group(1)}"
    first = np.split(" ", 1)[0]
    if re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)*", first) and first.lower() not in proper_words():
        np = np[:1].lower() + np[1:]
    return np


def _with_topic(found: _Found, plain: str) -> list[str]:
    """Pair a contribution with the paper's topic ("... method for knowledge editing", "view of
    collapse in recursive training"), cutting a relative clause off a long one to make room."""
    words = found.words
    if found.tier == 2:
        return words
    limit = 11 if found.tier == 0 else 8
    cut = next((i for i, w in enumerate(words) if i >= 2 and w.lower() in _RELATIVE), None)
    if cut is not None:  # "a scheme that restricts ... for T" would read as if T were its object
        words = _strip_dangling(words[:cut])
        if len([w for w in words if w.lower() not in _NOT_CONTENT]) < 2:
            return found.words
    if len(words) > limit:
        return found.words
    if " for " in f" {' '.join(words).lower()} ":
        return found.words
    topic = _topic(plain)
    if not topic or _says_the_reverse(words, topic.split(), plain):
        return found.words
    content = {w.lower() for w in re.findall(r"[\w-]{4,}", topic)}
    if content & {w.lower().strip(",") for w in words} or len(words) + 1 + len(topic.split()) > MAX_WORDS:
        return found.words
    # "an account of X", "a view of collapse in X", "a method for X"
    return words + [found.analytic or "for"] + topic.split()


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


_FINDING = re.compile(r"^(?:[Ww]e|[Hh]ere,? we|[Tt]his (?:paper|work|study))\s+(?:(?:first|also|further|then)\s+)?(?:find|show|demonstrate|observe|argue|report|prove|shows|demonstrates|argues|reports)\s+that\b\s*")
_SUBCLAUSE = re.compile(r"\s+(?:when|because|since|unless|although|whereas|while|if)\s+.*$")


_WE_DO = re.compile(r"^(?:[Ww]e|[Tt]his (?:paper|work|study)|[Oo]ur (?:paper|work))\s+([a-z]{3,})\s+(?!that\b)(?=\S)")


def _fallback(plain: str, budget: int) -> list[str]:
    """The first sentence; a finding ("We find that X ...") is given as X, up to its first
    subordinate clause."""
    sents = split_sentences(plain)
    first = sents[0][1] if sents else plain
    said = _WE_DO.match(first)
    if said:  # "This paper formulates X as Y" -> "Formulating X as Y"
        verb = said.group(1).lower()
        ger = _gerund(verb if verb.endswith("s") else verb + "s")
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
            words = _words(_clause(_PAREN.sub("", first)))
            relative = next((i for i, w in enumerate(words) if i >= 3 and w.lower() in _RELATIVE), None)
            if len(words) > budget and relative:  # "X implement ridge regression | whose strength ..."
                first = " ".join(words[:relative])
            break
    words = _fit(_words(_clause(_PAREN.sub("", first)) or first), budget)
    if not words:
        words = _fit(_words(first), budget)
    return _before_finite_verb(words)


def _before_finite_verb(words: list[str]) -> list[str]:
    """The words before the first finite verb ("Video prediction --- forecasting future video
    ---has attracted attention" -> its subject), when at least two words come before it."""
    for i, w in enumerate(words):
        for m in _LETTERS.finditer(w):
            if m.group().lower() in _FINITE:
                head = w[: m.start()].rstrip("-–—,;: ")
                kept = _strip_dangling(words[:i] + ([head] if head else []))
                return kept if len(kept) >= 2 else words
    return words


def make_title(raw: str, plain: str, name: str | None) -> str:
    """A readable generated title (see the module docstring for the rules)."""
    text = plain or ""
    if name:
        name = _clean(name)
    title = _as_gerund(_by_expected_rouge(rule_made_title(text, name), text, name), name)
    return _terms_in_lowercase(_relative_as_purpose(_acronym_said_once(title, name)), name)


# A run of two or more Capitalised words (minor words between them): "Large Language Models",
# "Memory and Computation", "Channel State Information"
_CAP_WORD = r"[A-Z][a-z]+(?:-(?:[A-Z][a-z]+|[a-z]+))*"  # "Model", "Zero-Shot", "Model-based"
_CAPITALISED_RUN = re.compile(
    rf"(?<![\w-]){_CAP_WORD}(?:\s+(?:(?:and|of|for|the|in|on|with|to)\s+)?{_CAP_WORD})*(?![\w-])"
)
#: A word at least this many training abstracts use (the title-word model's document counts)
#: is a common word: a run of such words is a term, written in lowercase in a sentence-case title.
COMMON_DF = 50


def _terms_in_lowercase(title: str, name: str | None) -> str:
    """Terms the abstract wrote in Title Case (mostly to spell out an acronym: "Large Language
    Models (LLMs)", "Channel State Information (CSI)") as a sentence-case title writes them:
    "... for large language models". Only a run of common words none of which is a proper word
    (learned: "Segment Anything", "Hugging Face" and "Riichi Mahjong" stay); a run that starts
    a title without a name keeps its first capital (after "Name: " the title goes on in lowercase)."""
    lead = _name_lead(title, name)
    body = title[len(lead) :]
    if not _CAPITALISED_RUN.search(body):
        return title
    proper, common = proper_words(), _common_words()

    def lower(m: re.Match) -> str:
        capitalised = [p for p in re.split(r"[\s-]+", m.group()) if p[:1].isupper()]
        if len(capitalised) < 2 or any((p := c.lower()) in proper or common.get(p, 0) < COMMON_DF for c in capitalised):
            return m.group()
        low = m.group().lower()
        return m.group()[0] + low[1:] if m.start() == 0 and not lead else low

    return lead + _CAPITALISED_RUN.sub(lower, body)


_ACRONYM = re.compile(r"(?<![\w-])(?=(?:[a-z0-9]*[A-Z]){2})[A-Za-z0-9]{2,8}(?![\w-])")


def _spelled_out_span(acronym: str, words: list[str]) -> tuple[int, int] | None:
    """The first run of ``words`` whose initials (hyphenated parts each, function words
    skipped) spell ``acronym``'s capitals: (start, end) or None."""
    letters = "".join(ch for ch in acronym if ch.isupper()).lower()
    for i, first in enumerate(words):
        if first.lower() in MINOR_WORDS:
            continue
        got = ""
        for j in range(i, len(words)):
            w = words[j].lower()
            if w not in MINOR_WORDS:
                got += "".join(part[0] for part in w.split("-") if part)
            if got == letters:
                return i, j + 1
            if not letters.startswith(got):
                break
    return None


def _acronym_said_once(title: str, name: str | None) -> str:
    """"SSL methods for semi-supervised learning" says one thing twice (85 of 3,000 generated dev
    titles did): the acronym is replaced by the words after "for" that spell it out, and "for
    ..." goes ("Semi-supervised learning methods"); when the part after "for" uses an acronym
    the part before spells out ("language model evaluation for effectiveness of LMs"), "for
    ..." goes. Kept as it is when what is left would be three words or fewer."""
    lead = _name_lead(title, name)
    body = title[len(lead) :]
    left, sep, right = body.partition(" for ")
    if not sep or " for " in right:
        return title
    left_words, right_words = left.split(), right.split()
    for k, word in enumerate(left_words):
        if _ACRONYM.fullmatch(word):
            span = _spelled_out_span(word, right_words)
            if span:
                spelled = right_words[span[0] : span[1]]
                last = spelled[-1]
                plural = word.endswith("s") and word[-2:-1].isupper()
                if plural and not last.endswith("s"):
                    spelled[-1] = last + "s"
                elif not plural and last.endswith("s") and not last.endswith(("ss", "is", "us")):
                    spelled[-1] = last[:-1]
                new = left_words[:k] + spelled + left_words[k + 1 :]
                if len(new) <= 3:
                    return title
                text = " ".join(new)
                return lead + (text[:1].upper() + text[1:] if not lead else text)
    for word in right_words:
        if _ACRONYM.fullmatch(word) and _spelled_out_span(word, left_words) and len(left_words) > 3:
            return lead + left
    return title


_RELATIVE_VERB = re.compile(r"\s(?:that|which)\s+(?:([a-z]+ly)\s+)?([a-z]+)(?=\s)")


def _relative_as_purpose(title: str) -> str:
    """"a framework that generates 3D assets from videos" -> "a framework for generating 3D
    assets from videos": a relative clause (58 of 3,000 generated dev titles had one, 6 of the real
    ones) as the "for" + gerund real titles use. Left alone: a title already saying "for" before
    it, a verb the phrase model does not know as one, and "that aims to ..."."""
    m = _RELATIVE_VERB.search(title)
    if not m or re.search(r"\s(?:for|to)\s", title[: m.start() + 1]) or title[m.end() :].startswith(" to "):
        return title
    from .phrases import _verbs

    verbs = _verbs()

    def ing(verb: str) -> str | None:
        if len(verb) < 4 or verb in DANGLING:
            return None  # "that the ...": the phrase model's verbs came from "to X", so "thes" is one
        if verb in verbs:
            return _gerund(verb)
        third = next((f for f in (verb + "s", verb + "es") if f in verbs), None)
        return _gerund(third) if third else None

    adverb, first = m.group(1), ing(m.group(2))
    if not first:
        return title
    # a second verb joined by "and" follows suit ("performs matching and enables grounding")
    rest = re.sub(r"(?<=\sand\s)([a-z]+)(?=\s)", lambda v: ing(v.group(1)) or v.group(1), title[m.end() :], count=1)
    return f"{title[: m.start()]} for {adverb + ' ' if adverb else ''}{first}{rest}"


def _as_gerund(title: str, name: str | None) -> str:
    """The title with a leading plain verb (after "Name: " when named) in the -ing form real
    titles start with ("Solve SDPs in polynomial time" -> "Solving SDPs in polynomial time")."""
    lead = _name_lead(title, name)
    first, space, rest = title[len(lead) :].partition(" ")
    ing = gerund_starts().get(first.lower()) if first.isalpha() and space else None
    if not ing:
        return title
    return f"{lead}{ing.capitalize() if first[0].isupper() else ing} {rest}"


def title_for_tags(plain: str, name: str | None) -> str:
    """The title the tagger weighs (the rule-made one, so the learned choice of a title phrase
    leaves the tags as they were; computed once with :func:`make_title`)."""
    return rule_made_title(plain or "", _clean(name) if name else None)


@lru_cache(maxsize=4)
def rule_made_title(text: str, name: str | None) -> str:
    """The title the rules make (before the choice by expected ROUGE); ``name`` cleaned."""
    title = _rule_title(text, name)
    title = _repair(title, text, name) or title or FALLBACK_TITLE
    if name and title.startswith(f"{name}: "):
        desc = title[len(name) + 2 :].split()
        joined = _phrase_with_topic(desc, text, MAX_WORDS - len(name.split()) - 1)
        if joined is not desc and name.lower() not in " ".join(joined[len(desc):]).lower():
            title = _finish(f"{name}: {' '.join(joined)}") or title
    return title


# A finite verb makes a title a clause ("X is crucial for ..."); as the evaluator counts them.
_FINITE = frozenset("is are was were can has have does do will may might could should would".split())
_LETTERS = re.compile(r"[A-Za-z]+")
_BAD_START = re.compile(r"^(?:this|these|we|our|in this)\b", re.IGNORECASE)
# Verbs of abstracts' sentences that make a phrase a clause when it runs on into them
# ("theories of double descent explain"); a question clause ("How X shapes Y") may have them.
_CLAUSE_VERBS = frozenset(
    """remains remain depends depend explains explain involves involve enables enable relies rely arises
    arise requires require suffers suffer shows aims promises offers leads yields""".split()
)
_QUESTION_WORDS = frozenset("how why whether what which when".split())


def _defects(body: str, plain: str, named: bool) -> bool:
    """Is this title (or the part after "Name: ") not a noun phrase a person would write?"""
    words = body.split()
    if not words:
        return True
    if not _FINITE.isdisjoint(map(str.lower, _LETTERS.findall(body))):
        return True
    if _BAD_START.match(body) or "http" in body or "www." in body:
        return True
    if not named and len(words) <= 3:
        return True
    return not named and len(words) >= 5 and _first_five_tokens(body) == _first_five_tokens(plain)



_RULE_MARGIN = 0.1  # a rule-made title keeps its place unless a phrase scores clearly better


def _repair(title: str, plain: str, name: str | None) -> str:
    """The better of the rule-made title and the abstract's best noun phrase
    (:mod:`readinglist.phrases`, scored by the learned phrase model), led by the name when there
    is one; a rule-made title that is a clause, a background sentence, a fragment or too short
    always gives way to the phrase."""
    from .phrases import best_phrase, score_words

    named = bool(name) and (title == name or title.startswith(f"{name}: "))
    body = title[len(name or "") + 2 :] if named and title != name else ("" if named else title)
    budget = MAX_WORDS - (len(_words(name or "")) if named else 0)
    opening = _first_five_tokens(plain)

    name_words = {w for w in _ALNUM.findall((name or "").lower()) if len(w) > 2} if named else set()

    def unfit(words: list[str]) -> bool:
        low = _ALNUM.findall(" ".join(words).lower())
        if name_words & set(low):  # "MetaTeacher: a MetaTeacher framework" says the name twice
            return True
        return len(words) >= 4 and tuple(low[:5]) == opening

    min_words = max(2, 4 - len(_words(name))) if named and name else 4
    phrase = best_phrase(plain, min(budget, 11), avoid=name or "", reject=unfit, min_words=min_words) if budget > 1 else []
    if named and phrase and name:
        phrase = [w for w in phrase if w.lower() != name.lower()]
    phrase = _strip_dangling(_before_finite_verb(phrase))
    if len(phrase) < 2:
        return title
    body_ok = bool(body) and not _defects(body, plain, named) and len(title.split()) > 3
    if named and name and name.lower() in body.lower():
        body_ok = False  # "GTP: generative trajectory planning" is fine, the name twice is not
    if named and name and contradicts(_head(phrase), name_kind(plain, name)):
        return title  # the phrase would call the named thing a kind it is not
    if body_ok and score_words(body.split(), plain) + _RULE_MARGIN >= score_words(phrase, plain):
        return title
    if not named:
        phrase = _phrase_with_topic(phrase, plain)
    text = _sentence_case(" ".join(phrase), plain)
    repaired = _finish(f"{name}: {text}" if named else _capitalise(text))
    return repaired or title


def _phrase_with_topic(phrase: list[str], plain: str, budget: int = MAX_WORDS - 3) -> list[str]:
    """A short phrase that does not say the paper's topic gets it ("a three-part solution to
    extrapolation errors" + "for deep offline reinforcement learning")."""
    if len(phrase) > TOPIC_JOIN_MAX or " for " in f" {' '.join(phrase).lower()} ":
        return phrase
    topic = _topic(plain)
    if not topic:
        return phrase
    topic_words, content, initials = _topic_parts(topic)
    if len(topic_words) < 2:
        return phrase  # "researchers", "robustness": too little to say what the paper is about
    said = {w.lower().strip(",;:") for w in phrase}
    said |= {part for w in said if "-" in w for part in w.split("-")}
    if content & said or not initials.isdisjoint(said) or len(phrase) + 1 + len(topic_words) > budget:
        return phrase  # the phrase says the topic already ("... of LLMs" and "large language models")
    if _says_the_reverse(phrase, topic_words, plain):
        return phrase
    return phrase + ["for"] + topic_words


_FOR_SPLIT = re.compile(r"\bfor\b")
#: A word of "<purpose>" in fewer than this many of the 30,000 training abstracts (the title-word
#: model's document counts) shows that the abstract says "<purpose> ... for <made>": "model",
#: "learning", "data" (in 10,000-20,000 of them) precede any "for".
REVERSE_MAX_DF = 3000
_CONTENT_TOKEN = re.compile(r"[a-z][a-z0-9]{3,}")


@lru_cache(maxsize=4)
def _for_relations(plain: str) -> tuple[tuple[tuple[frozenset[str], frozenset[str]], ...], frozenset[str]]:
    """(the content words up to six before, up to three after) of every "for" of the abstract,
    within its sentence: the "X for Y" relations the abstract itself states; and every word
    that comes after one."""
    out = []
    for _o, sent in split_sentences(plain):
        low = sent.lower()
        for m in _FOR_SPLIT.finditer(low):
            before = _CONTENT_TOKEN.findall(low[max(0, m.start() - 80) : m.start()])[-6:]
            after = _CONTENT_TOKEN.findall(low[m.end() : m.end() + 50])[:3]
            out.append((frozenset(before), frozenset(after)))
    return tuple(out), frozenset(w for _b, after in out for w in after)


def _befores_of(made: list[str], plain: str) -> tuple[frozenset[str], ...]:
    """The words before each "for" of the abstract that ``made``'s head noun follows (and does
    not also precede)."""
    relations, after_any = _for_relations(plain)
    made_head = _head(made)
    if not made_head:
        return ()
    forms = {made_head, made_head[:-1] if made_head.endswith("s") else made_head + "s"}
    if forms.isdisjoint(after_any):
        return ()  # the quick answer for nearly every phrase
    return tuple(before for before, after in relations if not forms.isdisjoint(after) and forms.isdisjoint(before))


def _precedes_a_for(purpose: list[str], befores: tuple[frozenset[str], ...]) -> bool:
    """Does a rare word of ``purpose`` come before one of those "for"s?"""
    if not befores:
        return False
    df = _common_words()
    words = {w for x in purpose for w in _CONTENT_TOKEN.findall(x.lower()) if df.get(w, 0) < REVERSE_MAX_DF}
    return any(not words.isdisjoint(before) for before in befores)


def _says_the_reverse(made: list[str], purpose: list[str], plain: str) -> bool:
    """Does the abstract say "<purpose> ... for <made>" ("merging-inspired aggregation is an
    effective strategy for low-communication distributed training"), so that "<made> for
    <purpose>" ("distributed training for model merging techniques") joins them the wrong way?"""
    return _precedes_a_for(purpose, _befores_of(made, plain))


_TOPIC_WORD = re.compile(r"[\w-]{4,}")


@lru_cache(maxsize=16)
def _topic_parts(topic: str) -> tuple[list[str], frozenset[str], frozenset[str]]:
    """(the topic's words, its lowercase words of four characters or more, its initials and
    their plural): what :func:`_phrase_with_topic` checks a phrase against, once per topic (the
    words are copied into each joined phrase, never changed)."""
    topic_words = topic.split()
    initials = "".join(w[:1] for w in topic_words if w.lower() not in DANGLING).lower()
    return topic_words, frozenset(w.lower() for w in _TOPIC_WORD.findall(topic)), frozenset((initials, initials + "s"))


TOPIC_JOIN_MAX = 11
# The choice by expected ROUGE (see _by_expected_rouge); the numbers were set on train rows
# 50,000-51,499 (not used to learn any weight), then checked on dev.jsonl.
CHOICE_PHRASES = 5  # the abstract's phrases (by expected ROUGE alone) weighed alone and joined to the topic
PAIR_PHRASES = 8  # the best phrases, and the best of the opening sentences, weighed as "<phrase> for <opening phrase>"
OPENING_SENTENCES = 2  # where the task or domain is said
PAIR_MAX = 13  # words of such a pair at most
# The choice weighs the probability that a title does no worse than the abstract's opening words
# (as a summary of the paper: the real title's words) plus CHOICE_WEIGHT times its expected
# ROUGE-1; set on train rows 40,000-42,999 (not used to learn any weight), then checked on rows
# 50,000-51,499 and dev.jsonl
CHOICE_WEIGHT = 2.0
# added to the title made so far: its words are a feature of the word model, which estimates
# that title a little high (a phrase scoring up to 0.02 below it still replaces it)
CHOICE_MARGIN = -0.02
_PARTICIPLE_END = re.compile(r"^[a-z]{3,}[^e]ed$")  # "inspired", "trained": a phrase cut before its object
_WORD_TOKENS: dict[str, list[str]] = {}  # a word of a phrase -> its ROUGE tokens, kept between abstracts


def _by_expected_rouge(title: str, plain: str, name: str | None) -> str:
    """The title made so far, or the candidate that best says more than the abstract's opening:
    the highest probability of sharing no fewer of the real title's words than the abstract's
    first ten words (:func:`_not_worse`) plus ``CHOICE_WEIGHT`` times the expected ROUGE-1 F1,
    both from :mod:`readinglist.convert.title_words` (learned per-word probabilities that the
    title uses a word; with no content word in the opening, the first candidate expected to
    score above the title made so far). The candidates, led by the name when there is
    one: the abstract's noun phrases (:mod:`readinglist.convert.phrases`), each also joined to
    the topic when it does not say it, and "<phrase> for <phrase of the first two sentences>"
    (what was made, for the task or domain the abstract opens with: real titles name it far
    more often than the contribution sentence does). A candidate must pass the form checks: no
    finite verb, no This/We/Our start, not the opening words, more than three words (three
    after the name), the name not repeated, not ending on a participle."""
    from .phrases import ranked_phrases
    from .title_words import load_model, tokens, word_probabilities

    probs = word_probabilities(plain, name, title)
    if not probs:
        return title
    length = load_model().get("title_length", 8.0)
    named = bool(name) and title.startswith(f"{name}: ")
    budget = MAX_WORDS - (len(_words(name or "")) if named else 0)
    if budget < 3 or (name and not named):
        return title  # a title that is the name alone keeps it
    prefix = tokens(name or "") if named else []
    cache = _WORD_TOKENS
    if len(cache) > 200_000:
        cache.clear()
    get = probs.get
    # sums are taken over distinct tokens in the order they come (never a set's order, which
    # changes from run to run: two candidates of equal score must always tie the same way)
    prefix_set = set(prefix)
    base_hits = sum([get(t, 0.0) for t in dict.fromkeys(prefix)])
    base_len = len(prefix) + length

    def info(words: list[str]) -> tuple[float, dict[str, None], int]:
        """(expected ROUGE-1, the new distinct tokens in order, the token count) of prefix + words."""
        toks: list[str] = []
        for w in words:
            got = cache.get(w)
            if got is None:
                got = cache[w] = tokens(w)
            toks += got
        new = dict.fromkeys([t for t in toks if t not in prefix_set] if prefix_set else toks)
        hits = sum(map(get, new, repeat(0.0)))
        return 2.0 * (base_hits + hits) / (base_len + len(toks)) if toks or prefix else 0.0, new, len(toks)

    title_tokens = tokens(title)
    current = 0.0
    if title_tokens:
        current = 2.0 * sum([get(t, 0.0) for t in dict.fromkeys(title_tokens)]) / (len(title_tokens) + length) + CHOICE_MARGIN
    every = sorted(((info(words), words, s_idx) for _s, words, s_idx in ranked_phrases(plain, min(budget, 11))),
                   key=lambda isw: -isw[0][0])
    options: list[tuple[float, dict[str, None], int, list[str], list[str] | None]] = []
    for e, phrase, _i in every[:CHOICE_PHRASES]:
        words = _strip_dangling(phrase)
        if len(words) < 2:
            continue
        options.append((*(e if words is phrase else info(words)), words, None))  # the phrase itself when nothing dangled
        joined = _phrase_with_topic(words, plain, budget) if _head(words) not in _NOT_FOR_HEADS else words
        if joined is not words:
            options.append((*info(joined), joined, None))
    heads = [(w, e, i) for e, w, i in every if i > 0 and len(w) >= 2][:PAIR_PHRASES]
    tails = []
    for e, w, i in every:
        if i < OPENING_SENTENCES and len(w) >= 2 and "for" not in w:
            low = [x.lower() for x in w]
            letters = "".join(x[:1] for x in low if x not in DANGLING)
            tails.append((w, e[1], e[2], _stems(low), i, {letters, letters + "s"}, len(w)))
            if len(tails) == PAIR_PHRASES:
                break
    pair_max = min(budget, PAIR_MAX) - 1
    for a, (_ea, toks_a, n_a), a_sentence in heads if tails else ():
        if " for " in f" {' '.join(a).lower()} " or _PARTICIPLE_END.search(a[-1]) or _head(a) in _NOT_FOR_HEADS:
            continue  # "a causal account" is of something, not for it
        said = _stems(x.lower() for x in a)  # "transformers" and "transformer models", "real world" and "real-world" say it twice
        initials = "".join(x[:1] for x in a).lower()
        a_initials = {initials, initials + "s"}
        room = pair_max - len(a)
        a_befores = _befores_of(a, plain)  # "for"s that a follows: b before one says the reverse
        for b, toks_b, n_b, b_low, b_sentence, b_initials, b_len in tails:
            # what was made (said later) comes first, what the abstract opens with after "for";
            # "recurrent neural networks for stable RNNs" says it twice
            if (b_sentence >= a_sentence or b_len > room or not said.isdisjoint(b_low)
                    or not b_initials.isdisjoint(said) or not a_initials.isdisjoint(b_low)
                    or _precedes_a_for(b, a_befores)):
                continue
            both = {**toks_a, **toks_b}
            hits = sum(map(get, both, repeat(0.0)))
            options.append((2.0 * (base_hits + hits) / (base_len + n_a + n_b), both, n_a + n_b, a, b))
    options.sort(key=lambda option: -option[0])
    opening = _opening_words(plain)
    if opening is None:  # nothing to weigh against: the first candidate scoring above the title made so far
        for score, made in _passing(((o[0], _option_words(o[3], o[4])) for o in options), plain, name, named):
            return made if score > current else title
        return title
    # the title made so far or the candidate (that passes the form checks) with the highest
    # probability of sharing no fewer of the real title's words than the abstract's opening
    # words do, plus CHOICE_WEIGHT times its expected ROUGE-1
    baseline = _Opening(opening, get, length)
    best = _not_worse(dict.fromkeys(title_tokens), len(title_tokens), baseline) + CHOICE_WEIGHT * current
    chosen = title
    if _for_a_verb(_ALNUM.findall(title.lower())) or _ends_badly(title):
        best = -1.0  # "models for explain rules", "... for covering large": any candidate that passes is better
    head = _first_tokens(plain)
    for score, new, count, words, tail in options:
        if 1.0 + CHOICE_WEIGHT * score <= best:
            break  # a probability is at most 1: neither this option nor any after it can win
        # (-inf when an upper bound of the probability shows it cannot beat the best so far)
        value = _not_worse({**dict.fromkeys(prefix), **new}, len(prefix) + count, baseline, best - CHOICE_WEIGHT * score) + CHOICE_WEIGHT * score
        if value > best:
            made = _form_checked(_option_words(words, tail), plain, name, named, head)
            if made:
                best, chosen = value, made
    return chosen


_TITLE_WORD = re.compile(r"[a-z0-9][a-z0-9'\-]*")


def words_of_title(title: str) -> list[str]:
    """A title's words as :mod:`readinglist.convert.train_title_forms` counts them: lowercase,
    hyphenated words whole ("end-to-end")."""
    return _TITLE_WORD.findall(title.lower())


@lru_cache(maxsize=1)
def _forms() -> dict:
    from .models import DATA, read_model

    return read_model(DATA / "title_forms.json")


@lru_cache(maxsize=1)
def not_final() -> frozenset[str]:
    """The words real titles almost never end on (learned: ``data/title_forms.json``)."""
    return frozenset(_forms().get("not_final", ()))


@lru_cache(maxsize=1)
def proper_words() -> frozenset[str]:
    """Words abstracts write with a capital inside a sentence ("gaussian", "bayesian", "kurdish";
    lowercase here; learned: ``data/title_forms.json``): sentence case keeps their capital."""
    return frozenset(_forms().get("proper", ()))


def gerund_starts() -> dict[str, str]:
    """Plain verbs whose -ing form starts real titles far more often ("solve" -> "solving";
    learned: ``data/title_forms.json``)."""
    return _forms().get("gerund_start", {})


def _ends_badly(title: str) -> bool:
    """Does the title end on a word real titles almost never end on: a modifier without its
    head ("... for covering large", "... from large-scale") or a word cut from its clause?"""
    words = _TITLE_WORD.findall(title[-40:].lower())
    return bool(words) and words[-1] in not_final()


def _option_words(words: list[str], tail: list[str] | None) -> list[str]:
    """A candidate's words: a phrase, or ``words`` "for" ``tail``."""
    return words if tail is None else words + ["for"] + tail


def _for_a_verb(low: list[str]) -> bool:
    """Does the title put a verb's plain form where a noun belongs: after "for" ("for minimize
    regret"), or at the end after a plural noun ("models excel", "data represent") or "to" (a
    clause or a purpose cut off)? A verb: a word whose -s form the phrase model learned as a verb
    (:func:`readinglist.convert.phrases._verbs`)."""
    from .phrases import _verbs

    verbs = _verbs()

    def plain_verb(w: str) -> bool:
        return w.isalpha() and len(w) > 3 and not w.endswith(("ing", "ly", "s")) and (w + "s" in verbs or w + "es" in verbs)

    if len(low) >= 2 and plain_verb(low[-1]):
        before = low[-2]
        if before in ("to", "data") or (len(before) > 3 and before.endswith("s") and not before.endswith(("ss", "is", "us"))):
            return True
    return any(low[i] == "for" and plain_verb(low[i + 1]) for i in range(len(low) - 1))


def _stems(words: Iterable[str]) -> set[str]:
    """The words, their hyphenated parts, and each without a plural -s ("transformers" says
    "transformer", "real-world" says "world")."""
    out: set[str] = set()
    cache = _WORD_STEMS
    if len(cache) > 200_000:
        cache.clear()
    for w in words:
        got = cache.get(w)
        if got is None:
            got = cache[w] = _word_stems(w)
        out.update(got)
    return out


_WORD_STEMS: dict[str, tuple[str, ...]] = {}  # a word -> what it says (see _stems), kept between abstracts


def _word_stems(w: str) -> tuple[str, ...]:
    out: list[str] = []
    for part in [w, *w.split("-")] if "-" in w else [w]:
        if part:
            out.append(part)
            if len(part) > 3 and part.endswith("s") and not part.endswith("ss"):
                out.append(part[:-1])
    return tuple(out)


_FIRST_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(\[])")


def _opening_words(plain: str) -> list[str] | None:
    """The content tokens of the abstract's first ten words (of its first sentence), the
    baseline a title must beat: None when they have none."""
    from .title_words import tokens

    m = _FIRST_SENTENCE.search(plain)
    first = plain[: m.start()] if m else plain
    return tokens(" ".join(first.split()[:10])) or None


def _count_distribution(probs: list[float]) -> list[float]:
    """P(k of these independent events happen), k = 0..len(probs) (a Poisson binomial)."""
    dist = [1.0]
    for p in probs:
        q = 1.0 - p
        dist = [x * q + y * p for x, y in zip(dist + [0.0], [0.0] + dist)]
    return dist


class _Opening:
    """The abstract's opening tokens as the baseline a candidate title must not do worse than
    (see :func:`_not_worse`), with what depends only on which of them a candidate shares."""

    __slots__ = ("tokens", "size", "get", "length", "_by_shared")

    def __init__(self, tokens: list[str], get, length: float) -> None:
        self.tokens = dict.fromkeys(tokens)
        self.size = len(tokens)
        self.get = get
        self.length = length
        self._by_shared: dict[tuple[str, ...], tuple[list[float], list[float]]] = {}

    def split(self, shared: tuple[str, ...]) -> tuple[list[float], list[float]]:
        """(the distribution of how many of ``shared`` the real title uses, P(fewer than k of the
        opening's other tokens) for k = 0..their number + 1)."""
        got = self._by_shared.get(shared)
        if got is None:
            get = self.get
            other = _count_distribution([get(t, 0.0) for t in self.tokens if t not in shared])
            below = [0.0]
            for d in other:
                below.append(below[-1] + d)
            got = self._by_shared[shared] = (_count_distribution([get(t, 0.0) for t in shared]), below)
        return got


def _not_worse(mine: dict[str, None], size: int, opening: _Opening, need: float | None = None) -> float:
    """The probability that a candidate title (its distinct tokens ``mine``, ``size`` tokens in
    all) scores no lower ROUGE-1 against the real title than the abstract's opening tokens do,
    each word of the abstract in the real title independently with its probability and the
    real title of the expected length: with c, s and o the counts of the candidate's own, the
    shared and the opening's own words in the real title,
    (c + s) / (size + length) >= (o + s) / (opening size + length).

    Given ``need``, -inf when that probability cannot exceed ``need``: it is at most 1 minus
    P(c = 0 and o >= 1), and P(s = 0) times that when the candidate is the shorter (then s > 0
    may make up for o); an upper bound in O(words), checked (with a margin far above rounding)
    before the exact sum, which is then the same as without ``need``."""
    if not mine:
        return 0.0
    theirs = opening.tokens
    get = opening.get
    shared_dist, below = opening.split(tuple(t for t in theirs if t in mine))
    own_probs = [get(t, 0.0) for t in mine if t not in theirs]
    ratio = (opening.size + opening.length) / (size + opening.length)  # b / a
    if need is not None:
        none = 1.0 - below[1]  # P(o >= 1)
        if ratio > 1.0:
            none *= shared_dist[0]
        for p in own_probs:
            none *= 1.0 - p
        if 1.0 - none + _BOUND_MARGIN <= need:
            return _CANNOT
    own = _count_distribution(own_probs)
    top = len(below) - 1  # below[top]: P(no more than all of them), 1
    # below[min(top, k)] for every k reached: below padded with its last value (each limit
    # below is under (len(own) + len(shared_dist)) * ratio)
    reach = int((len(own) + len(shared_dist)) * ratio) + 2
    upto = below if reach <= top else below + [below[top]] * (reach - top)
    total = 0.0
    for s, ps in enumerate(shared_dist):
        part = 0.0
        for c, pc in enumerate(own):
            limit = (c + s) * ratio - s + 1e-9  # o <= limit
            if limit >= 0.0:
                part += pc * upto[int(limit) + 1]
        total += ps * part
    return total


_BOUND_MARGIN = 1e-7  # far above the rounding of either sum: the bound never drops a candidate that could win
_CANNOT = float("-inf")


def _passing(options: Iterable[tuple[float, list[str]]], plain: str, name: str | None, named: bool) -> Iterator[tuple[float, str]]:
    """(score, the finished title) of each option, in the order given, that passes the form checks."""
    head = _first_tokens(plain)
    for score, words in options:
        made = _form_checked(words, plain, name, named, head)
        if made:
            yield score, made


def _form_checked(words: list[str], plain: str, name: str | None, named: bool, head: list[str]) -> str:
    """The finished title of a candidate phrase (led by the name when ``named``), or "" when it
    fails the form checks: no finite verb, no This/We/Our start, more than three words (three
    after the name), the name not repeated, not ending on a participle, and not the abstract's
    opening words (``head``: its first lowercase tokens), neither its first five nor, without a
    name, all of the title."""
    if _PARTICIPLE_END.search(words[-1]):
        return ""
    text = _sentence_case(" ".join(words), plain)
    made = _finish(f"{name}: {text}" if named else _capitalise(text))
    body = made[len(name or "") + 2 :] if named else made
    if not made or len(made.split()) <= 3 or len(body.split()) < 3 or _defects(body, plain, named):
        return ""
    if named and (name or "").lower() in body.lower():
        return ""
    if named and name and contradicts(_head(words), name_kind(plain, name)):
        return ""  # "VESPER: ... models for ...": VESPER is a benchmark
    low = _ALNUM.findall(made.lower())
    if not _CLAUSE_VERBS.isdisjoint(low) and _QUESTION_WORDS.isdisjoint(low):
        return ""
    if _for_a_verb(low) or _ends_badly(made):
        return ""
    if low[:5] == head[:5] or (not named and low == head[: len(low)]):
        return ""
    return made


def _rule_title(text: str, name: str | None) -> str:
    if name:
        budget = MAX_WORDS - len(_words(name))
        desc = _name_description(text, name, budget) if budget > 0 else []
        if not desc:
            desc = _contribution(text, budget, keep_article=True) if budget > 0 else []
        if not desc and budget > 0:
            desc = _name_description(text, name, budget, allow_subject=True)
        if not desc and budget > 0:
            desc = _what_we_did(text, name, budget)
        if desc and len([w for w in desc if w.lower() not in _NOT_CONTENT]) <= 3 and "for" not in desc:
            topic = _topic(text)  # "VESPER: a video benchmark" -> "... for evaluating ..."
            if (topic and name not in topic and not _restates(desc, topic)
                    and len(desc) + 1 + len(topic.split()) <= budget and not _says_the_reverse(desc, topic.split(), text)):
                desc = desc + ["for"] + topic.split()
        if desc:
            desc = _strip_dangling(_expand(desc, text, budget))
        if desc:
            title = _finish(f"{name}: {' '.join(desc)}")
        else:
            title = _finish(" ".join(_words(name)[:MAX_WORDS]))
        if title:
            return title
    words: list[str] = []
    found = _find_contribution(text, MAX_WORDS)
    if found is not None:
        found = _Found(found.tier, _LEADING.sub("", " ".join(found.words)).split(), found.analytic)
        words = _strip_dangling(_expand(_with_topic(found, text), text, MAX_WORDS))
    if not words:
        words = _fallback(text, MAX_WORDS)
    return _finish(_capitalise(" ".join(words)))


def _restates(desc: list[str], topic: str) -> bool:
    """Does the description already say the topic's core ("a distillation recipe" and
    "knowledge distillation from large teachers")? The core is the topic before a preposition."""
    said = {w.lower().strip(",;:") for w in desc}
    for w in topic.lower().split():
        if w in _CUT_ANY:
            break
        if len(w) >= 4 and w in said:
            return True
    return False


def plain_title(plain: str) -> str:
    """An honest stand-in when generation failed: the first sentence's first words, without
    markup or a dangling last word (simple enough that it cannot fail on any text)."""
    first = re.split(r"(?<=[.!?])\s", plain or "", maxsplit=1)[0]
    words = [w for w in re.sub(r"[\\$*{}^_`]", " ", first).split() if re.search(r"\w", w)][:10]
    while words and words[-1].lower().strip(",;:.") in DANGLING:
        words.pop()
    return _capitalise(" ".join(words).rstrip(",;:.")) or FALLBACK_TITLE


def _finish(title: str) -> str:
    title = _clean(title)
    title = _TRAILING_PUNCT.sub("", title)
    words = _strip_dangling(title.split()[:MAX_WORDS])
    return " ".join(words) if words and _WORD.search(" ".join(words)) else ""
