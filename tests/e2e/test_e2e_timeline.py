"""The timeline chart in a real browser: Vega-Lite draws it, one y-axis row per gate the page counts."""

from __future__ import annotations

import re

import pytest

from e2e_support import wait_idle

pytestmark = pytest.mark.e2e

#: Labels of the chart's band (y) axis: gate names. The x axis is labelled 1.x, the legends
#: are not axes.
Y_LABELS_JS = """() => {
  const chart = document.querySelector('[data-testid="stVegaLiteChart"]');
  if (!chart) return null;
  const svg = chart.querySelector('svg.marks');
  if (!svg) return {canvas: !!chart.querySelector('canvas')};
  const labels = [...svg.querySelectorAll('g.role-axis-label text')].map(t => t.textContent);
  // Each bar's aria-label lists its fields ("start: 32; gate: Foo; end: 33; …"): the gates drawn.
  const barGates = [...svg.querySelectorAll('[aria-roledescription="bar"]')]
    .map(b => ((b.getAttribute('aria-label') || '').match(/(?:^|; )gate: ([^;]+)/) || [])[1]).filter(Boolean);
  return {labels: labels.filter(t => !/^1\\.\\d+$/.test(t)), versions: labels.filter(t => /^1\\.\\d+$/.test(t)),
          barGates: [...new Set(barGates)]};
}"""


def counted(page) -> tuple[int, int]:
    """The page's own "N of M gates" caption."""
    text = page.get_by_text(re.compile(r"^\d+ of \d+ gates$")).inner_text()
    shown, total = map(int, re.findall(r"\d+", text))
    return shown, total


def test_timeline_chart_has_one_row_per_counted_gate(open_page):
    page, watch = open_page("timeline", {"binary": "1.36", "emulated": "1.33"})
    chart = page.locator('[data-testid="stVegaLiteChart"]')
    assert chart.count() == 1
    assert chart.locator("svg, canvas").count() >= 1
    drawn = page.evaluate(Y_LABELS_JS)
    assert drawn and "labels" in drawn, f"the chart is not an SVG: {drawn}"
    shown, total = counted(page)
    assert shown == total > 100
    assert len(drawn["labels"]) == len(set(drawn["labels"])) == shown
    assert sorted(drawn["barGates"]) == sorted(drawn["labels"])
    assert "1.36" in drawn["versions"] and "1.33" in drawn["versions"]
    assert watch.console_errors == []

    # Narrow the rows with the page's search box: the chart follows the count.
    search = page.get_by_role("textbox", name="Search", exact=True)
    search.fill("Job")
    search.press("Enter")
    page.wait_for_function("() => !/^(\\d+) of \\1 gates$/.test([...document.querySelectorAll('p')].map(p => p.textContent).find(t => / of \\d+ gates$/.test(t)) || '')")
    wait_idle(page)
    shown, _ = counted(page)
    drawn = page.evaluate(Y_LABELS_JS)
    assert 0 < shown < total
    assert len(drawn["labels"]) == shown
    assert sorted(drawn["barGates"]) == sorted(drawn["labels"])
    assert all("job" in name.lower() for name in drawn["labels"])
