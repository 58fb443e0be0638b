"""Converter budget: 5,000 abstracts in <= 2 s, and 20,000 in <= 4x that (linear).

Builds inputs from the seed abstracts' sentences (so no two inputs are duplicates), converts them
through ``readinglist.convert`` and prints wall seconds, CPU seconds per abstract (this process
and its forked workers; on a shared machine CPU time says more than wall time) and the 20k/5k
ratio. ``--processes N`` lets the converter fork N workers for lists above
``convert/pipeline.py``'s PARALLEL_MIN, as the CLI does (default 1: one process).

``--baseline DIR`` measures another checkout (e.g. ``git worktree add /tmp/base main``) side by
side on the same inputs: each size is converted in a fresh process per checkout, alternating,
``--repeats`` times, and the fastest CPU time of each is printed with their ratio.

Run: python bench/convert_bench.py [--processes N] [--baseline DIR] [--repeats R] [--sizes 5000,20000]
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


def _measure(root: Path, list_file: str, processes: int) -> dict:
    """Convert one list in a fresh process running the checkout at ``root``: its figures."""
    import json
    import subprocess

    code = (
        "import json, os, sys, time\n"
        f"sys.path.insert(0, {str(root)!r})\n"
        "from readinglist.config import default_config\n"
        "from readinglist.convert import convert\n"
        f"text = open({list_file!r}, encoding='utf-8').read()\n"
        "config = default_config()\n"
        "convert(text[: text.index(chr(10) + chr(10), 20000)], source='warm.txt', config=config)  # imports, caches\n"
        "t0, c0 = time.perf_counter(), os.times()\n"
        f"result = convert(text, source='bench.txt', config=config, processes={processes})\n"
        "wall, c1 = time.perf_counter() - t0, os.times()\n"
        "cpu = (c1.user + c1.system + c1.children_user + c1.children_system) - (c0.user + c0.system + c0.children_user + c0.children_system)\n"
        "print(json.dumps({'wall': wall, 'cpu': cpu, 'records': len(result.records)}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def run(n: int, processes: int = 1) -> tuple[float, float, int]:
    from readinglist.convert import convert

    text = make_list(n, random.Random(n))
    config = default_config()
    t0, c0 = time.perf_counter(), os.times()
    result = convert(text, source="bench.txt", config=config, processes=processes)
    wall, c1 = time.perf_counter() - t0, os.times()
    cpu = (c1.user + c1.system + c1.children_user + c1.children_system) - (c0.user + c0.system + c0.children_user + c0.children_system)
    print(f"  ({n:,} abstracts: wall {wall:.2f} s, cpu {cpu:.2f} s = {cpu / n * 1e3:.3f} ms each; "
          f"load average {os.getloadavg()[0]:.1f})")
    return wall, cpu, len(result.records)


def side_by_side(baseline: Path, sizes: list[int], processes: int, repeats: int) -> None:
    import tempfile

    print(f"this checkout ({ROOT}) vs baseline ({baseline}); processes={processes}; best of {repeats}")
    for n in sizes:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", delete=False) as fh:
            fh.write(make_list(n, random.Random(n)))
        runs: dict[str, list[dict]] = {"this": [], "baseline": []}
        try:
            for _ in range(repeats):
                runs["baseline"].append(_measure(baseline.resolve(), fh.name, processes))
                runs["this"].append(_measure(ROOT, fh.name, processes))
        finally:
            os.unlink(fh.name)
        best = {k: min(v, key=lambda r: r["cpu"]) for k, v in runs.items()}
        for k in ("baseline", "this"):
            r = best[k]
            print(f"  {n:6,} abstracts  {k:8}  wall {r['wall']:6.2f} s  cpu {r['cpu']:6.2f} s  "
                  f"({r['cpu'] / n * 1e3:.3f} ms cpu each, {r['records']} records)")
        print(f"  {n:6,} abstracts  cpu this/baseline {best['this']['cpu'] / best['baseline']['cpu']:.2f}  "
              f"wall this/baseline {best['this']['wall'] / best['baseline']['wall']:.2f}  "
              f"(load average {os.getloadavg()[0]:.1f})")


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--processes", type=int, default=1, help="worker processes the converter may fork (default 1)")
    ap.add_argument("--baseline", type=Path, help="another checkout to measure side by side")
    ap.add_argument("--repeats", type=int, default=2, help="runs per checkout and size with --baseline")
    ap.add_argument("--sizes", default="5000,20000", help="list sizes with --baseline (default 5000,20000)")
    args = ap.parse_args()
    if args.baseline:
        side_by_side(args.baseline, [int(x) for x in args.sizes.split(",")], args.processes, args.repeats)
        return
    run(200)  # warm caches and imports, as a long-lived process would be
    t5, c5, n5 = run(5_000, args.processes)
    t20, c20, n20 = run(20_000, args.processes)
    print(f"convert  5,000 abstracts: {t5:6.2f} s  ({t5 / 5_000 * 1e3:.3f} ms each, cpu {c5 / 5_000 * 1e3:.3f} ms each, {n5} records)"
          f"  budget 2.00 s  {'OK' if t5 <= 2 else 'OVER'}")
    print(f"convert 20,000 abstracts: {t20:6.2f} s  ({t20 / 20_000 * 1e3:.3f} ms each, cpu {c20 / 20_000 * 1e3:.3f} ms each, {n20} records)"
          f"  budget {4 * t5:.2f} s (4x)  {'OK' if t20 <= 4 * t5 else 'OVER'}")
    print(f"ratio 20k/5k: wall {t20 / t5:.2f}, cpu {c20 / c5:.2f}  (linear = 4.00)")


if __name__ == "__main__":
    main()
