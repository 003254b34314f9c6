"""Chart export as PNG and SVG without a browser or network (vl-convert, with its bundled fonts)."""

from __future__ import annotations

from typing import Any

from .core.errors import KcompatError


EXPORT_WIDTH = 1000


def _spec(chart: Any) -> dict:
    """The Vega-Lite spec; a width that follows the page ("container") gets a fixed export width."""
    spec = chart.to_dict() if hasattr(chart, "to_dict") else dict(chart)
    if spec.get("width") == "container":
        spec = {**spec, "width": EXPORT_WIDTH}
    return spec


def chart_svg(chart: Any) -> bytes:
    """The chart as an SVG document."""
    import vl_convert as vlc

    try:
        return vlc.vegalite_to_svg(_spec(chart)).encode("utf-8")
    except ValueError as exc:
        raise KcompatError(f"the chart could not be rendered as SVG: {exc}") from None


def chart_png(chart: Any, scale: float = 2.0) -> bytes:
    """The chart as a PNG image (scale 2 for sharp screenshots in docs)."""
    import vl_convert as vlc

    try:
        return vlc.vegalite_to_png(_spec(chart), scale=scale)
    except ValueError as exc:
        raise KcompatError(f"the chart could not be rendered as PNG: {exc}") from None
