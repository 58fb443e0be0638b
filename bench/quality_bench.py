"""Quality of the generated names and titles on real papers, as the issue's table.

Runs ``../shared/tools/eval_realworld.py`` on ``../shared/corpus/dev.jsonl`` (3,000 real ML
papers with their real titles) through the installed ``readinglist`` command, and prints each
measure next to its target. Skips cleanly (exit 0, one line) when ``../shared`` is absent, as in
a fresh clone. Takes about a minute.

Run: python bench/quality_bench.py [--limit N] [--jsonl FILE] [--bin PATH] [--pairs FILE]
                                   [--train-rows A:B]

``--train-rows 50000:53000`` measures rows A..B-1 of ``../shared/corpus/train.jsonl.gz`` instead
(the name model is trained on its first 32,000 rows, so later rows are unseen papers): a check
that a change helps beyond dev.jsonl.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EVAL = SHARED / "tools" / "eval_realworld.py"
DEV = SHARED / "corpus" / "dev.jsonl"
TRAIN = SHARED / "corpus" / "train.jsonl.gz"

# (label, how to read it from the report, target, higher is better)
ROWS = (
    ("import crashes", lambda r, n: len(r["run"]["crashed_ids"]), "0", False),
    ("name recall on 'Name: subtitle' titles", lambda r, n: r["name"]["recall"], ">= 0.85", True),
    ("  single-word names", lambda r, n: r["name"]["recall_single_token_names"], ">= 0.92", True),
    ("  multi-word names", lambda r, n: r["name"]["recall_multi_word_names"], ">= 0.50", True),
    ("name precision (short title in real title)", lambda r, n: r["name"]["precision"], ">= 0.65", True),
    ("title ROUGE-1 F1, mean", lambda r, n: r["title"]["readinglist"]["rouge1_f1"]["mean"], ">= 0.40", True),
    ("  LEAD baseline (first 10 words)", lambda r, n: r["title"]["lead"]["rouge1_f1"]["mean"], "", True),
    ("titles worse than LEAD", lambda r, n: r["defects"]["worse_than_lead_share"], "<= 15%", False),
    ("titles copying the opening words", lambda r, n: r["defects"]["copies_opening_words"] / n, "<= 1%", False),
    ("titles with a finite verb (a clause)", lambda r, n: r["defects"]["clause_with_finite_verb"] / n, "<= 4%", False),
    ("titles of three words or fewer", lambda r, n: r["defects"]["three_words_or_fewer"] / n, "<= 3%", False),
    ("titles starting This/We/Our or dangling",
     lambda r, n: (r["defects"]["starts_this_we_our"] + r["defects"]["ends_dangling"]) / n, "<= 0.5%", False),
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jsonl", default=str(DEV))
    ap.add_argument("--bin", default=shutil.which("readinglist") or str(Path(sys.executable).parent / "readinglist"))
    ap.add_argument("--limit", type=int)
    ap.add_argument("--pairs", help="also write every generated/real pair here (for reading failures)")
    ap.add_argument("--train-rows", metavar="A:B", help="measure rows A..B-1 of train.jsonl.gz instead of dev.jsonl")
    a = ap.parse_args()
    source = TRAIN if a.train_rows else Path(a.jsonl)
    if not EVAL.exists() or not source.exists():
        print(f"quality bench skipped: {EVAL if not EVAL.exists() else source} not found (no ../shared here)")
        return 0
    with tempfile.TemporaryDirectory(prefix="quality-bench-") as tmp:
        report = Path(tmp) / "report.json"
        if a.train_rows:
            first, last = (int(x) for x in a.train_rows.split(":"))
            a.jsonl = str(Path(tmp) / f"train-{first}-{last}.jsonl")
            with gzip.open(TRAIN, "rt", encoding="utf-8") as src, open(a.jsonl, "w", encoding="utf-8") as dst:
                dst.writelines(itertools.islice(src, first, last))
        cmd = [sys.executable, str(EVAL), a.jsonl, a.bin, "--report", str(report)]
        if a.limit:
            cmd += ["--limit", str(a.limit)]
        if a.pairs:
            cmd += ["--pairs", a.pairs]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0 or not report.exists():
            print(run.stdout[-2000:], run.stderr[-2000:], sep="\n")
            return run.returncode or 1
        r = json.loads(report.read_text(encoding="utf-8"))
    n = max(1, r["mapped"])
    print(f"quality on {Path(a.jsonl).name}: {r['pairs']} papers, {r['mapped']} mapped back")
    print("| measure | now | target |\n|---|---|---|")
    for label, get, target, _higher in ROWS:
        value = get(r, n)
        shown = f"{value:.3f}" if "ROUGE" in label or "LEAD baseline" in label or "recall" in label or "precision" in label \
            or "names" in label else (f"{value:.1%}" if isinstance(value, float) else str(value))
        print(f"| {label} | {shown} | {target} |")
    print(r["summary"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
