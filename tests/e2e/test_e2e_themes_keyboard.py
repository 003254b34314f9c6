"""Both themes render (light and dark, picked by the URL or by the viewer's system setting), and
the main controls are reachable with the keyboard alone."""

from __future__ import annotations

import tomllib

import pytest
from e2e_support import ROOT, artifact_dir, streamlit_problems

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
