"""The HTML reading list in a real browser: headless Chromium driven by Selenium.

Skips when chromium, chromedriver or selenium is missing (``.ci/run`` installs them). Writes
screenshots at 1280 and 390 px wide to ``screenshots/`` (git-ignored; or $READINGLIST_SCREENSHOTS)
for a person to look at.
"""

from __future__ import annotations

from html_pages import (
    HOSTILE_KEY,
    HOSTILE_NOTE,
    HOSTILE_TAG,
    HOSTILE_TITLE,
    SCREENSHOTS,
    export_html,
    hostile_papers,
    load,
    requests,
    visible_keys,
)

from readinglist.store import lists

try:
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # the browser fixture skips
    WebDriverWait = None


def test_loads_from_file_with_no_errors_and_no_network(browser, store, tmp_path):
    page = tmp_path / "reading-list.html"
    page.write_text(export_html(list(store), with_notes=True), encoding="utf-8")
    load(browser, page)
    assert browser.execute_script("return document.querySelectorAll('article.paper').length") == len(store)
    assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
    assert set(requests(browser)) <= {page.as_uri()}
    # the reading status is a mark, not a control: nothing on a card looks like a checkbox
    states = browser.execute_script(
        "return Array.from(document.querySelectorAll('article.paper')).map(a => {const m = a.querySelector('.state'); return [a.dataset.key, m.dataset.status, m.getAttribute('aria-label'), getComputedStyle(m).cursor]})"
    )
    by_key = {p.key: p.status for p in store}
    assert all(status == by_key[k] and label.startswith("status: ") and cursor == "default" for k, status, label, cursor in states)
    assert sum(s == "read" for _, s, _, _ in states) == 6
    assert browser.execute_script("return document.querySelectorAll('main input').length") == 0
    # every title is generated: said once in the header, not on each card
    assert "generated from its abstract" in browser.find_element("id", "generated").text
    assert browser.execute_script("return document.querySelectorAll('article .badge').length") == 0
    # the legend names the bars' colours
    assert browser.find_element("id", "legend").text.split() == ["read", "reading", "to", "read"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.set_window_size(1280, 900)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.save_screenshot(str(SCREENSHOTS / "reading-list-1280.png"))
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    browser.refresh()
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    browser.save_screenshot(str(SCREENSHOTS / "reading-list-390.png"))
    # a phone in dark mode, scrolled to the papers, one abstract unfolded
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    assert browser.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
    browser.execute_script("const a = document.querySelector('article.paper'); a.querySelector('details').open = true; a.scrollIntoView()")
    browser.save_screenshot(str(SCREENSHOTS / "reading-list-390-dark.png"))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_search_and_tag_filter_show_exactly_the_expected_papers(browser, store, tmp_path):
    from readinglist.text import to_plain

    papers = list(store)
    page = tmp_path / "reading-list.html"
    page.write_text(export_html(papers), encoding="utf-8")
    load(browser, page)
    box = browser.find_element("id", "q")
    box.send_keys("language model")

    def matches(p, words):
        hay = "\n".join([p.key, p.record.title, to_plain(p.record.abstract), " ".join(p.tags), p.record.venue or "", str(p.record.year)]).lower()
        return all(w in hay for w in words)

    expected = [p.key for p in papers if matches(p, ["language", "model"])]
    assert 0 < len(expected) < len(papers)
    assert visible_keys(browser) == expected
    browser.find_element("css selector", "#tags button[data-tag='llm']").click()
    both = [p.key for p in papers if matches(p, ["language", "model"]) and "llm" in p.tags]
    assert visible_keys(browser) == both and len(both) < len(expected)
    assert browser.find_element("id", "count").text == f"{len(both)} of {len(papers)} papers"
    box.clear()
    browser.execute_script("window.readinglistFilter()")  # clear() sends no input event
    assert visible_keys(browser) == [p.key for p in papers if "llm" in p.tags]
    browser.find_element("id", "clear").click()
    assert len(visible_keys(browser)) == len(papers)


def test_hostile_strings_render_as_text(browser, tmp_path):
    page = tmp_path / "hostile.html"
    page.write_text(export_html(hostile_papers(), with_notes=True), encoding="utf-8")
    load(browser, page)
    assert browser.execute_script("return window.pwned") is None
    assert browser.execute_script("return document.scripts.length") == 2
    assert browser.execute_script("return document.querySelectorAll('img').length") == 0
    assert browser.execute_script("return Array.from(document.links).map(a => a.href)") == ["https://example.org/good"]
    card = browser.find_element("css selector", "article.paper")
    assert card.get_attribute("data-key") == HOSTILE_KEY
    text = card.text
    assert HOSTILE_TITLE in text and HOSTILE_TAG in text
    # the note is Markdown: a javascript: target makes no link (it stays as written), raw HTML is text
    notes = card.find_element("css selector", ".notes")
    assert notes.text == HOSTILE_NOTE and not notes.find_elements("css selector", "a")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_curated_list_shows_sections_and_comments(browser, store, tmp_path):
    keys = store.keys()
    lists.create(store, "wk", title="Week 12", introduction="Read these *before* Friday.")
    lists.add(store, "wk", [keys[10]], section="Start here", comment="read §3 only")
    lists.add(store, "wk", [keys[3], keys[2]], section="Then")
    resolved = lists.resolve(store, lists.load(store, "wk"))
    page = tmp_path / "wk.html"
    page.write_text(export_html(resolved.papers, reading_list=resolved), encoding="utf-8")
    load(browser, page)
    assert browser.find_element("id", "title").text == "Week 12"
    assert [h.text for h in browser.find_elements("css selector", "main h2")] == ["Start here", "Then"]
    assert visible_keys(browser) == [keys[10], keys[3], keys[2]]
    assert browser.find_element("css selector", "article .comment").text == "read §3 only"


def test_a_long_list_shows_a_page_at_a_time_and_filters_all_of_it(browser, tmp_path):
    from readinglist.record import Paper, Record

    papers = [Paper(Record(key=f"p{i:03d}", title=f"Paper {i} on {'graphs' if i % 3 else 'vision'}", tags=("even",) if i % 2 == 0 else ()))
              for i in range(250)]
    page = tmp_path / "long.html"
    page.write_text(export_html(papers), encoding="utf-8")
    load(browser, page)
    assert len(visible_keys(browser)) == 50
    assert browser.find_element("css selector", "button.more").text == "show more (200 left)"
    browser.find_element("id", "q").send_keys("vision")
    expected = [p.key for p in papers if "vision" in p.record.title]
    assert browser.execute_script("return window.readinglistMatches()") == expected
    assert visible_keys(browser) == expected[:50]  # 84 papers: the first page
    browser.find_element("css selector", "#tags button[data-tag='even']").click()
    assert visible_keys(browser) == [k for k in expected if int(k[1:]) % 2 == 0]  # 42: all shown
    browser.find_element("id", "clear").click()
    browser.execute_script("document.querySelector('button.more').click()")  # no scrolling
    assert len(visible_keys(browser)) == 100
    # scrolling down loads the rest, a page at a time

    def scrolled_to_the_end(b):
        b.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        return len(visible_keys(b)) == 250

    WebDriverWait(browser, 10, poll_frequency=0.2).until(scrolled_to_the_end)
    assert not browser.find_elements("css selector", "main button.more")


def test_bibtex_is_one_click_away(browser, store, tmp_path):
    from readinglist.formats.bibtex import exporter as bibtex
    from readinglist.formats.registry import ExportOptions
    from readinglist.config import default_config

    papers = list(store)[:3]
    page = tmp_path / "bib.html"
    page.write_text(export_html(papers), encoding="utf-8")
    load(browser, page)
    first = browser.find_element("css selector", "article.paper")
    first.find_element("css selector", "details.bib summary").click()
    # the <pre> is made when the panel's (asynchronous) toggle event fires: wait for it and its
    # text (a loaded machine is slow)
    WebDriverWait(browser, 10, poll_frequency=0.1).until(
        lambda _: any(e.text.strip() for e in first.find_elements("css selector", "details.bib pre"))
    )
    pre = first.find_element("css selector", "details.bib pre")
    shown = pre.text
    assert shown.splitlines()[1].startswith(f"@inproceedings{{{papers[0].key},")
    # the entry is the BibTeX export's, without the abstract (the page shows that already)
    entry = bibtex.export([papers[0].evolve(record=papers[0].record.evolve(abstract=""))], ExportOptions(config=default_config()))
    assert shown.strip() == entry.strip()
    button = first.find_element("css selector", "button.copy")
    button.click()
    # the clipboard answers asynchronously; headless may refuse it ("select and copy")
    WebDriverWait(browser, 10, poll_frequency=0.1).until(lambda _: button.text in ("copied", "select and copy"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_two_sections_with_one_title_are_two_sections(browser, store, tmp_path):
    """Sections are told apart by position (issue 29 item 8): two adjacent sections titled
    alike are two headings, each over its own papers."""
    from readinglist.store.lists import Entry, ReadingList, Section

    keys = store.keys()
    lst = ReadingList("twice", "Twice", "", (Section("Read", (Entry(keys[1]),)), Section("Read", (Entry(keys[2]), Entry(keys[3])))))
    resolved = lists.resolve(store, lst)
    page = tmp_path / "twice.html"
    page.write_text(export_html(resolved.papers, reading_list=resolved), encoding="utf-8")
    load(browser, page)
    assert [h.text for h in browser.find_elements("css selector", "main h2")] == ["Read", "Read"]
    assert visible_keys(browser) == [keys[1], keys[2], keys[3]]
