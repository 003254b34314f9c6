"""PNG and SVG downloads of a chart, rendered on the server without a browser or network
(vl-convert with its bundled fonts). Each file is produced only when its button is clicked.

Exported charts carry a title and a caption: what is selected and where the data comes from
(:func:`selection_caption`, :func:`provenance`); see :func:`kcompat.documents.exports.export_spec`."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import streamlit as st

import kcompat
from dashboard import data
from dashboard.server.internals import altair_lock
from dashboard.state.selection import Selection
from kcompat.documents.exports import chart_png, chart_svg

#: The lock Streamlit holds while it changes Altair's process-wide settings to draw a chart
#: (``st.altair_chart`` enables a data transformer that moves every chart's data into *that*
#: call's dataset dict, and the "none" theme); without it (another version) a lock of our own
#: still keeps our conversions apart (:func:`dashboard.server.internals.altair_lock`).
_ALTAIR_GLOBALS: threading.Lock = altair_lock()


def vega_lite_spec(chart: Any) -> dict[str, Any]:
    """``chart.to_dict()`` while no other session's ``st.altair_chart`` has Altair's global settings
    changed. Unlocked, a conversion in one session's thread that ran while another drew a chart
    sent its data into the other session's datasets (its own spec kept a name without data) and
    could make that session fail with "dictionary changed size during iteration"."""
    if not hasattr(chart, "to_dict"):
        return dict(chart)
    with _ALTAIR_GLOBALS:
        spec: dict[str, Any] = chart.to_dict()
    return spec


def selection_caption(sel: Selection, shown: str = "") -> str:
    """``A 1.36 binary emulating 1.33 (min compatibility 1.32), --feature-gates=…; <shown>``."""
    text = f"A {sel.binary} binary " + (f"emulating {sel.emulated}" if sel.is_emulating else "not emulating")
    if sel.min_compat:
        text += f" with --min-compatibility-version={sel.min_compat}"
    if sel.feature_gates:
        text += f", --feature-gates={sel.feature_gates}"
    return text + (f"; {shown}" if shown else "")


def provenance(releases: Sequence[str] = ()) -> str:
    """Where the chart's data comes from: the bundled releases used, each with the patch it was read from."""
    try:
        infos = {r.release: r for r in data.summary().releases}
    except Exception:  # noqa: BLE001 - no data: say less rather than fail an export
        infos = {}
    used = list(releases) or list(infos)
    kinds = ", ".join(f"{r} {infos[r].source_text}" for r in used if r in infos)
    version = getattr(kcompat, "__version__", "")
    return (
        "Data: Kubernetes feature-gate manifests (versioned_feature_list.yaml) bundled with kcompat"
        + (f" {version}" if version else "")
        + (f" ({kinds})" if kinds else "")
        + "; provenance in data/SOURCES.md."
    )


def chart_downloads(
    chart: Any,
    name: str,
    key: str,
    title: str | None = None,
    caption: str | Sequence[str] = (),
    releases: Sequence[str] = (),
) -> None:
    """Two small buttons under a chart (an Altair chart or its Vega-Lite spec): ``<name>.png`` and
    ``<name>.svg``, titled ``title`` (default: the chart's ``usermeta`` title) with ``caption`` and
    the data's provenance under it."""
    # plain data: the deferred callables must not touch Streamlit
    spec = vega_lite_spec(chart)
    lines = [caption] if isinstance(caption, str) else list(caption)
    if not lines:
        lines = list((spec.get("usermeta") or {}).get("caption") or ())
    lines.append(provenance(releases))
    png, svg = st.columns(2, width=320)
    png.download_button(
        "PNG", data=lambda: chart_png(spec, title=title, caption=lines), file_name=f"{name}.png", mime="image/png",
        key=f"{key}_png", on_click="ignore", icon=":material/image:",
        help="The chart as a PNG image (rendered on the server, 2x scale), with a title, the selection and the data's provenance.",
    )
    svg.download_button(
        "SVG", data=lambda: chart_svg(spec, title=title, caption=lines), file_name=f"{name}.svg", mime="image/svg+xml",
        key=f"{key}_svg", on_click="ignore", icon=":material/draw:",
        help="The chart as an SVG document (text stays text), with a title, the selection and the data's provenance.",
    )
