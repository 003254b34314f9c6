"""The effective gate table with its quick filters and row selection.

The table is an Arrow table (see :class:`dashboard.gates_view.GatesView`); filtering uses
``pyarrow.compute`` so nothing is converted to pandas on a rerun.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import MappingProxyType

import pyarrow as pa
import pyarrow.compute as pc
import streamlit as st

from dashboard import data
from dashboard.charts.stage_colors import STAGE_NAMES
from dashboard.frame.chrome import is_phone
from dashboard.frame.pages import open_gate
from dashboard.gates_view import GatesView
from dashboard.state.selection import Selection
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import every_gate, table_exports
from dashboard.tables.table_text import flag_column, table_as_text
from dashboard.tables.text_width import column_px
from dashboard.text import md, plain
from kcompat.core.compat import parse_binary_version
from kcompat.core.placeholders import PLACEHOLDER_VERSIONS, not_recorded_text

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from dashboard.uploads.custom_manifest import CustomManifest
    from kcompat.core.search import GateText

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
    sort: str = "gate"
    #: the optional columns: each gate's description and since / until its stage holds (off by default)
    describe: bool = False

    @property
    def active(self) -> bool:
        return bool(self.stages or self.quick or self.text.strip())


def filter_table(table: pa.Table, f: Filters, texts: Mapping[str, GateText] | None = None) -> pa.Table:
    """Rows of the effective table that pass the filters. The search finds a gate by part of its
    name, an abbreviation, a KEP number or words of its description (``texts``: name ->
    :class:`~kcompat.core.search.GateText`; see :mod:`kcompat.core.search`); with a search the
    table gains a ``matched`` column saying where (what ``kcompat gates --search`` prints)."""
    if not f.active:
        return table
    mask = None
    found: dict[str, str] | None = None

    def both(expr: Any) -> None:
        nonlocal mask
        mask = expr if mask is None else pc.and_(mask, expr)

    if f.stages:
        both(pc.is_in(table["stage"], value_set=pa.array(list(f.stages), pa.string())))
    by_column: dict[str, set[bool]] = {}
    for name in f.quick:
        column, wanted = QUICK[name]
        by_column.setdefault(column, set()).add(wanted)
    for column, values in by_column.items():
        if len(values) == 1:
            both(pc.equal(table[column], next(iter(values))))
    text = f.text.strip()
    if text:
        from kcompat.core.search import search_matches

        found = search_matches(text, table["gate"].to_pylist(), texts)
        both(pc.is_in(table["gate"], value_set=pa.array(list(found), pa.string())))
    shown = table if mask is None else table.filter(mask)
    if found is not None:
        shown = shown.append_column("matched", pa.array([found[g] for g in shown["gate"].to_pylist()], pa.string()))
    return shown



#: Row orders of the gate table (the grid's header sort is not kept in a link; this one is).
SORTS = ("gate", "stage", "changed first")


def filter_controls(prefix: str) -> Filters:
    """Stage, show-only (enabled / changed / locked), text filters and the row order in one row,
    kept in the URL (``<prefix>_quick``, ``<prefix>_text``, ``<prefix>_sort``)."""
    view = ViewState(prefix)
    with st.container(horizontal=True, vertical_alignment="bottom"):
        picked = view.pills(
            "quick",
            "Quick filters",
            STAGE_NAMES + tuple(QUICK),
            format_func=plain,
            help="Stages (at the emulated version; several = any of them; \"not yet introduced\" is PreAlpha in the "
            "Kubernetes code: the gate exists in the binary but not yet at the emulated version) and: on/off = the value "
            "with this selection; changed = stage, default or lock differ from the binary without emulation; "
            "locked/unlocked = locked to the default or not. Choosing both of a pair shows both.",
        )
        stages = [p for p in picked if p in STAGE_NAMES]
        quick = [p for p in picked if p in QUICK]
        text = view.text_input(
            "text",
            "Search",
            placeholder="name, DRA, KEP 4381, words…",
            help="Finds a gate by part of its name, an abbreviation (DRA = DynamicResourceAllocation and the DRA… gates), "
            "a KEP number (4381, KEP-4381) or words of its description. Case-insensitive.",
        )
        sort = view.selectbox(
            "sort", "Order", SORTS, width=150, help="Row order: by gate name, by stage at the emulated version, or changed gates first."
        )
        describe = view.toggle(
            "describe", "Descriptions",
            help="Add each gate's description and since / until which version its stage holds in the binary's specs, as the "
            "kubernetes.io feature-gates table has them (`kcompat gates --columns description,since,until`).",
        )
    view.show_problems()
    return Filters(tuple(stages), tuple(quick or ()), text or "", sort, bool(describe))


#: The optional columns, as ``kcompat gates --columns`` names them.
DESCRIBE_COLUMNS = ("description", "since", "until")


@st.cache_data(show_spinner=False, max_entries=32)
def _facts(binary: str, emulated: str, min_compat: str) -> dict[str, tuple[str | None, str | None, str | None, str | None]]:
    """Gate -> (description, since, until, next stage) of the binary's gates (kcompat.answers.gates.gate_facts)."""
    from kcompat.answers.gates import FactsQuery, gate_facts

    catalog = data.catalog()
    names = tuple(f.name for f in catalog.manifest_for(parse_binary_version(binary))[0].features)
    facts = gate_facts(catalog, FactsQuery(names, binary, emulated, min_compat or None))
    return {n: (f.description, f.since, f.until, f.next_stage) for n, f in facts.items()}


def with_descriptions(table: pa.Table, binary: str, emulated: str, min_compat: str | None) -> pa.Table:
    """``table`` with :data:`DESCRIBE_COLUMNS` in the words of ``kcompat gates --columns``."""
    from kcompat.documents.gates import description_text, since_text, until_text

    facts = _facts(binary, emulated, min_compat or "")
    none = (None, None, None, None)
    rows = [(facts.get(g, none), s) for g, s in zip(table.column("gate").to_pylist(), table.column("stage").to_pylist(), strict=True)]
    return (
        table.append_column("description", pa.array([description_text(f[0]) for f, _ in rows], pa.string()))
        .append_column("since", pa.array([since_text(f[1], s) for f, s in rows], pa.string()))
        .append_column("until", pa.array([until_text(f[2], f[3]) for f, _ in rows], pa.string()))
    )


def sort_table(table: pa.Table, sort: str) -> pa.Table:
    """The rows in the chosen order (the table comes sorted by gate name)."""
    if sort == "stage":
        rank = pc.index_in(table["stage"], value_set=pa.array(list(STAGE_NAMES), pa.string()))
        return table.append_column("_rank", rank).sort_by([("_rank", "ascending"), ("gate", "ascending")]).drop_columns(["_rank"])
    if sort == "changed first":
        return table.sort_by([("changed", "descending"), ("gate", "ascending")])
    return table


#: The grid's header and row height (px, Streamlit's theme) and its 1 px border above and below.
HEADER_PX, ROW_PX = 35, 35

#: Column widths on a phone (px): enabled and stage fit beside the row picker; the gate column is
#: as wide as the longest name there too (a name is never cut: the grid scrolls sideways).
PHONE_WIDTHS = {"gate": 160, "enabled": 64, "stage": 92}


#: Width of the gate column per character of the longest name, plus padding (the grid's 14 px
#: font; CamelCase names average under 7.4 px a character), so no name is cut on a wide screen.
_PX_PER_CHAR, _PX_PADDING = 7.4, 28


def gate_column_width(longest_name: int) -> int:
    return int(longest_name * _PX_PER_CHAR + _PX_PADDING)


#: How the boolean columns read, true / false (in the grid and in its table as text).
FLAG_WORDS: dict[str, tuple[str, str]] = {
    "enabled": ("on", "off"),
    "default": ("on", "off"),
    "locked": ("locked", "no"),
    "changed": ("changed", "no"),
}


#: The gate column is not pinned: the grid draws pinned columns in a faded colour (60 %), which
#: gives 4.8:1 on the light background; unpinned it is the theme's text colour (see
#: :func:`key_column_colour` and the test measuring it). At 1440 px every column fits anyway.
PIN_GATE_COLUMN = False

#: How the grid draws a pinned column's text: the theme's text colour at this opacity.
PINNED_TEXT_OPACITY = 0.6


def key_column_colour(text: str, background: str) -> str:
    """The colour the gate column's text is drawn in, as ``#rrggbb``, from the theme's text and
    background colours (blended as the grid blends a pinned column's text)."""
    if not PIN_GATE_COLUMN:
        return text.upper()
    a = PINNED_TEXT_OPACITY
    t = [int(text.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    b = [int(background.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(a * x + (1 - a) * y):02X}" for x, y in zip(t, b, strict=True))


@functools.lru_cache(maxsize=64)
def column_config(binary: str, emulated: str, phone: bool = False, longest_name: int = 0) -> MappingProxyType[str, Any]:
    """Column labels and help of the gate table (built once per version pair; read-only). On a
    phone the essential columns (gate, enabled, stage) get widths that fit the screen; elsewhere
    the gate column fits the longest name (``longest_name`` characters). Booleans read as words
    (:func:`flag_column`), the gate names in the full text colour (:data:`PIN_GATE_COLUMN`)."""
    col = st.column_config
    widths = dict(PHONE_WIDTHS) if phone else {}
    if longest_name:
        widths["gate"] = gate_column_width(longest_name)
    return MappingProxyType({
        "gate": col.TextColumn(
            "gate", help="Feature gate name (as in --feature-gates)", pinned=PIN_GATE_COLUMN and not phone, width=widths.get("gate")
        ),
        "enabled": flag_column(
            "enabled", "Value with this selection (defaults + --feature-gates)", FLAG_WORDS["enabled"], width=widths.get("enabled")
        ),
        "stage": col.TextColumn(
            f"stage at {emulated}",
            help="Stage of the spec in effect at the emulated version (PreAlpha: not yet introduced at that version)",
            width=widths.get("stage"),
        ),
        "default": flag_column("default", "Default at the emulated version", FLAG_WORDS["default"]),
        "locked": flag_column("locked", "Locked to its default: cannot be set to anything else", FLAG_WORDS["locked"]),
        "binary_stage": col.TextColumn(f"stage in {binary}", help="Stage in the binary's own release (no emulation)"),
        "changed": flag_column(
            f"changed vs {binary}",
            "On/off, stage or lock differ from the same binary without emulation (same --feature-gates): the gates "
            "`kcompat changes --against native` lists",
            FLAG_WORDS["changed"],
        ),
        "history_from": col.TextColumn(
            "history from",
            width=column_px(("history from", *(not_recorded_text(v.major, v.minor) for v in PLACEHOLDER_VERSIONS))),
            help="The first version of the gate's specs in the binary's list: the release it appeared in, or 0.0 / 1.0, "
            "placeholders for behaviour older than the gate (0.0 = registered without versions, 1.0 = older than versioned gates)",
        ),
        "matched": col.TextColumn(
            "matched", help="Where the search found the gate: its name, its KEP number, an abbreviation of its name, or its description"
        ),
        "description": col.TextColumn("description", width="large", help="The comment above the gate in the Kubernetes source"),
        "since": col.TextColumn(
            "since", help="The version its stage at the emulated version starts in the binary's specs (not recorded: dated to a placeholder)"
        ),
        "until": col.TextColumn("until", help="The next spec at another stage, and that stage"),
        "origin": col.TextColumn(
            "origin",
            width=column_px(("origin", "client-go")),
            help="Where the binary registers the gate from: kube = the release's own feature list; client-go = "
            "k8s.io/client-go's features, which every kube binary adds to its --feature-gates",
        ),
    })


def gate_table(
    table: pa.Table, key: str, binary: str, emulated: str, height: int = 560, longest_name: int = 0
) -> str | None:
    """Draw the table and its rows as text (:mod:`.table_text`); returns the gate of the selected row, if any.
    The grid is at most ``height`` px tall and no taller than its rows: a short search result shows
    no empty rows below its last one."""
    config = column_config(binary, emulated, is_phone(), longest_name)
    what = f"Feature gates of a {binary} binary" + (f" emulating {emulated}" if emulated != binary else "")
    event = st.dataframe(
        table,
        key=key,
        hide_index=True,
        column_config=config,
        on_select="rerun",
        selection_mode="single-row",
        height=min(height, HEADER_PX + ROW_PX * max(table.num_rows, 1) + 2),
        alt=what,
    )
    table_as_text(
        table,
        "table_text_gates",
        f"{what}: {table.num_rows} rows",
        labels={name: c.get("label") or name for name, c in config.items()},
        words=FLAG_WORDS,
    )
    rows = event.selection.rows if event is not None else []
    if rows and 0 <= rows[0] < table.num_rows:
        return str(table.column("gate")[rows[0]].as_py())
    return None


def metrics_row(metrics: dict[str, int], binary: str, emulated: str) -> None:
    """Enabled, changed vs the binary, not yet introduced (PreAlpha) and locked counts."""
    with st.container(horizontal=True):
        st.metric(
            f"Enabled at {emulated}",
            metrics["enabled"],
            help=f"Gates that end up on with this selection, of the {metrics['gates']} gates the {binary} binary registers.",
        )
        st.metric(
            f"Changed vs {binary}",
            metrics["changed"],
            help=f"Gates whose on/off, stage or lock at {emulated} differ from the {binary} binary without emulation, with the "
            "same --feature-gates: the gates `kcompat changes --against native` lists.",
        )
        st.metric(
            "Not yet introduced",
            metrics["PreAlpha"],
            help=f"Gates the {binary} binary has that do not exist yet at {emulated} (stage PreAlpha in the Kubernetes "
            "code): off, and cannot be set.",
        )
        st.metric("Locked", metrics["locked"], help="Gates locked to their default at the emulated version.")


def gates_panel(sel: Selection, view: GatesView, custom: CustomManifest | None = None) -> None:
    """The whole effective-table widget: metrics, quick filters, the table (a selected row opens
    the gate's detail page) and the downloads: the table as shown (filters and order applied) as
    CSV, Markdown and JSON, and every gate as ``kcompat gates`` prints it. ``view`` is
    :func:`data.gates_view` of ``sel``."""
    metrics_row(dict(view.metrics), sel.binary, view.emulated)
    # after the figures: how the other components take the same flags is a note on the answer
    for line in view.component_differences:
        if is_phone():  # a line, not a box: the table stays near the first screen
            st.caption(f":material/compare_arrows: {md(line)}")
        else:
            st.info(md(line), icon=":material/compare_arrows:")
    if view.components_not_recorded and sel.component != "kube-apiserver":
        st.caption(" ".join(md(line) + "." for line in view.components_not_recorded))
    filters = filter_controls("gates")
    shown = sort_table(filter_table(view.table, filters, data.gate_texts() if filters.text.strip() else None), filters.sort)
    if filters.active:
        st.caption(f"{shown.num_rows} of {view.table.num_rows} gates match the filters")
    if filters.describe and custom is None:
        shown = with_descriptions(shown, sel.binary_version, view.emulated, sel.min_compat)
    generation = st.session_state.setdefault("_gates_table_generation", 0)
    picked = gate_table(shown, f"gates_table_{generation}", sel.binary, view.emulated, longest_name=view.longest_name)
    if picked is not None:
        st.session_state["_gates_table_generation"] = generation + 1
        open_gate(picked)
    table_exports(
        shown,
        shown.column_names,
        f"gates-{sel.binary}-emulating-{view.emulated}-shown.csv",
        "download_open",
        help=f"The {shown.num_rows} gates shown (filters and order applied), with the table's columns, as CSV.",
        source=f"uploaded manifest {custom.name} ({custom.gates} gates)" if custom is not None else None,
        also=lambda: every_gate(sel, custom),
    )
