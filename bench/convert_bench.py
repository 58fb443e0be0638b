"""Converter budget: 5,000 abstracts in <= 2 s, and 20,000 in <= 4x that (linear).

Builds inputs from the seed abstracts' sentences (so no two inputs are duplicates), converts them through ``readinglist.convert`` in this process, and prints seconds,
per-abstract cost and the 20k/5k ratio. Run: python bench/convert_bench.py
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from readinglist.config import default_config  # noqa: E402
from readinglist.convert.reader import parse_list  # noqa: E402

WORDS = (
    "adaptive sparse robust latent causal spectral graph token policy kernel manifold contrastive "
    "federated quantum bayesian stochastic temporal hierarchical neural symbolic"
).split()


def seed_abstracts() -> list[str]:
    out = []
    for path in sorted((ROOT / "seeds").glob("*.txt")):
        out += [p.text for p in parse_list(path.read_text(encoding="utf-8"), source=path.name).paragraphs]
    return out


def make_list(n: int, rng: random.Random) -> str:
    """``n`` distinct abstracts that read like the seeds (LaTeX, names, acronyms): each is 6-8
    seed sentences drawn at random, with about one lowercase word in three swapped for another
    seed word, so that no two inputs are the same paper and, as in a real list, they share
    common phrases but not whole sentences (20,000 copies of 300 sentences would make every
    sentence a 500-fold near-duplicate, which no real list has)."""
    import re

    abstracts = seed_abstracts()
    sentences = [s for a in abstracts for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", a) if len(s) > 30]
    vocabulary = sorted({w for a in abstracts for w in a.split() if w.isalpha() and w.islower() and len(w) > 3})
    paras = []
    for i in range(n):
        words = " ".join(rng.sample(sentences, rng.randint(6, 8))).split()
        for _ in range(len(words) // 3):
            pos = rng.randrange(len(words))
            if words[pos].isalpha() and words[pos].islower():
                words[pos] = rng.choice(vocabulary)
        words.insert(rng.randrange(len(words)), f"variant{i}")
        paras.append(" ".join(words))
    return "NeurIPS 2026 Paper List\n\n" + "\n\n".join(paras) + "\n"


def run(n: int) -> tuple[float, int]:
    from readinglist.convert import convert

    text = make_list(n, random.Random(n))
    config = default_config()
    t0, c0 = time.perf_counter(), time.process_time()
    result = convert(text, source="bench.txt", config=config)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"  ({n:,} abstracts: wall {wall:.2f} s, cpu {cpu:.2f} s; load average {os.getloadavg()[0]:.1f})")
    return wall, len(result.records)


def main() -> None:
    run(200)  # warm caches and imports, as a long-lived process would be
    t5, n5 = run(5_000)
    t20, n20 = run(20_000)
    print(f"convert  5,000 abstracts: {t5:6.2f} s  ({t5 / 5_000 * 1e3:.3f} ms each, {n5} records)  budget 2.00 s  {'OK' if t5 <= 2 else 'OVER'}")
    print(f"convert 20,000 abstracts: {t20:6.2f} s  ({t20 / 20_000 * 1e3:.3f} ms each, {n20} records)  budget {4 * t5:.2f} s (4x)  {'OK' if t20 <= 4 * t5 else 'OVER'}")
    print(f"ratio 20k/5k: {t20 / t5:.2f}  (linear = 4.00)")


if __name__ == "__main__":
    main()
