"""Gate detail: spec history, state in every bundled release, description, owners, KEP.

In the URL (the page's :class:`~dashboard.state.view_state.ViewState`): the gate (``gate``)
and the start of its history chart (``gate_from``)."""

import re

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.charts.export import chart_downloads, selection_caption
from dashboard.charts.specs import LABEL_CSS, default_x_start, timeline_chart
from dashboard.frame.chrome import is_phone
from dashboard.frame.selection_bar import current
from dashboard.state.selection import GATE_PARAM
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import table_csv
from dashboard.tables.gate_table import FLAG_WORDS
from dashboard.tables.table_text import flag_column, table_as_text
from dashboard.tables.text_width import fit_columns
from dashboard.text import md
from kcompat.core.versions import parse_version
from kcompat.documents.commands import same_as
from kcompat.documents.gate import (
    TABLES,
    change_rows,
    gate_document,
    release_rows,
    spec_rows,
)

_SAFE_URL = re.compile(r"\Ahttps://[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]+\Z")

sel = current()
names = data.all_gate_names()
#: The gate (``gate``, the key of the first links and of :func:`~dashboard.frame.pages.open_gate`)
#: and the history chart's start (``gate_from``).
view_state = ViewState("gate", url_keys={"name": GATE_PARAM})
url_problems = st.container()

gate = view_state.selectbox(
    "name",
    "Feature gate",
    names,
    optional=True,
    resolve=lambda text: (None, "names no feature gate of any bundled release (names are case-sensitive)"),
    instead="pick one below",
    placeholder="— pick a gate —",
    help="Every gate any bundled release lists, including gates the selected binary no longer has.",
)
with url_problems:
    view_state.show_problems()

if gate is None:
    st.info("Pick a feature gate, or select a row on the Gates, What changes or Timeline page.", icon=":material/touch_app:")
    st.stop()

detail = data.gate_detail(gate, sel.request)
document = gate_document(detail)

st.subheader(md(gate), anchor=False)
if detail.origin == "client-go":
    st.badge(
        "client-go gate",
        icon=":material/hub:",
        color="violet",
        help="Registered from k8s.io/client-go's features: every kube binary adds them to its own --feature-gates "
        "(pkg/features/kube_features.go init()). Not in the upstream feature list; the binary and its /metrics have it.",
    )
else:
    st.badge("kube gate", icon=":material/deployed_code:", color="gray", help="From the release's own feature list (pkg/features and staging).")
info = detail.info
if detail.placeholder is not None:
    st.caption(
        f"The data dates this gate to {detail.placeholder}, a placeholder: its behaviour is older than the gate "
        "(0.0 = registered without versions, 1.0 = older than versioned gates), not a release where it appeared."
    )
left, right = st.columns([3, 2])
with left:
    if info is not None and info.description:
        st.text(info.description)
    else:
        st.caption("No description in the data.")
with right:
    if info is not None and info.owners:
        st.caption("Owners")
        st.text(", ".join(info.owners))
    else:
        st.caption("No owners in the data.")
    if info is not None and info.kep and _SAFE_URL.match(info.kep):
        st.link_button("KEP", info.kep, icon=":material/open_in_new:", help=f"Kubernetes Enhancement Proposal: {md(info.kep)}")
    else:
        st.caption("No KEP link in the data.")
    if detail.dependencies:
        st.caption("Depends on")
        st.text(", ".join(detail.dependencies))

r = detail.state
if r is not None:
    c = st.columns(4)
    c[0].metric(f"Enabled at {detail.emulated}", "on" if r.enabled else "off", help="With this selection (defaults + --feature-gates).")
    c[1].metric(f"Stage at {detail.emulated}", r.stage, help="Stage of the spec in effect at the emulated version.")
    c[2].metric(f"Stage in {sel.binary}", r.binary_stage, help="Stage in the binary's own release.")
    c[3].metric("Locked", "yes" if r.locked else "no", help="Locked to its default at the emulated version.")
else:
    st.info(f"The {sel.binary} binary does not register {md(gate)}; the history below comes from the releases that list it.")

st.markdown(f"**Spec history in the {sel.binary} binary's manifest**")
if detail.specs is None:
    st.caption(f"Not in the {sel.binary} manifest.")
else:
    specs = pd.DataFrame(spec_rows(document), columns=list(TABLES["specs"][0]))
    spec_words = {"default": FLAG_WORDS["default"], "locked": FLAG_WORDS["locked"]}
    specs_what = f"Spec history of {gate} in the {sel.binary} binary's manifest"
    st.dataframe(
        specs,
        hide_index=True,
        key="detail_specs",
        column_config={
            "default": flag_column("default", "Default from this version on", spec_words["default"]),
            "locked": flag_column("locked", "Locked to its default from this version on", spec_words["locked"]),
        },
        alt=specs_what,
    )
    table_as_text(specs, "table_text_detail_specs", f"{specs_what}: {len(specs)} rows", words=spec_words)
    table_csv(
        specs.to_dict("records"), specs.columns, f"gate-{gate}-specs-{sel.binary}.csv", "detail_specs_csv",
        help=f"The spec history above as CSV: the gate's versionedSpecs in the {sel.binary} manifest.",
    )
    if detail.segments:
        binary = parse_version(sel.binary)
        # releases before the gate's first real spec predate it (its first spec dated to 0.0/1.0)
        real = detail.start
        real_start = {gate: real} if real is not None else {}
        starts = list(range(max(binary.minor - 20, 0), binary.minor))
        x_start = view_state.select_slider(
            "from",
            "History from release",
            starts,
            default=default_x_start(detail.segments, binary, 15, starts=real_start),
            format_func=lambda m: f"1.{m}",
            width=360,
            help="Left end of the chart's axis; earlier history is drawn from this edge (the tooltip keeps the real start).",
        )
        chart = timeline_chart(
            detail.segments, binary, parse_version(detail.emulated), x_start=x_start, compact=is_phone(), starts=real_start
        )
        st.html(LABEL_CSS)
        st.altair_chart(chart, key="detail_timeline")
        st.caption(
            "Version 0.0 / 1.0 specs mean: registered without versions / older than versioned gates. "
            + (f"Releases before {real.start} predate the gate: a grey dashed band, no stage ({real.reason})." if real else "")
        )
        chart_downloads(
            chart,
            f"gate-{gate}-{binary}-emulating-{detail.emulated}",
            "detail_export",
            title=f"{gate} in the {sel.binary} binary's manifest",
            caption=selection_caption(sel),
            releases=(sel.binary,),
        )
        with url_problems:
            view_state.show_problems()  # the chart start's

st.markdown("**State in every bundled release** (each release's own manifest at its own version)")
states = pd.DataFrame(release_rows(document), columns=list(TABLES["releases"][0]))
LISTED_WORDS = ("yes", "no")
states_what = f"{gate} in every bundled release"
st.dataframe(
    states,
    hide_index=True,
    key="detail_releases",
    column_config=fit_columns({
        "data": st.column_config.TextColumn("data", help="The patch release whose running code the release's data was read from (About the data)"),
        "listed": flag_column("listed", "Whether that release's manifest lists the gate", LISTED_WORDS),
    }, states, ("data", "provenance")),
    alt=states_what,
)
table_as_text(states, "table_text_detail_releases", f"{states_what}: {len(states)} rows", words={"listed": LISTED_WORDS})
table_csv(
    states.to_dict("records"), states.columns, f"gate-{gate}-releases.csv", "detail_releases_csv",
    help="The table above as CSV: the gate in every bundled release.",
)

st.markdown(
    f"**What changed, release by release** (the {md(detail.changes_from or sel.binary)} manifest's specs"
    + (f", then the {md(detail.changes_later_from)} manifest's for the later releases" if detail.changes_later_from else "")
    + (", and the bundled releases for a removal)" if any(c.kind == "removed" for c in detail.changes) else ")")
)
kep = info.kep if info is not None and info.kep and _SAFE_URL.match(info.kep) else None
changes = pd.DataFrame([{**row, "KEP": kep} for row in change_rows(document)], columns=[*TABLES["changes"][0], "KEP"])
if changes.empty:
    st.caption("No spec in the data.")
else:
    changes_what = f"What changed for {gate}, release by release"
    st.dataframe(
        changes,
        hide_index=True,
        key="detail_changes",
        column_config=fit_columns({
            "KEP": st.column_config.LinkColumn(
                "KEP", help="The gate's Kubernetes Enhancement Proposal (the data has one KEP link per gate)", display_text="KEP"
            )
            if kep
            else st.column_config.TextColumn("KEP", help="No KEP link in the data for this gate"),
        }, changes, ("what",)),
        alt=changes_what,
    )
    table_as_text(changes, "table_text_detail_changes", f"{changes_what}: {len(changes)} rows")
    table_csv(
        changes.to_dict("records"), changes.columns, f"gate-{gate}-changes.csv", "detail_changes_csv",
        help="The changes above as CSV.",
    )
patched = [f"{patch} {kind} (at {release})" for release, patch, kind, name in data.patch_change_texts() if name == gate]
if patched:
    st.caption(
        f"Recorded patch releases that changed {md(gate)} at their release (the rows above are the release's newest patch; "
        f"`kcompat matrix --patches`): " + md("; ".join(patched)) + "."
    )

st.caption("Same as the command line:")
st.code(
    same_as("gate", gate, binary=sel.binary_version, emulated=sel.emulated, min_compat=sel.min_compat,
            feature_gates=sel.feature_gates, format="json"),
    language=None,  # no syntax colours: they fail contrast
)
