"""Stage 1 of the name model: :func:`candidates`, every string of an abstract that could be the
paper's own name, each with the named features the learned choice of
:mod:`readinglist.convert.name_model` weighs (see that module's docstring for the sources and
the features). Deterministic, pure Python."""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import lexicon, name_roles, naming
from .name_context import (
    APPOS_AFTER, CALLED_BEFORE, CALLED_STARTS, CREDIT, CUE_BEFORE, CUE_STARTS, EMPH, FUNCTION_START, KIND_AFTER,
    NP_COMMA_BEFORE, OUR_BEFORE, OWN_VOICE, OWNER, PAREN_AFTER, PART_AFTER, REPO, SUBJECT_AFTER, TOOL_BEFORE, URL,
    acronym_long_form, after_cue_far, background_sentence, cue_sentence, ends_on, find_all, kind_word_before,
    occurrences, sentence_index,
)
from .name_shape import CAMEL_START, CAP_RUN, RARE_WORD, STOP, TOKEN_CAPITAL, bucket, is_loosely_coined, shape_features

@dataclass
class Candidate:
    """One possible name: its display form, where it first occurs, and its named features."""

    name: str
    pos: int
    features: dict[str, float]
    other_form: str | None = None  # its acronym, or the long form it abbreviates


def candidates(raw: str, plain: str, *, own_counts: int = 0, skip_generic: bool = False, model: dict | None = None) -> list[Candidate]:
    """Every candidate name of the abstract with its features (see the module docstring).

    ``own_counts``: how many times the corpus statistics counted this very abstract (1 while
    training on the corpus they were counted from, so a paper's own name looks as rare as a new
    paper's does at run time). ``skip_generic``: leave out everyday acronyms (feature
    ``generic_acronym``), which :func:`~.name_model.choose` never picks, without working out their features."""
    if not plain:
        return []
    if model is None:
        from .name_model import load_model  # the model module reads this one: imported here, not at the top

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
    for m in TOKEN_CAPITAL.finditer(plain):
        tok = m.group(0)
        if tok.islower() and tok[-1] != "+":
            continue  # no candidate is all lowercase (is_coined needs a capital)
        if "'" in tok or "’" in tok:
            tok = lexicon.strip_possessive(tok)
        if tok.endswith(".git"):
            tok = tok[:-4]  # a repository's clone address ("github.com/x/ClimateVID.git"): its name
        if tok.endswith("+") or is_loosely_coined(tok.rstrip("+")) or CAMEL_START.match(tok):
            add(tok, m.start())
        elif common and RARE_WORD.fullmatch(tok) and tok.lower() not in common and tok not in lexicon.NOT_A_NAME_WORD:
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
            generic_long = acronym_long_form(plain[max(0, m.start() - 300) : m.start()].split(), acro)
            if generic_long:
                generic_forms.add(" ".join(generic_long).lower())
            continue
        if not (is_loosely_coined(acro) or re.fullmatch(r"[A-Z]{2,}[a-z]?", acro)):
            continue
        words = plain[max(0, m.start() - 300) : m.start()].split()
        long = acronym_long_form(words, acro)
        add(acro, m.start() + 1, defined_by_long_form=1.0 if long else 0.0, in_parens=1.0)
        if long:
            long_text = " ".join(long)
            long_spans.append((plain.rfind(long_text, 0, m.start()), m.start(), acro))
            title_case = all(w[:1].isupper() for w in long if w.lower() not in STOP)
            if not title_case or len(long) > 6:  # "reinforcement learning (RL)" names no system
                # "a non-parametric instrumental variable (NPIV) problem": a term spelled in lowercase
                if acro in found:
                    found[acro]["long_form_lowercase"] = 1.0
                continue
            add(long_text, max(0, plain.rfind(long_text, 0, m.start())), is_long_form=1.0,
                long_form_of_mixed_case=1.0 if re.search(r"[a-z]", acro) else 0.0)
            pairs.append((lexicon.strip_possessive(acro), long_text))
            found[acro]["has_long_form_title_case"] = 1.0
    # 4. runs of capitalised words ("Digital Red Queen")
    for m in CAP_RUN.finditer(plain):
        words = m.group(1).split()
        if words[0] in lexicon.NOT_A_NAME_WORD or words[0] in FUNCTION_START:
            continue
        # a run stops before a word that starts a clause ("LLM This paper ..." without a full stop)
        cut = next((i for i, w in enumerate(words) if i and w in FUNCTION_START), len(words))
        while cut > 1 and words[cut - 1].lower() in STOP:
            cut -= 1
        if cut >= 2:
            add(" ".join(words[:cut]), m.start(), cap_run=1.0)
    # 5. emphasis in the raw text
    if "\\" in raw or "**" in raw:
        for m in EMPH.finditer(raw):
            # trimmed as a title's end is ("**0AA&**": a name the title would cut to "0AA")
            span = (m.group(1) or m.group(2) or "").strip().rstrip(",;:.!?-\u2013\u2014/&").strip()
            if 1 <= len(span.split()) <= 4 and re.search(r"[A-Z]", span) and span in plain:
                add(span, plain.find(span), emphasized=1.0)
    sentences = lexicon.split_sentences(plain)
    starts = [s for s, _ in sentences]
    urls = [(m.start(), m.end()) for m in URL.finditer(plain)] if ("http" in plain or "www." in plain or ".com/" in plain or ".co/" in plain) else []
    cue_sents = {i for i, (_o, s) in enumerate(sentences) if cue_sentence(s)}
    voices: dict[int, int] = {}

    def voice(i: int) -> int:
        """A sentence's voice, read when first asked: 0 the paper's own ("we", "this paper"), else
        1 if it speaks of the field ("X is widely used") | 2 if it credits others ("Lee et al.")."""
        v = voices.get(i)
        if v is None:
            text = sentences[i][1]
            v = voices[i] = 0 if i in cue_sents or OWN_VOICE.search(text) else (
                int(background_sentence(text)) | (2 if CREDIT.search(text) else 0))
        return v
    first_cue = min(cue_sents, default=-1)  # no contribution sentence: no name is met before one
    # the repository a code link names ("github.com/someone/IsoCLIP"): very often the paper's own name
    repos = {m.group(1).lower() for a, b in urls for m in [REPO.search(plain, a, b)] if m} if urls else set()
    owners = {m.start(1) for a, b in urls for m in OWNER.finditer(plain, a, b)} if urls else set()
    length = max(1, len(plain))
    # where a contribution verb starts (in the lowercased text), found when first needed:
    # after_cue_far is only looked for after one (its every match starts with one of _CUE_STARTS)
    verbs_at: list[list[int] | None] = []

    def cue_verbs() -> list[int] | None:
        if not verbs_at:
            low = plain.lower()
            verbs_at.append(sorted(i for stem in CUE_STARTS for i in find_all(low, stem)) if len(low) == len(plain) else None)
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
            shape = shapes[(name, own_counts)] = shape_features(name, common, frequent, own_counts)
        if skip_generic and shape.get("generic_acronym") and name not in paired:
            continue
        occ = occurrences(plain, name) or [first[name]]
        f.update(shape)
        f["bias"] = 1.0
        f[f"count_{bucket(len(occ), (1, 2, 4))}"] = 1.0
        f[f"rank_{bucket(rank, (0, 1, 3))}"] = 1.0
        sent_idx = [sentence_index(starts, p) for p in occ]
        f[f"first_sentence_{bucket(sent_idx[0], (0, 1, 2))}"] = 1.0
        f["in_cue_sentence"] = 1.0 if any(i in cue_sents for i in sent_idx) else 0.0
        f["first_in_cue_sentence"] = 1.0 if sent_idx[0] in cue_sents else 0.0
        if voice(sent_idx[0]) & 2:
            f["first_in_credited_sentence"] = 1.0  # "Lee et al. (2021) introduced ... X": someone else's
        if all(voice(i) & 1 for i in sent_idx):
            f["only_in_background_sentences"] = 1.0  # "X (XY) is widely used ...": the field's term, not the paper's
        if sent_idx[0] < first_cue:
            f["before_first_cue_sentence"] = 1.0  # met in the background, before the paper says what it made
        f[f"first_at_{bucket(int(10 * first[name] / length), (1, 4, 7))}"] = 1.0
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
            if ends_on(CUE_BEFORE, before[-60:], CUE_STARTS):
                f["after_cue"] = 1.0
            if ends_on(CALLED_BEFORE, before[-50:], CALLED_STARTS):
                f["after_called"] = 1.0
            if APPOS_AFTER.match(after):
                f["appositive_after"] = 1.0
            if KIND_AFTER.match(after):
                f["kind_word_after"] = 1.0
            if ("our " in low or "proposed" in low) and OUR_BEFORE.search(before):
                f["our_kind_before"] = 1.0
            if before.rstrip().endswith(",") and NP_COMMA_BEFORE.search(before):
                f["np_comma_before"] = 1.0
            if SUBJECT_AFTER.match(after) and naming.starts_sentence(plain, p):
                f["sentence_subject"] = 1.0
            if not f.get("kind_word_before") and kind_word_before(before):
                f["kind_word_before"] = 1.0
            if not f.get("after_cue") and not f.get("after_cue_far") and after_cue_far(before[-80:], p, cue_verbs()):
                f["after_cue_far"] = 1.0
            if PART_AFTER.match(after):
                f["part_word_after"] = 1.0  # "the X module", "the X problem": a part or a problem, seldom the paper's name
            if TOOL_BEFORE.search(before[-12:]):
                f["tool_word_before"] = 1.0  # "via X", "using X": a tool, often someone else's
            if after.startswith(":"):
                f["colon_after"] = 1.0
            if PAREN_AFTER.match(after):
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
        kind = candidate_kind(f)
        for ctx in [k for k in f if k in _CONTEXTS_SET and f[k]]:
            f[f"{kind}&{ctx}"] = 1.0
        out.append(Candidate(name, first[name], {k: v for k, v in f.items() if v}))
    _rival_roles(out)
    n_coined = sum(1 for c in out if c.features.get("coined") and not c.features.get("generic_acronym"))
    for c in out:
        c.features[f"coined_in_paper_{bucket(n_coined, (1, 2, 4))}"] = 1.0
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
        by_name[base].features[f"has_variants_{bucket(n, (1,))}"] = 1.0
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
        n_acro = len(occurrences(plain, acro))
        a.features[f"acronym_uses_{bucket(n_acro, (1, 2, 4))}"] = 1.0
        lf.features[f"its_acronym_uses_{bucket(n_acro, (1, 2, 4))}"] = 1.0
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
    "before_first_cue_sentence", "role_bracketed", "role_contrast", "role_built_on", "role_enumerated", "long_form_lowercase",
    "part_word_after", "only_in_background_sentences", "role_prior_after", "first_in_credited_sentence", "multi_joined",
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


def is_introduced(f: dict[str, float]) -> bool:
    """Is a candidate with these features introduced as the paper's own (a defining context, no use)?"""
    return any(f.get(k) for k in _DEFINING) and not f.get("role_used_all")


def candidate_kind(f: dict[str, float]) -> str:
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
