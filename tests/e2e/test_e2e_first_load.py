"""The first load after a start: the served app is warmed up as soon as the server runs."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from e2e_support import start_server, stop_server

pytestmark = pytest.mark.e2e

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


@pytest.mark.parametrize("screen", ["1440", "390"])
def test_the_figures_come_before_the_other_components_note(open_page, screen):
    """On the default component (kube-apiserver) the note on how kube-scheduler takes the same
    flags comes after the four figures, not between the selection bar and them."""
    from e2e_support import PHONE

    page, watch = open_page("gates", {"binary": "1.36", "emulated": "1.33"}, **({} if screen == "1440" else PHONE))
    note = page.get_by_text("kube-scheduler differs from kube-apiserver here").first
    note.wait_for()
    metrics = page.locator('[data-testid="stMetric"]')
    assert metrics.count() == 4
    note_top = note.bounding_box()["y"]
    figures_bottom = max(m.bounding_box()["y"] + m.bounding_box()["height"] for m in metrics.all())
    assert note_top > figures_bottom, (note_top, figures_bottom)
    assert watch.console_errors == []
