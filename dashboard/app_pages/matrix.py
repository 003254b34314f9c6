"""Release matrix: gates x bundled releases, and what each release changed (for the release team)."""

import pandas as pd
import streamlit as st

from dashboard.components.chart_export import chart_downloads

from dashboard.components import data
from dashboard.components.charts import stage_counts_chart, transitions_chart
from dashboard.components.downloads import table_csv
from dashboard.components.pages import open_gate
from dashboard.components.stage_colors import STAGE_COLORS, STAGE_NAMES, STAGE_TEXT
from dashboard.components.text import md
from kcompat.core.search import search_gates
from dashboard.components.view_state import ViewState
from kcompat.core.history import TRANSITION_KINDS
from kcompat.core.stages import Stage
from kcompat.documents.matrix import TRANSITION_KEYS, TRANSITION_LABELS, matrix_rows

summary = data.summary()
document = data.matrix_document()
frame = data.matrix_frame()
releases = [c for c in frame.columns if c != "gate"]
statuses = {r.release: r for r in summary.releases}
state = ViewState("matrix")

st.subheader("Feature gates across the bundled releases", anchor=False)
st.caption(
    "Each cell: the stage and default that release shipped (its own manifest at its own version); "
    "— = not listed yet; removed (always on|off) = no longer registered: the feature stays in its last spec's state. "
    "Reconstructed releases: "
    + md(", ".join(f"{r} ({statuses[r].status})" for r in releases if not statuses[r].exact))
    + ". Select a row to open the gate."
)

#: "1.35:toGA" -> "graduated to GA in 1.35 (7)", newest release first
transition_options = {
    f"{release}:{key}": f"{TRANSITION_LABELS[key]} {release} ({len(names)})"
    for release, kinds in reversed(document["transitions"].items())
    for key, names in kinds.items()
    if names
}
removed_behaviour = {(g["name"], g["removedIn"]): g["behaviour"] for g in document["removedGates"]}
url_problems = st.container()
transition = state.selectbox(
    "transition",
    "Changed in a release",
    tuple(transition_options),
    optional=True,
    format_func=transition_options.get,
    placeholder="any gate (pick e.g. “graduated to GA in 1.35”)",
    help="Gates that changed from the previous bundled release to this one: new as Alpha, promoted to Beta, graduated "
    "to GA, deprecated or removed (the same lists as `kcompat matrix --format json` \"transitions\").",
)
c_text, c_stage, c_rel, c_changed = st.columns([2.5, 3, 2, 1.5], vertical_alignment="bottom")
text = state.text_input("text", "Search", target=c_text, placeholder="name, DRA, KEP 4381, words…", help="Finds a gate by part of its name, an abbreviation (DRA = DynamicResourceAllocation and the DRA… gates), a KEP number (4381, KEP-4381) or words of its description. Case-insensitive.")
stages = state.multiselect(
    "stages",
    "Stage",
    STAGE_NAMES[1:],
    target=c_stage,
    placeholder="any stage",
    help="Show gates at one of these stages in the release chosen next to it (every gate at that stage, not only the "
    "ones that reached it in that release: see “Changed in a release” for those).",
)
in_release = state.selectbox("release", "in release", releases[::-1], target=c_rel, help="The release the stage filter looks at.")
changed_only = state.toggle("changed", "Changed only", target=c_changed, help="Only gates whose cell differs between at least two releases.")

mask = pd.Series(True, index=frame.index)
needle = (text or "").strip().lower()
if needle:
    mask &= frame["gate"].isin(search_gates(text, frame["gate"].tolist(), data.gate_texts()))
if stages:
    mask &= data.matrix_stages()[in_release].isin(stages)
if changed_only:
    mask &= frame[releases].nunique(axis=1) > 1
transition_names: list[str] = []
if transition:
    t_release, t_key = transition.split(":")
    transition_names = document["transitions"][t_release][t_key]
    mask &= frame["gate"].isin(transition_names)
shown = frame[mask]
with url_problems:
    state.show_problems()
with st.container(horizontal=True, vertical_alignment="center"):
    st.caption(f"{len(shown)} of {len(frame)} gates")
    shown_names = set(shown["gate"])
    table_csv(
        [r for r in matrix_rows(document) if r["gate"] in shown_names],
        ["gate", "origin", *document["releases"]],
        file_name="release-matrix.csv",
        key="matrix_csv",
        help="The gates shown, with the columns of `kcompat matrix --format csv` (no filter: exactly what it prints).",
        as_is=True,
    )

if transition:
    name_generation = st.session_state.setdefault("_matrix_names_generation", 0)

    def _name_label(name: str) -> str:
        behaviour = removed_behaviour.get((name, t_release)) if t_key == "removed" else None
        return f"{name} ({behaviour})" if behaviour else name

    picked_name = st.pills(
        f"{transition_options[transition]}: open a gate",
        transition_names,
        selection_mode="single",
        key=f"matrix_names_{name_generation}",
        format_func=_name_label,
        help="A removed gate keeps the state of its last spec in every later binary: always on or always off.",
    )
    if picked_name:
        st.session_state["_matrix_names_generation"] = name_generation + 1
        open_gate(picked_name)


def _cell_style(value: str) -> str:
    word = value.split(" ", 1)[0] if isinstance(value, str) else ""
    try:
        stage = Stage(word)
    except ValueError:
        return ""
    faded = "" if "(on" in value or stage is Stage.PRE_ALPHA else "opacity: 0.75;"
    return f"background-color: {STAGE_COLORS[stage]}; color: {STAGE_TEXT[stage]}; {faded}"


generation = st.session_state.setdefault("_matrix_generation", 0)
event = st.dataframe(
    shown.style.map(_cell_style, subset=releases),
    key=f"matrix_table_{generation}",
    hide_index=True,
    on_select="rerun",
    selection_mode="single-row",
    height=520,
    column_config={
        "gate": st.column_config.TextColumn("gate", pinned=True),
        **{
            r: st.column_config.TextColumn(
                f"{r}{'' if statuses[r].exact else ' *'}", help=md(f"{r}: {statuses[r].status_text}")
            )
            for r in releases
        },
    },
)
rows = event.selection.rows if event is not None else []
if rows and 0 <= rows[0] < len(shown):
    st.session_state["_matrix_generation"] = generation + 1
    open_gate(str(shown.iloc[rows[0]]["gate"]))

st.markdown("**What each release changed** (compared with the previous bundled release)")
transitions = data.transitions()
left, right = st.columns([3, 2])
with left:
    changes_chart = transitions_chart(transitions)
    st.altair_chart(changes_chart, key="matrix_transitions_chart")
    chart_downloads(changes_chart, "release-changes", "matrix_transitions_export")
with right:
    inverse = {v: k for k, v in TRANSITION_KEYS.items()}
    counts = pd.DataFrame(
        [
            {"release": release, "since": t.previous, **{inverse[k]: len(names) for k, names in kinds.items()}}
            for (release, kinds), t in zip(document["transitions"].items(), transitions)
        ],
        columns=["release", "since", *TRANSITION_KINDS],
    )
    st.dataframe(counts, hide_index=True, key="matrix_counts")
    table_csv(counts.to_dict("records"), counts.columns, file_name="release-changes.csv", key="matrix_counts_csv")
    st.caption(f"{releases[0]} is the oldest bundled release: no baseline to compare with.")

st.markdown("**Gates per stage in each release**")
counts_chart = stage_counts_chart(data.stage_counts())
st.altair_chart(counts_chart, key="matrix_stage_counts")
chart_downloads(counts_chart, "gates-per-stage", "matrix_stage_counts_export")
