"""Train the title-phrase model: ``python -m readinglist.convert.train_phrases [TRAIN.jsonl.gz] [--limit N]``.

Needs ``pip install -e '.[train]'`` (scikit-learn). From real papers it learns

- how likely each common word of an abstract is to be used in the paper's title (its "title
  affinity", a smoothed log-odds; only the words and numbers are kept, never a text),
- which -s words are verbs ("faces", "favors": their stem follows "to"/"we" far more often than
  an article), so a phrase stops there, and
- the weights of a ridge regression that predicts, from the named features of
  :func:`readinglist.convert.phrases.phrase_features`, how well a candidate phrase matches the real
  title (ROUGE-1 F1 over content words).

Writes ``readinglist/data/phrase_model.json`` with the corpus sha256 and this command.
Deterministic for a given corpus.
"""

from __future__ import annotations

from typing import Any

import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

from .training import corpus_sha256, missing_sklearn, parser, read_rows

OUT = Path(__file__).resolve().parent / "data" / "phrase_model.json"
AFFINITY_MIN_DF = 30
_STOP = frozenset("""a an the and or but of to in on at by for from with without into via as than that this these
those which is are was were be been it its we our can not no""".split())


def _tokens(s: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9]+", s.lower()) if t not in _STOP]


def rouge1(gen: list[str], ref: list[str]) -> float:
    g, r = Counter(gen), Counter(ref)
    ov = sum((g & r).values())
    if not ov:
        return 0.0
    p, rc = ov / sum(g.values()), ov / sum(r.values())
    return 2 * p * rc / (p + rc)


def main(argv: list[str] | None = None) -> int:
    try:
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.linear_model import Ridge
    except ImportError:
        return missing_sklearn()
    ap = parser(__doc__, OUT)
    ap.add_argument("--limit", type=int, default=12000)
    a = ap.parse_args(argv)
    from . import phrases
    from .generation import generation_text

    path = Path(a.corpus)
    sha = corpus_sha256(path)
    rows = list(read_rows(path, a.limit))
    in_abs: Counter = Counter()
    in_title: Counter = Counter()
    for r in rows:
        abstract_words = set(re.findall(r"[a-z][a-z0-9'’\-+]*", r["abstract"].lower()))
        in_abs.update(abstract_words)
        in_title.update(abstract_words & set(re.findall(r"[a-z][a-z0-9'’\-+]*", r["title"].lower())))
    affinity = {w: round(math.log((in_title[w] + 0.5) / (n - in_title[w] + 0.5)), 3) for w, n in sorted(in_abs.items()) if n >= AFFINITY_MIN_DF}
    rare = [math.log((in_title[w] + 0.5) / (n - in_title[w] + 0.5)) for w, n in in_abs.items() if 3 <= n < AFFINITY_MIN_DF]
    affinity["<rare>"] = round(sum(rare) / max(1, len(rare)), 3)
    # verbs in the third person ("faces", "favors"): stems written after "to"/"we" far more
    # often than after an article, so their -s form in a phrase is a verb, not a plural noun
    after_to: Counter = Counter()
    after_det: Counter = Counter()
    for r in rows:
        text = r["abstract"].lower()
        after_to.update(re.findall(r"\b(?:to|we|they|can|may|will)\s+([a-z]{3,})\b", text))
        after_det.update(re.findall(r"\b(?:the|a|an|this|these|each|our|their|its)\s+([a-z]{3,})\b", text))
    verbs = sorted(
        w + ("es" if w.endswith(("s", "sh", "ch", "x", "z")) else "s")
        for w, n in after_to.items() if n >= 8 and n > 4 * (after_det[w] + after_det[w + "s"] + 1)
    )
    print(f"{len(rows)} papers; title affinity for {len(affinity)} words; {len(verbs)} verb forms", file=sys.stderr)
    phrases._MODEL_PATH = Path(a.out)
    Path(a.out).write_text(json.dumps({"affinity": affinity, "verbs": verbs}), encoding="utf-8")
    phrases.load_model.cache_clear()
    feats, ys, groups = [], [], []
    for g, r in enumerate(rows):
        ref = _tokens(r["title"])
        for _s, words, f, _i in phrases.scored_phrases(generation_text(r["abstract"]), 15):
            feats.append(f)
            ys.append(rouge1(_tokens(" ".join(words)), ref))
            groups.append(g)
    vec = DictVectorizer(sparse=False)
    X = vec.fit_transform(feats)
    reg = Ridge(alpha=1.0, fit_intercept=False)
    fit = [i for i, g in enumerate(groups) if g % 5]
    reg.fit(X[fit], [ys[i] for i in fit])
    pred = reg.predict(X)
    best: dict[int, tuple[float, float]] = {}
    for i, g in enumerate(groups):
        if g % 5 == 0 and (g not in best or pred[i] > best[g][0]):
            best[g] = (pred[i], ys[i])
    heldout = sum(v[1] for v in best.values()) / max(1, len(best))
    print(f"{len(ys)} phrases; held-out fifth: mean ROUGE-1 of the chosen phrase {heldout:.3f}", file=sys.stderr)
    reg.fit(X, ys)
    weights = {k: round(float(w), 4) for k, w in zip(vec.get_feature_names_out(), reg.coef_)}
    model: dict[str, Any] = {
        "about": "readinglist title-phrase model: ridge regression of ROUGE-1 vs the real title over phrases.phrase_features",
        "command": "python -m readinglist.convert.train_phrases" + (f" --limit {a.limit}" if a.limit != 12000 else ""),
        "corpus": path.name,
        "corpus_sha256": sha,
        "papers": len(rows),
        "heldout_fifth_rouge1_of_chosen": round(heldout, 4),
        "weights": dict(sorted(weights.items(), key=lambda kv: -abs(kv[1]))),
        "verbs": verbs,
        "affinity": affinity,
    }
    Path(a.out).write_text(json.dumps(model, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    for k, v in list(model["weights"].items())[:20]:
        print(f"  {v:+.4f}  {k}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
