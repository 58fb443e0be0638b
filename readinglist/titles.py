"""Generate a readable stand-in title for an abstract that has none.

``make_title(raw, plain, name)`` is a pure function. With a system name it reads
"Name: <what it is>", the description taken from the abstract (an appositive such as
"CanViT, the first task- and policy-agnostic AVFM", a "which ..." clause turned into a gerund,
or the spelled-out name); without one it is the paper's main contribution (the object of
"we propose/introduce/present ...", then "we study/derive ..."), or else the first sentence.

Every title: at most :data:`MAX_WORDS` words, clean text (no LaTeX or Markdown), sentence case
after the colon (acronyms and proper words kept), no trailing punctuation, never ends on an
article, preposition or conjunction, never cut inside a word, never empty.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .naming import _OTHER_SPACE, _finditer_at, split_sentences

__all__ = ["make_title", "MAX_WORDS"]

MAX_WORDS = 15
_MAX_CHARS = 400  # a description is looked for in this much text after its cue
FALLBACK_TITLE = "Untitled abstract"

#: Words a title must not end on.
DANGLING = frozenset(
    """a an the and or nor but of for to in on at by with without from into onto over under via as
    than that which whose where when while whereas who whom if so such this these those its their
    our is are be was were being been has have had can may will would should could not both either
    each every between among across through toward towards against about after before during
    beyond upon within versus vs using based e.g i.e including like per whether how what why its
    also only very more most less further then thus""".split()
)
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
_PAREN = re.compile(r"\s*\([^()]*\)|\s*\[[^\[\]]*\]")
_QUOTES = re.compile(r"[\"“”‘`]|(?<![A-Za-z])'|'(?![A-Za-z])|’(?![A-Za-z])")
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
        r"(?:stud(?:y|ies)|investigate|examine|explore|analy[sz]e|formali[sz]e|derive|establish|give|provide|characteri[sz]e|revisit|re-evaluate)s?\b")),
)
# Every _VERB_CUE match starts with one of these (lowercased; see naming._finditer_at).
_VERB_CUE_STARTS = ("we ", "this ", "our ", "by ")
_KINDS = (
    r"benchmark|dataset|data set|corpus|framework|model|method|algorithm|suite|library|toolkit|system"
    r"|architecture|approach|optimi[sz]er|agent|platform|environment|pipeline|family"
)
_NP_BEFORE = re.compile(
    r"\b(?:introduce|propose|present|develop|release|design|build|create|curate|construct|offer)[sd]?\s+"
    r"((?:a|an)\s+[^,.;:()]{1,80}?)(?:,\s*(?:(?:called|named|termed|dubbed|namely)\s+)?|\s+(?:called|named|termed|dubbed)\s+)$"
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
_CLAUSE_END = re.compile(r"\s*(?:[;:!?](?=\s|$)|\.(?=\s|$)|\s[\u2014\u2013]\s|\s--\s|,(?!\d))")
_TOPIC_VERBS = re.compile(
    r"^(?:(?:The|A|An)\s+)?(?P<np>(?:[A-Za-z][\w-]*\s+){0,3}?[a-z][\w-]*)(?:\s+\([^()]*\))?\s+"
    r"(?:has|have|is|are|was|were|aims?|remains?|involves?|relies|rely|seeks?|offers?|enables?|promises?|raises?"
    r"|faces?|requires?|suffers?|can|often|typically|increasingly|usually|commonly|provides?|arises?)\b"
)
_KEEP_ACRONYMS = frozenset(
    "AI ML NLP RL LLM LM VLM MLLM CNN GNN RNN GPU QA VQA RAG ICL MoE KL SGD MLP API".split()
)
_PROPER = frozenset(
    """Bayes Bayesian Gaussian Markov Hessian Fisher Euclidean Riemannian Hilbert Lipschitz Newton
    Langevin Wasserstein Shapley Nesterov Monte Carlo Boltzmann Hebbian Hamiltonian Lagrangian
    Laplacian Fourier Poisson Dirichlet Bernoulli Kalman Turing Nash Pareto Shannon English Chinese
    Transformer""".split()
)
_AFTER_LOWER = re.compile(r"\b[a-z]+\s+([A-Z][a-z]+)\b")
_LOWER_WORD = re.compile(r"\b[a-z]+\b")
_ACRO_DEF = re.compile(r"\(([A-Z][A-Za-z0-9\u00b2\u00b3\-]*[A-Z][A-Za-z]*?)(s?)\)")


def _words(text: str) -> list[str]:
    return text.split()


def _clean(text: str) -> str:
    """Drop LaTeX/Markdown leftovers and quotes; ``ℓ_1`` becomes ``ℓ1``."""
    text = _SUBSCRIPT.sub("", text)
    text = re.sub(r"(?<=\w)--(?=\w)", "\u2013", text)
    text = _MARKUP.sub("", text)
    text = _QUOTES.sub("", text)
    return _WS.sub(" ", text).strip()


def _strip_dangling(words: list[str]) -> list[str]:
    while words:
        last = words[-1].rstrip(",;:.!?").lower()
        if last in DANGLING or not _WORD.search(last) or (len(words) > 1 and re.fullmatch(r"[a-z]", last)):
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
    return _fit(words, budget)


def _article(words: list[str]) -> list[str]:
    """"a" / "an" agreeing with the next word (after filler removal changed it)."""
    if len(words) > 1 and words[0].lower() in {"a", "an"}:
        nxt = words[1]
        vowel = bool(re.match(r"[aeioAEIO]|[uU](?!ni|se|sa|su|ti)|[FHLMNRSX](?:[A-Z0-9\-]|$)", nxt))
        words = [("an" if vowel else "a")] + words[1:]
    return words


def _sentence_case(phrase: str, plain: str) -> str:
    """Lowercase Title-Case words of a spelled-out name; keep acronyms and proper words."""
    out = []
    for word in phrase.split():
        parts = word.split("-")
        new_parts = []
        for part in parts:
            core = part.strip(",;:")
            if re.fullmatch(r"[A-Z][a-z]+", core) and core not in _PROPER and not _capitalised_elsewhere(core, plain):
                part = part.lower()
            elif re.fullmatch(r"[A-Z]{1,3}[a-z]{3,}", core):  # "UNlearning" spells the acronym
                part = part.lower()
            new_parts.append(part)
        out.append("-".join(new_parts))
    return " ".join(out)


def _capitalised_elsewhere(word: str, plain: str) -> bool:
    """Is the word written with a capital after a lowercase word somewhere, and never in
    lowercase (a proper word such as "Hessian")?"""
    capitalised, lowercase = _word_cases(plain)
    return word in capitalised and word.lower() not in lowercase


@lru_cache(maxsize=16)
def _word_cases(plain: str) -> tuple[frozenset[str], frozenset[str]]:
    capitalised = frozenset(m.group(1) for m in _AFTER_LOWER.finditer(plain))
    lowercase = frozenset(_LOWER_WORD.findall(plain))
    return capitalised, lowercase


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


def _gerund(verb: str) -> str | None:
    """"adapts" -> "adapting", "enhances" -> "enhancing", "applies" -> "applying"."""
    if not re.fullmatch(r"[a-z]+s", verb) or verb.endswith("ss"):
        return None
    stem = verb[:-1]
    if stem.endswith("ie"):
        stem = stem[:-2] + "y"
    elif stem.endswith("e") and not stem.endswith(("ee", "ye", "oe")):
        stem = stem[:-1]
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", stem):
        stem += stem[-1]
    return stem + "ing"


def _name_description(plain: str, name: str, budget: int, allow_subject: bool = False) -> list[str]:
    esc = re.escape(name)
    expansion: str | None = None
    for m in re.finditer(rf"(?<![\w\-]){esc}(?![\w])", plain):
        before = plain[max(0, m.start() - 160) : m.start()]
        after = plain[m.end() :]
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
        appositive = re.match(r"^(?:,\s*|\s*\bis\s+)((?:a|an|the|our)\b.*)", rest)
        which = re.match(r"^,?\s+(?:which|that)\s+([a-z]+)\b(.*)", rest)
        np_before = _NP_BEFORE.search(before)
        subject = re.match(r"^,?\s+([a-z]+s)\b(.*)", rest)
        desc: list[str] = []
        if np_before and not appositive:
            relative = re.match(r"^,?\s+((?:that|which|whose|to|for)\b.*)", rest)
            phrase = np_before.group(1) + (" " + relative.group(1) if relative else "")
            desc = _article(_describe(phrase, budget))
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
        elif allow_subject and subject and (m.start() == 0 or _starts_subject(before)):
            ger = _gerund(subject.group(1))
            if ger:
                desc = _describe(ger + subject.group(2), budget)
        if desc and (len(desc) > 4 or not expansion):
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
    """Is the name the subject here ("Our framework, Tandem, trains ...")?"""
    return bool(re.search(r"(?:^|[.!?]\s+)(?:[Oo]ur\s+[\w-]+(?:\s+[\w-]+)?,\s*)?$", before))


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


def _contribution(plain: str, budget: int, keep_article: bool = False) -> list[str]:
    best: tuple[int, int, list[str]] | None = None
    low = plain.lower()
    if len(low) != len(plain) or _OTHER_SPACE.search(plain):
        low = None
    tiers = [(tier, _finditer_at(cue, plain, low, _VERB_CUE_STARTS)) for tier, cue in _VERB_CUE]
    for offset, sent in split_sentences(plain):
        end = offset + len(sent)
        for tier, cue_matches in tiers:
            for m in cue_matches:
                if not offset <= m.start() < end:
                    continue
                obj = sent[m.end() - offset :].strip()
                if not obj or _BAD_OBJECT.match(obj) or (obj[:1].isupper() and tier == 0 and not re.match(r"[A-Z][a-z]*[-\s]", obj)):
                    continue
                words = _describe(obj, budget)
                if words and words[0].lower() in {"the"}:
                    words = words[1:]
                if len([w for w in words if w.lower() not in _NOT_CONTENT]) < 3:
                    continue
                if any(w.lower() in _ANAPHORA for w in words[:3]):
                    continue
                if best is None or tier < best[0]:
                    best = (tier, offset, words)
                break
    if best is None:
        return []
    if keep_article:
        return _article(best[2])
    return _LEADING.sub("", " ".join(best[2])).split()


def _topic(plain: str) -> str | None:
    """The subject of the first sentence ("Knowledge editing has emerged ...")."""
    m = _TOPIC_VERBS.match(plain)
    if not m:
        return None
    np = m.group("np")
    if len(np.split()) > 4 or re.match(r"(?i)(?:most|many|some|several|recent|existing|this|these)\b", np):
        return None
    return np[:1].lower() + np[1:] if not re.match(r"[A-Z]{2}", np) else np


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def _fallback(plain: str, budget: int) -> list[str]:
    sents = split_sentences(plain)
    first = sents[0][1] if sents else plain
    words = _fit(_words(_clause(_PAREN.sub("", first)) or first), budget)
    if not words:
        words = _fit(_words(first), budget)
    return words


def make_title(raw: str, plain: str, name: str | None) -> str:
    """A readable generated title (see the module docstring for the rules)."""
    text = plain or ""
    if name:
        name = _clean(name)
    if name:
        budget = MAX_WORDS - len(_words(name))
        desc = _name_description(text, name, budget) if budget > 0 else []
        if not desc:
            desc = _contribution(text, budget, keep_article=True) if budget > 0 else []
        if not desc and budget > 0:
            desc = _name_description(text, name, budget, allow_subject=True)
        if desc:
            desc = _strip_dangling(_expand(desc, text, budget))
        if desc:
            title = _finish(f"{name}: {' '.join(desc)}")
        else:
            title = _finish(" ".join(_words(name)[:MAX_WORDS]))
        if title:
            return title
    words = _contribution(text, MAX_WORDS)
    if words:
        topic = _topic(text)
        if topic and len(words) <= 11 and " for " not in f" {' '.join(words)} ":
            content = {w.lower() for w in re.findall(r"[\w-]{4,}", topic)}
            if not content & {w.lower().strip(",") for w in words} and len(words) + 1 + len(topic.split()) <= MAX_WORDS:
                words = words + ["for"] + topic.split()
        words = _strip_dangling(_expand(words, text, MAX_WORDS))
    if not words:
        words = _fallback(text, MAX_WORDS)
    title = _finish(_capitalise(" ".join(words)))
    return title or FALLBACK_TITLE


def _finish(title: str) -> str:
    title = _clean(title)
    title = _TRAILING_PUNCT.sub("", title)
    words = _strip_dangling(title.split()[:MAX_WORDS])
    return " ".join(words) if words and _WORD.search(" ".join(words)) else ""
