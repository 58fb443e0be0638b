"""The form and honesty checks every candidate title must pass: a noun phrase (no finite verb,
no This/We/Our start, not the abstract's opening words, not too short), the name not repeated
nor called a kind it is not, no verb where a noun belongs (nor one the abstract follows with its
object, anywhere in the title), not ending on a word real titles never end on, not starting where
a clause was cut ("generated from ..."), no acronym said on both sides of "for".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from ..kinds import contradicts, FAMILIES, name_kind
from ..lexicon import DANGLING
from .casing import sentence_case
from .described import AUTHORS, fits_described
from .constants import CLAUSE_VERBS, COMMON_DF, CUT_ANY, CUT_PREP, CUT_STARTS, FINITE, NOT_CONTENT, NOUN_ONLY_ENDINGS, QUESTION_WORDS
from .postedits import acronym_said_once, acronym_twice, relative_as_purpose
from .forms import abstract_only, common_words, gerund_starts, not_final, not_initial, not_phrase_final, TITLE_WORD, verb_forms, words_of_title
from .text import ALNUM, capitalise, finish, first_five_tokens, first_tokens, head_noun, LETTERS, PAREN, PARTICIPLE_END
from .topic import drives


_BAD_START = re.compile(r"^(?:this|these|we|our|in this)\b", re.IGNORECASE)


def defects(body: str, plain: str, named: bool) -> bool:
    """Is this title (or the part after "Name: ") not a noun phrase a person would write?"""
    words = body.split()
    if not words:
        return True
    if not FINITE.isdisjoint(map(str.lower, LETTERS.findall(body))):
        return True
    if _BAD_START.match(body) or "http" in body or "www." in body:
        return True
    if "--" in body or "\u2014" in body or _FOR_A_CONNECTIVE.search(body):
        return True  # "... shift---specifically", "... for as critical parameters": a sentence's joints
    if not named and len(words) <= 3:
        return True
    return not named and len(words) >= 5 and first_five_tokens(body) == first_five_tokens(plain)


_FOR_A_CONNECTIVE = re.compile(r"\bfor\s+(?:as|and|or|which|that|whether|if|is|are|was|were)\b", re.IGNORECASE)


# the model family's plural kind nouns (:data:`..kinds.FAMILIES`) and the field's acronyms
_PLURAL_KINDS = frozenset(w for w in FAMILIES["model"].split() if w.endswith("s")) | frozenset("llms mllms vlms lms".split())


def field_for_name(body: str) -> bool:
    """Is the part after "Name: " a field's plural kind and no more ("DAVinCI: large language
    models", "ChatUMM: unified multimodal models")? It says the name is the field it works in:
    readers judged such titles false."""
    words = [w for w in body.lower().split() if w not in ("a", "an", "the")]
    return (1 <= len(words) <= 4 and words[-1] in _PLURAL_KINDS and CUT_PREP.isdisjoint(words)
            and not words[0].endswith("ing") and words[0] not in gerund_starts())  # "steering/compress language models" says what it does


def reads_as_clause(title: str, name: str | None) -> bool:
    """Is the title (its part after "Name: " when it has one) part of a sentence, not a name for
    the paper: starting with a word that opens the abstracts' sentences but no title ("Despite
    ...", "Though ...", "In a ..."; :func:`.forms.not_initial`), holding a word that titles do not
    hold (a sentence's verb, adverb or connective: "... exceeds", "specifically", "recently";
    :func:`.forms.abstract_only`), a verb's -s form after its subject ("chain inherits ...";
    :func:`.forms.verb_forms`) or a finite verb ("is", "can"), or, with no name, starting in
    lowercase ("communication correction for ...")? Read as the post-edit will write it ("a
    framework that models ..." -> "... for modeling ...")."""
    title = relative_as_purpose(title)
    named = bool(name) and title.startswith(f"{name}: ")
    body = title[len(name or "") + 2 :] if named else title
    words = words_of_title(body)
    if not words:
        return False
    first = body.split()[0]
    if not named and first.isalpha() and first.islower():
        return True
    if first.lower() in not_initial() or not FINITE.isdisjoint(words):
        return True  # the whole first word: "In-context ...", "Source\u2013target ..." are titles' words
    said = abstract_only()
    if words[0] in said and words[0].endswith("ed"):
        return True  # "Investigated whether ...": a sentence that lost its subject
    last = len(words) - 1
    for i, w in enumerate(words):
        if w in _RELATIVE and i < last - 1:
            words = words[: i + 1] + words[last:]  # a relative clause with its verb is long but whole: only its end counts
            last = len(words) - 1
            break
    verbs = verb_forms()
    for i, w in enumerate(words):
        if i and w in verbs and words[i - 1] not in _RELATIVE:
            return True  # "Longest chain inherits merits": a verb after its subject
        if w not in said or len(w) < 3 or w in NOT_CONTENT or w.endswith(("ing", "ed")) or w in _RELATIVE:
            continue  # a participle's phrase is long but whole ("a dataset containing ...")
        if w.endswith("ly") and 0 < i < last:
            continue  # "for effectively ...": the post-edit drops the adverb
        return True
    return False


def ends_badly(title: str) -> bool:
    """Does the title end on a word real titles almost never end on: a modifier without its
    head ("... for covering large", "... from large-scale"), a word cut from its clause, an
    adverb ("... in knowledge graphs fundamentally") or a participle whose object was cut ("...
    framework tailored", "... for AI-assisted", "a PyTorch-based"; each of these ends 0.1% of
    20,000 training titles), or a word too rare in titles for that count which the training
    abstracts almost always follow with more words ("... based on a magnetic", "... agents
    capable", "... learning consists")?"""
    words = TITLE_WORD.findall(title[-40:].lower())
    if not words:
        return False
    last = words[-1]
    if len(last) <= 2 and last.isalpha() and title.rstrip()[-len(last):].islower():
        return True  # "Satellite video agent dr": a word cut short
    return last in not_final() or last in not_phrase_final() or _adverb(last) or bool(PARTICIPLE_END.search(last.rsplit("-", 1)[-1])) or last.endswith("-based")


_OBJECT_AFTER_VERB = frozenset("us them it him her how what whether why".split())
_DETERMINER_AFTER_VERB = frozenset("a an the its their this these".split())


def ends_on_a_verb(low: list[str], plain: str) -> bool:
    """Does the title stop on a verb the abstract follows with its object ("Source labels tell
    us where ..." -> "... for source labels tell", "Backgrounds in images play a major role" ->
    "... backgrounds in images play"): its last two words, in the abstract, before a pronoun or
    a question word, or before an article or a possessive each time the abstract says them (a
    noun phrase is followed by punctuation, a preposition or a verb, not by "a" or "the")?"""
    # "making model quantization a natural direction": "quantization" is no verb (but "Making
    # personalized stimulus optimization" stops before what it is made)
    if len(low) < 2 or (low[-1].endswith(NOUN_ONLY_ENDINGS) and not low[0].endswith("ing")):
        return False
    after = _words_after(low[-2], low[-1], plain)
    return bool(after) and (not _OBJECT_AFTER_VERB.isdisjoint(after) or all(w in _DETERMINER_AFTER_VERB for w in after))


def _words_after(first: str, second: str, plain: str) -> list[str]:
    """The word after each place the abstract says "<first> <second>" (lowercase, its
    punctuation stripped): what follows tells a verb (an object, "that") from a noun."""
    text = plain.lower()
    pair = f"{first} {second} "
    out = []
    at = text.find(pair)
    while at >= 0:
        if at == 0 or not text[at - 1].isalnum():
            out.append(text[at + len(pair) :].split(" ", 1)[0].strip(",;:."))
        at = text.find(pair, at + 1)
    return out


_COMPLEMENT = _DETERMINER_AFTER_VERB | _OBJECT_AFTER_VERB | frozenset(("that", "if"))


def participle_before_for(low: list[str], plain: str) -> bool:
    """Does "for" follow a participle whose object was cut ("a framework showing for ...", "a
    pipeline consisting for ...", "a model deciding for ...")? See :func:`verbal_ending`."""
    return any(low[i + 1] == "for" and verbal_ending(low[: i + 1], plain) for i in range(1, len(low) - 1))


def verbal_ending(words: list[str], plain: str) -> bool:
    """Does the phrase end on a participle cut from its object ("operations generalizing",
    "a pipeline consisting", "a model deciding")? A participle: an -ing word of the sentences'
    words that titles do not hold (:func:`.forms.abstract_only`: "showing", "consisting",
    "regarding"), or one the abstract follows, after the same word, only with an article,
    "that", "whether" or a number ("a model deciding whether ..."), as a noun ("message passing
    in ...", "sample weighting causes ...") is not."""
    if len(words) < 2:
        return False
    w = words[-1].lower()
    if not w.endswith("ing") or len(w) < 5:
        return False
    if w in abstract_only():
        return True
    after = _words_after(words[-2].lower(), w, plain)
    return bool(after) and all(n in _COMPLEMENT or n[:1].isdigit() for n in after)


def _adverb(word: str) -> bool:
    """An -ly adverb of a word the training abstracts use ("fundamentally"; not "family",
    "anomaly", "assembly")."""
    if len(word) < 6 or not word.endswith("ly"):
        return False
    df = common_words()
    stem = word[:-2]
    return df.get(stem, 0) >= COMMON_DF or (word.endswith("ily") and df.get(stem[:-1] + "y", 0) >= COMMON_DF)


def for_a_verb(low: list[str]) -> bool:
    """Does the title put a verb's plain form where a noun belongs: after "for" ("for minimize
    regret"), or at the end after a plural noun ("models excel", "data represent") or "to" (a
    clause or a purpose cut off)? A verb: a word whose -s form the phrase model learned as a verb
    (:func:`readinglist.convert.phrases.learned_verbs`)."""
    from ..phrases import learned_verbs

    verbs = learned_verbs()
    if len(low) >= 2 and _plain_verb(low[-1], verbs):
        before = low[-2]
        if before in ("to", "data") or _plural(before):
            return True
    return any(low[i] == "for" and _plain_verb(low[i + 1], verbs) for i in range(len(low) - 1))


def _plain_verb(w: str, verbs: frozenset[str]) -> bool:
    """A verb's plain form: a word whose -s form the phrase model learned as a verb
    (``verbs``: :func:`readinglist.convert.phrases.learned_verbs`)."""
    if w.endswith("ss"):  # "for suppress undesirable knowledge", "LLMs process": its -es form a learned verb
        return w.isalpha() and w + "es" in verbs
    return w.isalpha() and len(w) > 3 and not w.endswith(("ing", "ly", "s")) and (w + "s" in verbs or w + "es" in verbs)


def _plural(w: str) -> bool:
    return len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "is", "us"))


def subject_and_verb(low: list[str], plain: str) -> bool:
    """Does the title hold a clause the abstract wrote, a plural noun and its verb anywhere in it
    ("... for predictor networks facilitate stable learning", "models learn human beliefs from
    data"): a plural followed by a verb's plain form, as the abstract has them?"""
    from ..phrases import learned_verbs

    verbs = learned_verbs()
    text = ""
    for i in range(len(low) - 1):
        if low[i] in _RELATIVE:
            return False  # "predicting which games users find amusing": a clause the title may hold
        if _plural(low[i]) and _plain_verb(low[i + 1], verbs):
            text = text or f" {' '.join(ALNUM.findall(plain.lower()))} "  # the abstract's words, when needed
            if f" {low[i]} {low[i + 1]} " in text:
                return True
    return _verb_with_object(low, plain)


def _verb_with_object(low: list[str], plain: str) -> bool:
    """Does a word inside the title (not its last: :func:`ends_on_a_verb`) follow the word before
    it, in the abstract, only ever before an article or a possessive ("our framework decreases
    the labelling burden" -> "framework decreases for ..."; "networks provide a probabilistic
    ...")? A noun phrase is followed by punctuation, a preposition or a verb, not by "the": that
    word is a verb with its object, and the title a clause cut from the abstract."""
    text = ""
    for x, y in zip(low, low[1:-1]):
        if len(y) < 3 or not y.isalpha() or y.endswith("ing") or y in DANGLING or x in DANGLING:
            continue
        text = text or _unbracketed(plain)
        pair = f"{x} {y}"
        at = text.find(pair)
        seen = determined = 0
        while at >= 0:
            end = at + len(pair)
            if (at == 0 or not text[at - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
                seen += 1
                nxt = text[end + 1 :].split(" ", 1)[0] if text[end : end + 1] == " " else ""
                determined += nxt in _DETERMINER_AFTER_VERB and _lowercase_at(plain, text, end + 1)
            at = text.find(pair, at + 1)
        if seen and determined == seen:
            return True
    return False


_RELATIVE = frozenset("which that who whom whose how what where when whether why".split())


def _participial_start(words: list[str], plain: str) -> bool:
    """Does the phrase start with an -ing word that the abstract puts after a comma in a sentence
    where the authors do not speak of their own work ("prior studies consider ..., leaving
    corpus-scale retrieval largely unexplored"): the participle of someone else's clause?"""
    from ..lexicon import split_sentences
    from .contribution import own_sentences

    first = words[0].lower() if words else ""
    if len(first) <= 5 or not first.endswith("ing") or f", {first} " not in plain.lower():
        return False
    own = own_sentences(plain)
    return any(f", {first} " in sent.lower() for i, (_o, sent) in enumerate(split_sentences(plain)) if i not in own)


@lru_cache(maxsize=4)
def _unbracketed(plain: str) -> str:
    """The abstract in lowercase without its parentheses ("Networks (BNNs) provide a ...")."""
    return PAREN.sub("", plain.lower())


@lru_cache(maxsize=4)
def _unbracketed_cased(plain: str) -> str:
    """:func:`_unbracketed` in the abstract's own letter case."""
    return PAREN.sub("", plain)


def _lowercase_at(plain: str, text: str, at: int) -> bool:
    """Is the word at ``at`` of :func:`_unbracketed` text written in lowercase in the abstract:
    an article, not a symbol ("for a rank-r matrix A in ...": the matrix A)? True when the two
    texts do not line up (lowercasing changed a length)."""
    cased = _unbracketed_cased(plain)
    return len(cased) != len(text) or not cased[at : at + 1].isupper()


_ARTICLES = frozenset("a an the".split())


def cut_start(words: list[str]) -> bool:
    """Does the phrase, or its part after a "for", start where a clause was cut: on a participle
    before its preposition or article ("generated from natural images", "for trained on ...")?
    What it said of was left behind."""
    low = [w.lower() for w in words]
    for i, w in enumerate(low[:-1]):
        if (not i or low[i - 1] == "for") and PARTICIPLE_END.search(w) and (low[i + 1] in CUT_ANY or low[i + 1] in _ARTICLES):
            return True
    return False


def without_cut_words(words: list[str]) -> list[str]:
    """The phrase without a word of :data:`.constants.CUT_STARTS` at its start or right after its
    "for", where a clause was cut before it ("given incomplete point clouds" -> "incomplete point
    clouds", "for dubbed contrastive learning" -> "for contrastive learning")."""
    if CUT_STARTS.isdisjoint(w.lower() for w in words):
        return words  # the quick answer for nearly every phrase
    return [w for i, w in enumerate(words)
            if not (w.lower() in CUT_STARTS and i + 1 < len(words) and (not i or words[i - 1].lower() == "for"))]


def passing(options: Iterable[tuple[float, list[str]]], plain: str, name: str | None, named: bool) -> Iterator[tuple[float, str]]:
    """(score, the finished title) of each option, in the order given, that passes the form checks."""
    head = first_tokens(plain)
    for score, words in options:
        made = form_checked(words, plain, name, named, head)
        if made:
            yield score, made


def form_checked(words: list[str], plain: str, name: str | None, named: bool, head: list[str]) -> str:
    """The finished title of a candidate phrase (led by the name when ``named``), or "" when it
    fails the form checks: no finite verb, no This/We/Our start, more than three words (three
    after the name), the name not repeated, not ending on a participle, and not the abstract's
    opening words (``head``: its first lowercase tokens), neither its first five nor, without a
    name, all of the title."""
    words = without_cut_words(words)
    if PARTICIPLE_END.search(words[-1]) or _participial_start(words, plain) or cut_start(words):
        return ""
    text = sentence_case(" ".join(words), plain)
    made = finish(f"{name}: {text}" if named else capitalise(text))
    body = made[len(name or "") + 2 :] if named else made
    if not made or len(made.split()) <= 3 or len(body.split()) < 3 or defects(body, plain, named) or AUTHORS.search(body):
        return ""  # "evidence for our three-part taxonomy": the authors' sentence
    if named and (name or "").lower() in body.lower():
        return ""
    if " for " in body and acronym_twice(body) and acronym_said_once(made, name) == made:
        return ""  # "NN architectures for overparameterized neural networks": a tautology
    if named and name and contradicts(head_noun(words), name_kind(plain, name)):
        return ""  # "VESPER: ... models for ...": VESPER is a benchmark
    if named and not fits_described(words, plain, name):
        return ""  # "FLIP: federated prompt learning algorithms": FLIP is a framework to evaluate them
    low = ALNUM.findall(made.lower())
    if not CLAUSE_VERBS.isdisjoint(low) and QUESTION_WORDS.isdisjoint(low):
        return ""
    if for_a_verb(low) or participle_before_for(low, plain) or reads_as_clause(made, name if named else None) or ends_badly(made) or ends_on_a_verb(low, plain) or subject_and_verb(low, plain):
        return ""
    if low[:5] == head[:5] or (not named and low == head[: len(low)]):
        return ""
    if drives(body):
        return ""  # "Rapid advancement of deepfake generation techniques": why the work is needed
    return made
