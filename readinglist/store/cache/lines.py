"""What the reading commands print of each paper, kept in the cache beside its row so that a
command over every paper fetches one text a paper: the line a piped ``list`` prints
(:func:`plain_line`) and the JSON line of ``list --json`` and ``next --json`` (:func:`json_line`).
Both are made here from a paper, whether it comes from the cache or from a file.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from ...record import Paper
    from .query import Listed


LINE_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def plain_line(key: str, status: str, venue: str | None, year: int | None, tags: tuple[str, ...], title: str) -> str:
    """The line ``list`` and ``search`` print for a paper when piped: key, status, venue and
    year, tags (the topic tags, then the user's own), title, tab-separated. A control
    character in a field (a tab or line break too: the layout's must be the only ones) is
    shown escaped. The cache keeps each paper's line, so a piped ``list`` of every paper
    fetches one text a paper."""
    line = f"{key}\t{status}\t{venue or ''} {year or ''}\t{','.join(tags)}\t{title}\n"
    if LINE_CONTROLS.search(line) is None and line.count("\t") == 4 and line.count("\n") == 1:
        return line
    from ...text.controls import escape_controls as esc

    return f"{esc(key, '')}\t{status}\t{esc(venue or '', '')} {year or ''}\t{esc(','.join(tags), '')}\t{esc(title, '')}\n"


def plain_line_of(p: Paper | Listed) -> str:
    """:func:`plain_line` of a paper (or a :class:`Listed` row)."""
    r = p.record
    return plain_line(r.key, p.status, r.venue, r.year, p.tags if p.user_tags else r.tags, r.title)


def paper_json(paper: Paper) -> dict:
    """A paper as the JSON object ``list --json``, ``next --json``, ``search --json`` (with a
    score) and ``show --json`` print: every field of the paper, in this order (the README's)."""
    rec = paper.record
    return {
        "key": rec.key,
        "entry_type": rec.entry_type,
        "title": rec.title,
        "shorttitle": rec.shorttitle,
        "venue": rec.venue,
        "year": rec.year,
        "pages": rec.pages,
        "status": paper.status,
        "priority": paper.priority,
        "rating": paper.rating,
        "tags": list(rec.tags),
        "user_tags": list(paper.user_tags),
        "notes": paper.notes,
        "generated": sorted(rec.generated),
        "authors": [str(a) for a in rec.authors],
        "doi": rec.doi,
        "url": rec.url,
        "fields": dict(rec.fields),
        "abstract": rec.abstract,
        "sources": [str(s) for s in rec.sources],
        "history": [{"event": e.event, "date": e.date} for e in paper.history],
    }


_ENCODERS: dict[tuple[bool, int | None], object] = {}


def _encoder(ascii_only: bool, indent: int | None):
    encode = _ENCODERS.get((ascii_only, indent))
    if encode is None:
        import json

        encode = _ENCODERS[ascii_only, indent] = json.JSONEncoder(ensure_ascii=ascii_only, indent=indent).encode  # (what json.dumps makes)
    return encode


def json_text(value, *, ascii_only: bool = False, indent: int | None = None) -> str:
    """``value`` as JSON (``json.dumps(value, ensure_ascii=ascii_only, indent=indent)``: one
    line unless ``indent``) with every hidden character JSON leaves raw written as a
    ``\\uXXXX`` escape (:func:`~readinglist.text.controls.json_safe`): the same value, safe on a
    terminal. What every command prints as JSON (all of it ASCII when stdout is not UTF-8).

    Written with the ASCII encoder first (CPython's is the faster on text): when
    that writes no ``\\u`` escape, the value holds no character outside printable ASCII but those
    both encoders escape alike (``\\n``, ``\\"``...), so its text is the answer; else the
    value is encoded again as asked (tests/store/test_bulk_read.py checks them against each
    other)."""
    from ...text.controls import json_safe

    text = _encoder(True, indent)(value)
    if ascii_only or "\\u" not in text:
        return text
    return json_safe(_encoder(False, indent)(value))


def json_line(paper: Paper) -> str:
    """The line ``list --json`` prints of a paper on a UTF-8 stdout (the cache keeps it)."""
    return json_text(paper_json(paper)) + "\n"
