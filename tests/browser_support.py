"""Helpers of the browser tests: Debian's Chromium driven by Playwright (never ``playwright install``),
tables created from the front page as a person does, a finished deal's end read and passed."""
from __future__ import annotations

import contextlib
import os

import pytest

from web_support import need_web

CHROMIUM = os.environ.get("KIERKI_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@contextlib.contextmanager
def chromium():
    """A headless Chromium, imported and started only when a browser test runs (not at collection);
    the test is skipped without Playwright or Chromium. Always closed."""
    need_web()
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def browser():
    """The browser tests' Chromium, one per test module (import this fixture into the module)."""
    with chromium() as b:
        yield b


def create(page, base: str, ruleset: str, seats: list) -> dict:
    """Create a table from the front page by clicking; each human seat's link (seat -> URL)."""
    page.goto(base + "/")
    page.locator(f'input[name=ruleset][value="{ruleset}"]').check()
    for s, kind in enumerate(seats):
        page.select_option(f"#seat-{s}", kind)
    page.click("#create")
    page.wait_for_selector("a.seat-link")
    return {int(a.get_attribute("data-seat")): a.get_attribute("href") for a in page.locator("a.seat-link").all()}


def next_deal(page) -> bool:
    """Press "Next deal" where the page shows a finished deal's end (its points read first); whether it did."""
    if not page.locator("#next-deal").count():  # cheap first: most calls find no deal's end
        return False
    button = page.get_by_role("button", name="Next deal")
    assert "Points this deal:" in page.locator("#deal-end").inner_text()
    button.click()
    return True
