"""Golden files: the seed lists through the converter and each exporter, with fixed reading state.

After a deliberate change (converter, titles, tags, exporters), regenerate and review the diff:

    READINGLIST_REGEN=1 python -m pytest -q tests/test_export_golden.py && git diff tests/golden
"""

from __future__ import annotations

import os

import pytest
from helpers import ROOT

from readinglist.config import default_config
from readinglist.formats.registry import ExportOptions, find_exporter
from readinglist.record import Event, Paper

GOLDEN = ROOT / "tests" / "golden"
REGEN = os.environ.get("READINGLIST_REGEN") == "1"
CONFIG = default_config()


def seed_papers() -> list[Paper]:
    """Every seed abstract as a paper, with a fixed, varied reading state."""
    from readinglist.convert import convert

    records = []
    for path in sorted((ROOT / "seeds").glob("*.txt")):
        result = convert(
            path.read_text(encoding="utf-8"),
            source=f"seeds/{path.name}",
            config=CONFIG,
            taken=[r.key for r in records],
        )
        records += result.records
    papers = []
    for i, record in enumerate(sorted(records, key=lambda r: r.key)):
        added = Event("added", "2026-11-01T09:00:00Z")
        if i % 6 == 0:
            paper = Paper(
                record,
                status="read",
                history=(added, Event("started", "2026-11-02T10:00:00Z"), Event("finished", f"2026-11-{10 + i % 15:02d}T18:30:00Z")),
                rating=1 + i % 5,
                priority=1 + i % 3,
                notes="Worth a second read: *the* ablation in §4 & the 95% intervals." if i % 12 == 0 else "",
            )
        elif i % 6 == 1:
            paper = Paper(record, status="reading", history=(added, Event("started", "2026-11-03T08:00:00Z")), priority=1)
        elif i % 6 == 2 and i % 4 == 0:
            paper = Paper(record, status="skipped", history=(added, Event("skipped", "2026-11-04T12:00:00Z")))
        else:
            paper = Paper(record, history=(added,), user_tags=("to-cite",) if i % 5 == 0 else ())
        papers.append(paper)
    return papers


CASES = {
    "seeds.bib": ("bibtex", {}),
    "seeds-status.bib": ("bibtex", {"with_status": True, "with_notes": True}),
    "seeds.json": ("csljson", {}),
    "seeds-status.json": ("csljson", {"with_status": True, "with_notes": True}),
    "seeds.md": ("markdown", {"group_by": "tag"}),
    "seeds-status.md": ("markdown", {"group_by": "status", "with_notes": True, "title": "NeurIPS 2026: what I read"}),
}


@pytest.fixture(scope="module")
def papers():
    return seed_papers()


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name, papers):
    fmt, opts = CASES[name]
    text = find_exporter(fmt).export(papers, ExportOptions(config=CONFIG, **opts))
    path = GOLDEN / name
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.exists(), f"{path} missing: run READINGLIST_REGEN=1 python -m pytest tests/test_export_golden.py"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, (
        f"{name} differs from the golden file; if the change is intended run "
        "READINGLIST_REGEN=1 python -m pytest tests/test_export_golden.py and review `git diff tests/golden`"
    )


def test_seed_state_is_varied(papers):
    statuses = {p.status for p in papers}
    assert statuses == {"unread", "reading", "read", "skipped"}
