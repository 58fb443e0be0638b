"""The near-duplicate check's cost per look-up as the store grows (issue 30).

Fills a :class:`~readinglist.store.dupindex.StoredNearIndex` (kept in a scratch cache folder) the
way an import does (``best`` then ``add`` for each abstract, a ``fold`` every importer.BATCH) and
times the look-ups of each slice of abstracts, so the table shows ms per look-up at 5k, 20k, 50k
papers in the index: of new abstracts, and of near duplicates (two words of an indexed abstract
replaced: every query counts its phrases and verifies); with the duplicates found (the same in
every variant, or the variant changed what is found).

Two sources: ``synthetic`` (bench/convert_bench.py's lists: seed sentences recombined, so they
share openings and common phrases) and ``real`` (the abstracts of /work/shared/corpus: read
here, never copied into the project). Usage::

    python bench/dupindex_bench.py [--sizes 5000,20000,50000] [--source synthetic,real] [--probe 1000]
                                   [--variant NAME=DIR ...] [--rounds 1]

``--variant before=DIR`` also measures the readinglist package in DIR, each variant in its own
process, interleaved (``--rounds`` times; the medians shown). Times are CPU seconds of each
process (time.process_time: what a loaded machine disturbs least).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
if "--src" in sys.argv:  # a variant's package, measured in a child process
    sys.path.insert(0, sys.argv[sys.argv.index("--src") + 1])

from readinglist.config import default_config  # noqa: E402
from readinglist.store import importer  # noqa: E402
from readinglist.store.dupindex import StoredNearIndex  # noqa: E402

CORPUS = Path("/work/shared/corpus")


def synthetic(n: int) -> list[str]:
    import convert_bench

    out: list[str] = []
    i = 0
    while len(out) < n:
        text = convert_bench.make_list(5000, random.Random(f"dup{i}")).replace("variant", f"v{i}x")
        out += text.split("\n\n")[1:]
        i += 1
    return [a.strip() for a in out[:n]]


def real(n: int) -> list[str]:
    out: list[str] = []
    with open(CORPUS / "dev.jsonl", encoding="utf-8") as f:
        out += [json.loads(line)["abstract"] for line in f]
    with gzip.open(CORPUS / "train.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            if len(out) >= n:
                break
            out.append(json.loads(line)["abstract"])
    seen: set[str] = set()
    return [a for a in out if a and not (a in seen or seen.add(a))][:n]  # type: ignore[func-returns-value]


def near_copy(text: str, seed: int) -> str:
    """``text`` with two words replaced (an author's late edits)."""
    rng = random.Random(seed)
    words = text.split(" ")
    for i in rng.sample(range(len(words)), min(2, len(words))):
        words[i] = rng.choice(["novel", "robust", "several", "improved", "simple"])
    return " ".join(words)


def measure(abstracts: list[str], sizes: list[int], probe: int) -> list[tuple[int, float, int, float, float, int]]:
    """(size, ms per look-up of the ``probe`` abstracts added after ``size``, duplicates found,
    ms per paper of filling the index up to ``size`` (look-up, add, folds: an import's share),
    ms per look-up of ``probe`` near copies of indexed abstracts, duplicates found among them)."""
    threshold = default_config().duplicate_threshold
    with tempfile.TemporaryDirectory() as cache:
        near = StoredNearIndex.open_lazy(Path(cache), {}, lambda name: texts[name])
        texts: dict[str, str] = {}
        rows = []
        done = 0
        for size in sizes:
            fill = time.process_time()
            for i in range(done, size):
                name = f"p{i:06d}.toml"
                texts[name] = abstracts[i]
                near.best(abstracts[i], threshold)
                near.add(name, abstracts[i])
                if (i + 1) % importer.BATCH == 0:
                    near.fold()
            near.fold()
            fill = (time.process_time() - fill) / (size - done) * 1000
            found = 0
            t = time.process_time()
            for i in range(size, size + probe):
                found += near.best(abstracts[i], threshold) is not None
            ms = (time.process_time() - t) / probe * 1000
            copies = [near_copy(abstracts[i * size // probe], i) for i in range(probe)]
            near_found = 0
            t = time.process_time()
            for text in copies:
                near_found += near.best(text, threshold) is not None
            rows.append((size, ms, found, fill, (time.process_time() - t) / probe * 1000, near_found))
            done = size
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5000,20000,50000")
    ap.add_argument("--source", default="synthetic,real")
    ap.add_argument("--probe", type=int, default=1000)
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=DIR")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--src", help=argparse.SUPPRESS)  # (a child's package: the rows as JSON)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.src is not None:
        abstracts = {"synthetic": synthetic, "real": real}[args.source](max(sizes) + args.probe)
        print(json.dumps(measure(abstracts, sizes, args.probe)))
        return 0
    variants = {"this": str(ROOT)} | dict(spec.partition("=")[::2] for spec in args.variant)
    for source in args.source.split(","):
        runs: dict[str, list] = {name: [] for name in variants}
        for _ in range(args.rounds):
            for name, src in variants.items():
                argv = [sys.executable, __file__, "--src", src, "--source", source, "--sizes", args.sizes, "--probe", str(args.probe)]
                runs[name].append(json.loads(subprocess.run(argv, check=True, capture_output=True, text=True).stdout))
        print(f"{source} abstracts, ms per look-up (CPU; medians of {args.rounds}); x: to the same variant at {sizes[0]:,}")
        print(f"{'variant':>10} {'papers':>7} {'new':>7} {'x':>5} {'near copy':>9} {'x':>5} {'found':>6} {'fill/paper':>10} {'x':>5}")
        for name, rounds in runs.items():
            rows = [[statistics.median(r[k][col] for r in rounds) if col in (1, 3, 4) else rounds[0][k][col] for col in range(6)] for k in range(len(sizes))]
            first = rows[0]
            for n, ms, _found, fill, near_ms, near_found in rows:
                print(f"{name:>10} {n:7,} {ms:7.3f} {ms / first[1]:5.2f} {near_ms:9.3f} {near_ms / first[4]:5.2f} {near_found:6} {fill:10.3f} {fill / first[3]:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
