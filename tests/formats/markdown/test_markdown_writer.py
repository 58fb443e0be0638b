"""Markdown reading lists, checked by rendering them with markdown-it-py (CommonMark + tables)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.errors import ValidationError
from readinglist.formats.markdown.writer import exporter, github_anchor
from readinglist.formats.registry import ExportOptions
from readinglist.record import Paper, Record

CONFIG = default_config()
NASTY = "Nasty *bold* _it_ [link](x) <b>tag</b> | pipe # hash `tick` \\ back"


def rec(key, title, tags=(), venue="NeurIPS", year=2026, abstract="An abstract.", **kw):
    return Record(key=key, title=title, tags=tuple(tags), venue=venue, year=year, abstract=abstract, **kw)


def papers():
    return [
        Paper(
            rec("canvit2026", "CanViT: Scaling Vision Transformers", ("vision", "transformers"),
                abstract=r"We use an $\ell_1$ penalty and reach 45.9\% mIoU with \emph{fewer} FLOPs.",
                generated=frozenset({"title", "key"})),
            status="read", priority=2, rating=4, notes="Great results.\n\nCite in chapter 2.",
        ),
        Paper(rec("nasty2026", NASTY, ("llm",), abstract="Text with * and _ and <details> and # and | pipes."),
              status="reading", priority=1),
        Paper(rec("edit2025", "Knowledge Editing for LLMs", ("llm", "editing"), venue="ICML", year=2025)),
        Paper(rec("plain2026", "Untagged Paper", (), abstract=""), status="skipped"),
    ]


def render(text):
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    return md.parse(text), md.render(text)


def sections(tokens):
    """{h2 heading text: [first-paragraph inline content of each top-level list item]}."""
    out: dict = {}
    current = None
    depth = 0
    want_first = False
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.tag == "h2":
            current = "".join(c.content for c in tokens[i + 1].children if c.type == "text")  # as rendered
            out[current] = []
        elif tok.type == "list_item_open":
            depth += 1
            want_first = depth == 1
        elif tok.type == "list_item_close":
            depth -= 1
        elif tok.type == "inline" and want_first and current is not None:
            out[current].append(tok)
            want_first = False
    return out


def items(tokens):
    return [t for name, ts in sections(tokens).items() if name != "Contents" for t in ts]


def spec_anchor(text):
    """GitHub's rule, written out independently: lowercase, drop punctuation, spaces -> '-'."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def test_ungrouped_list():
    text = exporter.export(papers(), ExportOptions(config=CONFIG))
    tokens, html = render(text)
    assert text.startswith("# Reading list\n\n4 papers: 1 read, 1 in progress, 1 to read, 1 skipped.\n")
    assert not [t for t in tokens if t.type == "heading_open" and t.tag == "h2"]
    entries = [t for t in tokens if t.type == "list_item_open" and t.level == 1]
    assert len(entries) == 4
    # in the order given
    keys = re.findall(r"<code>(\w+)</code>", html)
    assert [k for k in keys if k.endswith(("2025", "2026"))] == [p.key for p in papers()]


@pytest.mark.parametrize(
    "group_by,headings",
    [
        ("first-tag", ["llm", "vision", "untagged"]),
        ("tag", ["editing", "llm", "transformers", "vision", "untagged"]),
        ("status", ["In progress", "To read", "Read", "Skipped"]),
        ("venue", ["ICML 2025", "NeurIPS 2026"]),
        ("priority", ["Priority 1", "Priority 2", "No priority"]),
    ],
)
def test_grouped_list_structure(group_by, headings):
    text = exporter.export(papers(), ExportOptions(config=CONFIG, group_by=group_by, title="My list"))
    tokens, html = render(text)
    assert tokens[1].content == "My list"
    secs = sections(tokens)
    assert list(secs) == ["Contents"] + headings
    # one item per paper; grouped by tag, one per paper and tag (as stats counts them)
    assert sum(len(v) for k, v in secs.items() if k != "Contents") == (6 if group_by == "tag" else 4)
    # the table of contents links each heading by its GitHub anchor, with its count
    toc = secs["Contents"]
    assert [t.children[1].content for t in toc] == headings
    assert [t.children[0].attrs["href"] for t in toc] == ["#" + spec_anchor(h) for h in headings]
    assert [int(re.search(r"\((\d+)\)$", t.content).group(1)) for t in toc] == [len(secs[h]) for h in headings]


def test_each_item_is_a_task_with_title_key_and_state():
    tokens, html = render(exporter.export(papers(), ExportOptions(config=CONFIG, group_by="status")))
    secs = sections(tokens)
    (read,) = secs["Read"]
    assert read.content.startswith("[x] **CanViT: Scaling Vision Transformers** `canvit2026`")
    assert "NeurIPS 2026 · tags: `vision`, `transformers` · read · priority 2 · rating 4/5 · *generated title*" in read.content
    assert [c.type for c in read.children][:5] == ["text", "strong_open", "text", "strong_close", "text"]
    for name in ("In progress", "To read", "Skipped"):
        assert all(t.content.startswith("[ ] ") for t in secs[name])
    (unread,) = secs["To read"]
    assert "to read" not in unread.content  # unread is the default, not spelled out


def test_nasty_title_and_abstract_render_literally():
    tokens, html = render(exporter.export(papers(), ExportOptions(config=CONFIG, group_by="tag")))
    (nasty,) = [t for t in items(tokens) if "nasty2026" in t.content]
    kinds = [c.type for c in nasty.children]
    start, end = kinds.index("strong_open"), kinds.index("strong_close")
    title = "".join(c.content for c in nasty.children[start + 1 : end])
    assert title == NASTY
    assert "<b>" not in html and "&lt;b&gt;tag&lt;/b&gt;" in html
    assert "Text with * and _ and &lt;details&gt; and # and | pipes." in html
    assert "<table>" not in html and "<h1>" in html and html.count("<h1>") == 1


def test_abstracts_folded_in_details_with_math_as_unicode():
    tokens, html = render(exporter.export(papers(), ExportOptions(config=CONFIG)))
    assert html.count("<details><summary>Abstract</summary>") == 3  # one paper has no abstract
    assert html.count("</details>") == 3
    blocks = re.findall(r"<details><summary>Abstract</summary>\n(.*?)</details>", html, re.S)
    assert len(blocks) == 3
    (canvit,) = [b for b in blocks if "mIoU" in b]
    assert "ℓ₁" in canvit and "$" not in canvit and "45.9% mIoU" in canvit and "<em>fewer</em>" in canvit
    # details sit inside their list item
    assert all(t.level >= 2 for t in tokens if t.type == "html_block")


def test_notes_only_with_notes_rendered_as_markdown_and_cannot_break_the_list():
    notes = "# a heading\n- a list\n</details> <script>x</script>\n\n1. numbered"
    base = papers()
    base[0] = base[0].evolve(notes=notes)
    without = exporter.export(base, ExportOptions(config=CONFIG, group_by="first-tag"))
    assert "a heading" not in without
    text = exporter.export(base, ExportOptions(config=CONFIG, group_by="first-tag", with_notes=True))
    tokens, html = render(text)
    assert list(sections(tokens)) == ["Contents", "llm", "vision", "untagged"]
    assert len(items(tokens)) == 4
    assert "<script>" not in html and html.count("</details>") == 3 and "&lt;/details&gt;" in html
    # the note's own Markdown renders, inside the quote inside its item
    assert "<blockquote>\n<h1>a heading</h1>\n<ul>\n<li>a list" in html and "<ol>\n<li>numbered</li>" in html
    heading = next(i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h1" and i > 2)
    assert tokens[heading].level > 2  # nested in the list item's blockquote


def test_empty_title_still_gives_an_item():
    tokens, _ = render(exporter.export([Paper(rec("k2026", "\u00ad"))], ExportOptions(config=CONFIG)))
    (item,) = items(tokens) or [t for t in tokens if t.type == "inline" and "k2026" in t.content]
    assert item.content.startswith("[ ] **(untitled)** `k2026`")


def test_deterministic_groups_in_fixed_order_items_in_given_order():
    options = ExportOptions(config=CONFIG, group_by="first-tag")
    assert exporter.export(papers(), options) == exporter.export(papers(), options)
    tokens, _ = render(exporter.export(list(reversed(papers())), options))
    secs = sections(tokens)
    assert list(secs) == ["Contents", "llm", "vision", "untagged"]  # groups do not follow input
    assert [re.search(r"`(\w+)`", t.content).group(1) for t in secs["llm"]] == ["edit2025", "nasty2026"]
    tokens, _ = render(exporter.export(papers(), options))
    assert [re.search(r"`(\w+)`", t.content).group(1) for t in sections(tokens)["llm"]] == ["nasty2026", "edit2025"]


def test_bad_grouping_refused():
    with pytest.raises(ValidationError, match="'colour'.*tag, status, venue, priority"):
        exporter.export(papers(), ExportOptions(config=CONFIG, group_by="colour"))


def test_empty_list():
    text = exporter.export([], ExportOptions(config=CONFIG, group_by="tag"))
    tokens, _ = render(text)
    assert "0 papers: 0 read." in text and items(tokens) == []


def test_repeated_and_punctuated_headings_get_github_anchors():
    ps = [
        Paper(rec("a2026", "A", ("C++ & Rust",))),
        Paper(rec("b2026", "B", ("contents",))),
        Paper(rec("c2026", "C", ("reading list",))),
    ]
    tokens, _ = render(exporter.export(ps, ExportOptions(config=CONFIG, group_by="tag")))
    toc = sections(tokens)["Contents"]
    assert [t.children[0].attrs["href"] for t in toc] == ["#c--rust", "#contents-1", "#reading-list-1"]


def test_github_anchor_counts_repeats():
    seen = __import__("collections").Counter()
    assert [github_anchor(h, seen) for h in ("LLM", "llm", "Ünïcode Tags!", "llm")] == [
        "llm", "llm-1", "ünïcode-tags", "llm-2"
    ]


# (control and format characters left out: CommonMark turns NUL into U+FFFD, and
# normalize_space drops invisible ones such as the soft hyphen)
visible = st.characters(blacklist_categories=("Cs", "Cc", "Cf"))


@settings(max_examples=40, deadline=None)
@given(
    titles=st.lists(st.text(visible, min_size=1, max_size=40).filter(str.strip), min_size=1, max_size=4),
    tag=st.text(visible, min_size=1, max_size=10).filter(str.strip),
    abstract=st.text(max_size=80),
)
def test_any_text_keeps_the_list_shape(titles, tag, abstract):
    ps = [Paper(rec(f"k{i}", t, (tag,), abstract=abstract), notes=abstract) for i, t in enumerate(titles)]
    text = exporter.export(ps, ExportOptions(config=CONFIG, group_by="tag", with_notes=True))
    tokens, _ = render(text)
    secs = sections(tokens)
    assert len(secs) == 2 and len(secs[list(secs)[1]]) == len(titles)
    entries = items(tokens)
    assert all(t.content.startswith("[ ] **") for t in entries)
    # each title renders as exactly its text, inside the bold
    shown = []
    for t in entries:
        kinds = [c.type for c in t.children]
        start, end = kinds.index("strong_open"), kinds.index("strong_close")
        shown.append("".join(c.content for c in t.children[start + 1 : end]))
    expected = sorted(" ".join(t.split()) for t in titles)
    assert sorted(shown) == expected
    # and the group heading is the tag itself
    assert list(secs)[1] == " ".join(tag.split())


def test_grouped_by_tag_the_contents_counts_agree_with_stats():
    from readinglist.stats import alike, progress_rows

    tokens, _ = render(exporter.export(papers(), ExportOptions(config=CONFIG, group_by="tag")))
    toc = sections(tokens)["Contents"]
    counts = {t.children[1].content: int(re.search(r"\((\d+)\)$", t.content).group(1)) for t in toc}
    by_tag = dict(progress_rows(alike(papers())))["by tag"]
    assert {label: total for label, _, _, total in by_tag} == {k: v for k, v in counts.items() if k != "untagged"}
