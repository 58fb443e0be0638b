"""Same output? A digest of what the converter makes of real abstracts, for optimisations that
must not change any generated field.

Reads ``../shared/corpus/dev.jsonl`` (3,000 real ML abstracts; read at run time, never copied
into the project), converts them as one abstract list through ``readinglist.convert`` in this
process, and prints one line per paper -- key, title, short title and tags, tab-separated --
then a SHA-256 digest of all lines and the CPU time taken. Compare the digest (or ``--dump``
files with ``diff``) before and after a change: identical output means identical digests.
Skips cleanly (exit 0, one line) when ``../shared`` is absent.

Run: python bench/convert_digest.py [--jsonl FILE] [--limit N] [--dump FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEV = ROOT.parent / "shared" / "corpus" / "dev.jsonl"


def lines_for(abstracts: list[str]) -> list[str]:
    from readinglist.config import default_config
    from readinglist.convert import convert

    text = "NeurIPS 2026 Paper List\n\n" + "\n\n".join(" ".join(a.split()) for a in abstracts) + "\n"
    result = convert(text, source="dev.txt", config=default_config())
    return [
        "\t".join((r.key, r.title, r.shorttitle or "", ",".join(r.tags)))
        for r in result.records
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jsonl", type=Path, default=DEV)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--dump", type=Path, help="write the per-paper lines to this file")
    args = ap.parse_args()
    if not args.jsonl.exists():
        print(f"skipped: {args.jsonl} not found")
        return
    rows = [json.loads(line) for line in args.jsonl.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.limit:
        rows = rows[: args.limit]
    c0 = time.process_time()
    lines = lines_for([r["abstract"] for r in rows])
    cpu = time.process_time() - c0
    if args.dump:
        args.dump.write_text("\n".join(lines) + "\n", encoding="utf-8")
    digest = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    print(f"{len(lines)} records from {len(rows)} abstracts; digest {digest[:16]}; "
          f"cpu {cpu:.2f} s ({cpu / max(1, len(rows)) * 1e3:.2f} ms per abstract)")


if __name__ == "__main__":
    main()
