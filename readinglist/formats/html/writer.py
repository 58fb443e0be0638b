"""A self-contained HTML reading list: one file, no network, readable on a phone.

``readinglist export -f html -o reading-list.html`` (or ``--list NAME``) writes one page with
inline CSS and JavaScript: a search box, filters by tag, status, venue and year, abstracts
folded, each paper's reading status as a mark (a tick when read, half-filled while reading),
its BibTeX one click away (copied to the clipboard), and a progress picture with a legend
(papers read over time, from the status history, as SVG; read/total per tag as bars), drawn by
``charts.js``. Dark mode follows the system (``prefers-color-scheme``).

The summary, the charts and the per-tag bars follow the filters (they describe the papers
shown); the filters are kept in the URL's fragment (``#tag=llm&status=read``), so a reload, a
bookmark or a shared link shows the same selection.

Safety: every user-supplied string (titles, keys, tags, notes, comments, the list's title and
introduction) reaches the page either escaped by :func:`html.escape` (the static parts) or as
data: the papers are embedded as JSON in ``<script type="application/json">`` with ``<``,
``>`` and ``&`` written as ``\\u003c``-style escapes, and the page's script puts them in the DOM
with ``textContent`` only, never as markup. Notes and the introduction are the reader's
Markdown: :mod:`.markup` turns them into a tree of a few allowed elements (raw HTML stays
text), which the script builds element by element. Links are made only from ``http(s)`` URLs,
DOIs and (in Markdown) ``mailto:``. A Content-Security-Policy allows only the page's own script and style (by hash) and
no network at all, so even a mistake in escaping could neither run a script nor fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import Counter
from functools import cache
from html import escape
from importlib import resources
from collections.abc import Sequence

from ...record import Paper
from ...gc_pause import gc_paused
from ..exporting import status_date, unique
from ..registry import ExportOptions
from .markup import markdown_tree, tree_html

_SAFE_URL = re.compile(r"^https?://[^\s\"'<>]+$", re.I)
STATUS_LABELS = {"unread": "to read", "reading": "reading", "read": "read", "skipped": "skipped"}


@cache
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def json_for_script(data) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&`` in it
    (so no ``</script>`` or ``<!--`` can end or confuse the element), nor U+2028/U+2029."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def safe_url(url: str | None) -> str | None:
    """``url`` when it is a plain http(s) URL (never ``javascript:``, ``data:``...), else None."""
    return url if url and _SAFE_URL.match(url.strip()) else None


def _bibtex(papers: list[Paper], options: ExportOptions) -> dict[str, str]:
    """Each paper's BibTeX entry for citing, as ``readinglist export -f bibtex`` writes it (its
    generated-fields comment included) but without the abstract, which the page shows anyway:
    it would double the page's size. One export call for all papers, split at the blank lines
    between entries (no field value holds a blank line once abstracts are out); per paper if
    the split does not give one entry each."""
    from ..bibtex.writer import exporter as bibtex
    from ..registry import ExportOptions as Options

    plain = Options(config=options.config)
    short = [p.evolve(record=p.record.evolve(abstract="")) for p in papers]
    parts = bibtex.export(short, plain).strip().split("\n\n") if short else []
    if len(parts) == len(short) and all(f"{{{p.key}," in part for p, part in zip(short, parts)):
        return {p.key: part + "\n" for p, part in zip(short, parts)}
    return {p.key: bibtex.export([p], plain).strip() + "\n" for p in short}


def _paper_data(paper: Paper, bib: str, options: ExportOptions, section: str | None, comment: str, part: int = 0) -> dict:
    from ...text import to_plain

    r = paper.record
    finished = status_date(paper) if paper.status == "read" else None
    d = {
        "key": r.key,
        "title": r.title or "(untitled)",
        "venue": r.venue or "",
        "year": r.year,
        "status": paper.status,
        "tags": list(paper.tags),
        "abstract": to_plain(r.abstract) if r.abstract else "",
        "bibtex": bib,
    }
    if r.authors:
        d["authors"] = "; ".join(str(a) for a in r.authors)
    if r.is_generated:
        d["generated"] = True
    if paper.priority is not None:
        d["priority"] = paper.priority
    if paper.rating is not None:
        d["rating"] = paper.rating
    if finished:
        d["finished"] = finished
    url = safe_url(r.url) or (f"https://doi.org/{r.doi}" if r.doi and safe_url(f"https://doi.org/{r.doi}") else None)
    if url:
        d["url"] = url
    if options.with_notes and paper.notes.strip():
        d["notes"] = markdown_tree(paper.notes, shift=2)  # under the page's h1 and sections' h2
    if section is not None:
        d["section"] = section
        d["part"] = part  # the section's position: two sections may share a title
    if comment:
        d["comment"] = comment
    return d


def _summary(counts: Counter, total: int) -> str:
    """What the page's script writes when no filter is set (the same words)."""
    parts = [f"{counts['read']} read", f"{counts['reading']} reading", f"{counts['unread']} to read"]
    if counts["skipped"]:
        parts.append(f"{counts['skipped']} skipped")
    return f"{total} papers: " + ", ".join(parts) + "."


def render(papers: Sequence[Paper], options: ExportOptions) -> str:
    papers = unique(papers)
    resolved = options.reading_list
    sections: dict[str, tuple[str, str, int]] = {}
    intro = ""
    title = options.title or "Reading list"
    if resolved is not None:
        lst = resolved.list  # type: ignore[attr-defined]
        title = options.title or lst.heading
        intro = lst.introduction
        for item in resolved.items:  # type: ignore[attr-defined]
            sections.setdefault(item.paper.key, (item.section, item.entry.comment, item.index))
    bib = _bibtex(papers, options)
    generated = sum(p.record.is_generated for p in papers)
    data = {
        "title": title,
        "curated": resolved is not None,
        # "all": said once in the header; "some": said on each card whose title is generated
        "generated": "all" if papers and generated == len(papers) else "some" if generated else "",
        "papers": [
            _paper_data(p, bib[p.key], options, *(sections.get(p.key, (None, "", 0)) if resolved is not None else (None, "", 0)))
            for p in papers
        ],
    }
    counts = Counter(p.status for p in papers)
    css = _asset("page.css")
    js = _asset("charts.js") + _asset("page.js")  # one inline script (one CSP hash)
    csp = (
        "default-src 'none'; img-src data:; "
        f"style-src {_csp_hash(css)}; script-src {_csp_hash(js)}; "
        "connect-src 'none'; form-action 'none'; base-uri 'none'"
    )
    all_generated = (
        '<p class="muted" id="generated">Every title here was generated from its abstract by readinglist '
        "(<code>readinglist reconcile</code> replaces them with the official ones).</p>"
        if data["generated"] == "all" else ""
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(csp)}">\n'
        '<meta name="color-scheme" content="light dark">\n'
        '<meta name="generator" content="readinglist">\n'
        f"<title>{escape(title)}</title>\n<style>{css}</style>\n</head>\n<body>\n"
        f'<header><h1 id="title">{escape(title)}</h1>'
        f'<p class="summary" id="summary" aria-live="polite">{escape(_summary(counts, len(papers)))}</p>'
        + all_generated
        + (f'<div class="intro" id="intro">{tree_html(markdown_tree(intro, shift=1))}</div>' if intro.strip() else "")
        + "</header>\n"
        '<section class="progress" aria-label="Reading progress">'
        '<figure><figcaption id="cap-time">Papers read over time</figcaption><div id="chart-time"></div></figure>'
        '<figure><figcaption id="cap-tags">Progress per tag</figcaption><div id="chart-tags" class="tagbars"></div></figure>'
        '<p class="legend" id="legend"><span class="swatch done"></span>read '
        '<span class="swatch doing"></span>reading <span class="swatch todo"></span>to read'
        + (" or skipped" if counts["skipped"] else "")
        + "</p></section>\n"
        '<nav class="filters" aria-label="Filters">'
        '<input type="search" id="q" placeholder="Search titles, abstracts, keys, tags…" aria-label="Search" autocomplete="off">'
        '<select id="f-status" aria-label="Status"><option value="">any status</option></select>'
        '<select id="f-venue" aria-label="Venue"><option value="">any venue</option></select>'
        '<select id="f-year" aria-label="Year"><option value="">any year</option></select>'
        '<button type="button" id="clear">clear</button>'
        '<div class="tagstrip" id="tagstrip"><div id="tags" class="tags" aria-label="Tags"></div></div>'
        '<p id="count" class="muted" aria-live="polite"></p>'
        "</nav>\n"
        '<main id="papers"></main>\n'
        "<noscript><p>The list needs JavaScript to show its papers.</p></noscript>\n"
        f'<script type="application/json" id="rl-data">{json_for_script(data)}</script>\n'
        f"<script>{js}</script>\n"
        "</body>\n</html>\n"
    )


class HtmlExporter:
    name = "html"
    suffixes = (".html", ".htm")
    description = "HTML reading list: one self-contained page (search, filters, progress, BibTeX)"

    def export(self, papers: Sequence[Paper], options: ExportOptions) -> str:
        with gc_paused():
            return render(papers, options)


exporter = HtmlExporter()
