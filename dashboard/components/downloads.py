"""Downloads of the gate table: the same texts ``kcompat gates --format csv|json|markdown``
prints. One "Download…" button opens a dialog with the three files; each text is produced when
its button is clicked (deferred), so an ordinary rerun renders one button only."""

from __future__ import annotations

import streamlit as st

from kcompat.documents import formats
from kcompat.answers.gates import gates
from kcompat.documents.gates import gates_text

from . import data
from .state import Selection
from .text import MISSING

FORMATS = {"csv": ("CSV", "csv"), "json": ("JSON", "json"), "markdown": ("Markdown", "md")}


def file_name(sel: Selection, fmt: str) -> str:
    return f"gates-{sel.binary}-emulating-{sel.emulated}.{FORMATS[fmt][1]}"


def gate_downloads(sel: Selection, custom=None) -> None:
    """The "Download…" button (``custom``: an uploaded manifest, :class:`upload.CustomManifest`)."""
    if st.button(
        "Download…",
        key="download_open",
        icon=":material/download:",
        help="Every gate of this selection as CSV, JSON or Markdown: the same files `kcompat gates --format …` writes.",
    ):
        _dialog(sel, custom)


@st.dialog("Download the gate table")
def _dialog(sel: Selection, custom) -> None:
    st.caption(
        f"All gates of a {sel.binary} binary emulating {sel.emulated}, with this selection's --feature-gates; "
        "byte for byte what `kcompat gates` prints with the same flags."
    )
    args = data.download_args(sel)
    cat = data.catalog()
    for fmt, (label, _) in FORMATS.items():
        st.download_button(
            label,
            data=_deferred(cat, fmt, args, custom),
            file_name=file_name(sel, fmt),
            mime=data.DOWNLOAD_FORMATS[fmt],
            key=f"download_{fmt}",
            on_click="ignore",
            icon=":material/download:",
            width="stretch",
            help=f"`kcompat gates --format {fmt}`" + (" (errors and warnings included)" if fmt == "json" else ""),
        )


def _deferred(cat, fmt: str, args, custom):
    if custom is None:
        return lambda: gates_text(gates(cat, *args), fmt)
    from .upload import custom_download

    return lambda: custom_download(custom, fmt, args)


def table_csv(rows, columns, file_name: str, key: str, help: str | None = None, *, as_is: bool = False) -> None:
    """One small "CSV" button for a table: its rows with ``columns`` (the CLI's names where the
    CLI prints the table), written like the CLI writes CSV (formula-safe; a missing value is an
    empty cell, never "None" or "—", unless ``as_is``: rows the CLI's own row builder made keep
    their texts). Produced only when clicked."""
    rows = [dict(r) for r in rows]
    columns = list(columns)
    st.download_button(
        "CSV", data=lambda: csv_text(rows, columns, as_is=as_is), file_name=file_name, mime="text/csv", key=key, on_click="ignore",
        icon=":material/download:", help=help or f"This table as CSV ({', '.join(columns)}).",
    )


def csv_text(rows, columns, *, as_is: bool = False) -> str:
    """The text of a :func:`table_csv` button."""
    columns = list(columns)
    if as_is:
        return formats.rows_to_csv([dict(r) for r in rows], columns)
    return formats.rows_to_csv([{c: _cell(dict(r).get(c)) for c in columns} for r in rows], columns)


def _cell(value):
    return None if value == MISSING else value
