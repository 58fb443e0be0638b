"""The candidates of the learned choice, besides the rule-made title (:mod:`.rules`): the
abstract's noun phrases (:mod:`readinglist.convert.phrases`), each also joined to the topic when
it does not say it, and "<phrase> for <phrase of the first two sentences>" (what was made, for the
task or domain the abstract opens with: real titles name it far more often than the contribution
sentence does), never joined the way the abstract says the reverse (:mod:`.relations`, :mod:`.links`), and
the phrase before "for" from a sentence where the authors speak of their own work ("we", "our",
"this paper"), when the abstract has one: "<a background or compared phrase> for <task>" is the
commonest false title readers flagged; and then only a phrase the paper makes: what the name
stands for, the words of the contribution phrase or of any "we propose / present ..." object
before its first preposition (:func:`_made_phrases`), or one the authors call theirs ("our X", "the
proposed X", "a novel X"); never after "for" a phrase the abstract names only as what the work rests
on ("a method rooted in X": :func:`_only_means`), nor one the opening only names as motivation or
consequence (:func:`.purpose.served`: "<a> for global food security" when only the first sentence
says food security matters; the same for "Name: <kind> for <b>"). Such a composed pair gives up ``CROSS_PENALTY`` of its
expected ROUGE-1 (and so does a phrase joined to the topic, composed by us as well), and never puts after "for" a word real titles seldom head a "for" phrase with
(:func:`.forms.not_for_objects`, learned: "<method> for hidden layers"); one whose first head
real titles seldom put before "for" (:func:`.relations.means_for`, learned: "labels for <task>")
gives up ``NOT_MEANS_PENALTY`` more, unless the authors say they propose it ("we propose a
novel skip-tree task"). Besides them, "<a> for
<b>" where a sentence of the abstract itself says "<a> (designed) for <b>" (:func:`_said_pairs`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..lexicon import DANGLING
from .checks import verbal_ending
from .contribution import find_contribution, own_sentences
from .described import proposed
from ..kinds import KIND_OF
from .constants import COMPONENT_HEADS, CROSS_PENALTY, MAKE_VERBS, MAX_WORDS, NOT_MEANS_PENALTY, SPELLED_MARGIN, CHOICE_PHRASES, NOT_FOR_HEADS, OPENING_SENTENCES, PAIR_MAX, PAIR_PHRASES, PURPOSE_PARTICIPLES
from .features import stems, Option, Scorer
from .forms import gerund_starts, not_for_objects
from .links import reads_reversed
from .relations import befores_of, contradicted_modifiers, means_for, opposite_said, precedes_a_for
from .text import head_noun, PARTICIPLE_END, strip_dangling
from .purpose import served
from .topic import phrase_with_topic


def candidates(plain: str, budget: int, scorer: Scorer, kind: tuple[list[str], str, int] | None = None,
               name: str | None = None) -> list[Option]:
    """The candidates with their features (:class:`.features.Scorer`), best expected ROUGE-1
    first; a phrase of at most ``budget`` words, a pair of at most ``PAIR_MAX``."""
    from ..phrases import ranked_phrases

    every = sorted(((scorer.info(words), words, s_idx) for _s, words, s_idx in ranked_phrases(plain, min(budget, 11))),
                   key=lambda isw: -isw[0][0])
    options: list[Option] = []
    own = own_sentences(plain)
    for e, phrase, i in every[:CHOICE_PHRASES]:
        words = strip_dangling(phrase)
        if len(words) < 2:
            continue
        options.append((*(e if words is phrase else scorer.info(words)), words, None))  # the phrase itself when nothing dangled
        # only a phrase of the authors' own sentences is joined to the topic: one of the opening says
        # what the topic is or does ("deep learning" of "BatchNorm has become a standard technique
        # in deep learning"), and "<it> for <topic>" reverses that
        base = _without_verbal_end(words, plain)
        joined = phrase_with_topic(base, plain, budget) if head_noun(base) not in NOT_FOR_HEADS and (not own or i in own) else words
        if joined is not words and joined is not base:
            e_j, new_j, n_j = scorer.info(joined)
            options.append((e_j - CROSS_PENALTY, new_j, n_j, joined, None))
    for m in _FINDING.finditer(plain):  # "we show that X drives Y": the finding, in the authors' words
        finding = strip_dangling(m.group(1).split())
        if 4 <= len(finding) <= budget and finding[0].lower() not in _NOT_SUBJECT:
            options.append((*scorer.info(finding), finding, None))
    if name:  # what the name stands for, alone and for the topic: the authors' own words
        for e, phrase, _i in every:
            if spells_out(phrase, name):
                options.append((e[0] + SPELLED_MARGIN, e[1], e[2], phrase, None))
                joined = phrase_with_topic(phrase, plain, budget)
                if joined is not phrase:
                    e_j, new_j, n_j = scorer.info(joined)
                    options.append((e_j + SPELLED_MARGIN, new_j, n_j, joined, None))
                break
    # what was made comes from a sentence where the authors speak of their own work when the
    # abstract has one: a phrase of the background or of a compared method is no contribution
    heads = [(w, e, i) for e, w, i in every if i > 0 and len(w) >= 2 and (not own or i in own)][:PAIR_PHRASES]
    heads = [(cut, scorer.info(cut), i) if (cut := _without_verbal_end(w, plain)) is not w else (w, e, i) for w, e, i in heads]
    tails = []
    not_for = not_for_objects()  # "<method> for hidden layers": real titles seldom say "for" that
    for e, w, i in every:
        if (i < OPENING_SENTENCES and len(w) >= 2 and "for" not in w and head_noun(w) not in not_for and not _only_means(w, plain)
                and served(w, plain, i)):
            low = [x.lower() for x in w]
            letters = "".join(x[:1] for x in low if x not in DANGLING)
            tails.append((w, e[1], e[2], stems(low), i, {letters, letters + "s"}, len(w)))
            if len(tails) == PAIR_PHRASES:
                break
    pair_max = min(budget, PAIR_MAX) - 1
    made = _made_phrases(plain)
    if kind and kind[0]:  # the name said to be "a video benchmark": that kind, for what it serves
        lead, clause, at = kind
        _e, toks_k, n_k = scorer.info(lead)
        options.append((_e, toks_k, n_k, lead, None))
        said_k = stems(x.lower() for x in lead)
        for e, b, i in every[:PAIR_PHRASES]:  # one of the best phrases up to the sentence after the one
            low = [x.lower() for x in b]  # introducing it (later ones hold its parts and results), but
            if (i <= at + 1 and 2 <= len(b) <= pair_max - len(lead) and "for" not in low and said_k.isdisjoint(stems(low))
                    and head_noun(b) not in not_for
                    and head_noun(b) not in KIND_OF and head_noun(b) not in COMPONENT_HEADS and " ".join(low) not in clause
                    and not reads_reversed(lead, b, plain) and served(b, plain, i)):
                # not a method, a part ("a framework for preference adapter") or a word of the rest
                # of its sentence ("an optimizer in which a classical policy ...")
                options.append((*scorer.pair(toks_k, n_k, e[1], e[2]), lead, b))
    for a, (_ea, toks_a, n_a), a_sentence in heads if tails else ():
        if " for " in f" {' '.join(a).lower()} " or PARTICIPLE_END.search(a[-1]) or head_noun(a) in NOT_FOR_HEADS:
            continue  # "a causal account" is of something, not for it
        said = stems(x.lower() for x in a)  # "transformers" and "transformer models", "real world" and "real-world" say it twice
        initials = "".join(x[:1] for x in a).lower()
        a_initials = {initials, initials + "s"}
        room = pair_max - len(a)
        spelled = spells_out(a, name)  # what the name stands for is the paper's own: no composed guess
        if not (spelled or proposed(a, plain) or _makes(a, made) or _owned(a, plain)):
            continue  # not what the paper makes: "<a background model> for <task>" is the readers' commonest false title
        # "higher-quality labels for <task>": real titles seldom put such a head before "for"
        penalty = 0.0 if spelled else CROSS_PENALTY + (0.0 if means_for(a) or proposed(a, plain) else NOT_MEANS_PENALTY)
        a_befores = befores_of(a, plain)  # "for"s that a follows: b before one says the reverse
        for b, toks_b, n_b, b_low, b_sentence, b_initials, b_len in tails:
            # what was made (said later) comes first, what the abstract opens with after "for";
            # "recurrent neural networks for stable RNNs" says it twice
            if (b_sentence >= a_sentence or b_len > room or not said.isdisjoint(b_low)
                    or not b_initials.isdisjoint(said) or not a_initials.isdisjoint(b_low)
                    or precedes_a_for(b, a_befores) or reads_reversed(a, b, plain)):
                continue
            e_ab, new_ab, n_ab = scorer.pair(toks_a, n_a, toks_b, n_b)  # composed: it must do clearly better
            options.append((e_ab - penalty, new_ab, n_ab, a, b))
    options += _said_pairs(plain, every, scorer, pair_max + 1, not_for, own)
    if contradicted_modifiers(plain):
        options = [o for o in options if not opposite_said(option_words(o[3], o[4]), plain)]
    options.sort(key=lambda option: -option[0])
    return options


_GAP_FOR = re.compile(
    r"^\s*(?:(?:specifically|especially|explicitly|designed|tailored|developed|intended|suitable|built|used|proposed)\s+){0,2}"
    r"for\s+(?:(?:the|a|an)\s+)?$", re.IGNORECASE)
_ACRONYM = re.compile(r"^\s*\([A-Za-z0-9-]{2,12}\)")
_GAP_BAD = re.compile(r"\b(?:which|that|who|where|we|our|is|are|was|were|and|but|while)\b|[;:.()]", re.IGNORECASE)


def _said_pairs(plain: str, every, scorer: Scorer, most: int, not_for: frozenset[str],
                own: frozenset[int] = frozenset()) -> list[Option]:
    """"<a> for <b>" where a sentence of the abstract itself says "<a> (designed) for <b>": the
    relation is the authors', not composed; from a sentence where they speak of their own work
    (``own``) when there is one."""
    from ..lexicon import split_sentences

    sentences = split_sentences(plain)
    gerunds = gerund_starts()
    by_sentence: dict[int, list] = {}
    for e, w, i in every:
        if len(w) >= 2:
            by_sentence.setdefault(i, []).append((e, w))
    out: list[Option] = []
    for i, found in by_sentence.items():
        if len(found) < 2 or i >= len(sentences) or (own and i not in own):
            continue
        sent = sentences[i][1]
        low = sent.lower()
        fors = [m for m in _FOR_AT.finditer(low)]
        if not fors and " to " not in low:
            continue  # the quick answer for most sentences
        ends: list[tuple[int, tuple, list[str]]] = []
        starts: dict[int, list[tuple[tuple, list[str]]]] = {}
        for e, w in found:
            text = " ".join(w).lower()
            at = low.find(text)
            if at >= 0:
                ends.append((at + len(text), e, w))
                starts.setdefault(at, []).append((e, w))
        for a_end, ea, a in ends:
            if "for" in (x.lower() for x in a):
                continue
            purpose = _PURPOSE_TO.match(low, a_end)  # "<a> (designed) to predict X": "<a> for predicting X"
            ing = gerunds.get(purpose.group(1)) if purpose else None
            if purpose and ing:
                said_b = [ing, *_said_object(sent[purpose.end():], most - len(a) - 2)]
                if len(said_b) >= 3 and head_noun(said_b[1:]) not in not_for:
                    eb = scorer.info(said_b)
                    out.append((*scorer.pair(ea[1], ea[2], eb[1], eb[2]), a, said_b))
            m = next((m for m in fors if m.start() >= a_end), None)
            if m is None:
                continue
            gap = _ACRONYM.sub("", sent[a_end : m.end()], count=1)  # "a large language model (LLM) tailored for ..."
            if not _GAP_FOR.match(gap) or _GAP_BAD.search(gap.rsplit("for", 1)[0]):
                continue
            found_b = starts.get(m.end(), [])
            room = most - len(a) - 1
            said_b = _said_object(sent[m.end():], room)
            if len(said_b) >= 2 and all(said_b != b for _eb, b in found_b):
                found_b = [*found_b, (scorer.info(said_b), said_b)]
            for eb, b in found_b:
                if len(b) <= room and head_noun(b) not in not_for:
                    out.append((*scorer.pair(ea[1], ea[2], eb[1], eb[2]), a, b))
    return out


_OBJECT_END = re.compile(
    r"[,;:.()\[\]]|\s(?:that|which|whose|where|while|whereas|by|using|via|through|so|thereby|and|or|with|we|to|is|are|in"
    r"|without|instead|rather|than|unlike)\s")
_PURPOSE_TO = re.compile(rf"\s+(?:(?:{'|'.join(PURPOSE_PARTICIPLES)})\s+)?to\s+([a-z]+)\s+")


def _said_object(rest: str, room: int) -> list[str]:
    """What "for" (or a purpose's verb) governs in the authors' own words: the text after it up
    to the first punctuation, clause word, conjunction or verb (the phrase model's learned verbs),
    at most ``room`` words (none when longer)."""
    from ..phrases import learned_verbs

    m = _OBJECT_END.search(rest)
    words = (rest[: m.start()] if m else rest).split()
    if len(words) > room:
        return []
    verbs = learned_verbs()  # "trackers designed for fixed cameras fail": the object stops before the verb
    cut = next((j for j, w in enumerate(words) if j and any(f"{w.lower()}{s}" in verbs for s in ("", "s", "es"))), len(words))
    return strip_dangling(words[:cut])


def spells_out(words: list[str], name: str | None) -> bool:
    """Is ``words`` the name spelled out ("Scalable Vector Network" of SaVeNet): the initials of
    its words, in order, the name's capitals?"""
    if not name or len(words) < 2:
        return False
    capitals = "".join(c for c in name if c.isupper()).lower()
    if len(capitals) < 3:
        return False
    kept = [w for w in words if w.lower() not in DANGLING]
    if "".join(w[:1] for w in kept).lower() == capitals:
        return True  # a hyphenated word may give one initial or one per part ("Multi-Agent" of MAFOCOPS)
    return any("-" in w for w in kept) and "".join(p[:1] for w in kept for p in w.split("-") if p).lower() == capitals


_FINDING = re.compile(r"\b(?:we|this paper|this work)\s+(?:also\s+)?(?:show|find|demonstrate|prove|reveal|observe)s?\s+that\s+"
                      r"((?:(?!\b(?:when|while|because|if|since|although|which|that|whereas|unless)\b)[^,;:.()])+)", re.IGNORECASE)
_NOT_SUBJECT = frozenset("it this these they there such our we its their the a an".split())


_FOR_AT = re.compile(r"\bfor\s+(?:(?:the|a|an)\s+)?")


def _without_verbal_end(words: list[str], plain: str) -> list[str]:
    """"A framework unifying (466,525 posts)" is joined to another phrase by its head, not by
    the participle whose object was cut (:func:`.checks.verbal_ending`); ``words`` itself when
    it does not end on one."""
    if not verbal_ending(words, plain):
        return words
    cut = strip_dangling(words[:-1])
    return cut if len(cut) >= 2 else words


def option_words(words: list[str], tail: list[str] | None) -> list[str]:
    """A candidate's words: a phrase, or ``words`` "for" ``tail``."""
    return words if tail is None else words + ["for"] + tail



def _made_phrases(plain: str) -> tuple[tuple[str, int], ...]:
    """What the paper makes: the contribution phrase (:func:`.contribution.find_contribution`: the
    object of "we propose / study / evaluate ..."), and the object of every other "we propose /
    present / develop ..." up to its first clause word ("we propose H2O, a cache eviction policy
    that ..."); each lowercased and padded with spaces, with where the words that may lead a pair
    end (those before its first preposition: "a construction with a unique equilibrium" makes the
    construction, not the equilibrium; "curriculum learning for post-training" is not made for
    curriculum learning)."""
    found = find_contribution(plain, MAX_WORDS)
    objects = [" ".join(found.words)] if found else []
    for m in _MAKES.finditer(plain):
        rest = plain[m.end():]
        if rest.startswith("to "):  # "we propose to train X with Y": a step, not a thing made
            continue
        end = _CLAUSE_END.search(rest)
        objects.append(rest[: end.start() if end else len(rest)])
    made = []
    for text in objects:
        head = _HEAD_END.search(text)
        made.append((f" {_bare(text.split())} ", len(_bare(text[: head.start()].split())) + 1 if head else 10**6))
    return tuple(made)


def _makes(a: list[str], made: tuple[tuple[str, int], ...]) -> bool:
    """Does ``a`` start among the words of what the paper makes (:func:`_made_phrases`)?"""
    said = f" {_bare(a)} "
    return any(0 <= phrase.find(said) < lead for phrase, lead in made)


def _bare(words: list[str]) -> str:
    """``words`` lowercased without the punctuation around each ("SpaWaNet, a Sparse Wave Network,")."""
    return " ".join(w.strip(_AROUND).lower() for w in words)


_AROUND = ",;:.()[]\"'“”‘’"
_MAKES = re.compile(r"\b(?:[Ww]e|[Tt]his (?:paper|work|study|article)|[Oo]ur (?:paper|work))\s+(?:\w+\s+)?"
                    rf"(?:{MAKE_VERBS}|contribute|offer)(?:s|d)?\s+"
                    r"|\bby\s+(?:introducing|proposing|presenting)\s+")
_CLAUSE_END = re.compile(r"[.;:!?]|\s(?:that|which|who|whose|where|when|while|whereas|to|by|using|via|through|based|from|than|"
                         r"unlike|we|is|are|was|were|can|could|and\s+(?:show|demonstrate|prove|evaluate|find))\s")
_HEAD_END = re.compile(r"\s(?:for|with|in|on|under|over|across|at|into|between|among|against|without|as|like|such|"
                       r"tailored|designed|trained|learned|built|used)\s")


def _only_means(b: list[str], plain: str) -> bool:
    """Does the abstract speak of ``b`` only as what the work rests on ("a method rooted in
    trust region theory", "inspired by human perception") or as an example of something ("rule
    models, e.g., decision trees")? Then "<a> for <b>" says what it does not."""
    said = " ".join(b).lower()
    low = plain.lower()
    at = low.find(said)
    if at < 0 or not said:
        return False
    while at >= 0:  # each place it is said, as re.finditer would find them (no regex made per phrase)
        if not _MEANS_BEFORE.search(low, max(0, at - 40), at):
            return False
        at = low.find(said, at + len(said))
    return True


_MEANS_BEFORE = re.compile(r"\b(?:based\s+on|rooted\s+in|inspired\s+by|grounded\s+in|built\s+(?:up)?on|derived\s+from|"
                           r"drawing\s+on|draws\s+on|leverag(?:e|es|ing)|us(?:e|es|ing)|via|exploit(?:s|ing)?|e\.g\.,?|such\s+as|including)\s+(?:(?:the|a|an)\s+)?$")


def _owned(a: list[str], plain: str) -> bool:
    """Do the authors call ``a`` theirs ("our cross-lingual reward model", "the proposed
    regularizer", "a novel testing approach")?"""
    said = " ".join(a).lower()
    low = plain.lower()
    return any(low.startswith(said, at) and not low[at + len(said) : at + len(said) + 1].isalnum()
               for at in _owned_starts(plain))


@lru_cache(maxsize=4)
def _owned_starts(plain: str) -> tuple[int, ...]:
    """Where the phrases the authors call theirs start (after "our", "the proposed", "a novel")."""
    return tuple(m.end() for m in _OWNED.finditer(plain))


_OWNED = re.compile(r"\b(?:[Oo]ur|[Tt]he\s+proposed|[Aa]n?\s+(?:novel|new))\s+(?:(?:novel|new|proposed)\s+)?")
