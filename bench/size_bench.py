"""Size budget (issue 29 item 7): inputs far larger than real ones, as whole CLI processes.

For each case it prints the wall time, the peak RSS of the readinglist process and what it
wrote to stderr (bytes, lines), and the exit status with the first line of an error:

* ``tiny``: an abstract list of N two-word paragraphs (1,000,000: 9 MB), each skipped;
* ``wrapped``: one hard-wrapped paragraph of M MB (no blank line: one block too long to be an
  abstract), after a real-looking abstract;
* ``repeated``: M MB of the same 20 synthetic abstracts over and over (duplicates);
* ``list``: a curated list of E entries (a third of them misspelt keys) in a store of P
  generated papers: ``lists show`` and ``export --list -f markdown``;
* ``bib``: a .bib whose abstract is one word of 5 MB.

``--source DIR`` runs another checkout's package instead (e.g. ``git archive BASE | tar -x -C
/tmp/base``, then ``--source /tmp/base``), so that before and after are printed side by side by
running the script twice. ``--scale`` multiplies every size (10, 100: the closing note's figures).

Run: python bench/size_bench.py [--scale 1] [--only tiny,list] [--source DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Runs ARGV, then prints the peak RSS (KB) of what it ran on stdout's last line.
_PEAK = "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(r.returncode)"
#: Runs the readinglist package of the checkout ARGV[1] (an editable install's finder put aside).
_LAUNCH = (
    "import runpy, sys; sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in getattr(f, '__module__', '')]; "
    "sys.path.insert(0, sys.argv.pop(1)); runpy.run_module('readinglist', run_name='__main__', alter_sys=True)"
)
WORDS = "large language models vision transformers robust parsing memory efficient training sparse attention graph neural".split()


def abstract(i: int) -> str:
    """A synthetic abstract (two sentences, about 300 characters), different for each ``i``."""
    words = [WORDS[(i * 7 + j * 3) % len(WORDS)] for j in range(30)]
    return f"We propose method {i} for " + " ".join(words[:15]) + ". It improves " + " ".join(words[15:]) + f" by {i % 97} points."


def run(args: list[str], cwd: Path, source: str | None) -> tuple[float, int, int, int, str]:
    """(seconds, peak RSS in MB, stderr bytes, stderr lines, exit status and first error line)."""
    env = {k: v for k, v in os.environ.items() if k not in ("READINGLIST_STORE", "READINGLIST_CONFIG")}
    launch = [sys.executable, "-c", _LAUNCH, source] if source else [sys.executable, "-m", "readinglist"]
    cmd = [sys.executable, "-c", _PEAK, *launch, *args]
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        out = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=err, env=env, text=True)
        seconds = time.perf_counter() - start
        err.seek(0)
        data = err.read()
    *_, peak = out.stdout.splitlines() or ["0"]
    errors = [line for line in data.decode("utf-8", "replace").splitlines() if "error" in line or "Error" in line]
    status = f"exit {out.returncode}" + (f": {errors[-1][:110]}" if errors else "")
    return seconds, int(peak) // 1024, len(data), data.count(b"\n"), status


def _store_with_list(folder: Path, papers: int, entries: int) -> None:
    from readinglist.config import default_config
    from readinglist.record import Record
    from readinglist.store.library import Store

    store = Store.open(folder / "st", config=default_config(), create=True)
    records = [
        Record(key=f"paper{i}", title=f"Generated title {i}", abstract=abstract(i), venue="NeurIPS", year=2026, tags=("llm",),
               generated=frozenset({"key", "title", "tags"}))
        for i in range(papers)
    ]  # fmt: skip
    with store.importing() as importing:
        importing.add(records, {})
    lines = ['title = "Everything"', "", "[[sections]]", 'title = "All"', "papers = ["]
    for i in range(entries):
        lines.append(f'  "papr{i}x",' if i % 3 == 2 else f'  {{ key = "paper{i % papers}", comment = "on {i}" }},')
    (folder / "st" / "lists").mkdir(exist_ok=True)
    (folder / "st" / "lists" / "big.toml").write_text("\n".join(lines) + "\n]\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--only", default="tiny,wrapped,repeated,list,bib")
    ap.add_argument("--source", default=None, help="a checkout whose readinglist package to run")
    opts = ap.parse_args()
    only = set(opts.only.split(","))
    s = opts.scale
    print(f"{'case':44} {'time':>8} {'peak RSS':>9} {'stderr':>11} {'lines':>8}  status")

    def show(name: str, figures) -> None:
        seconds, peak, size, lines, status = figures
        print(f"{name:44} {seconds:7.2f}s {peak:6d} MB {size / 1e6:9.2f} MB {lines:8d}  {status}", flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        header = "NeurIPS 2026\n\n" + abstract(0) + "\n\n"
        if "tiny" in only:
            n = int(1_000_000 * s)
            (work / "tiny.txt").write_text(header + "abc def\n\n" * n, encoding="utf-8")
            show(f"tiny: {n:,} two-word paragraphs", run(["--store", "st-tiny", "import", "tiny.txt"], work, opts.source))
        if "wrapped" in only:
            mb = int(20 * s)
            line = "We propose a method that reads lists of any size in bounded memory and time.\n"
            (work / "wrapped.txt").write_text(header + line * (mb * 1_000_000 // len(line)), encoding="utf-8")
            show(f"wrapped: one {mb} MB paragraph", run(["--store", "st-wrapped", "import", "wrapped.txt"], work, opts.source))
        if "repeated" in only:
            mb = int(20 * s)
            block = "".join(abstract(i) + "\n\n" for i in range(20))
            (work / "repeated.txt").write_text("NeurIPS 2026\n\n" + block * (mb * 1_000_000 // len(block)), encoding="utf-8")
            show(f"repeated: {mb} MB of 20 abstracts repeated", run(["--store", "st-repeated", "import", "repeated.txt"], work, opts.source))
        if "list" in only:
            papers, entries = int(2_000 * s), int(20_000 * s)
            _store_with_list(work, papers, entries)
            show(f"list: show {entries:,} entries, {papers:,} papers", run(["--store", "st", "lists", "show", "big"], work, opts.source))
            show("list: export --list -f markdown", run(["--store", "st", "export", "--list", "big", "-f", "markdown"], work, opts.source))
            shutil.rmtree(work / "st")
        if "bib" in only:
            (work / "big.bib").write_text("@article{k, title = {T}, year = 2020,\n  abstract = {" + "a" * (5 << 20) + "}}\n", encoding="utf-8")
            show("bib: a 5 MB one-word abstract", run(["--store", "st-bib", "import", "big.bib"], work, opts.source))


if __name__ == "__main__":
    main()
