"""Curated lists in the Zotero RDF export, read the way Zotero's RDF import (RDF.js) reads them.

``zotero_import_shape`` below follows RDF.js (zotero/translators, lastUpdated 2019-09-08) step
by step over rdflib's triples: ``getNodes`` + ``importNext`` (a ``bib:Memo`` or attachment
that another resource points to by anything but ``dcterms:hasPart``/``relation`` is part of an
item, not an item; ``z:Collection`` nodes wait until the items are done; a collection with no
arc in is a top-level collection), ``processCollection`` (``dc:title`` is the name; each
``dcterms:hasPart`` child is a subcollection when its ``rdf:type`` is ``z:Collection``, else an
item by its URI unless ``isPart``) and the notes part of ``importItem`` (``dcterms:isReferencedBy``
-> ``bib:Memo`` -> ``rdf:value`` is a child note; a standalone memo is an item of type note).
test_zotero_lists_import.py runs RDF.js itself on the same exports when it is installed.
"""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.formats.registry import ExportOptions
from readinglist.formats.zotero.writer import exporter
from readinglist.record import Paper, Record
from readinglist.store.lists import Entry, Item, ReadingList, Resolved, Section

rdflib = pytest.importorskip("rdflib")
from rdflib import RDF, URIRef  # noqa: E402
from test_zotero_writer import BASE, BIB, DC, DCTERMS, Z, parse  # noqa: E402

CONFIG = default_config()
COLLECTION_TYPES = {Z.Collection, BIB.Collection}
SEE_ALSO = {DCTERMS.hasPart, DCTERMS.relation, DC.relation, URIRef("http://purl.org/dc/elements/1.0/relation")}


def _type(g, node):
    return next(iter(g.objects(node, RDF.type)), None)


def _is_part(g, node) -> bool:  # RDF.js isPart
    return any(p not in SEE_ALSO for _, p in g.subject_predicates(node))


def _name(uri) -> str:
    return str(uri).removeprefix(BASE)


def _collection(g, node) -> dict:  # RDF.js processCollection
    children = []
    for child in g.objects(node, DCTERMS.hasPart):
        if _type(g, child) in COLLECTION_TYPES:
            children.append(_collection(g, child))
        elif not _is_part(g, child):
            children.append(_name(child))
    title = next(iter(g.objects(node, DC.title)), None)
    return {"name": str(title) if title is not None else None, "children": children}


def zotero_import_shape(text: str) -> tuple[dict, list[dict]]:
    """(items by URI: their type and notes, top-level collections) as RDF.js makes them."""
    g = parse(text)
    nodes = set(g.subjects())
    items: dict[str, dict] = {}
    collections = []
    for node in nodes:
        # getNodes: parts of other resources are not items
        if any((None, p, node) in g for p in (DCTERMS.isPartOf, BIB.presentedAt, URIRef("http://purl.org/rss/1.0/modules/link/link"), DCTERMS.creator)):
            continue
        kind = _type(g, node)
        if kind in (Z.Attachment, BIB.Memo) and _is_part(g, node):
            continue
        if kind in COLLECTION_TYPES:
            if not list(g.subject_predicates(node)):  # no arc in: a top-level collection
                collections.append(_collection(g, node))
            continue
        if kind == BIB.Memo:
            items[_name(node)] = {"itemType": "note", "note": str(next(g.objects(node, RDF.value))), "notes": []}
            continue
        item_type = next(iter(g.objects(node, Z.itemType)), None)
        if item_type is None:
            continue  # (RDF.js would guess a type from the title; ours always say theirs)
        notes = [str(next(g.objects(memo, RDF.value))) for memo in g.objects(node, DCTERMS.isReferencedBy) if _type(g, memo) == BIB.Memo]
        items[_name(node)] = {"itemType": str(item_type), "title": str(next(g.objects(node, DC.title))), "notes": notes}
    return items, collections


def paper(key: str, title: str, **kw) -> Paper:
    return Paper(Record(key=key, title=title, venue="NeurIPS", year=2026, tags=("llm",)), **kw)


A, B, C, D = paper("a2026", "Alpha"), paper("b2026", "Beta"), paper("c2026", "Gamma"), paper("d2026", "Delta")


def week12() -> Resolved:
    lst = ReadingList(
        "wk12", title="Week 12: active vision", introduction="Two papers on *glimpses*, then [slides](https://example.org/s).",
        sections=(Section("", (Entry(A.key, "the overview"),)),
                  Section("Start here", (Entry(B.key, "read §3 only"), Entry(C.key))),
                  Section("Then", (Entry(D.key, "skim <b>this</b> & that"), Entry(B.key, "again, for the proofs")))),
    )
    items = tuple(Item(s.title, e, {p.key: p for p in (A, B, C, D)}[e.key]) for s in lst.sections for e in s.entries)
    return Resolved(lst, items)


def export(papers, **kw) -> str:
    return exporter.export(papers, ExportOptions(config=CONFIG, **kw))


def by_name(children) -> dict:
    return {c["name"]: c for c in children if isinstance(c, dict)}


def test_a_list_is_a_collection_with_a_subcollection_per_section():
    resolved = week12()
    items, collections = zotero_import_shape(export(resolved.papers, reading_list=resolved, collection="Week 12: active vision"))
    (top,) = collections
    assert top["name"] == "Week 12: active vision"
    subs = by_name(top["children"])
    assert set(subs) == {"Start here", "Then"}
    # the papers before the first heading sit in the list's collection itself, with its note
    loose = sorted(c for c in top["children"] if isinstance(c, str))
    assert [(c, items[c]["itemType"]) for c in loose] == [("#item_a2026", "conferencePaper"), ("#note_list_wk12", "note")]
    assert sorted(subs["Start here"]["children"]) == ["#item_b2026", "#item_c2026"]
    assert sorted(subs["Then"]["children"]) == ["#item_b2026", "#item_d2026"]  # b2026 is in both sections
    assert all(not isinstance(c, dict) for s in subs.values() for c in s["children"])  # no deeper levels


def test_the_introduction_and_reading_order_are_a_standalone_note_in_the_collection():
    resolved = week12()
    items, (top,) = zotero_import_shape(export(resolved.papers, reading_list=resolved))
    assert top["name"] == "Week 12: active vision"  # the list's title when no --title
    (note,) = [items[c]["note"] for c in top["children"] if isinstance(c, str) and items[c]["itemType"] == "note"]
    assert note.startswith("<h1>Week 12: active vision</h1>")  # Zotero titles a note by its first line
    assert "<em>glimpses</em>" in note and '<a href="https://example.org/s">slides</a>' in note
    # the order Zotero cannot keep: sections and papers as the list has them, with the comments
    order = note[note.index("Reading order"):]
    assert [order.index(s) for s in ("Alpha", "Start here", "Beta", "Gamma", "Then", "Delta")] == sorted(
        order.index(s) for s in ("Alpha", "Start here", "Beta", "Gamma", "Then", "Delta"))
    assert "<em>read §3 only</em>" in order and "skim &lt;b&gt;this&lt;/b&gt; &amp; that" in order
    assert "<b>" not in note


def test_each_comment_is_a_child_note_of_its_paper():
    resolved = week12()
    items, _ = zotero_import_shape(export(resolved.papers, reading_list=resolved))
    assert items["#item_c2026"]["notes"] == []  # no comment, no note
    (a,) = items["#item_a2026"]["notes"]
    assert a == "<p>the overview</p>\n<p><em>In the reading list “Week 12: active vision”.</em></p>"
    b = sorted(items["#item_b2026"]["notes"])
    assert [n.split("</p>")[0] for n in b] == ["<p>again, for the proofs", "<p>read §3 only"]
    assert "section “Start here”" in b[1] and "section “Then”" in b[0]
    assert items["#item_d2026"]["notes"][0].startswith("<p>skim &lt;b&gt;this&lt;/b&gt; &amp; that</p>")
    # the reader's own notes stay a note of their own beside the comments
    with_notes = [p.evolve(notes="mine") if p.key == "a2026" else p for p in resolved.papers]
    items, _ = zotero_import_shape(export(with_notes, reading_list=resolved, with_notes=True))
    assert sorted(items["#item_a2026"]["notes"]) == sorted([a, "<p>mine</p>"])


def test_only_exported_papers_are_in_the_collections():
    resolved = week12()
    items, (top,) = zotero_import_shape(export([B, C], reading_list=resolved))  # filters narrowed the list
    subs = by_name(top["children"])
    assert sorted(subs["Start here"]["children"]) == ["#item_b2026", "#item_c2026"] and subs["Then"]["children"] == ["#item_b2026"]
    assert [c for c in top["children"] if isinstance(c, str)] == ["#note_list_wk12"]  # a2026 was not exported
    assert sorted(i for i in items if items[i]["itemType"] != "note") == ["#item_b2026", "#item_c2026"]
    assert [len(items[k]["notes"]) for k in ("#item_b2026", "#item_c2026")] == [2, 0]
    note = items["#note_list_wk12"]["note"]
    assert "Beta" in note and "Alpha" not in note and "Delta" not in note


def test_every_list_of_the_library_is_a_collection():
    other = Resolved(ReadingList("later", sections=(Section("", (Entry(C.key),)),)), (Item("", Entry(C.key), C),))
    items, collections = zotero_import_shape(export([A, B, C, D], reading_lists=(week12(), other)))
    assert sorted(c["name"] for c in collections) == ["Week 12: active vision", "later"]
    later = next(c for c in collections if c["name"] == "later")
    assert sorted(later["children"]) == ["#item_c2026", "#note_list_later"]
    # and an export's own collection (--title) sits beside them
    items, collections = zotero_import_shape(export([A, B, C, D], reading_lists=(other,), collection="Everything"))
    assert sorted(c["name"] for c in collections) == ["Everything", "later"]


def test_cli_whole_library_brings_every_list_and_list_export_its_shape(tmp_path):
    from typer.testing import CliRunner

    from readinglist.cli import app
    from readinglist.store import Store, lists

    store = Store.open(tmp_path / "lib")
    store.import_records([p.record for p in (A, B, C, D)])
    lists.create(store, "wk12", title="Week 12", introduction="Read *these*.")
    lists.add(store, "wk12", [A.key, B.key], section="Start here", comment="read §3 only")
    lists.add(store, "wk12", [C.key], section="Then")
    lists.create(store, "later")
    lists.add(store, "later", [D.key])
    run = lambda *args: CliRunner().invoke(app, ["--store", str(tmp_path / "lib"), "export", "-f", "zotero", *args])  # noqa: E731
    result = run()
    assert result.exit_code == 0, result.output
    items, collections = zotero_import_shape(result.stdout)
    assert sorted(c["name"] for c in collections) == ["Week 12", "later"]
    wk = next(c for c in collections if c["name"] == "Week 12")
    assert sorted(by_name(wk["children"])) == ["Start here", "Then"]
    assert len(items) == 4 + 2  # the papers and the two lists' notes
    # one list: its collection (named by --title when given), with its sections
    result = run("--list", "wk12", "--title", "Reading group")
    _, (top,) = zotero_import_shape(result.stdout)
    assert top["name"] == "Reading group" and sorted(by_name(top["children"])) == ["Start here", "Then"]
    # a filtered export: the one collection named after the filters, no lists
    result = run("--tag", "llm")
    _, collections = zotero_import_shape(result.stdout)
    assert [c["name"] for c in collections] == ["tag llm"]


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=50, deadline=None)
@given(title=_TEXT, section=_TEXT.filter(str.strip), comment=_TEXT, intro=_TEXT)
def test_any_list_text_is_valid_rdf_with_its_names(title, section, comment, intro):
    lst = ReadingList("x-1", title=title, introduction=intro, sections=(Section(section, (Entry(A.key, comment),)),))
    resolved = Resolved(lst, (Item(section, Entry(A.key, comment), A),))
    items, (top,) = zotero_import_shape(export([A], reading_list=resolved))
    dropped = "".join(c for c in map(chr, range(32)) if c not in "\t\n\r") + "\ufffe\uffff"

    def clean(s):
        return "".join(c for c in s.replace("\r\n", "\n").replace("\r", "\n") if c not in dropped)

    assert top["name"] == clean(title or "x-1")
    assert [c["name"] for c in top["children"] if isinstance(c, dict)] == [clean(section)]
    assert len(items["#item_a2026"]["notes"]) == (1 if comment.strip() else 0)
