"""Exports made for documents: tables as CSV, Markdown or JSON with a header line naming the
view, and charts as PNG and SVG without a browser or network (vl-convert, with its bundled fonts).

An exported table is exactly the rows and columns a view shows; the Markdown and JSON files also
say which view: the page, the selection, the page's own filters, the row count and the data's
source (:func:`header_line`). Per format:

* CSV: the table alone, as ``kcompat --format csv`` writes tables
  (:func:`kcompat.documents.formats.rows_to_csv`): a spreadsheet reads every line of a CSV as
  data (a ``# kcompat …`` comment line became its first row), so the provenance is in the other
  two formats and in the download dialog.
* Markdown: the header as a line of (escaped) text, a blank line, then the table: the header is
  never read as a table row.
* JSON: one object whose first key is ``header`` (the same line), then ``selection``, ``view``,
  ``source``, ``columns`` and ``rows`` (one object per row, JSON values: true/false, numbers,
  null for a missing value).

An exported chart is made for documents, not for clicking: it gets a title and a caption (the
selection, the data's provenance), a fixed width, and loses what only the page needs (the
"click to …" hints in legend titles, the label sizes that follow the browser's width)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from kcompat.core.errors import KcompatError, cut, printable

from .formats import md_escape, rows_to_csv, rows_to_markdown, to_json

#: Table export formats: format -> (button label, file extension, MIME type).
TABLE_FORMATS = {
    "csv": ("CSV", "csv", "text/csv"),
    "markdown": ("Markdown", "md", "text/markdown"),
    "json": ("JSON", "json", "application/json"),
}
#: Longest value written into a header line (a long --feature-gates or --runtime-config is cut,
#: with its length); the JSON export's ``selection`` and ``view`` keep the whole values.
HEADER_VALUE_LIMIT = 300
#: What the header says for a page whose answer does not depend on the selection.
NO_SELECTION = "none (this page does not depend on it)"


def _pairs(items: Mapping[str, str] | Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    return list(items.items()) if isinstance(items, Mapping) else list(items)


def header_line(
    page: str,
    selection: Mapping[str, str] | Sequence[tuple[str, str]] | None,
    view: Mapping[str, str] | Sequence[tuple[str, str]],
    source: str,
    rows: int,
) -> str:
    """One line naming a table's view: ``kcompat Gates · selection: binary 1.36; emulated 1.33;
    min compat 1.32 (default); feature gates none · view: gates_text=Job · 6 rows · data: …``.
    ``selection`` None: a page that does not depend on it. Values are cut to
    :data:`HEADER_VALUE_LIMIT` characters; control characters are written as escapes, so the
    line stays one line."""
    if selection is None:
        chosen = NO_SELECTION
    else:
        chosen = "; ".join(f"{name} {cut(value, HEADER_VALUE_LIMIT)}" for name, value in _pairs(selection))
    filters = "; ".join(f"{name}={cut(value, HEADER_VALUE_LIMIT)}" for name, value in _pairs(view)) or "no filter"
    line = f"kcompat {page} · selection: {chosen} · view: {filters} · {rows} row{'' if rows == 1 else 's'} · data: {source}"
    return printable(line)


def _json_value(value: object) -> object:
    """A cell as a JSON value: NaN (a missing number in a data frame) is null; numpy scalars
    become Python ones; anything else that is not a JSON type is its text."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    item = getattr(value, "item", None)
    if callable(item):
        return _json_value(item())
    return str(value)


def table_text(
    fmt: str,
    rows: Sequence[Mapping[str, object]],
    columns: Sequence[str],
    header: str,
    selection: Mapping[str, str] | None = None,
    view: Mapping[str, str] | None = None,
    source: str = "",
) -> str:
    """The export of ``rows`` (with ``columns``, in that order) in ``fmt`` (:data:`TABLE_FORMATS`):
    the Markdown and JSON files start with ``header`` (:func:`header_line`), the CSV is the table alone."""
    columns = list(columns)
    header = printable(header)
    if fmt == "csv":
        return rows_to_csv(rows, columns)
    if fmt == "markdown":
        return md_escape(header) + "\n\n" + rows_to_markdown(rows, columns)
    if fmt == "json":
        return to_json(
            {
                "header": header,
                "selection": dict(selection) if selection is not None else None,
                "view": dict(view or {}),
                "source": source,
                "columns": columns,
                "rows": [{c: _json_value(row.get(c)) for c in columns} for row in rows],
            }
        )
    raise KcompatError(f"unknown export format {fmt!r}: one of {', '.join(TABLE_FORMATS)}")

EXPORT_WIDTH = 1000
#: A hint about clicking, in a legend or axis title: dropped from exports.
INTERACTIVE_HINT = re.compile(r"\s*\((?:click|double-click|hover)[^)]*\)")
#: Fixed values of properties the page computes from the browser's width (``containerSize()``).
EXPORT_FIXED = {"labelLimit": 0, "labelFontSize": 11}


def _static(node: Any) -> Any:
    """The spec without interactive hints and with browser-width expressions fixed."""
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in EXPORT_FIXED and isinstance(value, dict) and "containerSize" in str(value.get("expr", "")):
                out[key] = EXPORT_FIXED[key]
            elif key == "title" and isinstance(value, str):
                out[key] = INTERACTIVE_HINT.sub("", value)
            else:
                out[key] = _static(value)
        return out
    if isinstance(node, list):
        return [_static(v) for v in node]
    return node


def export_spec(chart: Any, title: str | None = None, caption: Sequence[str] = ()) -> dict[str, Any]:
    """The Vega-Lite spec of an exported chart: fixed width, ``title`` with ``caption`` lines under
    it (default: the chart's ``usermeta`` ``title``/``caption``), no interactive hints."""
    drawn: dict[str, Any] = chart.to_dict() if hasattr(chart, "to_dict") else dict(chart)
    meta = drawn.get("usermeta") or {}
    title = title or meta.get("title")
    caption = [c for c in (caption or meta.get("caption") or ()) if c]
    spec: dict[str, Any] = _static(drawn)
    if spec.get("width") == "container":
        spec["width"] = EXPORT_WIDTH
    if title:
        spec["title"] = {
            "text": title,
            "subtitle": list(caption),
            "anchor": "start",
            "fontSize": 16,
            "subtitleFontSize": 12,
            "subtitlePadding": 4,
            "offset": 12,
        }
    return spec


def chart_svg(chart: Any, title: str | None = None, caption: Sequence[str] = ()) -> bytes:
    """The chart as an SVG document."""
    import vl_convert as vlc

    try:
        return vlc.vegalite_to_svg(export_spec(chart, title, caption)).encode("utf-8")
    except ValueError as exc:
        raise KcompatError(f"the chart could not be rendered as SVG: {exc}") from None


def chart_png(chart: Any, scale: float = 2.0, title: str | None = None, caption: Sequence[str] = ()) -> bytes:
    """The chart as a PNG image (scale 2 for sharp screenshots in docs)."""
    import vl_convert as vlc

    try:
        return vlc.vegalite_to_png(export_spec(chart, title, caption), scale=scale)
    except ValueError as exc:
        raise KcompatError(f"the chart could not be rendered as PNG: {exc}") from None
