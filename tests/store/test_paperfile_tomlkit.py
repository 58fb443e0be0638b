"""The tomlkit internals store/paperfile.py relies on (pyproject pins tomlkit below the next
minor release; when raising the pin, this module says whether the new release still has them)."""

from __future__ import annotations

import tomlkit
from tomlkit.container import Container
from tomlkit.items import String, StringType, Table, Trivia

from readinglist.store import paperfile


def test_the_private_api_paperfile_uses_is_there():
    assert callable(getattr(Container, "_insert_after", None))
    assert callable(getattr(Container, "_insert_at", None))
    doc = tomlkit.parse('a = 1\n\n[state]\nstatus = "read"\n')
    assert isinstance(doc._map, dict) and paperfile.tomlkit_key("state") in doc._map
    assert isinstance(doc["state"], Table)


def test_a_multiline_literal_keeps_backslashes_and_its_first_line_break():
    item = String(StringType.MLL, "a \\emph{b}\nc", "\na \\emph{b}\nc", Trivia())
    doc = tomlkit.document()
    doc.add("abstract", item)
    text = tomlkit.dumps(doc)
    assert text == "abstract = '''\na \\emph{b}\nc'''\n"
    assert tomlkit.parse(text)["abstract"] == "a \\emph{b}\nc"


def test_new_keys_are_inserted_after_their_neighbours_not_appended():
    doc = tomlkit.parse('key = "x"\ntitle = "T"\n# a comment a person wrote\nyear = 2026\n')
    doc._insert_after("title", "shorttitle", "S")
    assert tomlkit.dumps(doc).splitlines()[:3] == ['key = "x"', 'title = "T"', 'shorttitle = "S"']
