"""Markdown reading lists, the kind people share in a README or a gist (GitHub Markdown).

Layout::

    # Reading list
    19 papers: 3 read, 1 in progress, 15 to read.
    ## Contents                      (only when grouped)
    - [llm](#llm) (5)
    ## llm
    - [x] **Title** `key`\\
      NeurIPS 2026 · tags: `llm`, `editing` · read · priority 1 · rating 4/5
      > the reader's notes
      <details><summary>Abstract</summary> ... </details>

Choices:

* One task-list item per paper and group: ``[x]`` when read, ``[ ]`` otherwise. Grouped by
  ``tag``, a paper is listed under every one of its tags (so the contents' counts agree with
  ``stats``); by ``first-tag``, only under its first tag (the topic tag that fitted best), so
  each paper appears once. Papers without tags go under "untagged" at the end.
* Groups: ``tag`` (alphabetical), ``status`` (in progress, to read, read, skipped),
  ``venue`` (by venue, newest year first), ``priority`` (1, 2, 3, none). Inside a group
  (or the whole list) papers keep the order they are given (``readinglist export --sort``).
* Reading status, priority and rating are always shown (they are what a reading list is
  for); the reader's notes only with ``with_notes``, as a quote under the item.
* Abstracts go through :func:`readinglist.text.to_markdown` (their LaTeX and inline Markdown
  rendered for GitHub: emphasis, code, math as Unicode text; everything else escaped, so a
  link or HTML tag in an abstract shows as written and nothing can break the list). Notes are
  the Markdown the reader wrote (headings, lists, links, code), made inert by
  :func:`readinglist.text.note_markdown`: raw HTML shows as text and ``javascript:`` or
  ``data:`` links point nowhere. Titles, venues and headings are plain
  text and are shown literally (:func:`literal`).
* Table-of-contents links follow GitHub's heading anchors (lowercase, punctuation dropped,
  spaces to hyphens, ``-1``, ``-2`` for repeats): pandoc reads them right with ``-f gfm``, not
  with its default Markdown reader (tests/formats/markdown/test_markdown_pandoc.py).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from ...errors import ValidationError
from ..registry import ExportOptions
from ...record import Paper
from ...gc_pause import gc_paused
from ..exporting import event_title, rendered, unique
from ...text.markdown import escape_markdown
from ...text.tokens import normalize_space

GROUPINGS = ("tag", "first-tag", "status", "venue", "priority")
STATUS_LABELS = {"reading": "In progress", "unread": "To read", "read": "Read", "skipped": "Skipped"}
UNTAGGED = "untagged"

_NOT_SLUG = re.compile(r"[^\w\- ]", re.UNICODE)


def literal(s: str) -> str:
    """Markdown that shows the plain text ``s`` exactly (titles, venues, headings).

    :func:`readinglist.text.to_markdown` reads its input as source text, interpreting LaTeX and
    Markdown markup; titles are clean Unicode and must not be interpreted, only escaped. That
    escaping is readinglist.text's (``escape_markdown``, the same one to_markdown applies to plain runs)."""
    return escape_markdown(normalize_space(s))


def github_anchor(heading: str, seen: Counter) -> str:
    """The anchor GitHub gives a heading with this text; ``seen`` counts anchors so far."""
    slug = _NOT_SLUG.sub("", heading.strip().lower()).replace(" ", "-")
    n = seen[slug]
    seen[slug] += 1
    return slug if n == 0 else f"{slug}-{n}"


def code(s: str) -> str:
    """``s`` as an inline code span, whatever backticks it holds, on one line (a line break in
    a hand-edited key or tag could otherwise start an HTML block on the next line)."""
    s = normalize_space(s)
    longest = max((len(run) for run in re.findall(r"`+", s)), default=0) if "`" in s else 0
    fence = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or not s.strip() else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def _groups(papers: list[Paper], group_by: str) -> list[tuple[str, list[Paper]]]:
    """(heading, papers) pairs in display order."""
    by: dict = {}
    if group_by in ("tag", "first-tag"):
        from ...tagform import tag_key, unique_tags

        spelled: dict[str, str] = {}  # one heading per tag whatever its case or Unicode form
        for p in papers:
            for tag in (unique_tags(p.tags) if group_by == "tag" else p.tags[:1]) or (None,):
                if tag is not None:
                    tag = spelled.setdefault(tag_key(tag), tag)
                by.setdefault(tag, []).append(p)
        order = sorted((k for k in by if k is not None), key=str.lower)
        pairs = [(k, by[k]) for k in order]
        if None in by:
            pairs.append((UNTAGGED, by[None]))
        return pairs
    if group_by == "status":
        for p in papers:
            by.setdefault(p.status, []).append(p)
        known = [s for s in STATUS_LABELS if s in by]
        others = sorted(s for s in by if s not in STATUS_LABELS)
        return [(STATUS_LABELS.get(s) or str(s), by[s]) for s in known + others]
    if group_by == "venue":
        for p in papers:
            r = p.record
            by.setdefault((r.venue or "", -(r.year or 0)), []).append(p)
        return [
            (event_title(by[k][0].record) or "No venue" if k[0] else "No venue", by[k])
            for k in sorted(by, key=lambda k: (k[0] == "", k[0].lower(), k[1]))
        ]
    for p in papers:
        by.setdefault(p.priority, []).append(p)
    order = sorted(k for k in by if k is not None) + ([None] if None in by else [])
    return [(f"Priority {k}" if k is not None else "No priority", by[k]) for k in order]


def _summary(papers: Sequence[Paper]) -> str:
    counts = Counter(p.status for p in papers)
    n = len(papers)
    parts = [f"{counts['read']} read"]
    parts += [
        f"{counts[s]} {label.lower()}"
        for s, label in STATUS_LABELS.items()
        if s != "read" and counts[s]
    ]
    return f"{n} paper{'s' if n != 1 else ''}: " + ", ".join(parts) + "."


def _indent(text: str, prefix: str = "  ") -> list[str]:
    return [prefix + line if line.strip() else "" for line in text.split("\n")]


def _item(paper: Paper, options: ExportOptions, md: Callable[[str], str]) -> list[str]:
    r = paper.record
    box = "[x]" if paper.status == "read" else "[ ]"
    lines = [f"- {box} **{literal(r.title) or '(untitled)'}** {code(r.key)}"]
    meta = []
    event = event_title(r)
    if event:
        meta.append(literal(event))
    if paper.tags:
        meta.append("tags: " + ", ".join(code(t) for t in paper.tags))
    if paper.status != "unread":
        meta.append(STATUS_LABELS.get(paper.status, paper.status).lower())
    if paper.priority is not None:
        meta.append(f"priority {paper.priority}")
    if paper.rating is not None:
        meta.append(f"rating {paper.rating}/5")
    if r.is_generated:
        meta.append("*generated title*")
    if meta:
        lines[0] += "\\"  # hard line break: the details go on the item's second line
        lines.append("  " + " · ".join(meta))
    notes = paper.notes.strip() if options.with_notes else ""
    if notes:
        from ...text import note_markdown

        quoted = "\n".join("> " + line if line.strip() else ">" for line in note_markdown(notes).split("\n"))
        lines += [""] + _indent(quoted)
    if r.abstract:
        lines += ["", "  <details><summary>Abstract</summary>", ""]
        lines += _indent(md(r.abstract))
        lines += ["", "  </details>"]
    return lines


def _entries(papers: list[Paper], options: ExportOptions, md) -> list[str]:
    out: list[str] = []
    for paper in papers:
        if out:
            out.append("")
        out += _item(paper, options, md)
    return out


def _curated(papers: list[Paper], options: ExportOptions, md) -> str:
    """A curated list (``export --list``): its title, introduction (the curator's Markdown, made
    inert like notes), sections in order with a table of contents, and each paper's comment in italics
    under it. Only ``papers`` (the selection) are shown, in the list's order."""
    resolved = options.reading_list
    lst = resolved.list  # type: ignore[attr-defined]
    wanted = {p.key: p for p in papers}
    title = options.title or lst.heading
    seen: Counter = Counter()
    github_anchor(title, seen)
    lines = [f"# {literal(title)}", ""]
    if lst.introduction.strip():
        from ...text import note_markdown

        # the curator's Markdown, made inert as notes are: raw HTML as text, a fence left open closed
        lines += [note_markdown(lst.introduction), ""]
    lines.append(_summary(papers))
    groups: list[tuple[str, list[tuple[Paper, str]]]] = []
    shown: set[str] = set()
    last = None
    for item in resolved.items:  # type: ignore[attr-defined]
        paper = wanted.get(item.paper.key)
        if paper is None or paper.key in shown:
            continue
        shown.add(paper.key)
        if not groups or last != item.index:  # sections by position: two may share a title
            groups.append((item.section, []))
            last = item.index
        groups[-1][1].append((paper, item.entry.comment))
    headed = [g for g in groups if g[0]]
    if len(headed) > 1:
        github_anchor("Contents", seen)
        anchors = [github_anchor(h, seen) for h, _ in headed]
        lines += ["", "## Contents", ""]
        lines += [f"- [{literal(h)}](#{a}) ({len(ms)})" for (h, ms), a in zip(headed, anchors)]
    for heading, members in groups:
        if heading:
            lines += ["", f"## {literal(heading)}"]
        for paper, comment in members:
            item_lines = _item(paper, options, md)
            if comment.strip():
                note = "  *" + literal(comment.strip()) + "*"
                if item_lines[0].endswith("\\"):
                    item_lines.insert(2, note)
                    item_lines[1] += "\\"
                else:
                    item_lines[0] += "\\"
                    item_lines.insert(1, note)
            lines += [""] + item_lines
    return "\n".join(lines) + "\n"


class MarkdownExporter:
    name = "markdown"
    suffixes = (".md", ".markdown")
    description = "Markdown reading list (GitHub task list, grouped, abstracts folded)"

    def export(self, papers: Sequence[Paper], options: ExportOptions) -> str:
        return "".join(self.export_chunks(papers, options))

    def export_chunks(self, papers: Sequence[Paper], options: ExportOptions) -> Iterator[str]:
        """The export in pieces (joined, exactly :meth:`export`'s text): the CLI writes each
        piece as it comes, so a large export never holds every string at once."""
        from ...text import to_markdown

        group_by = options.group_by
        if group_by is not None and group_by not in GROUPINGS:
            raise ValidationError(f"cannot group a reading list by {group_by!r}; choose one of {', '.join(GROUPINGS)}")
        papers = unique(papers)
        if options.reading_list is not None:
            with gc_paused():
                text = _curated(papers, options, to_markdown)
            yield text
            return
        title = options.title or "Reading list"
        seen: Counter = Counter()
        github_anchor(title, seen)
        lines = [f"# {literal(title)}", "", _summary(papers)]
        if group_by is None:
            if papers:
                yield "\n".join([*lines, ""]) + "\n"
                yield from _entry_chunks(papers, options, to_markdown)
                yield "\n"
            else:
                yield "\n".join(lines) + "\n"
            return
        groups = _groups(papers, group_by)
        github_anchor("Contents", seen)
        anchors = [github_anchor(heading, seen) for heading, _ in groups]
        lines += ["", "## Contents", ""]
        lines += [f"- [{literal(h)}](#{a}) ({len(ps)})" for (h, ps), a in zip(groups, anchors)]
        yield "\n".join(lines)
        for heading, members in groups:
            yield f"\n\n## {literal(heading)}\n" + ("\n" if members else "")
            yield from _entry_chunks(members, options, to_markdown)
        yield "\n"


#: Papers per piece of a streamed export.
CHUNK = 500


def _entry_chunks(papers: list[Paper], options: ExportOptions, md) -> Iterator[str]:
    """``"\\n".join(_entries(papers, ...))`` in pieces of CHUNK papers."""

    def render(start: int, stop: int) -> str:
        with gc_paused():
            text = "\n".join(_entries(papers[start:stop], options, md))
        return ("\n\n" if start else "") + text

    return rendered(len(papers), CHUNK, render, processes=options.processes)


exporter = MarkdownExporter()
