"""The Markdown export read by pandoc as the README says to read it (``pandoc -f gfm``): every
contents link reaches its heading, every abstract folds in a <details> whose summary is one line,
and the task list keeps its items. (pandoc's default Markdown reader numbers headings that do
not start with a letter differently from GitHub and wraps the summary in a paragraph.)"""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from readinglist.config import default_config
from readinglist.formats.markdown.writer import exporter
from readinglist.formats.registry import ExportOptions
from readinglist.record import Paper, Record

pytestmark = pytest.mark.skipif(shutil.which("pandoc") is None, reason="pandoc not installed")

CONFIG = default_config()
TAGS = ["3d-vision", "c++ & co.", "v2.0", "_under_", "llm", "über-models"]


def _papers() -> list[Paper]:
    return [
        Paper(
            Record(key=f"p{i}2026", title=f"Paper {i}: on {tag}", tags=(tag, "llm") if tag != "llm" else (tag,),
                   venue="NeurIPS", year=2026, abstract=f"We study *{tag}* with $\\ell_1$ and 45\\% fewer FLOPs."),
            status=("read", "unread")[i % 2], notes="Some **notes**." if i % 2 else "",
        )
        for i, tag in enumerate(TAGS)
    ]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.summaries: list[str] = []
        self.details = 0
        self._in_summary: list[str] | None = None
        self.summary_blocks = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"] or "")
        if tag == "a" and (attrs.get("href") or "").startswith("#"):
            self.links.append(attrs["href"][1:])
        if tag == "details":
            self.details += 1
        if tag == "summary":
            self._in_summary = []
        elif self._in_summary is not None and tag in ("p", "div"):
            self.summary_blocks += 1

    def handle_endtag(self, tag):
        if tag == "summary" and self._in_summary is not None:
            self.summaries.append("".join(self._in_summary).strip())
            self._in_summary = None

    def handle_data(self, data):
        if self._in_summary is not None:
            self._in_summary.append(data)


def _pandoc(text: str, reader: str) -> _Page:
    out = subprocess.run(["pandoc", "-f", reader, "-t", "html"], input=text, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    page = _Page()
    page.feed(out.stdout)
    return page


@pytest.mark.parametrize("group_by", ["tag", "status", "venue"])
def test_pandoc_gfm_reads_the_list_right(group_by):
    papers = _papers()
    text = exporter.export(papers, ExportOptions(config=CONFIG, group_by=group_by, with_notes=True))
    page = _pandoc(text, "gfm")
    assert page.links, "the contents list links its headings"
    assert [link for link in page.links if link not in page.ids] == []
    listed = sum(len(p.tags) for p in papers) if group_by == "tag" else len(papers)
    assert page.details == listed and page.summaries == ["Abstract"] * listed
    assert page.summary_blocks == 0


def test_the_seeds_export_reads_right_in_pandoc_gfm():
    from helpers import ROOT

    text = (ROOT / "exports" / "reading-list.md").read_text(encoding="utf-8")
    page = _pandoc(text, "gfm")
    assert page.links and [link for link in page.links if link not in page.ids] == []
    assert page.details == text.count("<details>") and set(page.summaries) == {"Abstract"}
    assert page.summary_blocks == 0
    assert re.search(r"^# Reading list$", text, re.M)
