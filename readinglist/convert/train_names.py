"""Train the name model: ``python -m readinglist.convert.train_names [TRAIN.jsonl.gz] [--limit N]``.

Needs the optional extra ``pip install -e '.[train]'`` (scikit-learn). Reads real papers (one
JSON object a line: ``title``, ``abstract``), and learns from them

- word statistics: how many abstracts use each coined-looking token or capitalised word (prior
  work, everyday acronyms and proper words such as "Gaussian" are frequent, a paper's own name
  is rare), how many capitalise each phrase of two to four words ("Knowledge Distillation" is an
  established term, a new method's spelled-out name is rare) and which lowercase words are common;
- the *ranking* weights: a conditional logit (a logistic regression whose softmax runs over one
  paper's candidates, so it learns which candidate beats the others in the same abstract) over
  the named features of :func:`readinglist.convert.name_candidates.candidates`, labelled by the real titles:
  in a title "Name: subtitle" the candidate equal to Name is the one to pick; a paper whose title
  has no "Name:" adds (with weight ``--other-weight``) a coined or spelled-out candidate its
  title uses as the one to pick among the candidates it does not use;
- the *decision* weights: a logistic regression over the best candidate's features and its
  ranking score (from a ranking model cross-fitted on the other fifths, so never one that saw
  the paper), labelled 1 when the paper's title names it with that candidate;
- the *Name* weights: a logistic regression over the same decision features, labelled 1 when
  the best candidate is the Name of the paper's "Name: subtitle" title (what name recall asks;
  the decision label is what precision asks);
- how the two probabilities mix (``mix``: the score is ``(p_name + mix * p_title) / (1 + mix)``)
  and the threshold at which a paper is named, chosen together on every paper's cross-fitted
  scores (models fitted on the other four fifths) for the balance of the issue's aims (recall
  >= 0.85, precision >= 0.65); of the points within ``GOAL_TIE`` of the best balance, the one
  with the most recall (the aims say recall must not drop). (``rank_threshold`` stays 1e9: a
  conditional logit's scores only compare candidates of one paper, so the decision alone says
  whether the paper is named.)

Writes ``readinglist/data/name_model.json`` with the corpus sha256 and this command. The
result is deterministic for a given corpus (fixed split, deterministic solver, sorted output).
Only numbers and common-word lists are kept, never a text of the corpus.
"""

from __future__ import annotations

from typing import Any

import json
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

from .training import corpus_sha256, missing_sklearn, parser, read_rows

OUT = Path(__file__).resolve().parent / "data" / "name_model.json"
COMMON_MIN_DF = 40  # a lowercase word in this many abstracts is a common word
FREQUENT_MIN_DF = 3  # a coined-looking token in this many abstracts is recorded with its count
FOLDS = 5  # paper g is in fold g % FOLDS; the ranking and decision models are cross-fitted
# The threshold balances the two aims of the issue: name recall >= 0.85 and precision >= 0.65.
RECALL_GOAL, PRECISION_GOAL = 0.85, 0.65
OTHER_WEIGHT = 0.1
RANK_THRESHOLD = 1e9  # the ranking score alone never names a paper: the decision does
GOAL_TIE = 0.001  # operating points whose goal differs by less than this are a tie (see main)
MIXES = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)  # weights of p_title beside p_name tried for the decision score


def alnum(s: str) -> str:
    s = unicodedata.normalize("NFKC", s or "").lower().replace("²", "2").replace("³", "3")
    return re.sub(r"[^0-9a-z]", "", s)


def colon_name(title: str, abstract: str) -> str | None:
    """The Name of a "Name: subtitle" title that the abstract mentions (as the evaluator reads it)."""
    if ": " not in title:
        return None
    name = title.split(": ", 1)[0].strip()
    if not 1 <= len(name.split()) <= 4 or not re.search(r"[A-Z0-9]", name):
        return None
    n = alnum(name)
    return name if n and n in alnum(abstract) else None


def label(cand: str, title: str, truth: str | None, coined: bool) -> int | None:
    """1 / 0 for a candidate of a paper with this real title; None: not a usable example."""
    c = alnum(cand)
    if not c:
        return None
    if truth:
        t = alnum(truth)
        if c == t or (min(len(c), len(t)) >= 3 and (c in t or t in c) and min(len(c), len(t)) / max(len(c), len(t)) >= 0.75):
            return 1
        return 0
    in_title = c in {alnum(w) for w in re.split(r"[\s:,;()]+", title)} or (" " in cand and c in alnum(title))
    if in_title:
        return 1 if coined else None
    return 0


def word_statistics(rows: list[dict]) -> tuple[list[str], dict[str, int]]:
    from .name_shape import TOKEN, RARE_WORD as _CAPITALISED, is_loosely_coined

    lower_df: Counter = Counter()
    token_df: Counter = Counter()
    for r in rows:
        text = r["abstract"]
        lower_df.update(set(re.findall(r"\b[a-z][a-z-]+\b", text)))
        # coined-looking tokens, and capitalised words ("Gaussian", "Furthermore", "English"):
        # a word many abstracts capitalise is a proper word or a sentence opener, not a new name
        token_df.update({t for t in TOKEN.findall(text) if is_loosely_coined(t.rstrip("+")) or re.match(r"[A-Z][a-z]+[A-Z0-9]", t) or _CAPITALISED.fullmatch(t)})
        # runs of capitalised words ("Knowledge Distillation", "Group Relative Policy Optimization"):
        # an established term many abstracts capitalise is no new name; kept lowercased, with spaces
        token_df.update(_cap_phrases(text))
    common = sorted(w for w, n in lower_df.items() if n >= COMMON_MIN_DF)
    frequent = {t: n for t, n in sorted(token_df.items()) if n >= FREQUENT_MIN_DF}
    return common, frequent


def _cap_phrases(text: str) -> set[str]:
    """The lowercased phrases of two to four words inside the text's runs of capitalised words
    (not starting or ending on a minor word), as name_model reads a multi-word candidate's count."""
    from .name_shape import CAP_RUN, STOP

    out = set()
    for m in CAP_RUN.finditer(text):
        words = m.group(1).split()
        for i, first in enumerate(words):
            if first.lower() in STOP:
                continue
            for j in range(i + 2, min(len(words), i + 4) + 1):
                if words[j - 1].lower() not in STOP:
                    out.add(" ".join(words[i:j]).lower())
    return out


def paper_candidates(rows: list[dict]):
    """(paper index, its candidates) for every paper, as the converter sees it."""
    from .generation import generation_text
    from .name_model import candidates

    for g, r in enumerate(rows):
        raw = r["abstract"]
        plain = generation_text(raw)
        yield g, candidates(raw, plain, own_counts=1)


def rank_label(cand: str, truth: str) -> int:
    """1 when the candidate is the Name of a "Name: subtitle" title (or nearly: "NAR-Former V2")."""
    return int(label(cand, "", truth, True) == 1)


def in_title(name: str, title: str) -> bool:
    """Does the name occur in the real title (what the evaluator's precision asks)?"""
    n = alnum(name)
    return bool(n) and n in alnum(title)


def names_itself(name: str, title: str, truth: str | None) -> int:
    """The decision model's label: 1 when the paper's title names it with this candidate (its
    "Name:" part, or a coined name or several words used in a title without a colon); a plain
    word that a title happens to use ("Gaussian") is no name."""
    from .name_shape import is_loosely_coined

    return int(label(name, title, truth, is_loosely_coined(name.rstrip("+")) or " " in name) == 1)


def evaluate(decisions: dict[int, tuple[str | None, float]], threshold: float, rows: list[dict],
             truths: dict[int, str | None] | None = None) -> dict:
    """Name recall on "Name:" titles and precision (the name occurs in the title), as the
    evaluator computes them, when a paper is named at decision probability >= ``threshold``
    (``truths``: each paper's :func:`colon_name`, when already worked out)."""
    hits = elig = named = precise = 0
    for g, (best, p) in decisions.items():
        r = rows[g]
        truth = truths[g] if truths is not None else colon_name(r["title"], r["abstract"])
        name = best if best and p >= threshold else None
        if truth:
            elig += 1
            if name and _match(name, truth):
                hits += 1
        if name:
            named += 1
            precise += in_title(name, r["title"])
    return {"recall": hits / max(1, elig), "precision": precise / max(1, named), "named_share": named / max(1, len(decisions))}


def _match(found: str, truth: str) -> bool:
    f, t = alnum(found), alnum(truth)
    if not f or not t:
        return False
    short = f if len(f) <= len(t) else t
    return f == t or (len(short) >= 3 and (f in t or t in f))


def conditional_logit(X, starts, picks, weights, C: float):
    """Weights of a conditional logit: rows ``X`` are candidates, grouped by paper (a group
    starts at each of ``starts``); in each group the row ``picks`` is the right one. Minimises
    the weighted negative log-likelihood of the picks under a softmax over their group, plus an
    L2 penalty ``|w|^2 / 2C`` (as scikit-learn's C), with L-BFGS from zero (deterministic)."""
    import numpy as np
    from scipy import optimize

    n, d = X.shape
    ends = np.append(starts[1:], n)
    group_of = np.repeat(np.arange(len(starts)), ends - starts)
    XT = X.T.tocsr()
    penalty = 1.0 / (2.0 * C)

    def loss_and_grad(w):
        z = X @ w
        zmax = np.maximum.reduceat(z, starts)
        e = np.exp(z - zmax[group_of])
        total = np.add.reduceat(e, starts)
        loss = -np.sum(weights * (z[picks] - np.log(total) - zmax)) + penalty * (w @ w)
        r = e / total[group_of] * weights[group_of]
        r[picks] -= weights
        return loss, XT @ r + 2.0 * penalty * w

    res = optimize.minimize(loss_and_grad, np.zeros(d), jac=True, method="L-BFGS-B", options={"maxiter": 3000})
    return res.x


def main(argv: list[str] | None = None) -> int:
    try:
        import numpy as np
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        return missing_sklearn()
    ap = parser(__doc__, OUT)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--C", type=float, default=0.5)
    ap.add_argument("--other-weight", type=float, default=OTHER_WEIGHT, help="weight of papers without a Name: title in the ranking")
    a = ap.parse_args(argv)
    path = Path(a.corpus)
    sha = corpus_sha256(path)
    rows = list(read_rows(path, a.limit))
    print(f"{len(rows)} papers from {path.name} (sha256 {sha[:12]}...)", file=sys.stderr)
    common, frequent = word_statistics(rows)
    print(f"word statistics: {len(common)} common words, {len(frequent)} frequent tokens", file=sys.stderr)
    # candidates() reads the statistics from the model file's location: write them first
    out = Path(a.out)
    out.write_text(json.dumps({"common_words": common, "frequent_names": frequent}), encoding="utf-8")
    from . import name_model

    name_model._MODEL_PATH = out
    name_model.load_model.cache_clear()
    from .name_model import Candidate, decision_features
    from .name_shape import is_loosely_coined

    papers = [(g, [c for c in cands if not c.features.get("generic_acronym")]) for g, cands in paper_candidates(rows)]
    truths = {g: colon_name(r["title"], r["abstract"]) for g, r in enumerate(rows)}
    # Stage 1, ranking: which candidate is the Name, learned from "Name: subtitle" papers (and,
    # with a smaller weight, from which candidate other titles use): one softmax group a paper
    groups = []  # (paper, its candidates' features, index of the one to pick, weight)
    for g, cands in papers:
        truth = truths[g]
        if truth:
            ys, weight = [rank_label(c.name, truth) for c in cands], 1.0
        else:
            ys = [int(label(c.name, rows[g]["title"], None, is_loosely_coined(c.name.rstrip("+")) or " " in c.name) == 1) for c in cands]
            weight = a.other_weight
        if not any(ys) or not weight:
            continue
        pick = ys.index(1)
        keep = [i for i, yy in enumerate(ys) if not yy or i == pick]  # other forms of the Name are no rivals
        groups.append((g, [cands[i].features for i in keep], keep.index(pick), weight))
    named_groups = sum(1 for g, *_ in groups if truths[g])
    print(f"ranking: {named_groups} papers with their Name among the candidates, {len(groups) - named_groups} others", file=sys.stderr)
    vec = DictVectorizer(sparse=True)
    X = vec.fit_transform([f for _g, fs, _p, _w in groups for f in fs]).tocsr()
    offsets = np.cumsum([0] + [len(fs) for _g, fs, _p, _w in groups])

    def fit_rank(keep) -> dict[str, float]:
        chosen = [i for i, grp in enumerate(groups) if keep(grp[0])]
        idx = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in chosen])
        starts = np.cumsum([0] + [offsets[i + 1] - offsets[i] for i in chosen])[:-1]
        picks = starts + np.array([groups[i][2] for i in chosen])
        w = conditional_logit(X[idx], starts, picks, np.array([groups[i][3] for i in chosen]), a.C)
        return {k: float(v) for k, v in zip(vec.get_feature_names_out(), w)}

    def ranked(cands: list[Candidate], weights: dict[str, float]):
        out = [(sum(weights.get(k, 0.0) * v for k, v in c.features.items()), c) for c in cands]
        return sorted(out, key=lambda zc: (-zc[0], zc[1].pos))

    # Stage 2, decision: does the paper name itself with its best candidate (is it in the real
    # title)? Learned from every paper, on ranking scores of a model that never saw the paper.
    honest: dict[int, list] = {}
    for fold in range(FOLDS):
        w_fold = fit_rank(lambda g, fold=fold: g % FOLDS != fold)
        for g, cands in papers:
            if g % FOLDS == fold and cands:
                honest[g] = ranked(cands, w_fold)
    dec_rows = [(g, decision_features(rk), names_itself(rk[0][1].name, rows[g]["title"], truths[g])) for g, rk in sorted(honest.items())]
    dvec = DictVectorizer(sparse=True)
    DX = dvec.fit_transform([f for _g, f, _y in dec_rows])
    dy = [yy for _g, _f, yy in dec_rows]

    def fit_decision(keep, labels=None):
        ys = dy if labels is None else labels
        idx = [i for i, (g, _f, _y) in enumerate(dec_rows) if keep(g)]
        clf = LogisticRegression(C=a.C, max_iter=3000, solver="lbfgs", fit_intercept=False)
        clf.fit(DX[idx], [ys[i] for i in idx])
        return clf

    # the Name model: is the best candidate the Name of a "Name: subtitle" title (what recall asks)?
    ny = [int(bool(truths[g]) and _match(honest[g][0][1].name, truths[g] or "")) for g, _f, _y in dec_rows]
    # both models cross-fitted (each fifth scored by models fitted on the other four), so mix and
    # threshold are chosen on every paper, never on one its models saw
    probs: dict[int, float] = {}
    name_probs: dict[int, float] = {}
    for fold in range(FOLDS):
        part = [i for i, (g, _f, _y) in enumerate(dec_rows) if g % FOLDS == fold]
        papers_of = [dec_rows[i][0] for i in part]
        for fitted, scores in ((fit_decision(lambda g, fold=fold: g % FOLDS != fold), probs),
                               (fit_decision(lambda g, fold=fold: g % FOLDS != fold, ny), name_probs)):
            scores.update(zip(papers_of, (float(p) for p in fitted.predict_proba(DX[part])[:, 1])))
    # a paper is named when the mixed score is high enough: mix and threshold are chosen together
    points = []  # (goal, mix, threshold, figures) of every operating point tried
    for mix in MIXES:
        decisions: dict[int, tuple[str | None, float]] = {g: (None, 0.0) for g in range(len(rows))}
        for g, p in probs.items():
            decisions[g] = (honest[g][0][1].name, (name_probs[g] + mix * p) / (1.0 + mix))
        for t in [x / 100 for x in range(5, 91)]:
            m = evaluate(decisions, t, rows, truths)
            points.append((min(m["recall"] / RECALL_GOAL, m["precision"] / PRECISION_GOAL), mix, t, m))
        print(f"mix {mix}: best {max(p for p in points if p[1] == mix)[0]:.5f}", file=sys.stderr)
    assert points  # at least one threshold was tried
    # among the points whose goal is within GOAL_TIE of the best (a difference the cross-fitted
    # scores cannot tell from noise), the one that keeps most recall, then most precision
    top = max(p[0] for p in points)
    _, mix, threshold, heldout = max(
        (p for p in points if p[0] >= top - GOAL_TIE), key=lambda p: (p[3]["recall"], p[3]["precision"], -p[1], -p[2])
    )
    # final weights from every paper
    weights = {k: round(w, 4) for k, w in fit_rank(lambda g: True).items()}
    dclf = fit_decision(lambda g: True)
    decision_weights = {k: round(float(w), 4) for k, w in zip(dvec.get_feature_names_out(), dclf.coef_[0])}
    nclf = fit_decision(lambda g: True, ny)
    name_weights = {k: round(float(w), 4) for k, w in zip(dvec.get_feature_names_out(), nclf.coef_[0])}
    model: dict[str, Any] = {
        "about": "readinglist name model over name_model.candidates features: a conditional logit ranks a paper's candidates (which is the name); two logistic regressions (does the title use the best one; is it the Name of a 'Name: subtitle' title), mixed, decide whether the paper names itself with it",
        "command": "python -m readinglist.convert.train_names" + (f" --limit {a.limit}" if a.limit else "") + (f" --C {a.C}" if a.C != 0.5 else "")
        + (f" --other-weight {a.other_weight}" if a.other_weight != OTHER_WEIGHT else ""),
        "corpus": path.name,
        "corpus_sha256": sha,
        "papers": len(rows),
        "ranking_examples": int(offsets[-1]),
        "decision_examples": len(dec_rows),
        "mix": mix,
        "threshold": threshold,
        "rank_threshold": RANK_THRESHOLD,
        "cross_fitted": {k: round(v, 4) for k, v in heldout.items()},
        "weights": dict(sorted(weights.items(), key=lambda kv: -abs(kv[1]))),
        "decision_weights": dict(sorted(decision_weights.items(), key=lambda kv: -abs(kv[1]))),
        "name_weights": dict(sorted(name_weights.items(), key=lambda kv: -abs(kv[1]))),
        "common_words": common,
        "frequent_names": frequent,
    }
    out.write_text(json.dumps(model, ensure_ascii=False, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"mix {mix}, threshold {threshold} on cross-fitted scores: {heldout}", file=sys.stderr)
    for key in ("weights", "decision_weights", "name_weights"):
        print(key, file=sys.stderr)
        for k, v in list(model[key].items())[:25]:
            print(f"  {v:+.3f}  {k}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
