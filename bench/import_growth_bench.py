"""Import cost per paper as the store grows (issue 30: 5k -> 50k within 1.2x), sizes and variants
interleaved in one run.

Imports the 5,000 papers of bench/cli_bench.py's import-bib-into (one .bib) and/or import-into
(5 abstract lists of 1,000) into a hard-linked copy of the cli_bench store of each --sizes, each
import its own ``readinglist`` process; every round runs every size and variant once, in turn,
so that a change in the machine's load falls on all of them alike. The table shows medians per
paper imported, CPU (user + system of the process and the workers it waited for: what a loaded
machine disturbs least) and wall, and each variant's ratio to its own figure at the smallest
size. Usage::

    python bench/import_growth_bench.py [--sizes 5000,50000] [--inputs bib,lists] [--rounds 3]
                                        [--workdir DIR] [--variant NAME=SRC ...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from cli_bench import WARM_INDEX, link_copy, make_bib, make_lists, make_store, readinglist_cmd, run  # noqa: E402

PAPERS = 5000  # imported each time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5000,50000")
    ap.add_argument("--inputs", default="bib,lists")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "readinglist-cli-bench")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=SRC")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    variants: dict[str, dict] = {"this": dict(os.environ)}
    for spec in args.variant:
        name, _, src = spec.partition("=")
        variants[name] = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    for env in variants.values():
        src = env.get("PYTHONPATH", str(ROOT))
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(src, "readinglist")], check=True, capture_output=True)
    work = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    lists = make_lists(work / "lists", 5, 1000, "l5k")
    inputs = {"bib": [make_bib(work, lists)], "lists": lists}
    for n in sizes:
        make_store(work / f"store-{n}", n)
    rl = readinglist_cmd()
    run_dir = Path(tempfile.mkdtemp(prefix="growth-", dir=work))
    times: dict[tuple[str, int, str], list[tuple[float, float]]] = {}
    try:
        for r in range(args.rounds):
            for kind in args.inputs.split(","):
                for n in sizes:
                    for v, env in variants.items():
                        target = run_dir / f"{kind}-{n}-{v}"
                        link_copy(work / f"store-{n}", target)
                        run([*rl, "--store", str(target), "list"], env=env)  # the copy's cache and index, untimed
                        run([sys.executable, "-c", WARM_INDEX, str(target)], env=env)
                        wall, _, cpu, _ = run([*rl, "--store", str(target), "import", *map(str, inputs[kind])], env=env)
                        times.setdefault((kind, n, v), []).append((cpu, wall))
                        shutil.rmtree(target)
            print(f"round {r + 1}/{args.rounds} done (load average {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
    print(f"ms per paper imported ({PAPERS:,} papers into a store of N), medians of {args.rounds} interleaved rounds")
    print(f"{'input':6} {'variant':>10} {'N':>7} {'CPU ms':>7} {'x':>5} {'wall ms':>8} {'x':>5}")
    for kind in args.inputs.split(","):
        for v in variants:
            first = None
            for n in sizes:
                cpu = statistics.median(c for c, _ in times[kind, n, v]) / PAPERS * 1000
                wall = statistics.median(w for _, w in times[kind, n, v]) / PAPERS * 1000
                first = first or (cpu, wall)
                print(f"{kind:6} {v:>10} {n:7,} {cpu:7.3f} {cpu / first[0]:5.2f} {wall:8.3f} {wall / first[1]:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
