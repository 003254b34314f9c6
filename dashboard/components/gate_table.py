"""The effective gate table with its quick filters and row selection.

The table is an Arrow table (see :class:`dashboard.components.data.GatesView`); filtering uses
``pyarrow.compute`` so nothing is converted to pandas on a rerun.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import MappingProxyType

import pyarrow as pa
import pyarrow.compute as pc
import streamlit as st

from .data import GatesView
from .downloads import gate_downloads
from .pages import open_gate
from .stage_colors import STAGE_NAMES
from .state import Selection

#: The "show only" quick filters: value -> (column, wanted value). Within one column the chosen
#: values are alternatives (on + off = either); different columns must all match.
QUICK = {
    "on": ("enabled", True),
    "off": ("enabled", False),
    "changed": ("changed", True),
    "locked": ("locked", True),
    "unlocked": ("locked", False),
}


@dataclass(frozen=True)
class Filters:
    stages: tuple[str, ...] = ()
    quick: tuple[str, ...] = ()
    text: str = ""

    @property
    def active(self) -> bool:
        return bool(self.stages or self.quick or self.text.strip())


def filter_table(table: pa.Table, f: Filters) -> pa.Table:
    """Rows of the effective table that pass the filters (case-insensitive substring search)."""
    if not f.active:
        return table
    mask = None

    def both(expr):
        nonlocal mask
        mask = expr if mask is None else pc.and_(mask, expr)

    if f.stages:
        both(pc.is_in(table["stage"], value_set=pa.array(list(f.stages), pa.string())))
    by_column: dict[str, set[bool]] = {}
    for name in f.quick:
        column, wanted = QUICK[name]
        by_column.setdefault(column, set()).add(wanted)
    for column, wanted in by_column.items():
        if len(wanted) == 1:
            both(pc.equal(table[column], next(iter(wanted))))
    text = f.text.strip()
    if text:
        both(pc.match_substring(table["gate"], text, ignore_case=True))
    return table if mask is None else table.filter(mask)


def filter_controls(prefix: str) -> Filters:
    """Stage, show-only (enabled / changed / locked) and text filters in one row."""
    with st.container(horizontal=True, vertical_alignment="bottom"):
        picked = st.pills(
            "Quick filters",
            STAGE_NAMES + tuple(QUICK),
            selection_mode="multi",
            key=f"{prefix}_quick",
            help="Stages (at the emulated version; several = any of them) and: on/off = the value with this selection; "
            "changed = stage, default or lock differ from the binary without emulation; locked/unlocked = locked to "
            "the default or not. Choosing both of a pair shows both.",
        ) or ()
        stages = [p for p in picked if p in STAGE_NAMES]
        quick = [p for p in picked if p in QUICK]
        text = st.text_input(
            "Search",
            key=f"{prefix}_text",
            placeholder="gate name contains…",
            help="Case-insensitive substring of the gate name.",
        )
    return Filters(tuple(stages), tuple(quick or ()), text or "")


@functools.lru_cache(maxsize=64)
def column_config(binary: str, emulated: str) -> MappingProxyType:
    """Column labels and help of the gate table (built once per version pair; read-only)."""
    col = st.column_config
    return MappingProxyType({
        "gate": col.TextColumn("gate", help="Feature gate name (as in --feature-gates)", pinned=True),
        "enabled": col.CheckboxColumn("enabled", help="Value with this selection (defaults + --feature-gates)"),
        "stage": col.TextColumn(f"stage at {emulated}", help="Stage of the spec in effect at the emulated version"),
        "default": col.CheckboxColumn("default", help="Default at the emulated version"),
        "locked": col.CheckboxColumn("locked", help="Locked to its default: cannot be set to anything else"),
        "binary_stage": col.TextColumn(f"stage in {binary}", help="Stage in the binary's own release (no emulation)"),
        "changed": col.CheckboxColumn(
            f"changed vs {binary}", help="Stage, default or lock differ from the binary running without emulation"
        ),
        "origin": col.TextColumn(
            "origin",
            help="Where the binary registers the gate from: kube = the release's own feature list; client-go = "
            "k8s.io/client-go's features, which every kube binary adds to its --feature-gates",
        ),
    })


def gate_table(table: pa.Table, key: str, binary: str, emulated: str, height: int = 560) -> str | None:
    """Draw the table; returns the gate of the selected row, if any."""
    event = st.dataframe(
        table,
        key=key,
        hide_index=True,
        column_config=column_config(binary, emulated),
        on_select="rerun",
        selection_mode="single-row",
        height=height,
    )
    rows = event.selection.rows if event is not None else []
    if rows and 0 <= rows[0] < table.num_rows:
        return str(table.column("gate")[rows[0]].as_py())
    return None


def metrics_row(metrics: dict[str, int], binary: str, emulated: str) -> None:
    """Enabled, changed vs the binary, PreAlpha and locked counts."""
    with st.container(horizontal=True):
        st.metric(
            f"Enabled at {emulated}",
            metrics["enabled"],
            help=f"Gates that end up on with this selection, of the {metrics['gates']} gates the {binary} binary registers.",
        )
        st.metric(
            f"Changed vs {binary}",
            metrics["changed"],
            help=f"Gates whose stage, default or lock at {emulated} differ from the {binary} binary without emulation.",
        )
        st.metric("PreAlpha", metrics["PreAlpha"], help=f"Gates not introduced yet at {emulated}: off, and cannot be set.")
        st.metric("Locked", metrics["locked"], help="Gates locked to their default at the emulated version.")


def gates_panel(sel: Selection, view: GatesView, manifest=None) -> None:
    """The whole effective-table widget: metrics, quick filters, the table (a selected row opens
    the gate's detail page) and the downloads. ``view`` is :func:`data.gates_view` of ``sel``."""
    metrics_row(dict(view.metrics), sel.binary, view.emulated)
    filters = filter_controls("gates")
    shown = filter_table(view.table, filters)
    if filters.active:
        st.caption(f"{shown.num_rows} of {view.table.num_rows} gates match the filters")
    generation = st.session_state.setdefault("_gates_table_generation", 0)
    picked = gate_table(shown, f"gates_table_{generation}", sel.binary, view.emulated)
    if picked is not None:
        st.session_state["_gates_table_generation"] = generation + 1
        open_gate(picked)
    gate_downloads(sel, manifest)
