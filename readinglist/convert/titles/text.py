"""Phrase text: cleaning (LaTeX/Markdown leftovers, quotes), cutting a phrase to its first clause
and to a word budget, trimming filler, articles and dangling words, finishing a title; the small
word helpers every stage uses (a verb's -ing form, a phrase's head noun).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice

from ..lexicon import DANGLING
from .constants import (ANAPHORA, CUT_ANY, CUT_CLAUSE, CUT_PREP, FALLBACK_TITLE, FILLER_WORDS, FINITE, HOW_WORDS, MAX_CHARS, MAX_WORDS,
                        MODIFIER_ENDINGS, NOT_GERUND, NOT_GOING_ON)
from .forms import not_final, not_phrase_final


_FILLER = re.compile(
    r"\b(?:(?:a|an)\s+)?(?:(?:very|highly|quite|extremely|surprisingly|embarrassingly|remarkably|conceptually)\s+)?"
    r"(?:simple|effective|novel|new|general|generic)\s+(?:(?:yet|but|and)\s+(?:(?:more\s+)?(?:effective|efficient|powerful|general|scalable)\s+)?)?"
    r"|\b(?:simple|novel|new),\s+"
    r"|,?\s+and\s+(?:simple|effective|novel|new|general|generic)\b(?=\s)"
    r"|\bthe\s+first\s+|\bfirst\s+(?=systematic|large|comprehensive)",
    re.IGNORECASE,
)
_LONE_AND = re.compile(r"\b(a|an|the)\s+([\w-]+),\s+and\s+(?=[\w]+-[\w-]+|\w+(?:ive|al|ous|ic|able|ent|ant|less)\b)", re.IGNORECASE)
LEADING = re.compile(r"^(?:(?:a|an|the|our|two|several|some)\s+)", re.IGNORECASE)
# "SE(3)-equivariant" keeps its (3); "a large language model (LLM)-powered system" drops its acronym
PAREN = re.compile(r"\s*(?<![\w\-])\([^()]*\)(?![\w\-])|\s*\[[^\[\]]*\]|\s+\([A-Z][A-Za-z0-9]{1,10}\)(?=-[a-z])")
_QUOTES = re.compile(r"[\"“”‘`]|(?<![A-Za-z])'|(?<!s)'(?![A-Za-z])|(?<=s)'(?!\s)|’(?![A-Za-z])")
_MARKUP = re.compile(r"\\[A-Za-z]+|[\\$*{}^]|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])")
_SUBSCRIPT = re.compile(r"(?<=[^\W_])_(?=[^\W_])")
_WS = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]", re.UNICODE)
_TRAILING_PUNCT = re.compile(r"[\s,;:.!?\-–—/&]+$")
_AND_VERB = re.compile(
    r"\s+and\s+(?:then\s+|we\s+)?(?:show|find|demonstrate|prove|derive|propose|introduce|present|evaluate|use|apply"
    r"|obtain|establish|achieve|release|provide|observe|identify|argue|compare|discuss|conclude)s?\b"
)
_MATHY = re.compile(r"[=<>\u2208\u2264\u2265\u223c\u2248^|]|^[(\[]")
_HOW_THESE = re.compile(r"\b(how|whether|why|when)\s+(?:these|this|those|such)\s+", re.IGNORECASE)
_PROBLEM_AS = re.compile(r"^(?:the|this)\s+(?:problem|task|question|setting)\s+as\s+", re.IGNORECASE)
_MATH_TOKEN = re.compile(r"^[\u0370-\u03ff\u1d00-\u1dbf\u2100-\u214f\u2200-\u22ff_^()·]+$")
_LIST_AFTER_COMMA = re.compile(r"^,\s*(?:[^,;:.]{1,40},\s*)*(?:and|or)\s+[^,;:.]+")
_CLAUSE_END = re.compile(r"\s*(?:[;:!?](?=\s|$)|\.(?=\s|$)|\s[\u2014\u2013]\s|\s-{2,3}\s|,(?!\d))")


def word_list(text: str) -> list[str]:
    return text.split()


ALNUM = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=64)
def first_tokens(text: str) -> list[str]:
    """``re.findall(r"[a-z0-9]+", text.lower())[:MAX_WORDS]`` without tokenising all of it (the
    abstract's are asked for many times; callers never change the list)."""
    return [m.group() for m in islice(ALNUM.finditer(text.lower()), MAX_WORDS)]


def first_five_tokens(text: str) -> tuple[str, ...]:
    return tuple(first_tokens(text)[:5])


def name_lead(title: str, name: str | None) -> str:
    """``"Name: "`` when ``title`` is led by the name, else ``""``."""
    return f"{name}: " if name and title.startswith(f"{name}: ") else ""


_EN_DASH = re.compile(r"(?<=\w)--(?=\w)")
# Every match of _SUBSCRIPT, _EN_DASH, _MARKUP and _QUOTES holds one of these
_TO_CLEAN = re.compile(r"[_\\$*{}^\"“”‘`'’]|--")


def clean(text: str) -> str:
    """Drop LaTeX/Markdown leftovers and quotes; ``ℓ_1`` becomes ``ℓ1``."""
    if text.isprintable() and "  " not in text and not _TO_CLEAN.search(text):
        return text.strip()  # nothing to drop, no white space but single spaces: what the subs leave
    text = _SUBSCRIPT.sub("", text)
    text = _EN_DASH.sub("\u2013", text)
    text = _MARKUP.sub("", text)
    text = _QUOTES.sub("", text)
    return _WS.sub(" ", text).strip()


def strip_dangling(words: list[str]) -> list[str]:
    while words:
        last = words[-1].rstrip(",;:.!?").lower()
        if last in DANGLING or not _WORD.search(last) or (len(words) > 1 and len(last) == 1 and "a" <= last <= "z"):
            words = words[:-1]
        else:
            break
    return words


def clause(text: str) -> str:
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
            if _modifiers_go_on(text[: m.start()], text[m.end() :]):
                pos = m.end()  # "a massively multilingual, rubric-agnostic reward model": one noun phrase
                continue
            lst = _LIST_AFTER_COMMA.match(text[m.start() :])
            if lst and len(word_list(lst.group(0))) <= 12 and not re.match(r",\s*(?:which|who|where|while|and\s+(?:then|thus|we))\b", text[m.start() :]):
                pos = m.start() + lst.end()
                continue
        return text[: m.start()]


def _modifiers_go_on(before: str, after: str) -> bool:
    """Does a comma join two modifiers of one head ("the first fully streamable, speech-driven
    gesture framework")? The phrase before it is short and ends on a modifier (learned: a word
    titles and the abstracts' phrases never end on, or an adjective's ending), and what follows
    goes on as words of a noun phrase, not a clause or a list."""
    words = before.split()
    if not words or len(words) > 5 or not goes_on(after):
        return False
    last = words[-1].lower()
    if last in DANGLING:
        return False
    return last in not_final() or last in not_phrase_final() or any(last.endswith(e) and last[: -len(e)][-1:].isalpha() for e in MODIFIER_ENDINGS)


def goes_on(after: str) -> bool:
    """Does the text after a comma go on as words of the same noun phrase ("low-dimensional, |
    non-negative, interpretable embeddings"), not a clause ("which", "and", a gerund), a list of
    symbols or a new sentence?"""
    follow = after.split(None, 1)
    if not follow:
        return False
    nxt = follow[0].lower()
    return not (nxt in DANGLING or nxt in NOT_GOING_ON or nxt in CUT_CLAUSE or not nxt[:1].isalpha() or nxt.endswith("ing")
                or not follow[0][:1].islower())


def _cut_anaphora(words: list[str]) -> list[str]:
    """"a framework that addresses this tension" -> "a framework": an anaphor needs its context."""
    for i, w in enumerate(words):
        if w.lower().strip(",;:") in ANAPHORA and i > 0:
            for j in range(i - 1, 0, -1):
                if words[j].lower() in CUT_CLAUSE or words[j].lower() in CUT_PREP:
                    return words[:j]
            return words[:i]
    return words


def fit(words: list[str], budget: int) -> list[str]:
    """At most ``budget`` words, cut before a clause or preposition where possible."""
    if len(words) > budget:
        top = min(budget, len(words) - 1)
        cut = next((j for j in range(top, 3, -1) if words[j].lower() in CUT_CLAUSE), None)
        if cut is None:
            cut = next((j for j in range(top, 2, -1) if words[j].lower() in CUT_ANY), None)
        if cut and words[cut].lower() == "by" and re.fullmatch(r"[a-z]+(?:ed|en)", words[cut - 1]):
            cut -= 1  # "papers written | by four assistants": the participle goes with its agent
        elif cut and cut > 3 and PARTICIPLE_END.search(words[cut - 1]):
            cut -= 1  # "a model equipped | with three ...": the participle goes with its object
        words = words[: cut or budget]
    return strip_dangling(words)


def describe(text: str, budget: int) -> list[str]:
    """Trim a description: parentheses, filler, first clause, anaphora, length, dangling words."""
    text = PAREN.sub("", text[:MAX_CHARS])
    low = text.lower()
    if any(w in low for w in FILLER_WORDS):
        cut = _FILLER.sub(lambda m: "a " if m.group(0)[:2].lower() in {"a ", "an", "th"} else "", text)
        if cut != text:  # "an efficient, simple, and training-free" lost "simple, ": no comma before the last
            cut = _LONE_AND.sub(r"\1 \2 and ", cut)
        text = cut
    if any(w in low for w in HOW_WORDS):
        text = _HOW_THESE.sub(r"\1 ", text)
    text = _PROBLEM_AS.sub("", text)
    text = clause(text.strip())
    words = []
    for i, w in enumerate(word_list(text)):
        if i and _MATHY.search(w):
            break  # "for p ∈ (1, 2]": a formula ends the phrase
        if i == 0 or not _MATH_TOKEN.match(w):
            words.append(w)
    words = _cut_anaphora(words)
    for i in range(2, len(words) - 1):  # "ensembles | that cover 84% of ...": results are no title
        if words[i].lower() in {"that", "which", "whose"} and any(re.search(r"\d[%×]", w) for w in words[i + 1 : i + 4]):
            words = words[:i]
            break
    return fit(words, budget)


_VOWEL_SOUND = re.compile(r"[aeioAEIO]|[uU](?!ni|se|sa|su|ti)|[FHLMNRSX](?:[A-Z0-9\-]|$)")


def article_for(word: str) -> str:
    """"a" or "an", as the sound of ``word`` asks ("an LLM", "a remote", "an AI", "a unified")."""
    return "an" if _VOWEL_SOUND.match(word) else "a"


def article(words: list[str]) -> list[str]:
    """"a" / "an" agreeing with the next word (after filler removal changed it)."""
    if len(words) > 1 and words[0].lower() in {"a", "an"}:
        words = [article_for(words[1])] + words[1:]
    return words


def gerund_of(verb: str) -> str | None:
    """"adapts" -> "adapting", "enhances" -> "enhancing", "applies" -> "applying"."""
    if not re.fullmatch(r"[a-z]+s", verb) or verb.endswith("ss") or verb in NOT_GERUND:
        return None
    stem = verb[:-1]
    if stem.endswith("ie"):
        stem = stem[:-2] + "y"
    elif stem.endswith("e") and not stem.endswith(("ee", "ye", "oe")):
        stem = stem[:-1]  # "uses" -> "using", "prunes" -> "pruning" (never doubled)
    elif re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", stem):
        stem += stem[-1]  # "maps" -> "mapping"
    return stem + "ing"


BY_MEANS = re.compile(r"\s+(?:by|via|through)\s+(?=[a-z]+ing\b)")


def head_noun(words: list[str]) -> str:
    """The head noun of a phrase: its last word before the first preposition or clause word."""
    head = ""
    for w in words:
        low = w.lower().strip(",;:")
        if low in CUT_ANY or low in {"and", "or"}:
            break
        head = low
    return head


def singular(word: str | None) -> str:
    """A noun lowercase and without a plural -s ("Networks" -> "network"; "loss" stays)."""
    low = (word or "").lower()
    return low[:-1] if low.endswith("s") and not low.endswith("ss") else low


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def before_finite_verb(words: list[str]) -> list[str]:
    """The words before the first finite verb ("Video prediction --- forecasting future video
    ---has attracted attention" -> its subject), when at least two words come before it."""
    for i, w in enumerate(words):
        for m in LETTERS.finditer(w):
            if m.group().lower() in FINITE:
                head = w[: m.start()].rstrip("-–—,;: ")
                kept = strip_dangling(words[:i] + ([head] if head else []))
                return kept if len(kept) >= 2 else words
    return words


LETTERS = re.compile(r"[A-Za-z]+")
PARTICIPLE_END = re.compile(r"^[a-z]{3,}[^e]ed$")  # "inspired", "trained": a phrase cut before its object


def plain_title(plain: str) -> str:
    """An honest stand-in when generation failed: the first sentence's first words, without
    markup or a dangling last word (simple enough that it cannot fail on any text)."""
    first = re.split(r"(?<=[.!?])\s", plain or "", maxsplit=1)[0]
    words = [w for w in re.sub(r"[\\$*{}^_`]", " ", first).split() if re.search(r"\w", w)][:10]
    while words and words[-1].lower().strip(",;:.") in DANGLING:
        words.pop()
    return capitalise(" ".join(words).rstrip(",;:.")) or FALLBACK_TITLE


def finish(title: str) -> str:
    title = clean(title)
    title = _TRAILING_PUNCT.sub("", title)
    words = strip_dangling(title.split()[:MAX_WORDS])
    return " ".join(words) if words and _WORD.search(" ".join(words)) else ""
