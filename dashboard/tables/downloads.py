"""Exports of the tables on screen: every table's "Download…" button opens a dialog whose CSV,
Markdown and JSON files hold exactly the rows and columns shown, each starting with a header line
that names the view (the page, the selection, the page's own filters from the URL, the row count
and the data's source); see :mod:`kcompat.documents.exports` for the formats. The export is
built when the dialog opens and each file when its button is clicked (deferred), so a rerun
draws one button per table.

On the Gates page the dialog also offers every gate: the three files ``kcompat gates
--format csv|json|markdown`` prints for the selection, whatever the page's filters."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

import kcompat
from dashboard import data
from dashboard.frame.pages import PAGES, WITHOUT_SELECTION
from dashboard.frame.selection_bar import current
from dashboard.state.selection import Selection, default_min_compat
from dashboard.state.view_state import page_prefixes, page_view
from dashboard.text import MISSING, md
from kcompat.answers.gates import gates_report
from kcompat.core.request import Request
from kcompat.documents import formats
from kcompat.documents.exports import TABLE_FORMATS, header_line, table_text
from kcompat.documents.gates import gates_text

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from dashboard.uploads.custom_manifest import CustomManifest
    from kcompat.data.catalog import Catalog

FORMATS = {"csv": ("CSV", "csv"), "json": ("JSON", "json"), "markdown": ("Markdown", "md")}
#: Widget key suffix of each export button after the table's own key.
KEY_SUFFIX = {"csv": "_csv", "markdown": "_md", "json": "_json"}


def file_name(sel: Selection, fmt: str) -> str:
    return f"gates-{sel.binary}-emulating-{sel.emulated}.{FORMATS[fmt][1]}"


# ---------------------------------------------------------------------------------------------
# Every table: the rows shown, as CSV, Markdown and JSON


@dataclass(frozen=True)
class TableExport:
    """One table's export: its rows (a list of mappings, a pyarrow Table or a pandas DataFrame,
    turned into rows only when a file is asked for), columns, file stem and header line."""

    rows: Any
    columns: tuple[str, ...]
    stem: str
    header: str
    selection: Mapping[str, str] | None = None
    view: Mapping[str, str] = field(default_factory=dict)
    source: str = ""
    as_is: bool = False

    def records(self) -> list[dict[str, Any]]:
        rows = self.rows
        if hasattr(rows, "to_pylist"):  # pyarrow
            rows = rows.to_pylist()
        elif hasattr(rows, "to_dict"):  # pandas
            rows = rows.to_dict("records")
        if self.as_is:
            return [dict(r) for r in rows]
        return [{c: _cell(dict(r).get(c)) for c in self.columns} for r in rows]

    def text(self, fmt: str) -> str:
        """The file in ``fmt`` (``csv``, ``markdown``, ``json``): header line, then the rows."""
        return table_text(fmt, self.records(), self.columns, self.header, self.selection, self.view, self.source)

    def file_name(self, fmt: str) -> str:
        return f"{self.stem}.{TABLE_FORMATS[fmt][1]}"


def _count(rows: Any) -> int:
    return int(rows.num_rows) if hasattr(rows, "num_rows") else len(rows)


def page_title() -> tuple[str | None, str]:
    """(page key, title) of the page being run, from its view's URL prefixes."""
    for prefix in page_prefixes():
        if prefix in PAGES:
            return prefix, PAGES[prefix][1]
    return None, "table"


def selection_items(sel: Selection) -> dict[str, str]:
    """The selection as a header names it (the defaults said as such)."""
    min_compat = sel.min_compat
    if min_compat is None:
        default = default_min_compat(sel.binary, sel.emulated)
        min_compat = f"{default} (default)" if default else "none"
    return {
        "binary": sel.binary_version,
        "emulated": sel.emulated,
        "min compat": min_compat,
        "feature gates": sel.feature_gates or "none",
    }


def data_source(binary: str | None = None) -> str:
    """``bundled data of kcompat 0.2.0 (release 1.36: v1.36.5)``; without a binary, the
    bundled releases' range."""
    version = getattr(kcompat, "__version__", "")
    text = "bundled data of kcompat" + (f" {version}" if version else "")
    try:
        releases = data.summary().releases
    except Exception:  # noqa: BLE001 - no data: say less rather than fail an export
        return text
    if binary is not None:
        info = next((r for r in releases if r.release == binary), None)
        return text + (f" (release {binary}: {info.source_text})" if info is not None else "")
    names = [r.release for r in releases]
    return text + (f" (releases {names[0]} to {names[-1]})" if names else "")


def table_export(
    rows: Any,
    columns: Sequence[str],
    stem: str,
    *,
    as_is: bool = False,
    selection: Mapping[str, str] | None = None,
    source: str | None = None,
) -> TableExport:
    """The export of a table shown on the current page: ``selection`` and ``source`` default to
    the selection bar's (none on a page that does not depend on it) and the bundled data."""
    key, title = page_title()
    sel = None if key in WITHOUT_SELECTION else current()
    if selection is None and sel is not None:
        selection = selection_items(sel)
    if source is None:
        source = data_source(sel.binary if sel is not None else None)
    view = page_view()
    header = header_line(title, selection, view, source, _count(rows))
    return TableExport(rows, tuple(columns), stem, header, selection, view, source, as_is)


def export_buttons(export: TableExport, key: str, help: str | None = None) -> None:
    """The CSV, Markdown and JSON buttons of one table (keys ``key_csv``, ``key_md``, ``key_json``)."""
    columns = ", ".join(export.columns)
    st.caption(f"First line of the Markdown and JSON files: {md(export.header)}  \nThe CSV is the table alone: a spreadsheet reads every line of it as data.")
    with st.container(horizontal=True, gap="small"):
        for fmt, (label, _, mime) in TABLE_FORMATS.items():
            st.download_button(
                label,
                data=functools.partial(export.text, fmt),
                file_name=export.file_name(fmt),
                mime=mime,
                key=key + KEY_SUFFIX[fmt],
                on_click="ignore",
                icon=":material/download:",
                help=(help if fmt == "csv" and help else f"This table as {label} ({columns}).")
                + (" The table alone, no line before it." if fmt == "csv" else " The first line names the view."),
            )


@st.dialog("Download the table", width="large")
def _export_dialog(export: TableExport, key: str, help: str | None, also: Callable[[], None] | None) -> None:
    rows = _count(export.rows)
    st.markdown(f"**The {rows} row{'' if rows == 1 else 's'} shown**, with the columns shown")
    export_buttons(export, key, help)
    if also is not None:
        also()


def table_exports(
    rows: Any,
    columns: Sequence[str],
    file_name: str,
    key: str,
    help: str | None = None,
    *,
    as_is: bool = False,
    selection: Mapping[str, str] | None = None,
    source: str | None = None,
    label: str = "Download…",
    also: Callable[[], None] | None = None,
) -> None:
    """One "Download…" button for a table; it opens a dialog with the table as CSV, Markdown and
    JSON: exactly ``rows`` (the rows shown, in their order) with ``columns``, after the header
    line. ``file_name``'s extension is replaced per format; ``also`` draws more in the dialog.
    The export is built only when the button is clicked: a rerun draws one button per table."""
    if st.button(label, key=key, icon=":material/download:", help="This table as CSV, Markdown or JSON: exactly the rows and "
                 "columns shown, after a line naming the selection, the filters and the data."):
        stem = file_name.rsplit(".", 1)[0] if file_name.endswith((".csv", ".md", ".json")) else file_name
        export = table_export(rows, columns, stem, as_is=as_is, selection=selection, source=source)
        _export_dialog(export, key, help, also)


def table_csv(rows: Any, columns: Sequence[str], file_name: str, key: str, help: str | None = None, *, as_is: bool = False) -> None:
    """A table's "Download…" button (CSV, Markdown, JSON; the name is kept from when there was
    CSV only): its rows with ``columns`` (the CLI's names where the CLI prints the table), written
    like the CLI writes CSV (formula-safe; a missing value is an empty cell, never "None" or "—",
    unless ``as_is``: rows the CLI's own row builder made keep their texts), after the header line."""
    table_exports(rows, columns, file_name, key, help, as_is=as_is)


def csv_text(rows: Iterable[Mapping[str, Any]], columns: Sequence[str], *, as_is: bool = False) -> str:
    """The table part of a :func:`table_csv` CSV file (the lines after the header line)."""
    columns = list(columns)
    if as_is:
        return formats.rows_to_csv([dict(r) for r in rows], columns)
    return formats.rows_to_csv([{c: _cell(dict(r).get(c)) for c in columns} for r in rows], columns)


def _cell(value: object) -> object:
    return None if value == MISSING else value


# ---------------------------------------------------------------------------------------------
# The Gates page: every gate, as `kcompat gates` prints it


def every_gate(sel: Selection, custom: CustomManifest | None = None) -> None:
    """The dialog's second part on Gates: the three files ``kcompat gates`` prints for the
    selection, whatever the filters (``custom``: an uploaded manifest, :class:`upload.CustomManifest`)."""
    st.markdown("**Every gate, as `kcompat gates` prints it**")
    st.caption(
        f"All gates of a {sel.binary} binary emulating {sel.emulated}, with this selection's --feature-gates, whatever "
        "the page's filters; byte for byte what `kcompat gates` prints with the same flags (no header line)."
    )
    args = data.download_args(sel)
    cat = data.catalog()
    with st.container(horizontal=True, gap="small"):
        for fmt, (label, _) in FORMATS.items():
            st.download_button(
                f"{label} (every gate)",
                data=_deferred(cat, fmt, args, custom, sel.component),
                file_name=file_name(sel, fmt),
                mime=data.DOWNLOAD_FORMATS[fmt],
                key=f"download_{fmt}",
                on_click="ignore",
                icon=":material/download:",
                help=f"`kcompat gates --format {fmt}`" + (" (errors and warnings included)" if fmt == "json" else ""),
            )


def _deferred(
    cat: Catalog, fmt: str, args: tuple[str, str, str | None, str], custom: CustomManifest | None, component: str = "kube-apiserver",
) -> Callable[[], str]:
    if custom is None:
        return lambda: gates_text(gates_report(cat, Request.of(*args, component=component)), fmt)
    from dashboard.uploads.custom_manifest import custom_download

    return lambda: custom_download(custom, fmt, args)
