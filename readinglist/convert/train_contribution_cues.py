"""Learn the verbs with which authors say what their paper does, besides the hand-set ones:
``python -m readinglist.convert.train_contribution_cues [TRAIN.jsonl.gz] [--limit N]``.

Over the first ``--limit`` training papers (default 40,000: rows 40,000 on are kept for setting
and checking other numbers), every "we <verb>" or "this paper/work/study <verb>" (an adverb such
as "first" or "thus" between them allowed) is counted with whether the next eight content words
(to the end of the clause) share at least two words with the real title. A verb form seen at
least ``MIN_USES`` times whose rate (smoothed towards the rate of all verbs with ``PRIOR``
pseudo-uses) is at least ``MIN_SHARE`` times that of "propose", "introduce" and "present" says
what the paper does ("we define", "this paper describes", "we tackle", "we focus on"), unless
its next word is most often a pointer or a clause ("this", "it", "that", "to", "as": "we argue
that"), whose object is no title phrase, or it gives a name ("we call", "we term":
:data:`readinglist.convert.titles.constants.NAMING_VERBS`). The title stage
(:mod:`readinglist.convert.titles.contribution`) reads their objects as it reads "we study X"
when the hand-set cues find none. Pure Python; writes ``convert/data/contribution_cues.json``
(verb forms and counts, never a text).
"""

from __future__ import annotations

import re
import sys
from collections import Counter

from .models import DATA
from .titles.constants import CUE_ADVERBS, NAMING_VERBS
from .training import command_line, counting_args, read_rows, write_model

OUT = DATA / "contribution_cues.json"
MIN_USES = 30
PRIOR = 2.0
MIN_SHARE = 0.6
REFERENCE = ("propose", "introduce", "present")
# what "we <verb>" is followed by when its object is a pointer back or a clause
POINTERS = frozenset("this these it them that to as how whether what why which".split())
_STOP = frozenset("""a an the and or but of to in on at by for from with without into via as than that this these
those which is are was were be been it its we our can not no new novel""".split())
_WORD = re.compile(r"[a-z0-9][a-z0-9'\-]*")
_CUE = re.compile(r"\b(?:we|this (?:paper|work|study))\s+(?:(?:" + "|".join(CUE_ADVERBS) + r")\s+)?([a-z]{3,})\b([^.;:]{0,80})")


def main(argv: list[str] | None = None) -> int:
    a, path, sha = counting_args(__doc__, OUT, argv)
    uses: Counter = Counter()
    titled: Counter = Counter()
    pointed: Counter = Counter()
    for row in read_rows(path, a.limit):
        title = {t for t in _WORD.findall((row.get("title") or "").lower()) if t not in _STOP}
        for m in _CUE.finditer((row.get("abstract") or "").lower()):
            words = _WORD.findall(m.group(2))
            content = [t for t in words[:8] if t not in _STOP]
            if not content:
                continue
            verb = m.group(1)
            uses[verb] += 1
            titled[verb] += len(title & set(content)) >= 2
            pointed[verb] += words[0] in POINTERS
    rate = sum(titled.values()) / max(1, sum(uses.values()))
    reference = sum(titled[v] for v in REFERENCE) / max(1, sum(uses[v] for v in REFERENCE))
    verbs = sorted(v for v, n in uses.items() if n >= MIN_USES and pointed[v] * 2 < n and v not in NAMING_VERBS
                   and (titled[v] + PRIOR * rate) / (n + PRIOR) >= MIN_SHARE * reference)
    print(f"{sum(uses.values())} cues; object in the title {rate:.3f} ({reference:.3f} for {', '.join(REFERENCE)}); "
          f"{len(verbs)} verb forms", file=sys.stderr)
    model = {
        "about": "readinglist: verb forms after 'we' / 'this paper' (an adverb between allowed) seen >= "
        f"{MIN_USES} times whose next eight content words share >= 2 words with the real title at >= {MIN_SHARE} "
        f"of the rate of {', '.join(REFERENCE)} (smoothed with {PRIOR} pseudo-uses), not followed by a pointer "
        "or a clause word in half their uses or more, nor one that gives a name (call, term, name, dub)",
        "command": command_line("train_contribution_cues", a),
        "corpus": path.name,
        "corpus_sha256": sha,
        "verbs": verbs,
    }
    write_model(a.out, model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
