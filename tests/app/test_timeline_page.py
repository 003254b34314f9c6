"""The Timeline page: the chart spec it renders, its filters and gate selection."""

import json

from streamlit import dataframe_util

from conftest import current_page, open_app, rerun, texts
from dashboard.components.charts import GATE_PICK
from kcompat.answers.gates import gate_evaluation


def chart_spec(at):
    (chart,) = at.get("vega_lite_chart")
    return json.loads(chart.proto.spec), chart


def rows(at):
    spec, chart = chart_spec(at)
    return spec["layer"][0]["encoding"]["y"]["sort"]


def rules(at):
    spec, chart = chart_spec(at)
    name = spec["layer"][1]["data"]["name"]
    data = next(d for d in chart.proto.datasets if d.name == name)
    frame = dataframe_util.convert_arrow_bytes_to_pandas_df(data.data.data)
    return dict(zip(frame["marker"], frame["x"]))


def test_default_load(catalog):
    at = open_app("timeline")
    assert current_page(at) == "timeline"
    assert len(rows(at)) == len(catalog.manifest("1.37"))
    assert rules(at) == {"binary": 37, "emulated": 36}  # the landing selection


def test_deep_link_draws_the_rules_at_the_binary_and_emulated_versions():
    at = open_app("timeline", binary="1.35", emulated="1.33")
    assert rules(at) == {"binary": 35, "emulated": 33}
    spec, _ = chart_spec(at)
    assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"][1] == 36
    assert at.subheader[0].value == "Stage history of the 1.35 binary's gates"


def test_chart_selection_is_wired_to_streamlit():
    at = open_app("timeline", binary="1.36", emulated="1.33")
    spec, chart = chart_spec(at)
    assert list(chart.proto.selection_mode) == [GATE_PICK]
    assert {p["name"] for p in spec["params"]} == {GATE_PICK, "stage_legend"}


def test_stage_filter_uses_the_stage_at_the_emulated_version(catalog):
    at = open_app("timeline", binary="1.36", emulated="1.33")
    at.multiselect(key="timeline_stages").set_value(["PreAlpha"])
    rerun(at)
    prealpha = sorted(g.name for g in gate_evaluation(catalog, "1.36", "1.33").gates if g.stage.value == "PreAlpha")
    assert sorted(rows(at)) == prealpha
    assert f"{len(prealpha)} of {len(catalog.manifest('1.36'))} gates" in texts(at.caption)


def test_name_filter_and_sort():
    at = open_app("timeline", binary="1.36", emulated="1.33")
    at.text_input(key="timeline_text").set_value("job")
    at.selectbox(key="timeline_sort").set_value("name")
    rerun(at)
    shown = rows(at)
    assert shown == sorted(shown) and all("job" in g.lower() for g in shown) and "JobManagedBy" in shown


def test_axis_start_slider():
    at = open_app("timeline", binary="1.36", emulated="1.33")
    assert at.select_slider(key="timeline_from").value == 24
    at.select_slider(key="timeline_from").set_value(30)
    rerun(at)
    spec, _ = chart_spec(at)
    assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"] == [30, 37]


def test_no_match_says_so():
    at = open_app("timeline")
    at.text_input(key="timeline_text").set_value("NoSuchGateAnywhere")
    rerun(at)
    assert not at.get("vega_lite_chart")
    assert texts(at.info) == ["No gate matches the filters."]


def test_clicking_a_bar_opens_the_gate():
    at = open_app("timeline", binary="1.36", emulated="1.33")
    at.session_state["timeline_chart_0"] = {"selection": {GATE_PICK: [{"gate": "JobManagedBy"}]}}
    rerun(at)
    assert current_page(at) == "gate_detail"
    assert at.query_params == {"binary": "1.36", "emulated": "1.33", "gate": "JobManagedBy"}


def test_search_finds_by_abbreviation():
    """Issue 19: the timeline's search is the Gates page's (DRA finds DynamicResourceAllocation)."""
    from kcompat.data.catalog import DEFAULT_CATALOG
    from kcompat.core.search import GateText, search_gates

    at = open_app("timeline", binary="1.36", emulated="1.33")
    at.text_input(key="timeline_text").set_value("DRA")
    rerun(at)
    texts = {k: GateText(v.description, v.kep) for k, v in DEFAULT_CATALOG.gate_info.items()}
    names = [f.name for f in DEFAULT_CATALOG.manifest("1.36").features]
    found = search_gates("DRA", names, texts)
    assert "DynamicResourceAllocation" in found
    assert f"{len(found)} of {len(names)} gates" in [c.value for c in at.caption]
