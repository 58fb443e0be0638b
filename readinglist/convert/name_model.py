"""Which name does an abstract introduce? Candidates first, then a learned choice.

Stage 1, :func:`candidates`: every string that could be the paper's own name, each with the
*named* features that describe it (its shape, how often and where it occurs, the cue phrases
around it). Sources: coined-looking tokens (``CanViT``, ``M²LE``, ``FruitNeRF++``,
``CLIP-Adapter``), abbreviation definitions in the Schwartz-Hearst sense (``Graph Normalization
(GraphNorm)``: both the short and the long form), runs of capitalised words (``Digital Red
Queen``), words the author emphasised (``\\textsc{Pref-SHAP}``, ``**LIFT**``), and whatever the
hand-written cue rules of :mod:`readinglist.naming` found (their strength is a feature).

Stage 2, :func:`choose`: three learned linear models over those features, trained on real papers
(``python -m readinglist.convert.train_names``; the weights, thresholds, corpus hash and command
are in ``data/name_model.json``). The *ranking* model (``weights``, a conditional logit: a
softmax over one paper's candidates) orders the candidates: which one would be the Name of a
"Name: subtitle" title. The *decision* model (``decision_weights``, a logistic regression) reads
the best candidate's features, its ranking score, its lead over the runner-up and its share of
the softmax, and says whether the paper names itself with it at all (its title uses it); the
*Name* model (``name_weights``, a logistic regression over the same features) says whether it
is the Name of a "Name: subtitle" title. Their probabilities are mixed (``mix``, learned with the
threshold on held-out papers: the first says what precision asks, the second what recall
asks). The best candidate is the name when the mixed score reaches ``threshold`` (or its ranking score reaches
``rank_threshold``, which the shipped model leaves at 1e9: never); otherwise the paper has no
name. Kinds of candidate (a coined token, a spelled-out long form, an acronym defined by one, a
run of capitalised words, a plain word) weigh their contexts differently: ``kind&context``
features. A coined token in a link to the code (``github.com/x/IsoCLIP``)
(``repo_name`` when it is the repository's name) and a variant of a known model (``LLaVA-4D``,
``SAM3D-Phys``) are candidates like any other, with features of their own; a capitalised word many abstracts use (``Gaussian``) is told from a
new one by the corpus counts. A kind noun right before a mention ("the benchmark RiskProbe",
``kind_word_before``), a contribution verb a few words before it ("we introduce a new video
benchmark RiskProbe", ``after_cue_far``) and a name's variants among the candidates (``X-D`` and
``X-T`` of ``X``: ``has_variants_*`` / ``variant_of_candidate``) are features too, and so is each
mention's role (:mod:`readinglist.convert.name_roles`: ``role_*``, defined by the paper or only
cited, compared with, evaluated on, a measure; ``role_used_all`` when every mention read is a use),
a word met only inside an acronym's long form (``inside_long_form_only``) and a name first met
before the first contribution sentence (``before_first_cue_sentence``); a benchmark-like candidate
or one only used, beside a rival the paper defines ("experiments on RVE-Bench show that ReViSE
..."), has ``benchmark_like`` / ``used_while_rival_defined`` / ``benchmark_beside_method``.

Everything here is pure Python and deterministic; the training command alone uses scikit-learn.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from . import lexicon, name_roles, naming
from .models import DATA, read_model

__all__ = ["Candidate", "candidates", "choose", "load_model"]

_C = lexicon.NAME_CHARS
# A token: letters/digits joined by - + . ' ; may end in ++ or + ("FruitNeRF++", "Dr.V", "M0.5").
_TOKEN_BODY = rf"[{_C}]+(?:(?:[-+]|\.(?=[{_C}]))[{_C}]+)*(?:\+\+|\+(?![{_C}]))?"
_TOKEN = re.compile(rf"(?<![{_C}\-+]){_TOKEN_BODY}")
# The tokens that may be a candidate: those with a capital (every capital of _C is in _CAPITALS:
# A-Z, Latin-1's capitals, the Latin Extended blocks (both cases) and the Greek block) or a "+";
# an all-lowercase one never is. The look-ahead scans the run of token
# characters from the token's start, so it lets through every such token (and a few others,
# which the candidates' own test leaves out), and never starts a token where _TOKEN would not.
_CAPITALS = lexicon.UPPER + "\u0100-\u024f\u0370-\u03ff"
_TOKEN_CAPITAL = re.compile(rf"(?<![{_C}\-+])(?=[{_C}\-+.]*[{_CAPITALS}+]){_TOKEN_BODY}")
_CAP_WORD = rf"(?:[A-Z][{_C}]+(?:-[{_C}]+)*)"
_CAP_RUN = re.compile(rf"(?<![{_C}\-])({_CAP_WORD}(?: (?:(?:of|for|and|in|on|the|&) )?{_CAP_WORD}){{1,3}})(?![{_C}])")
_CUE_BEFORE = re.compile(
    r"(?:\b(?:introduce|propose|present|develop|design|build|release|construct|create|curate|contribute|offer|provide|call|term|dub)[sd]?"
    r"|\b(?:introducing|proposing|presenting|developing)|address (?:this|these|the) \w+ with)\s+(?:(?:the|our|a|an)\s+)?(?:(?:new|novel)\s+)?$",
    re.IGNORECASE,
)
_CALLED_BEFORE = re.compile(
    r"\b(?:called|termed|dubbed|named|coined|namely|(?:call|term|dub|name) (?:it|them|this|our \w+)|refer to (?:it |them |this \w+ )?as"
    r"|referred to as)\s+$",
    re.IGNORECASE,
)
_APPOS_AFTER = re.compile(r"^(?:\s*\([^()]{1,120}\))?\s*(?:,\s*(?:a|an|the|our)\b|:\s*(?:a|an|the)\b|\s+is\s+(?:a|an|the)\b|\s*[\u2014\u2013]\s*(?:a|an|the)\b)")
_KIND_AFTER = re.compile(
    r"^\s+(?:benchmark|dataset|data set|corpus|framework|model|method|algorithm|suite|library|toolkit|system|architecture|approach"
    r"|optimi[sz]er|agent|platform|environment|simulator|pipeline|family|protocol|engine|network|transformer|tool|testbed|loss)s?\b",
    re.IGNORECASE,
)
_OUR_BEFORE = re.compile(
    r"\b(?:our|the proposed|our proposed)\s+(?:[\w-]+\s+){0,2}?(?:method|framework|model|approach|system|benchmark|dataset|algorithm"
    r"|tool|library|architecture|agent|pipeline|optimi[sz]er|technique|suite),?\s+$",
    re.IGNORECASE,
)
_NP_COMMA_BEFORE = re.compile(r"\b(?:a|an|the)\s+(?:[\w-]+\s+){0,6}?[\w-]+,\s+$", re.IGNORECASE)
_SUBJECT_AFTER = re.compile(
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
_CUE_SUBJECT = re.compile(r"\b(?:we|this (?:paper|work|study)|our (?:work|paper))\b", re.IGNORECASE)
_CUE_VERB = re.compile(
    r"\b(?:introduc|propos|present|develop|design|build|releas|construct|creat|curat|contribut|offer|instantiat)", re.IGNORECASE
)


def _cue_sentence(sentence: str) -> bool:
    """``bool(_CUE_SENTENCE.search(sentence))``, quicker."""
    if "\n" in sentence:
        return bool(_CUE_SENTENCE.search(sentence))
    subject = _CUE_SUBJECT.search(sentence)
    return bool(subject and _CUE_VERB.search(sentence, subject.end()))
_FUNCTION_START = frozenset(
    """While When Where In To For As By With Unlike Since Although Though Our The This These That Those We It Its A An
    However Moreover Furthermore Additionally Finally First Second Third Then Thus Hence Therefore Specifically Using
    Building Based Given From On At Despite Both Each Such Existing Recent Current Prior Previous""".split()
)
_EMPH = re.compile(
    r"\\(?:textbf|textsc|texttt|mathbf|mathrm|textit|emph|mathsf|textsf|mathtt|mathcal)\{([^{}]{1,60})\}|\*\*([^*]{1,60})\*\*"
)
_PAREN_AFTER = re.compile(r"^\s*\(")
# Links to the paper's code or data ("https://github.com/someone/IsoCLIP"): their path names the system.
_URL = re.compile(r"(?:https?://|www\.|github\.com/|huggingface\.co/)\S+", re.IGNORECASE)
_REPO = re.compile(r"(?:github\.com|huggingface\.co|gitlab\.com)/(?:datasets/|spaces/)?[^/\s]+/([^/\s.#?]+)", re.IGNORECASE)
# ... whose owner ("github.com/grimalPaul/gsn-factory") is a person or a lab, not the system: of 427
# owners in train rows 50,000-52,999, 2 are in the paper's title
_OWNER = re.compile(r"(?:github\.com|huggingface\.co|gitlab\.com)/(?:datasets/|spaces/)?([^/\s]+)/", re.IGNORECASE)
_STOP = lexicon.MINOR_WORDS
_MODEL_PATH = DATA / "name_model.json"


@dataclass
class Candidate:
    """One possible name: its display form, where it first occurs, and its named features."""

    name: str
    pos: int
    features: dict[str, float]
    other_form: str | None = None  # its acronym, or the long form it abbreviates


def _bucket(n: int, edges: tuple[int, ...]) -> str:
    for e in edges:
        if n <= e:
            return str(e)
    return f"{edges[-1]}+"


@lru_cache(maxsize=1)
def load_model() -> dict:
    """The trained weights, threshold and word statistics (``data/name_model.json``)."""
    model = read_model(_MODEL_PATH)
    if not model:
        return {}
    model["common"] = frozenset(model.get("common_words", ()))
    model["frequent"] = dict(model.get("frequent_names", {}))
    return model


def _acronym_long_form(words: list[str], acro: str) -> list[str] | None:
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


def _kind_word_before(before: str) -> bool:
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
_TOOL_BEFORE = re.compile(r"\b(?:via|using|with|use|uses|apply|applying|on|to)\s+(?:the\s+)?$", re.IGNORECASE)
# The words every match of _CUE_BEFORE / _CALLED_BEFORE starts with (lowercase).
_CUE_STARTS = ("introduc", "propos", "present", "develop", "design", "build", "releas", "construct", "creat", "curat",
               "contribut", "offer", "provid", "call", "term", "dub", "address")
_CALLED_STARTS = ("call", "term", "dub", "name", "coin", "refer")


def _find_all(text: str, literal: str) -> list[int]:
    out = []
    i = text.find(literal)
    while i >= 0:
        out.append(i)
        i = text.find(literal, i + 1)
    return out


def _after_cue_far(window: str, end: int, cue_verbs: list[int] | None) -> bool:
    """``bool(_CUE_FAR.search(window))`` for the ``window`` of text that ends at ``end``, tried only
    where a contribution verb starts (``cue_verbs``: where one of _CUE_STARTS starts in the
    lowercased text, sorted; None: look everywhere)."""
    if cue_verbs is None or not window.isascii():
        return _ends_on(_CUE_FAR, window, _CUE_STARTS)
    start = end - len(window)
    i = bisect.bisect_left(cue_verbs, start)
    while i < len(cue_verbs) and cue_verbs[i] < end:
        if _CUE_FAR.match(window, cue_verbs[i] - start):
            return True
        i += 1
    return False


def _ends_on(pattern: re.Pattern, text: str, starts: tuple[str, ...]) -> bool:
    """``bool(pattern.search(text))`` for a cue pattern whose every match starts with one of the
    ``starts`` words: in ASCII text (where lowercasing is what IGNORECASE does) the pattern is
    only tried where one of them occurs, not at every position of the text."""
    return bool(lexicon.finditer_at(pattern, text, text.lower() if text.isascii() else None, starts))
_NAME_CHAR = re.compile(rf"[{_C}]")


def _occurrences(plain: str, name: str) -> list[int]:
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


# Coined shapes lexicon.is_coined leaves out because titles need it strict: capitals ending in
# one or two small letters ("CAFe", "GIBLy"; not a plural "LLMs"), capitals joined to a name
# suffix ("CAR-bench", "SEAL-pose") and hyphenated phrases that coin a procedure
# ("Align-then-Unlearn", "Render-in-the-Loop").
_CAPS_THEN_SMALL = re.compile(r"[A-Z]{2,}[a-z]{1,2}(?<!s)")
_CAPS_NAME_SUFFIX = re.compile(
    r"[A-Z][A-Z0-9]+-(?:bench|pose|net|former|gen|agent|bot|seg|det|eval|coder|chat|zero|pro|mini|lite|flow|fusion|world|verse|edit)"
)
_HYPHEN_PHRASE = re.compile(r"[A-Z][a-z]+(?:-(?:then|and|to|in|the|of|for|as|or|with|by|on))+-[A-Z0-9][A-Za-z0-9]*")


@lru_cache(maxsize=65536)
def _coined(token: str) -> bool:
    return lexicon.is_coined(token) or bool(
        _CAPS_THEN_SMALL.fullmatch(token) or _CAPS_NAME_SUFFIX.fullmatch(token) or _HYPHEN_PHRASE.fullmatch(token)
    )


_CAMEL_START = re.compile(r"[A-Z][a-z]+[A-Z0-9]")
_RARE_WORD = re.compile(r"[A-Z][a-z]{2,}")


def candidates(raw: str, plain: str, *, own_counts: int = 0, skip_generic: bool = False) -> list[Candidate]:
    """Every candidate name of the abstract with its features (see the module docstring).

    ``own_counts``: how many times the corpus statistics counted this very abstract (1 while
    training on the corpus they were counted from, so a paper's own name looks as rare as a new
    paper's does at run time). ``skip_generic``: leave out everyday acronyms (feature
    ``generic_acronym``), which :func:`choose` never picks, without working out their features."""
    if not plain:
        return []
    model = load_model()
    common, frequent = model.get("common", frozenset()), model.get("frequent", {})
    found: dict[str, dict[str, float]] = {}
    first: dict[str, int] = {}
    pairs: list[tuple[str, str]] = []  # (acronym, its long form)
    generic_forms: set[str] = set()  # long forms of everyday acronyms ("large language models")
    long_spans: list[tuple[int, int, str]] = []  # (start, end, acronym) of each long form before "(ACRO)"

    def add(name: str, pos: int, **flags: float) -> None:
        name = name.strip(" ,.;:-")
        if "'" in name or "’" in name:
            name = lexicon.strip_possessive(name)
        if not name or len(name) > 60 or not re.search(r"[A-Za-z]", name):
            return
        if name.count("(") != name.count(")") or name.count("[") != name.count("]"):
            return  # a cut-off span ("**B (** ..."), never a name a title can hold
        f = found.setdefault(name, {})
        for k, v in flags.items():
            f[k] = max(f.get(k, 0.0), v)
        first[name] = min(first.get(name, pos), pos)

    # 1. tokens that look coined or carry ++
    for m in _TOKEN_CAPITAL.finditer(plain):
        tok = m.group(0)
        if tok.islower() and tok[-1] != "+":
            continue  # no candidate is all lowercase (is_coined needs a capital)
        if "'" in tok or "’" in tok:
            tok = lexicon.strip_possessive(tok)
        if tok.endswith(".git"):
            tok = tok[:-4]  # a repository's clone address ("github.com/x/ClimateVID.git"): its name
        if tok.endswith("+") or _coined(tok.rstrip("+")) or _CAMEL_START.match(tok):
            add(tok, m.start())
        elif common and _RARE_WORD.fullmatch(tok) and tok.lower() not in common and tok not in lexicon.NOT_A_NAME_WORD:
            add(tok, m.start())  # "Koopa", "Brant": a capitalised word that is no common word
    # 2. the hand-written cue rules
    try:
        ruled = naming.rule_candidates(raw, plain)
    except Exception:  # noqa: BLE001 - the rules are only a feature; a bug there loses a feature
        ruled = []
    for strength, pos, name in ruled:
        add(name, pos, **{f"rule_strength_{strength}": 1.0})
    if ruled:  # the hand-written rules' own choice (strongest cue, earliest)
        _s, pos, name = min(ruled, key=lambda c: (-c[0], c[1]))
        add(name, pos, rule_choice=1.0)
    # 3. abbreviation definitions: "long form (ACRO)"
    for m in re.finditer(rf"\(({lexicon.NAME_PATTERN}\+*)(?:s)?(?:[;,][^()]*)?\)", plain):
        acro = m.group(1)
        if lexicon.is_generic(acro):
            generic_long = _acronym_long_form(plain[max(0, m.start() - 300) : m.start()].split(), acro)
            if generic_long:
                generic_forms.add(" ".join(generic_long).lower())
            continue
        if not (_coined(acro) or re.fullmatch(r"[A-Z]{2,}[a-z]?", acro)):
            continue
        words = plain[max(0, m.start() - 300) : m.start()].split()
        long = _acronym_long_form(words, acro)
        add(acro, m.start() + 1, defined_by_long_form=1.0 if long else 0.0, in_parens=1.0)
        if long:
            long_text = " ".join(long)
            long_spans.append((plain.rfind(long_text, 0, m.start()), m.start(), acro))
            title_case = all(w[:1].isupper() for w in long if w.lower() not in _STOP)
            if not title_case or len(long) > 6:  # "reinforcement learning (RL)" names no system
                continue
            add(long_text, max(0, plain.rfind(long_text, 0, m.start())), is_long_form=1.0,
                long_form_of_mixed_case=1.0 if re.search(r"[a-z]", acro) else 0.0)
            pairs.append((lexicon.strip_possessive(acro), long_text))
            found[acro]["has_long_form_title_case"] = 1.0
    # 4. runs of capitalised words ("Digital Red Queen")
    for m in _CAP_RUN.finditer(plain):
        words = m.group(1).split()
        if words[0] in lexicon.NOT_A_NAME_WORD or words[0] in _FUNCTION_START:
            continue
        # a run stops before a word that starts a clause ("LLM This paper ..." without a full stop)
        cut = next((i for i, w in enumerate(words) if i and w in _FUNCTION_START), len(words))
        while cut > 1 and words[cut - 1].lower() in _STOP:
            cut -= 1
        if cut >= 2:
            add(" ".join(words[:cut]), m.start(), cap_run=1.0)
    # 5. emphasis in the raw text
    if "\\" in raw or "**" in raw:
        for m in _EMPH.finditer(raw):
            # trimmed as a title's end is ("**0AA&**": a name the title would cut to "0AA")
            span = (m.group(1) or m.group(2) or "").strip().rstrip(",;:.!?-\u2013\u2014/&").strip()
            if 1 <= len(span.split()) <= 4 and re.search(r"[A-Z]", span) and span in plain:
                add(span, plain.find(span), emphasized=1.0)
    sentences = lexicon.split_sentences(plain)
    starts = [s for s, _ in sentences]
    urls = [(m.start(), m.end()) for m in _URL.finditer(plain)] if ("http" in plain or "www." in plain or ".com/" in plain or ".co/" in plain) else []
    cue_sents = {i for i, (_o, s) in enumerate(sentences) if _cue_sentence(s)}
    first_cue = min(cue_sents, default=-1)  # no contribution sentence: no name is met before one
    # the repository a code link names ("github.com/someone/IsoCLIP"): very often the paper's own name
    repos = {m.group(1).lower() for a, b in urls for m in [_REPO.search(plain, a, b)] if m} if urls else set()
    owners = {m.start(1) for a, b in urls for m in _OWNER.finditer(plain, a, b)} if urls else set()
    length = max(1, len(plain))
    # where a contribution verb starts (in the lowercased text), found when first needed:
    # after_cue_far is only looked for after one (its every match starts with one of _CUE_STARTS)
    verbs_at: list[list[int] | None] = []

    def cue_verbs() -> list[int] | None:
        if not verbs_at:
            low = plain.lower()
            verbs_at.append(sorted(i for stem in _CUE_STARTS for i in _find_all(low, stem)) if len(low) == len(plain) else None)
        return verbs_at[0]

    for form in generic_forms:
        for name in [n for n in found if n.lower() in (form, form + "s", form.rstrip("s"))]:
            del found[name], first[name]
    ordered = sorted(first, key=lambda n: first[n])
    out = []
    paired = {n for pair in pairs for n in pair}  # their features feed each other's: never skipped
    shapes = model.setdefault("_shapes", {})  # a name's shape, for this model's word statistics
    for rank, name in enumerate(ordered):
        f = found[name]
        shape = shapes.get((name, own_counts))
        if shape is None:
            if len(shapes) > 100_000:
                shapes.clear()
            shape = shapes[(name, own_counts)] = _shape(name, common, frequent, own_counts)
        if skip_generic and shape.get("generic_acronym") and name not in paired:
            continue
        occ = _occurrences(plain, name) or [first[name]]
        f.update(shape)
        f["bias"] = 1.0
        f[f"count_{_bucket(len(occ), (1, 2, 4))}"] = 1.0
        f[f"rank_{_bucket(rank, (0, 1, 3))}"] = 1.0
        sent_idx = [_sentence_index(starts, p) for p in occ]
        f[f"first_sentence_{_bucket(sent_idx[0], (0, 1, 2))}"] = 1.0
        f["in_cue_sentence"] = 1.0 if any(i in cue_sents for i in sent_idx) else 0.0
        f["first_in_cue_sentence"] = 1.0 if sent_idx[0] in cue_sents else 0.0
        if sent_idx[0] < first_cue:
            f["before_first_cue_sentence"] = 1.0  # met in the background, before the paper says what it made
        f[f"first_at_{_bucket(int(10 * first[name] / length), (1, 4, 7))}"] = 1.0
        if name.lower() in repos:
            f["repo_name"] = 1.0
        if urls:
            in_url = [p for p in occ if any(a <= p < b for a, b in urls)]
            if in_url:
                f["in_url"] = 1.0
                if len(in_url) == len(occ):
                    f["only_in_url"] = 1.0
                    if owners.issuperset(occ):
                        f["url_owner_only"] = 1.0  # never the name (see decide)
        n_prior = n_used = 0
        if long_spans and " " not in name and any(a <= occ[0] < b for a, b, _acro in long_spans) and all(
            any(a <= p < b and acro != name for a, b, acro in long_spans) for p in occ
        ):
            f["inside_long_form_only"] = 1.0  # "UNlearning" of "Machine UNlearning via KEY deletion (MUNKEY)"
        for p in occ[:6]:  # the first mentions say how a name is introduced
            before = plain[max(0, p - 80) : p]
            low = before[-60:].lower()
            after = plain[p + len(name) : p + len(name) + 140]
            if _ends_on(_CUE_BEFORE, before[-60:], _CUE_STARTS):
                f["after_cue"] = 1.0
            if _ends_on(_CALLED_BEFORE, before[-50:], _CALLED_STARTS):
                f["after_called"] = 1.0
            if _APPOS_AFTER.match(after):
                f["appositive_after"] = 1.0
            if _KIND_AFTER.match(after):
                f["kind_word_after"] = 1.0
            if ("our " in low or "proposed" in low) and _OUR_BEFORE.search(before):
                f["our_kind_before"] = 1.0
            if before.rstrip().endswith(",") and _NP_COMMA_BEFORE.search(before):
                f["np_comma_before"] = 1.0
            if _SUBJECT_AFTER.match(after) and naming.starts_sentence(plain, p):
                f["sentence_subject"] = 1.0
            if not f.get("kind_word_before") and _kind_word_before(before):
                f["kind_word_before"] = 1.0
            if not f.get("after_cue") and not f.get("after_cue_far") and _after_cue_far(before[-80:], p, cue_verbs()):
                f["after_cue_far"] = 1.0
            if _TOOL_BEFORE.search(before[-12:]):
                f["tool_word_before"] = 1.0  # "via X", "using X": a tool, often someone else's
            if after.startswith(":"):
                f["colon_after"] = 1.0
            if _PAREN_AFTER.match(after):
                f["paren_after"] = 1.0
            if naming.prior_context(plain, p):
                n_prior += 1
            roles = name_roles.mention_roles(before, after)
            for role in roles:
                f[role] = 1.0
            if any(r in name_roles.USE_ROLES for r in roles):
                n_used += 1
                if p == occ[0]:
                    f["role_used_first"] = 1.0
        if n_used and n_used == len(occ[:6]):
            f["role_used_all"] = 1.0  # every mention read is cited, compared, evaluated on or a measure
        if n_prior:
            f["prior_context_any"] = 1.0
            if n_prior == len(occ[:6]):
                f["prior_context_all"] = 1.0
        if not any(f[ctx] for ctx in _INTRODUCING_SET.intersection(f)):
            f["no_introducing_context"] = 1.0  # named in passing: no cue, appositive, emphasis or code link
        kind = _kind(f)
        for ctx in [k for k in f if k in _CONTEXTS_SET and f[k]]:
            f[f"{kind}&{ctx}"] = 1.0
        out.append(Candidate(name, first[name], {k: v for k, v in f.items() if v}))
    _rival_roles(out)
    n_coined = sum(1 for c in out if c.features.get("coined") and not c.features.get("generic_acronym"))
    for c in out:
        c.features[f"coined_in_paper_{_bucket(n_coined, (1, 2, 4))}"] = 1.0
    by_name = {c.name: c for c in out}
    # families: "projUNN-D" and "projUNN-T" are variants of "projUNN", "JT-Safe-35B" one of "JT-Safe"
    n_variants: dict[str, int] = {}
    for c in out:
        if ("-" in c.name or "_" in c.name) and " " not in c.name:
            for i, ch in enumerate(c.name):
                # a prefix of three or more characters cut at "-" or "_" that is a one-word candidate
                if (ch == "-" or ch == "_") and i >= 3 and i < len(c.name) - 1 and c.name[:i] in by_name:
                    c.features["variant_of_candidate"] = 1.0
                    n_variants[c.name[:i]] = n_variants.get(c.name[:i], 0) + 1
    for base, n in n_variants.items():
        by_name[base].features[f"has_variants_{_bucket(n, (1,))}"] = 1.0
    for acro, long_form in pairs:
        a, lf = by_name.get(acro), by_name.get(long_form)
        if not a or not lf:
            continue
        a.other_form, lf.other_form = lf.name, a.name
        # "Long Form (ACRO), a ...": the acronym inherits the long form's appositive below
        # (long_form_appositive_after); its own role_paren_appositive is for an acronym alone
        for k in [k for k in a.features if k.endswith("role_paren_appositive")]:
            del a.features[k]
        if lf.features.get("multi_metric_head"):
            a.features["long_form_metric_head"] = 1.0  # "Calibrated Agreement Score (CAS)"
        # the acronym inherits where its long_form form stands ("we propose Long Form (ACRO), a ...")
        for ctx in ("after_cue", "after_called", "appositive_after", "our_kind_before", "np_comma_before", "first_in_cue_sentence"):
            if lf.features.get(ctx):
                a.features[f"long_form_{ctx}"] = 1.0
        n_acro = len(_occurrences(plain, acro))
        a.features[f"acronym_uses_{_bucket(n_acro, (1, 2, 4))}"] = 1.0
        lf.features[f"its_acronym_uses_{_bucket(n_acro, (1, 2, 4))}"] = 1.0
        if re.search(r"[a-z]", acro):
            lf.features["its_acronym_mixed_case"] = 1.0
            a.features["acronym_mixed_case"] = 1.0
    return out


# Contexts whose weight depends on the candidate's kind (a coined token after "we propose" is
# surely a name, a capitalised common word there much less so): kind & context features.
_CONTEXTS = (
    "after_cue", "after_called", "appositive_after", "kind_word_after", "our_kind_before", "np_comma_before",
    "sentence_subject", "paren_after", "in_parens", "defined_by_long_form", "prior_context_any", "first_in_cue_sentence",
    "in_cue_sentence", "count_1", "count_2", "count_4", "count_4+", "first_sentence_0", "rule_strength_3",
    "rule_strength_2", "rule_strength_1", "emphasized", "rank_0", "colon_after", "rule_choice", "tool_word_before",
    "in_url", "known_family_variant", "repo_name", "kind_word_before", "after_cue_far", "variant_of_candidate", "has_variants_1",
    "has_variants_1+", "first_at_1", "first_at_4", "first_at_7", "first_at_7+",
    "no_introducing_context", "role_used_all", "role_used_first", "role_eval_object", "role_used_dataset", "role_compared",
    "role_cited", "role_metric_after", "role_shows_that", "role_paren_appositive", "role_clause_subject", "inside_long_form_only",
    "before_first_cue_sentence",
)


# The contexts that introduce a name (the paper's own, or someone else's).
_INTRODUCING = (
    "after_cue", "kind_word_before", "after_cue_far", "after_called", "appositive_after", "kind_word_after", "our_kind_before", "np_comma_before",
    "sentence_subject", "emphasized", "in_url", "rule_strength_3", "rule_strength_2", "rule_strength_1", "colon_after",
    "defined_by_long_form", "is_long_form", "role_paren_appositive",
)


_CONTEXTS_SET, _INTRODUCING_SET = frozenset(_CONTEXTS), frozenset(_INTRODUCING)
_DEFINING = ("after_cue", "after_called", "appositive_after", "our_kind_before", "rule_strength_3", "role_paren_appositive")
_BENCHMARK_NAME = re.compile(r"(?:[Bb]ench|BENCH|[Ss]et|QA|[Dd]ata|[Cc]orpus|[Aa]rena|[Ee]val|[Gg]ym)(?:[-_ ]?[\dA-Z.]*)?$")


def _rival_roles(out: list[Candidate]) -> None:
    """Features that compare a candidate with its rivals in the same abstract: a benchmark or a
    data set the paper evaluates on ("experiments on RVE-Bench show that ReViSE ...") beside a
    method it defines and never only uses: ``used_while_rival_defined``, ``benchmark_beside_method``."""
    defined = [c for c in out if any(c.features.get(k) for k in _DEFINING)
               and not any(c.features.get(r) for r in name_roles.USE_ROLES)]
    for c in out:
        f = c.features
        bench = bool(" " not in c.name and _BENCHMARK_NAME.search(c.name)) or bool(
            f.get("role_used_dataset") or (f.get("kind_word_after") and f.get("role_eval_object")))
        if bench:
            f["benchmark_like"] = 1.0
        rivals = [r for r in defined if r is not c and r.name != c.other_form and c.name not in r.name and r.name not in c.name]
        if not rivals:
            continue
        if any(f.get(r) for r in name_roles.USE_ROLES):
            f["used_while_rival_defined"] = 1.0
        if bench and any(not _BENCHMARK_NAME.search(r.name) for r in rivals):
            f["benchmark_beside_method"] = 1.0


def _kind(f: dict[str, float]) -> str:
    if f.get("is_long_form"):
        return "long"
    if f.get("words_2") or f.get("words_3") or f.get("words_4"):
        return "multi"
    if f.get("defined_by_long_form"):
        return "acro"
    if f.get("coined"):
        return "coined"
    if f.get("capitalised_word"):
        return "commonword" if f.get("common_word") else "rareword"
    return "other"


def _sentence_index(starts: list[int], pos: int) -> int:
    i = 0
    for j, s in enumerate(starts):
        if s <= pos:
            i = j
        else:
            break
    return i


_MIXED = re.compile(r"[a-z][A-Z]")
_DIGIT = re.compile(r"\d")
_CAPITALISED = re.compile(r"[A-Z][a-z]+")
_KNOWN_PREFIXES = tuple(k for k in lexicon.KNOWN_SYSTEMS if len(k) >= 3)


def _shape(name: str, common: frozenset, frequent: dict, own_counts: int = 0) -> dict[str, float]:
    words = name.split()
    f: dict[str, float] = {f"words_{min(len(words), 4)}": 1.0}
    if len(words) == 1:
        tok = name
        core = tok.rstrip("+")
        f["coined"] = float(_coined(core))
        f["all_caps"] = float(core.isupper() and len(core) >= 2)
        f["mixed_case"] = float(bool(_MIXED.search(core)))
        f["has_digit"] = float(bool(_DIGIT.search(core)))
        f["has_hyphen"] = float("-" in core)
        f["plus_plus"] = float(tok.endswith("+"))
        f["capitalised_word"] = float(bool(_CAPITALISED.fullmatch(core)))
        f["short_2_3"] = float(len(core) <= 3)
        f["common_word"] = float(core.lower() in common)
        generic = lexicon.is_generic(core)
        acronym = generic and _everyday(core)
        f["generic_acronym"] = float(acronym)
        # "LLaVA-4D", "SAM3D-Phys", "GPT4Tools": built on a known model, may be a new system;
        # "GPT-4o", "Qwen2.5" are the known model itself (the corpus counts tell them apart)
        f["known_family_variant"] = float(generic and not acronym)
        parts = [p for p in re.split(r"[-+]", core) if p]
        f["generic_parts"] = float(len(parts) > 1 and all(lexicon.is_generic(p) or p.isdigit() for p in parts))
        low = core.lower()
        f["built_on_known"] = float(
            not f["generic_acronym"] and low.startswith(_KNOWN_PREFIXES)
            and any(low.startswith(k) and len(low) > len(k) + 1 for k in _KNOWN_PREFIXES)
        )
        df = max(0, frequent.get(core, 0) - own_counts)
        f[f"corpus_df_{_bucket(df, (2, 9, 49))}"] = 1.0
    else:
        f["multi_title_case"] = float(all(w[:1].isupper() for w in words if w.lower() not in _STOP))
        f["multi_has_coined"] = float(any(_coined(w) for w in words))
        f["multi_common_words"] = float(all(w.lower() in common or w.lower() in _STOP for w in words))
        f["multi_generic"] = float(any(lexicon.is_generic(w) for w in words))
        # "Evidence Attribution Recall", "Calibrated Agreement Score": a measure, not a system
        f["multi_metric_head"] = float(words[-1].lower().rstrip("s") in _METRIC_WORDS)
        # "Large Language Models", "Vision-Language Models": spelled-out everyday acronyms
        initials = "".join(p[:1] for w in words if w.lower() not in _STOP for p in w.split("-") if p).upper()
        f["generic_acronym"] = float(len(initials) >= 2 and initials in lexicon.GENERIC_ACRONYMS)
        # how many training abstracts capitalise this phrase ("Knowledge Distillation": many)
        df = max(0, frequent.get(name.lower(), 0) - own_counts)
        f[f"phrase_df_{_bucket(df, (2, 9, 49))}"] = 1.0
    return f


_METRIC_WORDS = frozenset(
    "score metric measure index criterion statistic rate distance divergence recall precision accuracy error ratio"
    " coefficient gap".split()
)


def _everyday(core: str) -> bool:
    """An everyday acronym or a known family's bare name ("LLM", "LLMs", "GPT", "Adam"), never a new system."""
    upper = lexicon.strip_possessive(core).upper()
    if upper in lexicon.GENERIC_ACRONYMS or (upper.endswith("S") and upper[:-1] in lexicon.GENERIC_ACRONYMS):
        return True
    low = core.lower()
    return any(low in (k, k + "s") for k in lexicon.KNOWN_SYSTEMS)


def _logit(features: dict[str, float], weights: dict[str, float]) -> float:
    return sum(weights.get(k, 0.0) * v for k, v in features.items())


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def score(features: dict[str, float], model: dict) -> float:
    """The ranking model's probability that a candidate with these features is the paper's name
    (given that the paper has one)."""
    return _sigmoid(_logit(features, model.get("weights", {})))


def decision_features(ranked: list[tuple[float, Candidate]]) -> dict[str, float]:
    """The named features of "does this paper name itself with its best candidate?": the best
    candidate's own features, its ranking score and its lead over the runner-up."""
    top_z, top = ranked[0]
    # the lead over the best rival: the top's other form ("GraphNorm" / "Graph Normalization")
    # names the same system and is no rival
    rivals = [z for z, c in ranked[1:] if c.name != top.other_form]
    second = rivals[0] if rivals else top_z - 6.0
    f = dict(top.features)
    if len(ranked) > 1 and ranked[1][1].name == top.other_form:
        f["runner_up_is_its_other_form"] = 1.0
    f["kind_" + _kind(top.features)] = 1.0
    f["rank_logit"] = max(-8.0, min(8.0, top_z))
    f["rank_margin"] = max(0.0, min(6.0, top_z - second))
    f[f"candidates_{_bucket(len(ranked), (1, 3, 8))}"] = 1.0
    return f


def rank(cands: list[Candidate], model: dict) -> list[tuple[float, Candidate]]:
    """(ranking logit, candidate), best first (ties: the earliest); everyday acronyms left out."""
    weights = model.get("weights", {})
    out = [(_logit(c.features, weights), c) for c in cands if not c.features.get("generic_acronym")]
    out.sort(key=lambda zc: (-zc[0], zc[1].pos))
    return out


def decide(ranked: list[tuple[float, Candidate]], model: dict) -> tuple[str | None, float]:
    """(name or None, the decision score of the best candidate).

    The score mixes two probabilities read from the same decision features: the decision
    model's (``decision_weights``: does the real title use the candidate at all?) and the
    Name model's (``name_weights``: is it the Name of a "Name: subtitle" title?), as
    ``(p_name + mix * p_title) / (1 + mix)``; ``mix`` and ``threshold`` are learned together on
    held-out papers. A model file without ``name_weights`` scores by ``p_title`` alone."""
    if not ranked:
        return None, 0.0
    f = decision_features(ranked)
    p = _sigmoid(_logit(f, model.get("decision_weights", {})))
    name_weights = model.get("name_weights")
    if name_weights:
        mix = model.get("mix", 1.0)
        p = (_sigmoid(_logit(f, name_weights)) + mix * p) / (1.0 + mix)
    sure = p >= model.get("threshold", 0.5) or ranked[0][0] >= model.get("rank_threshold", math.inf)
    if ranked[0][1].features.get("url_owner_only"):
        sure = False  # only ever the owner of a code link ("github.com/grimalPaul/..."): a person or a lab
    return (ranked[0][1].name if sure else None), p


def choose(raw: str, plain: str) -> str | None:
    """The name the abstract introduces: the ranking model's best candidate, when the decision
    model is sure enough that the paper names itself with it."""
    model = load_model()
    if not model:
        return None
    cands = candidates(raw, plain, skip_generic=True)
    name = decide(rank(cands, model), model)[0]
    if name is None or _only_a_source(name, cands, plain) or _credited_to_others(name, plain):
        return None
    return _acronym_for_part(name, cands, plain)


# "judgments of the European Court of Human Rights (ECtHR)", "data from the UK Biobank": what a
# name right after these words names is something the paper uses, not the paper's own
_SOURCE_BEFORE = re.compile(r"(?:\b(?:of|from|by|at)\s+the|\bjudgments\s+of|\bdata\s+from)\s*$", re.IGNORECASE)


# "the ObjectNet dataset recently proposed by Barbu et al.", "X (Smith et al., 2020)"
_CREDITED_AFTER = re.compile(r"[^.;:]{0,60}?\bet\s+al\b")


def _credited_to_others(name: str, plain: str) -> bool:
    """Is ``name`` credited to other authors ("... proposed by Barbu et al.") where it is first
    mentioned?"""
    at = plain.find(name)
    return at >= 0 and _CREDITED_AFTER.match(plain, at + len(name)) is not None


def _only_a_source(name: str, cands: list[Candidate], plain: str) -> bool:
    """Is every mention of ``name`` (or of the long form it abbreviates) the object of "of the",
    "from the", "by the", "at the": an institution, a source of data, another's work?"""
    forms = [name] + [c.name for c in cands if c.other_form == name]
    mentions = [(p, f) for f in forms for p in _find_all(plain, f)]
    if not mentions:
        return False
    long_spans = [(p, p + len(f)) for p, f in mentions if f != name]
    for p, f in mentions:
        if f == name and any(a <= p <= b + 2 for a, b in long_spans):
            continue  # the acronym right after its long form: the long form's context counts
        if not _SOURCE_BEFORE.search(plain[max(0, p - 30) : p]):
            return False
    return True


def _acronym_for_part(name: str, cands: list[Candidate], plain: str) -> str:
    """``name``, or the acronym of the long form it is only ever a word of: "NOrmed" of
    "NOrmed Index of Retention (NOIR)" and "PArallel" of "PArallel Decoding jailbreak (PAD)"
    are capitals that spell the acronym, not a name; the paper's name is the acronym."""
    if " " in name:
        return name
    for c in cands:
        long_form, acro = c.name, c.other_form
        if not acro or " " not in long_form or name not in long_form.split() or " " in acro or acro == name:
            continue
        spans = _find_all(plain, long_form)
        if spans and all(any(a <= p < a + len(long_form) for a in spans) for p in _find_all(plain, name)):
            return acro
    return name

