"""The headless Chromium (one for all the HTML browser tests) and the seeded store they share."""

from __future__ import annotations

import pytest
from html_pages import chromium, seeded_store


@pytest.fixture(scope="session")
def browser():
    try:
        driver = chromium()
    except Exception as exc:  # chromium present but cannot start here
        pytest.skip(f"headless chromium does not start: {exc}")
    if driver is None:
        pytest.skip("needs chromium, chromedriver and selenium")
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return seeded_store(tmp_path_factory.mktemp("html"))
