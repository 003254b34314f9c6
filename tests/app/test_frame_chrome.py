"""The frame around every page: the compact landing heading (by link, by visit), the Copy link
button and the Pages menu on every page, the contrast of the gate grid's key column computed from
the theme colours, and the grid's rows as a text table."""

from __future__ import annotations

import tomllib

import pyarrow as pa
import pytest
from conftest import APP, ROOT, TIMEOUT, open_app, rerun, texts

from dashboard.frame import chrome
from dashboard.frame.landing import HEADING, MORE_LABEL
from dashboard.frame.pages import PAGES
from dashboard.tables.gate_table import (
    FLAG_WORDS,
    PIN_GATE_COLUMN,
    PINNED_TEXT_OPACITY,
    key_column_colour,
)
from dashboard.tables.table_text import LABEL, html_table

CONFIG = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
SEL = {"binary": "1.36", "emulated": "1.33"}


def compact(at) -> bool:
    """Whether the landing heading is the compact one (the title inside the compact container)."""
    return any(e.label == MORE_LABEL for e in at.expander)


# ---------------------------------------------------------------------------------------------
# Compact heading


def test_first_visit_has_the_full_heading():
    at = open_app(**SEL)
    assert at.title[0].value == HEADING
    assert not compact(at)
    assert "behaves like that older release" in at.markdown[0].value


def test_compact_by_link_keeps_heading_and_intro():
    at = open_app(**SEL, compact="1")
    assert at.title[0].value == HEADING  # still the page's one h1
    assert compact(at)
    more = next(e for e in at.expander if e.label == MORE_LABEL)
    assert "behaves like that older release" in more.markdown[0].value


def test_compact_0_keeps_the_full_heading_on_a_later_visit():
    at = open_app(**SEL, compact="0")
    at.switch_page("app_pages/timeline.py").run()
    at.query_params["compact"] = "0"
    at.switch_page("app_pages/gates.py").run()
    assert not compact(at)


def test_second_visit_in_a_session_is_compact():
    at = open_app(**SEL)
    assert not compact(at)
    rerun(at)  # a rerun of the same page is the same visit: no jump under the pointer
    assert not compact(at)
    at.switch_page("app_pages/timeline.py").run()
    at.switch_page("app_pages/gates.py").run()
    assert not at.exception
    assert compact(at)


def test_a_bad_compact_value_is_named_and_ignored():
    at = open_app(**SEL, compact="maybe<b>")
    assert any("compact=maybe<b> in the link is not 0 or 1: ignored." in t for t in texts(at.warning))
    assert not compact(at)


# ---------------------------------------------------------------------------------------------
# Copy link and Pages on every page


def pages_menus(at) -> list:
    return [p for p in at.get("popover") if p.proto.popover.label == "Pages"]


@pytest.mark.parametrize("key", list(PAGES))
def test_every_page_has_copy_link(key):
    at = open_app(None if key == "gates" else PAGES[key][0].removesuffix(".py"), **SEL, gate="JobManagedBy")
    (button,) = [h for h in at.get("html") if "Copy link" in h.proto.body]
    assert "navigator.clipboard.writeText(link)" in button.proto.body and "window.location.href" in button.proto.body
    assert pages_menus(at) == []  # not a phone: Streamlit's own navigation, labelled by the style sheet


@pytest.mark.parametrize("key", ["gates", "matrix", "about"])
def test_a_phone_gets_the_pages_menu(key):
    from streamlit.testing.v1 import AppTest


    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["_is_phone"] = True  # what a "Mobi" User-Agent sets on the first run
    for k, v in SEL.items():
        at.query_params[k] = v
    at.run()
    if key != "gates":
        at.switch_page(f"app_pages/{PAGES[key][0]}").run()
    (menu,) = pages_menus(at)
    assert [link.proto.label for link in menu.children.values()] == [title for _, title, _ in PAGES.values()]
    assert compact(at) == (key == "gates")


# ---------------------------------------------------------------------------------------------
# Contrast of the key column


def luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    h = hex_colour.lstrip("#")
    r, g, b = (channel(int(h[i : i + 2], 16)) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def wcag_ratio(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_gate_column_contrast_from_the_theme(theme):
    colours = CONFIG["theme"][theme]
    text = key_column_colour(colours["textColor"], colours["backgroundColor"])
    assert wcag_ratio(text, colours["backgroundColor"]) >= 7


def test_a_pinned_gate_column_would_fail_on_the_light_theme():
    """Why the column is not pinned: the grid draws a pinned column's text at 60 % opacity."""
    assert not PIN_GATE_COLUMN
    light = CONFIG["theme"]["light"]
    a = PINNED_TEXT_OPACITY
    t = [int(light["textColor"][i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(light["backgroundColor"][i : i + 2], 16) for i in (1, 3, 5)]
    faded = "#" + "".join(f"{round(a * x + (1 - a) * y):02X}" for x, y in zip(t, b, strict=True))
    assert faded == "#707274"  # the grey the pinned column had
    assert wcag_ratio(faded, light["backgroundColor"]) < 7


# ---------------------------------------------------------------------------------------------
# The grid's rows as text


def test_table_as_text_is_built_only_when_opened():
    at = open_app(**SEL, gates_text="JobManaged")
    (box,) = [e for e in at.expander if e.label == LABEL]
    assert not box.get("html")  # closed: nothing built
    at.session_state["table_text_gates"] = True
    rerun(at)
    (box,) = [e for e in at.expander if e.label == LABEL]
    (table,) = box.get("html")
    body = table.proto.body
    assert "<caption>Feature gates of a 1.36 binary emulating 1.33: 1 rows</caption>" in body
    assert '<th scope="row">JobManagedBy</th><td>on</td><td>Beta</td>' in body


def test_html_table_escapes_and_names_values():
    table = pa.table({
        "gate": ["<script>alert(1)</script>", "B&B"],
        "enabled": [True, False],
        "locked": [None, True],
        "note": ["", 'say "hi"'],
    })
    out = html_table(table, "Gates <x>", labels={"enabled": "enabled at 1.33"}, words=FLAG_WORDS)
    assert "<script>" not in out and "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "<caption>Gates &lt;x&gt;</caption>" in out
    assert '<th scope="col">enabled at 1.33</th>' in out
    assert '<th scope="row">B&amp;B</th><td>off</td><td>locked</td><td>say &quot;hi&quot;</td>' in out
    assert "<td>on</td><td>—</td><td>—</td>" in out


def test_compact_flag_values():
    assert chrome.COMPACT_VALUES == {"1": True, "0": False}
