"""readinglist.formats.csljson.reader: Zotero-style input, errors, and the round trip
store -> CSL-JSON export -> import into an empty store -> export again."""

from __future__ import annotations

import json

import pytest
from helpers import ROOT, round_trip

from readinglist.config import default_config
from readinglist.errors import InputError
from readinglist.formats.csljson.reader import importer
from readinglist.formats.registry import ImportOptions, find_importer
from readinglist.record import Person, Source

CONFIG = default_config()
OPTIONS = ImportOptions(CONFIG)

ZOTERO = [
    {
        "id": "http://zotero.org/users/1/items/ABCD1234",
        "type": "paper-conference",
        "title": "Scaling Active Vision",
        "container-title": "Advances in Neural Information Processing Systems",
        "author": [
            {"family": "Müller", "given": "Jörg"},
            {"family": "Berg", "given": "Anna", "non-dropping-particle": "van der"},
            {"literal": "Google DeepMind"},
            {"family": "Smith", "given": "John", "suffix": "Jr."},
        ],
        "issued": {"date-parts": [["2026", 12, 3]]},
        "DOI": "https://doi.org/10.5555/X",
        "page": "1-12",
        "abstract": "We use ℓ1 and 30% less compute.",
        "keyword": "vision, llm; active",
        "note": "Read_Status: In Progress\nRead_Status_Date: 2026-11-30T06:15:00Z\nGreat paper.\nSee fig. 2.",
        "publisher": "Curran",
        "volume": 39,
        "editor": [{"family": "Lee", "given": "K."}],
        "accessed": {"date-parts": [[2026, 1, 2]]},
        "citation-label": "ignored variable",
    },
    {"id": "smith2026", "citation-key": "smith2026", "type": "article-journal", "title": "T", "issued": {"raw": "May 2024"}},
    {"id": "smith2026", "type": "book", "title": "Other", "note": "Read_Status: Not Reading"},
    {"id": 7, "type": "post", "title": "Numeric id", "event-title": "ICLR 2025", "categories": ["a", "b"]},
]


def parse(data, source: str = "lib.json"):
    return importer.parse(data if isinstance(data, str) else json.dumps(data), source=source, options=OPTIONS)


def test_zotero_item():
    result = parse(ZOTERO)
    rec = result.records[0]
    # a Zotero URI is no citation key: one is made from the title and year, and marked generated
    assert rec.key == "scalingactive2026" and rec.generated == frozenset({"key"})
    assert rec.entry_type == "inproceedings" and rec.title == "Scaling Active Vision"
    assert rec.authors == (
        Person(family="Müller", given="Jörg"),
        Person(family="van der Berg", given="Anna"),
        Person(literal="Google DeepMind"),
        Person(family="Smith Jr.", given="John"),
    )
    assert (rec.venue, rec.year, rec.doi, rec.pages) == ("NeurIPS", 2026, "10.5555/X", "1-12")
    assert rec.abstract == "We use ℓ1 and 30% less compute."
    assert rec.tags == ("vision", "llm", "active")
    assert dict(rec.fields) == {"editor": "Lee, K.", "publisher": "Curran", "urldate": "2026-01-02", "volume": "39"}
    assert rec.sources == (Source("lib.json"),)
    assert result.states[rec.key] == {"status": "reading", "notes": "Great paper.\nSee fig. 2."}


def test_keys_types_dates_and_clashes():
    result = parse(ZOTERO)
    keys = [r.key for r in result.records]
    assert keys == ["scalingactive2026", "smith2026", "smith2026a", "7"]
    assert [r.entry_type for r in result.records] == ["inproceedings", "article", "book", "misc"]
    assert result.records[1].year == 2024
    assert result.states["smith2026a"] == {"status": "skipped"}
    assert any("item 3 (id smith2026)" in w and "'smith2026a'" in w for w in result.warnings)
    numeric = result.records[3]
    assert (numeric.venue, numeric.year, numeric.tags) == ("ICLR", 2025, ("a", "b"))


@pytest.mark.parametrize("status, expected", [("New", "unread"), ("To Read", "unread"), ("in progress", "reading"), ("Read", "read"), ("Not Reading", "skipped")])
def test_zotero_reading_list_statuses(status, expected):
    result = parse([{"id": "k", "type": "book", "title": "T", "note": f"Read_Status: {status}"}])
    assert result.states == {"k": {"status": expected}}


def test_unknown_status_warns():
    result = parse([{"id": "k", "type": "book", "title": "T", "note": "Read_Status: Someday"}])
    assert result.states == {} and "Read_Status 'Someday'" in result.warnings[0]


@pytest.mark.parametrize(
    "text, message",
    [
        ('[{"id": "a", "title": "x"},\n {"id": }]', r"^bad\.json:2:9: not valid JSON: Expecting value$"),
        ('{"id": "a"}', r"^bad\.json: CSL-JSON must be an array of items, got a JSON dict$"),
        ('[{"type": "book", "title": "x"}]', r"^bad\.json: item 1: the item has no id$"),
        ("[3]", r"^bad\.json: item 1: an item must be a JSON object, got int$"),
        ('[{"id": "a", "title": "x", "author": ["Smith"]}]', r"^bad\.json: item 1 \(id a\): a name must be an object"),
    ],
)
def test_bad_input_names_file_and_place(text, message):
    with pytest.raises(InputError, match=message):
        parse(text, "bad.json")


def test_item_without_title_or_abstract_is_skipped():
    result = parse([{"id": "a", "type": "book"}, {"id": "b", "type": "book", "abstract": "Only an abstract."}])
    assert [r.key for r in result.records] == ["b"] and result.skipped[0].reason == "no title and no abstract"


def test_found_as_a_plugin():
    assert find_importer("csljson") is importer
    assert find_importer(path="zotero.json") is importer


def test_round_trip_through_our_csljson_export(tmp_path):
    first, second, text1, text2 = round_trip(tmp_path, "csljson", importer, ".json")
    assert text2 == text1
    before = {p.key: p for p in first}
    after = {p.key: p for p in second}
    assert before.keys() == after.keys()
    for key, old in before.items():
        new = after[key]
        assert (new.status, new.notes) == (old.status, old.notes), key
        # priority and rating travel as readinglist's own Priority: / Rating: lines in note
        assert (new.priority, new.rating) == (old.priority, old.rating), key
        assert new.tags == old.tags, key
        assert new.record.title == old.record.title and new.record.shorttitle == old.record.shorttitle, key
        assert new.record.generated == old.record.generated, key
        assert new.record.authors == old.record.authors, key
        assert new.record.sources == old.record.sources, key
    assert {p.status for p in second} == {"unread", "reading", "read", "skipped"}


def test_the_zotero_fixture_is_valid_csl_json():
    """The hand-written input above is real CSL-JSON (official schema), not a made-up shape."""

    import jsonschema

    schema = json.loads((ROOT / "tests" / "data" / "csl-data.json").read_text(encoding="utf-8"))
    jsonschema.validate(ZOTERO, schema)
