"""What changes: the selected binary at its emulated version ("here") against another side ("there").

Every table is the ``kcompat changes --format json`` document for the same inputs
(:mod:`kcompat.documents.changes`): the selection's binary, emulated version, min compatibility
and ``--feature-gates`` (applied to both sides).
"""


from typing import Any

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.frame.pages import open_gate
from dashboard.frame.selection_bar import current
from dashboard.state.selection import binary_choices
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import table_csv
from dashboard.tables.table_text import flag_column, table_as_text
from dashboard.tables.text_width import column_px
from dashboard.text import code, md
from kcompat.core.diffs import side_label
from kcompat.core.versions import mm, parse_version
from kcompat.documents.changes import (
    ROW_COLUMNS,
    behaviour_text,
    changes_rows,
    side_labels,
)
from kcompat.documents.commands import same_as
from kcompat.documents.formats import listed

MAX_MESSAGES = 20
#: The grid's row (and header) height and the tallest it gets before it scrolls (px).
ROW_PX, MAX_HEIGHT = 35, 520
DIFFERENT = "behaves differently"
ALL = "all differences"
#: How the on/off columns read (in the grid and in its table as text).
ON_WORDS = ("on", "off")

sel = current()
#: the page's URL values of the previous run (None in a new session)
state = ViewState("changes")
opts = binary_choices(sel.binary)
usable = data.summary().usable


def command(against: str) -> str:
    return same_as(
        "changes", binary=sel.binary_version, emulated=sel.emulated, min_compat=sel.min_compat, feature_gates=sel.feature_gates,
        against=against,
    )


def _stage(side: dict[str, Any]) -> str:
    if not side["exists"]:
        return "not registered"
    return f"{side['stage']}, locked" if side["locked"] else side["stage"]


def page_frame(document: dict[str, Any]) -> pd.DataFrame:
    """One row per change of the document: plain-language behaviour, each side's state, why."""
    here, there = side_labels(document)
    rows = [
        {
            "gate": c["name"],
            "behaviour": behaviour_text(c["behaviour"], here, there),
            "here_on": c["here"]["enabled"],
            "here_stage": _stage(c["here"]),
            "there_on": c["there"]["enabled"],
            "there_stage": _stage(c["there"]),
            "why": c["why"],
        }
        for c in document["changes"]
    ]
    return pd.DataFrame(rows, columns=["gate", "behaviour", "here_on", "here_stage", "there_on", "there_stage", "why"])


def show(document: dict[str, Any], key: str, against: str) -> None:
    for error in listed(document, "errors"):  # the document keeps the first 20, then "… and N more"
        st.error(md(error), icon=":material/error:")
    if document["against"] is None:
        return
    if document["errors"]:
        st.caption("A side that refuses the --feature-gates value would not start; it is shown at its defaults.")
    if document["warnings"]:
        with st.expander(f"Warnings ({len(document['warnings'])})"):
            st.markdown("  \n".join(md(w) for w in document["warnings"][:MAX_MESSAGES]))
    here, there = side_labels(document)
    changes = document["changes"]
    on_here = sum(c["behaviour"] == "on-here-only" for c in changes)
    on_there = sum(c["behaviour"] == "on-there-only" for c in changes)
    with st.container(horizontal=True):
        st.metric("Behave differently", on_here + on_there, help="Features on one side and off on the other.")
        st.metric(f"On in {here} only", on_here, help=f"On in {here}, off in {there}.")
        st.metric(f"On in {there} only", on_there, help=f"Off in {here}, on in {there}.")
        st.metric(
            "Other differences",
            len(changes) - on_here - on_there,
            help="Same behaviour, but the gate is registered on one side only or its stage differs.",
        )
    st.code(command(against), language=None, width="content")
    if not changes:
        st.success("No differences.", icon=":material/check:")
        return
    frame = page_frame(document)
    shown = state.segmented_control(
        f"{key.removeprefix('changes_')}_show", "Show", (DIFFERENT, ALL),
        help="Gates whose feature behaves differently, or every gate whose state differs in any way.",
    )
    rows = changes_rows(document)
    if shown != ALL:
        keep = [c["behaviour"] != "same" for c in changes]
        frame = frame[keep]
        rows = [r for r, k in zip(rows, keep, strict=True) if k]
    if frame.empty:
        st.success(f"Every feature behaves the same in {here} and in {there}.", icon=":material/check:")
        return
    generation = st.session_state.setdefault(f"_{key}_generation", 0)
    col = st.column_config
    labels = {
        "gate": "gate", "behaviour": "behaviour", "here_on": f"on in {here}", "here_stage": f"stage in {here}",
        "there_on": f"on in {there}", "there_stage": f"stage in {there}", "why": "why",
    }
    # every column as wide as its longest cell or header: nothing is cut (the table scrolls sideways instead)
    widths = {
        name: column_px([label, *([] if name.endswith("_on") else frame[name].astype(str))]) for name, label in labels.items()
    }
    event = st.dataframe(
        frame,
        key=f"{key}_table_{generation}",
        hide_index=True,
        on_select="rerun",
        selection_mode="single-row",
        height=min(ROW_PX * (len(frame) + 1) + 2, MAX_HEIGHT),
        column_config={
            # not pinned: the grid fades a pinned column's text to 60 % (gate names that look disabled)
            "gate": col.TextColumn("gate", width=widths["gate"]),
            "behaviour": col.TextColumn("behaviour", help="Whether the feature is on or off on each side", width=widths["behaviour"]),
            "here_on": flag_column(labels["here_on"], f"Whether the feature is on in {here}", ON_WORDS, width=widths["here_on"]),
            "here_stage": col.TextColumn(labels["here_stage"], help="locked: --feature-gates cannot set it; not registered: the binary has no such gate", width=widths["here_stage"]),
            "there_on": flag_column(labels["there_on"], f"Whether the feature is on in {there}", ON_WORDS, width=widths["there_on"]),
            "there_stage": col.TextColumn(labels["there_stage"], help="locked: --feature-gates cannot set it; not registered: the binary has no such gate", width=widths["there_stage"]),
            "why": col.TextColumn("why", help="What happened between the two sides", width=widths["why"]),
        },
        alt=f"Gates that differ between {here} and {there}",
    )
    table_as_text(
        frame, f"table_text_{key}", f"Gates that differ between {here} and {there}: {len(frame)} rows", labels=labels,
        words={"here_on": ON_WORDS, "there_on": ON_WORDS},
    )
    table_csv(
        rows, ROW_COLUMNS, file_name=f"changes-{sel.binary_version}-emulating-{sel.emulated}-against-{against.replace('@', '-emulating-')}.csv",
        key=f"{key}_csv",
        help=f"The rows shown, with the columns of `kcompat changes --format csv` (with “{ALL}”: exactly what it prints).",
    )
    picked = event.selection.rows if event is not None else []
    if picked and 0 <= picked[0] < len(frame):
        st.session_state[f"_{key}_generation"] = generation + 1
        open_gate(str(frame.iloc[picked[0]]["gate"]))


def document_for(against: str) -> dict[str, Any]:
    return data.changes(sel.request, against)


def side_name(choice: str) -> str:
    """A side the picker offers, named as the answer names it: ``a real 1.35.0``, ``a real 1.34``,
    ``1.35.0 emulating 1.34``."""
    binary_text, _, emulated_text = choice.partition("@")
    binary = parse_version(binary_text)
    return side_label(binary, parse_version(emulated_text) if emulated_text else mm(binary), not emulated_text)


def release_sides(release: str) -> list[str]:
    """A bundled release's real binaries, newest first: each recorded patch (``1.35.8`` ...
    ``1.35.0``), or the release itself when no patch is recorded."""
    patches = data.patch_options(release)
    return [f"{release}.{p}" for p in reversed(patches)] if patches else [release]


def newest_patch(text: str) -> tuple[str | None, str | None]:
    """A link's plain release (``changes_other=1.35``) as the side it answers as: its newest
    recorded patch (``1.35.8``, the same binary)."""
    patches = data.patch_options(text)
    return (f"{text}.{patches[-1]}", None) if patches else (None, None)


here_label = side_label(parse_version(sel.binary_version), parse_version(sel.emulated))
st.subheader(f"What changes for {here_label}", anchor=False)
if sel.feature_gates:
    st.caption(f"Both sides apply the selection's --feature-gates {code(sel.feature_gates)}. Select a row to open the gate.")
else:
    st.caption("Both sides use the gates' defaults (no --feature-gates in the selection). Select a row to open the gate.")
st.caption(
    "A gate a binary does not register keeps the state of its last spec: removed after GA locked on = always on, "
    "removed while off = always off, not introduced yet = off."
)

url_problems = st.container()  # warnings about this page's URL values, above the tabs
tab_release, tab_native, tab_other = state.tabs(
    "tab",
    ("release", "native", "other"),
    (f"vs a real {sel.emulated}", f"vs {sel.binary_version} without emulation", "vs another release or emulated version"),
)

with tab_release:
    st.caption(
        f"Here: the {sel.binary_version} binary emulating {sel.emulated}. There: a real {sel.emulated}, release {sel.emulated}'s own "
        f"binary at its own version."
    )
    show(document_for("release"), "changes_release", "release")

with tab_native:
    if not sel.is_emulating:
        st.info(
            f"Not emulating: pick an emulated version below {sel.binary} to see what emulation holds back.",
            icon=":material/info:",
        )
    else:
        st.caption(f"Here: the {sel.binary_version} binary emulating {sel.emulated}. There: the same binary without emulation.")
        show(document_for("native"), "changes_native", "native")

with tab_other:
    choices = [f"{sel.binary_version}@{e}" for e in reversed(opts.emulated) if e != sel.emulated]
    choices += [side for r in reversed(usable) for side in release_sides(r)]
    labels = {c: side_name(c) for c in choices}
    following = [c for c in choices if "@" in c and parse_version(c.split("@")[1]) > parse_version(sel.emulated)]
    picked = state.selectbox(
        "other", "Compare with", choices, default=following[-1] if following else choices[0], format_func=labels.get,
        follows_selection=True,  # picked here for another selection: follow the new one silently
        resolve=newest_patch,
        help="Another emulated version of the same binary (an emulation step), or a bundled release's real binary "
        "at any recorded patch.",
    )
    show(document_for(picked), "changes_other", picked)

with url_problems:
    state.show_problems()
