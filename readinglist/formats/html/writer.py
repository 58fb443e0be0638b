"""A self-contained HTML reading list: one file, no network, readable on a phone.

``readinglist export -f html -o reading-list.html`` (or ``--list NAME``) writes one page with
inline CSS and JavaScript: a search box, filters by tag, status, venue and year, abstracts
folded, each paper's reading status as a checkbox (ticked when read, half-ticked while
reading), its BibTeX one click away (copied to the clipboard), and a progress picture (papers
read over time, from the status history, and progress per tag) drawn as inline SVG. Dark mode
follows the system (``prefers-color-scheme``).

Safety: every user-supplied string (titles, keys, tags, notes, comments, the list's title and
introduction) reaches the page either escaped by :func:`html.escape` (the static parts and the
SVG) or as data: the papers are embedded as JSON in ``<script type="application/json">`` with
``<``, ``>`` and ``&`` written as ``\\u003c``-style escapes, and the page's script puts them in
the DOM with ``textContent`` only, never as markup. Links are made only from ``http(s)`` URLs
and DOIs. A Content-Security-Policy allows only the page's own script and style (by hash) and
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
        d["notes"] = paper.notes.strip()
    if section is not None:
        d["section"] = section
        d["part"] = part  # the section's position: two sections may share a title
    if comment:
        d["comment"] = comment
    return d


# --------------------------------------------------------------------------- progress picture (SVG)


def _read_over_time(papers: Sequence[Paper]) -> str:
    """A step line of the number of papers read, by the date each was finished."""
    dates = sorted(d[:10] for p in papers if p.status == "read" for d in [status_date(p)] if d)
    undated = sum(p.status == "read" for p in papers) - len(dates)
    w, h, pad_l, pad_b, pad_t, pad_r = 320, 120, 30, 22, 10, 10
    parts = [f'<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-labelledby="ch-time">',
             f'<title id="ch-time">Papers read over time: {len(dates) + undated} of {len(papers)}</title>']
    if not dates:
        parts.append(f'<text x="{w / 2}" y="{h / 2}" text-anchor="middle" class="muted">no paper read yet</text></svg>')
        return "".join(parts)
    from datetime import date

    days = [date.fromisoformat(d) for d in dates]
    first, last = days[0], days[-1]
    span = max((last - first).days, 1)
    top = len(dates) + undated
    x = lambda day: pad_l + (w - pad_l - pad_r) * ((day - first).days / span)  # noqa: E731
    y = lambda n: h - pad_b - (h - pad_b - pad_t) * (n / max(top, 1))  # noqa: E731
    points = [(x(first), y(undated))]
    count = undated
    for day in days:
        count += 1
        points.append((x(day), points[-1][1]))
        points.append((x(day), y(count)))
    points.append((w - pad_r, y(count)))
    path = "M" + " L".join(f"{px:.1f},{py:.1f}" for px, py in points)
    parts += [
        f'<line x1="{pad_l}" y1="{h - pad_b}" x2="{w - pad_r}" y2="{h - pad_b}" class="axis"/>',
        f'<line x1="{pad_l}" y1="{pad_t}" x2="{pad_l}" y2="{h - pad_b}" class="axis"/>',
        f'<path d="{path}" class="line"/>',
        f'<text x="{pad_l - 4}" y="{pad_t + 8}" text-anchor="end" class="muted">{top}</text>',
        f'<text x="{pad_l - 4}" y="{h - pad_b}" text-anchor="end" class="muted">0</text>',
        f'<text x="{pad_l}" y="{h - 6}" class="muted">{escape(first.isoformat())}</text>',
        f'<text x="{w - pad_r}" y="{h - 6}" text-anchor="end" class="muted">{escape(last.isoformat())}</text>',
        "</svg>",
    ]
    return "".join(parts)


def _per_tag(papers: Sequence[Paper], limit: int = 10) -> str:
    """Horizontal bars: read / reading / total for the most common tags."""
    totals: Counter = Counter()
    read: Counter = Counter()
    reading: Counter = Counter()
    for p in papers:
        for t in p.tags:
            totals[t] += 1
            read[t] += p.status == "read"
            reading[t] += p.status == "reading"
    tags = sorted(totals, key=lambda t: (-totals[t], t))[:limit]
    row, label_w, w = 16, 110, 320
    h = max(row * len(tags), row)
    parts = [f'<svg class="chart" viewBox="0 0 {w} {h + 4}" role="img" aria-labelledby="ch-tags">',
             '<title id="ch-tags">Progress per tag (read, reading, to read)</title>']
    if not tags:
        parts.append(f'<text x="{w / 2}" y="{row}" text-anchor="middle" class="muted">no tags</text>')
    biggest = max((totals[t] for t in tags), default=1)
    bar_w = w - label_w - 40
    for i, t in enumerate(tags):
        y = i * row + 2
        full = bar_w * totals[t] / biggest
        r_w = full * read[t] / totals[t]
        g_w = full * reading[t] / totals[t]
        label = t if len(t) <= 16 else t[:15] + "…"
        parts += [
            f'<text x="{label_w - 6}" y="{y + 11}" text-anchor="end" class="label">{escape(label)}</text>',
            f'<rect x="{label_w}" y="{y + 2}" width="{full:.1f}" height="11" class="todo"/>',
            f'<rect x="{label_w}" y="{y + 2}" width="{r_w:.1f}" height="11" class="done"/>',
            f'<rect x="{label_w + r_w:.1f}" y="{y + 2}" width="{g_w:.1f}" height="11" class="doing"/>',
            f'<text x="{label_w + full + 4:.1f}" y="{y + 11}" class="muted">{read[t]}/{totals[t]}</text>',
        ]
    parts.append("</svg>")
    return "".join(parts)


# --------------------------------------------------------------------------- the page


def _intro_html(text: str) -> str:
    """The list's introduction as escaped paragraphs (its Markdown is shown as written)."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    return "".join(f"<p>{escape(p)}</p>" for p in paragraphs)


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
    data = {
        "title": title,
        "curated": resolved is not None,
        "papers": [
            _paper_data(p, bib[p.key], options, *(sections.get(p.key, (None, "", 0)) if resolved is not None else (None, "", 0)))
            for p in papers
        ],
    }
    counts = Counter(p.status for p in papers)
    css = _asset("page.css")
    js = _asset("page.js")
    csp = (
        "default-src 'none'; img-src data:; "
        f"style-src {_csp_hash(css)}; script-src {_csp_hash(js)}; "
        "connect-src 'none'; form-action 'none'; base-uri 'none'"
    )
    summary = f"{len(papers)} papers: {counts['read']} read, {counts['reading']} reading, {counts['unread']} to read"
    if counts["skipped"]:
        summary += f", {counts['skipped']} skipped"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(csp)}">\n'
        '<meta name="color-scheme" content="light dark">\n'
        '<meta name="generator" content="readinglist">\n'
        f"<title>{escape(title)}</title>\n<style>{css}</style>\n</head>\n<body>\n"
        f'<header><h1 id="title">{escape(title)}</h1>'
        f'<p class="summary" id="summary">{escape(summary)}.</p>'
        + (f'<div class="intro">{_intro_html(intro)}</div>' if intro.strip() else "")
        + "</header>\n"
        '<section class="progress" aria-label="Reading progress">'
        f'<figure><figcaption>Papers read over time</figcaption>{_read_over_time(papers)}</figure>'
        f'<figure><figcaption>Per tag</figcaption>{_per_tag(papers)}</figure>'
        "</section>\n"
        '<nav class="filters" aria-label="Filters">'
        '<input type="search" id="q" placeholder="Search titles, abstracts, keys, tags…" aria-label="Search" autocomplete="off">'
        '<select id="f-status" aria-label="Status"><option value="">any status</option></select>'
        '<select id="f-venue" aria-label="Venue"><option value="">any venue</option></select>'
        '<select id="f-year" aria-label="Year"><option value="">any year</option></select>'
        '<button type="button" id="clear">clear</button>'
        '<div id="tags" class="tags" aria-label="Tags"></div>'
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
