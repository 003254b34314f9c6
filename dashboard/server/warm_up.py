"""The first visit after a start is answered as fast as the next ones (see :mod:`dashboard.server`).

A fresh server process has imported Streamlit but not the app: the first page view paid for
importing pandas, pyarrow and the app's modules, for loading the bundled data and for two checks
Streamlit makes once per process when a script first draws: whether it runs in a Python REPL
(``inspect.stack()``, which resolves the file of every loaded module: 0.3-0.7 s) and whether the
page icon is an emoji (its emoji table: 0.2-0.5 s). The first script run took 0.7-1.4 s on the
shared 2-core machine against ~10-20 ms for the next session's, and the page stayed blank meanwhile. ``python -m dashboard.server`` (what ``kcompat serve``, the image,
the browser tests and the benchmarks run) starts :func:`start` before the server: once
Streamlit's runtime exists, a thread imports what the frame and the landing page import and
loads the catalog into the process-wide cache the pages read. A visitor arriving meanwhile waits
for the same work, not twice. What it did, or why it could not, is logged with the server's own
lines (``kcompat: the app imported and 8 releases loaded in 1.9 s``).
"""

from __future__ import annotations

import threading
import time

from streamlit.logger import get_logger

#: Streamlit's logger of this module: its lines go where the server's own go.
log = get_logger(__name__)

#: How long the thread waits for Streamlit's runtime to exist.
RUNTIME_WAIT_S = 120.0

_started = False


def warm() -> str:
    """Import the frame and the landing page's modules and load the bundled data (the cached
    catalog and its summary). Returns what was done, in a line."""
    start = time.perf_counter()
    from streamlit import string_util

    from dashboard.frame.page_frame import PAGE_ICON  # the frame runs every page

    from .internals import print_use_warning_once

    # Streamlit's once-per-process checks, made here rather than in the first visitor's run: its
    # "use streamlit run" hint (not a REPL, a runtime exists: it prints nothing) and the emoji
    # table the page icon is looked up in.
    print_use_warning_once()
    string_util.is_emoji(PAGE_ICON)
    import dashboard.tables.gate_table  # noqa: F401 - the landing page (Gates)
    import dashboard.uploads.custom_manifest  # noqa: F401 - the landing page (Gates)
    from dashboard import data

    summary = data.summary()
    return f"the app imported and {len(summary.usable)} releases loaded in {time.perf_counter() - start:.2f} s"


def _run() -> None:
    from streamlit.runtime import Runtime

    deadline = time.monotonic() + RUNTIME_WAIT_S
    while not Runtime.exists():
        if time.monotonic() > deadline:
            log.warning("kcompat: no Streamlit runtime after %.0f s: the app is not warmed up", RUNTIME_WAIT_S)
            return
        time.sleep(0.05)
    try:
        log.info("kcompat: %s", warm())
    except Exception as exc:  # noqa: BLE001 - the first visit does the work instead, and shows any error itself
        log.warning("kcompat: warming up the app failed: %s: %s", type(exc).__name__, exc)


def start() -> bool:
    """Warm the app up in a daemon thread once Streamlit's runtime exists (once per process)."""
    global _started  # noqa: PLW0603
    if _started:
        return False
    _started = True
    threading.Thread(target=_run, name="kcompat-warm-up", daemon=True).start()
    return True
