"""The tomlkit internals store/paperfile.py relies on, named one by one.

pyproject.toml bounds tomlkit to the releases this module has passed on (0.12.0 to 0.15.3);
before raising the bound, run it against the new release: a failure here names the internal
that changed, and the edit tests in test_paperfile.py show what a user would see."""

from __future__ import annotations

import tomlkit
from tomlkit.container import Container
from tomlkit.items import SingleKey, String, StringType, Table, Trivia

from readinglist.store import paperedit


def test_the_private_api_paperfile_uses_is_there():
    assert callable(getattr(Container, "_insert_at", None))
    doc = tomlkit.parse('a = 1\n\n[state]\nstatus = "read"\n')
    assert isinstance(doc._map, dict) and doc._map[SingleKey("state")] == 2
    assert isinstance(doc["state"], Table)
    assert [k.key if k else None for k, _ in doc.body] == ["a", None, "state"]


def test_a_multiline_literal_keeps_backslashes_and_its_first_line_break():
    item = String(StringType.MLL, "a \\emph{b}\nc", "\na \\emph{b}\nc", Trivia())
    doc = tomlkit.document()
    doc.add("abstract", item)
    text = tomlkit.dumps(doc)
    assert text == "abstract = '''\na \\emph{b}\nc'''\n"
    assert tomlkit.parse(text)["abstract"] == "a \\emph{b}\nc"


def test_new_keys_are_inserted_after_their_neighbours_not_appended():
    doc = tomlkit.parse('key = "x"\ntitle = "T"\n# a comment a person wrote\nyear = 2026\n')
    paperedit._set(doc, ("key", "title", "shorttitle", "year"), "shorttitle", "S")
    assert tomlkit.dumps(doc).splitlines() == ['key = "x"', 'title = "T"', 'shorttitle = "S"', "# a comment a person wrote", "year = 2026"]
    assert doc["shorttitle"] == "S"


def test_a_key_after_the_last_one_of_a_table_goes_before_the_blank_line_and_the_next_table():
    doc = tomlkit.parse('key = "x"\n\n[state]\nstatus = "read"\n\n[generated]\ntitle = "T"\n')
    paperedit._set(doc["state"], ("status", "priority"), "priority", 2)
    assert tomlkit.dumps(doc) == 'key = "x"\n\n[state]\nstatus = "read"\npriority = 2\n\n[generated]\ntitle = "T"\n'


def test_a_new_table_goes_in_front_of_the_one_it_precedes():
    doc = tomlkit.parse('key = "x"\n\n[generated]\ntitle = "T"\n')
    table = tomlkit.table()
    table.add("status", "read")
    paperedit._insert_table(doc, "state", table, before=("generated", "sources"))
    assert tomlkit.dumps(doc) == 'key = "x"\n\n[state]\nstatus = "read"\n\n[generated]\ntitle = "T"\n'
    assert tomlkit.parse(tomlkit.dumps(doc))["state"]["status"] == "read"
