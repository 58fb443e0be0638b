"""bench/peers_bench.py still runs (it broke once unnoticed when cli_bench.run grew two more
return values): readinglist's side of issue 15's table on 1,000 papers, one round."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_peers_bench_prints_readinglists_side_of_the_table(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "peers_bench.py"), "--tools", "readinglist", "--papers", "1000",
         "--rounds", "1", "--workdir", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and " s (x" in line]
    assert len(rows) == 10, done.stdout
    assert rows[0].startswith("| import 1k abstracts") and rows[-3].startswith("| export BibTeX 1k")
    assert rows[-2].startswith("| export CSL-JSON 1k") and rows[-1].startswith("| export Markdown 1k")
