"""Benchmark: the Gates page rerun after changing the emulated version, against a floor.

Floor: a bare Streamlit script, the same interaction: an "Emulated version" selectbox over a
precomputed 250-row, 7-column table (``st.dataframe``); each rerun follows a change of the
selectbox, as on the page. Both are driven by ``streamlit.testing.v1.AppTest`` in one process,
interleaved; the medians and their ratio are printed (target: ratio <= 1.5). ``--table-only``:
the floor without the selectbox (the figures written before the selectbox was added).
``--same-widgets``: the floor has the page's inputs too (five selectboxes, two text inputs, the
pills, two buttons and the order selectbox, keyed as on the page, over the same table): what
Streamlit itself costs for what the page asks of it, so the ratio is the page's own code.

    .venv/bin/python bench/bench_gates_page.py [--runs 60] [--rounds 3] [--table-only | --same-widgets]
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

APP = ROOT / "dashboard" / "app.py"
TIMEOUT = 60


def floor_script(table, selectbox: bool = True) -> None:
    import streamlit as st

    if selectbox:
        st.selectbox("Emulated version", ["1.33", "1.34", "1.35", "1.36"], key="v")
    st.dataframe(table)


def widgets_floor_script(table) -> None:
    """The page's inputs, keyed, around the same table: Streamlit's own cost of the page."""
    import streamlit as st

    versions = ["1.33", "1.34", "1.35", "1.36"]
    st.selectbox("Component", ["kube-apiserver", "kube-controller-manager", "kube-scheduler"], key="c")
    st.selectbox("Binary release", versions, key="b")
    st.selectbox("Patch", ["", "0", "1"], key="p")
    st.selectbox("Emulated version", versions, key="v")
    st.selectbox("Min compatibility version", versions, key="m")
    st.text_input("--feature-gates", key="f")
    st.pills("Quick filters", ["Alpha", "Beta", "GA", "Deprecated", "on", "off", "changed", "locked"], selection_mode="multi", key="q")
    st.text_input("Search", key="t")
    st.selectbox("Order", ["gate", "stage", "changed first"], key="o")
    st.dataframe(table, key="d", on_select="rerun", selection_mode="single-row")
    st.button("Custom manifest…", key="x")
    st.button("Download", key="y")


def floor_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "gate": [f"FeatureGateNumber{i:03d}" for i in range(250)],
            "enabled": [i % 2 == 0 for i in range(250)],
            "stage": [("Alpha", "Beta", "GA", "Deprecated")[i % 4] for i in range(250)],
            "default": [i % 3 == 0 for i in range(250)],
            "locked": [i % 5 == 0 for i in range(250)],
            "binary_stage": [("Beta", "GA")[i % 2] for i in range(250)],
            "changed": [i % 7 == 0 for i in range(250)],
        }
    )


def timed_run(at: AppTest) -> float:
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    if at.exception:
        raise SystemExit(f"the script failed: {at.exception[0].value}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60, help="timed reruns per side and round (default 60)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the figures are medians over all reruns (default 3)")
    parser.add_argument("--table-only", action="store_true", help="the floor without its selectbox")
    parser.add_argument("--same-widgets", action="store_true", help="the floor with the page's inputs too")
    args = parser.parse_args()
    os.chdir(ROOT)  # read the project's .streamlit/config.toml, as `streamlit run` from the root does

    if args.same_widgets:
        floor = AppTest.from_function(widgets_floor_script, args=(floor_table(),), default_timeout=TIMEOUT)
    else:
        floor = AppTest.from_function(floor_script, args=(floor_table(), not args.table_only), default_timeout=TIMEOUT)
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    app.query_params["binary"] = "1.36"
    app.query_params["emulated"] = "1.36"
    cycle = itertools.cycle(["1.33", "1.34", "1.35", "1.36"])
    floor_cycle = itertools.cycle(["1.33", "1.34", "1.35", "1.36"])

    def page_rerun() -> float:
        app.selectbox(key="sel_emulated").set_value(next(cycle))
        return timed_run(app)

    def floor_rerun() -> float:
        if not args.table_only:
            floor.selectbox(key="v").set_value(next(floor_cycle))
        return timed_run(floor)

    floor.run()
    app.run()
    for _ in range(8):  # warm-up: every emulated version twice (caches filled, code paths warm)
        floor_rerun()
        page_rerun()
    floor_times, page_times = [], []
    for round_no in range(1, args.rounds + 1):
        floor_round, page_round = [], []
        for _ in range(args.runs):  # interleaved, so both sides see the same machine load
            floor_round.append(floor_rerun())
            page_round.append(page_rerun())
        f, p = statistics.median(floor_round), statistics.median(page_round)
        print(f"round {round_no}: floor {f * 1000:.2f} ms, page {p * 1000:.2f} ms, ratio {p / f:.2f}")
        floor_times += floor_round
        page_times += page_round
    rows = len(app.dataframe[0].value)
    assert app.query_params.get("emulated") in {"1.33", "1.34", "1.35", "1.36"}

    floor_median = statistics.median(floor_times)
    page_median = statistics.median(page_times)
    total = args.runs * args.rounds
    what = "st.dataframe of a precomputed 250x7 table" + (
        " with the page's inputs, its emulated version changed before each rerun" if args.same_widgets
        else "" if args.table_only else " under a selectbox, changed before each rerun"
    )
    print(f"floor: {what}, {total} reruns: median {floor_median * 1000:.2f} ms")
    print(
        f"Gates page ({rows} gates), emulated version changed before each rerun, {total} reruns: "
        f"median {page_median * 1000:.2f} ms"
    )
    print(f"ratio: {page_median / floor_median:.2f} (target <= 1.5)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
