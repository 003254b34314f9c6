"""First paint of the Gates page against a bare Streamlit page, in the same run.

    .venv/bin/python bench/bench_first_paint.py [--runs 7] [--check]
    .venv/bin/python bench/bench_first_paint.py --cold [--runs 5]
    .venv/bin/python bench/bench_first_paint.py --same-elements [--runs 7]

Two real servers are started from the repository root (the same ``.streamlit/config.toml``): the
dashboard as ``kcompat serve`` runs it (``python -m dashboard.server``, its customisations
installed), and a temporary script with a title and a 10-row dataframe under Streamlit's own
``python -m streamlit``: the bare page as Streamlit serves it. Each measured load is a page load
in a FRESH browser context (no HTTP cache, no session) of Debian's chromium; the loads of the two
pages alternate so machine noise hits both alike. One untimed load of each warms the servers
first (Python imports, data caches).

Two times per load, from navigation start (``performance.timeOrigin``), each taken inside the
page with ``performance.now()`` on the first animation frame where it holds:

* first content: an element of the page's own (not the Copy link button) has a size;
* heading: the page's heading (its ``h1``, the landing question on Gates, the title on the bare
  page) has a size: what a visitor first reads;
* first paint: the app is idle (connected, the script finished, no skeleton) with the main table
  visible (its ``stDataFrame`` canvas drawn).

The script prints the median (and min/max) of each, and the ratios Gates/bare; the goal for
first paint is <= 1.2. ``--check`` exits 1 when that ratio is over the goal.

``--cold``: every load is the first one of a server started for it (the user who opens the
dashboard right after ``kcompat serve``): the two servers are started afresh before each pair of
loads, and the page is opened as soon as the server answers its health check.

``--same-elements``: a third page is loaded in turn, under Streamlit's own command too: the Gates
page's kinds of element without the app (the Copy link's HTML, a heading, the selection bar's five
selectboxes and text input, four metrics, the quick-filter pills, the search box and the order
selectbox, a 240-row, 9-column table with row selection, two buttons; ``floor_pages.py``). Its ratio to the bare page is what
Streamlit itself costs for what the page draws; the Gates page's ratio to it is the app's own.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from floor_pages import SAME_ELEMENTS_APP  # noqa: E402  (bench/, beside this script)

from kcompat.cli.screenshots import (  # noqa: E402
    launch_browser,
    new_context,
    start_server,
    stop_server,
)

GOAL = 1.2
#: The Gates page's heading is on screen within this many ms of navigation start (median).
HEADING_GOAL_MS = 1500
GATES_QUERY = "/?binary=1.36&emulated=1.33"

BARE_APP = '''\
import pandas as pd
import streamlit as st

st.title("A bare Streamlit page")
st.dataframe(pd.DataFrame({"n": range(10), "letter": list("abcdefghij")}), hide_index=True)
'''

#: True on the first frame where an element of the page (not the Copy link button) has a size.
CONTENT_JS = """() => {
  if (window.__firstContent) return true;
  for (const e of document.querySelectorAll('[data-testid="stMainBlockContainer"] [data-testid="stElementContainer"]:not(.st-key-kc-copy-link)')) {
    const box = e.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) { window.__firstContent = performance.now(); return true; }
  }
  return false;
}"""

#: True on the first frame where the page's heading (``h1``) has a size; remembers when.
HEADING_JS = """() => {
  if (window.__firstHeading) return true;
  const h = document.querySelector('[data-testid="stMainBlockContainer"] h1');
  if (!h) return false;
  const box = h.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return false;
  window.__firstHeading = performance.now();
  return true;
}"""

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


#: The three times of a load, in report order.
MEASURES = ("first content", "heading", "first paint")


def first_paint(browser, url: str, timeout: float = 60_000) -> tuple[float, float, float]:
    """Milliseconds from navigation start to the first content, the heading and idle-with-table, in a fresh context."""
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        page.goto(url, wait_until="commit")
        # one poll per frame checks all three, so none is late for waiting on another
        page.wait_for_function(f"() => [({CONTENT_JS})(), ({HEADING_JS})(), ({PAINTED_JS})()].every(Boolean)", polling="raf", timeout=timeout)
        content, heading, painted = page.evaluate("() => [window.__firstContent, window.__firstHeading, window.__firstPaint]")
        return float(content), float(heading), float(painted)
    finally:
        ctx.close()


def start_both(bare_script: Path, same_script: Path | None = None):
    """The dashboard as kcompat serve runs it, and the bare page (and the same-elements page) under
    Streamlit's own command."""
    servers = [start_server()]
    try:
        for script in (bare_script, same_script):
            if script is not None:
                servers.append(start_server(script=script, customised=False))
    except BaseException:
        for proc, _ in servers:
            stop_server(proc)
        raise
    return servers


def report(times: dict[str, list[tuple[float, float, float]]], cold: bool, runs: int) -> float:
    """Print the medians and ratios; returns the first-paint ratio Gates / bare."""
    kind = "cold (first load of a fresh server)" if cold else "warm server, fresh browser context"
    print(f"{kind}, {runs} loads each")
    labels = {"gates": f"Gates page ({GATES_QUERY})", "bare": "bare Streamlit page", "same": "the Gates page's elements, no app"}
    ratios = []
    for i, what in enumerate(MEASURES):
        med = {name: statistics.median(t[i] for t in values) for name, values in times.items()}
        for name in times:
            values = [t[i] for t in times[name]]
            print(f"{what:13s} {labels[name]:40s} median {med[name]:7.0f} ms   min {min(values):6.0f}   max {max(values):6.0f}")
        ratios.append(med["gates"] / med["bare"])
        if "same" in med:
            print(f"{what:13s} ratios: same elements / bare {med['same'] / med['bare']:.2f}, Gates / same elements {med['gates'] / med['same']:.2f}")
    print(f"ratio Gates / bare: first content {ratios[0]:.2f}, heading {ratios[1]:.2f}, first paint {ratios[2]:.2f} "
          f"(goal <= {GOAL}) {'ok' if ratios[2] <= GOAL else 'OVER GOAL'}")
    heading = statistics.median(t[1] for t in times["gates"])
    print(f"heading of the Gates page: median {heading:.0f} ms (goal <= {HEADING_GOAL_MS} ms) {'ok' if heading <= HEADING_GOAL_MS else 'OVER GOAL'}")
    return ratios[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="measured loads per page (default 7)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the first-paint ratio is over {GOAL}")
    parser.add_argument("--cold", action="store_true", help="each load is the first of a freshly started server")
    parser.add_argument("--same-elements", action="store_true", help="also load a page of the Gates page's elements without the app")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    names = ("gates", "bare", "same") if args.same_elements else ("gates", "bare")
    paths = {"gates": GATES_QUERY, "bare": "/", "same": "/"}
    times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="kcompat-bare-") as tmp:
        bare_script = Path(tmp) / "bare_app.py"
        bare_script.write_text(BARE_APP, encoding="utf-8")
        same_script = None
        if args.same_elements:
            same_script = Path(tmp) / "same_elements_app.py"
            same_script.write_text(SAME_ELEMENTS_APP, encoding="utf-8")
        with sync_playwright() as p:
            browser = launch_browser(p)
            try:
                servers = None if args.cold else start_both(bare_script, same_script)
                try:
                    if servers is not None:  # warm the servers (imports, data caches): not timed
                        for (_, url), name in zip(servers, names, strict=True):
                            first_paint(browser, url + paths[name])
                    for _ in range(args.runs):
                        if args.cold:
                            servers = start_both(bare_script, same_script)
                        try:
                            for (_, url), name in zip(servers, names, strict=True):  # in turn: the same noise for each
                                times[name].append(first_paint(browser, url + paths[name]))
                        finally:
                            if args.cold:
                                for proc, _ in servers:
                                    stop_server(proc)
                                servers = None
                finally:
                    for proc, _ in servers or ():
                        stop_server(proc)
            finally:
                browser.close()

    ratio = report(times, args.cold, args.runs)
    return 1 if args.check and ratio > GOAL else 0


if __name__ == "__main__":
    sys.exit(main())
