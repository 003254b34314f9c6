"""A table as text: the rows of a data grid as a plain HTML ``<table>``.

The data grids (``st.dataframe``) draw on a canvas: a screen reader, an accessibility checker or
a text search of the page sees only the rows the grid has in view, if any. Under each main grid a
closed "Table as text" expander holds the same rows as a ``<table>`` with a caption, column headers
(``scope="col"``) and the key column as row headers (``scope="row"``). The table is built only
while the expander is open (it reruns the page when opened), so a closed one costs nothing.

Every value is escaped (:func:`html.escape`); nothing from the data becomes markup.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

import pyarrow as pa
import streamlit as st

from .text import MISSING

LABEL = "Table as text"


def cell_text(value: object, words: tuple[str, str] | None = None) -> str:
    """A cell as the grid shows it: booleans as ``words`` (default on / off), no value as "—"."""
    if value is None or value == "":
        return MISSING
    if isinstance(value, bool):
        yes, no = words or ("on", "off")
        return yes if value else no
    return str(value)


def html_table(
    table: pa.Table,
    caption: str,
    labels: Mapping[str, str] | None = None,
    words: Mapping[str, tuple[str, str]] | None = None,
) -> str:
    """``table`` as an HTML table: the first column as row headers, ``labels`` for the column
    headers (default: the column names), ``words`` for boolean columns (default: on / off)."""
    labels = labels or {}
    words = words or {}
    names = table.column_names
    esc = html.escape
    head = "".join(f'<th scope="col">{esc(labels.get(n, n))}</th>' for n in names)
    columns = [table.column(n).to_pylist() for n in names]
    body = []
    for row in zip(*columns, strict=True):
        cells = [esc(cell_text(v, words.get(n))) for n, v in zip(names, row, strict=True)]
        body.append(f'<tr><th scope="row">{cells[0]}</th>' + "".join(f"<td>{c}</td>" for c in cells[1:]) + "</tr>")
    return (
        # A scrolling box: focusable, so a keyboard can scroll it; named after the table.
        f'<div class="kc-table-text" tabindex="0" role="region" aria-label="{esc(caption)}">'
        f"<table><caption>{esc(caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def table_as_text(
    table: pa.Table,
    key: str,
    caption: str,
    labels: Mapping[str, str] | None = None,
    words: Mapping[str, tuple[str, str]] | None = None,
) -> None:
    """The "Table as text" expander of a grid (``key``: its widget key, unique on the page)."""
    with st.expander(LABEL, key=key, on_change="rerun", icon=":material/table_rows:"):
        if st.session_state.get(key):
            st.html(html_table(table, caption, labels, words))
