"""The first command after a real ``git clone`` of a store (issue 30): ``git clone`` itself, then
the first ``list``, ``show KEY`` and ``stats`` in the clone (each in a clone of its own: the first
command builds the cache), and the same command again (the cache built), as whole processes.

The store (``--papers``, default 20,000, generated once with cli_bench's generator) is committed
under ``library/`` of a git repository in --workdir, so that ``readinglist`` finds it from the
clone's root as a user would (no ``--store``). Rounds are interleaved across the variants
(``--variant NAME=SRC``: the ``readinglist`` package in SRC first on PYTHONPATH, e.g. ``git
archive main readinglist | tar -x -C /tmp/old``), and the table shows medians side by side, with
the CPU seconds of the process and the workers it waited for. Each command's output is checked
to be byte-identical across variants. Usage::

    python bench/clone_bench.py [--papers 20000] [--rounds 3] [--variant before=/tmp/old ...]
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cli_bench import make_store, readinglist_cmd, run  # noqa: E402

#: The commands timed as the first after a clone ({key}: the first paper's key).
COMMANDS = {"list": ["list"], "show": ["show", "{key}"], "stats": ["stats"]}


def make_repo(work: Path, n: int) -> tuple[Path, str]:
    """A git repository holding an ``n``-paper store in ``library/`` (made once), and a key in it."""
    repo = work / f"repo-{n}"
    store = work / f"store-{n}"
    if not (repo / ".git").is_dir():
        make_store(store, n)
        shutil.rmtree(repo, ignore_errors=True)
        (repo / "library").mkdir(parents=True)
        shutil.copytree(store / "papers", repo / "library" / "papers")
        shutil.copy(store / ".gitignore", repo / "library" / ".gitignore")
        git = ["git", "-C", str(repo), "-c", "user.name=bench", "-c", "user.email=bench@example.org"]
        subprocess.run([*git, "init", "-q"], check=True)
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-q", "-m", f"a {n}-paper store"], check=True)
    key = min(os.listdir(repo / "library" / "papers")).removesuffix(".toml")
    return repo, key


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help=f"comma-separated commands ({', '.join(COMMANDS)})")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "readinglist-clone-bench")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=SRC",
                    help="also run with the readinglist package in SRC (interleaved)")
    args = ap.parse_args()
    variants: dict[str, dict | None] = {"this": None}
    for spec in args.variant:
        name, _, src = spec.partition("=")
        if not (Path(src) / "readinglist" / "__init__.py").is_file():
            ap.error(f"--variant {spec}: no readinglist package in {src}")
        variants[name] = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    commands = [c for c in COMMANDS if not args.only or c in args.only.split(",")]
    root = Path(__file__).resolve().parent.parent
    for src in [str(root)] + [env["PYTHONPATH"] for env in variants.values() if env]:  # what users run: byte-compiled
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(src, "readinglist")], check=True, capture_output=True)
    args.workdir.mkdir(parents=True, exist_ok=True)
    repo, key = make_repo(args.workdir, args.papers)
    rl = readinglist_cmd()
    times: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    outputs: dict[tuple[str, str], bytes] = {}
    clone = args.workdir / "clone"
    try:
        for r in range(args.rounds):
            for cmd in commands:
                for v, env in variants.items() if r % 2 == 0 else reversed(list(variants.items())):
                    shutil.rmtree(clone, ignore_errors=True)
                    wall, _, cpu, _ = run(["git", "clone", "-q", str(repo), str(clone)])
                    times.setdefault(("git clone", v), []).append((wall, cpu, 0.0))
                    argv = [*rl, *(a.format(key=key) for a in COMMANDS[cmd])]
                    with open(args.workdir / "out", "wb") as out:
                        wall, rss, cpu, _ = run(argv, cwd=clone, env=env, stdout=out)
                    times.setdefault((f"first {cmd}", v), []).append((wall, cpu, rss))
                    wall, rss, cpu, _ = run(argv, cwd=clone, env=env)
                    times.setdefault((f"again {cmd}", v), []).append((wall, cpu, rss))
                    data = (args.workdir / "out").read_bytes()
                    if outputs.setdefault((cmd, str(r)), data) != data:
                        raise SystemExit(f"{cmd}: variant {v} printed other bytes than {next(iter(variants))}")
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(clone, ignore_errors=True)
    names = list(variants)
    print(f"{args.papers:,}-paper store, {args.rounds} rounds, medians (wall s / cpu s / peak MB); load {os.getloadavg()[0]:.1f}")
    print(f"{'':16}" + "".join(f"{v:>26}" for v in names))
    for op in ["git clone"] + [f"{w} {c}" for c in commands for w in ("first", "again")]:
        cells = []
        for v in names:
            rows = times[op, v]
            wall, cpu, rss = (statistics.median(x[i] for x in rows) for i in range(3))
            cells.append(f"{wall:7.2f} / {cpu:5.2f} / {rss:4.0f}" if rss else f"{wall:7.2f} / {cpu:5.2f}       ")
        print(f"{op:16}" + "".join(f"{c:>26}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
