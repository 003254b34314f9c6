"""The first load of a page: the browser asks for the landing page's code with the page itself,
not once its elements arrive; the served app is warmed up as soon as the server runs."""

from __future__ import annotations

import re
import time
import urllib.request
from pathlib import Path

import pytest

from e2e_support import start_server, stop_server

pytestmark = pytest.mark.e2e

#: The frontend modules of the landing page's elements (dashboard.server.preload.ELEMENTS).
MODULES = ("Selectbox", "TextInput", "Metric", "ButtonGroup", "DataFrame", "Html")


def test_the_landing_page_code_comes_with_the_page(open_page, server_url):
    page, watch = open_page("gates", {"binary": "1.36", "emulated": "1.33"})
    fetched = page.evaluate(
        "() => performance.getEntriesByType('resource').map(r => [r.name.split('/').pop(), r.startTime])"
    )
    parsed = page.evaluate("() => performance.getEntriesByType('navigation')[0].domContentLoadedEventStart")
    for module in MODULES:
        files: dict[str, list[float]] = {}
        for name, start in fetched:
            if re.fullmatch(rf"{module}\.[\w-]+\.(js|css)", name):
                files.setdefault(name, []).append(start)
        # Asked for once, while the document was read (its <link rel="modulepreload">); without
        # it, when the websocket delivered the first element of that kind, after the document.
        assert files and all(len(starts) == 1 and starts[0] < parsed for starts in files.values()), (module, files, parsed)
    assert watch.console_errors == []
    # Every page's address is served the same document (Streamlit serves index.html for each).
    with urllib.request.urlopen(server_url + "/matrix", timeout=30) as resp:
        html = resp.read().decode()
        assert resp.headers["Cache-Control"] == "no-cache"
    assert re.search(r'rel="modulepreload" crossorigin href="\./static/js/Selectbox\.', html)


def test_the_server_warms_the_app_up():
    proc, _ = start_server()
    try:
        log = Path(proc.log_path)
        for _ in range(600):
            text = log.read_text(encoding="utf-8", errors="replace")
            if "kcompat: " in text and ("the app imported" in text or "warming up the app failed" in text):
                break
            time.sleep(0.1)
        assert re.search(r"kcompat: the app imported and \d+ releases loaded in [\d.]+ s", text), text[-2000:]
    finally:
        stop_server(proc)
