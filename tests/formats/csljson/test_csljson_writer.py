"""CSL-JSON export: valid against the official schema, stable layout, read by pandoc."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.errors import ValidationError
from readinglist.formats.csljson.writer import exporter
from readinglist.formats.registry import ExportOptions
from readinglist.record import Event, Paper, Person, Record, Source
from readinglist.text import to_plain

SCHEMA = json.loads((ROOT / "tests" / "data" / "csl-data.json").read_text(encoding="utf-8"))
CONFIG = default_config()
PLAIN = ExportOptions(config=CONFIG)
EVERYTHING = ExportOptions(config=CONFIG, with_status=True, with_notes=True)

CANVIT = Record(
    key="canvit2026",
    title="CanViT: Scaling Vision Transformers",
    abstract=r"We reach 45.9\% mIoU with an $\ell_1$ penalty and \emph{fewer} FLOPs (10$\times$).",
    venue="NeurIPS",
    year=2026,
    shorttitle="CanViT",
    tags=("vision", "transformers"),
    generated=frozenset({"key", "title", "shorttitle", "tags"}),
    sources=(Source("seeds/000_list.txt", paragraph=2, line=5),),
)
DOE = Record(
    key="doe2026editing",
    title="Knowledge Editing in Large Language Models",
    abstract="Knowledge editing updates facts in LLMs.",
    venue="ICML",
    year=2026,
    authors=(Person("Doe", "Jane"), Person(literal="OpenAI Team")),
    doi="10.1234/abc.5",
    url="https://example.org/p?id=5",
    pages="1-10",
)


def papers():
    return [
        Paper(
            CANVIT,
            status="read",
            notes="Great results.\n\nCite in chapter 2.",
            user_tags=("to-cite",),
            history=(Event("added", "2026-11-01T09:00:00Z"), Event("finished", "2026-11-20T18:30:00Z")),
        ),
        Paper(DOE),
    ]


def validate(text):
    from jsonschema import Draft7Validator

    data = json.loads(text)
    errors = sorted(Draft7Validator(SCHEMA).iter_errors(data), key=str)
    assert errors == [], [e.message for e in errors]
    return data


def test_schema_valid_with_and_without_state():
    for options in (PLAIN, EVERYTHING):
        data = validate(exporter.export(papers(), options))
        assert [item["id"] for item in data] == ["canvit2026", "doe2026editing"]


def test_fields():
    canvit, doe = validate(exporter.export(papers(), PLAIN))
    assert canvit == {
        "id": "canvit2026",
        "type": "paper-conference",
        "citation-key": "canvit2026",
        "title": "CanViT: Scaling Vision Transformers",
        "title-short": "CanViT",
        "container-title": "Advances in Neural Information Processing Systems",
        "event-title": "NeurIPS 2026",
        "issued": {"date-parts": [[2026]]},
        "abstract": "We reach 45.9% mIoU with an ℓ₁ penalty and fewer FLOPs (10×).",
        "keyword": "vision, transformers, to-cite",
        "custom": {
            "generated": ["key", "title", "shorttitle", "tags"],
            "sources": ["seeds/000_list.txt:5 (paragraph 2)"],
        },
    }
    assert canvit["abstract"] == to_plain(CANVIT.abstract, scripts=True)
    assert doe["author"] == [{"family": "Doe", "given": "Jane"}, {"literal": "OpenAI Team"}]
    assert (doe["DOI"], doe["URL"], doe["page"]) == ("10.1234/abc.5", "https://example.org/p?id=5", "1-10")
    assert "custom" not in doe and "note" not in doe and "keyword" not in doe


def test_stable_layout():
    text = exporter.export(papers(), EVERYTHING)
    assert text.endswith("]\n") and not text.endswith("\n\n")
    assert '\n  {\n    "id": "canvit2026",\n    "type": "paper-conference",' in text  # indent 2, id first
    assert "ℓ" in text and "\\u" not in text  # ensure_ascii=False
    assert exporter.export(papers(), EVERYTHING) == text
    backward = json.loads(exporter.export(list(reversed(papers())), EVERYTHING))
    assert backward == list(reversed(json.loads(text)))  # the caller's order


def test_read_status_for_zotero_reading_list():
    canvit, doe = validate(exporter.export(papers(), ExportOptions(config=CONFIG, with_status=True)))
    assert canvit["note"] == "Read_Status: Read\nRead_Status_Date: 2026-11-20T18:30:00Z"
    assert doe["note"] == "Read_Status: To Read"  # never changed: no date
    expected = {"unread": "To Read", "reading": "In Progress", "read": "Read", "skipped": "Not Reading"}
    for status, word in expected.items():
        (item,) = json.loads(exporter.export([Paper(DOE, status=status)], EVERYTHING))
        assert item["note"].splitlines()[0] == f"Read_Status: {word}"


def test_priority_and_rating_lines_with_status():
    paper = Paper(DOE, status="reading", priority=2, rating=5)
    (item,) = validate(exporter.export([paper], ExportOptions(config=CONFIG, with_status=True)))
    assert item["note"] == "Read_Status: In Progress\nPriority: 2\nRating: 5"
    (item,) = json.loads(exporter.export([paper], PLAIN))
    assert "note" not in item  # never without --with-status


def test_status_date_is_last_status_change():
    history = (
        Event("added", "2026-11-01T09:00:00Z"),
        Event("started", "2026-11-02T10:00:00Z"),
        Event("reset", "2026-11-03T11:00:00Z"),
        Event("added", "2026-11-04T12:00:00Z"),  # re-added: not a status change
    )
    (item,) = json.loads(exporter.export([Paper(DOE, history=history)], EVERYTHING))
    assert item["note"] == "Read_Status: To Read\nRead_Status_Date: 2026-11-03T11:00:00Z"


def test_notes_only_when_asked():
    canvit, _ = json.loads(exporter.export(papers(), ExportOptions(config=CONFIG, with_notes=True)))
    assert canvit["note"] == "Great results.\n\nCite in chapter 2."
    canvit, _ = json.loads(exporter.export(papers(), EVERYTHING))
    assert canvit["note"].startswith("Read_Status: Read\nRead_Status_Date: ")
    assert canvit["note"].endswith("\nGreat results.\n\nCite in chapter 2.")
    assert "note" not in json.loads(exporter.export(papers(), PLAIN))[0]


def test_bad_status_and_duplicate_keys_are_refused():
    with pytest.raises(ValidationError, match="doe2026editing.*'finished'"):
        exporter.export([Paper(DOE, status="finished")], EVERYTHING)
    with pytest.raises(ValidationError, match="doe2026editing"):
        exporter.export([Paper(DOE), Paper(DOE)], PLAIN)


def test_entry_types_map_to_valid_csl_types():
    for entry_type in ("inproceedings", "article", "misc", "phdthesis", "weird"):
        validate(exporter.export([Paper(DOE.evolve(entry_type=entry_type))], PLAIN))
    (item,) = json.loads(exporter.export([Paper(DOE.evolve(entry_type="article"))], PLAIN))
    assert item["type"] == "article-journal" and "event-title" not in item


def test_empty_export_is_an_empty_array():
    assert validate(exporter.export([], PLAIN)) == []


@settings(max_examples=50, deadline=None)
@given(
    title=st.text(min_size=1, max_size=60),
    abstract=st.text(max_size=120),
    tags=st.lists(st.text(min_size=1, max_size=12), max_size=3),
    status=st.sampled_from(["unread", "reading", "read", "skipped"]),
)
def test_any_record_gives_schema_valid_json(title, abstract, tags, status):
    rec = Record(key="k2026", title=title, abstract=abstract, tags=tuple(tags), venue="NeurIPS", year=2026)
    (item,) = validate(exporter.export([Paper(rec, status=status, notes=abstract)], EVERYTHING))
    assert item["title"] == title


@pytest.mark.tools
def test_pandoc_citeproc_renders_the_titles(tmp_path):
    if shutil.which("pandoc") is None:
        pytest.skip("needs pandoc (apt-get install pandoc)")
    (tmp_path / "export.json").write_text(exporter.export(papers(), PLAIN), encoding="utf-8")
    (tmp_path / "doc.md").write_text("See @canvit2026 and [@doe2026editing].\n", encoding="utf-8")
    proc = subprocess.run(
        ["pandoc", "--citeproc", "--bibliography", "export.json", "-t", "plain", "doc.md"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "[WARNING]" not in proc.stderr, proc.stderr
    out = " ".join(proc.stdout.split())
    assert "CanViT: Scaling Vision Transformers" in out
    assert "Knowledge Editing in Large Language Models" in out
    assert "Doe" in out and "2026" in out
    assert "@canvit2026" not in out and "???" not in out  # both citations resolved



def test_reimported_by_readinglists_csljson_importer():
    from readinglist.formats.registry import ImportOptions, find_importer

    text = exporter.export(papers(), EVERYTHING)
    result = find_importer("csljson").parse(text, source="refs.json", options=ImportOptions(config=CONFIG))
    assert result.warnings == ()
    canvit, doe = result.records
    for field in ("key", "title", "shorttitle", "venue", "year", "generated", "sources"):
        assert getattr(canvit, field) == getattr(CANVIT, field), field
    assert canvit.tags == ("vision", "transformers", "to-cite")
    assert canvit.abstract == to_plain(CANVIT.abstract, scripts=True)
    assert (doe.authors, doe.doi, doe.url, doe.pages) == (DOE.authors, DOE.doi, DOE.url, DOE.pages)
    assert result.states["canvit2026"] == {"status": "read", "notes": "Great results.\n\nCite in chapter 2."}
    assert result.states["doe2026editing"] == {"status": "unread"}
    # priority and rating travel too (as Priority: / Rating: lines in note, Zotero's Extra)
    text = exporter.export([Paper(DOE, priority=1, rating=3, notes="Rating: the notes stay notes")], EVERYTHING)
    result = find_importer("csljson").parse(text, source="refs.json", options=ImportOptions(config=CONFIG))
    assert result.states["doe2026editing"] == {"status": "unread", "priority": 1, "rating": 3, "notes": "Rating: the notes stay notes"}


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=_JSON, depth=st.integers(0, 3))
def test_the_fast_layout_is_json_dumps_layout(value, depth):
    """Items are written without the standard library's (slow, pure-Python) indenting encoder:
    the text must be exactly what it writes, at any nesting."""
    import json

    from readinglist.formats.csljson.writer import indented

    indent = "  " * depth
    assert indented(value, indent) == json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent)
