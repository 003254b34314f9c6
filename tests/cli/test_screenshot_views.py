"""``kcompat screenshots``: what a view link, ``--page`` and ``--query`` turn into (no browser; the
browser runs are in tests/e2e/test_e2e_screenshots.py, the refusals in test_hostile_cli.py)."""

from __future__ import annotations

import pytest

from kcompat.cli import screenshots as s


@pytest.mark.parametrize(
    ("link", "key", "query"),
    [
        ("http://kcompat.example:8501/matrix?binary=1.35&matrix_transition=1.35:toGA", "matrix",
         {"binary": "1.35", "matrix_transition": "1.35:toGA"}),
        ("https://203.0.113.7/?binary=1.36&emulated=1.33", "gates", {"binary": "1.36", "emulated": "1.33"}),
        ("http://h", "gates", {}),
        ("http://h/timeline/", "timeline", {}),
        ("http://h/tools/kcompat/apis?apis_tab=storage", "apis", {"apis_tab": "storage"}),  # served under a path
        ("http://h/?feature_gates=AllBeta%3Dfalse%2CJobManagedBy%3Dtrue&gates_text=job+managed", "gates",
         {"feature_gates": "AllBeta=false,JobManagedBy=true", "gates_text": "job managed"}),
        ("http://h/gate?gate=JobManagedBy&gates_text=", "gate", {"gate": "JobManagedBy", "gates_text": ""}),
    ],
)
def test_a_view_link_is_its_page_and_query(link, key, query):
    assert s.parse_link(link) == (key, query)


def test_the_link_host_does_not_reach_the_shot():
    a = s.link_shots(["http://one.example:1/plan?binary=1.36&to=1.37"])
    b = s.link_shots(["https://two.example/plan?binary=1.36&to=1.37"])
    assert a == b
    assert a[0].name == a[0].key == "plan"
    assert dict(a[0].params) == {"binary": "1.36", "to": "1.37", "compact": "1", "embed_options": "light_theme"}


def test_a_link_keeps_its_own_compact_and_theme():
    [shot] = s.link_shots(["http://h/?binary=1.36&compact=0&embed_options=dark_theme"], theme="light")
    assert dict(shot.params) == {"binary": "1.36", "compact": "0", "embed_options": "dark_theme"}


def test_links_to_the_same_page_get_numbered_files():
    shots = s.link_shots(["http://h/matrix", "http://h/?binary=1.35", "http://h/matrix?matrix_text=DRA", "http://h/matrix/"])
    assert [x.name for x in shots] == ["matrix", "gates", "matrix-2", "matrix-3"]


def test_page_and_query():
    [gates, gate] = s.page_shots(["gates", "gate"], "dark", s.parse_query("?binary=1.35&emulated=1.34"))
    assert dict(gates.params) == {"binary": "1.35", "emulated": "1.34", "compact": "1", "embed_options": "dark_theme"}
    assert dict(gate.params) == dict(gates.params)  # the query is taken as given: no default gate added
    # Without a query: the fixed selection, and the detail page's gate.
    [fixed] = s.page_shots(["gate"])
    assert dict(fixed.params) == {**s.SELECTION, "gate": s.DETAIL_GATE, "compact": "1", "embed_options": "light_theme"}


def test_query_parsing():
    assert s.parse_query("") == {}
    assert s.parse_query("binary=1.35&&emulated=") == {"binary": "1.35", "emulated": ""}
    assert s.parse_query("feature_gates=AllBeta=false") == {"feature_gates": "AllBeta=false"}


def test_an_unknown_theme_is_refused_before_anything_starts(tmp_path):
    with pytest.raises(ValueError, match="unknown theme 'pink'"):
        s.take_screenshots(tmp_path, pages=["gates"], server="http://127.0.0.1:1", theme="pink")


@pytest.mark.parametrize(
    ("text", "element"), [("table", ("table", 1)), ("chart", ("chart", 1)), ("table:2", ("table", 2)), ("chart:12", ("chart", 12))]
)
def test_an_element_is_a_kind_and_its_number(text, element):
    assert s.parse_element(text) == element


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("graph", "--element 'graph' is not table or chart"),
        ("", "is not table or chart"),
        ("table:", "the number of the table on the page, 1 to 99"),
        ("table:0", "1 to 99"),
        ("chart:x", "1 to 99"),
        ("chart:\u0661", "1 to 99"),  # ARABIC-INDIC DIGIT ONE: a digit, but not an ASCII one
        ("table:100", "1 to 99"),
    ],
)
def test_an_element_that_is_none_is_refused(text, expected):
    with pytest.raises(ValueError, match=expected):
        s.parse_element(text)


def test_element_pictures_are_named_after_the_page_and_the_element():
    assert s.WINDOW.file_name("gates") == "gates.png"
    assert s.Framing(None, full_height=True, no_chrome=True).file_name("gates") == "gates.png"
    assert s.Framing(("table", 1)).file_name("gates") == "gates-table.png"
    assert s.Framing(("chart", 2), True, True).file_name("matrix-2") == "matrix-2-chart-2.png"


def test_the_checkbox_column_is_as_wide_as_the_grid_draws_it():
    # glide-data-grid's default row-marker widths, by the number of rows
    assert [s.row_marker_px(n) for n in (0, 22, 100, 101, 1_000, 1_001, 10_000, 10_001)] == [32, 32, 32, 36, 36, 44, 44, 48]
