"""What Zotero's own import translators make of our exports: the real translators, run under node.

Zotero imports a ``.bib`` with ``BibTeX.js``, a CSL-JSON file with ``CSL JSON.js`` (whose mapping
is ``ZU.itemFromCSLJSON`` from zotero/utilities, driven by the csl section of Zotero's schema)
and a Zotero RDF file with ``RDF.js``, all from github.com/zotero/translators (AGPL-3.0). They are
not part of this repository (their licence is not ours, and they are Zotero's to update): these
tests look for them in ``$READINGLIST_ZOTERO_TRANSLATORS`` (default
``~/.cache/readinglist/zotero-translators``; tests/data/zotero/README.md says what goes there)
and skip when they or ``node`` are missing. ``harness.js`` beside this file runs a translator's
``doImport`` unchanged with a minimal Zotero shim (``rdf_shim.js``: Zotero's RDF store over the
triples rdflib parses from our RDF/XML; ``schema_shim.js``: the schema calls of
``itemFromCSLJSON``) and prints the items and collections it completes.

What BibTeX.js does to a field value (``unescapeBibTeX``): ``\\textit``/``\\textbf`` become
``<i>``/``<b>``, ``$^{x}$``/``$_{x}$`` a superscript/subscript character where its table has one
(else ``<sup>``/``<sub>``), then every key of its ``reversemappingTable`` is replaced *as a
substring* (``{\\th}`` and ``\\th`` -> þ, so ``\\theta`` -> "þeta"; ``\\O`` -> Ø, ``\\l`` -> ł,
``--`` -> –, ``~`` -> a no-break space), ``$...$`` pairs lose their dollars, braces go, and the
backslash of ``\\% \\$ \\& \\# \\_`` goes. Any other command stays as raw text.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import ROOT

from readinglist.config import default_config
from readinglist.formats.bibtex.writer import exporter
from readinglist.formats.registry import ExportOptions
from readinglist.record import Paper, Record
from readinglist.text import to_plain

HARNESS = Path(__file__).with_name("harness.js")
TRANSLATORS = Path(os.environ.get("READINGLIST_ZOTERO_TRANSLATORS", Path.home() / ".cache" / "readinglist" / "zotero-translators"))
BIBTEX_JS = TRANSLATORS / "BibTeX.js"

pytestmark = [
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
    pytest.mark.skipif(not BIBTEX_JS.is_file(), reason=f"Zotero's BibTeX.js is not in {TRANSLATORS} (tests/data/zotero/README.md)"),
]

CONFIG = default_config()
PLAIN = ExportOptions(config=CONFIG)
EVERYTHING = ExportOptions(config=CONFIG, with_status=True, with_notes=True)
UNICODE = ExportOptions(config=CONFIG, with_status=True, with_notes=True, unicode=True)

#: What Zotero shows for the characters that have no ASCII spelling its table decodes and
#: pdflatex's default (OT1) fonts typeset: the exceptions of the ASCII form, as verified below.
ASCII_EXCEPTIONS = {
    "\\times": "×",  # its {\texttimes} is a TS1 symbol
    "\\ell": "ℓ",
    "\\geq": "≥",
    "\\leq": "≤",
    "\\cdot": "·",
    "\\surd": "√",
    "<sup>2</sup>": "²",  # $^{2}$: the table has ⁴-⁹ but not ¹²³ ({\texttwosuperior} is TS1)
    "þeta": "θ",  # \theta: \th is replaced before the Greek entries
    "\\textasciitilde": "~",  # no spelling gives "~": a bare ~ is a no-break space, \~ is ∼
}
#: The UTF-8 form's only exception.
UNICODE_EXCEPTIONS = {"\\textasciitilde": "~"}

RICH = Record(
    key="rich2026",
    title="Decoding ℓ₁ and α–β pruning: a “study”",
    shorttitle="Decoding",
    abstract=(
        r"We bound $\log n$ steps by $\mathcal{O}(n^2)$ with $\alpha=0.5$ and $\pi_\phi$, "
        r"45.9\% mIoU, \$5 per run, 2ε and ϵ⁻⁴; \textbf{bold} and \emph{emphasis}, "
        r"model’s “quotes”, a_b, $\frac{a}{b}$ and $T_{\mathrm{mem}}$."
    ),
    venue="NeurIPS",
    year=2026,
    tags=("computer-vision", "efficiency"),
    generated=frozenset({"key", "title", "shorttitle", "tags"}),
)


def zotero_import(tmp_path: Path, text: str) -> list[dict]:
    path = tmp_path / "export.bib"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run(["node", str(HARNESS), str(BIBTEX_JS), str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["items"]


def undo(text: str, exceptions: dict[str, str]) -> str:
    for shown, char in exceptions.items():
        text = text.replace(shown, char)
    return text


def paper() -> Paper:
    return Paper(RICH, status="read", priority=1, rating=4, notes="Great results & clear writing.", user_tags=("to-cite",))


@pytest.mark.parametrize("options", [EVERYTHING, UNICODE], ids=["ascii", "unicode"])
def test_what_zotero_keeps_from_our_bib(tmp_path, options):
    (item,) = zotero_import(tmp_path, exporter.export([paper()], options))
    assert item["itemType"] == "conferencePaper"
    exceptions = UNICODE_EXCEPTIONS if options.unicode else ASCII_EXCEPTIONS
    # ℓ has no spelling that both pdflatex (OT1) and the translator read: Zotero shows "\\ell"
    assert undo(item["title"], exceptions) == RICH.title
    assert ("\\ell" in item["title"]) is not options.unicode
    assert item["shortTitle"] == RICH.shorttitle
    assert item["publicationTitle"] == "Advances in Neural Information Processing Systems"
    assert "conferenceName" not in item  # no eventtitle: biblatex would print it after the venue
    assert item["creators"] == []  # no authors, none invented
    assert item["date"] == "2026"
    assert item["tags"] == ["computer-vision", "efficiency", "to-cite"]  # generated and the user's
    # the abstract arrives as the text a reader sees: math, emphasis and escapes resolved (in the
    # ASCII form but for ² -> "<sup>2</sup>")
    assert undo(item["abstractNote"], exceptions) == to_plain(RICH.abstract, scripts=True)
    # the notes (annote) become a child note
    assert [n["note"] for n in item["notes"]] == ["<p>Great results &amp; clear writing.</p>"]
    # what the BibTeX import drops: the citation key (only used to link items within the file)
    # and the reading state (JabRef's readstatus, priority, ranking)
    assert "citationKey" not in item and "Citation Key" not in item["extra"]
    assert item["extra"] == ""
    assert not {"readstatus", "priority", "ranking"} & set(item)


def test_the_old_ascii_spellings_were_what_zotero_mangled(tmp_path):
    """The constructs the ASCII form no longer writes, and what the translator made of them."""
    entry = "@inproceedings{k,\n  title = {t},\n  abstract = {%s}\n}\n"
    seen = {}
    for latex in [r"$O(\log n)$", r"\textbf{bold}", r"\emph{it}", r"$\mathcal{O}$", r"$\Omega$", r"\$5 and \$6"]:
        (item,) = zotero_import(tmp_path, entry % latex)
        seen[latex] = item["abstractNote"]
    assert seen == {
        r"$O(\log n)$": "O(łog n)",
        r"\textbf{bold}": "<b>bold</b>",
        r"\emph{it}": "\\emphit",
        r"$\mathcal{O}$": "\\mathcalO",
        r"$\Omega$": "Ømega",
        r"\$5 and \$6": "\\5 and \\6",
    }


def test_our_dollar_spelling_arrives_as_dollars(tmp_path):
    """``\\$${}$`` (bibtex_text's dollar): the empty formula is the pair the translator strips."""
    from readinglist.text.literal import bibtex_text

    entry = "@inproceedings{k,\n  title = {t},\n  abstract = {%s}\n}\n"
    for text in ("costs $5 and $6 per run", "one $ only", "$5, $6 and $7 at 45% off"):
        for unicode in (False, True):
            (item,) = zotero_import(tmp_path, entry % bibtex_text(text, unicode=unicode))
            assert item["abstractNote"] == text, (unicode, item["abstractNote"])


SEEDS_BIB = ROOT / "exports" / "neurips-2026.bib"
SEEDS_JSON = ROOT / "exports" / "neurips-2026.json"


@pytest.mark.parametrize("unicode", [False, True], ids=["ascii", "unicode"])
def test_seeds_abstracts_arrive_in_zotero_as_our_unicode_text(tmp_path, unicode):
    """Every seeds abstract, imported by Zotero, is the CSL-JSON's Unicode text (our reading of
    it) except for the characters listed in the exceptions, and nothing else differs."""
    if unicode:
        from readinglist.jobs import export_papers, import_files
        from readinglist.store import Store

        store = Store.open(tmp_path / "lib")
        import_files(store, sorted((ROOT / "seeds").glob("*.txt")), config=CONFIG, format="abstracts")
        text = export_papers(list(store), config=CONFIG, format="bibtex", unicode=True)
    else:
        text = SEEDS_BIB.read_text(encoding="utf-8")
    items = {i["itemID"]: i for i in zotero_import(tmp_path, text)}
    expected = {e["id"]: e for e in json.loads(SEEDS_JSON.read_text(encoding="utf-8"))}
    assert set(items) == set(expected)
    exceptions = UNICODE_EXCEPTIONS if unicode else ASCII_EXCEPTIONS
    identical = 0
    for key, e in expected.items():
        got = items[key]
        assert undo(got["title"], exceptions) == e["title"], key
        assert undo(got.get("shortTitle", ""), exceptions) == e.get("title-short", ""), key
        assert undo(got["abstractNote"], exceptions) == e["abstract"], key
        identical += got["abstractNote"] == e["abstract"]
        assert got["creators"] == [], key  # authorless generated papers: no author is invented
    print(f"{'unicode' if unicode else 'ascii'}: {identical} of {len(expected)} seeds abstracts identical in Zotero")
    assert identical >= (36 if unicode else 30)


# -- Zotero RDF (RDF.js) and CSL-JSON (CSL JSON.js + zotero/utilities' itemFromCSLJSON) ------------

RDF_JS = TRANSLATORS / "RDF.js"
CSL_JS = TRANSLATORS / "CSL JSON.js"
CSL_PARTS = [TRANSLATORS / "utilities_item.itemFromCSLJSON.js", TRANSLATORS / "schema-subset.json"]
needs_rdf = pytest.mark.skipif(not RDF_JS.is_file(), reason=f"Zotero's RDF.js is not in {TRANSLATORS}")
needs_csl = pytest.mark.skipif(not all(p.is_file() for p in [CSL_JS, *CSL_PARTS]), reason=f"CSL JSON.js and its parts are not in {TRANSLATORS}")


def run_translator(translator: Path, path: Path) -> dict:
    out = subprocess.run(["node", str(HARNESS), str(translator), str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def rdf_import(tmp_path: Path, text: str) -> dict:
    """RDF.js reads Zotero's RDF store: the triples of our RDF/XML, parsed here by rdflib."""
    rdflib = pytest.importorskip("rdflib")
    graph = rdflib.Graph()
    graph.parse(data=text, format="xml", publicID="http://example.invalid/export.rdf")

    def term(t):
        if isinstance(t, rdflib.URIRef):
            return {"uri": str(t)}
        if isinstance(t, rdflib.BNode):
            return {"bnode": str(t)}
        return {"literal": str(t)}

    path = tmp_path / "triples.json"
    path.write_text(json.dumps([[term(s), term(p), term(o)] for s, p, o in graph]), encoding="utf-8")
    return run_translator(RDF_JS, path)


def csl_import(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "export.json"
    path.write_text(text, encoding="utf-8")
    return run_translator(CSL_JS, path)


@needs_rdf
def test_what_zotero_keeps_from_our_rdf(tmp_path):
    from readinglist.formats.zotero.writer import exporter as rdf_exporter

    result = rdf_import(tmp_path, rdf_exporter.export([paper()], EVERYTHING))
    (item,) = result["items"]
    assert item["itemType"] == "conferencePaper"
    assert item["title"] == RICH.title  # UTF-8 text: every character
    assert item["shortTitle"] == RICH.shorttitle
    assert item["publicationTitle"] == "Advances in Neural Information Processing Systems"
    assert item["conferenceName"] == "NeurIPS 2026"
    assert item["date"] == "2026"
    assert item["abstractNote"] == to_plain(RICH.abstract, scripts=True)
    assert sorted(item["tags"]) == ["computer-vision", "efficiency", "to-cite"]
    # Extra: the citation key and the Zotero Reading List lines, then priority and rating
    assert item["extra"].splitlines()[0] == "Citation Key: rich2026"
    assert "Read_Status: Read" in item["extra"].splitlines()
    assert {"Priority: 1", "Rating: 4"} <= set(item["extra"].splitlines())
    # the notes: a child note, HTML
    assert [n["note"] for n in item["notes"]] == ["<p>Great results &amp; clear writing.</p>"]


@needs_rdf
def test_a_curated_list_becomes_a_zotero_collection(tmp_path):
    from readinglist.formats.zotero.writer import exporter as rdf_exporter

    options = ExportOptions(config=CONFIG, collection="To read")  # what the CLI sets for --title, --list, filters
    result = rdf_import(tmp_path, rdf_exporter.export([paper()], options))
    (collection,) = result["collections"]
    assert collection["name"] == "To read"
    assert [c["id"] for c in collection["children"]] == [result["items"][0]["itemID"]]


@needs_csl
def test_what_zotero_keeps_from_our_csl_json(tmp_path):
    from readinglist.formats.csljson.writer import exporter as csl_exporter

    (item,) = csl_import(tmp_path, csl_exporter.export([paper()], EVERYTHING))["items"]
    assert item["itemType"] == "conferencePaper"
    assert item["title"] == RICH.title
    assert item["shortTitle"] == RICH.shorttitle
    assert item["publicationTitle"] == "Advances in Neural Information Processing Systems"  # the proceedings title
    assert item["conferenceName"] == "NeurIPS 2026"
    assert item["date"] == "2026"
    assert item["abstractNote"] == to_plain(RICH.abstract, scripts=True)
    assert item["citationKey"] == "rich2026"  # Zotero 7's Citation Key field
    assert item["tags"] == []  # CSL-JSON's keyword is not read
    assert item["notes"] == []  # the notes stay in Extra (note), after the reading-state lines
    lines = item["extra"].splitlines()
    assert lines[0] == "Read_Status: Read"  # (and Read_Status_Date: when the history has the change)
    assert {"Priority: 1", "Rating: 4", "Great results & clear writing."} <= set(lines)


@pytest.mark.parametrize("path", ["rdf", "csl"])
def test_seeds_abstracts_arrive_identical_through_rdf_and_csl_json(tmp_path, path):
    translator = RDF_JS if path == "rdf" else CSL_JS
    if not translator.is_file() or (path == "csl" and not all(p.is_file() for p in CSL_PARTS)):
        pytest.skip(f"{translator.name} is not in {TRANSLATORS}")
    expected = {e["id"]: e for e in json.loads(SEEDS_JSON.read_text(encoding="utf-8"))}
    if path == "rdf":
        items = rdf_import(tmp_path, (ROOT / "exports" / "neurips-2026.rdf").read_text(encoding="utf-8"))["items"]
        by_key = {i["extra"].splitlines()[0].removeprefix("Citation Key: "): i for i in items}
    else:
        by_key = {i["citationKey"]: i for i in csl_import(tmp_path, SEEDS_JSON.read_text(encoding="utf-8"))["items"]}
    assert set(by_key) == set(expected)
    for key, e in expected.items():
        assert by_key[key]["abstractNote"] == e["abstract"], key
        assert by_key[key]["title"] == e["title"], key
