"""Peak memory of import and export as the store grows (issue 30: flat, <= 200 MB at 50,000).

For each N of --sizes: the N-paper store bench/cli_bench.py makes (synthetic records), exported
to BibTeX, CSL-JSON and Markdown; that .bib imported into an empty store; and --lists abstract
lists of 1,000 imported into an empty store (once: they are generated, which takes long). Each
is its own ``readinglist`` process; the figure is its peak RSS with the workers it waited for
(wait4's ru_maxrss), and MB per 1,000 papers. Usage::

    python bench/memory_bench.py [--sizes 5000,20000] [--lists 5] [--no-bib-import] [--no-export] [--workdir DIR] [--variant NAME=SRC ...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from cli_bench import make_lists, make_store, readinglist_cmd, run  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5000,20000")
    ap.add_argument("--lists", type=int, default=0, help="also import this many abstract lists of 1,000")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "readinglist-cli-bench")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=SRC")
    ap.add_argument("--no-bib-import", action="store_true", help="exports only (a 50k .bib import takes minutes)")
    ap.add_argument("--no-export", action="store_true", help="imports only")
    args = ap.parse_args()
    variants: dict[str, dict] = {"": dict(os.environ)}
    for spec in args.variant:
        name, _, src = spec.partition("=")
        variants[f" ({name})"] = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    for env in variants.values():
        src = env.get("PYTHONPATH", str(ROOT))
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(src, "readinglist")], check=True, capture_output=True)
    rl = readinglist_cmd()
    work = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    run_dir = Path(tempfile.mkdtemp(prefix="mem-", dir=work))
    rows: list[tuple[str, int, float, float]] = []
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            source = work / f"store-{n}"
            make_store(source, n)
            bib = work / f"store-{n}.bib"
            if not bib.exists():
                run([*rl, "--store", str(source), "export", "-o", str(bib)])
            for v, env in variants.items():
                for suffix in ("bib", "json", "md") if not args.no_export else ():
                    seconds, mb, _, _ = run([*rl, "--store", str(source), "export", "-o", str(run_dir / f"out.{suffix}")], env=env)
                    rows.append((f"export {suffix}{v}", n, mb, seconds))
                if args.no_bib_import:
                    continue
                target = run_dir / f"bib-{n}{v.strip()}"
                seconds, mb, _, _ = run([*rl, "--store", str(target), "import", str(bib)], env=env)
                rows.append((f"import .bib{v}", n, mb, seconds))
                shutil.rmtree(target)
        if args.lists:
            lists = make_lists(work / "lists", args.lists, 1000, "l5k")
            for v, env in variants.items():
                target = run_dir / f"lists{v.strip()}"
                seconds, mb, _, _ = run([*rl, "--store", str(target), "import", *map(str, lists)], env=env)
                rows.append((f"import lists{v}", args.lists * 1000, mb, seconds))
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
    print(f"{'operation':28} {'papers':>7} {'peak MB':>8} {'MB/1k':>6} {'seconds':>8}")
    for op, n, mb, seconds in sorted(rows, key=lambda r: (r[0], r[1])):
        print(f"{op:28} {n:7,} {mb:8.0f} {mb / n * 1000:6.1f} {seconds:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
