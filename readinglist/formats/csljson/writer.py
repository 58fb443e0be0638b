"""CSL-JSON export, for Zotero, pandoc and other citeproc processors.

A top-level array of items, valid against the official schema (tests/data/csl-data.json),
in the order given, keys in a fixed order, two-space indented, non-ASCII kept as is, ending in a
newline, so that re-exports diff well.

Choices:

* ``abstract`` is clean Unicode (:func:`readinglist.text.to_plain`): citeproc and Zotero take
  it literally, so no LaTeX may be left in it.
* ``keyword`` holds the tags comma-separated (Zotero's CSL-JSON import ignores it; use the
  BibTeX export for Zotero tags). ``id`` and ``citation-key`` are the key (Zotero keeps
  ``citation-key``).
* Generated fields are declared in ``custom`` (the schema's place for data without a CSL
  variable): ``{"generated": ["key", "title", ...], "sources": ["seeds/x.txt:5 (paragraph 2)"]}``.
* With ``with_status``, ``note`` (which Zotero puts into Extra) carries the Zotero Reading List
  plugin's lines ``Read_Status: ...`` and ``Read_Status_Date: ...``. Status names:
  unread -> ``To Read`` (every paper in the store was put on the list to be read; ``New``
  would only say "not yet triaged"), reading -> ``In Progress``, read -> ``Read``,
  skipped -> ``Not Reading``. The date is the last status change in the paper's history
  (omitted when it never changed). Then readinglist's own ``Priority: N`` (1-3) and
  ``Rating: N`` (1-5) lines, when set: Zotero keeps them in Extra (neither is a Zotero field or
  CSL variable) and readinglist's CSL-JSON importer reads them back. With ``with_notes`` the reader's notes follow in ``note``.
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Iterator, Sequence

from ..registry import ExportOptions
from ...record import GENERATED_FIELDS, Paper, Person, Record
from ..vocabulary import CSL_TYPES, reading_state_lines
from ...gc_pause import gc_paused
from ..exporting import event_title, join_tags, rendered, shared_source, unique
from ...text.plain import to_plain



def _name(person: Person) -> dict:
    if person.literal:
        return {"literal": person.literal}
    name = {"family": person.family}
    if person.given:
        name["given"] = person.given
    return name


def record_item(record: Record, options: ExportOptions) -> dict:
    """The CSL-JSON item of one record (bibliographic data only), keys in writing order."""
    item: dict = {
        "id": record.key,
        "type": CSL_TYPES.get(record.entry_type.lower(), "document"),
        "citation-key": record.key,
        "title": record.title,
    }
    if record.shorttitle:
        item["title-short"] = record.shorttitle
    if record.authors:
        item["author"] = [_name(p) for p in record.authors]
    venue = options.config.venue_name(record.venue)
    if venue:
        item["container-title"] = venue
    event = event_title(record)
    if event and record.venue and item["type"] == "paper-conference":
        item["event-title"] = event
    if record.year:
        item["issued"] = {"date-parts": [[record.year]]}
    if record.pages:
        item["page"] = record.pages
    if record.doi:
        item["DOI"] = record.doi
    if record.url:
        item["URL"] = record.url
    if record.abstract:
        item["abstract"] = to_plain(record.abstract, scripts=True)
    if record.tags:
        item["keyword"] = join_tags(record.tags)
    generated = [name for name in GENERATED_FIELDS if name in record.generated]
    if generated or record.sources:
        custom: dict = {}
        if generated:
            custom["generated"] = generated
        if record.sources:
            custom["sources"] = [shared_source(s) for s in record.sources]
        item["custom"] = custom
    return item


def paper_item(paper: Paper, options: ExportOptions) -> dict:
    """The item of ``paper``'s record with all its tags and, as asked, status and notes."""
    record = paper.record if not paper.user_tags else paper.record.evolve(tags=paper.tags)
    item = record_item(record, options)
    lines = reading_state_lines(paper) if options.with_status else []
    if options.with_notes and paper.notes.strip():
        lines.append(paper.notes.strip())
    if lines:
        item["note"] = "\n".join(lines)
    return item


def dumps(items: list[dict]) -> str:
    """CSL-JSON text in the stable layout every export uses."""
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def indented(value, indent: str = "") -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)`` nested at ``indent``, the same text
    written faster: with an indent the standard library's encoder runs in Python, most of a
    large export's time; this writes the shapes an item has (dicts with string keys, lists,
    strings, ints) directly, with the library's own C string escaping, and leaves anything else
    to ``json.dumps``."""
    kind = type(value)
    if kind is str:
        return _encode_string(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = indent + "  "
        parts = []
        for key, item in value.items():
            if type(key) is not str:
                return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent)
            # (a string value, the most common, encoded here: no call per value)
            value_text = _encode_string(item) if type(item) is str else indented(item, inner)
            parts.append(f"{inner}{_encode_string(key)}: {value_text}")
        return "{\n" + ",\n".join(parts) + "\n" + indent + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = indent + "  "
        items = [inner + (_encode_string(item) if type(item) is str else indented(item, inner)) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    if kind is int:
        return int.__repr__(value)
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent)


_encode_string = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) escapes with


#: Items per piece of a streamed export.
CHUNK = 500


class CslJsonExporter:
    name = "csljson"
    suffixes = (".json",)
    description = "CSL-JSON for Zotero, pandoc and citeproc; --with-status adds Zotero Reading List lines"

    def export(self, papers: Sequence[Paper], options: ExportOptions) -> str:
        return "".join(self.export_chunks(papers, options))

    def export_chunks(self, papers: Sequence[Paper], options: ExportOptions) -> Iterator[str]:
        """The export in pieces of CHUNK items, joined exactly :func:`dumps`'s text (an array
        with ``indent=2``): the CLI writes each piece as it comes."""
        papers = unique(papers)
        if not papers:
            yield dumps([])
            return

        def render(start: int, stop: int) -> str:
            with gc_paused():
                items = [paper_item(p, options) for p in papers[start:stop]]
                # each item as json.dumps(indent=2) nests it inside the array: indented 2 more
                body = ",\n".join("  " + indented(item, "  ") for item in items)
            return ("[\n" if start == 0 else ",\n") + body

        yield from rendered(len(papers), CHUNK, render, processes=options.processes)
        yield "\n]\n"


exporter = CslJsonExporter()
