"""The timeline in a real browser: Vega-Lite draws it as SVG, one y-axis row per gate the page
counts, in blocks of rows that each carry their own release axis and legends (the last one an axis
at the bottom too), as tall as their rows, with legible labels in both themes."""

from __future__ import annotations

import re

import pytest
from e2e_support import DESKTOP, PHONE, wait_idle

pytestmark = pytest.mark.e2e

SEL = {"binary": "1.36", "emulated": "1.33"}
ROW_HEIGHT = 18  # dashboard.charts.specs.ROW_HEIGHT (the tests do not import the app)

#: Per chart (top to bottom): its gate-name labels and release labels with their positions in the
#: viewport, its legends' positions, its own box, and the gates its bars belong to.
CHARTS_JS = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].map(chart => {
  const svg = chart.querySelector('svg.marks');
  if (!svg) return {canvas: !!chart.querySelector('canvas')};
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const texts = [...svg.querySelectorAll('g.role-axis-label text')].map(t => ({text: t.textContent, ...box(t)}));
  // Each bar's aria-label lists its fields ("start: 32; gate: Foo; end: 33; …"): the gates drawn.
  const barGates = [...svg.querySelectorAll('[aria-roledescription="bar"]')]
    .map(b => ((b.getAttribute('aria-label') || '').match(/(?:^|; )gate: ([^;]+)/) || [])[1]).filter(Boolean);
  return {box: box(chart), svgHeight: svg.getBoundingClientRect().height,
          labels: texts.filter(t => !/^1\\.\\d+$/.test(t.text)), versions: texts.filter(t => /^1\\.\\d+$/.test(t.text)),
          legends: [...svg.querySelectorAll('g.role-legend')].map(box), barGates: [...new Set(barGates)]};
})"""

#: The first gate-name label: its computed font size and fill, and the page's background colour.
LABEL_STYLE_JS = """() => {
  const t = document.querySelector('[data-testid="stVegaLiteChart"] svg.marks g.role-axis-label text');
  const s = getComputedStyle(t);
  return {size: parseFloat(s.fontSize), fill: s.fill,
          background: getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor};
}"""


def counted(page) -> tuple[int, int]:
    """The page's own "N of M gates" caption."""
    text = page.get_by_text(re.compile(r"^\d+ of \d+ gates( \(.*\))?$")).inner_text()
    shown, total = map(int, re.findall(r"\d+", text.split(" gates")[0]))
    return shown, total


def charts(page) -> list[dict]:
    drawn = page.evaluate(CHARTS_JS)
    assert drawn and all("labels" in c for c in drawn), f"a chart is not an SVG: {drawn}"
    return drawn


def in_view(item: dict, height: float) -> bool:
    return item["top"] >= 0 and item["bottom"] <= height


def luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+(?:\.\d+)?", css)[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_timeline_chart_has_one_row_per_counted_gate(open_page):
    page, watch = open_page("timeline", SEL)
    drawn = charts(page)
    shown, total = counted(page)
    assert shown == total > 100
    labels = [t["text"] for c in drawn for t in c["labels"]]
    assert len(labels) == len(set(labels)) == shown
    assert sorted(g for c in drawn for g in c["barGates"]) == sorted(labels)
    versions = {t["text"] for c in drawn for t in c["versions"]}
    assert {"1.31", "1.33", "1.36"} <= versions and "1.30" not in versions  # from the oldest bundled release
    assert watch.console_errors == []

    # Narrow the rows with the page's search box: the chart follows the count.
    search = page.get_by_role("textbox", name="Search", exact=True)
    search.fill("Job")
    search.press("Enter")
    page.wait_for_function("() => !/^(\\d+) of \\1 gates/.test([...document.querySelectorAll('p')].map(p => p.textContent).find(t => / of \\d+ gates/.test(t)) || '')")
    wait_idle(page)
    shown, _ = counted(page)
    drawn = charts(page)
    labels = [t["text"] for c in drawn for t in c["labels"]]
    assert 0 < shown < total
    assert len(labels) == shown
    assert sorted(g for c in drawn for g in c["barGates"]) == sorted(labels)
    assert all("job" in name.lower() for name in labels)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_an_axis_and_a_legend_are_in_view_wherever_the_page_is_scrolled(open_page, device):
    options = DESKTOP if device == "desktop" else PHONE
    height = options["viewport"]["height"]
    page, watch = open_page("timeline", SEL, **options)
    drawn = charts(page)
    shown, _ = counted(page)
    assert len(drawn) > 1 and sum(len(c["labels"]) for c in drawn) == shown

    # Every legend is on screen (a phone's 390 px too).
    width = options["viewport"]["width"]
    assert all(g["left"] >= 0 and g["right"] <= width for c in drawn for g in c["legends"]), [c["legends"] for c in drawn]
    # Each chart is as tall as its rows plus its axes and legends: no fixed box, no scrolling inside.
    for c in drawn:
        rows = len(c["labels"])
        assert rows * ROW_HEIGHT <= c["box"]["bottom"] - c["box"]["top"] <= rows * ROW_HEIGHT + 260, (rows, c["box"])
    inner = page.evaluate(
        """() => { const c = document.querySelector('[data-testid="stVegaLiteChart"]');
          for (let e = c.parentElement; e && e !== document.body; e = e.parentElement) {
            const s = getComputedStyle(e);
            if (/(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1
                && !e.matches('[data-testid="stMain"], [data-testid="stAppViewContainer"], [data-testid="stApp"]')) return e.outerHTML.slice(0, 120);
          } return null; }"""
    )
    assert inner is None, f"the chart sits in a box that scrolls: {inner}"

    # Scroll the last gate's row into view: the release axis is right under it.
    last = drawn[-1]["labels"][-1]["text"]
    page.locator('[data-testid="stVegaLiteChart"]').last.locator("g.role-axis-label text", has_text=re.compile(f"^{last}$")).scroll_into_view_if_needed()
    page.wait_for_timeout(200)
    drawn = charts(page)
    row = next(t for t in drawn[-1]["labels"] if t["text"] == last)
    assert in_view(row, height)
    below = [v for v in drawn[-1]["versions"] if in_view(v, height) and 0 <= v["top"] - row["bottom"] <= 3 * ROW_HEIGHT]
    assert {v["text"] for v in below} >= {"1.31", "1.36"}, (row, drawn[-1]["versions"])

    # From the top to the bottom of the page, a screen at a time: release labels and a legend in view.
    total = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    step, y, looked = height // 2, 0, 0
    while y < total:
        page.evaluate(f"() => {{ document.querySelector('[data-testid=\"stMain\"]').scrollTop = {y}; window.scrollTo(0, {y}); }}")
        page.wait_for_timeout(50)
        drawn = charts(page)
        rows_in_view = [t for c in drawn for t in c["labels"] if in_view(t, height)]
        if rows_in_view:
            looked += 1
            assert any(in_view(v, height) for c in drawn for v in c["versions"]), f"no release axis in view at {y}"
            # a legend at least partly on screen (the last block's, right above its rows, may be cut at the top)
            assert any(g["bottom"] > 0 and g["top"] < height for c in drawn for g in c["legends"]), f"no legend in view at {y}"
        y += step
    assert looked >= len(drawn)  # every block was looked at (a block is taller than half a screen)
    assert watch.console_errors == []


def test_one_row_is_a_short_chart_with_the_exports_right_under_it(open_page):
    page, _ = open_page("timeline", {**SEL, "timeline_text": "StatefulSetSemanticRevisionComparison", "timeline_from": "31"})
    (chart,) = charts(page)
    assert [t["text"] for t in chart["labels"]] == ["StatefulSetSemanticRevisionComparison"]
    # one row, its legends and two axes: not the tall box of a long list
    assert chart["box"]["bottom"] - chart["box"]["top"] <= ROW_HEIGHT + 200, chart["box"]
    button = page.locator('[data-testid="stDownloadButton"]').first.bounding_box()
    assert 0 <= button["y"] - chart["box"]["bottom"] < 80
    # Before 1.34 (the first release that lists it: v1.34.12 registers it) the gate did not exist: a "predates" band, no stage bar.
    bars = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] [aria-roledescription=\"bar\"]')]"
        ".map(b => b.getAttribute('aria-label'))"
    )
    stage_bars = [b for b in bars if "stage: " in b]
    assert len(stage_bars) == 1 and "start: 34" in stage_bars[0] and "stage: Beta" in stage_bars[0], bars
    assert any("predates the gate" in b and "start: 31" in b for b in bars), bars


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_row_labels_are_legible(open_page, theme):
    page, _ = open_page("timeline", {**SEL, "embed_options": f"{theme}_theme"})
    style = page.evaluate(LABEL_STYLE_JS)
    assert style["size"] >= 12, style
    assert contrast(style["fill"], style["background"]) >= 7, style


def test_clicking_a_bar_in_a_later_block_opens_its_gate(open_page):
    page, watch = open_page("timeline", SEL)
    chart = page.locator('[data-testid="stVegaLiteChart"]').nth(2)
    bar = chart.locator('[aria-roledescription="bar"]').first
    gate = re.search(r"(?:^|; )gate: ([^;]+)", bar.get_attribute("aria-label")).group(1)
    bar.scroll_into_view_if_needed()
    bar.click()
    page.wait_for_url(re.compile(rf"/gate\?(.*&)?gate={gate}(&|$)"), timeout=30_000)
    wait_idle(page)
    assert watch.console_errors == []


@pytest.mark.parametrize("screen", ["1440", "390"])
def test_a_release_sits_at_the_same_x_in_every_block(open_page, screen):
    """The blocks' gate-name axes are as wide as the whole chart's widest name: the release axis
    starts at the same x in each block, so the 1.34 tick is at the same place in all of them."""
    page, watch = open_page("timeline", SEL, **(DESKTOP if screen == "1440" else PHONE))
    drawn = charts(page)
    assert len(drawn) >= 3, len(drawn)
    ticks = []
    for chart in drawn:
        at = [(v["left"] + v["right"]) / 2 for v in chart["versions"] if v["text"] == "1.34"]
        assert at, chart["versions"]
        ticks.append(at[0])
    assert max(ticks) - min(ticks) <= 1, ticks
    # the first block's legends name the default (solid/faded), the lock and the stage
    titles = page.evaluate(
        "() => [...document.querySelector('[data-testid=\"stVegaLiteChart\"] svg.marks').querySelectorAll('g.role-legend-title text')].map(t => t.textContent)"
    )
    assert {"default", "lock to default"} <= set(titles), titles
    assert watch.console_errors == []
