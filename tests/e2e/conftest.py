"""Real-browser fixtures: the real Streamlit server on a free port, Debian's chromium via Playwright.

The server and the browser are started once per session (once per xdist worker with ``-n``);
each test opens fresh browser contexts. The helpers are in ``e2e_support.py``; the server and
browser start-up is :mod:`kcompat.cli.screenshots`' (shared with ``kcompat screenshots``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_support import (  # noqa: F401  (PageWatch, wait_idle, start_server: kept importable from here)
    OPEN_PAGES,
    PageWatch,
    artifact_dir,
    chromium_path,
    launch_browser,
    new_context,
    open_in_context,
    start_server,
    stop_server,
    wait_idle,
)


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).resolve().parent
    for item in items:
        if Path(str(item.fspath)).resolve().parent == here:
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """When a browser test fails, keep a screenshot of each page it had open (build/e2e-artifacts)."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        name = "".join(c if c.isalnum() or c in "-_" else "_" for c in item.name)
        for i, page in enumerate(OPEN_PAGES):
            try:
                if not page.is_closed():
                    page.screenshot(path=str(artifact_dir() / f"failed-{name}-{i}.png"))
            except Exception:  # noqa: BLE001 - best effort
                pass
    if report.when == "teardown":
        OPEN_PAGES.clear()


@pytest.fixture(scope="session")
def server_url():
    proc, url = start_server()
    yield url
    stop_server(proc)


@pytest.fixture(scope="session")
def browser():
    if chromium_path() is None:
        pytest.fail("Debian's chromium is not installed: run ./scripts/test.sh, which installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch_browser(p)
        yield b
        b.close()


@pytest.fixture()
def context(browser):
    """A fresh context: 1440x900, reduced motion, light colour scheme."""
    ctx = new_context(browser)
    yield ctx
    ctx.close()


@pytest.fixture()
def open_page(browser, server_url):
    """``open_page(key_or_url, params=None, **context_options) -> (page, watch)``: a page in a NEW
    browser context, loaded and idle. The contexts are closed after the test."""
    contexts = []

    def run(key_or_url: str, params: dict[str, str] | None = None, **options):
        ctx = new_context(browser, **options)
        contexts.append(ctx)
        return open_in_context(ctx, server_url, key_or_url, params)

    yield run
    for ctx in contexts:
        ctx.close()
