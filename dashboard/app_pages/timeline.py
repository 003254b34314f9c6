"""Timeline: every gate of the binary's manifest, its stages across releases.

The filters, the order and the start release are kept in the URL (``timeline_stages``,
``timeline_text``, ``timeline_sort``, ``timeline_from``; see components/view_state.py)."""

import pandas as pd
import streamlit as st

from dashboard.components import data
from dashboard.components.chart_export import chart_downloads, selection_caption, vega_lite_spec
from dashboard.components.charts import (
    GATE_PICK,
    LABEL_CSS,
    ROWS_PER_BLOCK,
    SORTS,
    default_x_start,
    gate_starts,
    listed_since,
    timeline_block_specs,
    timeline_blocks,
    timeline_chart,
    timeline_order,
)
from dashboard.components.gate_table import is_phone, plain
from dashboard.components.pages import open_gate
from dashboard.components.selection import current
from dashboard.components.stage_colors import STAGE_NAMES
from dashboard.components.table_text import table_as_text
from dashboard.components.text import md
from dashboard.components.view_state import ViewState
from kcompat.core.search import search_gates
from kcompat.core.versions import parse_version, subtract_minor

def history_rows(segments, order: list[str], stage_at: dict[str, str]) -> list[dict]:
    """The rows the chart draws, as text: per gate (in the chart's order) its stage at the emulated
    version and its stretches ("Beta, default on, 1.28–1.30"; "locked" when locked to its default)."""
    stretches: dict[str, list[str]] = {name: [] for name in order}
    for s in segments:
        if s.gate in stretches:
            last = subtract_minor(s.end, 1)
            span = f"{s.start}" if last <= s.start else f"{s.start}–{last}"
            lock = ", locked" if s.locked else ""
            stretches[s.gate].append(f"{s.stage.value}, default {'on' if s.default else 'off'}{lock}, {span}")
    return [{"gate": name, "stage": plain(stage_at.get(name, "")), "history": "; ".join(stretches[name])} for name in order]


sel = current()
binary, emulated = parse_version(sel.binary), parse_version(sel.emulated)
segments = data.timeline(sel.binary_version)
releases = data.catalog().usable_releases()
oldest = parse_version(releases[0])
# Releases before a gate's first real spec (its first spec dated to a placeholder 0.0/1.0) predate it.
real_starts = gate_starts(data.catalog().manifest(sel.binary).features, binary, listed_since(data.matrix()), oldest)
view = data.gates_view(sel)
stage_at = view.stage_at()
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

needle = (text or "").strip().lower()
found = set(search_gates(text, stage_at, data.gate_texts())) if needle else set(stage_at)
keep = {name for name, stage in stage_at.items() if (not stages or stage in stages) and name in found}
shown = tuple(s for s in segments if s.gate in keep)
starts = list(range(max(binary.minor - 20, 0), binary.minor))
x_start = state.select_slider(
    "from",
    "From release",
    starts,
    # the axis fits the rows shown, from the oldest bundled release at the earliest
    default=default_x_start(shown or segments, binary, floor=oldest.minor, starts=real_starts),
    target=c_from,
    format_func=lambda m: f"1.{m}",
    help=f"Left end of the axis (by default the oldest bundled release, {oldest}, or where the rows shown begin if "
    "later); earlier history is drawn from this edge (the tooltip keeps the real start).",
)
state.show_problems()
order = timeline_order(shown, sort, stage_at)
st.caption(f"{len(order)} of {len(stage_at)} gates")
# which recorded patch release changed a gate shown (at its release), up to the binary's release
patch_notes = [
    f"{patch} {kind} {gate}" for release, patch, kind, gate in data.patch_change_texts()
    if gate in keep and parse_version(release) <= binary
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
    picked: list = []
    with st.container(key="timeline_rows", gap="small"):
        for i, block in enumerate(timeline_block_specs(spec, timeline_blocks(order))):
            event = st.vega_lite_chart(
                spec=block,
                width="stretch",
                key=f"timeline_chart_{generation}_{i}",
                on_select="rerun",
                selection_mode=[GATE_PICK],
            )
            picked = picked or ((event or {}).get("selection") or {}).get(GATE_PICK) or []
    filters = [f"stage {', '.join(map(plain, stages))}" if stages else "", f"search {text.strip()!r}" if needle else ""]
    chart_downloads(
        spec,
        f"timeline-{binary}-emulating-{emulated}",
        "timeline_export",
        title=title,
        caption=selection_caption(sel, f"{len(order)} of {len(stage_at)} gates" + "".join(f"; {f}" for f in filters if f)),
        releases=(sel.binary,),
    )
    table_as_text(
        lambda: pd.DataFrame(history_rows(shown, order, stage_at), columns=["gate", "stage", "history"]),
        "table_text_timeline",
        f"{title}: {len(order)} rows",
        labels={"stage": f"stage at {sel.emulated}", "history": "stages, release by release"},
    )
    if picked and picked[0].get("gate"):
        st.session_state["_timeline_generation"] = generation + 1
        open_gate(str(picked[0]["gate"]))
else:
    st.info("No gate matches the filters.")
