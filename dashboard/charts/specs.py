"""Altair chart specs as pure functions: data in, ``alt.Chart`` out (test them with ``.to_dict()``).

Versions are drawn on a quantitative axis of minor numbers (Kubernetes 1.x), labelled ``1.x``,
so 1.9 sorts before 1.10. Stage colours come from :mod:`dashboard.charts.stage_colors`.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence

import altair as alt
import pandas as pd

from dashboard.charts.stage_colors import STAGE_NAMES, STAGE_RANGE, TRANSITION_COLORS
from dashboard.tables.text_width import text_px
from kcompat.answers.timeline import order as timeline_order
from kcompat.core.gate_history import Segment
from kcompat.core.matrix import STAGE_TRANSITION_KINDS, ReleaseTransitions
from kcompat.core.placeholders import GateStart, is_placeholder
from kcompat.core.versions import Version

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


ROW_HEIGHT = 18
#: Rows per timeline chart on the page: each block of rows has its own axis and legends, so that
#: an axis and a legend are on screen wherever the page is scrolled (1440x900 and 390x844).
ROWS_PER_BLOCK = 25
GATE_PICK = "gate_pick"
STAGE_LEGEND = "stage_legend"
RULE_COLORS = {"binary": "#7F7F7F", "emulated": "#D55E00"}
_VERSION_LABEL = "'1.' + datum.value"
#: Hint appended to a legend title on the page; :mod:`kcompat.documents.exports` drops it from exports.
CLICK_HINT = " (click to highlight)"
#: Gate-name labels take at most 40 % of the chart's width (a phone keeps room for the bars) and
#: never cut a name on a wide screen. Exports fix the limit (whole names).
GATE_LABEL_LIMIT = alt.ExprRef("clamp(containerSize()[0] * 0.4, 90, 480)")
#: What a gate-name axis takes besides its labels (tick 5 px, padding 2 px, 1 px to spare), and
#: how much wider than :func:`dashboard.tables.text_width.text_px` a label may be drawn.
_AXIS_EXTRA_PX, _LABEL_MARGIN = 8, 1.1
#: Row and axis labels: 12 px on every screen. Their colour is the theme's text colour
#: (:data:`LABEL_CSS`): Streamlit's chart theme draws them in a faint grey.
LABEL_SIZE = 12
#: The neutral fill of the default/lock legend swatches: the bars' own outline grey.
SWATCH = "#999999"
#: A "default off" bar's opacity (on: 1). At 0.35 a faded bar was near invisible on the dark
#: theme (Beta's blue: 1.4:1 on #0E1117); at 0.6 every bar has an outline in SWATCH grey of at
#: least 3:1 on the dark background even faded (3.1:1; 6.6:1 solid, 2.9:1 on white): thin when
#: unlocked, thick when locked.
OFF_OPACITY = 0.6
OUTLINE_PX, LOCKED_OUTLINE_PX = 1.0, 3.0
#: The mark of releases that predate a gate (its first spec is dated to a placeholder 0.0/1.0):
#: a thin grey band with a dashed outline, never a stage bar.
PREDATES = "predates the gate"
PREDATES_FILL = "#B0B0B0"
#: What the page puts beside its charts: axis and legend texts in the theme's own text colour
#: (#111418 on white, #E6E9EF on #0E1117: above 7:1 in both themes). The charts are SVG, so CSS
#: reaches their texts.
LABEL_CSS = (
    "<style>"
    '[data-testid="stVegaLiteChart"] svg.marks :is(.role-axis-label, .role-axis-title, .role-legend-label, .role-legend-title) text'
    " { fill: currentColor; }"
    "</style>"
)


def _x(version: Version) -> int:
    """The axis position of a release (its minor; every bundled release is 1.x)."""
    return version.minor


def _label(version: Version) -> str:
    return f"{version.major}.{version.minor}"


def _pieces(segments: Iterable[Segment], starts: Mapping[str, GateStart]) -> Iterator[tuple[Segment, int, int, bool]]:
    """Each segment as (segment, start, end, predates): the part before its gate's real start
    (``starts``) predates the gate, the rest is the gate's history."""
    for s in segments:
        start, end = _x(s.start), _x(s.end)
        real = starts.get(s.gate)
        cut = _x(real.start) if real is not None else None
        if cut is None or cut <= start:
            yield s, start, end, False
            continue
        yield s, start, min(end, cut), True
        if end > cut:
            yield s, cut, end, False


def segment_frame(
    segments: Iterable[Segment], x_start: int, x_end: int, starts: Mapping[str, GateStart] | None = None
) -> pd.DataFrame:
    """One row per stage bar, clipped to [x_start, x_end]; ``since``/``until`` keep the real versions.

    With ``starts`` (gate -> :class:`GateStart`), nothing before a gate's real start is a bar: the
    releases before it predate the gate (:func:`predates_frame`)."""
    rows = []
    for s, start, end, predates in _pieces(segments, starts or {}):
        if predates or end <= x_start or start >= x_end:
            continue
        since = _label(s.start) + (" (placeholder: older than the gate)" if is_placeholder(s.start) else "")
        real = (starts or {}).get(s.gate)
        if real is not None and start == _x(real.start) > _x(s.start):  # from the gate's real start on
            since = _label(real.start)
        rows.append(
            {
                "gate": s.gate,
                "stage": s.stage.value,
                "default": "on" if s.default else "off",
                "locked": "locked" if s.locked else "unlocked",
                "start": max(start, x_start),
                "end": min(end, x_end),
                "since": since,
                "until": _label(s.end),
            }
        )
    columns = ["gate", "stage", "default", "locked", "start", "end", "since", "until"]
    return pd.DataFrame(rows, columns=columns)


def predates_frame(
    segments: Iterable[Segment], x_start: int, x_end: int, starts: Mapping[str, GateStart] | None = None
) -> pd.DataFrame:
    """One row per gate whose data dates its first spec to a placeholder: the releases (clipped to
    [x_start, x_end]) before its real start, which predate the gate; ``why`` explains it."""
    spans: dict[str, list[int]] = {}
    given: dict[str, list[str]] = {}
    for s, start, end, predates in _pieces(segments, starts or {}):
        if predates and end > x_start and start < x_end:
            span = spans.setdefault(s.gate, [start, end])
            span[0], span[1] = min(span[0], start), max(span[1], end)
            if str(s.status) not in given.setdefault(s.gate, []):
                given[s.gate].append(str(s.status))
    rows = []
    for gate, (start, end) in spans.items():
        real = (starts or {})[gate]
        rows.append(
            {
                "gate": gate,
                "mark": PREDATES,
                "start": max(start, x_start),
                "end": min(end, x_end),
                "until": _label(real.start),
                "why": real.text(),
                # what the placeholder spec gives a binary that emulates one of these releases
                "emulating": ", then ".join(given[gate]),
            }
        )
    return pd.DataFrame(rows, columns=["gate", "mark", "start", "end", "until", "why", "emulating"])


def default_x_start(
    segments: Iterable[Segment],
    binary: Version,
    max_span: int = 12,
    floor: int | None = None,
    starts: Mapping[str, GateStart] | None = None,
) -> int:
    """Where the timeline axis starts: the earliest start of the rows' history (with ``starts``,
    the real one: no grey run of releases that predate the gates), at most ``max_span`` releases
    before the binary, not before ``floor`` (the oldest bundled release), and at least one release
    before the binary."""
    firsts = [start for _, start, _, predates in _pieces(segments, starts or {}) if not predates]
    first = min(firsts) if firsts else _x(binary)
    lowest = _x(binary) - max_span if floor is None else max(floor, _x(binary) - max_span)
    return min(max(first, lowest), _x(binary) - 1)


def shown_stages(stages: Iterable[str]) -> list[str]:
    """The stages among ``stages``, in display order: a legend lists only what is drawn."""
    present = set(stages)
    return [name for name in STAGE_NAMES if name in present]


def _stage_scale(stages: Iterable[str]) -> alt.Scale:
    names = shown_stages(stages)
    return alt.Scale(domain=names, range=[STAGE_RANGE[STAGE_NAMES.index(n)] for n in names])


def gate_axis_extent(gates: Iterable[str]) -> alt.ExprRef:
    """The width of the gate-name axis: its widest label among ``gates`` (at most the label limit)
    plus the ticks. Every block of a timeline (:func:`timeline_block_specs`) gets the whole
    chart's width, so the release axis starts at the same x in each and a release sits at the
    same place in every block."""
    widest = max((text_px(g) for g in gates), default=0.0) * LABEL_SIZE / 14 * _LABEL_MARGIN
    return alt.ExprRef(f"min({GATE_LABEL_LIMIT.expr}, {math.ceil(widest)}) + {_AXIS_EXTRA_PX}")


def timeline_blocks(order: Sequence[str], size: int = ROWS_PER_BLOCK) -> list[list[str]]:
    """The rows split into blocks of ``size`` (each drawn as its own chart with its own axes)."""
    return [list(order[i : i + size]) for i in range(0, len(order), size)] or [[]]


def timeline_chart(
    segments: Sequence[Segment],
    binary: Version,
    emulated: Version,
    *,
    x_start: int,
    order: Sequence[str] | None = None,
    compact: bool = False,
    starts: Mapping[str, GateStart] | None = None,
    bottom_axis: bool = True,
) -> alt.LayerChart:
    """One row per gate (those of ``order``, in that order), one bar per stretch of
    stage/default/lock across releases.

    Colour = stage; opacity = default on (solid) / off (faded); a thick outline = locked to its
    default. Releases before a gate's real start (``starts``) predate it: a grey band, not a bar.
    Vertical rules mark the binary and the emulated version. The release axis is at the top, and
    with ``bottom_axis`` at the bottom too. Clicking a stage in the legend highlights it; clicking
    a bar selects the gate (selection ``gate_pick``). ``compact`` (a phone): each legend lists
    its items top to bottom, in a smaller font, and the markers' legend is left to the page's
    caption, so the legends fit in 390 px. Every legend lists only what is drawn."""
    legend = _legend_style(compact)
    x_end = _x(binary) + 1
    if order is None:
        order = timeline_order(segments)
    rows = set(order)
    chosen = [s for s in segments if s.gate in rows]
    data = segment_frame(chosen, x_start, x_end, starts)
    predates = predates_frame(chosen, x_start, x_end, starts)
    drawn = set(data["gate"]) | set(predates["gate"])
    order = [g for g in order if g in drawn]
    x_scale = alt.Scale(domain=[x_start, x_end], nice=False, zero=False)
    x_axis = alt.Axis(
        title="release", labelExpr=_VERSION_LABEL, tickMinStep=1, format="d", orient="top", grid=True,
        labelFontSize=LABEL_SIZE, titleFontSize=LABEL_SIZE,
    )
    y = alt.Y(
        "gate:N",
        sort=list(order),
        scale=alt.Scale(domain=list(order)),
        title=None,
        axis=alt.Axis(
            labelLimit=GATE_LABEL_LIMIT, labelFontSize=LABEL_SIZE, labelOverlap=False, minExtent=gate_axis_extent(order),
        ),
    )

    legend_pick = alt.selection_point(name=STAGE_LEGEND, fields=["stage"], bind="legend")
    gate_pick = alt.selection_point(name=GATE_PICK, fields=["gate"], on="click", clear="dblclick")

    bars = (
        alt.Chart(data)
        .mark_bar(height={"band": 0.8}, stroke=SWATCH, cornerRadius=2)
        .encode(
            x=alt.X("start:Q", scale=x_scale, axis=x_axis),
            x2="end:Q",
            y=y,
            color=alt.Color(
                "stage:N",
                scale=_stage_scale(data["stage"]),
                legend=alt.Legend(
                    title="stage" + ("" if compact else CLICK_HINT), symbolType="square", symbolStrokeWidth=0, **legend
                ),
            ),
            # the legend pick fades the other stages (opacity itself says default on/off)
            fillOpacity=alt.condition(legend_pick, alt.value(1.0), alt.value(0.15)),
            opacity=alt.Opacity(
                "default:N",
                scale=alt.Scale(domain=["on", "off"], range=[1.0, OFF_OPACITY]),
                # a bar at that opacity, fill and outline: solid = default on, faded = default off
                # (Vega-Lite draws no legend for a fillOpacity field, so the outline fades too)
                legend=alt.Legend(
                    title="default", symbolType="square", symbolStrokeWidth=0, **legend,
                    symbolFillColor=SWATCH,
                ),
            ),
            strokeWidth=alt.StrokeWidth(
                "locked:N",
                scale=alt.Scale(domain=["locked", "unlocked"], range=[LOCKED_OUTLINE_PX, OUTLINE_PX]),
                # a bar's outline: thick = locked, thin = unlocked
                legend=alt.Legend(
                    title="lock to default", symbolType="square", **legend,
                    symbolFillColor="#D9D9D9", symbolStrokeColor=SWATCH,
                ),
            ),
            tooltip=[
                alt.Tooltip("gate:N"),
                alt.Tooltip("stage:N"),
                alt.Tooltip("default:N"),
                alt.Tooltip("locked:N"),
                alt.Tooltip("since:N", title="from"),
                alt.Tooltip("until:N", title="until (exclusive)"),
            ],
        )
        .add_params(legend_pick, gate_pick)
    )
    layers: list[alt.Chart] = [bars]
    if len(predates):
        layers.append(
            alt.Chart(predates)
            .mark_bar(height={"band": 0.45}, stroke=SWATCH, strokeDash=[4, 2], strokeWidth=1, fillOpacity=0.5)
            .encode(
                x=alt.X("start:Q", scale=x_scale, axis=None),
                x2="end:Q",
                y=y,
                color=alt.Color(
                    "mark:N",
                    scale=alt.Scale(domain=[PREDATES], range=[PREDATES_FILL]),
                    # on a phone three legends fill the top row: this one goes under the rows
                    legend=alt.Legend(
                        title="placeholder spec", symbolType="square", symbolStrokeColor=SWATCH,
                        **{**legend, "orient": "bottom" if compact else "top"},
                    ),
                ),
                tooltip=[
                    alt.Tooltip("gate:N"),
                    alt.Tooltip("mark:N", title="releases"),
                    alt.Tooltip("until:N", title="until (exclusive)"),
                    alt.Tooltip("why:N", title="why"),
                    alt.Tooltip("emulating:N", title="emulating these releases"),
                ],
            )
        )
    rules = rule_frame(binary, emulated)
    layers.append(
        alt.Chart(rules)
        .mark_rule(strokeWidth=2)
        .encode(
            x=alt.X(
                "x:Q",
                scale=x_scale,
                axis=alt.Axis(
                    title=None, labelExpr=_VERSION_LABEL, tickMinStep=1, format="d", orient="bottom", grid=False,
                    labelFontSize=LABEL_SIZE,
                ) if bottom_axis else None,
            ),
            color=alt.Color(
                "marker:N",
                scale=alt.Scale(domain=list(RULE_COLORS), range=list(RULE_COLORS.values())),
                # on a phone the page's caption names the two lines: no room for a fourth legend
                legend=None if compact else alt.Legend(title="marker", symbolType="stroke", symbolStrokeWidth=2, **legend),
            ),
            strokeDash=alt.StrokeDash(
                "marker:N",
                scale=alt.Scale(domain=list(RULE_COLORS), range=[[1, 0], [6, 3]]),
                legend=None,
            ),
            tooltip=[alt.Tooltip("marker:N"), alt.Tooltip("version:N")],
        )
    )
    chart: alt.LayerChart = (
        alt.layer(*layers)
        .resolve_scale(color="independent")
        .resolve_axis(x="independent")
        .properties(
            width="container",
            height=alt.Step(ROW_HEIGHT),
            usermeta={"title": f"Stage history of the {_label(binary)} binary's gates", "embedOptions": {"renderer": "svg"}},
        )
    )
    return chart


def timeline_block_specs(spec: dict[str, Any], blocks: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """The Vega-Lite spec of a :func:`timeline_chart` of every row (its ``to_dict()``) cut into one
    spec per block of rows (:func:`timeline_blocks`): each block has only its rows' data and its
    own row order, legends that list only the stages and marks of its rows, the release axis at its
    top, and at its bottom too on the last block only. Cheaper than a chart per block (Altair
    builds and validates a chart in about 0.2 s; this takes milliseconds)."""
    datasets = spec.get("datasets", {})
    out = []
    for i, rows in enumerate(blocks):
        keep = set(rows)
        block = copy.deepcopy({k: v for k, v in spec.items() if k not in ("layer", "datasets")})
        block["datasets"] = {}
        layers = []
        for n, layer in enumerate(spec["layer"]):
            name = layer["data"]["name"]
            values = datasets.get(name, [])
            encoding = dict(layer["encoding"])
            if "y" in encoding:  # the bars and the "predates" band: only the block's rows
                values = [r for r in values if r["gate"] in keep]
                if n > 0 and not values:
                    continue  # no band in this block: no band legend either
                encoding["y"] = {**encoding["y"], "sort": list(rows), "scale": {**encoding["y"].get("scale", {}), "domain": list(rows)}}
                if n == 0:
                    scale = _stage_scale(r["stage"] for r in values).to_dict()
                    encoding["color"] = {**encoding["color"], "scale": scale}
            elif i < len(blocks) - 1:  # the markers' layer carries the bottom axis: the last block's
                encoding["x"] = {**encoding["x"], "axis": None}
            block["datasets"][name] = values
            layers.append(copy.deepcopy({**layer, "encoding": encoding}))
        block["layer"] = layers
        out.append(block)
    return out


def _legend_style(compact: bool) -> dict[str, Any]:
    if not compact:
        return {"orient": "top", "symbolSize": 150, "labelFontSize": LABEL_SIZE, "titleFontSize": LABEL_SIZE}
    return {"orient": "top", "direction": "vertical", "symbolSize": 80, "labelFontSize": 9, "titleFontSize": 9, "labelLimit": 80}


def rule_frame(binary: Version, emulated: Version) -> pd.DataFrame:
    """The two vertical markers: at the binary's release and at the emulated version."""
    return pd.DataFrame(
        [
            {"marker": "binary", "version": _label(binary), "x": _x(binary)},
            {"marker": "emulated", "version": _label(emulated), "x": _x(emulated)},
        ]
    )


def transition_frame(transitions: Sequence[ReleaseTransitions]) -> pd.DataFrame:
    rows = []
    for t in transitions:
        for kind, count in t.counts(STAGE_TRANSITION_KINDS).items():
            rows.append({"release": t.release, "minor": int(t.release.split(".")[1]), "kind": kind, "gates": count})
    return pd.DataFrame(rows, columns=["release", "minor", "kind", "gates"])


def transitions_chart(transitions: Sequence[ReleaseTransitions]) -> alt.Chart:
    """Per release: how many gates arrived (as alpha, or new at a later stage), moved to beta/GA, got
    deprecated, were removed."""
    data = transition_frame(transitions)
    releases = sorted(set(data["release"]), key=lambda r: tuple(int(p) for p in r.split(".")))
    # the legend lists the kinds of change that have a bar (a kind no release has is not drawn)
    kinds = [k for k in STAGE_TRANSITION_KINDS if data.loc[data["kind"] == k, "gates"].sum() > 0]
    data = data[data["kind"].isin(kinds)]
    chart: alt.Chart = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X("release:O", sort=releases, title="release", axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("kind:N", sort=kinds),
            y=alt.Y("gates:Q", title="gates"),
            color=alt.Color(
                "kind:N",
                sort=kinds,
                scale=alt.Scale(domain=kinds, range=[TRANSITION_COLORS[k] for k in kinds]),
                legend=alt.Legend(title="change", orient="top", columns=3),  # wraps on a phone
            ),
            tooltip=[alt.Tooltip("release:N"), alt.Tooltip("kind:N", title="change"), alt.Tooltip("gates:Q")],
        )
        .properties(width="container", height=280, usermeta={"title": "Feature-gate changes per release"})
    )
    return chart


def stage_counts_chart(counts: pd.DataFrame) -> alt.Chart:
    """Stacked bars: how many gates each release lists per stage (``release``, ``stage``, ``gates``)."""
    releases = sorted(set(counts["release"]), key=lambda r: tuple(int(p) for p in r.split(".")))
    chart: alt.Chart = (
        alt.Chart(counts)
        .mark_bar()
        .encode(
            x=alt.X("release:O", sort=releases, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("gates:Q", stack=True),
            color=alt.Color(
                "stage:N",
                # the legend lists the stages that have a bar (not PreAlpha when no release lists a gate so)
                scale=_stage_scale(counts.loc[counts["gates"] > 0, "stage"]),
                legend=alt.Legend(title="stage", orient="top", columns=3),  # wraps on a phone
            ),
            order=alt.Order("stage_rank:Q"),
            tooltip=[alt.Tooltip("release:N"), alt.Tooltip("stage:N"), alt.Tooltip("gates:Q")],
        )
        .properties(width="container", height=280, usermeta={"title": "Feature gates per stage in each release"})
    )
    return chart
