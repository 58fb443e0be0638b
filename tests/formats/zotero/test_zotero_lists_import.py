"""Zotero's own RDF import (RDF.js, run under node by harness.js) on a curated list's export.

Skips without node or RDF.js (tests/data/zotero/README.md says where it goes). Checks what
Zotero makes of a list: a top-level collection with one subcollection per section, the list's
note as a standalone note inside it, each comment as a child note of its paper; and that
test_zotero_lists.py's reading of the RDF (which runs everywhere) is the translator's.
"""

from __future__ import annotations

import shutil

import pytest
from test_zotero_import import RDF_JS, rdf_import
from test_zotero_lists import BASE, export, week12, zotero_import_shape

pytestmark = [
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
    pytest.mark.skipif(not RDF_JS.is_file(), reason=f"Zotero's RDF.js is not in {RDF_JS.parent} (tests/data/zotero/README.md)"),
]


def short(uri: str) -> str:
    return uri.removeprefix(BASE)


def shape(collection) -> dict:
    children = []
    for c in collection["children"]:
        children.append(shape(c) if c.get("type") == "collection" else short(c["id"]))
    return {"name": collection["name"], "children": sorted(children, key=str)}


def test_rdf_js_imports_a_list_with_its_sections_note_and_comments(tmp_path):
    resolved = week12()
    text = export(resolved.papers, reading_list=resolved)
    result = rdf_import(tmp_path, text)
    (top,) = result["collections"]
    got = shape(top)
    assert got["name"] == "Week 12: active vision"
    subs = {c["name"]: c["children"] for c in got["children"] if isinstance(c, dict)}
    assert subs == {"Start here": ["#item_b2026", "#item_c2026"], "Then": ["#item_b2026", "#item_d2026"]}
    assert [c for c in got["children"] if isinstance(c, str)] == ["#item_a2026", "#note_list_wk12"]
    items = {short(i["itemID"]): i for i in result["items"]}
    assert items["#note_list_wk12"]["itemType"] == "note"
    assert items["#note_list_wk12"]["note"].startswith("<h1>Week 12: active vision</h1>")
    assert [n["note"].split("</p>")[0] for n in items["#item_a2026"]["notes"]] == ["<p>the overview"]
    assert sorted(n["note"].split("</p>")[0] for n in items["#item_b2026"]["notes"]) == ["<p>again, for the proofs", "<p>read §3 only"]
    assert items["#item_c2026"]["notes"] == []
    # exactly the items and collections the rdflib reading in test_zotero_lists.py finds
    ours, (our_top,) = zotero_import_shape(text)
    assert set(items) == set(ours)
    assert {k: (i["itemType"], sorted(n["note"] for n in i.get("notes", []))) for k, i in items.items()} == {
        k: (i["itemType"], sorted(i["notes"])) for k, i in ours.items()}

    def ordered(c):
        return {"name": c["name"], "children": sorted((ordered(x) if isinstance(x, dict) else x for x in c["children"]), key=str)}

    assert got == ordered(our_top)


def test_rdf_js_imports_every_list_of_the_library(tmp_path):
    from readinglist.store.lists import Entry, Item, ReadingList, Resolved, Section
    from test_zotero_lists import A, B, C, D

    other = Resolved(ReadingList("later", sections=(Section("", (Entry(C.key),)),)), (Item("", Entry(C.key), C),))
    result = rdf_import(tmp_path, export([A, B, C, D], reading_lists=(week12(), other), collection="Everything"))
    names = sorted(c["name"] for c in result["collections"])
    assert names == ["Everything", "Week 12: active vision", "later"]
    everything = next(c for c in result["collections"] if c["name"] == "Everything")
    assert sorted(short(c["id"]) for c in everything["children"]) == ["#item_a2026", "#item_b2026", "#item_c2026", "#item_d2026"]
