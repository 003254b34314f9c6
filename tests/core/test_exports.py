"""Chart export without a browser or network."""

import altair as alt
import pandas as pd

from dashboard.exports import chart_png, chart_svg


def _chart():
    df = pd.DataFrame({"gate": ["JobManagedBy", "KMSv1"], "start": [1.30, 1.28], "end": [1.32, 1.29]})
    return alt.Chart(df).mark_bar().encode(x="start:Q", x2="end:Q", y="gate:N")


def test_png_export_is_a_png_with_the_chart_size():
    data = chart_png(_chart())
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_svg_export_contains_the_text_as_text():
    svg = chart_svg(_chart()).decode()
    assert svg.startswith("<svg") and "JobManagedBy" in svg
