"""The HTML exporter's text: self-contained, every user string escaped or embedded as safe JSON."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from hypothesis import given, strategies as st
from html_pages import HOSTILE_KEY, HOSTILE_NOTE, HOSTILE_TAG, HOSTILE_TITLE, export_html, hostile_papers

from readinglist.formats.html.writer import json_for_script, safe_url
from readinglist.formats.registry import find_exporter


class Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.data: dict[str, str] = {}
        self._in = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in = dict(attrs).get("id") if tag == "script" else None

    def handle_data(self, data):
        if self._in:
            self.data[self._in] = self.data.get(self._in, "") + data


def parse(page: str) -> Elements:
    p = Elements()
    p.feed(page)
    return p


def test_found_by_name_and_suffix():
    assert find_exporter("html").name == "html" and find_exporter(path="x.html").name == "html"


def test_self_contained_no_network():
    page = export_html(hostile_papers(), with_notes=True)
    elements = parse(page)
    for tag, attrs in elements.tags:
        assert "src" not in attrs or tag == "img" and False, (tag, attrs)
        assert tag != "link", attrs
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    csp = next(a["content"] for t, a in elements.tags if a.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp and "connect-src 'none'" in csp and "unsafe-inline" not in csp


def test_hostile_strings_are_escaped_or_json():
    page = export_html(hostile_papers(), with_notes=True)
    elements = parse(page)
    # exactly the page's two scripts, whatever the titles, keys and notes say
    scripts = [a for t, a in elements.tags if t == "script"]
    assert len(scripts) == 2 and scripts[0] == {"type": "application/json", "id": "rl-data"}
    assert not any(t == "img" for t, _ in elements.tags)
    data = json.loads(elements.data["rl-data"])
    bad = data["papers"][0]
    assert (bad["key"], bad["title"]) == (HOSTILE_KEY, HOSTILE_TITLE)
    assert bad["notes"] == [["p", {}, HOSTILE_NOTE]]  # Markdown: no link to javascript:, HTML as text
    assert HOSTILE_TAG in bad["tags"]
    assert "url" not in bad  # a javascript: URL is never made a link
    assert data["papers"][1]["url"] == "https://example.org/good"
    # the hostile tag is nowhere in the page as markup (only inside the JSON, escaped)
    assert HOSTILE_TAG not in page.replace(elements.data["rl-data"], "")


@given(st.text())
def test_json_for_script_round_trips_and_never_closes_the_element(s):
    text = json_for_script({"s": s})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"s": s}


def test_safe_url():
    assert safe_url("https://doi.org/10.1/x") == "https://doi.org/10.1/x"
    for bad in ("javascript:alert(1)", " JaVaScRiPt:alert(1)", "data:text/html,x", "//evil.org", 'https://x.org/"onmouseover=1'):
        assert safe_url(bad) is None


def test_curated_list_sections_and_comments(tmp_path):
    from readinglist.store.lists import Entry, Item, ReadingList, Resolved, Section

    bad, good = hostile_papers()
    lst = ReadingList("wk", title="<b>Week</b>", introduction="Read <i>this</i> first.",
                      sections=(Section("Start <here>", (Entry(good.key, "read §3 only"),)), Section("Then", (Entry(bad.key),))))
    resolved = Resolved(lst, (Item("Start <here>", Entry(good.key, "read §3 only"), good), Item("Then", Entry(bad.key), bad)))
    page = export_html(resolved.papers, reading_list=resolved)
    assert "<title>&lt;b&gt;Week&lt;/b&gt;</title>" in page and "Read &lt;i&gt;this&lt;/i&gt; first." in page
    data = json.loads(parse(page).data["rl-data"])
    assert [(p["key"], p["section"], p.get("comment")) for p in data["papers"]] == [
        ("good2026", "Start <here>", "read §3 only"),
        (bad.key, "Then", None),
    ]


# -- the reader's Markdown as a tree of allowed elements ----------------------------------------------

from readinglist.formats.html.markup import ELEMENTS, SAFE_LINK, markdown_tree, tree_html  # noqa: E402


def walk(nodes):
    for n in nodes:
        yield n
        if isinstance(n, list):
            yield from walk(n[2:])


def text_of(nodes) -> str:
    return "".join(n for n in walk(nodes) if isinstance(n, str))


def test_markdown_tree_renders_what_the_reader_wrote():
    tree = markdown_tree("**week 12**, see [the repo](https://x.org/a)\n\n- one\n- *two*\n\n# Head", shift=2)
    assert tree == [
        ["p", {}, ["strong", {}, "week 12"], ", see ", ["a", {"href": "https://x.org/a"}, "the repo"]],
        ["ul", {}, ["li", {}, "one"], ["li", {}, ["em", {}, "two"]]],
        ["h3", {}, "Head"],
    ]
    assert markdown_tree("3. c\n4. d") == [["ol", {"start": 3}, ["li", {}, "c"], ["li", {}, "d"]]]
    # a picture is a link to it, an unsafe target leaves the text only
    assert markdown_tree("![alt](https://e.org/p.png) [x](../rel) <mailto:a@b.org>") == [
        ["p", {}, ["a", {"href": "https://e.org/p.png"}, "alt"], " x ", ["a", {"href": "mailto:a@b.org"}, "mailto:a@b.org"]]]
    assert tree_html(markdown_tree("a <b>b</b> & [c](https://e.org/?a=1&b=\"2\")", shift=1)) == (
        '<p>a &lt;b&gt;b&lt;/b&gt; &amp; <a href="https://e.org/?a=1&amp;b=%222%22" rel="noopener noreferrer">c</a></p>')
    assert markdown_tree("  \n ") == []


MARKDOWNISH = st.lists(st.sampled_from(list("ab <>&\"'`*_[]()!#-1.:/\n") + ["javascript:", "https://e.org", "mailto:x@y.z",
                                                                         "<script>", "&#106;", "data:", "](", "![", "> ", "```"]))


@given(MARKDOWNISH.map("".join) | st.text())
def test_markdown_tree_has_only_allowed_elements_and_links(text):
    tree = markdown_tree(text, shift=1)
    for node in walk(tree):
        if isinstance(node, list):
            tag, attrs = node[0], node[1]
            assert tag in ELEMENTS, node
            assert set(attrs) <= ({"href"} if tag == "a" else {"start"} if tag == "ol" else set()), node
            if tag == "a":
                assert SAFE_LINK.match(attrs["href"]) and attrs["href"].lower().startswith(("https://", "http://", "mailto:")), node
        else:
            assert isinstance(node, str)
    # the HTML of it holds no element outside the tree's and no attribute but href/rel/start
    parsed = parse(tree_html(tree))
    for tag, attrs in parsed.tags:
        assert tag in ELEMENTS and set(attrs) <= {"href", "rel", "start"}, (tag, attrs)
    json.dumps(tree)  # plain data


@given(st.text(alphabet=st.characters(categories=("L", "N", "Zs"))))
def test_plain_words_come_through_unchanged(text):
    assert " ".join(text_of(markdown_tree(text)).split()) == " ".join(text.split())
