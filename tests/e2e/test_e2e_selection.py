"""The shared selection through the real widgets: it goes into the URL, and the URL alone brings
the same view back in a new browser context. URL values that are not versions give warnings;
versions the binary refuses or has no data for are kept and shown in red."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from e2e_support import streamlit_problems, wait_idle

pytestmark = pytest.mark.e2e

CONTROLS = {
    "binary": 'input[aria-label="Binary release"]',
    "emulated": 'input[aria-label="Emulated version"]',
    "min_compat": 'input[aria-label="Min compatibility version"]',
    "feature_gates": 'input[aria-label="--feature-gates"]',
}


def query(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query, keep_blank_values=True).items()}


def view(page) -> dict[str, object]:
    """What a person sees of the selection: the headings (if the page has any), the controls'
    values, the metrics (labels and values) and the page title."""
    return {
        "title": page.title(),
        "headings": [t.strip() for t in page.locator('[data-testid="stHeading"]').all_inner_texts()],
        "controls": {name: page.locator(sel).input_value() for name, sel in CONTROLS.items()},
        "metrics": [t.strip() for t in page.locator('[data-testid="stMetric"]').all_inner_texts()],
    }


def choose(page, label: str, option: str) -> None:
    """Open the selectbox ``label`` with a click and click ``option`` in its list."""
    page.locator(f'input[aria-label="{label}"]').click()
    listbox = page.get_by_role("listbox")
    listbox.get_by_role("option", name=option, exact=True).click()


def wait_query(page, key: str, value: str) -> None:
    page.wait_for_function(
        "([k, v]) => new URLSearchParams(window.location.search).get(k) === v", arg=[key, value], timeout=20_000
    )
    wait_idle(page)


def test_widgets_write_the_url_and_the_url_restores_the_view(open_page, browser, server_url):
    page, watch = open_page("gates", {"binary": "1.36", "emulated": "1.36"})
    assert query(page) == {"binary": "1.36", "emulated": "1.36"}

    choose(page, "Binary release", "1.35 (v1.35.8)")  # a plain 1.35 is its newest recorded patch
    wait_query(page, "binary", "1.35")
    choose(page, "Emulated version", "1.33")
    wait_query(page, "emulated", "1.33")
    gates = page.locator(CONTROLS["feature_gates"])
    gates.fill("AllBeta=false")
    gates.press("Enter")
    wait_query(page, "feature_gates", "AllBeta=false")

    assert query(page) == {"binary": "1.35", "emulated": "1.33", "feature_gates": "AllBeta=false"}
    before = view(page)
    assert before["controls"]["binary"] == "1.35 (v1.35.8)"
    assert before["controls"]["emulated"] == "1.33"
    assert before["controls"]["feature_gates"] == "AllBeta=false"
    assert before["metrics"], "the Gates page shows no metric"
    assert streamlit_problems(page, ("Error", "Warning")) == []
    assert watch.console_errors == []

    # The URL alone, in a new context (no cookies, no session): the same view.
    url = page.url
    fresh, fresh_watch = open_page(url)
    assert fresh.context is not page.context
    assert view(fresh) == before
    assert query(fresh) == query(page)
    assert fresh_watch.console_errors == []

    # The same on a page with a heading: the Timeline names the binary in it.
    page.get_by_role("link", name="Timeline").click()
    page.wait_for_url("**/timeline?**")
    wait_idle(page)
    timeline = view(page)
    assert any("1.35" in h for h in timeline["headings"]), timeline["headings"]
    again, _ = open_page(page.url)
    assert view(again) == timeline


def test_url_values_that_are_not_versions_show_warnings_and_defaults(open_page):
    page, watch = open_page("gates", {"binary": "nine", "emulated": "abc"})
    warnings = streamlit_problems(page, ("Warning",))
    assert any("binary='nine'" in w for w in warnings), warnings
    assert any("emulated='abc'" in w for w in warnings), warnings
    # No exception and no error: the defaults are shown and written back into the URL.
    assert streamlit_problems(page, ("Error",)) == []
    assert page.locator(CONTROLS["binary"]).input_value().split(" ")[0] == query(page)["binary"] != "nine"
    assert query(page)["emulated"] != "abc"
    assert watch.console_errors == []


def test_a_release_without_data_is_kept_and_shown_in_red(open_page):
    page, watch = open_page("gates", {"binary": "9.99", "emulated": "9.99"})
    errors = streamlit_problems(page, ("Error",))
    assert any("there is no bundled data for release 9.99" in e for e in errors), errors
    assert page.locator(CONTROLS["binary"]).input_value() == "9.99 (no bundled data)"
    assert query(page) == {"binary": "9.99", "emulated": "9.99"}
    assert page.locator('[data-testid="stDataFrame"]').count() == 0
    assert watch.console_errors == []
