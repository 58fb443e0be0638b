"""Zotero RDF export: the one file that brings everything into Zotero.

Written the way Zotero's own "Zotero RDF" export translator writes items (same namespaces
and prefixes, same shapes), so that Zotero's RDF import reads each piece back::

    <rdf:Description rdf:about="#item_canvit2026">
        <z:itemType>conferencePaper</z:itemType>
        <dcterms:isPartOf><bib:Journal><dc:title>Advances in ...</dc:title></bib:Journal></dcterms:isPartOf>
        <dc:subject>computer-vision</dc:subject>                    (one per tag)
        <bib:presentedAt><bib:Conference><dc:title>NeurIPS 2026</dc:title></bib:Conference></bib:presentedAt>
        <dc:title>CanViT: ...</dc:title>
        <z:shortTitle>CanViT</z:shortTitle>
        <dcterms:abstract>... (clean Unicode)</dcterms:abstract>
        <dc:date>2026</dc:date>
        <dc:description>Citation Key: canvit2026 ...</dc:description>   (Zotero's Extra)
        <dcterms:isReferencedBy rdf:resource="#item_canvit2026-note"/> (with notes)
    </rdf:Description>
    <bib:Memo rdf:about="#item_canvit2026-note"><rdf:value>&lt;p&gt;...</rdf:value></bib:Memo>
    <z:Collection rdf:about="#collection_1"><dc:title>...</dc:title><dcterms:hasPart .../></z:Collection>

* **Extra** (``dc:description``) always starts with ``Citation Key: KEY`` (Zotero 7 and Better
  BibTeX take it as the item's citation key). With ``with_status`` it adds the Zotero Reading
  List plugin's ``Read_Status:`` and ``Read_Status_Date:`` lines (the same as the CSL-JSON
  export, see :mod:`readinglist.formats.csljson.writer`) and readinglist's own ``Priority: N``
  (1-3) and ``Rating: N`` (1-5) lines, which Zotero keeps as they are and readinglist's CSL-JSON
  importer reads back.
* **Notes** (``with_notes``) become one child note per paper: a ``bib:Memo`` whose ``rdf:value``
  is the HTML Zotero stores notes as: the reader's Markdown rendered, raw HTML shown as text,
  ``javascript:`` and other unsafe link targets dropped.
* A **collection** (``options.collection``, set by the CLI for a filtered export or ``--title``)
  becomes a ``z:Collection`` holding every exported item by ``dcterms:hasPart``.
* A **curated list** (``options.reading_list``, ``export --list``; and every list of the store,
  ``options.reading_lists``, when the whole library is exported) becomes a collection with a
  subcollection per section, a standalone note with its introduction and reading order, and a
  child note per commented paper (:mod:`.lists`).
* Characters XML 1.0 forbids (C0 controls other than tab and newline) are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import quote
from xml.sax.saxutils import escape, quoteattr

from ...record import Paper, Person
from ..vocabulary import ZOTERO_TYPES, reading_state_lines
from ...gc_pause import gc_paused
from ..exporting import event_title, unique
from ..registry import ExportOptions
from .lists import Curated, ListNote, collections, comment_notes

NAMESPACES = (
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    ("z", "http://www.zotero.org/namespaces/export#"),
    ("dcterms", "http://purl.org/dc/terms/"),
    ("bib", "http://purl.org/net/biblio#"),
    ("foaf", "http://xmlns.com/foaf/0.1/"),
    ("link", "http://purl.org/rss/1.0/modules/link/"),
    ("dc", "http://purl.org/dc/elements/1.1/"),
    ("prism", "http://prismstandard.org/namespaces/1.2/basic/"),
)

#: Zotero types the RDF translator writes with an rdf:type of their own.
_RDF_TYPES = {
    "journalArticle": "bib:Article",
    "book": "bib:Book",
    "bookSection": "bib:BookSection",
    "thesis": "bib:Thesis",
    "report": "bib:Report",
    "manuscript": "bib:Manuscript",
    "webpage": "bib:Document",
}
#: The container each type's publication title goes into (as the translator does).
_CONTAINERS = {"conferencePaper": "bib:Journal", "journalArticle": "bib:Journal", "bookSection": "bib:Book"}

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(s: str) -> str:
    """XML character data: escaped, without the characters XML 1.0 cannot carry."""
    return escape(_NOT_XML.sub("", s.replace("\r\n", "\n").replace("\r", "\n")))


def _resource(key: str, suffix: str = "") -> str:
    return "#item_" + quote(key + suffix, safe="-._~")


def note_html(notes: str) -> str:
    """A note as the HTML Zotero stores: the reader's Markdown rendered (headings, lists,
    emphasis, links, code), raw HTML shown as text and unsafe link targets dropped
    (:func:`readinglist.text.note_markdown`, then markdown-it with HTML off)."""
    from markdown_it import MarkdownIt

    from ...text import note_markdown

    return MarkdownIt("commonmark", {"html": False}).render(note_markdown(notes)).strip()


def extra_lines(paper: Paper, options: ExportOptions) -> list[str]:
    """The lines of Zotero's Extra field for ``paper``."""
    return [f"Citation Key: {paper.key}"] + (reading_state_lines(paper) if options.with_status else [])


def _creator(person: Person, ind: str) -> list[str]:
    out = [f"{ind}<rdf:li>", f"{ind}    <foaf:Person>"]
    if person.literal:
        out.append(f"{ind}        <foaf:surname>{_text(person.literal)}</foaf:surname>")
    else:
        out.append(f"{ind}        <foaf:surname>{_text(person.family)}</foaf:surname>")
        if person.given:
            out.append(f"{ind}        <foaf:givenName>{_text(person.given)}</foaf:givenName>")
    out += [f"{ind}    </foaf:Person>", f"{ind}</rdf:li>"]
    return out


def _item(paper: Paper, options: ExportOptions, comments: Sequence[ListNote] = ()) -> list[str]:
    from ...text import to_plain

    record = paper.record
    ztype = ZOTERO_TYPES.get(record.entry_type.lower(), "document")
    about = quoteattr(_resource(paper.key))
    rdf_type = _RDF_TYPES.get(ztype)
    out = [f"    <{rdf_type} rdf:about={about}>" if rdf_type else f"    <rdf:Description rdf:about={about}>"]
    out.append(f"        <z:itemType>{ztype}</z:itemType>")
    venue = options.config.venue_name(record.venue)
    container = _CONTAINERS.get(ztype)
    if container and (venue or record.doi):
        out += ["        <dcterms:isPartOf>", f"            <{container}>"]
        if venue:
            out.append(f"                <dc:title>{_text(venue)}</dc:title>")
        if record.doi:
            out.append(f"                <dc:identifier>DOI {_text(record.doi)}</dc:identifier>")
        out += [f"            </{container}>", "        </dcterms:isPartOf>"]
    if record.authors:
        out += ["        <bib:authors>", "            <rdf:Seq>"]
        for person in record.authors:
            out += _creator(person, " " * 16)
        out += ["            </rdf:Seq>", "        </bib:authors>"]
    if options.with_notes and paper.notes.strip():
        out.append(f"        <dcterms:isReferencedBy rdf:resource={quoteattr(_resource(paper.key, '-note'))}/>")
    out += [f"        <dcterms:isReferencedBy rdf:resource={quoteattr(n.about)}/>" for n in comments]
    for tag in paper.tags:
        out.append(f"        <dc:subject>{_text(tag)}</dc:subject>")
    event = event_title(record)
    if ztype == "conferencePaper" and event and record.venue:
        out += [
            "        <bib:presentedAt>",
            "            <bib:Conference>",
            f"                <dc:title>{_text(event)}</dc:title>",
            "            </bib:Conference>",
            "        </bib:presentedAt>",
        ]
    if record.url:
        out += [
            "        <dc:identifier>",
            "            <dcterms:URI>",
            f"                <rdf:value>{_text(record.url)}</rdf:value>",
            "            </dcterms:URI>",
            "        </dc:identifier>",
        ]
    out.append(f"        <dc:title>{_text(record.title)}</dc:title>")
    if record.shorttitle:
        out.append(f"        <z:shortTitle>{_text(record.shorttitle)}</z:shortTitle>")
    if record.abstract:
        out.append(f"        <dcterms:abstract>{_text(to_plain(record.abstract, scripts=True))}</dcterms:abstract>")
    if record.year:
        out.append(f"        <dc:date>{record.year}</dc:date>")
    if record.pages:
        out.append(f"        <bib:pages>{_text(record.pages)}</bib:pages>")
    out.append(f"        <dc:description>{_text(chr(10).join(extra_lines(paper, options)))}</dc:description>")
    out.append(f"    </{rdf_type}>" if rdf_type else "    </rdf:Description>")
    if options.with_notes and paper.notes.strip():
        out += [
            f"    <bib:Memo rdf:about={quoteattr(_resource(paper.key, '-note'))}>",
            f"        <rdf:value>{_text(note_html(paper.notes))}</rdf:value>",
            "    </bib:Memo>",
        ]
    for n in comments:
        out += [f"    <bib:Memo rdf:about={quoteattr(n.about)}>", f"        <rdf:value>{_text(n.html)}</rdf:value>", "    </bib:Memo>"]
    return out


def _curated(options: ExportOptions) -> list[Curated]:
    """The curated lists to write as collections, each with its collection's name (None: the
    list's own title): the exported list (named by ``--title`` when given), or every list."""
    if options.reading_list is not None:
        return [(options.reading_list, options.collection)]  # type: ignore[list-item]
    return [(resolved, None) for resolved in options.reading_lists]


class ZoteroRdfExporter:
    name = "zotero"
    suffixes = (".rdf",)
    description = "Zotero RDF: tags, citation key, reading status (--with-status), child notes (--with-notes), a collection"

    def export(self, papers: Sequence[Paper], options: ExportOptions) -> str:
        with gc_paused():
            papers = unique(papers)
            out = ["<rdf:RDF"]
            out += [f" xmlns:{prefix}={quoteattr(uri)}" for prefix, uri in NAMESPACES]
            out[-1] += ">"
            keys = {p.key for p in papers}
            curated = _curated(options)
            comments = comment_notes(curated, keys)
            for paper in papers:
                out += _item(paper, options, comments.get(paper.key, ()))
            out += collections(curated, keys, _text, _resource, note_html)
            name = getattr(options, "collection", None)
            if name and options.reading_list is None:  # a list's collection is written above
                out += ['    <z:Collection rdf:about="#collection_1">', f"        <dc:title>{_text(name)}</dc:title>"]
                out += [f"        <dcterms:hasPart rdf:resource={quoteattr(_resource(p.key))}/>" for p in papers]
                out.append("    </z:Collection>")
            out.append("</rdf:RDF>")
            return "\n".join(out) + "\n"


exporter = ZoteroRdfExporter()
