"""The Release matrix charts in a real browser at 1440 px and on a 390 px phone: every legend entry
and every axis label lies inside the viewport's width (Vega-Lite draws SVG: the text elements'
boxes are what the reader sees)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}

TEXTS_JS = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg.marks')].map(svg => ({
  legend: [...svg.querySelectorAll('g.role-legend text')].map(t => {
    const b = t.getBoundingClientRect(); return {text: t.textContent, left: b.left, right: b.right};
  }),
  axis: [...svg.querySelectorAll('g.role-axis-label text')].map(t => {
    const b = t.getBoundingClientRect(); return {text: t.textContent, left: b.left, right: b.right};
  }),
}))"""


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_matrix_chart_legends_and_axes_fit_the_screen(open_page, device):
    options = DESKTOP if device == "desktop" else PHONE
    width = options["viewport"]["width"]
    page, watch = open_page("matrix", {}, **options)
    page.locator('[data-testid="stVegaLiteChart"] svg.marks').first.wait_for()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] svg.marks g.role-legend text').length > 0"
    )
    charts = page.evaluate(TEXTS_JS)
    assert len(charts) >= 2
    legend = [t for c in charts for t in c["legend"]]
    assert {"toGA", "removed"} & {t["text"] for t in legend} or len(legend) >= 5
    cut = [t for c in charts for t in c["legend"] + c["axis"] if t["left"] < 0 or t["right"] > width + 0.5]
    assert cut == [], f"outside a {width} px screen: {cut[:5]}"
    assert watch.console_errors == []
