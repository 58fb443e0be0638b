"""Curated reading lists in Zotero RDF: a collection each, with everything Zotero can hold.

Zotero's RDF import (``RDF.js`` in zotero/translators) reads a collection as a ``z:Collection``
whose ``dcterms:hasPart`` children are items, standalone notes (a ``bib:Memo`` nothing else
points to) or other ``z:Collection`` nodes, which become subcollections; a collection that
nothing points to is a top-level one. So a list is written as::

    <z:Collection rdf:about="#collection_list_wk12">          the list (its title)
        <dcterms:hasPart rdf:resource="#note_list_wk12"/>      its introduction, as a note
        <dcterms:hasPart rdf:resource="#item_x2026"/>          papers before the first heading
        <dcterms:hasPart rdf:resource="#collection_list_wk12_1"/>
    </z:Collection>
    <z:Collection rdf:about="#collection_list_wk12_1">        one subcollection per section
        <dc:title>Start here</dc:title>
        <dcterms:hasPart rdf:resource="#item_canvit2026"/>
    </z:Collection>
    <bib:Memo rdf:about="#note_list_wk12"><rdf:value>(HTML)</rdf:value></bib:Memo>

and each paper's comment becomes a child note of the paper (``dcterms:isReferencedBy`` from the
item, see :func:`comment_notes`), which starts with the comment and names the list and section.

Zotero keeps no order inside a collection and sorts subcollections by name, so the list's note
also holds the reading order: the introduction (the curator's Markdown, rendered as for the
reader's notes), then each section's papers in order with their comments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape as html_escape
from typing import TYPE_CHECKING
from urllib.parse import quote
from xml.sax.saxutils import quoteattr

if TYPE_CHECKING:  # pragma: no cover
    from ...store.lists import Item, Resolved

#: A list to write, with its collection's name (None: the list's own title).
Curated = tuple["Resolved", "str | None"]


@dataclass(frozen=True, slots=True)
class ListNote:
    """A comment's child note: its resource and its HTML."""

    about: str
    html: str


def _id(name: str) -> str:
    return quote(name, safe="-._~")


def _sections(resolved: Resolved, keys: set[str]) -> list[tuple[str, list[Item]]]:
    """The list's sections in order, each with its items whose paper is exported."""
    out: list[tuple[str, list[Item]]] = []
    for item in resolved.items:
        if item.paper.key not in keys:
            continue
        if not out or out[-1][0] != item.section:
            out.append((item.section, []))
        out[-1][1].append(item)
    return out


def _heading(resolved: Resolved, name: str | None) -> str:
    return name or resolved.list.heading


def comment_notes(lists: Sequence[Curated], keys: set[str]) -> dict[str, list[ListNote]]:
    """Each exported paper's comments in ``lists`` ((resolved list, collection name) pairs) as
    child notes, by paper key."""
    out: dict[str, list[ListNote]] = {}
    for resolved, name in lists:
        heading = _heading(resolved, name)
        for n, (section, items) in enumerate(_sections(resolved, keys)):
            for i, item in enumerate(items):
                comment = item.entry.comment.strip()
                if not comment:
                    continue
                where = f"In the reading list “{heading}”" + (f", section “{section}”" if section else "")
                about = f"#item_{_id(item.paper.key)}-comment-{_id(resolved.list.name)}-{n}-{i}"
                html = f"<p>{html_escape(comment)}</p>\n<p><em>{html_escape(where)}.</em></p>"
                out.setdefault(item.paper.key, []).append(ListNote(about, html))
    return out


def _order_html(resolved: Resolved, heading: str, sections: list[tuple[str, list[Item]]], note_html: Callable[[str], str]) -> str:
    parts = [f"<h1>{html_escape(heading)}</h1>"]
    intro = resolved.list.introduction.strip()
    if intro:
        parts.append(note_html(intro))
    parts.append("<h2>Reading order</h2>")
    for section, items in sections:
        if section:
            parts.append(f"<h3>{html_escape(section)}</h3>")
        rows = []
        for item in items:
            row = f"{html_escape(item.paper.record.title or item.paper.key)} (<code>{html_escape(item.paper.key)}</code>)"
            if item.entry.comment.strip():
                row += f": <em>{html_escape(item.entry.comment.strip())}</em>"
            rows.append(f"<li>{row}</li>")
        parts.append("<ol>" + "".join(rows) + "</ol>")
    return "\n".join(parts)


def collections(
    lists: Sequence[Curated], keys: set[str], text: Callable[[str], str], resource: Callable[[str], str], note_html: Callable[[str], str]
) -> list[str]:
    """The RDF/XML lines of ``lists``' collections, subcollections and list notes.

    ``text`` escapes XML character data, ``resource(key)`` is an item's ``rdf:about``,
    ``note_html(markdown)`` renders the introduction (the writer's own helpers)."""
    out: list[str] = []
    for resolved, name in lists:
        heading = _heading(resolved, name)
        base = f"#collection_list_{_id(resolved.list.name)}"
        note = f"#note_list_{_id(resolved.list.name)}"
        sections = _sections(resolved, keys)
        subs: list[tuple[str, str, list[Item]]] = []
        out += [f"    <z:Collection rdf:about={quoteattr(base)}>", f"        <dc:title>{text(heading)}</dc:title>",
                f"        <dcterms:hasPart rdf:resource={quoteattr(note)}/>"]
        for n, (section, items) in enumerate(sections, 1):
            if section:
                subs.append((f"{base}_{n}", section, items))
                out.append(f"        <dcterms:hasPart rdf:resource={quoteattr(base + '_' + str(n))}/>")
            else:
                out += _parts(items, resource)
        out.append("    </z:Collection>")
        for about, section, items in subs:
            out += [f"    <z:Collection rdf:about={quoteattr(about)}>", f"        <dc:title>{text(section)}</dc:title>"]
            out += _parts(items, resource)
            out.append("    </z:Collection>")
        out += [f"    <bib:Memo rdf:about={quoteattr(note)}>",
                f"        <rdf:value>{text(_order_html(resolved, heading, sections, note_html))}</rdf:value>",
                "    </bib:Memo>"]
    return out


def _parts(items: Iterable[Item], resource: Callable[[str], str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in items:
        if item.paper.key not in seen:  # a paper listed twice in a section is in it once
            seen.add(item.paper.key)
            out.append(f"        <dcterms:hasPart rdf:resource={quoteattr(resource(item.paper.key))}/>")
    return out
