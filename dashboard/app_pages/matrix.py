"""Release matrix: gates x bundled releases, and what each release changed (for the release team).

The filters build a :class:`~kcompat.core.matrix_filter.MatrixFilter` with
:func:`kcompat.answers.matrix.matrix_filter`, as ``kcompat matrix`` does from its options, and the
table is :func:`kcompat.answers.matrix.filtered`'s answer: the page and the CLI show the same rows.
"""

from typing import Any

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.charts.export import chart_downloads
from dashboard.charts.specs import stage_counts_chart, transitions_chart
from dashboard.charts.stage_colors import STAGE_COLORS, STAGE_TEXT
from dashboard.frame.chrome import is_phone
from dashboard.frame.pages import open_gate
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import table_csv
from dashboard.tables.table_text import config_labels, table_as_text
from dashboard.tables.text_width import column_px
from dashboard.text import md
from kcompat.answers.matrix import filtered, matrix_filter
from kcompat.answers.queries import gate_lineage
from kcompat.core.errors import KcompatError
from kcompat.core.matrix import ALL_TRANSITION_KINDS
from kcompat.core.matrix_filter import FILTER_STAGES, ORIGINS, MatrixFilter
from kcompat.core.stages import Stage
from kcompat.documents.matrix import (
    TRANSITION_KEYS,
    TRANSITION_LABELS,
    matrix_document,
    matrix_rows,
)

#: The grid's row and header heights (px) and the tallest it gets before it scrolls.
ROW_PX, HEADER_PX, MAX_HEIGHT = 35, 35, 520

summary = data.summary()
full = data.matrix()
full_document = data.matrix_document()
releases = list(full.releases)
statuses = {r.release: r for r in summary.releases}
state = ViewState("matrix")
phone = is_phone()

st.subheader("Feature gates across the bundled releases", anchor=False)
st.caption(
    "Each cell: the stage and default that release shipped (its own manifest at its own version); "
    "locked = locked to its default; — = not listed yet; removed (always on|off) = no longer registered: the feature "
    "stays in its last spec's state. Reconstructed releases (* in the header): "
    + md(", ".join(f"{r} ({statuses[r].status})" for r in releases if not statuses[r].exact))
    + ". Select a row to open the gate."
)

#: "1.35:toGA" -> "graduated to GA in 1.35 (8)", newest release first
transition_options = {
    f"{release}:{key}": f"{TRANSITION_LABELS[key]} {release} ({len(names)})"
    for release, kinds in reversed(full_document["transitions"].items())
    for key, names in kinds.items()
    if names
}
removed_behaviour = {(g["name"], g["removedIn"]): g["behaviour"] for g in full_document["removedGates"]}
url_problems = st.container()
c_transition, c_origin, c_since = st.columns([5, 2, 1.5], vertical_alignment="bottom")
transition = state.selectbox(
    "transition",
    "Changed in a release",
    tuple(transition_options),
    optional=True,
    target=c_transition,
    format_func=transition_options.get,
    placeholder="any gate (pick e.g. “graduated to GA in 1.35”)",
    help="Gates that changed from the previous bundled release to this one: new as Alpha, promoted to Beta, graduated "
    "to GA, deprecated, removed, default flipped (on ↔ off) or locked to its default (`kcompat matrix --changed 1.35:toGA`).",
)
origins = state.pills(
    "origin", "Origin", ORIGINS, target=c_origin,
    help="kube: the gates of the Kubernetes binaries; client-go: k8s.io/client-go's, which every binary adds (`--origin`).",
)
since = state.selectbox(
    "since", "From release", releases, target=c_since,
    help="The first release column shown; older columns are hidden (`kcompat matrix --since`).",
)
c_text, c_stage, c_rel, c_changed = st.columns([2.5, 3, 2, 1.5], vertical_alignment="bottom")
text = state.text_input("text", "Search", target=c_text, placeholder="name, DRA, KEP 4381, words…", help="Finds a gate by part of its name, an abbreviation (DRA = DynamicResourceAllocation and the DRA… gates), a KEP number (4381, KEP-4381) or words of its description. Case-insensitive (`--search`).")
stages = state.multiselect(
    "stages",
    "Stage",
    [s.value for s in FILTER_STAGES],
    target=c_stage,
    placeholder="any stage",
    help="Show gates at one of these stages in the release chosen next to it (every gate at that stage, not only the "
    "ones that reached it in that release: see “Changed in a release” for those; `--stage`).",
)
in_release = state.selectbox(
    "release", "in release", releases[::-1], target=c_rel, help="The release the stage filter looks at (`--in-release`)."
)
changed_only = state.toggle(
    "changed", "Changed only", target=c_changed,
    help="Only gates whose state differs between two of the releases shown (`--changed-only`).",
)

try:
    flt = matrix_filter(
        releases,
        changed=[transition] if transition else None,
        stages=stages,
        in_release=in_release if stages else None,
        origins=origins,
        search=text,
        changed_only=changed_only,
        since=since if since != releases[0] else None,
    )
except KcompatError as exc:  # the controls offer valid values only: a guard, not a path
    st.error(md(str(exc)), icon=":material/error:")
    st.stop()


def _label(release: str) -> str:
    return f"{release}{'' if statuses[release].exact else ' *'}"


@st.cache_data(show_spinner=False, max_entries=64)
def _view(flt: MatrixFilter) -> tuple[tuple[str, ...], list[dict[str, Any]], dict[str, int]]:
    """The answer for ``flt``: the releases shown, the rows (``kcompat matrix``'s table rows) and
    the width of each column (its longest cell or header: nothing is cut)."""
    document = matrix_document(*filtered(data.matrix(), gate_lineage(data.catalog()), flt, data.gate_texts()))
    rows = matrix_rows(document)
    headers = {"gate": "gate", "origin": "origin", **{r: _label(r) for r in document["releases"]}}
    widths = {column: column_px([header, *(row[column] for row in rows)]) for column, header in headers.items()}
    return tuple(document["releases"]), rows, widths


shown_releases, rows, widths = _view(flt)
columns = ["gate", "origin", *shown_releases]
shown = pd.DataFrame(rows, columns=columns)
with url_problems:
    state.show_problems()
with st.container(horizontal=True, vertical_alignment="center"):
    st.caption(f"{len(shown)} of {len(full.rows)} gates")
    table_csv(
        rows,
        columns,
        file_name="release-matrix.csv",
        key="matrix_csv",
        help="The gates and releases shown, as `kcompat matrix --format csv` prints them with the same filters.",
        as_is=True,
    )

if transition:
    t_release, t_key = transition.split(":")
    name_generation = st.session_state.setdefault("_matrix_names_generation", 0)

    def _name_label(name: str) -> str:
        behaviour = removed_behaviour.get((name, t_release)) if t_key == "removed" else None
        return f"{name} ({behaviour})" if behaviour else name

    picked_name = st.pills(
        f"{transition_options[transition]}: open a gate",
        list(shown["gate"]),
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


if shown.empty:
    st.info("No gate matches these filters.", icon=":material/filter_alt_off:")
else:
    generation = st.session_state.setdefault("_matrix_generation", 0)
    matrix_config = {
        # every column as wide as its longest cell: nothing is cut (the table scrolls sideways instead)
        "gate": st.column_config.TextColumn("gate", pinned=not phone, width=widths["gate"]),
        "origin": st.column_config.TextColumn("origin", width=widths["origin"]),
        **{
            r: st.column_config.TextColumn(_label(r), help=md(f"{r}: {statuses[r].status_text}"), width=widths[r])
            for r in shown_releases
        },
    }
    matrix_what = "Feature gates across the bundled releases"
    event = st.dataframe(
        shown.style.map(_cell_style, subset=list(shown_releases)),
        key=f"matrix_table_{generation}",
        hide_index=True,
        on_select="rerun",
        selection_mode="single-row",
        height=min(HEADER_PX + ROW_PX * len(shown) + 2, MAX_HEIGHT),
        column_config=matrix_config,
        alt=matrix_what,
    )
    table_as_text(shown, "table_text_matrix", f"{matrix_what}: {len(shown)} rows", labels=config_labels(matrix_config))
    picked = event.selection.rows if event is not None else []
    if picked and 0 <= picked[0] < len(shown):
        st.session_state["_matrix_generation"] = generation + 1
        open_gate(str(shown.iloc[picked[0]]["gate"]))

st.markdown("**What each release changed** (compared with the previous bundled release)")
transitions = data.transitions()
left, right = st.columns([3, 2])
with left:
    changes_chart = transitions_chart(transitions)
    st.altair_chart(changes_chart, key="matrix_transitions_chart")
    chart_downloads(changes_chart, "release-changes", "matrix_transitions_export")
with right:
    counts = pd.DataFrame(
        [{"release": t.release, "since": t.previous, **t.counts(ALL_TRANSITION_KINDS)} for t in transitions],
        columns=["release", "since", *ALL_TRANSITION_KINDS],
    )
    counts_what = "Gates each release changed, by kind of change"
    st.dataframe(
        counts,
        hide_index=True,
        key="matrix_counts",
        column_config={
            c: st.column_config.Column(c, width=column_px([c, *counts[c].astype(str)]), help=f"`{TRANSITION_KEYS[c]}`" if c in TRANSITION_KEYS else None)
            for c in counts.columns
        },
        alt=counts_what,
    )
    table_as_text(counts, "table_text_matrix_counts", f"{counts_what}: {len(counts)} rows")
    table_csv(counts.to_dict("records"), counts.columns, file_name="release-changes.csv", key="matrix_counts_csv")
    st.caption(f"{releases[0]} is the oldest bundled release: no baseline to compare with.")

st.markdown("**Gates per stage in each release**")
counts_chart = stage_counts_chart(data.stage_counts())
st.altair_chart(counts_chart, key="matrix_stage_counts")
chart_downloads(counts_chart, "gates-per-stage", "matrix_stage_counts_export")
