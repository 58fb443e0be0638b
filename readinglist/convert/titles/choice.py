"""The learned choice: among the candidates (the rule-made title, the abstract's noun phrases alone
or joined to the topic, "<phrase> for <phrase of the opening sentences>") that pass the checks
(:mod:`.checks`), the one with the best features (:mod:`.features`).
"""

from __future__ import annotations

from .checks import cut_start, ends_badly, ends_on_a_verb, field_for_name, for_a_verb, form_checked, passing, reads_as_clause, subject_and_verb
from .candidates import option_words, candidates, spells_out
from .contribution import background_only, led_by_proposed
from .described import head_before_participle, described_family, described_lead, fits_family, proposed_as_said, said_of_name, stated_description
from .constants import HEAD_PENALTY, PRONOUNS, RELATIVE, CHOICE_MARGIN, CHOICE_WEIGHT, MAX_WORDS, OWN_MARGIN, STATED_MARGIN
from .named import name_description
from .features import not_worse, Opening, opening_words, WORD_TOKENS, Scorer
from .relations import opposite_said
from .casing import expand
from .text import ALNUM, finish, first_tokens, goes_on, singular, strip_dangling, word_list
from ..kinds import KIND_OF


def by_expected_rouge(title: str, plain: str, name: str | None) -> str:
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
    after the name), the name not repeated, not ending on a participle; when the abstract says
    what kind of thing the name is, headed by that kind or saying what it is for
    (:func:`.described.fits_family`). Honest before clever: a phrase said only where the
    authors do not speak of their own work does not replace a title led by what they say they
    propose ("Large scale training of deep neural networks" for "a decentralized method to
    reduce the variation among workers")."""
    from ..title_words import load_model, tokens, word_probabilities

    probs = word_probabilities(plain, name, title)
    if not probs:
        return title
    length = load_model().get("title_length", 8.0)
    bare = bool(name) and title == name  # a title that is the name alone gets a subtitle when one passes
    named = bool(name) and (bare or title.startswith(f"{name}: "))
    budget = MAX_WORDS - (len(word_list(name or "")) if named else 0)
    if budget < 3 or (name and not named):
        return title
    if len(WORD_TOKENS) > 200_000:
        WORD_TOKENS.clear()
    get = probs.get
    scorer = Scorer(get, tokens(name or "") if named else [], length)
    prefix = scorer.prefix
    body = title[len(name or "") + 2 :] if named and not bare else ""
    description = name_description(plain, name, budget) if named and name else []  # what the abstract says the name is
    # the abstract's "Name, a <body>", or that appositive as the rules cleaned it ("a novel framework
    # for accurate ARVD quantization" -> "a framework for accurate autoregressive video ... quantization")
    described_as_said = bool(body) and bool(name) and _as_described(body, name or "", description, plain, budget)
    own = bool(body) and bool(name) and (said_of_name(body, plain, name or "") or described_as_said)
    if not named and title:
        # "we propose a <title>", or a <title> whose head (up to a preposition) they say they propose
        words = title.split()
        cuts = [len(words)] + [i for i in range(len(words) - 1, 1, -1) if words[i].lower() in _HEAD_ENDS]
        if PRONOUNS.isdisjoint(w.lower() for w in words):
            body = next((" ".join(words[:i]) for i in cuts if proposed_as_said(" ".join(words[:i]), plain)), "")
        own = bool(body)
    gives_way = _gives_way(title, plain, name, named, bare)
    if body and not own and name and gives_way:
        stated = stated_description(body, plain, name)  # "tinyV: a lightweight LLM-based verifier that checks the ..."
        if stated and stated != body:
            title, body, own = finish(f"{name}: {stated}") or title, stated, True
            gives_way = _gives_way(title, plain, name, named, bare)
    title_tokens = tokens(title)
    current = 0.0
    if title_tokens:
        current = 2.0 * sum([get(t, 0.0) for t in dict.fromkeys(title_tokens)]) / (len(title_tokens) + length) + CHOICE_MARGIN
        if body and (_stated(body, plain) or described_as_said):
            current += STATED_MARGIN + (OWN_MARGIN if own else 0.0)  # honest before clever: what the abstract says of the name
    options = candidates(plain, budget, scorer, described_lead(plain, name, budget) if named and name else None,
                         name if named else None)
    spelled = body.lower().split()
    if spelled and spells_out(spelled, name):  # "MAFOCOPS: multi-agent first order ...": no cut of it
        options = [o for o in options if not _cut_of(option_words(o[3], o[4]), spelled)]
    if own:  # a candidate saying more of it ("... for <task>") weighs with the same margin, any other must beat both
        said = [w.lower() for w in word_list(body) if w.lower() not in _ARTICLES]
        options = sorted(((o[0] + OWN_MARGIN, *o[1:]) if _extends(option_words(o[3], o[4]), said) else o for o in options),
                         key=lambda o: -o[0])
    described = described_family(plain, name) if named and name else None
    if described and name:  # "Name, a <kind> ...": no input, part or background phrase in its place
        options = [o for o in options if o[4] is None or fits_family(o[3], described, name)]
    said_head = _described_head(description)
    if said_head:  # "AGD, an optimizer that ...": a subtitle headed otherwise says the name is something else
        options = sorted(((o[0] - HEAD_PENALTY, *o[1:]) if not _same_kind(head_before_participle(o[3]), said_head) else o
                          for o in options), key=lambda o: -o[0])
    opening = opening_words(plain)
    if opening is None:  # nothing to weigh against: the first candidate scoring above the title made so far
        for score, made in passing(((o[0], option_words(o[3], o[4])) for o in options), plain, name, named):
            return made if score > current else title
        return title
    # the title made so far or the candidate (that passes the form checks) with the highest
    # probability of sharing no fewer of the real title's words than the abstract's opening
    # words do, plus CHOICE_WEIGHT times its expected ROUGE-1
    baseline = Opening(opening, get, length)
    best = not_worse(dict.fromkeys(title_tokens), len(title_tokens), baseline) + CHOICE_WEIGHT * current
    chosen = title
    if gives_way:
        best = -1.0  # any candidate that passes is better
    head = first_tokens(plain)
    chosen_words: list[str] | None = None  # the chosen phrase when it is one alone (not "<a> for <b>")
    for score, new, count, words, tail in options:
        if 1.0 + CHOICE_WEIGHT * score <= best:
            break  # a probability is at most 1: neither this option nor any after it can win
        # (-inf when an upper bound of the probability shows it cannot beat the best so far)
        value = not_worse({**dict.fromkeys(prefix), **new}, len(prefix) + count, baseline, best - CHOICE_WEIGHT * score) + CHOICE_WEIGHT * score
        if value > best:
            made = form_checked(option_words(words, tail), plain, name, named, head)
            if made:
                best, chosen, chosen_words = value, made, (words if tail is None else None)
    if (chosen_words and not named and not gives_way and background_only(chosen_words, plain)
            and (own or led_by_proposed(title.split(), plain))):
        return title  # honest before clever: what the authors propose, not a phrase of the background
    return _said_instead_of_field(chosen, plain, name, description) if named and name else chosen


def _said_instead_of_field(title: str, plain: str, name: str, description: list[str]) -> str:
    """"DAVinCI: large language models" says the name is the field it works in: what the abstract
    says the name is ("DAVinCI: a dual attribution and verification framework") when it says so,
    else the title as it is (vague, not false)."""
    if not title.startswith(f"{name}: ") or not field_for_name(title[len(name) + 2 :]):
        return title
    said = description
    if said and said[0] in ("A", "An", "The"):
        said = [said[0].lower(), *said[1:]]  # "AMBERT (A Multi-grained BERT)": an article after the colon
    made = form_checked(said, plain, name, True, first_tokens(plain)) if said else ""
    return made or title


def _gives_way(title: str, plain: str, name: str | None, named: bool, bare: bool) -> bool:
    """Does the title made so far give way to any candidate that passes the checks: the name
    alone, "models for explain rules", "... for covering large", "Tested on ...", "exact ..." of
    an approximate method?"""
    low = ALNUM.findall(title.lower())
    return (bare or (not named and len(low) <= 3) or for_a_verb(low) or ends_badly(title) or ends_on_a_verb(low, plain) or subject_and_verb(low, plain)
            or reads_as_clause(title, name if named else None)
            or cut_start(word_list(title[len(name or "") + 2 :] if named and not bare else title)) or opposite_said(low, plain))


def _stated(body: str, plain: str) -> bool:
    """Does the abstract say the title's description word for word (the name's appositive "X, a
    <description>" or its own "<object> for <purpose>")?"""
    return _plain_phrase(body) and " ".join(body.split()).lower() in plain.lower()


def _as_described(body: str, name: str, description: list[str], plain: str, budget: int) -> bool:
    """Is ``body`` what the abstract says the name is (:func:`.named.name_description`), its
    acronyms spelled out as the rule-made title spells them, a plain phrase (:func:`_plain_phrase`)
    that passes the form checks any candidate must pass?"""
    if not description or not _plain_phrase(body):
        return False
    said = [w.lower() for w in strip_dangling(expand(description, plain, budget)) if w.lower() not in _ARTICLES]
    if len(said) < 2 or [w.lower() for w in body.split() if w.lower() not in _ARTICLES] != said:
        return False
    if name_description(plain, name, 2 * MAX_WORDS) != description:
        return False  # cut to fit the title: no longer what the abstract says ("a dataset of 2.3K clips with dense")
    tail = " ".join(description[-2:]) + ", "
    at = plain.find(tail)
    if at >= 0 and goes_on(plain[at + len(tail) :]):
        return False  # cut at a comma inside the phrase ("a dataset of clips with dense, | bijective 3D ... correspondences")
    return form_checked(body.split(), plain, name, True, first_tokens(plain)) == f"{name}: {body}"


def _plain_phrase(body: str) -> bool:
    """Three words or more, no relative clause, no comma: a description as the abstract says it."""
    words = body.split()
    return len(words) >= 3 and RELATIVE.isdisjoint(w.lower() for w in words) and "," not in body


def _cut_of(words: list[str], spelled: list[str]) -> bool:
    """Do ``words`` hold part of the spelled-out name but not all of it ("order constrained
    optimization in policy space" of "multi-agent first order constrained optimization ...")?"""
    low = [w.lower() for w in words]
    n = len(spelled)
    if low[:n] == spelled:
        return False
    runs = {tuple(spelled[j : j + 3]) for j in range(n - 2)}  # any three of its words in a row
    return any(tuple(low[i : i + 3]) in runs for i in range(len(low) - 2))


_ARTICLES = ("a", "an", "the")
_HEAD_ENDS = frozenset("for with in on via to of from by using".split())  # where a noun phrase's head ends


def _extends(words: list[str], said: list[str]) -> bool:
    """Do ``words`` (articles aside) start with ``said`` and say more?"""
    low = [w.lower() for w in words if w.lower() not in _ARTICLES]
    return len(low) > len(said) and low[: len(said)] == said


def _described_head(description: list[str]) -> str | None:
    """The head noun of what the abstract says the name is ("an optimizer that ..." -> "optimizer"),
    singular and lowercase, or None."""
    head = head_before_participle(description) if description else None
    return singular(head) if head and len(head) > 3 else None


def _same_kind(head: str, said: str) -> bool:
    """Is ``head`` the noun ``said`` (singular) or one of its family ("transformer" and "model")?"""
    one = singular(head)
    return one == said or (one in KIND_OF and KIND_OF.get(one) == KIND_OF.get(said))
