"""Timeline: every gate of the binary's manifest, its stages across releases."""

import streamlit as st

from dashboard.components.chart_export import chart_downloads

from dashboard.components import data
from dashboard.components.charts import GATE_PICK, SORTS, default_x_start, timeline_chart, timeline_order
from dashboard.components.pages import open_gate
from dashboard.components.selection import current
from dashboard.components.stage_colors import STAGE_NAMES
from dashboard.core.versions import parse_version

sel = current()
binary, emulated = parse_version(sel.binary), parse_version(sel.emulated)
segments = data.timeline(sel.binary)
view = data.gates_view(sel)
stage_at = view.stage_at()

st.subheader(f"Stage history of the {sel.binary} binary's gates", anchor=False)
st.caption(
    f"From the {sel.binary} manifest: one row per gate, one bar per stretch with the same stage, default and lock. "
    f"Solid = default on, faded = default off, thick outline = locked. Lines mark the binary ({sel.binary}) "
    f"and the emulated version ({sel.emulated}). Click a stage in the legend to highlight it; click a bar to open the gate."
)

c_stage, c_text, c_sort, c_from = st.columns([3, 2.5, 2, 2.5], vertical_alignment="bottom")
stages = c_stage.multiselect(
    f"Stage at {sel.emulated}",
    STAGE_NAMES,
    key="timeline_stages",
    placeholder="all stages",
    help="Show only gates at these stages at the emulated version (PreAlpha = introduced later).",
)
text = c_text.text_input(
    "Search", key="timeline_text", placeholder="gate name contains…", help="Case-insensitive substring of the gate name."
)
sort = c_sort.selectbox(
    "Order", SORTS, key="timeline_sort", help="Row order: by first version, by name, or by stage at the emulated version."
)
first_choice = default_x_start(segments, binary)
starts = list(range(max(binary.minor - 20, 0), binary.minor))
if "timeline_from" not in st.session_state or st.session_state["timeline_from"] not in starts:
    st.session_state["timeline_from"] = first_choice
x_start = c_from.select_slider(
    "From release",
    starts,
    key="timeline_from",
    format_func=lambda m: f"1.{m}",
    help="Left end of the axis; earlier history is drawn from this edge (the tooltip keeps the real start).",
)

needle = (text or "").strip().lower()
keep = {
    name
    for name, stage in stage_at.items()
    if (not stages or stage in stages) and (not needle or needle in name.lower())
}
shown = tuple(s for s in segments if s.gate in keep)
order = timeline_order(shown, sort, stage_at)
st.caption(f"{len(order)} of {len(stage_at)} gates")

if shown:
    generation = st.session_state.setdefault("_timeline_generation", 0)
    with st.container(height=720, border=False):
        chart = timeline_chart(shown, binary, emulated, x_start=x_start, order=order)
        event = st.altair_chart(
            chart,
            key=f"timeline_chart_{generation}",
            on_select="rerun",
            selection_mode=[GATE_PICK],
        )
    chart_downloads(chart, f"timeline-{binary}-emulating-{emulated}", "timeline_export")
    picked = ((event or {}).get("selection") or {}).get(GATE_PICK) or []
    if picked and picked[0].get("gate"):
        st.session_state["_timeline_generation"] = generation + 1
        open_gate(str(picked[0]["gate"]))
else:
    st.info("No gate matches the filters.")
