"""Chart specs (dashboard.charts.specs) asserted through Altair's ``to_dict()``."""

import pytest

from dashboard.charts.specs import (
    GATE_PICK,
    LABEL_SIZE,
    PREDATES,
    ROW_HEIGHT,
    ROWS_PER_BLOCK,
    STAGE_LEGEND,
    default_x_start,
    predates_frame,
    segment_frame,
    stage_counts_chart,
    timeline_block_specs,
    timeline_blocks,
    timeline_chart,
    transitions_chart,
)
from dashboard.charts.stage_colors import (
    STAGE_COLORS,
    STAGE_NAMES,
    STAGE_RANGE,
    TRANSITION_COLORS,
)
from kcompat.answers.timeline import order as timeline_order
from kcompat.core.gate_history import gate_segments, timeline_segments
from kcompat.core.matrix import (
    STAGE_TRANSITION_KINDS,
    listed_since,
    release_matrix,
    release_transitions,
)
from kcompat.core.placeholders import gate_starts
from kcompat.core.stages import STAGE_ORDER, Stage
from kcompat.core.versions import parse_version as V
from kcompat.data.catalog import DEFAULT_CATALOG


@pytest.fixture(scope="module")
def segments(catalog):
    return timeline_segments(catalog.manifest("1.36"), V("1.37"))


@pytest.fixture(scope="module")
def starts(catalog):
    releases = catalog.usable_releases()
    m = release_matrix([(r, catalog.manifest(r)) for r in releases])
    return gate_starts(catalog.manifest("1.36").features, V("1.36"), listed_since(m), V(releases[0]))


@pytest.fixture(scope="module")
def spec(segments):
    return timeline_chart(segments, V("1.36"), V("1.33"), x_start=26).to_dict()


def layer_data(spec, layer):
    return spec["datasets"][spec["layer"][layer]["data"]["name"]]


def test_bars_encode_versions_on_a_quantitative_axis(spec):
    enc = spec["layer"][0]["encoding"]
    assert spec["layer"][0]["mark"]["type"] == "bar"
    assert enc["x"]["field"] == "start" and enc["x"]["type"] == "quantitative"
    assert enc["x2"]["field"] == "end"
    assert enc["x"]["scale"]["domain"] == [26, 37]  # up to the binary's release, inclusive
    assert enc["x"]["axis"]["labelExpr"] == "'1.' + datum.value"
    assert enc["y"]["field"] == "gate" and enc["y"]["type"] == "nominal"


def test_minor_9_sorts_before_minor_10(catalog):
    # On a numeric axis 1.9 < 1.10, which a string axis would get wrong.
    segs = gate_segments(catalog.manifest("1.36").by_name["KMSv1"], V("1.37"))
    frame = segment_frame(segs, 0, 37)
    assert list(frame["start"]) == [0, 28, 29]
    assert frame["start"].dtype.kind == "i"


def test_stage_colours_come_from_the_one_mapping(spec, segments):
    color = spec["layer"][0]["encoding"]["color"]
    assert color["field"] == "stage"
    # only the stages drawn, in display order, each in its own colour (no PreAlpha bar, no PreAlpha entry)
    drawn = {s.stage.value for s in segments}
    assert color["scale"]["domain"] == [n for n in STAGE_NAMES if n in drawn] and "PreAlpha" not in drawn
    assert color["scale"]["range"] == [STAGE_COLORS[s] for s in STAGE_ORDER if s.value in drawn]
    # The legend pick fades the other stages through fillOpacity, so the colour (and with it
    # every legend's swatch) stays the stage's own.
    assert spec["layer"][0]["encoding"]["fillOpacity"]["condition"]["param"] == STAGE_LEGEND
    assert dict(zip(STAGE_NAMES, STAGE_RANGE, strict=True)) == {s.value: STAGE_COLORS[s] for s in STAGE_ORDER}


def test_default_and_lock_are_visibly_different(spec):
    enc = spec["layer"][0]["encoding"]
    assert enc["opacity"]["field"] == "default"
    assert enc["opacity"]["scale"] == {"domain": ["on", "off"], "range": [1.0, 0.6]}
    assert enc["strokeWidth"]["field"] == "locked"
    assert enc["strokeWidth"]["scale"]["domain"] == ["locked", "unlocked"]
    assert enc["strokeWidth"]["scale"]["range"][0] >= 2 * enc["strokeWidth"]["scale"]["range"][1] > 0


def test_legend_is_interactive_and_bars_are_selectable(spec):
    params = {p["name"]: p for p in spec["params"]}
    assert params[STAGE_LEGEND]["bind"] == "legend"
    assert params[STAGE_LEGEND]["select"]["fields"] == ["stage"]
    assert params[GATE_PICK]["select"]["fields"] == ["gate"]


def test_tooltips_show_the_real_versions(spec):
    tips = [t["field"] for t in spec["layer"][0]["encoding"]["tooltip"]]
    assert tips == ["gate", "stage", "default", "locked", "since", "until"]


def test_rules_at_the_binary_and_the_emulated_version(spec):
    rule = spec["layer"][1]
    assert rule["mark"]["type"] == "rule"
    assert rule["encoding"]["x"]["field"] == "x"
    rows = {r["marker"]: (r["x"], r["version"]) for r in layer_data(spec, 1)}
    assert rows == {"binary": (36, "1.36"), "emulated": (33, "1.33")}


def test_one_row_per_gate_with_a_fixed_row_height(spec, segments):
    assert spec["height"] == {"step": ROW_HEIGHT}
    order = spec["layer"][0]["encoding"]["y"]["sort"]
    assert len(order) == len({s.gate for s in segments}) == len(DEFAULT_CATALOG.manifest("1.36"))
    assert order == timeline_order(segments, "introduced")


def test_order_by_introduction_then_name(segments):
    order = timeline_order(segments, "introduced")
    first = {}
    for s in segments:
        first.setdefault(s.gate, (s.start.major, s.start.minor))
    assert [first[g] for g in order] == sorted(first[g] for g in order)
    assert order.index("KMSv1") < order.index("JobManagedBy")  # 1.0 before 1.30
    assert timeline_order(segments, "name") == sorted(first)


def test_order_by_stage_at_the_emulated_version(segments):
    stage_at = {"JobManagedBy": "Beta", "KMSv1": "Deprecated", "ContainerStopSignals": "Alpha"}
    chosen = [s for s in segments if s.gate in stage_at]
    assert timeline_order(chosen, "stage at emulated", stage_at) == ["ContainerStopSignals", "JobManagedBy", "KMSv1"]


def test_segments_before_the_axis_start_are_clipped_not_lost(catalog):
    segs = gate_segments(catalog.manifest("1.36").by_name["KMSv1"], V("1.37"))
    frame = segment_frame(segs, 30, 37)
    assert list(frame["start"]) == [30] and list(frame["since"]) == ["1.29"]


def test_default_axis_start(segments, starts):
    assert default_x_start(segments, V("1.36")) == 24  # at most 12 releases back
    assert default_x_start([], V("1.36")) == 35
    # the timeline page: from the oldest bundled release at the earliest
    assert default_x_start(segments, V("1.36"), floor=31, starts=starts) == 31
    assert default_x_start(segments, V("1.31"), floor=31) == 30  # at least one release before the binary
    # the real start, not the placeholder: the row of a gate first listed in 1.34 (a 1.34 patch added it) starts there
    ssrc = [s for s in segments if s.gate == "StatefulSetSemanticRevisionComparison"]
    assert default_x_start(ssrc, V("1.36"), floor=31) == 31 and default_x_start(ssrc, V("1.36"), floor=31, starts=starts) == 34


def test_filtered_chart_keeps_only_the_given_gates(segments):
    chosen = [s for s in segments if s.gate in ("JobManagedBy", "KMSv1")]
    spec = timeline_chart(chosen, V("1.36"), V("1.36"), x_start=20).to_dict()
    assert sorted(spec["layer"][0]["encoding"]["y"]["sort"]) == ["JobManagedBy", "KMSv1"]
    assert {r["x"] for r in layer_data(spec, 1)} == {36}


@pytest.fixture(scope="module")
def transitions(catalog):
    return release_transitions(release_matrix([(r, catalog.manifest(r)) for r in catalog.usable_releases()]))


def test_transitions_chart(transitions):
    spec = transitions_chart(transitions).to_dict()
    enc = spec["encoding"]
    assert enc["x"]["field"] == "release" and enc["x"]["sort"] == ["1.32", "1.33", "1.34", "1.35", "1.36", "1.37", "1.38"]
    assert enc["xOffset"]["field"] == "kind"
    assert enc["color"]["scale"]["domain"] == list(STAGE_TRANSITION_KINDS)
    assert enc["color"]["scale"]["range"] == [TRANSITION_COLORS[k] for k in STAGE_TRANSITION_KINDS]
    data = spec["datasets"][spec["data"]["name"]]
    # gates that came in at Beta, GA or Deprecated are drawn as new, not as moves (17 in 1.36)
    new = next(r for r in data if r["release"] == "1.36" and r["kind"] == "new")
    assert new["gates"] == len(next(t for t in transitions if t.release == "1.36").new) == 17
    row = next(r for r in data if r["release"] == "1.33" and r["kind"] == "removed")
    assert row["gates"] == len(next(t for t in transitions if t.release == "1.33").removed)


def test_stage_counts_chart_uses_the_stage_colours_of_the_stages_it_draws():
    import pandas as pd

    counts = pd.DataFrame(
        [
            {"release": "1.36", "stage": "Beta", "gates": 3, "stage_rank": 2},
            {"release": "1.36", "stage": "Alpha", "gates": 2, "stage_rank": 1},
            {"release": "1.36", "stage": "PreAlpha", "gates": 0, "stage_rank": 0},
        ]
    )
    enc = stage_counts_chart(counts).to_dict()["encoding"]
    assert enc["color"]["scale"] == {"domain": ["Alpha", "Beta"], "range": [STAGE_COLORS[Stage.ALPHA], STAGE_COLORS[Stage.BETA]]}


def test_the_matrix_pages_bar_charts_list_only_what_they_draw(catalog, transitions):
    import pandas as pd

    m = release_matrix([(r, catalog.manifest(r)) for r in catalog.usable_releases()])

    rows = [
        {"release": rel, "stage": c.stage.value, "gates": 1, "stage_rank": 0}
        for r in m.rows for rel, c in zip(m.releases, r.cells, strict=True) if c is not None
    ]
    counts = pd.DataFrame(rows).groupby(["release", "stage"], as_index=False).agg(gates=("gates", "sum"), stage_rank=("stage_rank", "min"))
    listed = set(counts["stage"])
    assert stage_counts_chart(counts).to_dict()["encoding"]["color"]["scale"]["domain"] == [n for n in STAGE_NAMES if n in listed]
    assert "PreAlpha" not in listed  # the unused entry the legend used to show
    kinds = transitions_chart(transitions).to_dict()["encoding"]["color"]["scale"]["domain"]
    assert kinds == [k for k in STAGE_TRANSITION_KINDS if any(t.counts(STAGE_TRANSITION_KINDS)[k] for t in transitions)]


def test_legend_swatches_match_the_marks(spec):
    enc = spec["layer"][0]["encoding"]
    default, lock = enc["opacity"]["legend"], enc["strokeWidth"]["legend"]
    # Square swatches like the bars, filled (the default legend shows the fill's opacity) and
    # outlined like a locked bar (the lock legend shows the outline's width).
    assert default["symbolType"] == lock["symbolType"] == enc["color"]["legend"]["symbolType"] == "square"
    assert default["symbolFillColor"] == lock["symbolStrokeColor"] == spec["layer"][0]["mark"]["stroke"]
    assert spec["layer"][1]["encoding"]["color"]["legend"]["symbolType"] == "stroke"


def test_gate_labels_follow_the_width_on_the_page_at_a_legible_size(spec):
    axis = spec["layer"][0]["encoding"]["y"]["axis"]
    assert "containerSize()[0]" in axis["labelLimit"]["expr"]
    assert axis["labelFontSize"] == LABEL_SIZE >= 12
    assert spec["layer"][0]["encoding"]["x"]["axis"]["labelFontSize"] >= 12


def test_export_caption_names_the_selection_and_the_datas_provenance(catalog):
    from dashboard.charts.export import provenance, selection_caption
    from dashboard.state.selection import Selection

    assert selection_caption(Selection("1.36", "1.33", "1.32", "AllBeta=false"), "8 of 230 gates") == (
        "A 1.36 binary emulating 1.33 with --min-compatibility-version=1.32, --feature-gates=AllBeta=false; 8 of 230 gates"
    )
    assert selection_caption(Selection("1.36", "1.36")) == "A 1.36 binary not emulating"
    kind = catalog.info("1.36").source_text
    assert kind == f"v{catalog.info('1.36').patch}"
    assert provenance(("1.36",)) == (
        "Data: Kubernetes feature-gate manifests (versioned_feature_list.yaml) bundled with kcompat"
        + "".join(f" {v}" for v in [getattr(__import__("kcompat"), "__version__", "")] if v)
        + f" (1.36 {kind}); provenance in data/SOURCES.md."
    )


def test_no_stage_bar_before_a_gates_first_real_spec(segments, starts):
    """StatefulSetSemanticRevisionComparison: one spec, dated 1.0 (a placeholder); the first bundled
    release that lists it is 1.34 (a 1.34 patch added it). Before 1.34 the chart draws a "predates the gate" band, no bar."""
    gate = "StatefulSetSemanticRevisionComparison"
    spec = timeline_chart(segments, V("1.36"), V("1.33"), x_start=31, order=[gate], starts=starts).to_dict()
    bars, band, rules = spec["layer"]
    assert [(r["start"], r["end"], r["stage"], r["since"]) for r in layer_data(spec, 0)] == [(34, 37, "Beta", "1.34")]
    assert [(r["start"], r["end"], r["mark"], r["until"]) for r in layer_data(spec, 1)] == [(31, 34, PREDATES, "1.34")]
    assert "placeholder" in layer_data(spec, 1)[0]["why"] and layer_data(spec, 1)[0]["emulating"] == "Beta (on)"
    # a distinct mark with its own legend entry and tooltip: thinner, dashed, grey
    assert band["mark"]["strokeDash"] and band["mark"]["height"]["band"] < bars["mark"]["height"]["band"]
    assert band["encoding"]["color"]["scale"]["domain"] == [PREDATES]
    assert [t["field"] for t in band["encoding"]["tooltip"]] == ["gate", "mark", "until", "why", "emulating"]
    assert rules["mark"]["type"] == "rule"
    # without the real starts the old drawing: Beta from the placeholder on
    old = segment_frame([s for s in segments if s.gate == gate], 31, 37)
    assert list(zip(old["start"], old["stage"], strict=True)) == [(31, "Beta")]


def test_every_gate_dated_to_a_placeholder_gets_no_bar_before_its_real_start(segments, starts):
    bars = segment_frame(segments, 0, 37, starts)
    band = predates_frame(segments, 0, 37, starts)
    assert set(band["gate"]) == set(starts) and len(starts) > 5
    for gate, start in starts.items():
        assert bars.loc[bars["gate"] == gate, "start"].min() >= start.start.minor
        assert list(band.loc[band["gate"] == gate, "end"]) == [start.start.minor]
    # the bars of the other gates are untouched
    others = [s for s in segments if s.gate not in starts]
    assert len(segment_frame(others, 0, 37, starts)) == len(segment_frame(others, 0, 37))
    # no band, no legend entry for it
    assert len(timeline_chart(others, V("1.36"), V("1.33"), x_start=31, starts=starts).to_dict()["layer"]) == 2


def outer(spec):
    """A spec without its layers and data, and without the view names Altair generates."""
    out = {k: v for k, v in spec.items() if k not in ("layer", "datasets")}
    out["params"] = [{k: v for k, v in p.items() if k != "views"} for p in spec["params"]]
    return out


def test_blocks_of_rows_are_the_charts_of_their_rows(segments, starts):
    """Each block cut from the chart of every row is what a chart of only its rows would be: its
    data, its row order, its legends (only the stages and marks it draws), the axis at its top and,
    on the last block only, at its bottom."""
    order = timeline_order(segments)
    blocks = timeline_blocks(order)
    assert [g for b in blocks for g in b] == order and {len(b) for b in blocks[:-1]} == {ROWS_PER_BLOCK}
    assert 0 < len(blocks[-1]) <= ROWS_PER_BLOCK and timeline_blocks([]) == [[]]
    full = timeline_chart(segments, V("1.36"), V("1.33"), x_start=31, order=order, starts=starts).to_dict()
    cut = timeline_block_specs(full, blocks)
    assert len(cut) == len(blocks)
    for i, (rows, block) in enumerate(zip(blocks, cut, strict=True)):
        own = timeline_chart(
            segments, V("1.36"), V("1.33"), x_start=31, order=rows, starts=starts, bottom_axis=i == len(blocks) - 1
        ).to_dict()
        assert [lay["mark"] for lay in block["layer"]] == [lay["mark"] for lay in own["layer"]]
        for n, (mine, theirs) in enumerate(zip(block["layer"], own["layer"], strict=True)):
            assert layer_data(block, n) == layer_data(own, n)
            if "y" in mine["encoding"]:
                # one gate-axis width in every block, the whole chart's: the releases line up
                assert mine["encoding"]["y"]["axis"]["minExtent"] == full["layer"][0]["encoding"]["y"]["axis"]["minExtent"]
                mine, theirs = (
                    {**lay, "encoding": {**lay["encoding"], "y": {**lay["encoding"]["y"], "axis": {**lay["encoding"]["y"]["axis"], "minExtent": None}}}}
                    for lay in (mine, theirs)
                )
            assert mine["encoding"] == theirs["encoding"]
        assert outer(block) == outer(own)
        assert block["params"][0]["views"] == [block["layer"][0]["name"]]  # the params still name the bars' view
        assert block["layer"][0]["encoding"]["x"]["axis"]["orient"] == "top"
        assert (block["layer"][-1]["encoding"]["x"].get("axis") or {}).get("orient") == ("bottom" if i == len(blocks) - 1 else None)
    assert any(len(b["layer"]) == 3 for b in cut) and any(len(b["layer"]) == 2 for b in cut)  # a band layer only where drawn
    assert full["layer"][0]["encoding"]["y"]["sort"] == order  # the chart cut is left whole (the export)


def _contrast(a: str, b: str) -> float:
    def lum(h: str) -> float:
        lin = [(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4) for c in (int(h[i : i + 2], 16) / 255 for i in (1, 3, 5))]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _blend(colour: str, alpha: float, background: str) -> str:
    parts = [round(alpha * int(colour[i : i + 2], 16) + (1 - alpha) * int(background[i : i + 2], 16)) for i in (1, 3, 5)]
    return "#" + "".join(f"{p:02X}" for p in parts)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_default_off_bar_stands_out_from_the_background(spec, theme):
    """A faded ("default off") bar of every stage has a boundary of at least 3:1 against the dark
    theme's background (WCAG 1.4.11): its fill or its outline, both drawn at the bar's opacity.
    On white the outline of a solid bar keeps 2.8:1 (a locked bar's 3 px outline)."""
    import tomllib

    from tests.conftest import ROOT

    background = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))["theme"][theme]["backgroundColor"]
    bars = spec["layer"][0]
    enc = bars["encoding"]
    fill = enc["opacity"]  # fill and outline
    assert fill["field"] == "default" and fill["scale"]["domain"] == ["on", "off"]
    off = fill["scale"]["range"][1]
    assert off < 1  # still faded: default off reads differently from on
    widths = dict(zip(enc["strokeWidth"]["scale"]["domain"], enc["strokeWidth"]["scale"]["range"], strict=True))
    assert widths["unlocked"] >= 1 and widths["locked"] >= 2 * widths["unlocked"]
    outline = bars["mark"]["stroke"]
    if theme == "light":
        assert _contrast(outline, background) >= 2.8
        return
    for colour in enc["color"]["scale"]["range"]:
        faded = _blend(colour, off, background)
        assert max(_contrast(faded, background), _contrast(_blend(outline, off, background), background)) >= 3, (colour, faded, outline)
