"""Timeline: every gate of the binary's manifest, its stages across releases.

The filters, the order and the start release are kept in the URL (``timeline_stages``,
``timeline_text``, ``timeline_sort``, ``timeline_from``; see state/view_state.py)."""

from typing import Any

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.charts.export import chart_downloads, selection_caption, vega_lite_spec
from dashboard.charts.specs import (
    GATE_PICK,
    LABEL_CSS,
    ROWS_PER_BLOCK,
    default_x_start,
    timeline_block_specs,
    timeline_blocks,
    timeline_chart,
)
from dashboard.frame.chrome import is_phone
from dashboard.frame.pages import open_gate
from dashboard.frame.selection_bar import current
from dashboard.state.view_state import ViewState
from dashboard.tables.table_text import table_as_text
from dashboard.text import md, plain
from kcompat.answers.timeline import SORTS, STAGE_NAMES, TimelineQuery
from kcompat.core.components import KUBE_APISERVER
from kcompat.core.versions import parse_version
from kcompat.documents.commands import same_as
from kcompat.documents.timeline import match_counts, row_columns, timeline_rows

sel = current()
binary, emulated = parse_version(sel.binary), parse_version(sel.emulated)
state = ViewState("timeline")

title = f"Stage history of the {sel.binary_version} binary's gates"
st.subheader(title, anchor=False)
st.caption(
    f"From the {sel.binary} manifest: one row per gate, one bar per stretch with the same stage, default and lock. "
    f"Solid = default on, faded = default off, thick outline = locked. A thin grey dashed band: releases that predate "
    f"the gate (the data dates its first spec to 0.0 or 1.0, a placeholder for behaviour older than the gate; no stage "
    f"is drawn for them, the tooltip says what emulating them gives). Lines mark the binary ({sel.binary}) "
    f"and the emulated version ({sel.emulated}). Every {ROWS_PER_BLOCK} rows repeat the axis and the legends. "
    "Click a stage in a legend to highlight it in that block; click a bar to open the gate."
)

c_stage, c_text, c_sort, c_from = st.columns([3, 2.5, 2, 2.5], vertical_alignment="bottom")
stages = state.multiselect(
    "stages",
    f"Stage at {sel.emulated}",
    STAGE_NAMES,
    target=c_stage,
    format_func=plain,
    placeholder="all stages",
    help="Show only gates at these stages at the emulated version (\"not yet introduced\" = PreAlpha in the "
    "Kubernetes code: introduced in a later release).",
)
text = state.text_input(
    "text", "Search", target=c_text, placeholder="name, DRA, KEP 4381, words…", help="Finds a gate by part of its name, an abbreviation (DRA = DynamicResourceAllocation and the DRA… gates), a KEP number (4381, KEP-4381) or words of its description. Case-insensitive."
)
sort = state.selectbox(
    "sort", "Order", SORTS, target=c_sort, help="Row order: by first version, by name, or by stage at the emulated version."
)

answer = data.timeline(sel.request.with_(feature_gates=None, component=KUBE_APISERVER),  # (what the timeline reads: one cache entry)
                       TimelineQuery(tuple(stages), text or "", sort))
oldest = parse_version(answer.oldest)
shown, real_starts = answer.segments, answer.starts
starts = list(range(max(binary.minor - 20, 0), binary.minor))
x_start = state.select_slider(
    "from",
    "From release",
    starts,
    # the axis fits the rows shown, from the oldest bundled release at the earliest
    default=default_x_start(shown, binary, floor=oldest.minor, starts=real_starts),
    target=c_from,
    format_func=lambda m: f"1.{m}",
    help=f"Left end of the axis (by default the oldest bundled release, {oldest}, or where the rows shown begin if "
    "later); earlier history is drawn from this edge (the tooltip keeps the real start).",
)
state.show_problems()
order = [r.gate for r in answer.rows]
st.caption(f"{len(order)} of {answer.total} gates" + (f" ({match_counts(answer)})" if answer.search else ""))
# which recorded patch release changed a gate shown (at its release), up to the binary's release
shown_gates = set(order)
patch_notes = [
    f"{patch} {kind} {gate}" for release, patch, kind, gate in data.patch_change_texts()
    if gate in shown_gates and parse_version(release) <= binary
]
if patch_notes:
    st.caption(
        f"Patch releases that changed a gate shown (at their release; the bars are {sel.binary_version}'s manifest): "
        + md("; ".join(patch_notes)) + "."
    )
if shown:
    generation = st.session_state.setdefault("_timeline_generation", 0)
    st.html(LABEL_CSS)
    # Every row in one chart (the export), cut into blocks of rows for the page: one chart per
    # block, each with its axis and legends, so the page grows with the rows (no scroll box) and an
    # axis and a legend are on screen wherever it is scrolled.
    spec = vega_lite_spec(timeline_chart(shown, binary, emulated, x_start=x_start, order=order, compact=is_phone(), starts=real_starts))
    picked: list[Any] = []
    with st.container(key="timeline_rows", gap="small"):
        for i, block in enumerate(timeline_block_specs(spec, timeline_blocks(order))):
            event: Any = st.vega_lite_chart(
                spec=block,
                width="stretch",
                key=f"timeline_chart_{generation}_{i}",
                on_select="rerun",
                selection_mode=[GATE_PICK],
            )
            picked = picked or ((event or {}).get("selection") or {}).get(GATE_PICK) or []
    filters = [f"stage {', '.join(map(plain, stages))}" if stages else "", f"search {answer.search!r}" if answer.search else ""]
    chart_downloads(
        spec,
        f"timeline-{binary}-emulating-{emulated}",
        "timeline_export",
        title=title,
        caption=selection_caption(sel, f"{len(order)} of {answer.total} gates" + "".join(f"; {f}" for f in filters if f)),
        releases=(sel.binary,),
    )
    table_as_text(
        lambda: pd.DataFrame(timeline_rows(answer), columns=list(row_columns(answer))),
        "table_text_timeline",
        f"{title}: {len(order)} rows",
        labels={"stage": f"stage at {sel.emulated}", "history": "stages, release by release"},
    )
    if picked and picked[0].get("gate"):
        st.session_state["_timeline_generation"] = generation + 1
        open_gate(str(picked[0]["gate"]))
else:
    st.info("No gate matches the filters.")

st.caption("Same as the command line (the rows of the table as text):")
st.code(
    same_as("timeline", binary=sel.binary_version, emulated=sel.emulated, min_compat=sel.min_compat, stage=list(stages),
            search=answer.search, sort=sort if sort != SORTS[0] else None, format="csv"),
    language=None,  # no syntax colours: they fail contrast
)
