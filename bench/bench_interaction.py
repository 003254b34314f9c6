"""A browser interaction on the Gates page against the same interaction on a bare Streamlit page.

    .venv/bin/python bench/bench_interaction.py [--runs 15] [--check]

The interaction: pick another emulated version in the "Emulated version" selectbox (a click on
the box, a click on the option), until the table shows it. Two real servers are started from the
repository root (the same ``.streamlit/config.toml``): the dashboard as ``kcompat serve`` runs it
(``python -m dashboard.server``), and a bare page under Streamlit's own ``python -m streamlit``:
a selectbox of the same label and options above a ``st.dataframe`` of the Gates table's size
(240 rows, 9 columns) whose rows and header follow the version picked. One tab of Debian's
chromium per page stays open; the interactions alternate between the two pages so machine noise
hits both alike, after two untimed ones on each.

Time = from the click on the option (``pointerdown``, taken in the page with ``performance.now()``)
to the first animation frame where the app is idle (script not running) and the grid shows the
version picked (its header "stage at 1.34", read from the grid's accessible table, which the grid
fills from the rows it draws). The script prints the median (and min/max) of each page and the
ratio Gates/bare; the goal is <= 1.3. ``--check`` exits 1 when the ratio is over the goal.

``--same-elements``: a third page, under Streamlit's own command too, takes its turn: the Gates
page's kinds of element without the app (the Copy link's HTML, a heading, the selection bar's five
selectboxes and text input, four metrics, the quick-filter pills, the search box, the order
selectbox, the same 240x9 table with row selection, two buttons), its table following the version
picked like the bare page's. Its ratio to the bare page is what Streamlit itself costs to repaint
what the page shows; the Gates page's ratio to it is the app's own.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from floor_pages import SAME_ELEMENTS_APP, TABLE  # noqa: E402  (bench/, beside this script)

from kcompat.cli.screenshots import (  # noqa: E402
    launch_browser,
    new_context,
    start_server,
    stop_server,
    wait_idle,
)

GOAL = 1.3
VERSIONS = ("1.33", "1.34", "1.35")
GATES_QUERY = "/?binary=1.36&emulated=1.35"

BARE_APP = '''\
import pandas as pd
import streamlit as st

version = st.selectbox("Emulated version", ["1.36", "1.35", "1.34", "1.33"], index=1)
''' + TABLE + '''\
st.dataframe(table, hide_index=True, height=560)
'''

#: Remembers when an option of a list is pressed (the start of the interaction).
WATCH_JS = """() => {
  if (window.__kcWatch) return;
  window.__kcWatch = true;
  document.addEventListener('pointerdown', (e) => {
    if (e.target instanceof Element && e.target.closest('[role="option"]')) { window.__t0 = performance.now(); window.__t1 = null; }
  }, true);
}"""

#: True on the first frame where the app is idle and the grid's header names ``version``.
SHOWN_JS = """(version) => {
  if (window.__t1) return true;
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  const heads = [...document.querySelectorAll('[data-testid="stDataFrame"] table[role="grid"] th')].map(th => th.textContent);
  if (!heads.includes('stage at ' + version)) return false;
  window.__t1 = performance.now();
  return true;
}"""


def open_tab(browser, url: str):
    page = new_context(browser).new_page()
    page.goto(url, wait_until="domcontentloaded")
    wait_idle(page)
    page.evaluate(WATCH_JS)
    return page


def pick(page, version: str, timeout: float = 60_000) -> float:
    """Milliseconds from pressing the option ``version`` to the table showing it."""
    page.locator('input[aria-label="Emulated version"]').click()
    page.get_by_role("option", name=version, exact=True).click()
    page.wait_for_function(SHOWN_JS, arg=version, polling="raf", timeout=timeout)
    elapsed = float(page.evaluate("() => window.__t1 - window.__t0"))
    page.mouse.move(0, 0)
    wait_idle(page, settle=100)
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="measured interactions per page (default 15)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the ratio is over {GOAL}")
    parser.add_argument("--same-elements", action="store_true", help="a third page: the Gates page's elements without the app")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    names = ("gates", "bare", "same") if args.same_elements else ("gates", "bare")
    times: dict[str, list[float]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="kcompat-bare-") as tmp:
        bare_script = Path(tmp) / "bare_app.py"
        bare_script.write_text(BARE_APP, encoding="utf-8")
        gates_proc, gates_url = start_server()
        bare_proc = same_proc = None
        try:
            bare_proc, bare_url = start_server(script=bare_script, customised=False)
            urls = {"gates": gates_url + GATES_QUERY, "bare": bare_url + "/"}
            if args.same_elements:
                same_script = Path(tmp) / "same_elements_app.py"
                same_script.write_text(SAME_ELEMENTS_APP, encoding="utf-8")
                same_proc, same_url = start_server(script=same_script, customised=False)
                urls["same"] = same_url + "/"
            with sync_playwright() as p:
                browser = launch_browser(p)
                try:
                    tabs = {name: open_tab(browser, urls[name]) for name in names}
                    versions = itertools.cycle(VERSIONS)
                    for n in range(args.runs + 2):
                        version = next(versions)
                        for name, tab in tabs.items():
                            elapsed = pick(tab, version)
                            if n >= 2:  # two untimed rounds first
                                times[name].append(elapsed)
                finally:
                    browser.close()
        finally:
            stop_server(gates_proc)
            for proc in (bare_proc, same_proc):
                if proc is not None:
                    stop_server(proc)

    med = {name: statistics.median(values) for name, values in times.items()}
    labels = {"gates": f"Gates page ({GATES_QUERY})", "bare": "bare page (selectbox + 240x9 table)",
              "same": "the Gates page's elements, no app"}
    for name in names:
        label, values = labels[name], times[name]
        print(f"{label:40s} median {med[name]:7.0f} ms   min {min(values):6.0f}   max {max(values):6.0f}   (n={len(values)})")
    ratio = med["gates"] / med["bare"]
    if args.same_elements:
        print(f"ratios: same elements / bare {med['same'] / med['bare']:.2f}, Gates / same elements {med['gates'] / med['same']:.2f}")
    print(f"ratio Gates / bare: {ratio:.2f} (goal <= {GOAL}) {'ok' if ratio <= GOAL else 'OVER GOAL'}")
    return 1 if args.check and ratio > GOAL else 0


if __name__ == "__main__":
    sys.exit(main())
