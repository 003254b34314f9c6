"""Both themes render (light and dark, picked by the URL or by the viewer's system setting), and
the main controls are reachable with the keyboard alone."""

from __future__ import annotations

import tomllib

import pytest
from e2e_support import ROOT, artifact_dir, page_params, streamlit_problems, wait_idle

pytestmark = pytest.mark.e2e

CONFIG = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))


def rgb(hex_color: str) -> str:
    h = hex_color.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[i : i + 2], 16) for i in (0, 2, 4)))


def background(page) -> str:
    return page.evaluate("() => getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor")


def brightness(path) -> float:
    """Mean grey level of a PNG, 0-255 (None without Pillow)."""
    try:
        from PIL import Image, ImageStat
    except ImportError:  # pragma: no cover
        return None
    with Image.open(path) as im:
        return ImageStat.Stat(im.convert("L")).mean[0]


@pytest.mark.parametrize(
    ("theme", "how", "scheme"),
    [
        ("light", "url", "dark"),     # ?embed_options=light_theme wins over a dark system setting
        ("dark", "url", "light"),     # ?embed_options=dark_theme wins over a light system setting
        ("dark", "system", "dark"),   # no option: the viewer's system setting picks the theme
    ],
)
def test_theme_renders(open_page, theme, how, scheme):
    params = {"binary": "1.36", "emulated": "1.33"}
    if how == "url":
        params["embed_options"] = f"{theme}_theme"
    page, watch = open_page("timeline", params, color_scheme=scheme)
    assert background(page) == rgb(CONFIG["theme"][theme]["backgroundColor"])
    heading = page.locator('[data-testid="stHeading"]').first
    assert heading.evaluate("e => getComputedStyle(e).color") == rgb(CONFIG["theme"][theme]["textColor"])
    # The chart follows the theme too (Streamlit hands the theme to Vega-Lite).
    chart_bg = page.evaluate(
        "() => { const s = document.querySelector('[data-testid=\"stVegaLiteChart\"] svg.marks');"
        " return s ? getComputedStyle(s).backgroundColor : null; }"
    )
    assert chart_bg == background(page)
    assert streamlit_problems(page, ("Error", "Warning")) == []
    assert watch.console_errors == []

    path = artifact_dir() / f"theme-{theme}-{how}.png"
    page.screenshot(path=str(path))
    level = brightness(path)
    if level is not None:
        assert (level > 170) if theme == "light" else (level < 90), f"{path}: mean grey {level:.0f}"


def test_tab_reaches_the_main_controls(open_page):
    page, _ = open_page("gates", {"binary": "1.36", "emulated": "1.33"})
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    wanted = ["Component", "Binary release", "Emulated version", "--feature-gates"]
    reached: list[str] = []
    for _ in range(60):
        page.keyboard.press("Tab")
        label = page.evaluate(
            "() => { const e = document.activeElement;"
            " return e && e.tagName === 'INPUT' ? e.getAttribute('aria-label') : null; }"
        )
        if label in wanted and label not in reached:
            reached.append(label)
            # document.activeElement is that very control.
            assert page.evaluate(
                "label => document.activeElement === document.querySelector(`input[aria-label=\"${label}\"]`)", label
            )
        if len(reached) == len(wanted):
            break
    assert reached == wanted

    # And it is usable from there: type a --feature-gates value, Enter applies it.
    page.keyboard.type("AllAlpha=true")
    page.keyboard.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('feature_gates') === 'AllAlpha=true'")


def tabs_to(page, label: str, limit: int = 80) -> tuple[int, list[str]]:
    """Tabs from the top of the page until the input labelled ``label`` has the focus, and the
    labels of the "?" help buttons focused on the way."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    helps = []
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        tag, name = page.evaluate("() => { const e = document.activeElement; return [e.tagName, e.getAttribute('aria-label')]; }")
        if (name or "").startswith("Help for "):
            helps.append(name)
        if tag == "INPUT" and name == label:
            return n, helps
    raise AssertionError(f"{label} not reached in {limit} Tabs")


def test_help_buttons_are_not_tab_stops(open_page):
    page, _ = open_page("gates", {"binary": "1.36", "emulated": "1.33"})
    help_buttons = page.locator('[data-testid="stTooltipIcon"] button')
    assert help_buttons.count() >= 11  # the bar's five, the four metrics', the filters' three
    tabs, helps = tabs_to(page, "Search")
    assert helps == []
    # 25: the skip link, 10 pages, the menu, the main area, Copy link, the intro's 3 links, the bar's 6 inputs,
    # the first quick filter; 35 while each "?" was a tab stop
    assert tabs <= 25, tabs
    # Still there for the mouse: hovering one shows its text.
    page.locator('button[aria-label="Help for Emulated version"]').hover()
    page.locator('[data-testid="stTooltipContent"]').filter(has_text="--emulated-version").wait_for()


def test_enter_on_a_grid_row_opens_its_gate(open_page):
    page, watch = open_page("gates", {"binary": "1.36", "emulated": "1.33", "gates_text": "DRA"})
    third = page.locator('[data-testid="stDataFrame"] td#glide-cell-1-2').text_content()
    assert third and third.startswith("DRA")
    page.keyboard.press("Escape")
    page.locator('input[aria-label="Order"]').focus()
    for _ in range(20):  # Tab on, past the table's toolbar, into the grid
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('[data-testid=\"stDataFrame\"] canvas')"):
            break
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/gate?" in url and f"gate={third}" in url, timeout=30_000)
    wait_idle(page)
    assert page.get_by_role("heading", name=third).count() >= 1 or third in page.locator('[data-testid="stMain"]').inner_text()
    assert watch.console_errors == []


@pytest.mark.parametrize("how", ["focused", "open", "typed"])
def test_escape_keeps_a_choice_and_the_filter_in_the_url(open_page, how):
    page, _ = open_page("matrix", {"binary": "1.36", "matrix_transition": "1.35:toGA"})
    box = page.locator('input[aria-label="Changed in a release"]')
    chosen = box.input_value()
    assert chosen.startswith("graduated to GA in 1.35")
    if how == "focused":
        box.focus()
    else:
        box.click()
        if how == "typed":
            page.keyboard.type("beta")
        assert box.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    page.wait_for_timeout(500)  # a rerun Escape would start begins by then
    wait_idle(page)
    assert box.input_value() == chosen
    assert box.get_attribute("aria-expanded") == "false"  # an open list is closed
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Changed in a release"
    assert page.evaluate("() => new URLSearchParams(location.search).get('matrix_transition')") == "1.35:toGA"
    # The box's own "Clear value" button still clears it, and the URL follows.
    page.locator('[data-testid="stSelectbox"]:has(input[aria-label="Changed in a release"]) button[aria-label="Clear value"]').click()
    page.wait_for_function("() => !new URLSearchParams(location.search).has('matrix_transition')")


def test_escape_keeps_the_selection_bar(open_page):
    page, _ = open_page("gates", {"binary": "1.36", "emulated": "1.33"})
    box = page.locator('input[aria-label="Emulated version"]')
    for open_it in (False, True):
        box.click() if open_it else box.focus()
        page.keyboard.press("Escape")
        page.wait_for_timeout(500)
        wait_idle(page)
        assert box.input_value() == "1.33"
        assert page.evaluate("() => new URLSearchParams(location.search).get('emulated')") == "1.33"


#: The export buttons: a table's "Download…", a chart's PNG and SVG, the plan's "Download as Markdown".
EXPORT_LABEL = r"^(Download…|PNG|SVG|Download as Markdown)$"


#: Views with export buttons in sight (What changes shows its table once "all differences" is picked).
EXPORT_VIEWS = {
    "gates": {}, "matrix": {}, "timeline": {}, "apis": {}, "gate": {},
    "changes": {"changes_release_show": "all differences"}, "plan": {}, "about": {},
}


@pytest.mark.parametrize("key", EXPORT_VIEWS)
def test_tab_reaches_every_export_button(open_page, key):
    """Every visible export button of the page is a tab stop: Tab from the top of the page focuses
    each one in turn (a button with a help text sits in the same tooltip wrapper as a "?" icon)."""
    page, watch = open_page(key, page_params(key, **EXPORT_VIEWS[key]))
    wanted = page.evaluate(
        """re => [...document.querySelectorAll('[data-testid="stMain"] button')]
             .filter(b => b.checkVisibility() && new RegExp(re).test(b.innerText.replace(/^\\S+\\s*/, '').trim()))
             .map((b, i) => { b.dataset.kcExport = String(i); return b.innerText.replace(/^\\S+\\s*/, '').trim(); })""",
        EXPORT_LABEL,
    )
    assert wanted, "no export button on the page"
    assert page.evaluate("() => [...document.querySelectorAll('[data-kc-export]')].filter(b => b.tabIndex < 0).length") == 0
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    reached: set[str] = set()
    for _ in range(400):
        page.keyboard.press("Tab")
        index = page.evaluate("() => document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.kcExport ?? null : null")
        if index is not None:
            reached.add(index)
            if len(reached) == len(wanted):
                break
    assert sorted(reached, key=int) == [str(i) for i in range(len(wanted))], (wanted, reached)
    assert watch.console_errors == []


@pytest.mark.parametrize(
    ("key", "params"),
    [
        ("gates", {"binary": "1.36", "emulated": "1.33", "gates_text": "DRA"}),
        ("matrix", {"binary": "1.36", "matrix_transition": "1.35:toGA"}),
        ("changes", {"binary": "1.36", "emulated": "1.33", "changes_release_show": "all differences"}),
    ],
    ids=["gates", "matrix", "changes"],
)
def test_enter_on_a_clicked_grid_cell_opens_its_gate(open_page, key, params):
    """A cell picked with the mouse has the focus on the grid's accessible table, not its canvas:
    Enter there opens the row's gate too, not the grid's cell viewer."""
    page, watch = open_page(key, params)
    first = page.locator('[data-testid="stDataFrame"] td#glide-cell-1-0').first.text_content()
    assert first and (first.startswith("DRA") or key != "gates")
    box = page.locator('[data-testid="stDataFrame"] canvas').first.bounding_box()
    assert box
    page.mouse.click(box["x"] + 200, box["y"] + 52)  # the first row's gate cell (below the 35 px header)
    page.wait_for_function("() => document.activeElement.matches('[data-testid=\"stDataFrame\"] :is(canvas, td)')")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/gate?" in url and f"gate={first}" in url, timeout=30_000)
    wait_idle(page)
    assert first in page.locator('[data-testid="stMain"]').inner_text()
    assert watch.console_errors == []
