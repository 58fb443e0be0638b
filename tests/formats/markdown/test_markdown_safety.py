"""The Markdown export injects nothing: no raw HTML, no script, no javascript: link, whatever the
abstracts, notes, titles, tags or keys hold; rendered with markdown-it-py and pandoc."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.formats.markdown.writer import exporter
from readinglist.formats.registry import ExportOptions
from readinglist.record import Paper, Record

from helpers import assert_inert, render_markdown_it

CONFIG = default_config()
OPTIONS = ExportOptions(config=CONFIG, with_notes=True, with_status=True, group_by="tag")

PAYLOADS = [
    r"\texttt{a``<img src=x onerror=alert(1)>``b}",
    "$[click](javascript:alert(1))$",
    "[click](javascript:alert(1)) [x](JaVaScRiPt:alert(1)) [y]( javascript:alert(1) ) [z](&#106;avascript:alert(1))",
    "![img](javascript:alert(1)) <javascript:alert(1)> [ref][r]\n\n[r]: javascript:alert(1)",
    "<script>alert(1)</script> <img src=x onerror=alert(1)> <a href='javascript:alert(1)'>a</a>",
    "`` <img src=x onerror=alert(1)> `` and ```<script>alert(1)</script>```",
    "x\n<script>alert(1)</script>\ny",
    "<details><summary>x</summary></details> </details> <!-- comment --> &lt;script&gt;",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [vb](vbscript:msgbox(1))",
    "[<]:<",  # a reference definition whose target is "<": a relative link (hypothesis found it)
    "[x]:javascript:alert(1)\n\n[x] [y]: <javascript:alert(1)>\n\n[y]",
]


def render_pandoc(text: str) -> str:
    out = subprocess.run(["pandoc", "-f", "gfm", "-t", "html"], input=text, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def papers_with(payload: str) -> list[Paper]:
    record = Record(
        key="k2026" if "\n" not in payload else "k2026\n<script>alert(1)</script>",
        title=payload,
        abstract=payload,
        venue="NeurIPS",
        year=2026,
        tags=(payload, "ok"),
    )
    return [Paper(record, notes=payload + "\n\n## heading\n\n- item " + payload, user_tags=(payload[::-1],))]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payloads_are_inert_in_markdown_it(payload):
    assert_inert(render_markdown_it(exporter.export(papers_with(payload), OPTIONS)))


@pytest.mark.tools
@pytest.mark.parametrize("payload", PAYLOADS)
def test_payloads_are_inert_in_pandoc(payload):
    if not shutil.which("pandoc"):
        pytest.skip("pandoc not installed")
    assert_inert(render_pandoc(exporter.export(papers_with(payload), OPTIONS)))


PIECES = st.sampled_from(
    ["<", ">", "script", "img", " onerror=", "javascript:", "[", "]", "(", ")", "`", "``", "$", "\\", "{", "}",
     "&", "#", "106;", "\n", "\n\n", "*", "_", "!", ":", "a", " ", "texttt", "href=", "'", '"', "<!--", "-->"]
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=25).map("".join))
def test_arbitrary_text_is_inert(payload):
    assert_inert(render_markdown_it(exporter.export(papers_with(payload), OPTIONS)))


def test_notes_render_as_the_users_markdown():
    notes = "A *key* idea, see [the code](https://example.org/x).\n\n## Questions\n\n- one\n- two"
    record = Record(key="k2026", title="T", venue="NeurIPS", year=2026)
    html = render_markdown_it(exporter.export([Paper(record, notes=notes)], OPTIONS))
    assert "<em>key</em>" in html and '<a href="https://example.org/x">the code</a>' in html
    assert "<h2>Questions</h2>" in html and "<li>one</li>" in html


def test_math_is_shown_as_unicode():
    record = Record(key="k2026", title="T", abstract=r"an $\ell_1$ penalty, $\theta \geq 0$ and M$^2$LE", venue="NeurIPS", year=2026)
    text = exporter.export([Paper(record)], OPTIONS)
    assert "ℓ₁" in text and "θ" in text and "≥" in text and "M²LE" in text
    assert "$" not in text
