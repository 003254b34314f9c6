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
from dashboard.frame.pages import open_gate
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import table_csv
from dashboard.tables.table_text import config_labels, table_as_text
from dashboard.tables.text_width import column_px
from dashboard.text import md
from kcompat.answers.matrix import (
    MatrixQuery,
    matrix_filter,
    matrix_report,
    release_provenance,
)
from kcompat.answers.patches import patch_matrix
from kcompat.answers.removable import removal_choices
from kcompat.core.errors import KcompatError
from kcompat.core.matrix import ALL_TRANSITION_KINDS
from kcompat.core.matrix_filter import FILTER_STAGES, ORIGINS, MatrixFilter
from kcompat.core.stages import Stage
from kcompat.documents.matrix import (
    TRANSITION_KEYS,
    TRANSITION_LABELS,
    cell_text,
    matrix_columns,
    matrix_document,
    matrix_rows,
    patch_change_lines,
    patches_document,
    release_header,
    unrecorded_text,
)

#: Where the removal rule comes from, as links (kcompat/core/removable.py: SOURCES has the quotes).
REMOVAL_SOURCES = (
    ("KEP-4330: Feature Gate Lifecycles",
     "https://github.com/kubernetes/enhancements/tree/master/keps/sig-architecture/4330-compatibility-versions#feature-gate-lifecycles"),
    ("Feature gates: GA features and deprecation",
     "https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/feature-gates.md"),
)

#: The grid's row and header heights (px) and the tallest it gets before it scrolls.
ROW_PX, HEADER_PX, MAX_HEIGHT = 35, 35, 520

summary = data.summary()
full = data.matrix()
full_document = data.matrix_document()
releases = list(full.releases)
statuses = {r.release: r for r in summary.releases}
state = ViewState("matrix")

st.subheader("Feature gates across the bundled releases", anchor=False)
st.caption(
    "Each cell: the stage and default that release shipped (its own manifest at its own version); "
    "locked = locked to its default; — = not listed yet; removed (always on|off) = no longer registered: the feature "
    "stays in its last spec's state. Each release is read from its newest recorded patch release (About the data); "
    "a release whose data is not a release says so in its header, in the downloads too: "
    # the headers' own labels (release_header), so the two cannot disagree
    + md(", ".join(h for r in releases if (h := release_header({"releaseData": release_provenance(data.catalog())}, r)) != r) or "none")
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
    help="Gates that changed from the previous bundled release to this one: new as Alpha, new at a later stage (first "
    "listed in that release, at the stage it came in with), promoted to Beta, graduated "
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
c_text, c_stage, c_rel, c_changed, c_removable = st.columns([2.5, 3, 2, 1.5, 2], vertical_alignment="bottom")
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
removable_in = state.selectbox(
    "removable",
    "Removable in",
    removal_choices(data.catalog()),
    optional=True,
    target=c_removable,
    placeholder="any release",
    help="Gates that release can remove: locked to their default since a release its binaries can no longer emulate "
    "a release before (KEP-4330: a binary emulates down to max(release-3, 1.31)); the rule and its sources are shown "
    "with the table (`--removable-in`).",
)

try:
    flt = matrix_filter(releases, MatrixQuery(
        changed=(transition,) if transition else None,
        stages=tuple(stages) if stages is not None else None,
        in_release=in_release if stages else None,
        origins=tuple(origins) if origins is not None else None,
        search=text,
        changed_only=changed_only,
        since=since if since != releases[0] else None,
        removable_in=removable_in,
    ))
except KcompatError as exc:  # the controls offer valid values only: a guard, not a path
    st.error(md(str(exc)), icon=":material/error:")
    st.stop()


@st.cache_data(show_spinner=False, max_entries=64)
def _view(flt: MatrixFilter) -> tuple[dict[str, str], list[str], list[dict[str, Any]], dict[str, int], dict[str, Any] | None, tuple[str, ...]]:
    """The answer for ``flt``: the release columns shown (header -> release: ``1.34 (reconstructed)``
    -> ``1.34``), the columns and rows (``kcompat matrix``'s table; ``matched`` after a search) and
    the width of each column (its longest cell or header: nothing is cut)."""
    report = matrix_report(data.catalog(), flt, data.matrix(), data.gate_texts())
    document = matrix_document(report.answer, report.lineage, report.provenance, report.patch_changes)
    rows = matrix_rows(document)
    columns = matrix_columns(document)
    widths = {column: column_px([column, *(row[column] for row in rows)]) for column in columns}
    release_columns = {release_header(document, r): r for r in document["releases"]}
    return release_columns, columns, rows, widths, document["removable"], tuple(patch_change_lines(document))


shown_releases, columns, rows, widths, removable, patch_lines = _view(flt)
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

if removable is not None:
    st.info(
        f"**{len(rows)} gates a {removable['release']} binary can drop**, of the {removable['lockedGates']} gates "
        f"{removable['base']} has locked to their default (a {removable['release']} binary emulates down to "
        f"{removable['floor']}). Rule: "
        + md(removable["rule"]) + ". "
        + " ".join(f"[{name}]({url})" for name, url in REMOVAL_SOURCES)
        + (f"  \n{md(removable['note'])}" if removable["note"] else ""),
        icon=":material/delete_sweep:",
    )
if patch_lines:
    st.caption(
        "Each release's column is its newest recorded patch. Patch releases that changed a gate shown (at the release's "
        "own version): " + md("; ".join(patch_lines)) + " (the patch view below shows them side by side)."
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


REMOVABLE_HELP = {
    "locked": "The stage and value the gate is locked to",
    "locked since": "The release since which each release's own binary has the gate locked to that value",
    "last settable": "The last release where the gate could still be set (or was not there yet): its lock's release - 1",
    "removed": "Whether that release's own bundled manifest no longer lists the gate (Kubernetes may keep a removable gate longer)",
}


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
        # not pinned: the grid fades a pinned column's text to 60 % (gate names that look disabled);
        # unpinned, they are in the theme's text colour, as on the Gates page
        "gate": st.column_config.TextColumn("gate", width=widths["gate"]),
        "origin": st.column_config.TextColumn("origin", width=widths["origin"]),
        **{
            header: st.column_config.TextColumn(header, help=md(f"{r}: {statuses[r].status_text}"), width=widths[header])
            for header, r in shown_releases.items()
        },
        **{
            c: st.column_config.TextColumn(c, width=widths[c], help=REMOVABLE_HELP.get(c.split(" ")[0] if c.startswith("removed in") else c))
            for c in columns
            if c in REMOVABLE_HELP or c.startswith("removed in ")
        },
        **(
            {"matched": st.column_config.TextColumn(
                "matched", width=widths["matched"],
                help="Where the search found the gate: its name, its KEP number, an abbreviation of its name, or its description",
            )}
            if "matched" in columns
            else {}
        ),
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
# one below the other: beside the chart the table's last columns ("default flipped", "locked") were out of sight
left, right = st.container(), st.container()
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


@st.cache_data(show_spinner=False, max_entries=16)
def _patches_view(release: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``kcompat matrix --patches <release> --format json``'s document and its table rows."""
    pm = patch_matrix(data.catalog(), release)
    document = patches_document(pm.release, pm.patches, pm.base, pm.matrix, pm.transitions, pm.specs_only)
    rows = [{"gate": g["name"], "origin": g["origin"], **{p: cell_text(c) for p, c in g["patches"].items()}} for g in document["gates"]]
    return document, rows


st.markdown("**The patch releases of a release** (each recorded patch at the release's own version)")
with_patches = [r for r in releases if len(data.patch_options(r)) > 1]
if not with_patches:
    st.caption("No release has more than one recorded patch.")
else:
    patch_release = state.selectbox(
        "patches", "Release", with_patches[::-1],
        help="Every recorded patch release of it side by side, for the gates whose specs differ between two of them "
        "(`kcompat matrix --patches`).",
    )
    patch_document, patch_rows = _patches_view(patch_release)
    patch_columns = ["gate", "origin", *patch_document["patches"]]
    changed = [
        f"{patch}: {TRANSITION_LABELS[key].removesuffix(' in')} {', '.join(names)}"
        for patch, kinds in patch_document["transitions"].items() for key, names in kinds.items() if names
    ]
    st.caption(
        f"Recorded: {', '.join('v' + p for p in patch_document['patches'])}{md(unrecorded_text(patch_document))}; a plain {patch_release} is "
        f"v{patch_document['base']}. " + (md("; ".join(changed)) + "." if changed else "No patch changed a gate's state at the release's own version.")
    )
    if not patch_rows:
        st.info(f"Every recorded patch of {patch_release} registers the same gates with the same specs.", icon=":material/check:")
    else:
        patches_frame = pd.DataFrame(patch_rows, columns=patch_columns)
        patches_what = f"The recorded patch releases of {patch_release}"
        st.dataframe(
            patches_frame.style.map(_cell_style, subset=list(patch_document["patches"])),
            hide_index=True,
            key="matrix_patches_table",
            column_config={c: st.column_config.TextColumn(c, width=column_px([c, *patches_frame[c]])) for c in patch_columns},
            alt=patches_what,
        )
        table_as_text(patches_frame, "table_text_matrix_patches", f"{patches_what}: {len(patches_frame)} rows")
        table_csv(patch_rows, patch_columns, file_name=f"patches-{patch_release}.csv", key="matrix_patches_csv", as_is=True,
                  help=f"As `kcompat matrix --patches {patch_release} --format csv` prints it.")
