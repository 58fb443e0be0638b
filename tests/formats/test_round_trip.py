"""One round trip over every format that both exports and imports (found in the registry, so a
new two-way format is tested without a test of its own): readinglist's export read back gives
the same papers, and exporting those gives the same text."""

from __future__ import annotations

import pytest
from helpers import round_trip

from readinglist.formats.registry import exporter_names, find_exporter, find_importer, importer_names

TWO_WAY = sorted(set(importer_names()) & set(exporter_names()))

#: What a format cannot carry, by name: status -> the status it comes back as.
STATUS_LOST = {"bibtex": {"skipped": "unread"}}  # JabRef's readstatus has no "skipped"


def test_the_two_way_formats_are_the_ones_expected():
    assert {"bibtex", "csljson"} <= set(TWO_WAY)


@pytest.mark.parametrize("name", TWO_WAY)
def test_an_export_read_back_is_the_same_library(tmp_path, name):
    suffix = find_exporter(name).suffixes[0]
    first, second, text1, text2 = round_trip(tmp_path, name, find_importer(name), suffix)
    assert text2 == text1
    before = {p.key: p for p in first}
    after = {p.key: p for p in second}
    assert before.keys() == after.keys()
    lost = STATUS_LOST.get(name, {})
    for key, old in before.items():
        new, rec, was = after[key], after[key].record, old.record
        assert (new.status, new.priority, new.rating, new.notes) == (lost.get(old.status, old.status), old.priority, old.rating, old.notes), key
        assert new.tags == old.tags, key  # (your tags come back among the topic tags: one keywords field)
        assert (rec.title, rec.shorttitle, rec.authors, rec.generated) == (was.title, was.shorttitle, was.authors, was.generated), key
        assert (rec.venue, rec.year, rec.doi, rec.url, rec.pages) == (was.venue, was.year, was.doi, was.url, was.pages), key
        # where an abstract came from survives; a record read from a file is from the file read now
        assert [s for s in rec.sources if s.file.endswith(".txt")] == [s for s in was.sources if s.file.endswith(".txt")], key
    assert {p.status for p in second} >= {"unread", "reading", "read"}
    assert any(s.file.endswith(".txt") for p in second for s in p.record.sources)
