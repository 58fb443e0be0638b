"""Pages the HTML tests and bench/html_bench.py share: a seeded store with reading history,
hostile papers, and a headless Chromium (None when chromium or chromedriver is missing)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from helpers import ROOT, SEED_FILES

from readinglist.config import default_config
from readinglist.formats.registry import ExportOptions
from readinglist.record import Event, Paper, Record
from datetime import UTC

HOSTILE_TITLE = '<script>window.pwned = 1</script>Hostile "title"'
HOSTILE_TAG = '"><img src=x onerror="window.pwned=2">'
HOSTILE_NOTE = "[click](javascript:window.pwned=3) </script><script>window.pwned=4</script>"
HOSTILE_KEY = "evil</script><!--"
HOSTILE_URL = "javascript:window.pwned=5"


def seeded_store(tmp: Path):
    """A store of the seeds where 6 papers were read over three weeks and 2 are being read."""
    from datetime import datetime, timedelta

    from readinglist.jobs import import_files
    from readinglist.store import Store

    when = [datetime(2026, 11, 2, 9, tzinfo=UTC)]

    def clock():
        return when[0]

    store = Store.open(tmp / "library", config=default_config(), clock=clock)
    import_files(store, SEED_FILES, config=default_config(), format="abstracts")
    keys = store.keys()
    for i, key in enumerate(keys[:6]):
        when[0] += timedelta(days=3 + i)
        store.set_status(key, "read")
    for key in keys[6:8]:
        store.set_status(key, "reading")
    return store


def hostile_papers() -> list[Paper]:
    bad = Paper(
        Record(key=HOSTILE_KEY, title=HOSTILE_TITLE, abstract="An abstract with </script> in it & more.",
               venue="Evil<Conf>", year=2026, tags=(HOSTILE_TAG, "llm"), url=HOSTILE_URL),
        status="read",
        notes=HOSTILE_NOTE,
        history=(Event("added", "2026-11-01T00:00:00Z"), Event("finished", "2026-11-20T00:00:00Z")),
    )
    good = Paper(Record(key="good2026", title="A good paper", venue="NeurIPS", year=2026, tags=("llm",),
                        url="https://example.org/good"))
    return [bad, good]


def export_html(papers, **kw) -> str:
    from readinglist.formats.html import exporter

    return exporter.export(list(papers), ExportOptions(config=default_config(), **kw))


def chromium():
    """A headless Chromium WebDriver with browser and network logs, or None."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not browser or not driver_path:
        return None
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900", "--hide-scrollbars", "--no-first-run"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(driver_path), options=opts)


SCREENSHOTS = Path(os.environ.get("READINGLIST_SCREENSHOTS") or ROOT / "screenshots")


def load(browser, path):
    browser.get_log("browser")  # forget earlier pages' messages
    browser.get_log("performance")
    browser.get(path.as_uri())
    return browser


def requests(browser) -> list[str]:
    urls = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def visible_keys(browser) -> list[str]:
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('article.paper')).filter(a => !a.hidden && a.offsetParent !== null).map(a => a.dataset.key)"
    )
