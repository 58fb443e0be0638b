"""Re-import budget (issue 27): a re-import of an unchanged list costs about what reading it
costs, and a re-import of a list with a few abstracts edited pays only for those.

For each variant (the installed readinglist, and each ``--variant NAME=SRC``: the package found in
SRC, put first on PYTHONPATH, e.g. ``git archive main readinglist | tar -x -C /tmp/old``), three
whole ``readinglist import`` processes, one after the other on the same store:

  first       the list (``--size`` abstracts, default 5,000, from bench/convert_bench's generator)
              into an empty store
  unchanged   the same list again
  edited      the list re-issued (the same file) with ``--edits`` abstracts (default 50)
              changed by a sentence

and the table shows wall and CPU seconds (this process's children: the CLI and the workers it
waited for) side by side, the variants interleaved step by step so that a machine busy with other
work weighs on each alike, and the ratio of each re-import to the first import. Usage::

    python bench/reimport_bench.py [--size 5000] [--edits 50] [--variant before=/tmp/old]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

STEPS = ("first", "unchanged", "edited")


def readinglist_cmd() -> list[str]:
    script = Path(sys.executable).with_name("readinglist")
    return [str(script)] if script.exists() else [sys.executable, "-m", "readinglist"]


def run(argv: list[str], env: dict) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and the children it waited for, its summary)."""
    before = os.times()
    t = time.perf_counter()
    out = subprocess.run(argv, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = os.times()
    if out.returncode != 0:
        raise SystemExit(f"failed ({out.returncode}): {' '.join(argv)}\n{out.stderr[-2000:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, out.stdout.strip().splitlines()[-1]


def make_lists(work: Path, size: int, edits: int) -> tuple[Path, Path]:
    """The list and its edited copy (``edits`` abstracts, spread over the list, given a sentence)."""
    import convert_bench

    base = work / f"list-{size}.txt"
    if not base.exists():
        base.write_text(convert_bench.make_list(size, random.Random(27)), encoding="utf-8")
    header, *paragraphs = base.read_text(encoding="utf-8").split("\n\n")
    rng = random.Random(50)
    for i in rng.sample(range(len(paragraphs)), min(edits, len(paragraphs))):
        paragraphs[i] = paragraphs[i].rstrip("\n") + " We release the code and the benchmark."
    edited = work / f"list-{size}-edited.txt"
    edited.write_text("\n\n".join([header, *paragraphs]).rstrip("\n") + "\n", encoding="utf-8")
    return base, edited


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=5000)
    ap.add_argument("--edits", type=int, default=50)
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=SRC", help="also run the readinglist package in SRC")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "readinglist-reimport-bench")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    base, edited = make_lists(args.workdir, args.size, args.edits)
    variants: list[tuple[str, dict]] = [("this", dict(os.environ))]
    for spec in args.variant:
        name, _, src = spec.partition("=")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        variants.append((name, env))
    cmd = readinglist_cmd()
    results: dict[tuple[str, str], tuple[float, float, str]] = {}
    folders = {name: args.workdir / name for name, _ in variants}
    for folder in folders.values():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
    for step, source in zip(STEPS, (base, base, edited)):
        for name, env in variants:
            listing = folders[name] / "list.txt"  # (one file, as a list re-issued under its name)
            shutil.copyfile(source, listing)
            results[name, step] = run([*cmd, "--store", str(folders[name] / "store"), "import", str(listing)], env)
            print(f"{name:>10} {step:<10} {results[name, step][0]:6.1f} s  {results[name, step][2]}", flush=True)
    print(f"\n{args.size:,} abstracts, {args.edits} edited; {os.cpu_count()} cores; whole CLI processes")
    print(f"{'variant':>10} {'step':<10} {'wall s':>7} {'cpu s':>7} {'wall/first':>10}")
    for name, _ in variants:
        first = results[name, "first"][0]
        for step in STEPS:
            wall, cpu, _ = results[name, step]
            print(f"{name:>10} {step:<10} {wall:7.2f} {cpu:7.2f} {wall / first:10.2f}")
    for folder in folders.values():
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
