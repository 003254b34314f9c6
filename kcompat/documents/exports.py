"""Chart export as PNG and SVG without a browser or network (vl-convert, with its bundled fonts).

An exported chart is made for documents, not for clicking: it gets a title and a caption (the
selection, the data's provenance), a fixed width, and loses what only the page needs (the
"click to …" hints in legend titles, the label sizes that follow the browser's width)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kcompat.core.errors import KcompatError

EXPORT_WIDTH = 1000
#: A hint about clicking, in a legend or axis title: dropped from exports.
INTERACTIVE_HINT = re.compile(r"\s*\((?:click|double-click|hover)[^)]*\)")
#: Fixed values of properties the page computes from the browser's width (``containerSize()``).
EXPORT_FIXED = {"labelLimit": 0, "labelFontSize": 11}


def _static(node: Any) -> Any:
    """The spec without interactive hints and with browser-width expressions fixed."""
    if isinstance(node, dict):
        out = {}
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


def export_spec(chart: Any, title: str | None = None, caption: Sequence[str] = ()) -> dict:
    """The Vega-Lite spec of an exported chart: fixed width, ``title`` with ``caption`` lines under
    it (default: the chart's ``usermeta`` ``title``/``caption``), no interactive hints."""
    spec = chart.to_dict() if hasattr(chart, "to_dict") else dict(chart)
    meta = spec.get("usermeta") or {}
    title = title or meta.get("title")
    caption = [c for c in (caption or meta.get("caption") or ()) if c]
    spec = _static(spec)
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
