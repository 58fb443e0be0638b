"""The reader's Markdown on the HTML page: notes and a list's introduction rendered, hostile text inert.

Headless Chromium through Selenium (skips without chromium, chromedriver or selenium; see
conftest.py)."""

from __future__ import annotations

from html_pages import SCREENSHOTS, export_html, load, requests

try:
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # the browser fixture skips
    WebDriverWait = None


MARKDOWN_NOTE = (
    "**week 12**: discussed on *Friday*.\n\n- strong ablations\n- code at [the repo](https://github.com/example/repo)\n\n"
    "# Questions\n1. Does it `scale`?\n\nmail <mailto:me@example.org>, see <https://example.org/a>\n\n"
    "```\n<b>kept as code</b>\n```"
)
#: Markdown and HTML that must stay inert: each would run a script, load a picture or make a
#: link to somewhere other than http(s)/mailto if it were rendered naively.
HOSTILE_MARKDOWN = (
    "[js](javascript:window.pwned=6) [data](data:text/html,<script>window.pwned=7</script>) "
    "[ent](&#106;avascript:window.pwned=8) [vb](vbscript:x) [file](file:///etc/passwd) [rel](../up)\n\n"
    "![pic](https://example.org/tracker.png) <img src=x onerror=\"window.pwned=9\"> "
    "<a href=\"javascript:window.pwned=10\">raw</a> <script>window.pwned=11</script>\n\n"
    "[ref][r]\n\n[r]: javascript:window.pwned=12\n"
)


def markdown_page(tmp_path, store=None):
    from readinglist.record import Paper, Record
    from readinglist.store.lists import Entry, Item, ReadingList, Resolved, Section

    md = Paper(Record(key="md2026", title="Markdown notes", venue="NeurIPS", year=2026, tags=("llm",)), notes=MARKDOWN_NOTE)
    bad = Paper(Record(key="bad2026", title="Hostile notes", venue="NeurIPS", year=2026, tags=("llm",)), notes=HOSTILE_MARKDOWN)
    lst = ReadingList("wk", title="Week 12", introduction="Two papers on *glimpses*.\n\n- read **§3** first\n- slides: [here](https://example.org/slides)\n\n" + HOSTILE_MARKDOWN,
                      sections=(Section("Start", (Entry(md.key, "read §3 only"), Entry(bad.key))),))
    resolved = Resolved(lst, (Item("Start", Entry(md.key, "read §3 only"), md), Item("Start", Entry(bad.key), bad)))
    page = tmp_path / "markdown.html"
    page.write_text(export_html(resolved.papers, reading_list=resolved, with_notes=True), encoding="utf-8")
    return page


def test_notes_and_introduction_are_rendered_markdown(browser, tmp_path):
    page = markdown_page(tmp_path)
    load(browser, page)
    notes = browser.find_element("css selector", "article[data-key='md2026'] .notes")
    q = lambda css: [e.text for e in notes.find_elements("css selector", css)]  # noqa: E731
    assert q("strong") == ["week 12"] and q("em") == ["Friday"]
    assert q("ul > li") == ["strong ablations", "code at the repo"]
    assert q("h3") == ["Questions"]  # a note's "#" sits under the page's h1 and sections' h2
    assert q("ol > li") == ["Does it scale?"] and q("li code") == ["scale"]
    assert q("pre code") == ["<b>kept as code</b>"]
    links = browser.execute_script("return Array.from(arguments[0].querySelectorAll('a')).map(a => [a.textContent, a.href])", notes)
    assert links == [["the repo", "https://github.com/example/repo"], ["mailto:me@example.org", "mailto:me@example.org"],
                     ["https://example.org/a", "https://example.org/a"]]
    assert "**" not in notes.text and "- strong" not in notes.text and "](" not in notes.text
    intro = browser.find_element("id", "intro")
    assert [e.text for e in intro.find_elements("css selector", "em")] == ["glimpses"]
    assert [e.text for e in intro.find_elements("css selector", "li strong")] == ["§3"]
    assert intro.find_element("css selector", "a").get_attribute("href") == "https://example.org/slides"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.execute_script("arguments[0].scrollIntoView()", notes)
    browser.save_screenshot(str(SCREENSHOTS / "reading-list-markdown-notes.png"))


def test_hostile_markdown_stays_inert(browser, tmp_path):
    page = markdown_page(tmp_path)
    load(browser, page)
    assert browser.execute_script("return window.pwned") is None
    assert browser.execute_script("return document.scripts.length") == 2
    assert browser.execute_script("return document.querySelectorAll('img, iframe, object, embed').length") == 0
    hrefs = browser.execute_script("return Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href'))")
    assert hrefs and all(h.startswith(("https://", "mailto:")) for h in hrefs), hrefs
    # the picture became a link to it (the page loads nothing); raw HTML is text
    assert "https://example.org/tracker.png" in hrefs
    bad = browser.find_element("css selector", "article[data-key='bad2026'] .notes").text
    for shown in ('<img src=x onerror="window.pwned=9">', '<a href="javascript:window.pwned=10">raw</a>',
                  "<script>window.pwned=11</script>", "js", "data", "rel"):
        assert shown in bad, shown
    assert set(requests(browser)) <= {page.as_uri()}  # nothing fetched (CSP or not)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    # clicking every link inside the notes runs nothing either
    browser.execute_script("document.querySelectorAll('.notes a, .intro a').forEach(a => a.addEventListener('click', e => e.preventDefault()))")
    assert browser.execute_script("return window.pwned") is None
