"""What changes: the binary at E against itself, against the real release E, and an emulation step."""

import pandas as pd
import streamlit as st

from dashboard.components import data
from dashboard.components.pages import open_gate
from dashboard.components.selection import current
from dashboard.components.state import binary_choices
from dashboard.core.diffs import Comparison

sel = current()
opts = binary_choices(sel.binary)


def _config(left: str, right: str) -> dict:
    col = st.column_config
    return {
        "gate": col.TextColumn("gate", pinned=True),
        "effect": col.TextColumn("effect", help=f"Going from {left} to {right}: turns on, turns off, or only stage/lock differ"),
        "changed": col.TextColumn("differs in", help="Which properties differ (present = listed on one side only)"),
        "left_enabled": col.CheckboxColumn(f"on · {left}"),
        "left_stage": col.TextColumn(f"stage · {left}"),
        "left_default": None,
        "left_locked": col.CheckboxColumn(f"locked · {left}"),
        "right_enabled": col.CheckboxColumn(f"on · {right}"),
        "right_stage": col.TextColumn(f"stage · {right}"),
        "right_default": None,
        "right_locked": col.CheckboxColumn(f"locked · {right}"),
        "why": col.TextColumn("why", help="What happened between the two sides, from the specs", width="large"),
    }


def show(comparison: Comparison, key: str, left: str, right: str, one_sided: bool = False) -> None:
    with st.container(horizontal=True):
        st.metric("Gates that differ", len(comparison), help="Enabled, stage, default or lock differ (or listed on one side only).")
        if one_sided:
            only_left = sum(d.right is None for d in comparison.diffs)
            only_right = sum(d.left is None for d in comparison.diffs)
            st.metric(f"Only in {left}", only_left, help=f"Listed by {left} but not by {right}.")
            st.metric(f"Only in {right}", only_right, help=f"Listed by {right} but no longer by {left}.")
        else:
            st.metric("Turn on", len(comparison.turned_on), help=f"Off with {left}, on with {right}.")
            st.metric("Turn off", len(comparison.turned_off), help=f"On with {left}, off with {right}.")
    if not len(comparison):
        st.success("No differences.", icon=":material/check:")
        return
    frame = data.comparison_frame(comparison)
    effects = sorted(set(frame["effect"]))
    picked_effects = st.pills(
        "Effect", effects, selection_mode="multi", key=f"{key}_effects", help="Show only gates with these effects; none = all."
    )
    if picked_effects:
        frame = frame[frame["effect"].isin(picked_effects)]
    generation = st.session_state.setdefault(f"_{key}_generation", 0)
    event = st.dataframe(
        frame,
        key=f"{key}_table_{generation}",
        hide_index=True,
        column_config=_config(left, right),
        on_select="rerun",
        selection_mode="single-row",
        height=min(36 + 35 * len(frame), 520),
    )
    rows = event.selection.rows if event is not None else []
    if rows and 0 <= rows[0] < len(frame):
        st.session_state[f"_{key}_generation"] = generation + 1
        open_gate(str(frame.iloc[rows[0]]["gate"]))


st.subheader(f"What changes for a {sel.binary} binary emulating {sel.emulated}", anchor=False)
st.caption("Comparisons use the gates' defaults; the --feature-gates value is applied on the Gates page only. Select a row to open the gate.")

tab_binary, tab_release, tab_step = st.tabs(
    [f"{sel.binary} at {sel.emulated} vs {sel.binary} at {sel.binary}", f"vs the real release {sel.emulated}", "Emulation step"]
)

with tab_binary:
    left, right = f"{sel.emulated}", f"{sel.binary}"
    if not sel.is_emulating:
        st.info(
            f"Not emulating: pick an emulated version below {sel.binary} to see what emulation holds back.",
            icon=":material/info:",
        )
    else:
        st.caption(
            f"Every gate whose enabled/stage/default/lock at {sel.emulated} differs from the same binary without emulation, "
            f"and the spec changes between {sel.emulated} and {sel.binary} that cause it."
        )
        show(data.vs_binary(sel.binary, sel.emulated, sel.min_compat), "changes_binary", left, right)

with tab_release:
    st.caption(
        f"The {sel.binary} binary at {sel.emulated} against what release {sel.emulated} itself shipped (its bundled manifest at "
        f"its own version). Differences come from gates the binary removed, gates added or back-dated later, and history "
        "rewritten in newer manifests."
    )
    result = data.vs_release(sel.binary, sel.emulated, sel.min_compat)
    if isinstance(result, str):
        st.warning(f"Release {sel.emulated} cannot be compared: no usable bundled data.", icon=":material/warning:")
    else:
        show(result, "changes_release", f"{sel.binary}@{sel.emulated}", f"release {sel.emulated}", one_sided=True)

with tab_step:
    versions = tuple(reversed(opts.emulated))
    if len(versions) < 2:
        st.info(f"A {sel.binary} binary accepts only {versions[0]}: there is no step to compare.", icon=":material/info:")
    else:
        default_to = opts.emulated[min(opts.emulated.index(sel.emulated) + 1, len(opts.emulated) - 1)]
        default_from = sel.emulated if default_to != sel.emulated else opts.emulated[-2]
        for key, value in (("step_from", default_from), ("step_to", default_to)):
            if st.session_state.get(key) not in versions:
                st.session_state[key] = value
        c_from, c_to = st.columns(2)
        e1 = c_from.selectbox("From emulated version", versions, key="step_from", help="The emulated version before the bump.")
        e2 = c_to.selectbox("To emulated version", versions, key="step_to", help="The emulated version after the bump.")
        if e1 == e2:
            st.info("Pick two different versions.", icon=":material/info:")
        else:
            comparison = data.step(sel.binary, e1, e2)
            show(comparison, "changes_step", e1, e2)
            if len(comparison):
                on = [d.name for d in comparison.turned_on]
                off = [d.name for d in comparison.turned_off]
                with st.expander(f"Turned on ({len(on)}) / off ({len(off)}) by {e1} → {e2}"):
                    st.dataframe(
                        pd.DataFrame({"turns on": pd.Series(on, dtype=str), "turns off": pd.Series(off, dtype=str)}),
                        hide_index=True,
                        key="changes_step_lists",
                    )
