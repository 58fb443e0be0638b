"""HTML reading-list budget: size, export time, load time and filtering in headless Chromium.

Prints, in one run: the page size for the bundled seeds (38 papers, imported into a temporary
store) and for N papers (default 5,000, made as in export_bench.py, read ones finished over
several weeks); the export time; the load time of the N-paper page from file:// in headless
Chromium (navigation start to the load event, and to the list being filled); and filtering
the N papers in the page, timed with performance.now() around the page's own filter function
(which shows the first 50 matches; more on scrolling) plus a forced layout (median of 7 runs each: a search word, a tag, a status, a search and a
tag together, clearing). Budget: every filter <= 100 ms. Chromium, chromedriver and selenium
are needed for the browser figures (skipped with a note otherwise).

Run: python bench/html_bench.py [N]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from export_bench import make_papers  # noqa: E402

from readinglist.config import default_config  # noqa: E402
from readinglist.formats.registry import ExportOptions, find_exporter  # noqa: E402
from readinglist.record import Event  # noqa: E402

FILTER_BUDGET_MS = 100.0


def papers_with_history(n: int):
    out = []
    for i, p in enumerate(make_papers(n)):
        if p.status == "read":
            day = 1 + i % 28
            p = replace(p, history=p.history + (Event("finished", f"2026-11-{day:02d}T12:00:00Z"),))
        out.append(p)
    return out


def seeds_page(config) -> str:
    from readinglist.jobs import import_files
    from readinglist.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "library", config=config)
        import_files(store, sorted((ROOT / "seeds").glob("*.txt")), config=config, format="abstracts")
        return find_exporter("html").export(list(store), ExportOptions(config=config))


def browser():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None
    if not chromium or not driver_path:
        return None
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        opts.add_argument(arg)
    return webdriver.Chrome(service=Service(driver_path), options=opts)


FILTER_JS = """
const [q, tag, status] = arguments;
document.getElementById('clear').click();
document.body.offsetHeight;
const t0 = performance.now();
document.getElementById('q').value = q;
document.getElementById('f-status').value = status;
if (tag) document.querySelector(`#tags button[data-tag="${tag}"]`).click();
else window.readinglistFilter();
document.body.offsetHeight;  // force style and layout, as a person would see it
const t1 = performance.now();
return [t1 - t0, window.readinglistMatches().length];
"""


def main(n: int = 5_000) -> int:
    config = default_config()
    seeds = seeds_page(config)
    print(f"HTML for the seeds (38 papers): {len(seeds.encode()) / 1e3:.0f} kB")
    papers = papers_with_history(n)
    exporter = find_exporter("html")
    exporter.export(papers[:20], ExportOptions(config=config))
    start = time.perf_counter()
    page = exporter.export(papers, ExportOptions(config=config))
    export_s = time.perf_counter() - start
    print(f"HTML for {n:,} papers: {len(page.encode()) / 1e6:.1f} MB, exported in {export_s:.2f} s")

    driver = browser()
    if driver is None:
        print("no chromium/chromedriver/selenium: browser figures skipped")
        return 0
    ok = True
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "reading-list.html"
            path.write_text(page, encoding="utf-8")
            loads = []
            for _ in range(3):
                start = time.perf_counter()
                driver.get(path.as_uri())
                wall = (time.perf_counter() - start) * 1000
                nav = driver.execute_script(
                    "const e = performance.getEntriesByType('navigation')[0];"
                    "return [e.domContentLoadedEventEnd, e.loadEventEnd, window.readinglistMatches().length, window.readinglistReadyMs]"
                )
                assert nav[2] == n, nav
                loads.append((nav[0], nav[1], nav[3], wall))
            dcl, load, ready, wall = (statistics.median(x) for x in zip(*loads))
            print(f"load in headless Chromium ({n:,} papers, median of 3): page script done {ready:.0f} ms, "
                  f"DOMContentLoaded {dcl:.0f} ms, load event {load:.0f} ms, driver.get wall {wall:.0f} ms")
            print(f"filtering {n:,} papers (median of 7, JS + forced layout; budget {FILTER_BUDGET_MS:.0f} ms):")
            for label, args in (
                ("search 'model'", ("model", "", "")),
                ("tag llm", ("", "llm", "")),
                ("status read", ("", "", "read")),
                ("search 'learning' + tag vision", ("learning", "vision", "")),
                ("search that matches nothing", ("zzzqqq", "", "")),
                ("clear (show all)", ("", "", "")),
            ):
                runs = [driver.execute_script(FILTER_JS, *args) for _ in range(7)]
                ms = statistics.median(r[0] for r in runs)
                ok &= ms <= FILTER_BUDGET_MS
                print(f"  {label:<32} {ms:6.1f} ms  {runs[0][1]:>5} shown  ({'ok' if ms <= FILTER_BUDGET_MS else 'OVER'})")
    finally:
        driver.quit()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5_000))
