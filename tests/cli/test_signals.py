"""SIGTERM and SIGHUP end a command as Ctrl-C does: clean-up runs and no child is left behind.

``kcompat screenshots`` starts its own Streamlit server (and chromium): stopped by SIGTERM, it
must stop them and free the port (before, the server kept running and kept its port).
``inspect --live``'s children are tested in tests/cli/test_live_hostile.py, an interrupted
refresh in tests/cli/test_data_writes.py."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hostile_apiserver import alive, descendants


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as answer:
            return answer.status == 200
    except OSError:
        return False


def _port_closed(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) != 0


@pytest.mark.parametrize("sig, when", [(signal.SIGTERM, "serving"), (signal.SIGHUP, "serving"), (signal.SIGTERM, "starting")])
def test_screenshots_stops_its_server_on_sigterm(tmp_path, sig, when):
    """``when``: once the server answers its health check, or as soon as its process exists (kcompat
    is still waiting for it to start)."""
    process = subprocess.Popen([sys.executable, "-m", "kcompat", "screenshots", "--page", "gates", "--out", str(tmp_path / "shots")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port, server, deadline = None, None, time.monotonic() + 120
        while port is None or (when == "serving" and not _healthy(port)):
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline, "the dashboard server did not start"
            for pid in descendants(process.pid):
                found = re.search(r"(?:streamlit|dashboard\.server) run .* --server\.port (\d+)", _cmdline(pid))
                if found:
                    port, server = int(found.group(1)), pid
            time.sleep(0.2)
        children = descendants(process.pid)
        process.send_signal(sig)
        assert process.wait(30) == 128 + sig
        assert f"kcompat: error: stopped by {signal.Signals(sig).name}" in process.stderr.read()
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(server)
        assert not [pid for pid in children if alive(pid)]
        assert _port_closed(port)
    finally:
        process.kill()
