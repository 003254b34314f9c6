"""``kubectl kcompat inspect --live`` through the real kubectl: kubectl finds the installed
``kubectl-kcompat`` plugin on PATH, and the plugin reads ``/version`` and ``/metrics`` of the
context kubectl was given (the same kubeconfig, ``--context``) from a local HTTP server (127.0.0.1
only) that replays a kube-apiserver's responses. The /version response is a recorded-format sample; the /metrics response is
GENERATED from the engine's prediction (tests/inspect_samples.py). No cluster is needed."""

import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES, flip, metrics_text, version_info

KUBECTL = shutil.which("kubectl")
PLUGIN = Path(sys.executable).parent / "kubectl-kcompat"
pytestmark = [
    pytest.mark.skipif(KUBECTL is None, reason="needs a real kubectl on PATH"),
    pytest.mark.skipif(not PLUGIN.exists(), reason="kubectl-kcompat is not installed (pip install -e .)"),
]


class _Replay(BaseHTTPRequestHandler):
    responses: ClassVar[dict[str, tuple[str, bytes]]] = {}
    seen: ClassVar[list[str]] = []

    def do_GET(self):  # noqa: N802 - http.server's name
        path = self.path.split("?")[0]
        self.seen.append(path)
        kind, body = self.responses.get(path, ("application/json", b'{"kind":"Status","code":404}'))
        self.send_response(200 if path in self.responses else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def cluster(tmp_path):
    """A replay server for a v1.36.2 kube-apiserver at --emulated-version=1.34, a kubeconfig
    with a context "replay" pointing at it, and a PATH where kubectl finds the plugin."""
    version = (SAMPLES / "version-1.36.2-emulating-1.34.json").read_bytes()
    metrics = metrics_text("v1.36.2", "1.34", info=version_info("version-1.36.2-emulating-1.34.json"))
    handler = type("Replay", (_Replay,), {"port": 0, "responses": {
        "/version": ("application/json", version),
        "/metrics": ("text/plain; version=0.0.4; charset=utf-8", metrics.encode()),
    }, "seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    handler.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\n"
        f"clusters:\n- name: replay\n  cluster:\n    server: http://127.0.0.1:{server.server_address[1]}\n"
        "users:\n- name: nobody\n  user: {}\n"
        "contexts:\n- name: replay\n  context:\n    cluster: replay\n    user: nobody\n"
        "- name: elsewhere\n  context:\n    cluster: nowhere\n    user: nobody\n"
        "current-context: elsewhere\n"
    )
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "kubectl-kcompat").symlink_to(PLUGIN)
    env = {
        "PATH": f"{plugins}{os.pathsep}{os.environ.get('PATH', '')}",
        "KUBECONFIG": str(kubeconfig),
        "HOME": str(tmp_path),
        "NO_PROXY": "127.0.0.1",
        "LANG": "C.UTF-8",
    }
    yield env, handler, metrics
    server.shutdown()
    server.server_close()


def kubectl(env, *args):
    return subprocess.run([KUBECTL, *args], env=env, capture_output=True, text=True, timeout=120, check=False)


def test_kubectl_finds_the_plugin(cluster):
    env, _, _ = cluster
    listed = kubectl(env, "plugin", "list")
    assert "kubectl-kcompat" in listed.stdout, listed.stderr


def test_live_inspect_through_kubectl(cluster):
    env, handler, _ = cluster
    done = kubectl(env, "kcompat", "inspect", "--live", "--context", "replay", "--format", "json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert (doc["binary"], doc["emulated"], doc["minCompatibility"]) == ("1.36", "1.34", "1.33")
    port = handler.port
    assert doc["sources"]["emulated"].startswith(f"http://127.0.0.1:{port}/version (context replay)")
    assert doc["observed"]["disagree"] == [] and doc["observed"]["agree"] > 100
    assert {"/version", "/metrics"} <= set(handler.seen)


def test_live_disagreement_exits_1(cluster):
    env, handler, metrics = cluster
    handler.responses["/metrics"] = ("text/plain; version=0.0.4", flip(metrics, "APIResponseCompression").encode())
    done = kubectl(env, "kcompat", "inspect", "--live", "--context", "replay")
    assert done.returncode == 1
    assert "APIResponseCompression" in done.stdout


def test_live_unreachable_context_exits_2(cluster):
    env, _, _ = cluster
    done = kubectl(env, "kcompat", "inspect", "--live", "--context", "elsewhere")
    assert done.returncode == 2
    assert "context elsewhere: cluster nowhere is not in kubeconfig" in done.stderr and "Traceback" not in done.stderr
