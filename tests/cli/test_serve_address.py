"""``kcompat serve`` (and ./scripts/serve.sh, which runs it) listens on this machine only unless
told otherwise: it said localhost but listened on every interface."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from kcompat.cli.main import build_parser
from kcompat.cli.serve import serve_command


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _non_loopback_address() -> str | None:
    """An address of this machine other than loopback, if it has one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: the kernel picks the outgoing address
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def test_the_default_address_is_loopback(monkeypatch):
    monkeypatch.delenv("ADDRESS", raising=False)
    args = build_parser("serve").parse_args(["serve"])
    command = serve_command(args)
    assert command[command.index("--server.address") + 1] == "127.0.0.1"
    args = build_parser("serve").parse_args(["serve", "--address", "0.0.0.0"])
    assert serve_command(args)[serve_command(args).index("--server.address") + 1] == "0.0.0.0"
    monkeypatch.setenv("ADDRESS", "0.0.0.0")
    args = build_parser("serve").parse_args(["serve"])
    assert serve_command(args)[serve_command(args).index("--server.address") + 1] == "0.0.0.0"


def test_the_server_answers_on_loopback_and_not_on_the_machines_other_address(tmp_path):
    other = _non_loopback_address()
    if other is None:
        pytest.skip("this machine has no address but loopback")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "ADDRESS"}
    process = subprocess.Popen([sys.executable, "-m", "kcompat", "serve", "--port", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, "kcompat serve exited"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not answer on 127.0.0.1"
            time.sleep(0.5)
        with socket.socket() as s:
            s.settimeout(2)
            assert s.connect_ex((other, port)) != 0, f"the server answers on {other}: it listens on every interface"
    finally:
        os.killpg(process.pid, 15)
        process.wait(30)
