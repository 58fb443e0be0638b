"""The speed budgets of issue 15, through the CLI, as ratios to the venv's bare interpreter.

Every operation runs as its own ``readinglist`` process, in interleaved rounds (each round runs
every operation once, each followed by a bare ``python -c pass``), and the table shows medians,
the ratio to the bare interpreter measured in the same run, the budget and the peak memory
(max RSS of the process and the workers it waited for). On a machine shared with other work,
quote the ratios: they move far less than the seconds.

Operations (N = --papers, default 50,000; C = --clone, default 20,000):

  import-fresh    import 5,000 new abstracts (5 lists of 1,000) into an empty store
  import-into     the same 5,000 into a store of N papers
  show/mark/note/tag/rate/priority   one paper of the N-paper store
  list            every paper (piped), list --tag T (a large result), list with a small result
  list-json       every paper as JSON lines (list --json, piped; the cache keeps each paper's
                  line once printed: the first round makes them, the median shows kept ones)
  next            next (the 10 papers to read next), stats (piped: the plain report)
  search          search "sparse attention"
  first-list      `list` on a C-paper store whose .cache/ was just deleted (a fresh git clone)
  export-*        BibTeX, CSL-JSON, Markdown of all N papers to a file
  (--sizes 5000,20000,50000: list, list-json, list-tag, list-small, next, stats, search and export-* on a store of each
  size, labelled "list@5k"...; budgets apply at 50,000 papers)
  import-big      (--big) 50,000 new abstracts (10 lists of 5,000) into an empty store
  import-bib      the 5,000 papers of import-fresh as one .bib (exported once) into an empty store
  import-bib-into that .bib into a store of N papers (with import-into: the cost per paper as the
                  store grows, run at --papers 5000, 20000, 50000)
  help, cmd-help  `readinglist --help` and `readinglist show --help` (start-up; no budget)

Stores are generated once into --workdir (default: a folder in the system's temp dir that is
reused by later runs) with the library's import, then copied per round with hard links (no new
inodes: creating tens of thousands of files right after deleting as many is slow on some file
systems, which would measure the file system rather than readinglist). Copies are removed at the
end. Usage::

    python bench/cli_bench.py [--papers 50000] [--clone 20000] [--rounds 5] [--only show,mark]
                              [--big] [--workdir DIR] [--keep] [--variant NAME=SRC ...]
                              [--sizes 5000,20000,50000]

``--variant before=/tmp/old`` (repeatable) also runs every operation with the ``readinglist``
package found in /tmp/old (put first on PYTHONPATH; e.g. ``git archive main readinglist | tar
-x -C /tmp/old``), interleaved with the installed one, for before/after tables from one run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

#: op -> budget in seconds (issue 15); None: measured, no budget.
BUDGETS: dict[str, float | None] = {
    "import-fresh": 2.0,
    "import-into": 3.0,
    "show": 0.06,
    "mark": 0.06,
    "note": 0.06,
    "tag": 0.06,
    "rate": 0.06,
    "priority": 0.06,
    "list": 0.3,
    "list-tag": 0.3,
    "list-small": 0.1,
    "list-json": None,
    "next": None,
    "stats": None,
    "search": 0.3,
    "first-list": 1.5,
    "export-bibtex": 3.0,
    "export-csljson": 3.0,
    "export-markdown": 3.0,
    "import-big": 20.0,
    "import-bib": 1.5,
    "import-bib-into": None,
    "help": None,
    "cmd-help": None,
}
MEMORY_BUDGETS_MB = {"import-big": 200}
SINGLE = ("show", "mark", "note", "tag", "rate", "priority")
#: Operations that read the whole store (run at each of --sizes).
READS = ("list", "list-json", "list-tag", "list-small", "next", "stats", "search", "export-bibtex", "export-csljson", "export-markdown")


#: Brings a store's duplicate index up to date (an import of nothing), untimed.
WARM_INDEX = "import sys; from readinglist.store import Store; Store.open(sys.argv[1]).import_records([])"


def readinglist_cmd() -> list[str]:
    """The console script beside this interpreter (what users run), else ``python -m``."""
    script = Path(sys.executable).with_name("readinglist")
    return [str(script)] if script.exists() else [sys.executable, "-m", "readinglist"]


def run(argv: list[str], *, cwd: Path | None = None, env: dict | None = None, stdout=subprocess.DEVNULL) -> tuple[float, float, float, float]:
    """(wall seconds, peak RSS in MB, CPU seconds (user + system) of the process and its
    waited-for children, and the system part of them)."""
    t = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE)
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(argv)[:300]}\n{err.decode(errors='replace')[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, usage.ru_stime


def make_store(path: Path, n: int) -> None:
    """An ``n``-paper store made with the library (synthetic records, see store_bench)."""
    if (path / "papers").is_dir() and sum(1 for _ in os.scandir(path / "papers")) == n:
        # a store made before the duplicate index was kept: index it, in a child process (this
        # one must stay small: the peak memory of every command it starts counts from its size)
        subprocess.run([sys.executable, "-c", WARM_INDEX, str(path)], check=True)
        return
    shutil.rmtree(path, ignore_errors=True)
    t = time.perf_counter()
    in_child(_generate_store, path, n)
    print(f"generated a {n:,}-paper store in {time.perf_counter() - t:.1f} s: {path}", flush=True)


def _generate_store(path: Path, n: int) -> None:
    import store_bench

    from readinglist import Store

    records = store_bench.make_records(n, 0, random.Random(2026), store_bench.vocabulary())
    Store.open(path, clock=lambda: "2026-11-30T06:15:00Z").import_records(records)


def make_lists(folder: Path, count: int, size: int, tag: str) -> list[Path]:
    """``count`` abstract lists of ``size`` distinct abstracts each (see convert_bench)."""
    import convert_bench

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"{tag}-{i}.txt"
        if not path.exists():
            text = convert_bench.make_list(size, random.Random(f"{tag}{i}")).replace("variant", f"{tag}v{i}x")
            path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def in_child(fn, *args) -> None:
    """Run ``fn(*args)`` in a forked child: this process must stay small, because the peak
    memory of every command it starts is counted from its size (max RSS survives exec)."""
    import multiprocessing

    child = multiprocessing.get_context("fork").Process(target=fn, args=args)
    child.start()
    child.join()
    if child.exitcode != 0:
        raise SystemExit(f"{fn.__name__} failed ({child.exitcode})")


def make_bib(work: Path, lists: list[Path]) -> Path:
    """The papers of ``lists`` as one BibTeX file (imported into a scratch store, exported)."""
    bib = work / "l5k.bib"
    if not bib.exists():
        in_child(_write_bib, bib, lists)
    return bib


def _write_bib(bib: Path, lists: list[Path]) -> None:
    work = bib.parent
    from readinglist.config import default_config
    from readinglist.jobs import export_papers, import_files
    from readinglist.store import Store

    scratch = work / "bib-source"
    shutil.rmtree(scratch, ignore_errors=True)
    config = default_config()
    store = Store.open(scratch, config=config)
    import_files(store, lists, config=config, processes=os.cpu_count() or 1)
    bib.write_text(export_papers(list(store), config=config, format="bibtex"), encoding="utf-8")
    shutil.rmtree(scratch, ignore_errors=True)


def link_copy(src: Path, dst: Path) -> None:
    """A copy of a store whose paper files are hard links (the store replaces files, never
    writes into them, so the copies stay independent); its cache is copied."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, copy_function=os.link, ignore=shutil.ignore_patterns(".cache", ".lock"))
    if (src / ".cache").is_dir():
        shutil.copytree(src / ".cache", dst / ".cache")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=50_000)
    ap.add_argument("--clone", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated operations (default: all but import-big)")
    ap.add_argument("--big", action="store_true", help="also import 50,000 abstracts into an empty store")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "readinglist-cli-bench")
    ap.add_argument("--keep", action="store_true", help="keep this run's store copies")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=SRC",
                    help="also run with the readinglist package in SRC (interleaved)")
    ap.add_argument("--sizes", default="", help="comma-separated store sizes for the reading operations (e.g. 5000,20000,50000)")
    args = ap.parse_args()
    sizes = [int(n) for n in args.sizes.split(",") if n]
    variants: dict[str, dict | None] = {"": None}
    for spec in args.variant:
        name, _, src = spec.partition("=")
        if not (Path(src) / "readinglist" / "__init__.py").is_file():
            ap.error(f"--variant {spec}: no readinglist package in {src}")
        variants[name] = {**os.environ, "PYTHONPATH": os.path.abspath(src)}

    ops = [op for op in BUDGETS if op != "import-big" or args.big]
    if args.only:
        wanted = args.only.split(",")
        unknown = set(wanted) - set(BUDGETS)
        if unknown:
            ap.error(f"unknown operations {sorted(unknown)}; known: {', '.join(BUDGETS)}")
        ops = [op for op in BUDGETS if op in wanted]

    if sizes:  # the reading operations once per size ("list@5k"), the others on --papers
        ops = [f"{op}@{n // 1000}k" for op in ops if op in READS for n in sizes] + [op for op in ops if op not in READS]

    def base(op: str) -> str:
        return op.split("@")[0]

    # Measure what users run: byte-compiled modules.
    for src in [str(ROOT)] + [env["PYTHONPATH"] for env in variants.values() if env]:
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(src, "readinglist")], check=True, capture_output=True)
    work = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    big_store = work / f"store-{args.papers}"
    clone_store = work / f"store-{args.clone}"
    needs_big = any(base(op) not in ("import-fresh", "import-big", "import-bib", "first-list", "help", "cmd-help") and "@" not in op for op in ops)
    if needs_big:
        make_store(big_store, args.papers)
    if "first-list" in ops:
        make_store(clone_store, args.clone)
    lists = make_lists(work / "lists", 5, 1000, "l5k")
    big_lists = make_lists(work / "lists", 10, 5000, "l50k") if "import-big" in ops else []
    bib = make_bib(work, lists) if {"import-bib", "import-bib-into"} & set(ops) else None
    run_dir = Path(tempfile.mkdtemp(prefix="run-", dir=work))
    rl = readinglist_cmd()
    bare = [sys.executable, "-c", "pass"]

    # A hard-linked copy of the big store per variant for the single-paper commands, listing and
    # export (variants whose caches differ would otherwise rebuild each other's cache every run).
    main_copies = {v: run_dir / f"main{v}" for v in variants}

    def warm_main_copies() -> None:
        for v, copy in main_copies.items():  # new links change the files' ctimes: warm, untimed
            run([*rl, "--store", str(copy), "list"], env=variants[v])

    keys: list[str] = []
    if needs_big:
        for copy in main_copies.values():
            link_copy(big_store, copy)
        warm_main_copies()
        keys = sorted(p.name[: -len(".toml")] for p in os.scandir(main_copies[""] / "papers") if p.name.endswith(".toml"))
    sized: dict[tuple[str, str], Path] = {}
    for n in sizes:  # a copy per size and variant (each variant its own cache), warmed by it
        make_store(work / f"store-{n}", n)
        for v in variants:
            sized[f"{n // 1000}k", v] = run_dir / f"main-{n}{v}"
            link_copy(work / f"store-{n}", sized[f"{n // 1000}k", v])
    for (_, v), copy in sized.items():
        run([*rl, "--store", str(copy), "list"], env=variants[v])
    pick = random.Random(1)
    sample = pick.sample(keys, len(SINGLE) * args.rounds) if keys else []

    def argv_for(op: str, r: int, v: str) -> tuple[list[str], Path | None]:
        """(argv, store to prepare) for round ``r`` of variant ``v``."""
        op, _, size = op.partition("@")
        store = ["--store", str(sized[size, v] if size else main_copies[v])]
        r_ = r
        r = f"{r}{v}"  # type: ignore[assignment]  (store folders per variant)
        key = sample[SINGLE.index(op) * args.rounds + r_] if op in SINGLE else ""
        if op == "import-fresh":
            target = run_dir / f"fresh-{r}"
            return [*rl, "--store", str(target), "import", *map(str, lists)], None
        if op == "import-into":
            target = run_dir / f"into-{r}"
            return [*rl, "--store", str(target), "import", *map(str, lists)], target
        if op == "import-big":
            target = run_dir / f"big-{r}"
            return [*rl, "--store", str(target), "import", *map(str, big_lists)], None
        if op == "import-bib":
            target = run_dir / f"bib-{r}"
            return [*rl, "--store", str(target), "import", str(bib)], None
        if op == "import-bib-into":
            target = run_dir / f"bib-into-{r}"
            return [*rl, "--store", str(target), "import", str(bib)], target
        if op == "first-list":
            target = run_dir / f"clone-{r}"
            return [*rl, "--store", str(target), "list"], target
        table = {
            "show": ["show", key],
            "mark": ["mark", "read", key],
            "note": ["note", key, "-m", f"Read again, round {r}.", "--append"],
            "tag": ["tag", key, f"round-{r}"],
            "rate": ["rate", key, str(r_ % 5 + 1)],
            "priority": ["priority", key, str(r_ % 3 + 1)],
            "list": ["list"],
            "list-tag": ["list", "--tag", "llm"],
            "list-small": ["list", "--tag", "llm", "--tag", "robotics", "--tag", "speech"],
            "list-json": ["list", "--json"],
            "next": ["next"],
            "stats": ["stats"],
            "search": ["search", "sparse attention"],
            "export-bibtex": ["export", "-o", str(run_dir / "out.bib")],
            "export-csljson": ["export", "-o", str(run_dir / "out.json")],
            "export-markdown": ["export", "-o", str(run_dir / "out.md")],
            "help": ["--help"],
            "cmd-help": ["show", "--help"],
        }
        return [*rl, *store, *table[op]], None

    def prepare(op: str, target: Path, env: dict | None) -> None:
        if op in ("import-into", "import-bib-into"):
            link_copy(big_store, target)
            run([*rl, "--store", str(target), "list"], env=env)  # warm the copy's cache, untimed
            # ...and its duplicate index (it knows the files by signature, which new links change)
            run([sys.executable, "-c", WARM_INDEX, str(target)], env=env)
            if keys:  # new links changed the ctime of the files the main copies share: re-warm them
                warm_main_copies()
        elif op == "first-list":
            link_copy(clone_store, target)
            shutil.rmtree(target / ".cache", ignore_errors=True)
            for (size, v), copy in sized.items():  # they share the clone's files, whose ctimes changed
                if size == f"{args.clone // 1000}k":
                    run([*rl, "--store", str(copy), "list"], env=variants[v])

    times: dict[str, list[float]] = {"bare": []}
    memory: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {"bare": []}
    system: dict[str, list[float]] = {}
    load = []
    for r in range(args.rounds):
        for op in ops:
            for v, env in variants.items():
                argv, target = argv_for(op, r, v)
                if target is not None:
                    prepare(op, target, env)
                seconds, mb, cpu_s, sys_s = run(argv, cwd=run_dir, env=env)
                cpu.setdefault(op + v, []).append(cpu_s)
                system.setdefault(op + v, []).append(sys_s)
                times.setdefault(op + v, []).append(seconds)
                memory.setdefault(op + v, []).append(mb)
                bare_wall, _, bare_cpu, _ = run(bare, cwd=run_dir)
                times["bare"].append(bare_wall)
                cpu["bare"].append(bare_cpu)
        load.append(os.getloadavg()[0])
        print(f"round {r + 1}/{args.rounds} done (load average {load[-1]:.1f})", file=sys.stderr, flush=True)

    bare_s = statistics.median(times["bare"])
    bare_cpu = statistics.median(cpu["bare"])
    print(f"readinglist CLI, store of {args.papers:,} papers (first-list: {args.clone:,}); medians of {args.rounds} "
          f"interleaved rounds; load average {min(load):.1f}-{max(load):.1f} on {os.cpu_count()} cores")
    print("(CPU s: user + system time of the process and its workers; on a busy machine it moves less than the wall time;")
    print(" sys s: the system part, which creating many files can dominate on a file system that is slow at it)")
    print(f"{'operation':30} {'median s':>9} {'x bare':>8} {'CPU s':>7} {'x bare':>7} {'sys s':>6} {'budget s':>9} {'budget x':>9} {'peak MB':>8}  verdict")
    print(f"{'bare python':30} {bare_s:9.3f} {1.0:8.1f} {bare_cpu:7.3f} {1.0:7.1f}")
    failed = 0
    for op, v in [(op, v) for op in ops for v in variants]:
        med = statistics.median(times[op + v])
        med_cpu = statistics.median(cpu[op + v])
        budget = BUDGETS[base(op)] if "@" not in op or op.endswith(f"@{args.papers // 1000}k") else None
        mb = max(memory[op + v])
        label = f"{op} ({v})" if v else op
        row = f"{label:30} {med:9.3f} {med / bare_s:8.1f} {med_cpu:7.3f} {med_cpu / bare_cpu:7.1f} {statistics.median(system[op + v]):6.2f}"
        if budget is None:
            print(f"{row} {'-':>9} {'-':>9} {mb:8.0f}  -")
            continue
        ok = med / bare_s <= budget / 0.0175 and mb <= MEMORY_BUDGETS_MB.get(op, float("inf"))
        failed += not ok and not v
        # the budget as a ratio: the seconds over its bare python (0.015-0.020 s; 0.0175)
        print(f"{row} {budget:9.2f} {budget / 0.0175:9.1f} {mb:8.0f}  {'ok' if ok else 'OVER'}")
    # issue 30: the commands that read every paper, as ratios to `list` on the same store (same variant)
    relative = [(op, v) for op in ops for v in variants if base(op) in ("list-json", "next", "stats")]
    if relative:
        print("ratio to `list` on the same store (medians; goal of issue 30: within 1.5x):")
        for op, v in relative:
            size = op.partition("@")[2]
            lst = "list" + (f"@{size}" if size else "")
            if lst + v in times:
                label = f"{op} ({v})" if v else op
                print(f"  {label:28} {statistics.median(times[op + v]) / statistics.median(times[lst + v]):5.2f}x list "
                      f"(CPU {statistics.median(cpu[op + v]) / statistics.median(cpu[lst + v]):5.2f}x)")
    if not args.keep:
        shutil.rmtree(run_dir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
