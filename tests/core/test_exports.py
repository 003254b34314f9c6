"""Chart export without a browser or network."""

import altair as alt
import pandas as pd

from kcompat.documents.exports import chart_png, chart_svg


def _chart():
    df = pd.DataFrame({"gate": ["JobManagedBy", "KMSv1"], "start": [1.30, 1.28], "end": [1.32, 1.29]})
    return alt.Chart(df).mark_bar().encode(x="start:Q", x2="end:Q", y="gate:N")


def test_png_export_is_a_png_with_the_chart_size():
    data = chart_png(_chart())
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_svg_export_contains_the_text_as_text():
    svg = chart_svg(_chart()).decode()
    assert svg.startswith("<svg") and "JobManagedBy" in svg


# ---------------------------------------------------------------------------------------------
# Exports made for documents: title, caption, no interactive hints, nothing cut off.

import re  # noqa: E402

from dashboard.charts.specs import CLICK_HINT, default_x_start, timeline_chart  # noqa: E402
from kcompat.core.gate_history import timeline_segments  # noqa: E402
from kcompat.core.versions import parse_version as V  # noqa: E402
from kcompat.documents.exports import EXPORT_WIDTH, export_spec  # noqa: E402

LONGEST = "MutableSchedulingDirectivesForSuspendedJobs"

def svg_texts(svg: str) -> list[str]:
    """Every line of text in an SVG (a multi-line title is one <text> with a <tspan> per line)."""
    out = []
    for body in re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S):
        lines = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", body) or [body]
        out += [line.replace("&apos;", "'").replace("&#39;", "'").replace("&amp;", "&") for line in lines]
    return out



def _timeline(catalog, needle="Job"):
    segments = tuple(s for s in timeline_segments(catalog.manifest("1.36"), V("1.37")) if needle in s.gate)
    return timeline_chart(segments, V("1.36"), V("1.33"), x_start=default_x_start(segments, V("1.36")))


def test_export_spec_has_title_caption_and_no_hints(catalog):
    chart = _timeline(catalog)
    assert CLICK_HINT in str(chart.to_dict())  # the page's legend says how to use it
    spec = export_spec(chart, "Stage history", ["A 1.36 binary emulating 1.33", "Data: bundled"])
    assert spec["title"]["text"] == "Stage history"
    assert spec["title"]["subtitle"] == ["A 1.36 binary emulating 1.33", "Data: bundled"]
    assert spec["layer"][0]["encoding"]["color"]["legend"]["title"] == "stage"
    assert spec["width"] == EXPORT_WIDTH
    axis = spec["layer"][0]["encoding"]["y"]["axis"]
    assert axis["labelLimit"] == 0 and axis["labelFontSize"] == 12  # no cut-off names, a fixed size (the page's 12 px)


def test_export_falls_back_to_the_charts_own_title(catalog):
    spec = export_spec(_timeline(catalog))
    assert spec["title"]["text"] == "Stage history of the 1.36 binary's gates"


def test_exported_svg_carries_title_caption_and_whole_gate_names(catalog):
    svg = chart_svg(_timeline(catalog), title="Stage history of the 1.36 binary's gates",
                    caption=["A 1.36 binary emulating 1.33; 8 of 230 gates"]).decode()
    texts = svg_texts(svg)
    assert "Stage history of the 1.36 binary's gates" in texts
    assert any("A 1.36 binary emulating 1.33" in t for t in texts)
    assert LONGEST in texts  # the whole name, not "MutableScheduling…"
    assert not any("…" in t for t in texts)
    assert not any("click" in t for t in texts)
    # The axis fits the rows shown: the Job gates begin at 1.28, not at the 1.24 of all gates.
    assert "1.28" in texts and "1.24" not in texts
