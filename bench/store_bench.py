"""Speed of the TOML store on a generated 20,000-record store.

Budgets (wall-clock medians of fresh processes, on the 20,000-record store):
  mark one paper read / add a note / show one paper   <= 150 ms
  list all, or filter by status + tag                 <= 300 ms
  import 5,000 new abstracts into a 15,000 store      <= 5 s

Every command runs as its own process, side by side with a bare interpreter (``python -c pass``),
and the script prints medians, the ratio to the bare interpreter and the budget. Commands are
the COMMANDS table below: each is an argv with ``{python}``, ``{store}``, ``{key}``, ``{n}``,
``{records}`` (JSON lines of records) and ``{list}`` (the same records as an abstract list)
filled in, so switching to the CLI is a matter of editing the table, e.g.
``"mark": ["readinglist", "--store", "{store}", "mark", "read", "{key}"]``.

Usage: python bench/store_bench.py [--papers 20000] [--new 5000] [--runs 7] [--import-runs 3] [--workdir DIR] [--cli]

``--cli`` also times ``readinglist --help``; ``--import-runs 0`` skips the import (the other
commands then run on the base store of papers - new records).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_PY = "from readinglist.store import Store; s = Store.open({store!r}); "
COMMANDS: dict[str, list[str]] = {
    "bare": ["{python}", "-c", "pass"],
    "show": ["{python}", "-c", _PY + "p = s.get({key!r}); print(p.key, p.status, p.record.title)"],
    "mark": ["{python}", "-c", _PY + "print(s.set_status({key!r}, 'read').status)"],
    "note": ["{python}", "-c", _PY + "print(len(s.set_note({key!r}, 'Read again, section {n}.', append=True).notes))"],
    "list": ["{python}", "-c", _PY + "print(len(s.find()))"],
    "filter": ["{python}", "-c", _PY + "print(len(s.find(status='unread', tags=['llm'])))"],
    "search": ["{python}", "-c", _PY + "print(len(s.search('sparse attention')))"],
    "import": [
        "{python}", "-c",
        "import json; from readinglist.record import Record, Source; from readinglist.store import Store; "
        "rs = [json.loads(l) for l in open({records!r}, encoding='utf-8')]; "
        "rs = [Record(**{{**r, 'tags': tuple(r['tags']), 'generated': frozenset(r['generated']), "
        "'sources': tuple(Source(*x) for x in r['sources'])}}) for r in rs]; "
        "print(Store.open({store!r}).import_records(rs).added[:1])",
    ],
}  # fmt: skip
_CLI = ["{python}", "-m", "readinglist", "--store", "{store}"]
#: The same jobs through the CLI (``--cli``); "import" then includes converting the list.
CLI_COMMANDS: dict[str, list[str]] = {
    "bare": ["{python}", "-c", "pass"],
    "help": ["{python}", "-m", "readinglist", "--help"],
    "show": [*_CLI, "show", "{key}"],
    "mark": [*_CLI, "mark", "read", "{key}"],
    "note": [*_CLI, "note", "{key}", "-m", "Read again, section {n}.", "--append"],
    "list": [*_CLI, "list"],
    "filter": [*_CLI, "list", "--status", "unread", "--tag", "llm"],
    "search": [*_CLI, "search", "sparse attention"],
    "import": [*_CLI, "import", "{list}", "--venue", "NeurIPS", "--year", "2026"],
}
BUDGETS_MS = {"help": 150, "show": 150, "mark": 150, "note": 150, "list": 300, "filter": 300, "import": 5000}
TAGS = ("llm", "computer-vision", "reinforcement-learning", "efficiency", "theory", "robotics", "graphs",
        "diffusion", "optimization", "fairness", "speech", "retrieval", "agents", "benchmark")  # fmt: skip


def vocabulary() -> tuple[list[str], list[int]]:
    """Words of the seed abstracts with their counts (stopwords included, as in real text)."""
    from collections import Counter

    counts: Counter[str] = Counter()
    for path in sorted((ROOT / "seeds").glob("*.txt")):
        counts.update(re.findall(r"[a-z]+", path.read_text(encoding="utf-8").lower()))
    words = sorted(counts)
    return words, [counts[w] for w in words]


def make_records(n: int, start: int, rng: random.Random, vocab: tuple[list[str], list[int]]):
    """Synthetic generated records: abstracts of 140-220 words drawn with the seeds' word
    frequencies, one in four a rare term (like the names, datasets and jargon of real ones)."""
    from readinglist.record import Record, Source

    words, weights = vocab
    syllables = [a + b for a in "bcdfghklmnprstvz" for b in "aeiou"]
    gen = frozenset({"key", "title", "shorttitle", "tags"})
    for i in range(start, start + n):
        length = rng.randint(140, 220)
        common = rng.choices(words, weights, k=length)
        text = [w if rng.random() > 0.25 else "".join(rng.choices(syllables, k=rng.randint(2, 4))) for w in common]
        w = rng.sample(words, 8)
        yield Record(
            key=f"{w[0]}{w[1]}{i}",
            title=f"{w[2].capitalize()}: {w[3]} {w[4]} for {w[5]} {w[6]}",
            abstract=" ".join(text).capitalize() + ".",
            venue="NeurIPS",
            year=2026,
            shorttitle=w[2].capitalize(),
            tags=tuple(rng.sample(TAGS, rng.randint(1, 3))),
            generated=gen,
            sources=(Source(f"seeds/bench_{i // 1000:03d}.txt", i % 1000 + 1, 3 + 2 * (i % 1000)),),
        )


def write_inputs(records, folder: Path) -> tuple[Path, Path]:
    jsonl = folder / "new.jsonl"
    with open(jsonl, "w", encoding="utf-8") as fh:
        for r in records:
            row = {"key": r.key, "title": r.title, "abstract": r.abstract, "venue": r.venue, "year": r.year,
                   "shorttitle": r.shorttitle, "tags": list(r.tags), "generated": sorted(r.generated),
                   "sources": [[s.file, s.paragraph, s.line] for s in r.sources]}  # fmt: skip
            fh.write(json.dumps(row) + "\n")
    listing = folder / "new.txt"
    listing.write_text("NeurIPS 2026 论文列表\n\n" + "\n\n".join(r.abstract for r in records) + "\n", encoding="utf-8")
    return jsonl, listing


def run(name: str, **values) -> float:
    argv = [a.format(python=sys.executable, **values) for a in COMMANDS[name]]
    t = time.perf_counter()
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    elapsed = (time.perf_counter() - t) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"{name} failed ({proc.returncode}): {' '.join(argv)[:200]}\n{proc.stderr[-2000:]}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=20000)
    ap.add_argument("--new", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--import-runs", type=int, default=3)
    ap.add_argument("--workdir", type=Path, default=None, help="keep the generated stores here")
    ap.add_argument("--cli", action="store_true", help="run the CLI_COMMANDS (readinglist ...) instead")
    args = ap.parse_args()
    if args.cli:
        COMMANDS.update(CLI_COMMANDS)

    from readinglist.store.library import Store

    # Measure what users run: byte-compiled modules (this environment may set
    # PYTHONDONTWRITEBYTECODE, which would make every process compile readinglist from source).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "readinglist")], check=True, capture_output=True)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="store_bench_"))
    work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2026)
    words = vocabulary()
    base_n = args.papers - args.new
    base = work / "base"
    if not (base / "papers").is_dir() or len(list((base / "papers").glob("*.toml"))) != base_n:
        shutil.rmtree(base, ignore_errors=True)
        t = time.perf_counter()
        Store.open(base, clock=lambda: "2026-11-30T06:15:00Z").import_records(make_records(base_n, 0, rng, words))
        print(f"generated a {base_n}-record store in {time.perf_counter() - t:.1f} s (in-process import)")
    new_records = list(make_records(args.new, 10**6, random.Random(7), words))
    jsonl, listing = write_inputs(new_records, work)

    results: dict[str, list[float]] = {}

    def measure(name: str, runs: int, **values) -> None:
        times = results.setdefault(name, [])
        for i in range(runs):
            times.append(run(name, n=i, **{k: (v(i) if callable(v) else v) for k, v in values.items()}))
        bare = results.setdefault("bare", [])
        bare.append(run("bare"))

    # import: a fresh copy of the base store each run (its cache warmed untimed first)
    full = work / "full"
    for _run in range(args.import_runs):
        shutil.rmtree(full, ignore_errors=True)
        shutil.copytree(base, full, symlinks=True)
        run("list", store=str(full))  # the copy has new inodes: rebuild its cache, untimed
        measure("import", 1, store=str(full), records=str(jsonl), list=str(listing))
    if not args.import_runs:  # no import measured: time the commands on a copy of the base store
        shutil.rmtree(full, ignore_errors=True)
        shutil.copytree(base, full, symlinks=True)
    store = str(full)
    keys = Store.open(full).keys()
    assert len(keys) == (args.papers if args.import_runs else base_n), len(keys)
    run("list", store=store)  # warm the cache after the import
    pick = random.Random(1)
    sample = pick.sample(keys, 3 * args.runs)
    for name, offset in (("show", 0), ("mark", args.runs), ("note", 2 * args.runs)):
        measure(name, args.runs, store=store, key=lambda i, o=offset: sample[o + i])
    for name in ("list", "filter", "search") + (("help",) if args.cli else ()):
        measure(name, args.runs, store=store)

    bare = statistics.median(results["bare"])
    via = "the CLI" if args.cli else "the library (python -c)"
    print(f"store: {len(keys)} papers ({work}); medians of {args.runs} runs ({args.import_runs} for import), through {via}")
    print(f"{'command':8} {'median ms':>10} {'x bare':>7} {'budget ms':>10}  verdict")
    print(f"{'bare':8} {bare:10.1f} {1.0:7.2f} {'':>10}")
    for name in ("help", "show", "mark", "note", "list", "filter", "search", "import"):
        if name not in results:  # help without --cli, import with --import-runs 0
            continue
        med = statistics.median(results[name])
        budget = BUDGETS_MS.get(name)
        verdict = "" if budget is None else ("ok" if med <= budget else "OVER")
        print(f"{name:8} {med:10.1f} {med / bare:7.2f} {budget if budget else '':>10}  {verdict}")
    if args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
