"""Train the name model: ``python -m readinglist.convert.train_names [TRAIN.jsonl.gz] [--limit N]``.

Needs the optional extra ``pip install -e '.[train]'`` (scikit-learn). Reads real papers (one
JSON object a line: ``title``, ``abstract``), and learns from them

- word statistics: how many abstracts use each coined-looking token (prior work and everyday
  acronyms are frequent, a paper's own name is rare) and which lowercase words are common;
- the weights of a logistic regression over the named features of
  :func:`readinglist.name_model.candidates`, with labels from the real titles: in a title
  "Name: subtitle" the candidate equal to Name is positive and every other one negative; in
  other titles a coined candidate that the title uses is positive and a candidate it does not
  use negative;
- the probability threshold below which an abstract gets no name (chosen on a held-out fifth).

Writes ``readinglist/data/name_model.json`` with the corpus sha256 and this command. The
result is deterministic for a given corpus (fixed split, deterministic solver, sorted output).
Only numbers and common-word lists are kept, never a text of the corpus.
"""

from __future__ import annotations

from typing import Any

import argparse
import gzip
import hashlib
import json
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

DEFAULT_CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "train.jsonl.gz"
OUT = Path(__file__).resolve().parent / "data" / "name_model.json"
COMMON_MIN_DF = 40  # a lowercase word in this many abstracts is a common word
FREQUENT_MIN_DF = 3  # a coined-looking token in this many abstracts is recorded with its count


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


def _read(path: Path, limit: int | None):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if limit and i >= limit:
                break
            if line.strip():
                yield json.loads(line)


def word_statistics(rows: list[dict]) -> tuple[list[str], dict[str, int]]:
    from .name_model import _TOKEN
    from .lexicon import is_coined

    lower_df: Counter = Counter()
    token_df: Counter = Counter()
    for r in rows:
        text = r["abstract"]
        lower_df.update(set(re.findall(r"\b[a-z][a-z-]+\b", text)))
        token_df.update({t for t in _TOKEN.findall(text) if is_coined(t.rstrip("+")) or re.match(r"[A-Z][a-z]+[A-Z0-9]", t)})
    common = sorted(w for w, n in lower_df.items() if n >= COMMON_MIN_DF)
    frequent = {t: n for t, n in sorted(token_df.items()) if n >= FREQUENT_MIN_DF}
    return common, frequent


def examples(rows: list[dict]):
    """(group, features, label, name) for every usable candidate of every paper."""
    from .pipeline import prepare
    from .name_model import candidates
    from .lexicon import is_coined
    from ..text import to_plain

    for g, r in enumerate(rows):
        raw = r["abstract"]
        plain = to_plain(prepare(raw))
        truth = colon_name(r["title"], raw)
        for cand in candidates(raw, plain, own_counts=1):
            if cand.features.get("generic_acronym"):
                continue
            y = label(cand.name, r["title"], truth, is_coined(cand.name.rstrip("+")) or " " in cand.name)
            if y is not None:
                yield g, cand.features, y, cand.name, truth


def evaluate(groups: dict, probs, threshold: float, rows: list[dict]) -> dict:
    """Name recall on "Name:" titles and precision (the name occurs in the title), as the
    evaluator computes them, for the best candidate of each paper above ``threshold``."""
    hits = elig = named = precise = 0
    for g, items in groups.items():
        r = rows[g]
        truth = colon_name(r["title"], r["abstract"])
        best = max(items, key=lambda it: (probs[it[0]], -it[0]), default=None)
        name = best[1] if best and probs[best[0]] >= threshold else None
        if truth:
            elig += 1
            if name and _match(name, truth):
                hits += 1
        if name:
            named += 1
            precise += alnum(name) in alnum(r["title"])
    return {"recall": hits / max(1, elig), "precision": precise / max(1, named), "named_share": named / max(1, len(groups))}


def _match(found: str, truth: str) -> bool:
    f, t = alnum(found), alnum(truth)
    if not f or not t:
        return False
    short = f if len(f) <= len(t) else t
    return f == t or (len(short) >= 3 and (f in t or t in f))


def main(argv: list[str] | None = None) -> int:
    try:
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        print("training needs scikit-learn: pip install -e '.[train]'", file=sys.stderr)
        return 2
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    ap.add_argument("--limit", type=int)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--C", type=float, default=0.5)
    a = ap.parse_args(argv)
    path = Path(a.corpus)
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    rows = list(_read(path, a.limit))
    print(f"{len(rows)} papers from {path.name} (sha256 {sha[:12]}...)", file=sys.stderr)
    common, frequent = word_statistics(rows)
    print(f"word statistics: {len(common)} common words, {len(frequent)} frequent tokens", file=sys.stderr)
    # candidates() reads the statistics from the model file's location: write them first
    out = Path(a.out)
    out.write_text(json.dumps({"common_words": common, "frequent_names": frequent}), encoding="utf-8")
    from . import name_model

    name_model._MODEL_PATH = out
    name_model.load_model.cache_clear()
    data = list(examples(rows))
    print(f"{len(data)} labelled candidates, {sum(d[2] for d in data)} positive", file=sys.stderr)
    vec = DictVectorizer(sparse=True)
    X = vec.fit_transform([d[1] for d in data])
    y = [d[2] for d in data]
    fit_rows = [i for i, d in enumerate(data) if d[0] % 5 != 0]
    dev_rows = [i for i, d in enumerate(data) if d[0] % 5 == 0]
    clf = LogisticRegression(C=a.C, max_iter=2000, solver="lbfgs", fit_intercept=False)
    clf.fit(X[fit_rows], [y[i] for i in fit_rows])
    probs = dict(zip(dev_rows, clf.predict_proba(X[dev_rows])[:, 1]))
    groups: dict = {}
    for i in dev_rows:
        groups.setdefault(data[i][0], []).append((i, data[i][3]))
    # papers of the held-out fifth without any candidate still count (no name, a recall miss)
    for g in range(0, len(rows), 5):
        groups.setdefault(g, [])
    best = None
    for t in [x / 100 for x in range(10, 91, 2)]:
        m = evaluate(groups, probs, t, rows)
        print(f"threshold {t:.2f}: recall {m['recall']:.3f} precision {m['precision']:.3f} named {m['named_share']:.3f}", file=sys.stderr)
        goal = m["recall"] + m["precision"]
        if best is None or goal > best[0]:
            best = (goal, t, m)
    assert best is not None  # at least one threshold was tried
    _, threshold, heldout = best
    clf.fit(X, y)  # final weights from every paper
    weights = {name: round(float(w), 4) for name, w in zip(vec.get_feature_names_out(), clf.coef_[0])}
    model: dict[str, Any] = {
        "about": "readinglist name model: logistic regression over name_model.candidates features",
        "command": "python -m readinglist.convert.train_names" + (f" --limit {a.limit}" if a.limit else "") + (f" --C {a.C}" if a.C != 0.5 else ""),
        "corpus": path.name,
        "corpus_sha256": sha,
        "papers": len(rows),
        "examples": len(data),
        "threshold": threshold,
        "heldout_fifth": {k: round(v, 4) for k, v in heldout.items()},
        "weights": dict(sorted(weights.items(), key=lambda kv: -abs(kv[1]))),
        "common_words": common,
        "frequent_names": frequent,
    }
    out.write_text(json.dumps(model, ensure_ascii=False, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"threshold {threshold} on the held-out fifth: {heldout}", file=sys.stderr)
    for k, v in list(model["weights"].items())[:25]:
        print(f"  {v:+.3f}  {k}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
