"""Everything a user typed is inert in every export (issue 29, class 1): one table over every
user field and every format. Per format, what "inert" means:

* Markdown: rendered by markdown-it with raw HTML *on*, it holds no element or attribute outside
  the safe set (no script, no on* handler, no javascript: link), and an open code fence in one
  field never swallows what follows (every paper is still a list item).
* HTML page: the only scripts are the page's own two; no element carries an on* handler; the
  typed text reaches the page only inside its JSON data.
* BibTeX: bibtexparser and pybtex read every entry back, with no failed block.
* CSL-JSON: valid JSON with every item.
* Zotero RDF: well-formed XML that rdflib reads, with every item.
"""

from __future__ import annotations

import json
import xml.dom.minidom

import pytest

from readinglist.config import default_config
from readinglist.formats.registry import ExportOptions, find_exporter
from readinglist.record import Paper, Record
from readinglist.store.lists import Entry, Item, ReadingList, Resolved, Section

from helpers import StartTags, assert_inert, render_markdown_it

CONFIG = default_config()

PAYLOADS = {
    "script": "<script>alert(1)</script> <img src=x onerror=alert(1)>",
    "open backtick fence": "intro\n\n```\nunclosed",
    "open tilde fence": "intro\n\n~~~~ python\nunclosed",
    "javascript link": "[x](javascript:alert(1)) [y][r]\n\n[r]: javascript:alert(1)",
    "html comment and details": "<!-- x --> </details> <details><summary>s",
    "tex and braces": "} \\end{document} @comment{ %\\input{/etc/passwd}",
    "xml": "]]> <!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]> &e; \x0b",
}

#: field -> how a payload gets into it
FIELDS = ("title", "abstract", "notes", "user tag", "list title", "list introduction", "section title", "comment")

FORMATS = ("markdown", "html", "bibtex", "csljson", "zotero")
LIST_FIELDS = {"list title", "list introduction", "section title", "comment"}
LIST_FORMATS = {"markdown", "html"}  # the formats that show a curated list's own text


def _papers(field: str, payload: str) -> list[Paper]:
    papers = []
    for i in range(3):
        record = Record(
            key=f"paper{i}2026",
            title=payload if field == "title" else f"Plain title {i}",
            abstract=payload if field == "abstract" else f"An abstract about topic {i}.",
            venue="NeurIPS",
            year=2026,
            tags=("llm",),
        )
        papers.append(
            Paper(record, notes=payload if field == "notes" else "", user_tags=(payload,) if field == "user tag" else ())
        )
    return papers


def _reading_list(field: str, payload: str, papers: list[Paper]) -> Resolved:
    section = payload if field == "section title" else "Week 1"
    comment = payload if field == "comment" else "start here"
    entries = tuple(Entry(p.key, comment) for p in papers)
    lst = ReadingList(
        name="week",
        title=payload if field == "list title" else "Week",
        introduction=payload if field == "list introduction" else "Read these first.",
        sections=(Section(section, entries[:2]), Section("Later", entries[2:])),
    )
    items = tuple(Item(section if i < 2 else "Later", e, p) for i, (e, p) in enumerate(zip(entries, papers)))
    return Resolved(lst, items)


def _check(fmt: str, text: str, papers: list[Paper], payload: str) -> None:
    keys = [p.key for p in papers]
    if fmt == "markdown":
        html = render_markdown_it(text)
        assert_inert(html)
        assert html.count('type="checkbox"') + html.count("[ ]") >= len(keys) or all(html.count(f"Plain title {i}") for i in range(3)), html
        outside_code = html
        for start, end in (("<pre>", "</pre>"), ("<code>", "</code>")):
            while start in outside_code:
                a = outside_code.index(start)
                b = outside_code.find(end, a)
                outside_code = outside_code[:a] + outside_code[(b + len(end)) if b >= 0 else len(outside_code) :]
        for key_title in ("Plain title 0", "Plain title 1", "Plain title 2"):
            if key_title in text:
                assert key_title in outside_code, f"{key_title!r} was swallowed by a code block"
    elif fmt == "html":
        parser = StartTags()
        parser.feed(text)
        scripts = [attrs for tag, attrs in parser.found if tag == "script"]
        assert len(scripts) == 2 and scripts[0].get("type") == "application/json", scripts
        for tag, attrs in parser.found:
            assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        body = text.split('<script type="application/json"', 1)[0]
        assert "<img src=x" not in body and "<script>alert" not in body
    elif fmt == "bibtex":
        import bibtexparser
        from pybtex.database import parse_string

        library = bibtexparser.parse_string(text)
        assert not library.failed_blocks, [b.error for b in library.failed_blocks]
        assert sorted(e.key for e in library.entries) == sorted(keys)
        assert sorted(parse_string(text, "bibtex").entries) == sorted(keys)
    elif fmt == "csljson":
        assert sorted(item["id"] for item in json.loads(text)) == sorted(keys)
    elif fmt == "zotero":
        import rdflib

        xml.dom.minidom.parseString(text.encode("utf-8"))  # well-formed
        graph = rdflib.Graph().parse(data=text, format="xml")
        assert len(graph) > 0


CASES = [(fmt, field) for fmt in FORMATS for field in FIELDS if field not in LIST_FIELDS or fmt in LIST_FORMATS]


@pytest.mark.parametrize("payload_name", list(PAYLOADS))
@pytest.mark.parametrize(("fmt", "field"), CASES)
def test_every_user_field_is_inert_in_every_format(fmt, field, payload_name):
    payload = PAYLOADS[payload_name]
    papers = _papers(field, payload)
    reading_list = _reading_list(field, payload, papers) if field in LIST_FIELDS else None
    options = ExportOptions(config=CONFIG, with_notes=True, with_status=True, reading_list=reading_list)
    text = find_exporter(fmt).export(papers, options)
    _check(fmt, text, papers, payload)
