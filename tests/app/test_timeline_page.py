"""The Timeline page: the chart specs it renders (one chart per block of rows), its filters and
gate selection."""

import json

from conftest import current_page, open_app, rerun, texts
from streamlit import dataframe_util

from dashboard.charts.specs import (
    GATE_PICK,
    LABEL_CSS,
    PREDATES,
    ROWS_PER_BLOCK,
    STAGE_LEGEND,
)
from kcompat.answers.gates import gate_evaluation
from kcompat.core.request import Request


def charts(at):
    """(spec, element) of each chart of the page, top to bottom."""
    return [(json.loads(c.proto.spec), c) for c in at.get("vega_lite_chart")]


def chart_spec(at):
    """The first block's chart."""
    return charts(at)[0]


def rows(at):
    """The gate rows of every block, top to bottom."""
    return [g for spec, _ in charts(at) for g in spec["layer"][0]["encoding"]["y"]["sort"]]


def layer(spec, chart, mark_filter):
    """The data of the first layer ``mark_filter(mark) is True`` for, as a DataFrame (None: no such layer)."""
    for lay in spec["layer"]:
        if mark_filter(lay["mark"]):
            name = lay["data"]["name"]
            data = next(d for d in chart.proto.datasets if d.name == name)
            return dataframe_util.convert_arrow_bytes_to_pandas_df(data.data.data)
    return None


def rules(at):
    spec, chart = chart_spec(at)
    frame = layer(spec, chart, lambda m: m["type"] == "rule")
    return dict(zip(frame["marker"], frame["x"], strict=True))


def test_default_load(catalog):
    at = open_app("timeline")
    assert current_page(at) == "timeline"
    assert len(rows(at)) == len(set(rows(at))) == len(catalog.manifest("1.37"))
    assert rules(at) == {"binary": 37, "emulated": 37}  # the landing selection: the binary at its own release


def test_rows_come_in_blocks_each_with_its_axis_and_legends(catalog):
    at = open_app("timeline", binary="1.36", emulated="1.33")
    blocks = charts(at)
    sizes = [len(spec["layer"][0]["encoding"]["y"]["sort"]) for spec, _ in blocks]
    assert sum(sizes) == len(catalog.manifest("1.36")) and len(blocks) == -(-sum(sizes) // ROWS_PER_BLOCK)
    assert all(n == ROWS_PER_BLOCK for n in sizes[:-1]) and 0 < sizes[-1] <= ROWS_PER_BLOCK
    for i, (spec, chart) in enumerate(blocks):
        bars = spec["layer"][0]["encoding"]
        # the height follows the rows (a step per row), the width the page
        assert spec["height"] == {"step": 18} and spec["width"] == "container"
        assert bars["x"]["axis"]["orient"] == "top" and bars["color"]["legend"]["title"].startswith("stage")
        bottom = spec["layer"][-1]["encoding"]["x"].get("axis")
        assert (bottom is not None and bottom["orient"] == "bottom") == (i == len(blocks) - 1)  # the last block's bottom
        assert bars["y"]["axis"]["labelFontSize"] >= 12
        assert spec["usermeta"]["embedOptions"]["renderer"] == "svg"  # text positions readable in a browser
        assert {p["name"] for p in spec["params"]} == {GATE_PICK, STAGE_LEGEND}
        assert list(chart.proto.selection_mode) == [GATE_PICK]
    # the labels take the theme's text colour, not Streamlit's faint chart grey
    assert LABEL_CSS in [h.proto.body for h in at.get("html")]


def test_the_axis_starts_at_the_oldest_bundled_release(catalog):
    at = open_app("timeline", binary="1.36", emulated="1.33")
    oldest = int(catalog.usable_releases()[0].split(".")[1])
    assert at.select_slider(key="timeline_from").value == oldest
    assert {tuple(spec["layer"][0]["encoding"]["x"]["scale"]["domain"]) for spec, _ in charts(at)} == {(oldest, 37)}


def test_one_row_is_one_short_chart():
    at = open_app("timeline", binary="1.36", emulated="1.33", timeline_text="StatefulSetSemanticRevisionComparison")
    ((spec, _chart),) = charts(at)
    assert spec["layer"][0]["encoding"]["y"]["sort"] == ["StatefulSetSemanticRevisionComparison"]
    assert spec["height"] == {"step": 18}
    assert "1 of " in " ".join(texts(at.caption))


def test_releases_before_a_gates_first_real_spec_predate_it(catalog):
    """StatefulSetSemanticRevisionComparison's only spec is dated 1.0 (a placeholder); the first
    bundled release that lists it is 1.35: no stage bar before 1.35, a "predates" band instead."""
    first = next(r for r in catalog.usable_releases() if "StatefulSetSemanticRevisionComparison" in catalog.manifest(r).by_name)
    at = open_app("timeline", binary="1.36", emulated="1.33", timeline_text="StatefulSetSemanticRevisionComparison")
    start = int(first.split(".")[1])
    # by default the axis fits the row's real history: it starts at the gate's first release
    assert at.select_slider(key="timeline_from").value == start
    at.select_slider(key="timeline_from").set_value(31)
    rerun(at)
    ((spec, chart),) = charts(at)
    bars = layer(spec, chart, lambda m: m["type"] == "bar" and "strokeDash" not in m)
    band = layer(spec, chart, lambda m: m["type"] == "bar" and "strokeDash" in m)
    assert list(bars["start"]) == [start] and list(bars["stage"]) == ["Beta"]
    assert list(zip(band["start"], band["end"], band["mark"], strict=True)) == [(31, start, PREDATES)]
    assert "placeholder" in band["why"][0] and f"history from {first}" in band["why"][0]
    assert band["emulating"][0] == "Beta (on)"  # what emulating those releases gives, said beside the band
    legend = next(lay for lay in spec["layer"] if "strokeDash" in lay["mark"])["encoding"]["color"]
    assert legend["scale"] == {"domain": [PREDATES], "range": [legend["scale"]["range"][0]]}
    assert any("predate" in c for c in texts(at.caption))


def test_deep_link_draws_the_rules_at_the_binary_and_emulated_versions():
    at = open_app("timeline", binary="1.35", emulated="1.33")
    assert rules(at) == {"binary": 35, "emulated": 33}
    spec, _ = chart_spec(at)
    assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"][1] == 36
    assert at.subheader[0].value == "Stage history of the 1.35 binary's gates"


def test_stage_filter_uses_the_stage_at_the_emulated_version(catalog):
    at = open_app("timeline", binary="1.36", emulated="1.33")
    at.multiselect(key="timeline_stages").set_value(["PreAlpha"])
    rerun(at)
    prealpha = sorted(g.name for g in gate_evaluation(catalog, Request("1.36", "1.33")).gates if g.stage.value == "PreAlpha")
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
    assert at.select_slider(key="timeline_from").value == 31
    at.select_slider(key="timeline_from").set_value(28)
    rerun(at)
    for spec, _ in charts(at):
        assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"] == [28, 37]


def test_no_match_says_so():
    at = open_app("timeline")
    at.text_input(key="timeline_text").set_value("NoSuchGateAnywhere")
    rerun(at)
    assert not at.get("vega_lite_chart")
    assert texts(at.info) == ["No gate matches the filters."]


def test_clicking_a_bar_in_any_block_opens_the_gate():
    at = open_app("timeline", binary="1.36", emulated="1.33")
    at.session_state["timeline_chart_0_1"] = {"selection": {GATE_PICK: [{"gate": "JobManagedBy"}]}}
    rerun(at)
    assert current_page(at) == "gate_detail"
    assert at.query_params == {"binary": "1.36", "emulated": "1.33", "gate": "JobManagedBy"}


def test_search_finds_by_abbreviation():
    """Issue 19: the timeline's search is the Gates page's (DRA finds DynamicResourceAllocation)."""
    from kcompat.core.search import GateText, search_gates
    from kcompat.data.catalog import DEFAULT_CATALOG

    at = open_app("timeline", binary="1.36", emulated="1.33")
    at.text_input(key="timeline_text").set_value("DRA")
    rerun(at)
    texts = {k: GateText(v.description, v.kep) for k, v in DEFAULT_CATALOG.gate_info.items()}
    names = [f.name for f in DEFAULT_CATALOG.manifest("1.36").features]
    found = search_gates("DRA", names, texts)
    assert "DynamicResourceAllocation" in found
    # the caption says where the search found them (issue 28: a description match gave no sign of why)
    assert f"{len(found)} of {len(names)} gates ({len(found) - 1} by name, 1 by abbreviation)" in [c.value for c in at.caption]


def test_the_gate_detail_page_draws_the_same_band():
    """The detail page draws one gate's row with the same chart: before the gate's first release
    (1.34 for StatefulSetSemanticRevisionComparison) a "predates" band, not its Beta."""
    at = open_app("gate_detail", binary="1.36", emulated="1.33", gate="StatefulSetSemanticRevisionComparison", gate_from="31")
    assert at.select_slider(key="gate_from").value == 31
    ((spec, chart),) = charts(at)
    bars = layer(spec, chart, lambda m: m["type"] == "bar" and "strokeDash" not in m)
    band = layer(spec, chart, lambda m: m["type"] == "bar" and "strokeDash" in m)
    assert list(zip(bars["start"], bars["stage"], strict=False)) == [(34, "Beta")]
    assert list(zip(band["start"], band["end"], strict=False)) == [(31, 34)]
    assert any("Releases before 1.34 predate the gate" in c for c in texts(at.caption))
    assert LABEL_CSS in [h.proto.body for h in at.get("html")]
    # by default its axis starts at its real history (no run of grey)
    fresh = open_app("gate_detail", binary="1.36", emulated="1.33", gate="StatefulSetSemanticRevisionComparison")
    assert fresh.select_slider(key="gate_from").value == 34


def test_the_timeline_of_a_patch_is_that_patchs_and_names_the_patch_that_changed_a_default():
    """v1.35.0 has SchedulerAsyncAPICalls on at 1.35, v1.35.1 turned it off: a 1.35.0 binary's
    timeline draws it on, and the page names the patch that changed it."""
    def last_bar(at):
        ((spec, chart),) = [c for c in charts(at)][:1]
        bars = layer(spec, chart, lambda m: m["type"] == "bar" and "strokeDash" not in m)
        return bars

    old = open_app("timeline", binary="1.35", emulated="1.35", patch="0", timeline_text="SchedulerAsyncAPICalls")
    new = open_app("timeline", binary="1.35", emulated="1.35", timeline_text="SchedulerAsyncAPICalls")
    assert old.subheader[0].value == "Stage history of the 1.35.0 binary's gates"
    assert list(last_bar(old)["default"])[-1] == "on" and list(last_bar(new)["default"])[-1] == "off"
    for at in (old, new):
        assert any("1.35.1 default flipped SchedulerAsyncAPICalls" in c for c in texts(at.caption))
