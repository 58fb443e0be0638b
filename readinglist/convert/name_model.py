"""Which name does an abstract introduce? Candidates first, then a learned choice.

Stage 1, :func:`candidates`: every string that could be the paper's own name, each with the
*named* features that describe it (its shape, how often and where it occurs, the cue phrases
around it). Sources: coined-looking tokens (``CanViT``, ``M²LE``, ``FruitNeRF++``,
``CLIP-Adapter``), abbreviation definitions in the Schwartz-Hearst sense (``Graph Normalization
(GraphNorm)``: both the short and the long form), runs of capitalised words (``Digital Red
Queen``), words the author emphasised (``\\textsc{Pref-SHAP}``, ``**LIFT**``), and whatever the
hand-written cue rules of :mod:`readinglist.convert.naming` found (their strength is a feature).

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
..."), has ``benchmark_like`` / ``used_while_rival_defined`` / ``benchmark_beside_method``. A name set
against ("unlike X", ``role_contrast``), built on ("the recently proposed X", "labels drawn from
X", ``role_built_on``), cited by key ("[X]", ``role_bracketed``), listed among others ("(A, X,
B)", ``role_enumerated``) or said to be earlier work ("X was recently proposed",
``role_prior_after``) is only used; an acronym of a lowercase term (``long_form_lowercase``), a
part or a problem ("the X module", ``part_word_after``), a name met only in sentences about the
field (``only_in_background_sentences``) or first in one that credits others
(``first_in_credited_sentence``) and two names joined (``multi_joined``) are features too, and
the decision reads whether the abstract defines any name of its own (``paper_defines_no_name``,
``rival_defined_not_top``).

Everything here is pure Python and deterministic; the training command alone uses scikit-learn.

The stages' code: :mod:`~readinglist.convert.name_candidates` (stage 1), with the shapes of names
in :mod:`~readinglist.convert.name_shape`, the contexts of mentions in
:mod:`~readinglist.convert.name_context` and the roles of mentions in
:mod:`~readinglist.convert.name_roles`; this module holds the model and stage 2.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from .models import DATA, read_model
from .name_candidates import Candidate, is_introduced, candidate_kind, candidates
from .name_context import find_all
from .name_shape import bucket, capitalised_count

__all__ = ["Candidate", "candidates", "choose", "load_model"]

_MODEL_PATH = DATA / "name_model.json"


@lru_cache(maxsize=1)
def load_model() -> dict:
    """The trained weights, threshold and word statistics (``data/name_model.json``)."""
    model = read_model(_MODEL_PATH)
    if not model:
        return {}
    model["common"] = frozenset(model.get("common_words", ()))
    model["frequent"] = dict(model.get("frequent_names", {}))
    return model




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
    f["kind_" + candidate_kind(top.features)] = 1.0
    # does the abstract define a name of its own at all (one introduced and never only used)?
    defined = [c for _z, c in ranked if is_introduced(c.features)]
    if not defined:
        f["paper_defines_no_name"] = 1.0  # the best candidate is only met in passing: likely no name of its own
    elif top not in defined and all(c.name != top.other_form for c in defined):
        f["rival_defined_not_top"] = 1.0
    f["rank_logit"] = max(-8.0, min(8.0, top_z))
    f["rank_margin"] = max(0.0, min(6.0, top_z - second))
    f[f"candidates_{bucket(len(ranked), (1, 3, 8))}"] = 1.0
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
    cands = candidates(raw, plain, skip_generic=True, model=model)
    name = decide(rank(cands, model), model)[0]
    if name is None or _only_a_source(name, cands, plain) or _credited_to_others(name, plain) or everyday_term(name, model):
        return None
    return _acronym_for_part(name, cands, plain)


#: How many training abstracts must capitalise a run of plain words ("Monte Carlo", "Euler",
#: "Knowledge Distillation") for it to be an established term rather than this paper's name.
EVERYDAY_MIN_DF = 20
_PLAIN_WORDS = re.compile(r"[A-Z][a-z]+(?:[- ][A-Za-z][a-z]+)*")


def everyday_term(name: str, model: dict) -> bool:
    """Is ``name`` a run of plain capitalised words (no digit, no inner capital, no acronym) that
    at least :data:`EVERYDAY_MIN_DF` training abstracts capitalise too ("Monte Carlo", "Euler",
    "Neural Network")? Such a term names a method or a field, not the paper's own system: a title
    "Monte Carlo: ..." says the paper is called that. A coined word ("Falcon", "Synthesizer") is
    capitalised by few other abstracts."""
    if not _PLAIN_WORDS.fullmatch(name):
        return False
    return capitalised_count(name, model.get("frequent", {})) >= EVERYDAY_MIN_DF


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
    mentions = [(p, f) for f in forms for p in find_all(plain, f)]
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
    are capitals that spell the acronym, not a name; the paper's name is the acronym. A long
    form whose short form is a word rather than capitals ("LATent TIme-Correlated Exploration
    (Lattice)") is read from the text: the short form in brackets right after it."""
    if " " in name:
        return name
    for c in cands:
        long_form, acro = c.name, c.other_form
        if " " not in long_form or name not in long_form.split():
            continue
        spans = find_all(plain, long_form)
        if not spans or not all(any(a <= p < a + len(long_form) for a in spans) for p in find_all(plain, name)):
            continue
        if not acro:
            m = _SHORT_FORM_AFTER.match(plain, spans[0] + len(long_form))
            acro = m.group(1) if m else None
        if acro and " " not in acro and acro != name:
            return acro
    return name


_SHORT_FORM_AFTER = re.compile(r"\s*\(([A-Z][\w-]{1,30})\)")
