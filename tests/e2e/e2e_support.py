"""Helpers of the browser tests (imported by conftest.py and the test modules).

Starting the server and the browser, waiting for the app to be idle and building page URLs live
in :mod:`kcompat.cli.screenshots` (one implementation for the tests, ``kcompat screenshots`` and
``bench/bench_first_paint.py``); they are re-exported here.
"""

from __future__ import annotations

import re
from pathlib import Path

from kcompat.cli.screenshots import (  # noqa: F401  (re-exported for the tests)
    CHROMIUM_ARGS,
    DETAIL_GATE,
    PHONE,
    ROOT,
    VIEWPORT,
    chromium_path,
    free_port,
    launch_browser,
    new_context,
    page_keys,
    page_url,
    start_server,
    stop_server,
    wait_healthy,
    wait_idle,
)

#: Browser context options: a 1440x900 screen, and the 390x844 phone of `kcompat screenshots --phone`.
DESKTOP = {"viewport": VIEWPORT}

#: The page keys (dashboard.frame.pages.PAGES), the default page first.
PAGES = page_keys()

#: The selection the tests open every page with.
SELECTION = {"binary": "1.36", "emulated": "1.33"}


def page_params(key: str, **extra: str) -> dict[str, str]:
    """Query parameters for page ``key``: the test selection (+ a gate on the gate detail page)."""
    params = dict(SELECTION)
    if key == "gate":
        params["gate"] = DETAIL_GATE
    params.update(extra)
    return params


#: Console errors Streamlit itself causes on every deep link (``/timeline``, ``/gate``, …): the
#: frontend first looks for the server under the page's path (``/timeline/_stcore/health`` and
#: ``/timeline/_stcore/host-config``), gets 404, then uses ``/``. Nothing the app can change.
_PROBE_404 = re.compile(r"^https?://[^/]+/[^?#]+/_stcore/(health|host-config)([?#].*)?$")


_LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "http://localhost", "ws://localhost", "data:", "blob:", "about:")


class PageWatch:
    """Records console errors, every request and every failed response of a page."""

    def __init__(self, page, base_url: str):
        self.page = page
        self.base_url = base_url
        self.console_errors: list[str] = []
        self.requests: list[str] = []
        self.bad_responses: list[tuple[int, str]] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.console_errors.append(f"uncaught: {exc}"))
        page.on("request", lambda req: self.requests.append(req.url))
        page.on("response", lambda resp: self.bad_responses.append((resp.status, resp.url)) if resp.status >= 400 else None)

    def _on_console(self, msg) -> None:
        if msg.type != "error":
            return
        where = (msg.location or {}).get("url", "")
        if msg.text.startswith("Failed to load resource: the server responded with a status of 404") and _PROBE_404.match(where):
            return
        if msg.text.startswith("Failed to load resource: net::") and where and not where.startswith(_LOCAL):
            return  # a request leaving localhost: external_requests() reports it
        self.console_errors.append(f"{msg.text} ({where})" if where else msg.text)

    def external_requests(self) -> list[str]:
        return [u for u in self.requests if not u.startswith(_LOCAL)]

    def unexpected_responses(self) -> list[tuple[int, str]]:
        return [(s, u) for s, u in self.bad_responses if not (s == 404 and _PROBE_404.match(u))]


def streamlit_problems(page, kinds: tuple[str, ...] = ("Error",)) -> list[str]:
    """Texts of Streamlit exceptions and of alerts of the given kinds (Error, Warning, Info, Success)."""
    found = [f"exception: {t}" for t in page.locator('[data-testid="stException"]').all_inner_texts()]
    for kind in kinds:
        found += [f"{kind.lower()}: {t}" for t in page.locator(f'[data-testid="stAlertContent{kind}"]').all_inner_texts()]
    return found


#: Pages opened by the current test: screenshotted into artifact_dir() when it fails.
OPEN_PAGES: list = []


def open_in_context(ctx, base_url: str, url_or_key: str, params: dict[str, str] | None = None):
    """A new tab of ``ctx`` on a full URL or a page key (+ params), loaded and idle: (page, watch)."""
    page = ctx.new_page()
    OPEN_PAGES.append(page)
    watch = PageWatch(page, base_url)
    url = url_or_key if "://" in url_or_key else page_url(base_url, url_or_key, page_params(url_or_key) if params is None else params)
    page.goto(url, wait_until="domcontentloaded")
    wait_idle(page)
    return page, watch


def artifact_dir() -> Path:
    """Where the tests leave screenshots to look at (not compared): build/e2e-artifacts (ignored by git)."""
    path = ROOT / "build" / "e2e-artifacts"
    path.mkdir(parents=True, exist_ok=True)
    return path
