"""What the first visit, a shared link, an export and a phone show, in a real browser: the
landing page, browser titles, each page's view restored from its URL in a new browser context,
the red state of a selection the binary refuses, export titles, and the 390 px layout."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from e2e_support import PHONE, streamlit_problems, wait_idle

pytestmark = pytest.mark.e2e

SEL = {"binary": "1.36", "emulated": "1.33"}
#: A phone: 390 px wide, touch, and a phone's User-Agent (what the app reads to size the grid).


def query(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query, keep_blank_values=True).items()}


def wait_query(page, key: str, value: str) -> None:
    page.wait_for_function(
        "([k, v]) => new URLSearchParams(window.location.search).get(k) === v", arg=[key, value], timeout=20_000
    )
    wait_idle(page)


def value_of(page, label: str) -> str:
    return page.locator(f'input[aria-label="{label}"]').first.input_value()




def svg_texts(svg: str) -> list[str]:
    """Every line of text in an SVG (a multi-line title is one <text> with a <tspan> per line)."""
    out = []
    for body in re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S):
        lines = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", body) or [body]
        out += [line.replace("&apos;", "'").replace("&#39;", "'").replace("&amp;", "&") for line in lines]
    return out


def grid_headers(page) -> list[str]:
    """The column headers the data grid renders (it renders only the columns in view)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stDataFrame"] [role="columnheader"]')]
             .map(h => h.textContent.trim())"""
    )


# ---------------------------------------------------------------------------------------------
# First visit and titles


def test_landing_heading_links_default_and_title(open_page):
    page, watch = open_page("gates", {})
    assert page.get_by_role("heading", level=1).inner_text().startswith("What does a Kubernetes binary enable")
    kep = page.get_by_role("link", name="KEP-4330 compatibility versions")
    assert kep.get_attribute("href").endswith("keps/sig-architecture/4330-compatibility-versions")
    assert page.get_by_role("link", name="Feature gates").get_attribute("href").startswith("https://kubernetes.io/")
    # the newest binary at its own release, as it starts without --emulated-version; the link names it
    assert page.get_by_text(re.compile(r"^Shown by default: a 1\.37 binary .* at its own release")).count() == 1
    assert query(page) == {"binary": "1.37", "emulated": "1.37"}
    assert page.title() == "1.37 · Gates · kcompat"
    assert page.get_by_text("Not yet introduced", exact=True).count() >= 1
    # The advanced upload comes after the answer.
    table = page.locator('[data-testid="stDataFrame"]').first.bounding_box()
    upload = page.get_by_role("button", name="Custom manifest…").bounding_box()
    assert upload["y"] > table["y"] + table["height"]
    assert streamlit_problems(page, ("Error", "Warning")) == []
    assert watch.console_errors == []


@pytest.mark.parametrize(
    ("key", "title"),
    [
        ("timeline", "1.36 emulating 1.33 · Timeline · kcompat"),
        ("gate", "1.36 emulating 1.33 · Gate detail · kcompat"),
        ("about", "About the data · kcompat"),
    ],
)
def test_each_page_has_its_own_browser_title(open_page, key, title):
    page, _ = open_page(key)
    assert page.title() == title
    has_bar = page.locator('input[aria-label="Binary release"]').count() == 1
    assert has_bar is (key != "about")  # the selection bar only where it changes the page


# ---------------------------------------------------------------------------------------------
# A link restores the view in a new tab


def test_gates_view_survives_a_link(open_page):
    page, _ = open_page("gates", SEL)
    page.locator('[data-testid="stButtonGroup"] button', has_text="changed").first.click()
    wait_query(page, "gates_quick", "changed")
    search = page.get_by_role("textbox", name="Search", exact=True)
    search.fill("Job")
    search.press("Enter")
    wait_query(page, "gates_text", "Job")
    page.locator('input[aria-label="Order"]').click()
    page.get_by_role("listbox").get_by_role("option", name="stage", exact=True).click()
    wait_query(page, "gates_sort", "stage")
    caption = page.get_by_text(re.compile(r"^\d+ of \d+ gates match the filters$")).inner_text()

    fresh, watch = open_page(page.url)
    assert fresh.context is not page.context
    assert query(fresh) == query(page) == {**SEL, "gates_quick": "changed", "gates_text": "Job", "gates_sort": "stage"}
    assert value_of(fresh, "Search") == "Job"
    assert value_of(fresh, "Order") == "stage"
    assert fresh.get_by_text(re.compile(r"^\d+ of \d+ gates match the filters$")).inner_text() == caption
    assert fresh.title() == "1.36 emulating 1.33 · Gates · kcompat"
    assert watch.console_errors == []


def test_timeline_view_survives_a_link(open_page):
    page, _ = open_page("timeline", SEL)
    search = page.get_by_role("textbox", name="Search", exact=True)
    search.fill("pod")
    search.press("Enter")
    wait_query(page, "timeline_text", "pod")
    page.locator('input[aria-label="Order"]').click()
    page.get_by_role("listbox").get_by_role("option", name="name", exact=True).click()
    wait_query(page, "timeline_sort", "name")
    count = page.get_by_text(re.compile(r"^\d+ of \d+ gates \(.*\)$")).inner_text()  # with where the search found them

    fresh, _ = open_page(page.url + "&timeline_from=30")
    assert value_of(fresh, "Search") == "pod"
    assert value_of(fresh, "Order") == "name"
    assert fresh.get_by_text(re.compile(r"^\d+ of \d+ gates \(.*\)$")).inner_text() == count
    assert fresh.locator('[data-testid="stSlider"]').inner_text().find("1.30") >= 0
    versions = fresh.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] g.role-axis-label text')]"
        ".map(t => t.textContent).filter(t => /^1\\.\\d+$/.test(t))"
    )
    assert versions[0] == "1.30"


def test_gate_detail_view_survives_a_link(open_page):
    page, _ = open_page("gate", {**SEL, "gate": "JobManagedBy", "gate_from": "26"})
    assert page.locator('[data-testid="stSlider"]').inner_text().find("1.26") >= 0
    fresh, _ = open_page(page.url)
    assert query(fresh)["gate"] == "JobManagedBy" and query(fresh)["gate_from"] == "26"
    assert fresh.get_by_role("heading", name="JobManagedBy").count() == 1
    versions = fresh.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] g.role-axis-label text')]"
        ".map(t => t.textContent).filter(t => /^1\\.\\d+$/.test(t))"
    )
    assert versions[0] == "1.26"


def test_about_view_survives_a_link(open_page):
    page, _ = open_page("about")
    section = page.locator('input[aria-label="Section"]')
    section.scroll_into_view_if_needed()
    section.click()
    section.fill("What the recordings do not give")  # the list is long: narrow it as a person would
    page.get_by_role("listbox").get_by_role("option", name=re.compile("What the recordings do not give")).click()
    page.wait_for_function("() => (new URLSearchParams(location.search).get('about_section') || '').includes('What the recordings do not give')")
    wait_idle(page)
    fresh, _ = open_page(page.url)
    assert "What the recordings do not give" in value_of(fresh, "Section")
    assert query(fresh)["about_section"] == query(page)["about_section"]


# ---------------------------------------------------------------------------------------------
# A selection the binary refuses


def test_a_refused_selection_is_red_with_the_binarys_errors(open_page):
    page, watch = open_page("gates", {"binary": "1.36", "emulated": "1.30"})
    errors = streamlit_problems(page, ("Error",))
    assert len(errors) == 1
    assert "A 1.36 binary would refuse to start" in errors[0]
    assert "error: emulation version 1.30 is not between [1.33, 1.36.0]" in errors[0]
    assert streamlit_problems(page, ("Warning",)) == []
    assert page.locator('[data-testid="stDataFrame"]').count() == 0  # no answer to screenshot by mistake
    assert page.locator('[data-testid="stMetric"]').count() == 0
    assert value_of(page, "Emulated version") == "1.30 (out of range)"
    assert query(page) == {"binary": "1.36", "emulated": "1.30"}
    assert page.title() == "1.36 emulating 1.30 · Gates · kcompat"
    assert watch.console_errors == []


def test_typing_an_out_of_range_version_selects_it(open_page):
    page, _ = open_page("timeline", SEL)
    box = page.locator('input[aria-label="Emulated version"]')
    box.click()
    box.fill("1.29")
    box.press("Enter")
    wait_query(page, "emulated", "1.29")
    errors = streamlit_problems(page, ("Error",))
    assert any("emulation version 1.29 is not between [1.33, 1.36.0]" in e for e in errors), errors
    assert page.locator('[data-testid="stVegaLiteChart"]').count() == 0
    # Back in range: the answer returns.
    box.click()
    page.get_by_role("listbox").get_by_role("option", name="1.34", exact=True).click()
    wait_query(page, "emulated", "1.34")
    assert streamlit_problems(page, ("Error",)) == []
    assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 1


# ---------------------------------------------------------------------------------------------
# Exports


def test_exported_timeline_has_title_caption_and_no_hints(open_page):
    page, _ = open_page("timeline", {**SEL, "timeline_text": "Job"})
    with page.expect_download(timeout=60_000) as info:
        page.locator('[data-testid="stDownloadButton"] button', has_text="SVG").first.click()
    svg = Path(info.value.path()).read_text(encoding="utf-8")
    texts = svg_texts(svg)
    assert "Stage history of the 1.36 binary's gates" in texts
    assert any(re.match(r"A 1\.36 binary emulating 1\.33; \d+ of \d+ gates; search 'Job'$", t) for t in texts), texts[:5]
    assert any(t.startswith("Data: Kubernetes feature-gate manifests") and "data/SOURCES.md" in t for t in texts)
    assert not any("click" in t for t in texts)
    assert "MutableSchedulingDirectivesForSuspendedJobs" in texts  # whole names
    assert "1.24" not in texts  # the axis fits the Job gates


def test_no_cut_off_gate_names_at_1440(open_page):
    page, _ = open_page("timeline", {**SEL, "timeline_text": "Job"})
    labels = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] g.role-axis-label text')]"
        ".map(t => t.textContent)"
    )
    assert "MutableSchedulingDirectivesForSuspendedJobs" in labels
    assert not any(t.endswith("…") for t in labels)


# ---------------------------------------------------------------------------------------------
# Phones


def test_phone_shows_gate_enabled_and_stage(open_page):
    page, watch = open_page("gates", SEL, **PHONE)
    page.locator('[data-testid="stDataFrame"]').first.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"stDataFrame\"] [role=\"columnheader\"]').length > 0",
        timeout=20_000,
    )
    # the gate column is as wide as the longest name (no name is cut): enabled and stage come
    # next, a short swipe to the side
    headers = grid_headers(page)
    assert headers[0] == "gate", headers
    page.evaluate("() => { const s = document.querySelector('[data-testid=\"stDataFrame\"] .dvn-scroller'); s.scrollLeft = 300; }")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"stDataFrame\"] [role=\"columnheader\"]')].some(h => h.textContent.trim() === 'stage at 1.33')",
        timeout=10_000,
    )
    headers = grid_headers(page)
    assert headers[headers.index("enabled") : headers.index("enabled") + 2] == ["enabled", "stage at 1.33"], headers
    assert watch.console_errors == []


def test_phone_timeline_labels_leave_room_for_the_bars(open_page):
    page, _ = open_page("timeline", {**SEL, "timeline_text": "Job"}, **PHONE)
    sizes = page.evaluate(
        """() => {
          const chart = document.querySelector('[data-testid="stVegaLiteChart"]');
          const svg = chart.querySelector('svg.marks');
          const labels = [...svg.querySelectorAll('g.role-axis-label text')].filter(t => !/^1\\.\\d+$/.test(t.textContent));
          const widest = Math.max(...labels.map(t => t.getBBox().width));
          const legends = [...svg.querySelectorAll('g.role-legend')].map(g => g.getBoundingClientRect().right);
          return {chart: chart.getBoundingClientRect().width, right: chart.getBoundingClientRect().right,
                  widest, legendRight: Math.max(...legends), viewport: window.innerWidth};
        }"""
    )
    assert sizes["widest"] <= 0.45 * sizes["chart"], sizes
    assert sizes["legendRight"] <= sizes["viewport"], sizes  # every legend is on screen


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_red_state_and_the_landing_pass_axe(open_page, theme):
    from test_e2e_pages import _axe, _serious

    for params in ({"binary": "1.36", "emulated": "1.30"}, {}):
        page, _ = open_page("gates", {**params, "embed_options": f"{theme}_theme"})
        assert _serious(page, _axe().run(page).response["violations"]) == []
