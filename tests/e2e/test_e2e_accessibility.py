"""What a browser shows of the frame's accessibility features: the contrast of the gate grid's key
column (measured on the drawn pixels), the grid's rows as a text table, the "Copy link" button
(clipboard and fallback), the compact landing heading and the labelled "Pages" menu on narrow
screens."""

from __future__ import annotations

import io
import json
import tomllib
from urllib.parse import parse_qs, urlsplit

import pytest
from e2e_support import ROOT, streamlit_problems, wait_idle

from kcompat.cli.main import main as kcompat_main
from kcompat.cli.screenshots import PHONE

pytestmark = pytest.mark.e2e

CONFIG = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
SEL = {"binary": "1.36", "emulated": "1.33"}


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def hex_rgb(text: str) -> tuple[int, int, int]:
    h = text.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def grid_box(page) -> dict:
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.scroll_into_view_if_needed()
    wait_idle(page)
    return grid.bounding_box()


# ---------------------------------------------------------------------------------------------
# Contrast of the key column, as drawn


@pytest.mark.parametrize("key", ["gates", "matrix"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_gate_column_text_has_7_to_1_contrast_as_drawn(open_page, theme, key):
    """The gate names in the theme's text colour: on the Gates grid, and on the Release matrix
    (issue 28: its pinned gate column was drawn at 60 % and looked disabled)."""
    from PIL import Image

    page, _ = open_page(key, {**SEL, "compact": "1", "embed_options": f"{theme}_theme"}, color_scheme=theme)
    box = grid_box(page)
    # The gate column: right of the row-picker column, below the header row; eight rows of names.
    clip = {"x": box["x"] + 44, "y": box["y"] + 40, "width": 160, "height": 8 * 34}
    with Image.open(io.BytesIO(page.screenshot(clip=clip))) as im:
        rgb = im.convert("RGB")
        pixels = list(rgb.get_flattened_data() if hasattr(rgb, "get_flattened_data") else rgb.getdata())
    background = max(set(pixels), key=pixels.count)
    text = max(pixels, key=lambda p: contrast(p, background))
    theme_colours = CONFIG["theme"][theme]
    # What is measured is the page's background and the theme's text colour (not a faded one).
    assert background == hex_rgb(theme_colours["backgroundColor"])
    assert max(abs(a - b) for a, b in zip(text, hex_rgb(theme_colours["textColor"]), strict=True)) <= 12, text
    ratio = contrast(text, background)
    assert ratio >= 7, f"{theme}: gate names at {ratio:.2f}:1 ({text} on {background})"


# ---------------------------------------------------------------------------------------------
# The grid's rows as a text table


def expected_gates(*argv: str) -> list[dict]:
    out = io.StringIO()
    from contextlib import redirect_stdout

    with redirect_stdout(out):
        assert kcompat_main(["gates", *argv, "--format", "json"]) == 0
    return json.loads(out.getvalue())["features"]


def test_filtered_gates_view_is_a_table_in_the_accessibility_tree(open_page):
    page, watch = open_page("gates", {**SEL, "gates_text": "DRA", "gates_quick": "Alpha,Beta"})
    found = expected_gates("--binary", "1.36", "--emulated", "1.33", "--search", "DRA")
    wanted = [g for g in found if g["stage"] in ("Alpha", "Beta")]
    assert 0 < len(wanted) < len(found) and {g["enabled"] for g in wanted} == {True, False}
    assert page.get_by_role("table").count() == 0  # built only when asked for
    page.get_by_text("Table as text", exact=True).click()
    table = page.get_by_role("table", name=f"Feature gates of a 1.36 binary emulating 1.33: {len(wanted)} rows")
    table.wait_for(timeout=20_000)
    headers = table.get_by_role("columnheader").all_inner_texts()
    assert headers[:3] == ["gate", "enabled", "stage at 1.33"], headers
    names = table.get_by_role("rowheader").all_inner_texts()
    assert names == [g["name"] for g in wanted]
    rows = table.locator("tbody tr")
    for i, gate in enumerate(wanted):
        cells = rows.nth(i).get_by_role("cell").all_inner_texts()
        assert cells[:2] == ["on" if gate["enabled"] else "off", gate["stage"]], (gate["name"], cells)
    assert streamlit_problems(page) == [] and watch.console_errors == []


# ---------------------------------------------------------------------------------------------
# Copy link


def test_copy_link_puts_the_view_in_the_clipboard(open_page):
    params = {**SEL, "timeline_text": "Job", "timeline_sort": "name"}
    page, watch = open_page("timeline", params, permissions=["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy link").click()
    page.get_by_role("button", name="Link copied").wait_for(timeout=5_000)
    copied = page.evaluate("() => navigator.clipboard.readText()")
    parts = urlsplit(copied)
    assert parts.path == "/timeline"
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    for key, value in params.items():
        assert query.get(key) == value, (key, copied)
    assert copied == page.url
    assert watch.console_errors == []


def test_copy_link_without_a_clipboard_shows_the_link_to_copy(open_page, browser, server_url):
    from e2e_support import new_context, open_in_context

    ctx = new_context(browser)
    try:
        ctx.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined});")
        page, _ = open_in_context(ctx, server_url, "apis", {**SEL, "apis_tab": "storage"})
        field = page.get_by_role("textbox", name="Link to this view (select and copy)")
        assert not field.is_visible()
        page.get_by_role("button", name="Copy link").click()
        field.wait_for(state="visible", timeout=5_000)
        link = field.input_value()
        assert link == page.url and "apis_tab=storage" in link and urlsplit(link).path == "/apis"
        # Selected, ready for Ctrl+C.
        assert page.evaluate("() => { const e = document.activeElement; return e.selectionEnd - e.selectionStart; }") == len(link)
    finally:
        ctx.close()


# ---------------------------------------------------------------------------------------------
# The compact heading and the navigation on narrow screens


def table_top(page) -> float:
    return page.locator('[data-testid="stDataFrame"]').first.bounding_box()["y"]


def heading_size(page) -> float:
    return page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")


def test_compact_heading_by_link_and_on_a_second_visit(open_page):
    full, _ = open_page("gates", SEL)
    compact, _ = open_page("gates", {**SEL, "compact": "1"})
    assert heading_size(compact) < 0.6 * heading_size(full)
    assert table_top(compact) < table_top(full) - 100
    # The sentence and the links are one click away.
    compact.get_by_text("What --emulated-version does, and where to read more").click()
    compact.get_by_role("link", name="KEP-4330 compatibility versions").wait_for(timeout=5_000)

    # Another page, then Gates again in the same session: compact.
    big = heading_size(full)
    full.get_by_role("link", name="Timeline").first.click()
    full.wait_for_url("**/timeline**")
    wait_idle(full)
    full.get_by_role("link", name="Gates").first.click()
    full.wait_for_function("() => location.pathname === '/'")
    wait_idle(full)
    assert heading_size(full) < 0.6 * big


def test_a_bad_compact_value_is_named(open_page):
    page, _ = open_page("gates", {**SEL, "compact": "yes"})
    assert any("compact=yes in the link is not 0 or 1" in t for t in streamlit_problems(page, ("Warning",)))


def test_phone_heading_is_compact_and_pages_menu_is_labelled(open_page):
    page, watch = open_page("gates", SEL, **PHONE)
    assert heading_size(page) <= 20
    # The grid starts near the first screen (it started at 1412 px with the full heading; the
    # selection bar's Component row adds about 75 px, and the one line saying where another
    # component answers differently, a caption on a phone rather than a box, about 35 px; the
    # quick-filter pills on three lines instead of one cut at the edge, about 80 px; the verdict in
    # words, "starts and becomes ready", a caption on a phone, about 70 px with its gap).
    assert table_top(page) < 1250, table_top(page)
    assert not page.get_by_test_id("stExpandSidebarButton").is_visible()
    menu = page.get_by_role("button", name="Pages")
    assert menu.is_visible()
    menu.click()
    links = page.get_by_test_id("stPopoverBody").get_by_role("link")
    links.last.wait_for(timeout=10_000)
    assert [t.split("\n")[-1] for t in links.all_inner_texts()] == ["Gates", "What changes", "Timeline", "Release matrix", "APIs", "Upgrade plan",
                                       "Check a cluster", "Check manifests", "Gate detail", "About the data"]
    links.filter(has_text="Release matrix").click()
    page.wait_for_function("() => location.pathname === '/matrix'")
    wait_idle(page)
    assert watch.console_errors == []


@pytest.mark.parametrize("width", [1440, 768, 767, 600])
def test_navigation_is_labelled_at_every_width_on_a_computer(open_page, width):
    """Streamlit's top navigation folds into a sidebar behind "»" below 768 px: on a computer the
    "»" then reads "Pages" too (a phone gets the Pages button instead, tested above)."""
    page, _ = open_page("timeline", SEL, viewport={"width": width, "height": 900})
    top_nav = page.get_by_test_id("stTopNavLink").filter(has_text="Release matrix").is_visible()
    fold = page.get_by_test_id("stExpandSidebarButton")
    assert top_nav == (width >= 768)
    assert fold.is_visible() == (width < 768)
    assert page.get_by_role("button", name="Pages").count() == 0
    if width < 768:
        label = fold.evaluate("e => getComputedStyle(e, '::after').content")
        assert label == '"Pages"'
        fold.click()
        page.get_by_test_id("stSidebarNavLink").filter(has_text="Release matrix").click()
        page.wait_for_function("() => location.pathname === '/matrix'")


# ---------------------------------------------------------------------------------------------
# axe on what the page checks do not open: the text table, the Pages menu, the link fallback


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_with_the_text_table_and_the_pages_menu_open(open_page, theme):
    from test_e2e_pages import _axe, _serious

    page, _ = open_page("gates", {**SEL, "gates_text": "DRA", "embed_options": f"{theme}_theme"}, **PHONE)
    page.get_by_text("Table as text", exact=True).click()
    page.get_by_role("table").wait_for(timeout=20_000)
    page.get_by_role("button", name="Pages").click()
    page.get_by_test_id("stPopoverBody").get_by_role("link").last.wait_for(timeout=10_000)
    assert _serious(page, _axe().run(page).response["violations"]) == []


# ---------------------------------------------------------------------------------------------
# Every page's grid as a text table, checked by axe


def _upload_cluster_inputs(page, tmp_path) -> None:
    """The Check a cluster inputs (kube-apiserver 1.32, /metrics with one gate flipped), checked."""
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from inspect_samples import SAMPLES, flip, metrics_text, version_info

    metrics = tmp_path / "metrics.txt"
    metrics.write_text(flip(metrics_text("v1.32.0", "1.31", info=version_info("version-1.32.0.json")), "APIServerTracing"))
    page.locator('[data-testid="stFileUploaderDropzoneInput"][multiple]').set_input_files(
        [str(SAMPLES / "ps-kube-apiserver-1.32.txt"), str(SAMPLES / "version-1.32.0.json"), str(metrics)]
    )
    wait_idle(page)
    page.get_by_role("button", name="Check").click()
    page.get_by_text("gates on /metrics disagree with the prediction").wait_for(timeout=30_000)
    wait_idle(page)


#: page, link parameters, the grid's accessible name (its text table's caption starts with it; None:
#: no grid, the timeline's chart), a pattern of the count the page shows in words, if it shows one.
TEXT_TABLES = {
    "gates": ("gates", {**SEL, "gates_text": "DRA"}, "Feature gates of a 1.36 binary emulating 1.33", None),
    "matrix": ("matrix", {**SEL, "matrix_text": "DRA"}, "Feature gates across the bundled releases", r"(\d+) of \d+ gates"),
    "changes": (
        "changes", {**SEL, "changes_tab": "native"}, "Gates that differ between 1.36 emulating 1.33 and 1.36 (not emulating)", None
    ),
    "apis": ("apis", {**SEL, "apis_text": "batch"}, "Built-in APIs of a 1.36 kube-apiserver emulating 1.33", r"(\d+) of \d+ resources match"),
    "gate_detail": ("gate", {**SEL, "gate": "JobManagedBy"}, "JobManagedBy in every bundled release", None),
    "plan": ("plan", {"binary": "1.33", "emulated": "1.32", "to": "1.35"}, "Upgrade plan from 1.33 (emulating 1.32) to 1.35", None),
    "cluster": ("cluster", SEL, "Gates on /metrics that disagree with the prediction", r"(\d+) of \d+ gates on /metrics disagree"),
    "timeline": ("timeline", {**SEL, "timeline_text": "DRA"}, None, r"(\d+) of \d+ gates"),
    "manifests": ("manifests", SEL, "Objects not served or not checked for a 1.36 kube-apiserver emulating 1.33", None),
}


def _upload_manifests(page) -> None:
    """A rendered Helm chart (tests/samples/scan/helm-render.yaml) uploaded on Check manifests, checked."""
    page.locator('[data-testid="stFileUploaderDropzoneInput"][multiple]').set_input_files([str(ROOT / "tests" / "samples" / "scan" / "helm-render.yaml")])
    wait_idle(page)
    page.get_by_role("button", name="Check").click()
    page.get_by_text("objects would not be served by").wait_for(timeout=30_000)
    wait_idle(page)


@pytest.mark.parametrize("case", TEXT_TABLES)
def test_each_page_grid_as_a_text_table(open_page, case, tmp_path):
    import re

    from test_e2e_pages import _axe, _serious

    key, params, name, shown_pattern = TEXT_TABLES[case]
    page, watch = open_page(key, params)
    if key == "cluster":
        _upload_cluster_inputs(page, tmp_path)
    if key == "manifests":
        _upload_manifests(page)
    main = page.locator('[data-testid="stMain"]')
    shown = None
    if shown_pattern:
        match = re.search(shown_pattern, main.inner_text())
        assert match, shown_pattern
        shown = int(match.group(1))
    if name is None:  # the timeline: one text table, for its charts
        caption_start = "Stage history of the 1.36 binary's gates"
        opener = page.get_by_text("Table as text", exact=True)
        assert opener.count() == 1
    else:
        # The grid, by its accessible name; its cell table counts the header row too.
        grid = page.get_by_role("region", name=name, exact=True).locator("[aria-rowcount]")
        grid.wait_for(state="attached", timeout=20_000)
        rows = int(grid.get_attribute("aria-rowcount")) - 1
        assert shown in (None, rows), (shown, rows)
        shown = rows
        caption_start = name
        # The grid's own "Table as text": the first one after it.
        opener = page.locator('[data-testid="stDataFrame"]', has=page.get_by_role("region", name=name, exact=True)).locator(
            "xpath=following::summary[contains(., 'Table as text')][1]"
        )
    assert shown is not None and shown > 0
    assert page.get_by_role("table").count() == 0  # built only when asked for
    opener.click()
    table = page.get_by_role("table", name=f"{caption_start}: {shown} rows", exact=True)
    table.wait_for(timeout=20_000)
    assert table.locator("tbody tr").count() == shown
    assert table.get_by_role("rowheader").count() == shown
    wait_idle(page)
    assert _serious(page, _active(page, _axe().run(page).response["violations"])) == []
    # The cluster's inputs disagree with the prediction on purpose, and the manifests hold objects a
    # 1.36 binary does not serve: those errors are the pages' answers.
    answers = ("disagree with the prediction.", "emulating 1.33.")
    assert [p for p in streamlit_problems(page) if not p.endswith(answers)] == []
    assert watch.console_errors == []


#: Inactive controls: WCAG 1.4.3 sets no contrast for an inactive component's text. The selection
#: bar's fixed min compatibility (binaries before 1.35 have no such flag) is a disabled selectbox;
#: axe flags its faded label after the Check a cluster page moves the bar to a 1.32 binary.
INACTIVE = ".st-key-sel_min_compat_fixed"


def _active(page, violations: list[dict]) -> list[dict]:
    """``violations`` without the nodes inside an inactive control (:data:`INACTIVE`)."""
    out = []
    for v in violations:
        nodes = [
            n for n in v["nodes"]
            if len(n["target"]) != 1
            or not page.evaluate("([t, s]) => !!document.querySelector(t)?.closest(s)", [n["target"][0], INACTIVE])
        ]
        if nodes:
            out.append({**v, "nodes": nodes})
    return out
