"""A link with a page's view parameters, opened in a new browser context, shows that view: the
What changes, Release matrix, APIs, Upgrade plan and Check a cluster pages (the Gates, Timeline,
Gate detail and About pages are in test_e2e_views.py)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

pytestmark = pytest.mark.e2e


def query(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query, keep_blank_values=True).items()}


def value_of(page, label: str) -> str:
    return page.locator(f'input[aria-label="{label}"]').first.input_value()


def open_tab(page) -> list[str]:
    """The selected tab of each tab bar on the page."""
    return page.evaluate("() => [...document.querySelectorAll('[role=tab][aria-selected=true]')].map(t => t.textContent.trim())")


def chosen(page) -> list[str]:
    """The chosen buttons of the segmented controls (aria-checked) and pills (aria-pressed)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stButtonGroup"] button')]
             .filter(b => b.getAttribute('aria-checked') === 'true' || b.getAttribute('aria-pressed') === 'true')
             .map(b => b.textContent.trim())"""
    )


def switched_on(page, label: str) -> bool:
    return page.locator(f'input[role="switch"][aria-label="{label}"]').is_checked()


def multiselect_text(page, index: int = 0) -> str:
    return page.locator('[data-testid="stMultiSelect"]').nth(index).inner_text()


def codes(page) -> list[str]:
    return [c.inner_text() for c in page.locator('[data-testid="stCode"]').all()]


VIEWS = {
    "changes": {
        "binary": "1.33", "emulated": "1.31",
        "changes_tab": "other", "changes_other": "1.34.12", "changes_other_show": "all differences",
    },
    "matrix": {
        "binary": "1.36", "emulated": "1.33",
        "matrix_text": "job", "matrix_stages": "Beta,GA", "matrix_release": "1.34", "matrix_changed": "true",
        "matrix_transition": "1.35:toGA", "matrix_origin": "kube", "matrix_since": "1.33",
    },
    "apis": {
        "binary": "1.33", "emulated": "1.31",
        "apis_tab": "storage", "apis_served": "not served", "apis_stages": "beta", "apis_groups": "core", "apis_text": "cidr",
    },
    "plan": {"binary": "1.33", "emulated": "1.32", "to": "1.36", "plan_jumps": "true"},
    "cluster": {"binary": "1.36", "emulated": "1.34", "cluster_snippet": "kind"},
}


@pytest.mark.parametrize("key", list(VIEWS))
def test_a_link_restores_the_view_in_a_new_context(open_page, key):
    page, watch = open_page(key, VIEWS[key])
    assert query(page) == VIEWS[key]  # nothing dropped or rewritten
    assert page.locator('[data-testid="stAlert"]', has_text="in the URL").count() == 0
    if key == "changes":
        assert open_tab(page) == ["vs another release or emulated version"]
        assert value_of(page, "Compare with") == "a real 1.34.12"
        assert chosen(page).count("all differences") == 1 and chosen(page).count("behaves differently") == 2
        assert any(c.endswith("--against 1.34.12") for c in codes(page))
    elif key == "matrix":
        assert value_of(page, "Search") == "job"
        stages = multiselect_text(page)
        assert "Beta" in stages and "GA" in stages
        assert value_of(page, "in release") == "1.34"
        assert switched_on(page, "Changed only")
        assert value_of(page, "Changed in a release").startswith("graduated to GA in 1.35 (")
        assert "kube" in chosen(page) and value_of(page, "From release") == "1.33"
    elif key == "apis":
        assert open_tab(page) == ["Storage versions"]
        assert chosen(page) == ["not served", "beta"]
        assert "(core)" in multiselect_text(page)
        assert value_of(page, "Search") == "cidr"
    elif key == "plan":
        assert value_of(page, "Target binary") == "1.36"
        assert switched_on(page, "Allow multi-minor binary jumps")
        assert "kcompat plan --from 1.33@1.32 --to 1.36 --allow-multi-minor" in codes(page)
    elif key == "cluster":
        assert open_tab(page) == ["kind"]
    assert watch.console_errors == []


def test_a_clicked_tab_goes_into_the_link(open_page):
    page, _ = open_page("apis", {"binary": "1.33", "emulated": "1.31"})
    page.get_by_role("tab", name="Version skew").click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('apis_tab') === 'skew'", timeout=20_000)
    fresh, _ = open_page(page.url)
    assert open_tab(fresh) == ["Version skew"]
