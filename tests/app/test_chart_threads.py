"""Charts converted in many sessions' threads at once: ``st.altair_chart`` changes Altair's
process-wide settings while it converts a chart (a data transformer that moves the chart's data
into that call's own dict, and the "none" theme). A conversion of ours in another thread at that
moment (the PNG/SVG export's spec, the timeline's blocks) lost its data to the other session and
could make the other session fail ("dictionary changed size during iteration"): the matrix page
draws two charts and converts both for their exports, which is how one of 30 sessions opening
it at once once showed "This app has encountered an error". Our conversions take Streamlit's lock."""

from __future__ import annotations

import sys
import threading

import pandas as pd
import pytest
from streamlit.elements import vega_charts

from dashboard.components.chart_export import vega_lite_spec
from dashboard.components.charts import stage_counts_chart

ROUNDS = 60


@pytest.fixture
def fast_switching():
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(before)


def _chart(n: int):
    counts = pd.DataFrame(
        [{"release": f"1.{31 + r}", "stage": s, "gates": n + r, "stage_rank": i} for r in range(6) for i, s in enumerate(("ALPHA", "BETA", "GA"))]
    )
    return stage_counts_chart(counts)


def test_exports_keep_their_data_while_other_sessions_draw_charts(fast_switching):
    errors: list[BaseException] = []
    lost: list[int] = []
    start = threading.Barrier(8)

    def drawing() -> None:  # what st.altair_chart does in another session's thread
        start.wait()
        try:
            for i in range(ROUNDS):
                vega_charts._convert_altair_to_vega_lite_spec(_chart(i))  # noqa: SLF001
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def exporting() -> None:  # chart_downloads / the timeline in this session's thread
        start.wait()
        try:
            for i in range(ROUNDS):
                spec = vega_lite_spec(_chart(i))
                rows = [row for values in (spec.get("datasets") or {}).values() for row in values]
                if len(rows) != 18 or not all(isinstance(row, dict) for row in rows):
                    lost.append(i)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=drawing if i % 2 else exporting) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors, errors
    assert not lost, f"{len(lost)} of {4 * ROUNDS} exported specs lost their data to another thread's chart"
