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
