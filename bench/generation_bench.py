"""Speed of name, title and tag generation, per stage (prints figures; no assertions).

Uses the converter bench's input (5,000 seed-like abstracts, ``convert_bench.make_list``), reads
and converts them to plain text once, then runs the generation stages over chunks of 8 abstracts in
the order the converter runs them (detect_name -> make_title -> tags -> key), adding up each
stage's CPU time (process time, so other jobs on a shared machine count less). Each
measurement is repeated and the median printed.
Budget: the title stage <= 0.5 s CPU for 5,000 abstracts (the converter's 2 s wall budget covers
everything, with generation spread over two forked processes). The title/name ratio is printed
too: both stages run in the same loop, so on a noisy shared machine the ratio is steadier than
either figure.

    python bench/generation_bench.py [N=5000] [repeats=3]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import convert_bench  # noqa: E402

from readinglist.config import default_config  # noqa: E402
from readinglist.convert.keys import KeyParts, make_key  # noqa: E402
from readinglist.convert.naming import detect_name  # noqa: E402
from readinglist.convert.reader import parse_list  # noqa: E402
from readinglist.convert.tagging import compile_taxonomy  # noqa: E402
from readinglist.text import to_plain  # noqa: E402
from readinglist.convert.titles import make_title  # noqa: E402

# Stages run over chunks of this many abstracts (small enough that per-text caches such as the
# sentence split stay warm between stages, as in the converter, which runs them per abstract).
CHUNK = 8
STAGES = ("parse", "to_plain", "name", "title", "tags", "keys")


def measure(text: str) -> dict[str, float]:
    config = default_config()
    tagger = compile_taxonomy(config.taxonomy)
    clock = time.process_time
    out = dict.fromkeys(STAGES, 0.0)
    t = clock()
    paras = [p.text for p in parse_list(text).paragraphs]
    out["parse"] = clock() - t
    t = clock()
    plains = [to_plain(p) for p in paras]
    out["to_plain"] = clock() - t
    name_t = title_t = tags_t = keys_t = 0.0
    cpu = time.process_time
    items = list(zip(paras, plains))
    for at in range(0, len(items), CHUNK):
        chunk = items[at : at + CHUNK]
        t0 = cpu()
        names = [detect_name(raw, plain) for raw, plain in chunk]
        t1 = cpu()
        titles = [make_title(raw, plain, name) for (raw, plain), name in zip(chunk, names)]
        t2 = cpu()
        for (_raw, plain), name, title in zip(chunk, names, titles):
            tagger.tags(plain, name=name, title=title, max_tags=config.max_tags)
        t3 = cpu()
        for name, title in zip(names, titles):
            make_key(config.key_pattern, KeyParts(name=name, title=title, year=2026))
        t4 = cpu()
        name_t += t1 - t0
        title_t += t2 - t1
        tags_t += t3 - t2
        keys_t += t4 - t3
    out.update(name=name_t, title=title_t, tags=tags_t, keys=keys_t)
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    text = convert_bench.make_list(n, random.Random(5))
    measure(convert_bench.make_list(200, random.Random(1)))  # warm imports and caches
    runs = [measure(text) for _ in range(repeats)]
    print(f"{n} abstracts, median of {repeats} runs (seconds; all runs in brackets)")
    for stage in STAGES:
        values = [r[stage] for r in runs]
        print(f"  {stage:9s} {statistics.median(values):6.3f}  [{', '.join(f'{v:.3f}' for v in values)}]")
    gen = [r["name"] + r["title"] + r["tags"] for r in runs]
    med = statistics.median(gen)
    print(f"  name+title+tags {med:6.3f} s ({med / n * 1e6:.0f} us each)")
    title = statistics.median(r["title"] for r in runs)
    ratio = statistics.median(r["title"] / r["name"] for r in runs if r["name"])
    print(
        f"  title stage {title:6.3f} s ({title / n * 1e6:.0f} us each)  budget 0.50 s for 5,000"
        f"  {'OK' if title * 5000 / n <= 0.5 else 'OVER'}  (title/name CPU ratio {ratio:.2f})"
    )


if __name__ == "__main__":
    main()
