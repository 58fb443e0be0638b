"""Learn which words a title does not end on: ``python -m readinglist.convert.train_title_ends
[TRAIN.jsonl.gz] [--limit N]``.

Counts, over the real titles of the first ``--limit`` training papers (default 40,000: rows
40,000 on are kept for setting and checking other numbers), how many titles contain each word
and how many end on it. A word found in at least ``MIN_TITLES`` titles that ends fewer than
``MAX_RATE`` of them (smoothed: (ends + 0.5) / (titles + 2)) is a modifier waiting for its head
("large", "semantic", "end-to-end", "text-to-image") or a word cut from its clause ("detecting",
"whenever"): :mod:`readinglist.convert.titles` rejects a candidate title ending on one. Pure
Python (no training extra needed); writes ``convert/data/title_ends.json``."""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

from .models import DATA
from .training import parser, read_rows

OUT = DATA / "title_ends.json"
MIN_TITLES = 20
MAX_RATE = 0.008


def main(argv: list[str] | None = None) -> int:
    from .titles import words_of_title

    ap = parser(__doc__, OUT)
    ap.add_argument("--limit", type=int, default=40000)
    a = ap.parse_args(argv)
    path = Path(a.corpus)
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    ends: Counter = Counter()
    titles: Counter = Counter()
    papers = 0
    for row in read_rows(path, a.limit):
        words = words_of_title(row["title"])
        if words:
            papers += 1
            ends[words[-1]] += 1
            titles.update(set(words))
    never = sorted(w for w, n in titles.items() if n >= MIN_TITLES and (ends[w] + 0.5) / (n + 2) < MAX_RATE)
    print(f"{papers} titles; {len(never)} words end fewer than {MAX_RATE:.1%} of the titles they are in", file=sys.stderr)
    model = {
        "about": "readinglist: words real titles (almost) never end on; "
        f"found in >= {MIN_TITLES} titles, ending < {MAX_RATE} of them (smoothed)",
        "command": "python -m readinglist.convert.train_title_ends" + (f" --limit {a.limit}" if a.limit != 40000 else ""),
        "corpus": path.name,
        "corpus_sha256": sha,
        "papers": papers,
        "min_titles": MIN_TITLES,
        "max_rate": MAX_RATE,
        "not_final": never,
    }
    Path(a.out).write_text(json.dumps(model, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
