"""The HTML page's summary, charts and filters: they follow the selection, which survives a reload.

Headless Chromium through Selenium (skips without chromium, chromedriver or selenium; see
conftest.py)."""

from __future__ import annotations

from html_pages import export_html, load, visible_keys

try:
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # the browser fixture skips
    WebDriverWait = None


def test_filters_survive_a_reload_in_the_url_fragment(browser, store, tmp_path):
    papers = list(store)
    page = tmp_path / "reading-list.html"
    page.write_text(export_html(papers), encoding="utf-8")
    load(browser, page)
    browser.find_element("id", "q").send_keys("model")
    browser.find_element("css selector", "#tags button[data-tag='llm']").click()
    chosen = visible_keys(browser)
    assert 0 < len(chosen) < len(papers)
    fragment = browser.execute_script("return location.hash")
    assert fragment == "#q=model&tag=llm", fragment
    browser.refresh()
    assert browser.find_element("id", "q").get_attribute("value") == "model"
    assert browser.find_element("css selector", "#tags button[data-tag='llm']").get_attribute("aria-pressed") == "true"
    assert visible_keys(browser) == chosen
    # a shared link opens on the same selection; an edited fragment is followed
    load(browser, page)
    browser.get(page.as_uri() + "#status=read&year=2026")
    assert browser.find_element("id", "f-status").get_attribute("value") == "read"
    read = [p.key for p in papers if p.status == "read"]
    assert visible_keys(browser) == read
    browser.execute_script("location.hash = 'status=reading'")
    WebDriverWait(browser, 5, poll_frequency=0.1).until(lambda b: visible_keys(b) == [p.key for p in papers if p.status == "reading"])
    browser.find_element("id", "clear").click()
    assert browser.execute_script("return location.hash") == "" and len(visible_keys(browser)) == len(papers)
    # a fragment naming no tag or status of the page is ignored, not an error
    browser.get(page.as_uri() + "#tag=nope&status=bogus&q=")
    assert len(visible_keys(browser)) == len(papers)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def tag_rows(browser) -> list[tuple[str, str]]:
    return [tuple(r) for r in browser.execute_script(
        "return Array.from(document.querySelectorAll('#chart-tags .tagrow')).map(r => [r.querySelector('.tname').textContent, r.querySelector('.tcount').textContent])"
    )]


def test_summary_and_charts_follow_the_filters(browser, store, tmp_path):
    from collections import Counter

    papers = list(store)
    page = tmp_path / "reading-list.html"
    page.write_text(export_html(papers), encoding="utf-8")
    load(browser, page)
    counts = Counter(p.status for p in papers)
    assert browser.find_element("id", "summary").text == (
        f"{len(papers)} papers: {counts['read']} read, {counts['reading']} reading, {counts['unread']} to read.")

    def expected_rows(shown):
        total, read = Counter(), Counter()
        for p in shown:
            for t in p.tags:
                total[t] += 1
                read[t] += p.status == "read"
        return [(t, f"{read[t]}/{total[t]}") for t in sorted(total, key=lambda t: (-total[t], t))[:10]]

    assert tag_rows(browser) == expected_rows(papers)
    browser.find_element("css selector", "#tags button[data-tag='llm']").click()
    shown = [p for p in papers if "llm" in p.tags]
    c = Counter(p.status for p in shown)
    assert browser.find_element("id", "summary").text == (
        f"{len(shown)} of {len(papers)} papers: {c['read']} read, {c['reading']} reading, {c['unread']} to read.")
    assert tag_rows(browser) == expected_rows(shown)
    assert browser.find_element("id", "cap-tags").text == f"Progress per tag (the {len(shown)} papers shown)"
    assert browser.execute_script("return document.querySelector('#ch-time').textContent") == f"Papers read over time: {c['read']} of {len(shown)}"


def test_a_5000_paper_page_shows_whole_counts_and_tag_names(browser, tmp_path):
    from readinglist.record import Paper, Record

    long_tag = "retrieval-augmented-generation-for-scientific-question-answering"
    papers = [Paper(Record(key=f"p{i:04d}", title=f"Paper {i}", tags=("machine-learning", long_tag) if i < 4996 else ("x",)),
                    status="read" if i < 14 else "unread") for i in range(5000)]
    page = tmp_path / "big.html"
    page.write_text(export_html(papers), encoding="utf-8")
    try:
        for width in (1280, 390):
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
            load(browser, page)
            assert tag_rows(browser)[:2] == [("machine-learning", "14/4996"), (long_tag, "14/4996")]
            # nothing in a row is cut or spills out of its figure
            cut = browser.execute_script("""
                const fig = document.querySelector('#chart-tags').closest('figure').getBoundingClientRect();
                return Array.from(document.querySelectorAll('#chart-tags .tname, #chart-tags .tcount')).filter(e => {
                  const r = e.getBoundingClientRect();
                  return e.scrollWidth > e.clientWidth + 1 || r.right > fig.right + 0.5 || r.left < fig.left - 0.5;
                }).map(e => e.textContent)""")
            assert cut == [], (width, cut)
            assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_generated_titles_are_marked_per_card_only_when_mixed(browser, tmp_path):
    from readinglist.record import Paper, Record

    papers = [Paper(Record(key=f"g{i}", title=f"Paper {i}", generated=frozenset({"title"}) if i % 2 else frozenset())) for i in range(6)]
    page = tmp_path / "mixed.html"
    page.write_text(export_html(papers), encoding="utf-8")
    load(browser, page)
    assert not browser.find_elements("id", "generated")
    marked = browser.execute_script("return Array.from(document.querySelectorAll('article .badge')).map(b => [b.closest('article').dataset.key, b.textContent])")
    assert marked == [[f"g{i}", "generated title"] for i in (1, 3, 5)]


def test_the_phone_tag_strip_shows_that_it_scrolls(browser, store, tmp_path):
    page = tmp_path / "reading-list.html"
    page.write_text(export_html(list(store)), encoding="utf-8")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        load(browser, page)
        strip = browser.find_element("id", "tagstrip")
        assert browser.execute_script("const t = document.getElementById('tags'); return t.scrollWidth > t.clientWidth")
        classes = strip.get_attribute("class").split()
        assert {"sideways", "more-after"} <= set(classes) and "more-before" not in classes
        mask = lambda: browser.execute_script("const s = getComputedStyle(document.getElementById('tags')); return s.maskImage || s.webkitMaskImage")  # noqa: E731
        assert "gradient" in mask()
        assert "more tags" in browser.execute_script("return getComputedStyle(document.getElementById('tagstrip'), '::after').content")
        browser.execute_script("const t = document.getElementById('tags'); t.scrollLeft = t.scrollWidth")
        WebDriverWait(browser, 5, poll_frequency=0.1).until(lambda _: "more-after" not in strip.get_attribute("class").split())
        assert "more-before" in strip.get_attribute("class").split() and "gradient" in mask()
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
