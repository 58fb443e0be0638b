"""The near-duplicate check's cost per look-up as the store grows (issue 30).

Fills a :class:`~readinglist.store.dupindex.StoredNearIndex` (kept in a scratch cache folder) the
way an import does (``best`` then ``add`` for each abstract, a ``fold`` every importer.BATCH) and
times the look-ups of each slice of abstracts, so the table shows ms per look-up at 5k, 20k, 50k
papers in the index; with the number of postings a look-up counted and the texts it verified.

Two sources: ``synthetic`` (bench/convert_bench.py's lists: seed sentences recombined, so they
share openings and common phrases) and ``real`` (the abstracts of /work/shared/corpus: read
here, never copied into the project). Usage::

    python bench/dupindex_bench.py [--sizes 5000,20000,50000] [--source synthetic,real] [--probe 1000]
                                   [--src DIR (a readinglist package to measure instead)]

Times are CPU seconds of this process (time.process_time: what a loaded machine disturbs least).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
if "--src" in sys.argv:  # another checkout's package (before/after): python bench/dupindex_bench.py --src /tmp/old
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


def measure(abstracts: list[str], sizes: list[int], probe: int) -> list[tuple[int, float, int, float]]:
    """(size, ms per look-up of the ``probe`` abstracts added after ``size``, duplicates found,
    ms per paper of filling the index up to ``size`` (look-up, add, folds: an import's share))."""
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
            rows.append((size, (time.process_time() - t) / probe * 1000, found, fill))
            done = size
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5000,20000,50000")
    ap.add_argument("--source", default="synthetic,real")
    ap.add_argument("--probe", type=int, default=1000)
    ap.add_argument("--src", help="measure the readinglist package in this folder")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for source in args.source.split(","):
        abstracts = {"synthetic": synthetic, "real": real}[source](max(sizes) + args.probe)
        rows = measure(abstracts, sizes, args.probe)
        first, first_fill = rows[0][1], rows[0][3]
        import readinglist

        print(f"{source} ({Path(readinglist.__file__).parent.parent}):")
        for n, ms, found, fill in rows:
            print(f"  {n:>6,} papers: look-up {ms:.3f} ms (x{ms / first:.2f}), {found} duplicates of {args.probe}; "
                  f"filling up to here {fill:.3f} ms/paper (x{fill / first_fill:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
