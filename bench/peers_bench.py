"""readinglist side by side with pubs and papis on the same 5,000 papers (issue 15's table).

Each tool runs as its own process on its own library, in interleaved rounds (every operation of
every tool once per round, each followed by a bare ``python -c pass``); the table shows medians,
the ratio pubs/readinglist, and every figure as a ratio to the bare interpreter measured in the
same run (quote those on a shared machine).

pubs and papis are not dependencies: ``--install`` puts pubs 0.9 and papis 0.16 into throwaway
venvs under --workdir (pubs 0.9 needs bibtexparser 1.x and pyparsing, which it does not
declare). Without them the table has readinglist's column only, so the readinglist figures
never need the peers. The peers get a HOME of their own under --workdir (their configuration
and caches never touch yours), and EDITOR=true.

The papers: 5 abstract lists of 1,000 (as bench/cli_bench.py makes them), imported once into a
readinglist store and exported to ``papers.bib``, which pubs and papis import. papis imports a
.bib one document at a time with a scan of the library each time (quadratic), so its import is
timed on the first --papis-import papers (500) and its library of 5,000 is written directly as
papis folders (``info.yaml`` each) for the other operations.

Usage::

    python bench/peers_bench.py [--install] [--rounds 5] [--papers 5000] [--papis-import 500]
                                [--tools readinglist,pubs,papis] [--workdir DIR]
                                [--only export,export-csljson] [--variant before=/tmp/old]

``--variant NAME=SRC`` (repeatable) adds a readinglist column run with the package in SRC
first on PYTHONPATH (``git archive main readinglist | tar -x -C /tmp/old``), interleaved with
the others: before/after and the peers from one run. pubs has BibTeX export only and papis no
CSL-JSON nor Markdown: on those rows they run their BibTeX export.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from cli_bench import make_lists, readinglist_cmd, run  # noqa: E402

PEERS = {"pubs": ["pubs==0.9.0", "bibtexparser<2", "pyparsing"], "papis": ["papis==0.16.1"]}
#: operation -> (readinglist budget in seconds or None for "keep", what it is)
OPERATIONS = {
    "import-lists": (2.0, "import 5k abstracts (5 lists, fresh store)"),
    "import-bib": (1.5, "import the same 5k as a .bib (fresh store)"),
    "list": (None, "list 5k"),
    "filter-tag": (0.10, "filter by tag 5k"),
    "mark": (0.06, "mark one paper"),
    "tag": (0.06, "tag one paper"),
    "note": (0.06, "note on one paper"),
    "export": (0.4, "export BibTeX 5k"),
    "export-csljson": (0.4, "export CSL-JSON 5k (pubs, papis: their BibTeX)"),
    "export-markdown": (0.4, "export Markdown 5k (pubs, papis: their BibTeX)"),
}


def venv_bin(work: Path, tool: str) -> Path:
    return work / f"venv-{tool}" / "bin"


def install(work: Path, tool: str) -> None:
    venv = work / f"venv-{tool}"
    if not (venv_bin(work, tool) / tool).exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *PEERS[tool]], check=True)
    print(f"{tool}: {venv_bin(work, tool) / tool}", file=sys.stderr)


def write_papis_library(folder: Path, bib: Path) -> None:
    """A papis library of the .bib's entries, written directly (one folder, one info.yaml each)."""
    import bibtexparser

    if folder.is_dir() and (folder / ".complete").exists():
        return
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    library = bibtexparser.parse_string(bib.read_text(encoding="utf-8"))
    for entry in library.entries:
        fields = {f.key: f.value for f in entry.fields}
        doc = folder / entry.key
        doc.mkdir()
        tags = [t.strip() for t in fields.get("keywords", "").split(",") if t.strip()]
        lines = [f"ref: {_yaml(entry.key)}", f"type: {entry.entry_type}", f"title: {_yaml(fields.get('title', ''))}",
                 f"author: {_yaml(fields.get('author', ''))}", f"year: {fields.get('year', '2026')}",
                 f"booktitle: {_yaml(fields.get('booktitle', ''))}", f"abstract: {_yaml(fields.get('abstract', ''))}",
                 "tags:", *[f"- {_yaml(t)}" for t in tags], "files: []"]  # fmt: skip
        (doc / "info.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / ".complete").write_text("", encoding="utf-8")


def _yaml(text: str) -> str:
    return "'" + re.sub(r"\s+", " ", str(text)).replace("'", "''") + "'"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--install", action="store_true", help="install pubs and papis into throwaway venvs")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--papers", type=int, default=5000, help="a multiple of 1,000")
    ap.add_argument("--papis-import", type=int, default=500)
    ap.add_argument("--tools", default="readinglist,pubs,papis")
    ap.add_argument("--only", default="", help="comma-separated operations (default: all)")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=SRC",
                    help="also run readinglist with the package in SRC (e.g. before=/tmp/old), interleaved")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "readinglist-peers-bench")
    args = ap.parse_args()
    work = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    ops = [op for op in OPERATIONS if not args.only or op in args.only.split(",")]
    #: readinglist and its variants: column name -> the environment it runs in
    ours: dict[str, dict] = {"readinglist": {}}
    for spec in args.variant:
        name, _, src = spec.partition("=")
        if not (Path(src) / "readinglist" / "__init__.py").is_file():
            ap.error(f"--variant {spec}: no readinglist package in {src}")
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(src, "readinglist")], check=True, capture_output=True)
        ours[f"readinglist ({name})"] = {"PYTHONPATH": os.path.abspath(src)}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "readinglist")], check=True, capture_output=True)
    tools = list(ours)
    for tool in ("pubs", "papis"):
        if tool not in args.tools.split(","):
            continue
        if args.install:
            install(work, tool)
        if (venv_bin(work, tool) / tool).exists():
            tools.append(tool)
        else:
            print(f"{tool}: not installed under {work} (run with --install); left out", file=sys.stderr)

    rl = readinglist_cmd()
    lists = make_lists(work / "lists", args.papers // 1000, 1000, "l5k")
    source = work / "readinglist-source"
    bib = work / "papers.bib"
    if not bib.exists():
        shutil.rmtree(source, ignore_errors=True)
        run([*rl, "--store", str(source), "import", *map(str, lists)])
        run([*rl, "--store", str(source), "export", "-o", str(bib)])
    text = bib.read_text(encoding="utf-8")
    entries = re.split(r"\n(?=%|@)", text)
    keys = re.findall(r"^@\w+\{([^,]+),", text, re.M)
    head = work / "papers-head.bib"
    if not head.exists():
        first = [e for e in entries if e.startswith("@")][: args.papis_import]
        head.write_text("\n\n".join(first) + "\n", encoding="utf-8")

    home = work / "home"
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home), "EDITOR": "true", "VISUAL": "true", "XDG_CONFIG_HOME": str(home / ".config")}
    run_dir = Path(tempfile.mkdtemp(prefix="run-", dir=work))

    # Libraries of all the papers for the operations other than import (untimed).
    rl_stores = {tool: run_dir / f"readinglist-{i}" for i, tool in enumerate(ours)}  # each its own cache
    for tool, rl_store in rl_stores.items():
        run([*rl, "--store", str(rl_store), "import", "-f", "bibtex", str(bib)], env={**env, **ours[tool]})
        run([*rl, "--store", str(rl_store), "list"], env={**env, **ours[tool]})
    pubs_conf = work / "pubs.conf"
    if "pubs" in tools:
        pubs = str(venv_bin(work, "pubs") / "pubs")
        pubs_dir = work / "pubs-library"
        if not (pubs_dir / ".complete").exists():
            shutil.rmtree(pubs_dir, ignore_errors=True)
            pubs_conf.unlink(missing_ok=True)
            subprocess.run([pubs, "-c", str(pubs_conf), "init", "-p", str(pubs_dir)], env=env, check=True, capture_output=True)
            print(f"pubs: importing {len(keys)} papers once (untimed)", file=sys.stderr)
            subprocess.run([pubs, "-c", str(pubs_conf), "import", str(bib)], env=env, check=True, capture_output=True)
            (pubs_dir / ".complete").write_text("", encoding="utf-8")
    if "papis" in tools:
        papis = str(venv_bin(work, "papis") / "papis")
        papis_dir = work / "papis-library"
        write_papis_library(papis_dir, bib)
        papis_conf = work / "papis.conf"
        papis_conf.write_text(f"[settings]\ndefault-library = bench\n\n[bench]\ndir = {papis_dir}\n", encoding="utf-8")
        subprocess.run([papis, "-c", str(papis_conf), "-l", str(papis_dir), "list", "--all"], env=env, capture_output=True)

    pick = random.Random(15)

    def argv(tool: str, op: str, r: int) -> list[str] | None:
        key = pick.choice(keys)
        if tool in ours:
            store = ["--store", str(rl_stores[tool])]
            fresh = ["--store", str(run_dir / f"rl-{op}-{r}-{tools.index(tool)}")]
            out = run_dir / f"rl-{r}-{tools.index(tool)}"
            return {
                "import-lists": [*rl, *fresh, "import", *map(str, lists)],
                "import-bib": [*rl, *fresh, "import", "-f", "bibtex", str(bib)],
                "list": [*rl, *store, "list"],
                "filter-tag": [*rl, *store, "list", "--tag", "llm"],
                "mark": [*rl, *store, "mark", "read", key],
                "tag": [*rl, *store, "tag", key, f"round-{r}"],
                "note": [*rl, *store, "note", key, "-m", f"round {r}", "--append"],
                "export": [*rl, *store, "export", "-f", "bibtex", "-o", f"{out}.bib"],
                "export-csljson": [*rl, *store, "export", "-f", "csljson", "-o", f"{out}.json"],
                "export-markdown": [*rl, *store, "export", "-f", "markdown", "-o", f"{out}.md"],
            }[op]
        if tool == "pubs":
            conf = ["-c", str(pubs_conf)]
            if op == "import-bib":
                fresh_conf, fresh_dir = run_dir / f"pubs-{r}.conf", run_dir / f"pubs-{r}"
                subprocess.run([pubs, "-c", str(fresh_conf), "init", "-p", str(fresh_dir)], env=env, check=True, capture_output=True)
                return [pubs, "-c", str(fresh_conf), "import", str(bib)]
            return {
                "list": [pubs, *conf, "list"],
                "filter-tag": [pubs, *conf, "list", "tag:llm"],
                "mark": [pubs, *conf, "tag", key, "+read"],
                "tag": [pubs, *conf, "tag", key, f"+round-{r}"],
                "note": [pubs, *conf, "note", key, "-a", f"round {r}"],
                "export": [pubs, *conf, "export"],
                "export-csljson": [pubs, *conf, "export"],
                "export-markdown": [pubs, *conf, "export"],
            }.get(op)
        lib = ["-c", str(papis_conf), "-l", str(papis_dir)]
        if op == "import-bib":
            fresh_dir = run_dir / f"papis-{r}"
            fresh_dir.mkdir()
            return [papis, "-c", str(papis_conf), "-l", str(fresh_dir), "bibtex", "read", str(head), "import", "-a", "-b"]
        return {
            "list": [papis, *lib, "list", "--all"],
            "filter-tag": [papis, *lib, "list", "--all", "tags:llm"],
            "mark": [papis, *lib, "tag", "-b", "--add", "read", f"ref:{key}"],
            "tag": [papis, *lib, "tag", "-b", "--add", f"round-{r}", f"ref:{key}"],
            "note": [papis, *lib, "edit", "-n", f"ref:{key}"],
            "export": [papis, *lib, "export", "--all", "-f", "bibtex", "-o", str(run_dir / f"papis-{r}.bib")],  # papis asks before overwriting
            "export-csljson": [papis, *lib, "export", "--all", "-f", "bibtex", "-o", str(run_dir / f"papis-{r}-c.bib")],
            "export-markdown": [papis, *lib, "export", "--all", "-f", "bibtex", "-o", str(run_dir / f"papis-{r}-m.bib")],
        }.get(op)

    times: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}  # CPU seconds (user + system, with waited-for children)
    bare: list[float] = []
    for r in range(args.rounds):
        for op in ops:
            for tool in tools:
                command = argv(tool, op, r)
                if command is None:
                    continue
                seconds, _, cpu, _ = run(command, cwd=run_dir, env={**env, **ours.get(tool, {})})
                times.setdefault((tool, op), []).append(seconds)
                cpus.setdefault((tool, op), []).append(cpu)
                bare.append(run([sys.executable, "-c", "pass"], cwd=run_dir)[0])
        print(f"round {r + 1}/{args.rounds} done (load average {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)

    b = statistics.median(bare)
    print(f"{len(keys):,} papers; medians of {args.rounds} interleaved rounds; bare python {b:.3f} s; "
          f"(x N) = N times bare python; papis import: first {args.papis_import} papers")  # fmt: skip
    header = f"| op | {' | '.join(tools)} |" + (" ratio to pubs |" if "pubs" in tools else "") + " target |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for op, (budget, label) in ((op, OPERATIONS[op]) for op in ops):
        label = label.replace("5k", f"{len(keys) / 1000:g}k")
        cells, med = [], {}
        for tool in tools:
            got = times.get((tool, op))
            if got:
                med[tool] = statistics.median(got)
                cells.append(f"{med[tool]:.2f} s (x{med[tool] / b:.0f})")
            else:
                cells.append("—")
        row = f"| {label} | {' | '.join(cells)} |"
        if "pubs" in tools:
            ratios = " / ".join(f"{med['pubs'] / med[t]:.1f}×" if t in med else "—" for t in ours)
            row += f" {ratios} |" if "pubs" in med else " — |"
        row += f" {'keep' if budget is None else f'≤ {budget:g} s (x{budget / 0.0175:.0f})'} |"
        print(row)
    # CPU seconds move less than wall seconds on a machine shared with other work (a process
    # waiting for a core counts in the wall time only); the first round of each op included
    print(f"\nCPU seconds (user + system, medians of {args.rounds}; the first round included)")
    print(f"| op | {' | '.join(tools)} |" + (" ratio to pubs |" if "pubs" in tools else ""))
    print("|" + "---|" * (len(tools) + 1 + ("pubs" in tools)))
    for op in ops:
        med = {tool: statistics.median(cpus[(tool, op)]) for tool in tools if cpus.get((tool, op))}
        row = f"| {OPERATIONS[op][1].replace('5k', f'{len(keys) / 1000:g}k')} | " + " | ".join(f"{med[t]:.2f} s" if t in med else "—" for t in tools) + " |"
        if "pubs" in tools:
            row += (" " + " / ".join(f"{med['pubs'] / med[t]:.1f}×" if t in med else "—" for t in ours) + " |") if "pubs" in med else " — |"
        print(row)
    shutil.rmtree(run_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
