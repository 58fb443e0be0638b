"""Learn which way the words between two phrases of a sentence relate them: ``python -m
readinglist.convert.train_for_links [TRAIN.jsonl.gz] [--limit N]``.

Over the first ``--limit`` training papers (default 40,000: rows 40,000 on are kept for setting
and checking other numbers) whose title (after "Name: ") joins two phrases with one "for": the
head P of the part before it (its last word) and the head Q of the part after (its last word
before a preposition or comma). In each sentence of the abstract where a form of P and a form
of Q are at most :data:`.titles.links.WINDOW` tokens apart (:func:`.titles.links.link`, the
nearest such pair), count whether P or Q comes first, overall and for each word between them;
keep the words between found in at least ``MIN_LINKS`` such sentences. :mod:`.titles.links`
reads a candidate "<a> for <b>" against these counts. Pure Python; writes
``convert/data/for_links.json``."""

from __future__ import annotations

import re
import sys
from collections import Counter

from .models import DATA
from .training import command_line, counting_args, read_rows, write_model

OUT = DATA / "for_links.json"
MIN_LINKS = 15
# where the part after "for" stops: its head is the word before
_STOP = frozenset("with via using in on from by through under and or of to across at without as into over beyond towards toward against".split())
_SKIP = frozenset("a an the".split())


def title_heads(title: str) -> tuple[str, str] | None:
    """(P, Q) of a title "<P> for <Q>" with one "for" (after "Name: "), or None."""
    from .titles.links import TOKEN

    body = title.split(": ", 1)[-1].lower()
    parts = re.split(r"\bfor\b", body)
    if len(parts) != 2:
        return None
    before = [w for w in TOKEN.findall(parts[0]) if w[0].isalnum() and w not in _SKIP]
    head_q = ""
    for w in TOKEN.findall(re.split(r"[,;:?]", parts[1])[0]):
        if w in _STOP and head_q:
            break
        if w[0].isalnum() and w not in _STOP and w not in _SKIP:
            head_q = w
    if not before or not head_q or before[-1] in _STOP or before[-1] == head_q:
        return None
    return before[-1], head_q


def main(argv: list[str] | None = None) -> int:
    from .lexicon import split_sentences
    from .titles.links import TOKEN, forms, link

    a, path, sha = counting_args(__doc__, OUT, argv)
    p_first: Counter = Counter()
    q_first: Counter = Counter()
    prior = [0, 0]
    papers = 0
    for row in read_rows(path, a.limit):
        heads = title_heads(row.get("title") or "")
        if not heads:
            continue
        papers += 1
        fp, fq = forms(heads[0]), forms(heads[1])
        for _o, sent in split_sentences(row.get("abstract") or ""):
            found = link(TOKEN.findall(sent.lower()), fp, fq)
            if found is None:
                continue
            first, gap = found
            prior[0 if first else 1] += 1
            (p_first if first else q_first).update(set(gap))
    words = {w: [p_first[w], q_first[w]] for w in sorted(p_first.keys() | q_first.keys())
             if p_first[w] + q_first[w] >= MIN_LINKS}
    print(f"{papers} titles '<P> for <Q>'; {sum(prior)} sentences link P and Q, P first in {prior[0]}; "
          f"{len(words)} words between them kept", file=sys.stderr)
    model = {
        "about": "readinglist: in abstracts whose title is '<P> for <Q>', sentences where P's and Q's heads are at "
        f"most a few tokens apart: prior = [P first, Q first]; words: word between them -> [P first, Q first], "
        f"words in >= {MIN_LINKS} such sentences",
        "command": command_line("train_for_links", a),
        "corpus": path.name,
        "corpus_sha256": sha,
        "papers": papers,
        "prior": prior,
        "words": words,
    }
    write_model(a.out, model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
