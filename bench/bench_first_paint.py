"""First paint of the Gates page against a bare Streamlit page, in the same run.

    .venv/bin/python bench/bench_first_paint.py [--runs 7] [--check]

Two real servers are started the same way (``streamlit run`` from the repository root, so the
same ``.streamlit/config.toml``): the dashboard, and a temporary script with a title and a
10-row dataframe. Each measured load is a cold page load in a FRESH browser context (no HTTP
cache, no session) of Debian's chromium; the loads of the two pages alternate so machine noise
hits both alike. One untimed load of each warms the servers first (Python imports, data caches).

First paint = navigation start (``performance.timeOrigin``) -> the app is idle (connected, the
script finished, no skeleton) with the main table visible (its ``stDataFrame`` canvas drawn).
The time is taken inside the page with ``performance.now()`` on the first animation frame where
this holds. The script prints the median (and min/max) of each page, and the ratio Gates/bare;
the goal is <= 1.5. ``--check`` exits 1 when the ratio is over the goal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kcompat.cli.screenshots import (  # noqa: E402
    launch_browser,
    new_context,
    start_server,
    stop_server,
)

GOAL = 1.5
GATES_QUERY = "/?binary=1.36&emulated=1.33"

BARE_APP = '''\
import pandas as pd
import streamlit as st

st.title("A bare Streamlit page")
st.dataframe(pd.DataFrame({"n": range(10), "letter": list("abcdefghij")}), hide_index=True)
'''

#: True on the first frame where the app is idle and the main table is drawn; remembers when.
PAINTED_JS = """() => {
  if (window.__firstPaint) return true;
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-connection-state') !== 'CONNECTED'
      || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  const table = document.querySelector('[data-testid="stDataFrame"]');
  if (!table) return false;
  const canvas = table.querySelector('canvas');
  const box = table.getBoundingClientRect();
  if (!canvas || box.width === 0 || box.height === 0) return false;
  window.__firstPaint = performance.now();
  return true;
}"""


def first_paint(browser, url: str, timeout: float = 60_000) -> float:
    """Milliseconds from navigation start to idle-with-table, in a fresh context."""
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        page.goto(url, wait_until="commit")
        page.wait_for_function(PAINTED_JS, polling="raf", timeout=timeout)
        return float(page.evaluate("() => window.__firstPaint"))
    finally:
        ctx.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="measured cold loads per page (default 7)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the ratio is over {GOAL}")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="kcompat-bare-") as tmp:
        bare_script = Path(tmp) / "bare_app.py"
        bare_script.write_text(BARE_APP, encoding="utf-8")
        gates_proc, gates_url = start_server()
        bare_proc = None
        try:
            bare_proc, bare_url = start_server(script=bare_script)
            targets = {"gates": gates_url + GATES_QUERY, "bare": bare_url + "/"}
            times: dict[str, list[float]] = {name: [] for name in targets}
            with sync_playwright() as p:
                browser = launch_browser(p)
                try:
                    for url in targets.values():  # warm the servers (imports, data caches): not timed
                        first_paint(browser, url)
                    for _ in range(args.runs):
                        for name, url in targets.items():
                            times[name].append(first_paint(browser, url))
                finally:
                    browser.close()
        finally:
            stop_server(gates_proc)
            if bare_proc is not None:
                stop_server(bare_proc)

    med = {name: statistics.median(values) for name, values in times.items()}
    for name, label in (("gates", f"Gates page ({GATES_QUERY})"), ("bare", "bare Streamlit page")):
        values = times[name]
        print(f"{label:40s} median {med[name]:7.0f} ms   min {min(values):6.0f}   max {max(values):6.0f}   (n={len(values)})")
    ratio = med["gates"] / med["bare"]
    verdict = "ok" if ratio <= GOAL else "OVER GOAL"
    print(f"ratio Gates / bare: {ratio:.2f} (goal <= {GOAL}) {verdict}")
    return 1 if args.check and ratio > GOAL else 0


if __name__ == "__main__":
    sys.exit(main())
