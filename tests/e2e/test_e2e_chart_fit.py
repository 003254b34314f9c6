"""Nothing cut, in a real browser at 1440 px and on a 390 px phone: the Release matrix charts'
legend entries and axis labels lie inside the viewport's width (Vega-Lite draws SVG: the text
elements' boxes are what the reader sees), and the selection bar's boxes show their whole value."""

from __future__ import annotations

import pytest
from e2e_support import DESKTOP, PHONE

pytestmark = pytest.mark.e2e


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


#: Every text in the selection bar's boxes that is wider than its box (cut with an ellipsis or hidden).
#: (Streamlit's selectbox shows its value in an input: a value wider than the input scrolls out of view.)
BOXES_JS = """() => [...document.querySelectorAll('[data-testid="stSelectbox"] input')].map(e => {
  const c = document.createElement('canvas').getContext('2d'); const s = getComputedStyle(e);
  c.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
  const value = e.value || e.placeholder || '';
  const pad = parseFloat(s.paddingLeft) + parseFloat(s.paddingRight);
  return {label: e.getAttribute('aria-label'), value, text: c.measureText(value).width, box: e.clientWidth - pad};
})"""


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_selection_bar_values_are_not_cut(open_page, device):
    """The selection bar with a patch release chosen: each box shows its whole value."""
    options = DESKTOP if device == "desktop" else PHONE
    page, _watch = open_page("gates", {"binary": "1.36", "emulated": "1.33"}, **options)
    page.locator('[data-testid="stSelectbox"]').first.wait_for()
    boxes = page.evaluate(BOXES_JS)
    assert any(b["value"].startswith("v1.36.") for b in boxes), boxes  # the Patch box names the newest patch
    cut = [b for b in boxes if b["value"] and b["text"] > b["box"] + 0.5]
    assert cut == [], cut
