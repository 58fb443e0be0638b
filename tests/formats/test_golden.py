"""Golden files: hand-written records through each exporter, with a fixed, varied reading state.

The records are written here by hand (not made by the converter), so that a better title or tag
generator does not rewrite these files; they cover what the exporters must get right: generated
titles with proper nouns, system names with capitals and superscripts (M²LE), inline math,
LaTeX and Markdown emphasis, escapes, accented authors, DOI/URL/pages, user tags, notes.

After a deliberate change to an exporter, regenerate and review the diff:

    READINGLIST_REGEN=1 python -m pytest -q tests/formats/test_golden.py && git diff tests/golden
"""

from __future__ import annotations

import os

import pytest
from helpers import ROOT

from readinglist.config import default_config
from readinglist.formats.registry import ExportOptions, find_exporter
from readinglist.record import Event, Paper, Person, Record, Source

GOLDEN = ROOT / "tests" / "golden"
REGEN = os.environ.get("READINGLIST_REGEN") == "1"
CONFIG = default_config()
GENERATED = frozenset({"key", "title", "shorttitle", "tags"})


def _generated(key, title, abstract, *, line, shorttitle=None, tags=(), venue="NeurIPS", year=2026):
    return Record(
        key=key,
        title=title,
        abstract=abstract,
        venue=venue,
        year=year,
        shorttitle=shorttitle,
        tags=tags,
        generated=GENERATED if shorttitle else GENERATED - {"shorttitle"},
        sources=(Source("seeds/000_example.txt", paragraph=line // 2, line=line),),
    )


RECORDS = [
    _generated(
        "canvit2026",
        "CanViT: a task- and policy-agnostic active-vision foundation model",
        r"We introduce CanViT, reaching 45.9\% mIoU with an $\ell_1$ penalty and 1.24$\times$ fewer FLOPs"
        r" than a ViT-B baseline; see \emph{glimpses} and **L**anguage grounding.",
        line=3, shorttitle="CanViT", tags=("computer-vision", "efficiency"),
    ),
    _generated(
        "m2le2026",
        "M²LE: multi-modal likelihood estimation for Markov decision processes",
        r"M$^2$LE bounds the error by $O(\log n)$ for $\theta \geq 0$ and $\Omega(\sqrt{n})$ otherwise,"
        r" costing \$5 per run on $\mathcal{D}$ with ~3 GPUs & 95\% confidence (\textbf{no} tuning).",
        line=7, shorttitle="M²LE", tags=("reinforcement-learning", "theory"),
    ),
    _generated(
        "hessianfree2026",
        "Hessian-free Gaussian process inference for the European Court of Human Rights",
        "A Bayesian model of rulings by the European Court of Human Rights, with __CapTrack__ "
        "features, `snake_case` code, \u201cquotes\u201d \u2013 dashes and 10\u201320 \u00b5s latency.",
        line=11, tags=("bayesian", "law"),
    ),
    Record(
        key="doe2026editing",
        title="Knowledge Editing in Large Language Models",
        abstract="Knowledge editing updates facts in LLMs without retraining; we test it on 3 benchmarks.",
        venue="ICML",
        year=2026,
        authors=(Person("Doe", "Jane"), Person("M\u00fcller", "Hans Peter"), Person(literal="OpenAI Team")),
        doi="10.1234/abc.5",
        url="https://example.org/paper?id=5&v=2",
        pages="1\u201310",
        tags=("llm",),
    ),
    Record(
        key="smith2025survey",
        title="A Survey of Diffusion Models: {Theory} and Practice",
        abstract="We survey diffusion models.",
        entry_type="article",
        venue="TMLR",
        year=2025,
        authors=(Person("Smith", "Ann"),),
        tags=("generative-models",),
    ),
]


def golden_papers() -> list[Paper]:
    added = Event("added", "2026-11-01T09:00:00Z")
    canvit, m2le, hessian, doe, smith = RECORDS
    return [
        Paper(
            canvit,
            status="read",
            history=(added, Event("started", "2026-11-02T10:00:00Z"), Event("finished", "2026-11-10T18:30:00Z")),
            rating=4,
            priority=1,
            notes="Worth a second read: *the* ablation in \u00a74 & the 95% intervals.\n\n- compare with our policy\n- [code](https://example.org/canvit)",
            user_tags=("to-cite",),
        ),
        Paper(m2le, status="reading", history=(added, Event("started", "2026-11-03T08:00:00Z")), priority=2),
        Paper(hessian, status="skipped", history=(added, Event("skipped", "2026-11-04T12:00:00Z"))),
        Paper(doe, history=(added,), user_tags=("to-cite",), rating=2),
        Paper(smith, history=(added,)),
    ]


CASES = {
    "papers.bib": ("bibtex", {}),
    "papers-status.bib": ("bibtex", {"with_status": True, "with_notes": True}),
    "papers.json": ("csljson", {}),
    "papers-status.json": ("csljson", {"with_status": True, "with_notes": True}),
    "papers.md": ("markdown", {"group_by": "tag"}),
    "papers-status.md": ("markdown", {"group_by": "status", "with_notes": True, "title": "NeurIPS 2026: what I read"}),
    "papers.rdf": ("zotero", {}),
    "papers-status.rdf": ("zotero", {"with_status": True, "with_notes": True, "collection": "NeurIPS 2026: what I read"}),
}


@pytest.fixture(scope="module")
def papers():
    return golden_papers()


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name, papers):
    fmt, opts = CASES[name]
    text = find_exporter(fmt).export(papers, ExportOptions(config=CONFIG, **opts))
    path = GOLDEN / name
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.exists(), f"{path} missing: run READINGLIST_REGEN=1 python -m pytest tests/formats/test_golden.py"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, (
        f"{name} differs from the golden file; if the change is intended run "
        "READINGLIST_REGEN=1 python -m pytest tests/formats/test_golden.py and review `git diff tests/golden`"
    )


def test_golden_files_are_exactly_the_cases():
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(CASES)


def test_state_is_varied(papers):
    statuses = {p.status for p in papers}
    assert statuses == {"unread", "reading", "read", "skipped"}
