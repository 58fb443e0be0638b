"""Train the title-word model: ``python -m readinglist.convert.train_title_words [TRAIN.jsonl.gz]``.

Needs ``pip install -e '.[train]'`` (scikit-learn). From real papers it learns, for the content
words of an abstract (see :mod:`readinglist.convert.title_words`):

- per-word statistics from the first ``--stats`` papers: how often titles use a word when the
  abstract does (a smoothed log-odds, the word's "affinity"; words in at least
  ``AFFINITY_MIN_DF`` abstracts) and in how many abstracts it occurs (its document frequency);
  only words and numbers are kept, never a text;
- on the next ``--fit`` papers (so the statistics are not those of the papers fitted), a
  logistic regression of "the real title contains this word" over the named features of
  :func:`readinglist.convert.title_words.word_features`.

Writes ``readinglist/convert/data/title_word_model.json`` with the corpus sha256 and this
command. Deterministic for a given corpus.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from .training import corpus_sha256, missing_sklearn, parser, read_rows

OUT = Path(__file__).resolve().parent / "data" / "title_word_model.json"
AFFINITY_MIN_DF = 20
DF_MIN = 5


def main(argv: list[str] | None = None) -> int:
    try:
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.metrics import roc_auc_score
    except ImportError:
        return missing_sklearn()
    ap = parser(__doc__, OUT)
    ap.add_argument("--stats", type=int, default=30000, help="papers for the word statistics")
    ap.add_argument("--fit", type=int, default=8000, help="papers after those for the regression")
    a = ap.parse_args(argv)
    from . import title_words
    from .naming import detect_name
    from .generation import generation_text
    from .titles import rule_made_title
    from .titles.text import clean

    path = Path(a.corpus)
    sha = corpus_sha256(path)
    rows = list(read_rows(path, a.stats + a.fit))
    stats_rows, fit_rows = rows[: a.stats], rows[a.stats :]
    in_abs: Counter = Counter()
    in_title: Counter = Counter()
    lengths = []
    for r in stats_rows:
        words = set(title_words.tokens(r["abstract"]))
        title = title_words.tokens(r["title"])
        lengths.append(len(title))
        in_abs.update(words)
        in_title.update(words & set(title))
    affinity = {w: round(math.log((in_title[w] + 0.5) / (n - in_title[w] + 0.5)), 3)
                for w, n in sorted(in_abs.items()) if n >= AFFINITY_MIN_DF}
    rare = [math.log((in_title[w] + 0.5) / (n - in_title[w] + 0.5)) for w, n in in_abs.items() if 2 <= n < AFFINITY_MIN_DF]
    affinity["<rare>"] = round(sum(rare) / max(1, len(rare)), 3)
    df = {w: n for w, n in sorted(in_abs.items()) if n >= DF_MIN}
    model: dict[str, Any] = {"affinity": affinity, "df": df, "docs": len(stats_rows),
                             "title_length": round(sum(lengths) / max(1, len(lengths)), 3)}
    feats, ys, groups = [], [], []
    for g, r in enumerate(fit_rows):
        plain = generation_text(r["abstract"])
        name = detect_name(r["abstract"], plain)
        name = clean(name) if name else None
        made = rule_made_title(plain, name)
        in_real = set(title_words.tokens(r["title"]))
        for t, f in title_words.word_features(plain, name, model, made).items():
            feats.append(f)
            ys.append(1 if t in in_real else 0)
            groups.append(g)
    vec = DictVectorizer(sparse=False)
    X = vec.fit_transform(feats)
    fit = [i for i, g in enumerate(groups) if g % 5]
    held = [i for i, g in enumerate(groups) if g % 5 == 0]
    clf = LogisticRegression(C=1.0, max_iter=2000)
    clf.fit(X[fit], [ys[i] for i in fit])
    auc = roc_auc_score([ys[i] for i in held], clf.predict_proba(X[held])[:, 1])
    print(f"{len(fit_rows)} papers, {len(ys)} words ({sum(ys)} in the title); held-out fifth AUC {auc:.4f}", file=sys.stderr)
    clf.fit(X, ys)
    weights = {k: round(float(w), 4) for k, w in zip(vec.get_feature_names_out(), clf.coef_[0])}
    weights["bias"] = round(weights.get("bias", 0.0) + float(clf.intercept_[0]), 4)
    cmd = "python -m readinglist.convert.train_title_words"
    if (a.stats, a.fit) != (30000, 8000):
        cmd += f" --stats {a.stats} --fit {a.fit}"
    out = {
        "about": "readinglist title-word model: logistic regression of 'the real title uses this abstract word' over title_words.word_features",
        "command": cmd,
        "corpus": path.name,
        "corpus_sha256": sha,
        "papers": {"stats": len(stats_rows), "fit": len(fit_rows)},
        "heldout_fifth_auc": round(auc, 4),
        "weights": dict(sorted(weights.items(), key=lambda kv: -abs(kv[1]))),
        **model,
    }
    Path(a.out).write_text(json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    for k, v in out["weights"].items():
        print(f"  {v:+.4f}  {k}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
