"""No cut cell text and no empty filler rows in the data grids of every page with answer columns
(Gates, Release matrix, What changes, APIs, Upgrade plan, Gate detail, Check manifests), at 1440x900 and on a 390x844 phone, in Debian's chromium.

How cut text is found. ``st.dataframe`` is a glide-data-grid: it draws on a canvas, so the DOM
holds no cell geometry. The test reads what the grid draws with from the grid's own React
component (the props of glide's canvas component: ``columns`` with the width of each column,
``theme`` with the cell font and padding, ``getCellContent`` giving the text of any cell,
``rowHeight``, ``headerHeight``, ``height``), then measures every cell's text (every row, not only
the rows in view) and every header with ``CanvasRenderingContext2D.measureText`` in that font,
after ``document.fonts.ready``. A text is cut when it is wider than its column minus the cell
padding on both sides (glide then clips it). A column's ``grow`` only widens it, so the width read
is the narrowest it is drawn. If Streamlit stops exposing these props the test fails (it never
passes without having measured).

Filler rows: the grid's height must not exceed its header plus its rows (and a 2 px border).
"""

from __future__ import annotations

import pytest
from e2e_support import PHONE

pytestmark = pytest.mark.e2e

SCREENS = {"1440": {}, "390": PHONE}

#: Every grid on the page: the props of glide's canvas component, each cell's text measured.
MEASURE_JS = """async () => {
  await document.fonts.ready;
  const out = [];
  const shown = [...document.querySelectorAll('[data-testid="stDataFrame"]')].filter(g => g.checkVisibility());
  for (const grid of shown) {
    const canvas = grid.querySelector('canvas');
    if (!canvas) { out.push({error: 'no canvas'}); continue; }
    const fiberKey = Object.keys(canvas).find(k => k.startsWith('__reactFiber$'));
    let fiber = fiberKey ? canvas[fiberKey] : null;
    while (fiber && !(fiber.memoizedProps && fiber.memoizedProps.getCellContent && fiber.memoizedProps.theme)) fiber = fiber.return;
    if (!fiber) { out.push({error: 'no grid props'}); continue; }
    const p = fiber.memoizedProps;
    const ctx = document.createElement('canvas').getContext('2d');
    const cut = [];
    p.columns.forEach((column, c) => {
      const room = column.width - 2 * p.theme.cellHorizontalPadding;
      ctx.font = p.theme.headerFontFull;
      const title = column.title || '';
      if (ctx.measureText(title).width > room) cut.push({column: title, header: true, text: title, width: column.width});
      ctx.font = p.theme.baseFontFull;
      for (let r = 0; r < p.rows; r++) {
        const cell = p.getCellContent([c, r]);
        const text = cell.kind === 'text' ? String(cell.displayData ?? '') : '';
        const px = ctx.measureText(text).width;
        if (px > room) cut.push({column: title, row: r, text, px: Math.round(px), width: column.width});
      }
    });
    out.push({
      columns: p.columns.map(c => c.title), rows: p.rows, height: p.height,
      rowHeight: typeof p.rowHeight === 'number' ? p.rowHeight : null, headerHeight: p.headerHeight,
      cut: cut.slice(0, 20), cutCount: cut.length,
      columnsWidth: p.columns.reduce((sum, c) => sum + c.width, 0), gridWidth: grid.getBoundingClientRect().width,
    });
  }
  return out;
}"""


def measure(page) -> list[dict]:
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"stDataFrame\"]')].filter(g => g.checkVisibility())"
        ".every(g => g.querySelector('canvas'))",
        timeout=20_000,
    )
    grids = page.evaluate(MEASURE_JS)
    assert grids, "no data grid on the page"
    for grid in grids:
        assert "error" not in grid, grid  # the grid's props were read: the check really measured
    return grids


def assert_fits(grids: list[dict]) -> None:
    for grid in grids:
        assert grid["cutCount"] == 0, grid["cut"]
        assert grid["rowHeight"] and grid["headerHeight"], grid
        assert grid["height"] <= grid["headerHeight"] + grid["rows"] * grid["rowHeight"] + 2, grid  # no filler rows


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize(
    "params",
    [
        {},  # every gate, every release: the longest cells ("Deprecated (on, locked)", "removed (always off)")
        {"matrix_transition": "1.35:toGA"},  # a short result: the grid is as tall as its rows
        {"matrix_origin": "client-go", "matrix_since": "1.35"},
    ],
    ids=["all", "toGA", "client-go"],
)
def test_matrix_cells_fit(open_page, screen, params):
    page, watch = open_page("matrix", params, **SCREENS[screen])
    grids = measure(page)
    matrix = grids[0]
    assert matrix["columns"][1:3] == ["gate", "origin"]
    if params.get("matrix_transition"):
        assert matrix["rows"] == 8 and matrix["height"] < 520
    if screen == "1440":  # the counts table shows every column ("default flipped", "locked") without scrolling
        counts = next(g for g in grids if g["columns"][:2] == ["release", "since"])
        assert counts["columns"][-2:] == ["default flipped", "locked"]
        assert counts["columnsWidth"] <= counts["gridWidth"], counts
    assert_fits(grids)
    assert watch.console_errors == []


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("tab", ["release", "native", "other"])
def test_changes_cells_fit(open_page, screen, tab):
    page, watch = open_page(
        "changes",
        {"binary": "1.36", "emulated": "1.33", "changes_tab": tab, f"changes_{tab}_show": "all differences"},
        **SCREENS[screen],
    )
    grids = measure(page)
    assert any(g["rows"] > 10 for g in grids)  # long answers: the "why" texts reach 100 characters
    assert_fits(grids)
    assert watch.console_errors == []


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize(
    "params",
    [
        {"binary": "1.36", "emulated": "1.33"},  # emulating: the differences, the enabled/removed tables, the reasons
        {"binary": "1.33", "emulated": "1.31", "apis_served": "not served", "apis_tab": "table"},
    ],
    ids=["1.36@1.33", "1.33@1.31-not-served"],
)
def test_apis_reasons_are_readable_in_full(open_page, screen, params):
    """The ``reason`` column is the answer ("why it is served or not"): no reason is cut, on a wide
    screen or a phone (the grid scrolls sideways instead), and no grid has filler rows."""
    page, watch = open_page("apis", params, **SCREENS[screen])
    grids = measure(page)
    assert any("reason" in g["columns"] and g["rows"] > 5 for g in grids), [g["columns"] for g in grids]
    assert_fits(grids)
    assert watch.console_errors == []


@pytest.mark.parametrize(("key", "params"), [("gates", {"binary": "1.36", "emulated": "1.33"}), ("apis", {"binary": "1.36", "emulated": "1.33"})])
def test_every_quick_filter_pill_is_in_view_on_a_phone(open_page, key, params):
    # Streamlit scrolls a row of pills sideways ("Deprec" cut at the edge); on a phone they wrap.
    page, watch = open_page(key, params, **PHONE)
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stButtonGroup"] button')].map(b => {
             const r = b.getBoundingClientRect(); return [b.innerText.trim(), r.left, r.right]; })"""
    )
    assert len(boxes) >= 5, boxes
    width = page.viewport_size["width"]
    assert [name for name, left, right in boxes if left < 0 or right > width] == [], boxes
    assert watch.console_errors == []


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize(
    "params",
    [{}, {"gates_text": "AllowInsecureKubeletCertificateSigningRequests"}],
    ids=["all", "one-row"],
)
def test_gates_cells_fit(open_page, screen, params):
    """Every gate name (on a phone too: the grid scrolls sideways) and origin ("client-go") in full;
    a one-row search result is one row tall, no empty rows below it."""
    page, watch = open_page("gates", {"binary": "1.36", "emulated": "1.33", **params}, **SCREENS[screen])
    grids = measure(page)
    gates = next(g for g in grids if "gate" in g["columns"])
    assert gates["rows"] == (1 if params else 240) or (not params and gates["rows"] > 200), gates["rows"]
    assert_fits(grids)
    assert watch.console_errors == []


@pytest.mark.parametrize("screen", SCREENS)
def test_plan_cells_fit(open_page, screen):
    """The plan's "what" (each step, e.g. "Upgrade kubelet and kube-proxy 1.33 -> 1.34 (not newer
    than the emulated version …)") in full."""
    page, watch = open_page("plan", {"binary": "1.36", "emulated": "1.33"}, **SCREENS[screen])
    grids = measure(page)
    assert any("what" in g["columns"] and g["rows"] >= 3 for g in grids), [g["columns"] for g in grids]
    assert_fits(grids)
    assert watch.console_errors == []


@pytest.mark.parametrize("screen", SCREENS)
def test_gate_detail_cells_fit(open_page, screen):
    """The gate's releases ("v1.38.0-beta.0, pre-release", the provenance) and changes in full."""
    page, watch = open_page("gate", {"binary": "1.36", "emulated": "1.33", "gate": "JobManagedBy"}, **SCREENS[screen])
    grids = measure(page)
    states = next(g for g in grids if "provenance" in g["columns"])
    assert states["rows"] >= 5
    assert_fits(grids)
    assert watch.console_errors == []


@pytest.mark.parametrize("screen", SCREENS)
def test_manifests_cells_fit(open_page, screen):
    """Check manifests' ``reason`` and ``nearest`` in full, for a rendered Helm chart with objects
    a 1.36 kube-apiserver emulating 1.33 does not serve."""
    from test_e2e_accessibility import _upload_manifests

    page, watch = open_page("manifests", {"binary": "1.36", "emulated": "1.33"}, **SCREENS[screen])
    _upload_manifests(page)
    grids = measure(page)
    scan = next(g for g in grids if "reason" in g["columns"] and "nearest" in g["columns"])
    assert scan["rows"] >= 1
    assert_fits(grids)
    assert watch.console_errors == []


def test_selection_bar_values_fit_on_a_phone(open_page):
    """On a phone every version box of the selection bar shows its value in full ("1.37 (not
    emulating)" takes the whole row instead of half)."""
    page, watch = open_page("gates", {"binary": "1.37", "emulated": "1.37"}, **PHONE)
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('.st-key-kc-selection-bar input')]"
        ".map(i => [i.getAttribute('aria-label'), i.value, i.scrollWidth, i.clientWidth])"
    )
    assert ["Emulated version", "1.37 (not emulating)"] in [b[:2] for b in boxes], boxes
    assert [b for b in boxes if b[2] > b[3]] == [], boxes
    assert watch.console_errors == []
