"""Zotero RDF export: parsed by rdflib, checked triple by triple against what Zotero's RDF import reads."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.formats.registry import ExportOptions, find_exporter
from readinglist.formats.zotero.writer import exporter
from readinglist.record import Event, Paper, Person, Record

rdflib = pytest.importorskip("rdflib")
from rdflib import RDF, Literal, Namespace, URIRef  # noqa: E402

Z = Namespace("http://www.zotero.org/namespaces/export#")
DC = Namespace("http://purl.org/dc/elements/1.1/")
DCTERMS = Namespace("http://purl.org/dc/terms/")
BIB = Namespace("http://purl.org/net/biblio#")
FOAF = Namespace("http://xmlns.com/foaf/0.1/")
BASE = "http://example.invalid/export.rdf"

CONFIG = default_config()
PLAIN = ExportOptions(config=CONFIG)
EVERYTHING = ExportOptions(config=CONFIG, with_status=True, with_notes=True)

CANVIT = Record(
    key="canvit2026",
    title="CanViT: Scaling Vision Transformers with LLMs",
    abstract=r"We reach 45.9\% mIoU with an $\ell_1$ penalty, 1.24$\times$ faster, $\theta$, $\Omega$, \$5 and M²LE; \textbf{bold} \emph{it}.",
    venue="NeurIPS",
    year=2026,
    shorttitle="CanViT",
    tags=("computer-vision", "efficiency"),
    generated=frozenset({"key", "title", "shorttitle", "tags"}),
)
DOE = Record(
    key="doe2026editing",
    title="Knowledge Editing in Large Language Models",
    abstract="Knowledge editing updates facts.",
    venue="ICML",
    year=2026,
    authors=(Person("Doe", "Jane"), Person(literal="OpenAI Team")),
    doi="10.1234/abc.5",
    url="https://example.org/p?id=5&x=<1>",
    pages="1-10",
    tags=("llm",),
)


def papers():
    return [
        Paper(
            CANVIT,
            status="read",
            priority=1,
            rating=4,
            notes="Great results & <b>clear</b> writing.\nSecond line.\n\nCite in chapter 2.",
            user_tags=("to-cite",),
            history=(Event("added", "2026-11-01T09:00:00Z"), Event("finished", "2026-11-20T18:30:00Z")),
        ),
        Paper(DOE, status="reading"),
    ]


def parse(text: str):
    graph = rdflib.Graph()
    graph.parse(data=text, format="xml", publicID=BASE)
    return graph


def item(key: str) -> URIRef:
    return URIRef(BASE + "#item_" + key)


def one(graph, subject, predicate):
    values = list(graph.objects(subject, predicate))
    assert len(values) == 1, (subject, predicate, values)
    return values[0]


def test_registered_by_name_and_suffix():
    assert find_exporter("zotero") is exporter
    assert find_exporter(path="lib.rdf") is exporter


def test_namespaces_as_zotero_writes_them():
    text = exporter.export(papers(), EVERYTHING)
    for prefix, uri in [
        ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
        ("z", str(Z)), ("dc", str(DC)), ("dcterms", str(DCTERMS)), ("bib", str(BIB)), ("foaf", str(FOAF)),
        ("link", "http://purl.org/rss/1.0/modules/link/"),
    ]:
        assert f'xmlns:{prefix}="{uri}"' in text


def test_item_fields_as_triples():
    g = parse(exporter.export(papers(), PLAIN))
    canvit = item("canvit2026")
    assert one(g, canvit, Z.itemType) == Literal("conferencePaper")
    assert one(g, canvit, DC.title) == Literal(CANVIT.title)
    assert one(g, canvit, Z.shortTitle) == Literal("CanViT")
    assert one(g, canvit, DC.date) == Literal("2026")
    container = one(g, canvit, DCTERMS.isPartOf)
    assert one(g, container, RDF.type) == BIB.Journal
    assert "Neural Information Processing" in str(one(g, container, DC.title))
    conference = one(g, canvit, BIB.presentedAt)
    assert one(g, conference, RDF.type) == BIB.Conference
    assert one(g, conference, DC.title) == Literal("NeurIPS 2026")
    assert {str(t) for t in g.objects(canvit, DC.subject)} == {"computer-vision", "efficiency", "to-cite"}
    assert one(g, canvit, DC.description) == Literal("Citation Key: canvit2026")
    assert not list(g.objects(canvit, DCTERMS.isReferencedBy))  # notes only when asked


def test_abstract_is_unicode_without_tex():
    g = parse(exporter.export(papers(), PLAIN))
    abstract = str(one(g, item("canvit2026"), DCTERMS.abstract))
    for wanted in ("45.9%", "ℓ₁", "1.24×", "θ", "Ω", "$5", "M²LE", "bold", "it."):
        assert wanted in abstract, (wanted, abstract)
    assert "\\" not in abstract and "<b>" not in abstract and "{" not in abstract


def test_authors_doi_url_pages():
    g = parse(exporter.export(papers(), PLAIN))
    doe = item("doe2026editing")
    seq = one(g, doe, BIB.authors)
    people = [one(g, seq, RDF[f"_{i}"]) for i in (1, 2)]
    assert one(g, people[0], FOAF.surname) == Literal("Doe")
    assert one(g, people[0], FOAF.givenName) == Literal("Jane")
    assert one(g, people[1], FOAF.surname) == Literal("OpenAI Team")
    assert not list(g.objects(people[1], FOAF.givenName))
    assert one(g, one(g, doe, DCTERMS.isPartOf), DC.identifier) == Literal("DOI 10.1234/abc.5")
    uri = one(g, doe, DC.identifier)
    assert one(g, uri, RDF.type) == DCTERMS.URI
    assert one(g, uri, RDF.value) == Literal("https://example.org/p?id=5&x=<1>")
    assert one(g, doe, BIB.pages) == Literal("1-10")


def test_status_lines_in_extra():
    g = parse(exporter.export(papers(), EVERYTHING))
    extra = str(one(g, item("canvit2026"), DC.description)).splitlines()
    assert extra == [
        "Citation Key: canvit2026",
        "Read_Status: Read",
        "Read_Status_Date: 2026-11-20T18:30:00Z",
        "Priority: 1",
        "Rating: 4",
    ]
    assert str(one(g, item("doe2026editing"), DC.description)).splitlines() == [
        "Citation Key: doe2026editing",
        "Read_Status: In Progress",
    ]


def test_notes_are_child_memos():
    g = parse(exporter.export(papers(), EVERYTHING))
    note = one(g, item("canvit2026"), DCTERMS.isReferencedBy)
    assert one(g, note, RDF.type) == BIB.Memo
    html = str(one(g, note, RDF.value))
    assert html == "<p>Great results &amp; &lt;b&gt;clear&lt;/b&gt; writing.\nSecond line.</p>\n<p>Cite in chapter 2.</p>"
    assert not list(g.objects(item("doe2026editing"), DCTERMS.isReferencedBy))  # no notes, no memo


def test_collection_holds_every_item():
    g = parse(exporter.export(papers(), replace(PLAIN, collection="status reading")))
    (collection,) = g.subjects(RDF.type, Z.Collection)
    assert one(g, collection, DC.title) == Literal("status reading")
    assert set(g.objects(collection, DCTERMS.hasPart)) == {item("canvit2026"), item("doe2026editing")}
    g = parse(exporter.export(papers(), PLAIN))
    assert not list(g.subjects(RDF.type, Z.Collection))


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=60, deadline=None)
@given(title=_TEXT.filter(str.strip), tag=_TEXT.filter(str.strip), notes=_TEXT, venue=_TEXT)
@example(title="a\ufffe", tag="\uffffb", notes="\x01", venue="\r\n")
def test_arbitrary_text_is_valid_rdf(title, tag, notes, venue):
    record = Record(key="k2026", title=title, abstract=notes, venue=venue or None, year=2026, tags=(tag,))
    g = parse(exporter.export([Paper(record, notes=notes)], replace(EVERYTHING, collection=title)))
    # what XML 1.0 cannot hold: C0 controls but tab and line ends, and the noncharacters U+FFFE/U+FFFF
    dropped = "".join(c for c in map(chr, range(32)) if c not in "\t\n\r") + "\ufffe\uffff"

    def clean(s):
        return "".join(c for c in s.replace("\r\n", "\n").replace("\r", "\n") if c not in dropped)

    assert one(g, item("k2026"), DC.title) == Literal(clean(title))
    assert {str(t) for t in g.objects(item("k2026"), DC.subject)} == {clean(tag)}


def test_cli_filtered_export_is_a_collection(tmp_path):
    from typer.testing import CliRunner

    from readinglist.cli import app
    from readinglist.store import Store

    store = Store.open(tmp_path / "lib")
    store.import_records([CANVIT, DOE])
    store.set_status("doe2026editing", "reading")
    out = tmp_path / "reading.rdf"
    result = CliRunner().invoke(app, ["--store", str(tmp_path / "lib"), "export", "-o", str(out), "--status", "reading"])
    assert result.exit_code == 0, result.output
    g = parse(out.read_text(encoding="utf-8"))
    (collection,) = g.subjects(RDF.type, Z.Collection)
    assert one(g, collection, DC.title) == Literal("status reading")
    assert set(g.objects(collection, DCTERMS.hasPart)) == {item("doe2026editing")}
    # the whole store, unfiltered: no collection
    result = CliRunner().invoke(app, ["--store", str(tmp_path / "lib"), "export", "-f", "zotero"])
    assert result.exit_code == 0, result.output
    assert not list(parse(result.stdout).subjects(RDF.type, Z.Collection))


def test_notes_markdown_becomes_inert_html():
    notes = "A *key* idea, [code](https://example.org/x) [bad](javascript:alert(1)) <script>alert(1)</script>\n\n## Questions\n\n- one"
    g = parse(exporter.export([Paper(DOE, notes=notes)], EVERYTHING))
    html = str(one(g, one(g, item("doe2026editing"), DCTERMS.isReferencedBy), RDF.value))
    assert "<em>key</em>" in html and '<a href="https://example.org/x">code</a>' in html
    assert "<h2>Questions</h2>" in html and "<li>one</li>" in html
    assert "<script" not in html and 'href="javascript' not in html and "&lt;script&gt;" in html
