"""Learn which two words open a phrase that is not the paper's own: ``python -m
readinglist.convert.train_scope_openers [TRAIN.jsonl.gz] [--limit N]``.

Over the first ``--limit`` training papers (default 40,000: rows 40,000 on are kept for
checking), every word followed by a preposition in the abstract ("experiments on", "suffers
from", "leading to") opens a phrase: the words after the preposition up to the next
preposition, punctuation mark or clause word (:data:`.scope.CLOSERS`). How many of that
phrase's words (articles and other function words left out, a plural's "s" dropped) the
paper's real title holds, counted per pair of words: a pair whose phrases' words reach the
title at a smoothed rate under ``MAX_RATIO`` of the rate of all such phrases, over at least
``MIN_WORDS`` phrase words, opens a scope (:mod:`.scope`): what follows it is an evaluation
("experiments on X"), a cause or a consequence ("due to X", "leading to X"), a problem
("suffers from X", "reliance on X") or a comparison ("improvement over X"), seldom what the
title names. Pure Python; writes ``convert/data/scope_openers.json``."""

from __future__ import annotations

import re
import sys
from collections import Counter

from .models import DATA
from .training import command_line, counting_args, read_rows, write_model

OUT = DATA / "scope_openers.json"
MIN_WORDS = 400
MAX_RATIO = 0.6
PRIOR = 50  # pseudo-words at the overall rate
PHRASE_MAX = 5
TOKEN = re.compile(r"[a-z0-9][a-z0-9'-]*|[.,;:()!?]")
PREPOSITIONS = frozenset("on to of for in with from by over against across via into under".split())
_FUNCTION = frozenset("the a an and or of to in on for with by from at as is are be was were been this that these those "
                      "our we its their it which such".split())


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def main(argv: list[str] | None = None) -> int:
    from .scope import CLOSERS

    a, path, sha = counting_args(__doc__, OUT, argv)
    said: Counter = Counter()
    titled: Counter = Counter()
    papers = 0
    for row in read_rows(path, a.limit):
        papers += 1
        title = {_stem(w) for w in TOKEN.findall((row.get("title") or "").lower())}
        low = TOKEN.findall((row.get("abstract") or "").lower())
        for i in range(1, len(low) - 1):
            first, prep = low[i - 1], low[i]
            if prep not in PREPOSITIONS or not first.isalpha() or first in _FUNCTION:
                continue
            words = []
            for t in low[i + 1 : i + 1 + PHRASE_MAX]:
                if t in CLOSERS or t in PREPOSITIONS or not t[0].isalnum():
                    break
                if t not in _FUNCTION:
                    words.append(_stem(t))
            said[first, prep] += len(words)
            titled[first, prep] += sum(w in title for w in words)
    rate = sum(titled.values()) / max(1, sum(said.values()))
    openers = {f"{f} {p}": [titled[f, p], said[f, p]] for f, p in sorted(said)
               if said[f, p] >= MIN_WORDS and (titled[f, p] + PRIOR * rate) / (said[f, p] + PRIOR) < MAX_RATIO * rate}
    print(f"{papers} papers; phrase words in the title at {rate:.3f}; {len(openers)} openers", file=sys.stderr)
    model = {
        "about": "readinglist: two words (a word and a preposition) after which the abstract's phrase seldom reaches "
        f"the real title: opener -> [phrase words in the title, phrase words], >= {MIN_WORDS} words, smoothed rate "
        f"< {MAX_RATIO} x the rate of all such phrases ({rate:.4f})",
        "command": command_line("train_scope_openers", a),
        "corpus": path.name,
        "corpus_sha256": sha,
        "papers": papers,
        "rate": round(rate, 4),
        "openers": openers,
    }
    write_model(a.out, model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
