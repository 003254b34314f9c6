"""Altair chart specs as pure functions: data in, ``alt.Chart`` out (test them with ``.to_dict()``).

Versions are drawn on a quantitative axis of minor numbers (Kubernetes 1.x), labelled ``1.x``,
so 1.9 sorts before 1.10. Stage colours come from :mod:`dashboard.components.stage_colors`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import altair as alt
import pandas as pd

from kcompat.core.history import ReleaseTransitions, Segment, TRANSITION_KINDS, is_placeholder
from kcompat.core.versions import Version

from .stage_colors import STAGE_NAMES, STAGE_RANGE, TRANSITION_COLORS

ROW_HEIGHT = 18
GATE_PICK = "gate_pick"
STAGE_LEGEND = "stage_legend"
SORTS = ("introduced", "name", "stage at emulated")
RULE_COLORS = {"binary": "#7F7F7F", "emulated": "#D55E00"}
_VERSION_LABEL = "'1.' + datum.value"
#: Hint appended to a legend title on the page; :mod:`kcompat.documents.exports` drops it from exports.
CLICK_HINT = " (click to highlight)"
#: Gate-name labels take at most 40 % of the chart's width (a phone keeps room for the bars) and
#: never cut a name on a wide screen; a narrow screen gets a smaller font. Exports fix both.
GATE_LABEL_LIMIT = alt.ExprRef("clamp(containerSize()[0] * 0.4, 90, 480)")
GATE_LABEL_SIZE = alt.ExprRef("containerSize()[0] < 600 ? 9 : 11")
#: The neutral fill of the default/lock legend swatches: the bars' own outline grey.
SWATCH = "#7F7F7F"


def _x(version: Version) -> int:
    """The axis position of a release (its minor; every bundled release is 1.x)."""
    return version.minor


def _label(version: Version) -> str:
    return f"{version.major}.{version.minor}"


def segment_frame(segments: Iterable[Segment], x_start: int, x_end: int) -> pd.DataFrame:
    """One row per segment, clipped to [x_start, x_end]; ``since``/``until`` keep the real versions."""
    rows = []
    for s in segments:
        start, end = _x(s.start), _x(s.end)
        if end <= x_start or start >= x_end:
            continue
        rows.append(
            {
                "gate": s.gate,
                "stage": s.stage.value,
                "default": "on" if s.default else "off",
                "locked": "locked" if s.locked else "unlocked",
                "start": max(start, x_start),
                "end": min(end, x_end),
                "since": _label(s.start) + (" (placeholder: older than the gate)" if is_placeholder(s.start) else ""),
                "until": _label(s.end),
            }
        )
    columns = ["gate", "stage", "default", "locked", "start", "end", "since", "until"]
    return pd.DataFrame(rows, columns=columns)


def default_x_start(segments: Iterable[Segment], binary: Version, max_span: int = 12) -> int:
    """Where the timeline axis starts: the earliest segment, but at most ``max_span`` releases
    before the binary (1.0-era specs would squash everything else) and at least one before it."""
    starts = [_x(s.start) for s in segments]
    first = min(starts) if starts else _x(binary)
    return max(min(first, _x(binary) - 1), _x(binary) - max_span)


def timeline_order(segments: Sequence[Segment], sort: str = "introduced", stage_at: dict[str, str] | None = None) -> list[str]:
    """Gate order of the timeline rows: by first version (then name), by name, or by the stage
    at the emulated version (``stage_at``: gate -> stage name) in stage order (then name)."""
    first: dict[str, tuple[int, int]] = {}
    for s in segments:
        key = (s.start.major, s.start.minor)
        if s.gate not in first or key < first[s.gate]:
            first[s.gate] = key
    names = sorted(first)
    if sort == "name":
        return names
    if sort == "stage at emulated" and stage_at is not None:
        rank = {name: i for i, name in enumerate(STAGE_NAMES)}
        return sorted(names, key=lambda n: (rank.get(stage_at.get(n, ""), len(rank)), n))
    return sorted(names, key=lambda n: (first[n], n))


def timeline_chart(
    segments: Sequence[Segment],
    binary: Version,
    emulated: Version,
    *,
    x_start: int,
    order: Sequence[str] | None = None,
    compact: bool = False,
) -> alt.LayerChart:
    """One row per gate, one bar per stretch of stage/default/lock across releases.

    Colour = stage; opacity = default on (solid) / off (faded); a thick outline = locked to its
    default. Vertical rules mark the binary and the emulated version. Clicking a stage in the
    legend highlights it; clicking a bar selects the gate (selection ``gate_pick``). ``compact``
    (a phone): each legend lists its items top to bottom, in a smaller font, and the markers'
    legend is left to the page's caption, so the legends fit in 390 px."""
    legend = _legend_style(compact)
    x_end = _x(binary) + 1
    data = segment_frame(segments, x_start, x_end)
    if order is None:
        order = timeline_order(segments)
    order = [g for g in order if g in set(data["gate"])]
    x_scale = alt.Scale(domain=[x_start, x_end], nice=False, zero=False)
    x_axis = alt.Axis(title="release", labelExpr=_VERSION_LABEL, tickMinStep=1, format="d", orient="top", grid=True)

    legend_pick = alt.selection_point(name=STAGE_LEGEND, fields=["stage"], bind="legend")
    gate_pick = alt.selection_point(name=GATE_PICK, fields=["gate"], on="click", clear="dblclick")

    bars = (
        alt.Chart(data)
        .mark_bar(height={"band": 0.8}, stroke="#7F7F7F", cornerRadius=2)
        .encode(
            x=alt.X("start:Q", scale=x_scale, axis=x_axis),
            x2="end:Q",
            y=alt.Y(
                "gate:N",
                sort=list(order),
                title=None,
                axis=alt.Axis(labelLimit=GATE_LABEL_LIMIT, labelFontSize=GATE_LABEL_SIZE, labelOverlap=False),
            ),
            color=alt.Color(
                "stage:N",
                scale=alt.Scale(domain=list(STAGE_NAMES), range=list(STAGE_RANGE)),
                legend=alt.Legend(
                    title="stage" + ("" if compact else CLICK_HINT), symbolType="square", symbolStrokeWidth=0, **legend
                ),
            ),
            # the legend pick fades the other stages (opacity itself says default on/off)
            fillOpacity=alt.condition(legend_pick, alt.value(1.0), alt.value(0.15)),
            opacity=alt.Opacity(
                "default:N",
                scale=alt.Scale(domain=["on", "off"], range=[1.0, 0.35]),
                # a bar's fill at that opacity: solid = default on, faded = default off
                legend=alt.Legend(
                    title="default", symbolType="square", symbolStrokeWidth=0, **legend,
                    symbolFillColor=SWATCH,
                ),
            ),
            strokeWidth=alt.StrokeWidth(
                "locked:N",
                scale=alt.Scale(domain=["locked", "unlocked"], range=[2.5, 0]),
                # a bar's outline: thick = locked, none = unlocked
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
    rules = rule_frame(binary, emulated)
    rule_layer = (
        alt.Chart(rules)
        .mark_rule(strokeWidth=2)
        .encode(
            x=alt.X("x:Q", scale=x_scale),
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
    return (
        alt.layer(bars, rule_layer)
        .resolve_scale(color="independent")
        .properties(
            width="container",
            height=alt.Step(ROW_HEIGHT),
            usermeta={"title": f"Stage history of the {_label(binary)} binary's gates"},
        )
    )


def _legend_style(compact: bool) -> dict:
    if not compact:
        return {"orient": "top", "symbolSize": 150}
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
        for kind, count in t.counts().items():
            rows.append({"release": t.release, "minor": int(t.release.split(".")[1]), "kind": kind, "gates": count})
    return pd.DataFrame(rows, columns=["release", "minor", "kind", "gates"])


def transitions_chart(transitions: Sequence[ReleaseTransitions]) -> alt.Chart:
    """Per release: how many gates arrived as alpha, moved to beta/GA, got deprecated, were removed."""
    data = transition_frame(transitions)
    releases = sorted(set(data["release"]), key=lambda r: tuple(int(p) for p in r.split(".")))
    kinds = list(TRANSITION_KINDS)
    return (
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
                legend=alt.Legend(title="change", orient="top"),
            ),
            tooltip=[alt.Tooltip("release:N"), alt.Tooltip("kind:N", title="change"), alt.Tooltip("gates:Q")],
        )
        .properties(width="container", height=280, usermeta={"title": "Feature-gate changes per release"})
    )


def stage_counts_chart(counts: pd.DataFrame) -> alt.Chart:
    """Stacked bars: how many gates each release lists per stage (``release``, ``stage``, ``gates``)."""
    releases = sorted(set(counts["release"]), key=lambda r: tuple(int(p) for p in r.split(".")))
    return (
        alt.Chart(counts)
        .mark_bar()
        .encode(
            x=alt.X("release:O", sort=releases, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("gates:Q", stack=True),
            color=alt.Color(
                "stage:N",
                scale=alt.Scale(domain=list(STAGE_NAMES), range=list(STAGE_RANGE)),
                legend=alt.Legend(title="stage", orient="top"),
            ),
            order=alt.Order("stage_rank:Q"),
            tooltip=[alt.Tooltip("release:N"), alt.Tooltip("stage:N"), alt.Tooltip("gates:Q")],
        )
        .properties(width="container", height=280, usermeta={"title": "Feature gates per stage in each release"})
    )
