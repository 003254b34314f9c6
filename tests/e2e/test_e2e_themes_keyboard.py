"""Both themes render (light and dark, picked by the URL or by the viewer's system setting), and
the main controls are reachable with the keyboard alone."""

from __future__ import annotations

import tomllib

import pytest
from e2e_support import ROOT, artifact_dir, streamlit_problems, wait_idle

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
