"""A table as text: the rows of a data grid as a plain HTML ``<table>``.

The data grids (``st.dataframe``) draw on a canvas: a screen reader, an accessibility checker or
a text search of the page sees only the rows the grid has in view, if any. Under each main grid a
closed "Table as text" expander holds the same rows as a ``<table>`` with a caption, column headers
(``scope="col"``) and the key column as row headers (``scope="row"``). The table is built only
while the expander is open (it reruns the page when opened), so a closed one costs nothing.

The rows are an Arrow table, a pandas DataFrame or a function returning one (called only while
open). Every value is escaped (:func:`html.escape`); nothing from the data becomes markup.

:func:`flag_column` is the grids' read-only boolean column: words in the normal text colour, where
a read-only checkbox column looks like a disabled control.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import pyarrow as pa
import streamlit as st

from dashboard.text import MISSING

LABEL = "Table as text"

#: Rows of a grid: an Arrow table or a pandas DataFrame (anything with ``columns`` and ``iloc``).
Rows = Any


def flag_column(
    label: str, help: str | None, words: tuple[str, str], width: int | Literal["small", "medium", "large"] | None = None
) -> Any:
    """A read-only boolean column shown as words (``on`` / ``off``) in the normal text colour: a
    read-only checkbox column draws its boxes in the faded colour of a disabled control. The
    values stay booleans (sorting, selection and the tests read them as such); no value stays empty."""
    return st.column_config.SelectboxColumn(
        label, help=help, width=width, options=(True, False), format_func=lambda v: words[0] if v else words[1]
    )


def config_labels(config: Mapping[str, Any]) -> dict[str, str]:
    """The column headers a grid's ``column_config`` gives (a label, or a column's ``label``)."""
    labels = {}
    for name, c in config.items():
        label = c if isinstance(c, str) else (c.get("label") if isinstance(c, Mapping) else None)
        if label:
            labels[name] = label
    return labels


def cell_text(value: object, words: tuple[str, str] | None = None) -> str:
    """A cell as the grid shows it: booleans as ``words`` (default on / off), no value as "—"."""
    if value is None or (isinstance(value, str) and value == "") or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if isinstance(value, bool):
        yes, no = words or ("on", "off")
        return yes if value else no
    return str(value)


def _columns(table: Rows) -> tuple[list[str], list[list[Any]]]:
    """Column names and values (plain Python objects, None for no value) of an Arrow table or a DataFrame."""
    if isinstance(table, pa.Table):
        names = table.column_names
        return names, [table.column(n).to_pylist() for n in names]
    names, columns = [], []
    for i, name in enumerate(table.columns):
        series = table.iloc[:, i]
        names.append(str(name))
        columns.append([None if _missing(v) else v for v in series.astype(object).tolist()])
    return names, columns


def _missing(value: object) -> bool:
    try:
        return value is None or bool(value != value)  # NaN, NaT and pd.NA are not equal to themselves
    except (TypeError, ValueError):
        return True  # pd.NA: its truth value is ambiguous


def html_table(
    table: Rows,
    caption: str,
    labels: Mapping[str, str] | None = None,
    words: Mapping[str, tuple[str, str]] | None = None,
    row_header: str | None = None,
) -> str:
    """``table`` as an HTML table: ``row_header`` (default: the first column) as row headers,
    ``labels`` for the column headers (default: the column names), ``words`` for boolean columns
    (default: on / off)."""
    labels = labels or {}
    words = words or {}
    names, columns = _columns(table)
    key = names.index(row_header) if row_header in names else 0
    esc = html.escape
    head = "".join(f'<th scope="col">{esc(labels.get(n, n))}</th>' for n in names)
    body = []
    for row in zip(*columns, strict=True):
        cells = [esc(cell_text(v, words.get(n))) for n, v in zip(names, row, strict=True)]
        body.append(
            "<tr>" + "".join(f'<th scope="row">{c}</th>' if i == key else f"<td>{c}</td>" for i, c in enumerate(cells)) + "</tr>"
        )
    return (
        # A scrolling box: focusable, so a keyboard can scroll it; named after the table.
        f'<div class="kc-table-text" tabindex="0" role="region" aria-label="{esc(caption)}">'
        f"<table><caption>{esc(caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


@dataclass(frozen=True)
class TextTable:
    """One grid's rows for :func:`tables_as_text`; ``rows`` may be a function (called only while open)."""

    rows: Rows | Callable[[], Rows]
    caption: str
    labels: Mapping[str, str] | None = None
    words: Mapping[str, tuple[str, str]] | None = None
    row_header: str | None = None

    def html(self) -> str:
        rows = self.rows() if callable(self.rows) else self.rows
        return html_table(rows, self.caption, self.labels, self.words, self.row_header)


def tables_as_text(key: str, tables: Sequence[TextTable]) -> None:
    """One "Table as text" expander holding several grids' rows (``key``: its widget key, unique on
    the page), for grids that sit inside an expander of their own (expanders do not nest)."""
    with st.expander(LABEL, key=key, on_change="rerun", icon=":material/table_rows:"):
        if st.session_state.get(key):
            for t in tables:
                st.html(t.html())


def table_as_text(
    table: Rows | Callable[[], Rows],
    key: str,
    caption: str,
    labels: Mapping[str, str] | None = None,
    words: Mapping[str, tuple[str, str]] | None = None,
    row_header: str | None = None,
) -> None:
    """The "Table as text" expander of a grid (``key``: its widget key, unique on the page)."""
    tables_as_text(key, (TextTable(table, caption, labels, words, row_header),))
