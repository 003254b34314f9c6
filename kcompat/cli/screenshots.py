"""Screenshots of the dashboard's pages and views, taken by a real browser (``kcompat screenshots``).

Starts the real Streamlit server (``streamlit run dashboard/app.py`` on a free loopback port,
waiting for ``/_stcore/health``) unless ``--server`` names a running one, opens each view in
Debian's chromium through Playwright and writes ``<page>.png`` (1440x900 viewport; ``--phone``:
390x844 at twice the pixels) into the output directory. The browser tests (``tests/e2e``) and
``bench/bench_first_paint.py`` start the server and the browser through the same functions.

What is shot:

* ``--url LINK`` (repeatable): a view link as the dashboard's "Copy link" gives it, e.g.
  ``http://host:8501/matrix?binary=1.35&matrix_transition=1.35:toGA``. Only its path (the page)
  and query (the selection and the page's own keys) are used: they are replayed on the server
  (``--server``, or one started here from the bundled data). The link's host and port never
  matter, so a link from any deployment gives the same picture.
* ``--page KEY`` (repeatable) with ``--query 'binary=1.35&emulated=1.34'``: those pages with that
  query string (without ``--query``: the fixed selection below).
* Neither: every page of :data:`dashboard.frame.pages.PAGES` with the fixed selection.

Every view is shot with the compact landing heading (``compact=1``, unless the link or query sets
``compact``) and the light theme (``--theme dark``: the dark one; ``embed_options`` in a link wins).

Pictures for documentation (:class:`Framing`):

* ``--element table`` (or ``chart``; ``table:2`` the second one of the page): the picture is that
  element alone and whole, written as ``<page>-table.png`` (``<page>-table-2.png``). A table shows
  every row (as with ``--full-height``) and every column: the window is widened until the grid
  scrolls sideways no more. A chart is its PNG download, as the page's "PNG" button under it
  gives it: the whole chart (the Timeline's blocks of rows as one chart), its title and caption,
  drawn on the server in the light colours whatever ``--theme`` and ``--phone`` say.
* ``--full-height``: every table shows all its rows (its grid is grown to its content, as a user
  drags its corner; Streamlit draws at most 10,000 px of it) and a whole-page picture is as tall as
  the page, not the window.
* ``--no-chrome``: without the app's frame: the navigation, the Pages menu, Copy link, the
  selection bar, the metrics and the tables' toolbars are hidden; in a ``--element table`` picture
  the grid's row-selection column (its checkboxes) is left out too.

The screenshots are reproducible: the pages shown without ``--url`` or ``--query`` show one fixed
selection, :data:`SELECTION`:

* ``binary=1.36`` — a 1.36 binary,
* ``emulated=1.33`` — emulating 1.33,
* ``feature_gates=AllBeta=false`` — with every beta gate turned off,

plus, on the gate detail page only, ``gate=`` :data:`DETAIL_GATE` (else it shows an empty picker).
They use the light theme (``?embed_options=light_theme``), reduced motion, no CSS transitions,
animations or text caret, and are taken only when the app is idle (connected, script not running,
every chart drawn). Taking the same page twice gives the same pixels.

Needs Playwright (the ``test`` extra) and a system chromium (``apt-get install chromium``);
Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import KcompatError, cut

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any

    from playwright.sync_api import (
        Browser,
        BrowserContext,
        FloatRect,
        Locator,
        Page,
        Playwright,
    )

    from kcompat.data.catalog import Catalog

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboard" / "app.py"

#: The selection every screenshot shows (query parameters of the URL).
SELECTION: dict[str, str] = {"binary": "1.36", "emulated": "1.33", "feature_gates": "AllBeta=false"}
#: The gate the gate detail page ("gate") shows in its screenshot.
DETAIL_GATE = "JobManagedBy"
#: Screenshot size (the browser viewport).
VIEWPORT = {"width": 1440, "height": 900}
#: ``--phone``: a 390x844 phone (its User-Agent says "Mobile", which the dashboard reads), shot at
#: twice the pixels as a phone shows it.
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "user_agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
}
#: Longest ``--url`` / ``--query`` taken (a browser keeps far longer ones, a view needs far less).
LINK_LIMIT = 8000
THEMES = ("light", "dark")

#: Flags Debian's chromium needs on this kind of machine (root, no GPU, small /dev/shm, offline).
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
    "--font-render-hinting=none", "--force-color-profile=srgb", "--hide-scrollbars",
]
#: What ``--element`` names: the kind -> the element's ``data-testid``.
ELEMENTS = {"table": "stDataFrame", "chart": "stVegaLiteChart"}
#: A chart's "PNG" download button (:func:`dashboard.charts.export.chart_downloads`): one per
#: chart, however many elements the page draws it in.
CHART_PNG = '[data-testid="stDownloadButton"] button:visible'
#: Its text (the icon's name, then "PNG").
CHART_PNG_TEXT = re.compile(r"PNG$")
#: The widest window ``--element table`` widens to (px).
MAX_WIDTH_PX = 8_000
#: Hidden by ``--no-chrome``: the top navigation (and Streamlit's toolbar), the Pages menu, Copy
#: link, the selection bar (``dashboard.frame.selection_bar.BAR_KEY``), a row of metrics and the
#: tables' hover toolbars; the page starts at the top.
NO_CHROME_CSS = (
    'header[data-testid="stHeader"],[data-testid="stExpandSidebarButton"],.st-key-kc-pages-menu,.st-key-kc-copy-link,'
    '.st-key-kc-selection-bar,[data-testid="stElementToolbar"],'
    '[data-testid="stLayoutWrapper"]:has(> [data-testid="stHorizontalBlock"] > [data-testid="stElementContainer"] > [data-testid="stMetric"])'
    "{display:none!important}"
    '[data-testid="stMainBlockContainer"]{padding-top:1.5rem!important}'
    # square corners: a rounded corner at a fractional position was anti-aliased one level
    # differently on about half the runs under load
    '[data-testid="stDataFrameResizable"],[data-testid="stDataFrameResizable"] .stDataFrameGlideDataEditor{border-radius:0!important}'
)
#: The tallest grid ``--full-height`` draws (Streamlit caps a table's content height at 10,000 px).
MAX_GRID_PX = 10_000

#: Injected into every screenshot: nothing moves, no blinking caret.
FREEZE_CSS = "*,*::before,*::after{transition:none!important;animation:none!important;caret-color:transparent!important}"

# ---------------------------------------------------------------------------------------------
# The server


def chromium_path() -> str | None:
    """Debian's chromium (``/usr/bin/chromium``), or None."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Wait until ``url``/_stcore/health answers 200 (or the server exits)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}{_log_tail(proc)}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"streamlit did not become healthy in {timeout:.0f} s{_log_tail(proc)}")


def _log_tail(proc: subprocess.Popen[bytes]) -> str:
    log = getattr(proc, "log_path", None)
    if log is None:
        return ""
    try:
        text = Path(log).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n--- streamlit output ---\n" + text[-3000:]


def start_server(
    extra_env: Mapping[str, str] | None = None, script: Path | None = None, cwd: Path | None = None, customised: bool = True,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``streamlit run SCRIPT`` (default: the dashboard; through ``python -m dashboard.server``,
    as ``kcompat serve`` does, so the server customisations apply from the start; ``customised=False``:
    Streamlit's own ``python -m streamlit``, a benchmark's bare baseline) on a free loopback port, headless,
    without usage statistics, and wait until it is healthy. Returns ``(process, base_url)``; stop it
    with :func:`stop_server`. Run from the repository root so ``.streamlit/config.toml`` applies."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **(extra_env or {}))
    log = tempfile.NamedTemporaryFile(prefix="kcompat-streamlit-", suffix=".log", delete=False)  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "dashboard.server" if customised else "streamlit", "run", str(script or APP),
         "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=cwd or ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, stopped whole by stop_server
    )
    log.close()
    proc.log_path = log.name  # type: ignore[attr-defined]
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
    except BaseException:  # an error, Ctrl-C or SIGTERM while it starts: no server left behind
        stop_server(proc)
        raise
    return proc, url


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server and anything it started (its process group: SIGTERM, SIGKILL after 10 s)."""
    from kcompat.data.children import stop

    stop(proc, grace=10)
    log = getattr(proc, "log_path", None)
    if log:
        Path(log).unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------
# The browser


def launch_browser(playwright: Playwright) -> Browser:
    """Debian's chromium through Playwright (Playwright's own browser builds are not used)."""
    path = chromium_path()
    if path is None:
        raise RuntimeError("Debian's chromium is not installed (apt-get install chromium; ./scripts/test.sh does it)")
    return playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)


IDLE_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-connection-state') !== 'CONNECTED'
      || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-testid="stSkeleton"], [data-testid="stStatusWidget"] [data-testid="stStatusWidgetRunningIcon"]')) return false;
  // Every Vega-Lite chart has drawn its canvas or SVG.
  for (const c of document.querySelectorAll('[data-testid="stVegaLiteChart"]'))
    if (!c.querySelector('canvas, svg')) return false;
  return true;
}"""


def wait_idle(page: Page, timeout: float = 60_000, settle: int = 250) -> None:
    """Wait until Streamlit is connected, has finished running the script and drawn its charts.

    ``settle`` ms later it checks again (a rerun triggered by the first render — a query-param
    write, a chart selection — would be in flight by then)."""
    page.wait_for_function(IDLE_JS, timeout=timeout)
    if settle:
        page.wait_for_timeout(settle)
        page.wait_for_function(IDLE_JS, timeout=timeout)


@functools.cache
def page_keys() -> list[str]:
    """The page keys of the dashboard (``dashboard.frame.pages.PAGES``), the default page first.
    Asked of the app in a process of its own, as the server is: the library never imports the app."""
    code = "from dashboard.frame.pages import PAGES; print(*PAGES)"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"cannot list the dashboard's pages: {cut(done.stderr.strip().splitlines()[-1:] or done.returncode, 300)}")
    return done.stdout.split()


def page_url(base_url: str, key: str, params: Mapping[str, str] | None = None) -> str:
    """The URL of page ``key`` (the default page is ``/``) with ``params`` as the query string."""
    path = "" if key == page_keys()[0] else key
    query = urlencode(dict(params or {}))
    return f"{base_url}/{path}" + (f"?{query}" if query else "")


def screenshot_params(key: str, theme: str = "light", query: Mapping[str, str] | None = None) -> dict[str, str]:
    """The query string of a screenshot of page ``key``: ``query`` (default: :data:`SELECTION`,
    plus :data:`DETAIL_GATE` on the gate page), the compact heading and the theme, unless
    ``query`` sets ``compact`` or ``embed_options`` itself."""
    if query is None:
        params = dict(SELECTION)
        if key == "gate":
            params["gate"] = DETAIL_GATE
    else:
        params = dict(query)
    params.setdefault("compact", "1")
    params.setdefault("embed_options", f"{theme}_theme")
    return params


@dataclass(frozen=True)
class Shot:
    """One screenshot: the file name (without .png), the page key and the query string."""

    name: str
    key: str
    params: tuple[tuple[str, str], ...]


def page_shots(keys: Iterable[str], theme: str = "light", query: Mapping[str, str] | None = None) -> list[Shot]:
    return [Shot(key, key, tuple(screenshot_params(key, theme, query).items())) for key in keys]


def link_shots(links: Iterable[str], theme: str = "light") -> list[Shot]:
    """One shot per view link (already checked by :func:`parse_link`); a page shot twice gets
    ``<page>-2.png``, ``<page>-3.png``."""
    shots: list[Shot] = []
    seen: dict[str, int] = {}
    for link in links:
        key, query = parse_link(link)
        seen[key] = seen.get(key, 0) + 1
        name = key if seen[key] == 1 else f"{key}-{seen[key]}"
        shots.append(Shot(name, key, tuple(screenshot_params(key, theme, query).items())))
    return shots


def freeze(page: Page) -> None:
    """Stop transitions, animations and the caret; park the mouse; drop focus."""
    page.add_style_tag(content=FREEZE_CSS)
    page.mouse.move(0, 0)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.evaluate("() => document.fonts.ready")


def redraw(page: Page) -> None:
    """Make every canvas draw itself once more from scratch (the viewport one pixel taller and
    back): a data grid that redrew part of its header while loading blends its grid lines twice
    where they cross, one or two pixels that otherwise differ between runs."""
    size = page.viewport_size
    if size:
        page.set_viewport_size({"width": size["width"], "height": size["height"] + 1})
        page.wait_for_timeout(100)
        page.set_viewport_size(size)


@dataclass(frozen=True)
class Framing:
    """What a picture of a view holds (``--element``, ``--full-height``, ``--no-chrome``): the
    window (default) or one element of the page (``element``: ``("table", 1)`` the first table,
    ``("chart", 2)`` the second chart), every table at its full height, with or without the app's
    chrome."""

    element: tuple[str, int] | None = None
    full_height: bool = False
    no_chrome: bool = False

    def file_name(self, name: str) -> str:
        """``<name>.png``, or ``<name>-table.png`` / ``<name>-chart-2.png`` for an element."""
        if self.element is None:
            return f"{name}.png"
        kind, number = self.element
        return f"{name}-{kind}" + (f"-{number}" if number > 1 else "") + ".png"


WINDOW = Framing()


def parse_element(text: str) -> tuple[str, int]:
    """``table``, ``chart`` or either with ``:N`` (the N-th one shown on the page, from 1)."""
    kind, colon, number = text.partition(":")
    if kind not in ELEMENTS:
        raise ValueError(f"--element {cut(text)!r} is not {' or '.join(ELEMENTS)} (e.g. table, chart:2)")
    if not colon:
        return kind, 1
    if not (number.isascii() and number.isdigit() and 1 <= int(number) <= 99):
        raise ValueError(f"--element {cut(text)!r}: after {kind}: comes the number of the {kind} on the page, 1 to 99")
    return kind, int(number)


def row_marker_px(rows: int) -> int:
    """Width of a grid's row-selection column (glide-data-grid's default, which Streamlit keeps):
    32 px up to 100 rows, 36 up to 1,000, 44 up to 10,000, 48 beyond."""
    return 48 if rows > 10_000 else 44 if rows > 1_000 else 36 if rows > 100 else 32


#: A table's grid as drawn: its height, the height of all its rows (the most it can be dragged
#: to), the rows and whether it has the row-selection column (its first data cell is column 1).
GRID_JS = """e => {
  const box = e.querySelector('[data-testid="stDataFrameResizable"]');
  const grid = e.querySelector('table[role="grid"]');
  const cell = grid && grid.querySelector('td[id^="glide-cell-"]');
  return {height: box ? box.offsetHeight : 0, content: box ? parseFloat(box.style.maxHeight) || 0 : 0,
          rows: grid ? Math.max(0, Number(grid.getAttribute('aria-rowcount')) - 1) : 0,
          markers: !!cell && cell.id.split('-')[2] === '1'};
}"""

#: Once a grid is grown, the element around it follows its height (Streamlit fixes it otherwise).
FOLLOW_GRID_JS = """e => {
  const stop = e.closest('[data-testid="stElementContainer"]');
  for (let n = e.querySelector('[data-testid="stDataFrameResizable"]').parentElement; n; n = n.parentElement) {
    n.style.setProperty('height', 'auto', 'important');
    if (n === stop) break;
  }
}"""


def _set_height(page: Page, height: int) -> None:
    size = page.viewport_size or dict(VIEWPORT)
    page.set_viewport_size({"width": size["width"], "height": max(1, min(height, 4 * MAX_GRID_PX))})


#: The height of the whole page: Streamlit scrolls its main area (``stMain``), not the document.
PAGE_HEIGHT_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const more = main ? main.scrollHeight - main.clientHeight : 0;
  return Math.ceil(Math.max(document.documentElement.scrollHeight, window.innerHeight + more));
}"""


def _page_height(page: Page) -> int:
    return int(page.evaluate(PAGE_HEIGHT_JS))


def grow_table(page: Page, table: Locator) -> None:
    """Drag the grid's bottom-right corner down until every row shows (at most
    :data:`MAX_GRID_PX`), as a user would; the window is made tall enough for the drag."""
    grid = table.evaluate(GRID_JS)
    target = min(grid["content"], MAX_GRID_PX)
    if target <= grid["height"] + 0.5:
        return
    corner = table.locator('[data-testid="stDataFrameResizable"]')
    _set_height(page, _page_height(page) + int(target - grid["height"]) + 100)
    corner.scroll_into_view_if_needed()
    box = corner.bounding_box()
    if box is None:
        raise ValueError("the table is not shown")
    x, y = box["x"] + box["width"] - 2, box["y"] + box["height"] - 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + (target - grid["height"]) + 8, steps=4)
    page.mouse.up()
    page.mouse.move(0, 0)
    page.wait_for_function("([e, h]) => e.offsetHeight >= h - 0.5", arg=[corner.element_handle(), target], timeout=10_000)
    table.evaluate(FOLLOW_GRID_JS)


#: How much wider a grid's columns are than the grid (px): what it scrolls sideways.
HIDDEN_WIDTH_JS = """e => { const s = e.querySelector('.dvn-scroller'); return s ? Math.ceil(s.scrollWidth - s.clientWidth) : 0; }"""


def widen_for_table(page: Page, table: Locator) -> None:
    """Widen the window until every column of ``table`` shows (the grid no longer scrolls
    sideways; at most :data:`MAX_WIDTH_PX`). A grid sharing a row with others gets a share of
    the extra width only: widened again, up to four times."""
    for _ in range(4):
        hidden = int(table.evaluate(HIDDEN_WIDTH_JS))
        size = page.viewport_size or dict(VIEWPORT)
        if hidden <= 0 or size["width"] >= MAX_WIDTH_PX:
            return
        page.set_viewport_size({"width": min(size["width"] + hidden + 2, MAX_WIDTH_PX), "height": size["height"]})
        page.wait_for_timeout(200)
        wait_idle(page, settle=200)


def chart_png_button(page: Page, number: int) -> Locator:
    """The "PNG" button of the ``number``-th chart of the page (from 1)."""
    found = page.locator(CHART_PNG).filter(has_text=CHART_PNG_TEXT)
    count = found.count()
    if count < number:
        raise ValueError(f"the page shows {count} chart{'' if count == 1 else 's'}: no chart {number} (--element)")
    return found.nth(number - 1)


def _target(page: Page, framing: Framing) -> Locator | None:
    """The element ``framing`` pictures, or None for the whole window or page."""
    if framing.element is None:
        return None
    kind, number = framing.element
    found = page.locator(f'[data-testid="{ELEMENTS[kind]}"]:visible')
    count = found.count()
    if count < number:
        raise ValueError(f"the page shows {count} {kind}{'' if count == 1 else 's'}: no {kind} {number} (--element)")
    return found.nth(number - 1)


def frame_page(page: Page, framing: Framing) -> None:
    """Apply ``framing`` to a loaded, frozen page: the chrome hidden, the tables grown, the window
    as tall as the page when the picture needs it."""
    if framing.no_chrome:
        page.add_style_tag(content=NO_CHROME_CSS)
    original = page.viewport_size or dict(VIEWPORT)
    target = _target(page, framing)
    if target is not None and framing.element and framing.element[0] == "table":
        widen_for_table(page, target)  # every column
        original = page.viewport_size or dict(VIEWPORT)
        grow_table(page, target)  # every row, with or without --full-height
    elif framing.full_height and target is None:
        for table in page.locator(f'[data-testid="{ELEMENTS["table"]}"]:visible').all():
            grow_table(page, table)
    # The page laid out at the usual window height, then the window as tall as the page: a
    # full-height picture shows all of it, an element is wholly inside the window.
    _set_height(page, original["height"])
    if framing.full_height or target is not None:
        _set_height(page, max(original["height"], _page_height(page)))
    page.evaluate("() => { window.scrollTo(0, 0); const m = document.querySelector('[data-testid=\"stMain\"]'); if (m) m.scrollTop = 0; }")


def clip_of(page: Page, framing: Framing) -> FloatRect | None:
    """The area of the page to keep (whole pixels): the element's box (a table's grid from the
    line after its checkbox column without the chrome), or None for the whole window."""
    target = _target(page, framing)
    if target is None:
        return None
    if framing.element and framing.element[0] == "table":
        box = target.locator('[data-testid="stDataFrameResizable"]').bounding_box()
        grid = target.evaluate(GRID_JS)
        if box is not None and framing.no_chrome and grid["markers"]:
            # from the grid line between the checkboxes and the first column: it is the left edge
            left = 1 + row_marker_px(grid["rows"])
            box = {"x": box["x"] + left, "y": box["y"], "width": box["width"] - left, "height": box["height"]}
    else:
        box = target.bounding_box()
    if box is None:
        raise ValueError(f"the {framing.element[0] if framing.element else 'element'} is not shown (--element)")
    x0, y0 = math.floor(box["x"]), math.floor(box["y"])
    return {"x": x0, "y": y0, "width": math.ceil(box["x"] + box["width"]) - x0, "height": math.ceil(box["y"] + box["height"]) - y0}


def screenshot_page(
    context: BrowserContext, base_url: str, key: str, path: Path, theme: str = "light", params: Mapping[str, str] | None = None,
    framing: Framing = WINDOW,
) -> Path:
    """Open page ``key`` in a new tab of ``context`` (with ``params``, default: the fixed
    selection, see :func:`screenshot_params`) and save a PNG of it as ``framing`` says."""
    page = context.new_page()
    try:
        page.goto(page_url(base_url, key, screenshot_params(key, theme) if params is None else params), wait_until="domcontentloaded")
        wait_idle(page, settle=400)
        if framing.element is not None and framing.element[0] == "chart":
            with page.expect_download(timeout=120_000) as download:
                chart_png_button(page, framing.element[1]).click()
            download.value.save_as(str(path))
            return path
        freeze(page)
        if framing != WINDOW:
            frame_page(page, framing)
        redraw(page)
        wait_idle(page, settle=300)
        clip = clip_of(page, framing)
        page.screenshot(path=str(path), animations="disabled", caret="hide", scale="device", clip=clip)
    finally:
        page.close()
    return path


def new_context(browser: Browser, **kwargs: Any) -> BrowserContext:
    """A fresh browser context as the screenshots and tests use it (1440x900, reduced motion, light)."""
    options: dict[str, Any] = {"viewport": dict(VIEWPORT), "reduced_motion": "reduce", "color_scheme": "light", "device_scale_factor": 1}
    options.update(kwargs)
    return browser.new_context(**options)


def take_screenshots(
    out_dir: str | Path,
    pages: Iterable[str] | None = None,
    server: str | None = None,
    *,
    browser: Browser | None = None,
    links: Iterable[str] | None = None,
    query: Mapping[str, str] | None = None,
    theme: str = "light",
    phone: bool = False,
    framing: Framing = WINDOW,
) -> list[Path]:
    """Write a PNG per view into ``out_dir``: one per view link of ``links``, else ``<page>.png``
    for each page key (default: every page of ``PAGES``) with ``query`` (default: the fixed
    selection); ``framing``: the window (default), or one element, full height, without the
    app's chrome (:class:`Framing`; an element's file is ``<page>-table.png``).

    ``server``: a running dashboard to use (e.g. the tests' one); by default a server is started
    here and stopped at the end. ``browser``: a Playwright browser to use (each call opens its own
    context); by default chromium is launched here. Returns the written files, in order."""
    if theme not in THEMES:
        raise ValueError(f"unknown theme {cut(theme)!r} (themes: {', '.join(THEMES)})")
    known = page_keys()
    if links is not None:
        shots = link_shots(links, theme)
    else:
        keys = known if pages is None else list(pages)
        unknown = [k for k in keys if k not in known]
        if unknown:
            raise ValueError(f"unknown page(s): {cut(', '.join(unknown), 200)} (pages: {', '.join(known)})")
        shots = page_shots(keys, theme, query)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    proc = None
    try:
        if server is None:
            proc, server = start_server()
        if browser is not None:
            return _shoot(browser, server, shots, out, theme, phone, framing)
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise RuntimeError("screenshots need Playwright: pip install -e '.[test]'") from exc
        with sync_playwright() as p:
            own = launch_browser(p)
            try:
                return _shoot(own, server, shots, out, theme, phone, framing)
            finally:
                own.close()
    finally:
        if proc is not None:
            stop_server(proc)


def _shoot(browser: Browser, server: str, shots: list[Shot], out: Path, theme: str, phone: bool, framing: Framing = WINDOW) -> list[Path]:
    options = dict(PHONE) if phone else {}
    context = new_context(browser, color_scheme=theme, **options)
    try:
        return [screenshot_page(context, server, s.key, out / framing.file_name(s.name), theme, dict(s.params), framing) for s in shots]
    finally:
        context.close()


# ---------------------------------------------------------------------------------------------
# kcompat screenshots


def register(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"), help="output directory (default: docs/screenshots)")
    parser.add_argument(
        "--url", action="append", dest="links", metavar="LINK",
        help="a view link (the dashboard's Copy link), e.g. http://host:8501/matrix?binary=1.35&matrix_transition=1.35:toGA: "
        "its page and query are replayed on the server, its host is not used (repeatable; writes <page>.png)",
    )
    parser.add_argument("--page", action="append", dest="pages", metavar="KEY", help="only this page (repeatable; default: every page)")
    parser.add_argument(
        "--query", metavar="QUERY",
        help="the query string of every --page, e.g. 'binary=1.35&emulated=1.34' (default: binary=1.36, emulated=1.33, "
        "feature_gates=AllBeta=false)",
    )
    parser.add_argument(
        "--server", metavar="URL",
        help="use this running dashboard instead of starting one from the bundled data, e.g. http://127.0.0.1:8501",
    )
    parser.add_argument("--theme", choices=THEMES, default="light", help="colour theme (default: light)")
    parser.add_argument("--phone", action="store_true", help="a 390x844 phone instead of a 1440x900 screen")
    parser.add_argument(
        "--element", metavar="KIND[:N]",
        help="only the page's table or chart (table:2: its second table), whole, written as <page>-table.png: a table "
        "with every row and column, a chart as its PNG download (every row, its title)",
    )
    parser.add_argument(
        "--full-height", action="store_true",
        help="every table shows all its rows, and a whole-page picture is as tall as the page",
    )
    parser.add_argument(
        "--no-chrome", action="store_true",
        help="without the navigation, Copy link, selection bar, metrics and toolbars (and a table's checkbox column with --element)",
    )
    return parser


def check_url(url: str, option: str = "--server") -> str:
    """An http(s) URL as ``option`` takes it: http(s)://host[:port][/path][?query], nothing else."""
    if len(url) > LINK_LIMIT:
        raise ValueError(f"{option} is {len(url):,} characters long; at most {LINK_LIMIT:,} are taken")
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
    except ValueError as exc:
        raise ValueError(f"{option} {cut(url)!r} is not a URL ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url):
        raise ValueError(f"{option} {cut(url)!r} is not an http(s) URL such as http://127.0.0.1:8501")
    return url.rstrip("/") if option == "--server" else url


def parse_query(text: str, option: str = "--query") -> dict[str, str]:
    """``binary=1.35&emulated=1.34`` (a leading ``?`` is allowed) as a dict; every part must be
    ``key=value`` with a key, and a key may appear once."""
    if len(text) > LINK_LIMIT:
        raise ValueError(f"{option} is {len(text):,} characters long; at most {LINK_LIMIT:,} are taken")
    if any(c.isspace() and c != " " for c in text):
        raise ValueError(f"{option} {cut(text)!r} contains a line break or tab")
    params: dict[str, str] = {}
    for part in text.removeprefix("?").split("&"):
        if not part:
            continue
        key, eq, _ = part.partition("=")
        if not eq or not key:
            raise ValueError(f"{option}: {cut(part)!r} is not key=value (e.g. binary=1.35&emulated=1.34)")
        [(name, value)] = urllib.parse.parse_qsl(part, keep_blank_values=True)
        if name in params:
            raise ValueError(f"{option}: {cut(name)!r} is given twice")
        params[name] = value
    return params


def parse_link(link: str) -> tuple[str, dict[str, str]]:
    """The page key and query of a view link. The page is the last part of the path (``/`` or an
    empty path: the default page), so a dashboard served under a path prefix works too."""
    check_url(link, "--url")
    parts = urllib.parse.urlsplit(link)
    known = page_keys()
    last = [p for p in parts.path.split("/") if p][-1:] or [known[0]]
    key = urllib.parse.unquote(last[0])
    if key not in known:
        raise ValueError(f"--url {cut(link)!r}: {cut(key, 80)!r} is not a page of the dashboard (pages: {', '.join(known)})")
    if parts.fragment:
        raise ValueError(f"--url {cut(link)!r} has a #fragment; a view link has none")
    return key, parse_query(parts.query, "--url")


def check_out_dir(out: Path) -> Path:
    """Create the output directory (and prove it is writable) before any server or browser starts."""
    from kcompat.core.errors import cut

    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".kcompat-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise ValueError(f"cannot write screenshots to {cut(str(out), 200)}: {reason}") from None
    return out


def _answers(url: str) -> None:
    """Fail early, with a message, when nothing answers at ``url``."""
    from kcompat.core.errors import cut

    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=5) as resp:  # noqa: S310 - http(s) checked
            resp.read(64)
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"no dashboard answers at {cut(url)} ({cut(getattr(exc, 'reason', exc), 200)})") from None


def run(args: argparse.Namespace, catalog: Catalog | None = None) -> ExitStatus:
    """Take the screenshots asked for (the catalog is the server's own: it reads the data itself)."""
    from kcompat.core.errors import MESSAGE_LIMIT

    missing = [name for name in ("playwright", "streamlit") if importlib.util.find_spec(name) is None]
    if missing:
        raise KcompatError(
            f"kcompat screenshots needs {' and '.join(missing)}: pip install 'kcompat[screenshots]' "
            "(and Debian's chromium: apt-get install chromium)"
        )
    try:
        links = getattr(args, "links", None)
        pages = getattr(args, "pages", None)
        query_text = getattr(args, "query", None)
        if links and (pages or query_text is not None):
            raise ValueError("--url takes the page and query from the link: give --url, or --page/--query, not both")
        for link in links or ():
            parse_link(link)  # every link checked before anything starts
        query = parse_query(query_text) if query_text is not None else None
        element = getattr(args, "element", None)
        framing = Framing(
            parse_element(element) if element is not None else None,
            bool(getattr(args, "full_height", False)), bool(getattr(args, "no_chrome", False)),
        )
        server = getattr(args, "server", None)
        if server is not None:
            server = check_url(server)
        out = check_out_dir(Path(args.out))
        if server is not None:
            _answers(server)
        written = take_screenshots(
            out, pages=pages, server=server, links=links, query=query,
            theme=getattr(args, "theme", "light"), phone=getattr(args, "phone", False), framing=framing,
        )
    except (RuntimeError, ValueError, OSError) as exc:
        print(f"kcompat: error: {cut(exc, MESSAGE_LIMIT)}", file=sys.stderr)
        return ExitStatus.REFUSED
    except Exception as exc:  # noqa: BLE001 - Playwright's own errors (page crashed, timeout)
        print(f"kcompat: error: screenshots failed: {type(exc).__name__}: {cut(exc, MESSAGE_LIMIT)}", file=sys.stderr)
        return ExitStatus.REFUSED
    for path in written:
        print(path)
    return ExitStatus.OK


def main(out_dir: str | Path | None = None) -> int:
    """``python -m kcompat.cli.screenshots [--out DIR] ...``, or ``main(out_dir)`` from Python."""
    from kcompat.cli.signals import Stopped, signals_as_interrupts

    parser = register(argparse.ArgumentParser(prog="kcompat screenshots", description=(__doc__ or "").split("\n")[0]))
    args = parser.parse_args(["--out", str(out_dir)] if out_dir is not None else None)
    try:
        with signals_as_interrupts():  # SIGTERM stops the server it started, as Ctrl-C does
            return run(args)
    except Stopped as exc:
        print(f"kcompat: error: stopped by {exc.name}", file=sys.stderr)
        return exc.exit_status


if __name__ == "__main__":
    sys.exit(main())
