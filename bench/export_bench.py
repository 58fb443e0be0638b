"""Exporter budget: 20,000 records to each format in <= 3 s.

Builds 20,000 records by varying the seed abstracts (each gets a distinct key, a variant
sentence, tags, some reading state), exports them with each built-in exporter, and prints
seconds per format. In the same run, for comparison, it times pybtex's own BibTeX writer
and bibtexparser's writer with its default (deep-copying) unparse stack on the first 2,000
records, scaled x10, and prints the ratios. Run: python bench/export_bench.py [N]
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from readinglist.config import default_config  # noqa: E402
from readinglist.formats.registry import ExportOptions, find_exporter  # noqa: E402
from readinglist.record import Event, Paper, Record, Source  # noqa: E402

BUDGET = 3.0
TAGS = "llm vision graphs reinforcement-learning theory diffusion retrieval robotics".split()
STATUSES = ("unread", "unread", "reading", "read", "skipped")


def seed_abstracts() -> list[tuple[str, str]]:
    """(file name, abstract) for every paragraph of the seed lists after the header."""
    out = []
    for path in sorted((ROOT / "seeds").glob("*.txt")):
        paras = [p.strip() for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")) if p.strip()]
        out += [(path.name, " ".join(p.split())) for p in paras[1:]]
    return out


def make_papers(n: int) -> list[Paper]:
    seeds = seed_abstracts()
    papers = []
    for i in range(n):
        name, abstract = seeds[i % len(seeds)]
        words = re.findall(r"[A-Za-z][\w-]+", abstract)
        title = " ".join(words[i % 7 : i % 7 + 8]).capitalize() + f" ({i})"
        record = Record(
            key=f"paper{i:05d}",
            title=title,
            abstract=f"{abstract} Variant {i} uses 50% of $\\ell_{i % 3}$ & more.",
            venue="NeurIPS" if i % 3 else "ICML",
            year=2024 + i % 3,
            shorttitle=words[0] if i % 2 else None,
            tags=(TAGS[i % len(TAGS)], TAGS[(i * 7) % len(TAGS)]),
            generated=frozenset({"key", "title", "tags"}),
            sources=(Source(f"seeds/{name}", paragraph=i % 20 + 1, line=3 + 2 * (i % 20)),),
        )
        status = STATUSES[i % len(STATUSES)]
        history = (Event("added", "2026-11-01T09:00:00Z"),) + (
            (Event("started", "2026-11-02T10:00:00Z"),) if status != "unread" else ()
        )
        papers.append(
            Paper(record, status=status, history=history, notes="Read again." if i % 11 == 0 else "",
                  priority=(i % 4) or None, rating=(i % 5) + 1 if status == "read" else None)
        )
    return papers


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main(n: int = 20_000) -> int:
    papers = make_papers(n)
    config = default_config()
    worst = 0.0
    print(f"exporting {n:,} records")
    for name, options in (
        ("bibtex", ExportOptions(config=config)),
        ("bibtex", ExportOptions(config=config, with_status=True, with_notes=True)),
        ("csljson", ExportOptions(config=config, with_status=True, with_notes=True)),
        ("markdown", ExportOptions(config=config, group_by="tag", with_notes=True)),
    ):
        exporter = find_exporter(name)
        exporter.export(papers[:50], options)  # warm imports and caches
        seconds, text = timed(lambda exporter=exporter, options=options: exporter.export(papers, options))
        worst = max(worst, seconds)
        label = name + (" +status+notes" if options.with_status else "")
        print(f"  {label:<24} {seconds:6.2f} s  {len(text) / 1e6:6.1f} MB  ({'ok' if seconds <= BUDGET else 'OVER'} <= {BUDGET} s)")

    # Side by side: other BibTeX writers on the first 2,000 records, scaled to n.
    sample = papers[:2000]
    scale = n / len(sample)
    ours, _ = timed(lambda: find_exporter("bibtex").export(sample, ExportOptions(config=config)))

    from pybtex.database import BibliographyData

    from readinglist.formats.pybtex import record_to_entry

    data = BibliographyData({p.key: record_to_entry(p.record, config) for p in sample})
    pyb, _ = timed(lambda: data.to_string("bibtex"))

    import bibtexparser
    from bibtexparser.middlewares import default_unparse_stack

    from readinglist.formats.bibtex import writer as ours_mod
    from bibtexparser.model import Entry, Field

    def copying():
        lib = bibtexparser.Library(
            [Entry("inproceedings", p.key, [Field(k, v) for k, v in ours_mod.paper_fields(p, ExportOptions(config=config))])
             for p in sample]
        )
        return bibtexparser.write_string(lib, unparse_stack=default_unparse_stack(allow_inplace_modification=False))

    import logging

    logging.getLogger("bibtexparser").setLevel(logging.ERROR)
    deep, _ = timed(copying)
    print(f"BibTeX writers on {len(sample):,} records, scaled x{scale:g} to {n:,}:")
    print(f"  readinglist (bibtexparser, in place) {ours * scale:6.2f} s")
    print(f"  bibtexparser default stack (copies)  {deep * scale:6.2f} s   ratio {deep / ours:5.1f}x")
    print(f"  pybtex BibTeX writer (same entries)  {pyb * scale:6.2f} s   ratio {pyb / ours:5.1f}x")
    return 0 if worst <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000))
