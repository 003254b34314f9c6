"""Each page's own view (search, filters, order, start release, section) in the URL: a link
restores it in a new tab (a fresh AppTest), a change writes it, defaults stay out of the URL,
and a value that is not an option is named and ignored."""

import json

from conftest import open_app, rerun, texts

from dashboard import data
from dashboard.charts.specs import default_x_start
from kcompat.core.request import Request
from kcompat.core.versions import parse_version

SEL = {"binary": "1.36", "emulated": "1.33"}


def test_gates_view_from_a_link():
    at = open_app(**SEL, gates_quick="Beta,changed", gates_text="Job", gates_sort="stage")
    assert at.pills(key="gates_quick").value == ["Beta", "changed"]
    assert at.text_input(key="gates_text").value == "Job"
    assert at.selectbox(key="gates_sort").value == "stage"
    shown = at.dataframe[0].value
    assert len(shown) > 0
    assert (shown["stage"] == "Beta").all() and shown["changed"].all() and shown["gate"].str.contains("Job").all()
    assert not at.warning


def test_gates_view_changes_are_written_and_defaults_left_out():
    at = open_app(**SEL)
    assert set(at.query_params) == {"binary", "emulated"}
    at.text_input(key="gates_text").set_value("Job")
    at.selectbox(key="gates_sort").set_value("changed first")
    at.pills(key="gates_quick").set_value(["PreAlpha"])
    rerun(at)
    assert at.query_params == {**SEL, "gates_text": "Job", "gates_sort": "changed first", "gates_quick": "PreAlpha"}
    # The same URL in a new session gives the same table.
    again = open_app(**dict(at.query_params))
    assert again.dataframe[0].value.equals(at.dataframe[0].value)
    # Back to the defaults: the keys leave the URL.
    at.text_input(key="gates_text").set_value("")
    at.selectbox(key="gates_sort").set_value("gate")
    at.pills(key="gates_quick").set_value([])
    rerun(at)
    assert at.query_params == SEL


def test_gates_sort_by_stage_and_changed_first():
    by_stage = open_app(**SEL, gates_sort="stage").dataframe[0].value
    ranks = {"PreAlpha": 0, "Alpha": 1, "Beta": 2, "GA": 3, "Deprecated": 4}
    assert list(by_stage["stage"].map(ranks)) == sorted(by_stage["stage"].map(ranks))
    changed = open_app(**SEL, gates_sort="changed first").dataframe[0].value
    flags = list(changed["changed"])
    assert flags == sorted(flags, reverse=True) and flags[0]


def test_a_view_value_that_is_not_an_option_is_named_and_ignored():
    at = open_app(**SEL, gates_sort="bogus", gates_quick="Beta,Omega")
    warnings = texts(at.warning)
    assert any(w.startswith("gates_sort='bogus' in the URL is not one of gate, stage, changed first") for w in warnings)
    assert any(w.startswith("gates_quick='Beta,Omega' in the URL names Omega") for w in warnings)
    assert "gates_sort" not in at.query_params and "gates_quick" not in at.query_params
    assert at.selectbox(key="gates_sort").value == "gate"


def timeline_spec(at):
    """The first chart of the timeline (one per block of rows; every block has the same axis)."""
    return json.loads(at.get("vega_lite_chart")[0].proto.spec)


def test_timeline_view_from_a_link():
    at = open_app("timeline", **SEL, timeline_stages="Alpha,Beta", timeline_text="pod", timeline_sort="name", timeline_from="30")
    assert at.multiselect(key="timeline_stages").value == ["Alpha", "Beta"]
    assert at.text_input(key="timeline_text").value == "pod"
    assert at.selectbox(key="timeline_sort").value == "name"
    assert at.select_slider(key="timeline_from").value == 30
    spec = timeline_spec(at)
    assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"] == [30, 37]
    rows = spec["layer"][0]["encoding"]["y"]["sort"]
    # the search finds "pod" in the name or in the description (issue 19)
    from kcompat.data.catalog import DEFAULT_CATALOG

    info = DEFAULT_CATALOG.gate_info
    assert rows == sorted(rows) and all("pod" in r.lower() or "pod" in (info[r].description or "").lower() for r in rows)
    assert any("pod" in r.lower() for r in rows)


def test_timeline_axis_fits_the_rows_shown():
    # Gates not introduced yet at 1.33 all begin after it: the axis starts where they begin.
    at = open_app("timeline", **SEL, timeline_stages="PreAlpha")
    from kcompat.answers.timeline import timeline

    every = timeline(data.catalog(), Request("1.36")).segments
    shown = [s for s in every if s.gate in set(timeline_spec(at)["layer"][0]["encoding"]["y"]["sort"])]
    first = min(s.start.minor for s in shown)
    assert first >= 33
    assert at.select_slider(key="timeline_from").value == default_x_start(shown, parse_version("1.36")) == min(first, 35)
    assert timeline_spec(at)["layer"][0]["encoding"]["x"]["scale"]["domain"][0] == min(first, 35)
    assert "timeline_from" not in at.query_params  # the fitted start is the default


def test_the_menu_dropping_the_query_string_keeps_the_view():
    at = open_app("timeline", **SEL, timeline_text="job")
    at.query_params.clear()  # what the navigation menu does on a page switch
    at.switch_page("app_pages/gates.py")
    rerun(at)
    at.query_params.clear()
    at.switch_page("app_pages/timeline.py")
    rerun(at)
    assert at.query_params["timeline_text"] == "job"
    assert at.text_input(key="timeline_text").value == "job"


def test_gate_detail_history_start_from_a_link():
    at = open_app("gate_detail", **SEL, gate="JobManagedBy", gate_from="25")
    assert at.select_slider(key="gate_from").value == 25
    (chart,) = at.get("vega_lite_chart")
    assert json.loads(chart.proto.spec)["layer"][0]["encoding"]["x"]["scale"]["domain"][0] == 25
    # specs, releases and "what changed, release by release": a "Download…" button each; the chart as PNG/SVG
    assert sorted(b.label for b in at.get("download_button")) == ["PNG", "SVG"]
    assert sorted(b.key for b in at.button if b.label == "Download…") == ["detail_changes_csv", "detail_releases_csv", "detail_specs_csv"]


def _tabs_script():
    from dashboard.state.view_state import ViewState

    view = ViewState("demo")
    tab = view.segmented_control("tab", "Show", ("Specs", "Releases", "Chart"))
    kinds = view.multiselect("kinds", "Kinds", ("a", "b", "c"), default=("a",))
    view.show_problems()
    import streamlit as st

    st.text(f"{tab}|{','.join(kinds)}")


def _demo(**params):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_tabs_script, default_timeout=30)
    for k, v in params.items():
        at.query_params[k] = v
    return rerun(at)


def test_a_tab_bar_and_a_non_empty_default_round_trip_through_the_url():
    at = _demo()
    assert at.text[0].value == "Specs|a" and dict(at.query_params) == {}
    at.button_group(key="demo_tab").set_value("Chart")
    at.multiselect(key="demo_kinds").set_value([])  # emptied: differs from the default ("a")
    rerun(at)
    assert dict(at.query_params) == {"demo_tab": "Chart", "demo_kinds": ","}
    again = _demo(**dict(at.query_params))  # a new tab from the link
    assert again.text[0].value == "Chart|"
    bad = _demo(demo_tab="Nope")
    assert texts(bad.warning) == ["demo_tab='Nope' in the URL is not one of Specs, Releases, Chart; it is ignored."]
    assert bad.text[0].value == "Specs|a"
