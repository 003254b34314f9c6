"""Every page (from PAGES) in a real browser: loads without Streamlit errors or console errors,
requests nothing outside localhost, and passes axe (no serious or critical violation)."""

from __future__ import annotations

import functools

import pytest
from e2e_support import (
    PAGES,
    new_context,
    open_in_context,
    page_params,
    streamlit_problems,
)

pytestmark = pytest.mark.e2e

#: axe violations Streamlit's own widgets cause and the app cannot change: (rule id, CSS selector
#: the offending element must match). Empty: the code blocks are shown without syntax colours
#: (their built-in light palette fails contrast) and the theme sets contrasting text colours.
AXE_ALLOWED: tuple[tuple[str, str], ...] = ()


@functools.lru_cache(maxsize=1)
def _axe():
    from axe_playwright_python.sync_playwright import (
        Axe,  # bundles axe-core's JS: works offline
    )

    return Axe()


@pytest.fixture(scope="module")
def loaded(browser, server_url):
    """Page key -> (page, watch): each page loaded once per module in its own fresh context."""
    cache: dict[str, tuple] = {}
    contexts = []

    def load(key: str):
        if key not in cache:
            ctx = new_context(browser)
            contexts.append(ctx)
            cache[key] = open_in_context(ctx, server_url, key)
        return cache[key]

    yield load
    for ctx in contexts:
        ctx.close()


@pytest.mark.parametrize("key", list(PAGES))
def test_page_loads_without_errors(loaded, key):
    page, watch = loaded(key)
    # A good selection: no exception, no error and no warning on any page.
    assert streamlit_problems(page, ("Error", "Warning")) == []
    assert page.locator('[data-testid="stMain"]').inner_text().strip(), "the page is empty"
    assert watch.console_errors == []
    assert watch.unexpected_responses() == []


@pytest.mark.parametrize("key", list(PAGES))
def test_page_requests_stay_on_localhost(loaded, key):
    _page, watch = loaded(key)
    assert watch.requests, "no request was recorded"
    assert watch.external_requests() == [], (
        "the page asked a host outside localhost (a ':material/…:' page_icon makes Streamlit load the "
        "favicon from fonts.gstatic.com; use an emoji or a local file)"
    )


def _allowed(page, rule: str, node: dict) -> bool:
    selectors = [sel for rid, sel in AXE_ALLOWED if rid == rule]
    if not selectors or len(node["target"]) != 1:  # a target list longer than 1 is inside an iframe
        return False
    return page.evaluate(
        "([target, selectors]) => { const el = document.querySelector(target);"
        " return !!el && selectors.some(s => el.matches(s)); }",
        [node["target"][0], selectors],
    )


def _serious(page, violations: list[dict]) -> list[str]:
    out = []
    for v in violations:
        if v.get("impact") not in ("serious", "critical"):
            continue
        for n in v["nodes"]:
            if _allowed(page, v["id"], n):
                continue
            data = next((c.get("data") for c in n.get("any", []) if isinstance(c.get("data"), dict)), None) or {}
            detail = {k: data[k] for k in ("fgColor", "bgColor", "contrastRatio") if k in data}
            out.append(f"{v['id']} ({v['impact']}): {n.get('html', '')[:120]} {detail or n['target']}")
    return out


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("key", list(PAGES))
def test_page_accessibility(loaded, open_page, key, theme):
    if theme == "light":
        page, _ = loaded(key)  # the system default here is light
    else:
        page, _ = open_page(key, page_params(key, embed_options="dark_theme"))
    results = _axe().run(page)
    assert _serious(page, results.response["violations"]) == []


def test_a_chart_toolbar_offers_the_apps_titled_png_only(loaded):
    # Streamlit's own "Download as PNG" (the chart without its title) is hidden; its other tools stay.
    page, _watch = loaded("matrix")
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    chart.hover()
    toolbar = page.locator('[data-testid="stElementToolbar"]:visible').filter(has=page.get_by_role("button", name="Copy Vega-Lite spec"))
    toolbar.first.wait_for(timeout=10_000)
    assert toolbar.first.get_by_role("button", name="Show data").is_visible()
    streamlits = page.locator('[data-testid="stElementToolbar"] button[aria-label="Download as PNG"]')
    assert streamlits.count() >= 1  # Streamlit draws it ...
    assert not streamlits.first.is_visible()  # ... and the app hides it
    assert page.get_by_role("button", name="PNG", exact=True).count() >= 1  # the app's titled one
