"""``kcompat inspect --live`` at its edges: exec plugins chatty on stderr, a slow server's progress
line, and stdin closed for ``kcompat scan -`` (real processes, the local API server of
tests/hostile_apiserver.py)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hostile_apiserver import (
    OPENSSL,
    TOKEN,
    ca,
    kubeconfig,
)

pytestmark = pytest.mark.skipif(OPENSSL is None, reason="needs the openssl command to make test certificates")


def env_for(tmp_path: Path, config: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k.upper() not in ("KUBECONFIG", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")}
    env.update(HOME=str(tmp_path), LANG="C.UTF-8", KUBECONFIG=str(config))
    return env


def run(tmp_path: Path, config: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kcompat", "inspect", "--live", *args], env=env_for(tmp_path, config),
                          capture_output=True, text=True, timeout=120, check=False)


def exec_user(tmp_path: Path, body: str) -> dict:
    plugin = tmp_path / "plugin"
    plugin.write_text(f"#!{sys.executable}\nimport json, sys\n{body}\n")
    plugin.chmod(0o755)
    return {"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": str(plugin), "interactiveMode": "Never"}}


CREDENTIAL = f"print(json.dumps({{'apiVersion': 'client.authentication.k8s.io/v1', 'kind': 'ExecCredential', 'status': {{'token': {TOKEN!r}}}}}))"


def test_an_exec_plugin_failing_after_100_kb_on_stderr_gives_its_status_and_last_line(server, certs, tmp_path):
    user = exec_user(tmp_path, "for i in range(1000): sys.stderr.write(f'warning {i}: ' + 'w' * 90 + '\\n')\n"
                               "sys.stderr.write('error: the \\x1b[31mrefresh token\\x1b[0m expired\\n'); sys.exit(7)")
    config = kubeconfig(tmp_path / "config", server.url, user, ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("kcompat: error: user hostile: exec plugin "), done.stderr
    assert done.stderr.endswith(" failed (exit status 7): error: the \\x1b[31mrefresh token\\x1b[0m expired\n"), done.stderr
    assert "\x1b" not in done.stderr and len(done.stderr) < 2000


def test_an_exec_plugin_with_200_kb_of_warnings_then_a_credential_is_used(server, certs, tmp_path):
    user = exec_user(tmp_path, f"for i in range(2000): sys.stderr.write(f'warning {{i}}: ' + 'w' * 90 + '\\n')\n{CREDENTIAL}")
    config = kubeconfig(tmp_path / "config", server.url, user, ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 0, done.stderr
    assert ("/metrics", "token") in server.seen and "warning" not in done.stderr


def _first_note(tmp_path: Path, config: Path, *args: str) -> str:
    """The first "waiting for" line of a run (then the run is stopped)."""
    process = subprocess.Popen([sys.executable, "-m", "kcompat", "inspect", "--live", *args], env=env_for(tmp_path, config),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            if "waiting for" in line or not line:
                return line
        raise AssertionError("no progress line")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)


@pytest.mark.parametrize(("args", "stops"), [((), "stopped after 20 s unless data comes"), (("--request-timeout", "5"), "stopped after 5 s)")])
def test_the_progress_line_states_the_limit_applied(server, certs, tmp_path, args, stops):
    """A server that accepts the request and never answers: the read stops when no data came for
    20 s (before the 60 s of the whole answer), and the progress line says that limit."""
    server.mode = "silent"
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, ca(certs))
    line = _first_note(tmp_path, config, *args)
    assert re.search(r"/metrics \(context hostile\): sent the request, no answer yet \(\d+ s; ", line), line
    assert stops in line, line


def test_the_silent_server_stops_at_the_limit_the_progress_line_said(server, certs, tmp_path):
    server.mode = "silent"
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, ca(certs))
    started = time.monotonic()
    done = run(tmp_path, config)
    took = time.monotonic() - started
    assert done.returncode == 2 and "no data for 20 s" in done.stderr, done.stderr
    assert "stopped after 20 s unless data comes" in done.stderr and 19 < took < 40


def test_scan_of_stdin_when_stdin_is_closed(tmp_path):
    done = subprocess.run([sys.executable, "-m", "kcompat", "scan", "-"], stdin=None, capture_output=True, text=True, timeout=60,
                          check=False, preexec_fn=lambda: os.close(0))
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("kcompat: error: - reads the manifests from stdin, which is closed: pipe them in, "
                           "or give a FILE or DIRECTORY\n")


EXEC = {"apiVersion": "client.authentication.k8s.io/v1", "command": "/bin/echo"}


@pytest.mark.parametrize(("cluster", "user", "message"), [
    ({"server": "https://127.0.0.1:9", "tls-server-name": "a\nb"}, {"token": "abcd"},
     "context hostile: clusters[hostile].cluster.tls-server-name holds a space or a control character, which a host name cannot: a\\nb"),
    ({"server": "https://[::1"}, {"token": "abcd"}, "context hostile: clusters[hostile].cluster.server is not a URL kcompat can read"),
    ({"server": "http://127.0.0.1:9"}, {"token": "abcd", "as-groups": "admins"}, "context hostile: users[hostile].user.as-groups is not a list"),
    ({"server": "http://127.0.0.1:9"}, {"exec": {**EXEC, "args": ["a\x00b"]}}, "exec plugin /bin/echo could not be run: embedded null byte"),
    ({"server": "http://127.0.0.1:9"}, {"exec": {**EXEC, "env": [{"name": "A\x00", "value": "b"}]}},
     "exec plugin /bin/echo could not be run: embedded null byte"),
])
def test_kubeconfig_values_no_request_can_carry_are_named(tmp_path, cluster, user, message):
    config = tmp_path / "config"
    kubeconfig(config, cluster.pop("server"), user, cluster)
    done = run(tmp_path, config)
    assert done.returncode == 2 and "unexpected" not in done.stderr, done.stderr
    assert message in done.stderr, done.stderr
