"""PNG and SVG downloads of a chart, rendered on the server without a browser or network
(vl-convert with its bundled fonts). Each file is produced only when its button is clicked."""

from __future__ import annotations

import streamlit as st

from dashboard.exports import chart_png, chart_svg


def chart_downloads(chart, name: str, key: str) -> None:
    """Two small buttons under a chart: ``<name>.png`` and ``<name>.svg``."""
    spec = chart.to_dict()  # plain data: the deferred callables must not touch Streamlit
    png, svg = st.columns(2, width=320)
    png.download_button(
        "PNG", data=lambda: chart_png(spec), file_name=f"{name}.png", mime="image/png", key=f"{key}_png",
        on_click="ignore", icon=":material/image:", help="The chart as a PNG image (rendered on the server, 2x scale).",
    )
    svg.download_button(
        "SVG", data=lambda: chart_svg(spec), file_name=f"{name}.svg", mime="image/svg+xml", key=f"{key}_svg",
        on_click="ignore", icon=":material/draw:", help="The chart as an SVG document (text stays text).",
    )
