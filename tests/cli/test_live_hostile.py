"""``kcompat inspect --live`` against a misbehaving API server on 127.0.0.1 (tests/hostile_apiserver.py):
the answers are read within limits of size, decompression and time, with the kubeconfig's TLS and
credentials (client certificates, tokens, token files, exec plugins, an oidc auth-provider;
kubectl proxy for an expired one and a SOCKS5 proxy), and SIGTERM leaves no child behind.

Memory is measured for the whole process tree of the real command: its resident memory sampled
from /proc every 20 ms (every process below it summed), and the peak of the largest process
(``ru_maxrss`` from ``wait4``). Before the answers were read here, ``kubectl get --raw`` held a
200 MB /metrics whole (2.3-2.6 GB peak) and a gzip bomb decompressed (3.1-3.4 GB)."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hostile_apiserver import (
    OPENSSL,
    TOKEN,
    ConnectProxy,
    Socks5Proxy,
    alive,
    ca,
    descendants,
    kubeconfig,
    silent_listener,
)

pytestmark = pytest.mark.skipif(OPENSSL is None, reason="needs the openssl command to make test certificates")

KUBECTL = shutil.which("kubectl")


def _jwt(claims: dict) -> str:
    def part(value: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")

    return f"{part({'alg': 'RS256', 'typ': 'JWT'})}.{part(claims)}.c2lnbmF0dXJl"


def _oidc_user(lifetime: int = 3600) -> dict:
    token = _jwt({"iss": "https://issuer.invalid", "sub": "kcompat", "aud": "kcompat", "exp": int(time.time()) + lifetime})
    return {"auth-provider": {"name": "oidc", "config": {"client-id": "kcompat", "idp-issuer-url": "https://issuer.invalid",
                                                         "id-token": token}}}, token

KCOMPAT = [sys.executable, "-m", "kcompat", "inspect", "--live"]
LIMIT = 32 * 1024 * 1024
MEMORY_BOUND = 200 * 1024 * 1024
PROC_TREE = Path(__file__).resolve().parents[1] / "proc_tree.py"


def _b64(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode()


def cert_user(certs) -> dict:
    return {"client-certificate-data": _b64(certs["client.crt"]), "client-key-data": _b64(certs["client.key"])}


def env_for(tmp_path: Path, config: Path | None = None, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECONFIG", "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy")}
    env.update(HOME=str(tmp_path), LANG="C.UTF-8", **extra)
    if config is not None:
        env["KUBECONFIG"] = str(config)
    return env


def run(tmp_path: Path, config: Path, *args: str, timeout: float = 120, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([*KCOMPAT, *args], env=env_for(tmp_path, config, **extra), capture_output=True, text=True,
                          timeout=timeout, check=False)


def measured(tmp_path: Path, config: Path, *args: str, timeout: float = 300) -> tuple[int, str, str, int, int]:
    """Run kcompat under tests/proc_tree.py; (exit status, stdout, stderr, peak RSS of its process
    tree, ru_maxrss of its largest process) in bytes."""
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with open(out, "wb") as o, open(err, "wb") as e:
        done = subprocess.run([sys.executable, str(PROC_TREE), *KCOMPAT, *args], env=env_for(tmp_path, config), stdout=subprocess.PIPE,
                              stderr=e, timeout=timeout, check=False)
        o.write(done.stdout)
    figures = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return figures["status"], out.read_text(), err.read_text(), figures["peak"], figures["maxrss"]


# --- reading with the kubeconfig's TLS and credentials -----------------------------------------


def test_client_certificate_and_ca_data(server, certs, tmp_path):
    config = kubeconfig(tmp_path / "config", server.url, cert_user(certs), ca(certs))
    done = run(tmp_path, config, "--format", "json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert (doc["binary"], doc["emulated"], doc["minCompatibility"]) == ("1.36", "1.34", "1.33")
    assert doc["sources"]["emulated"].startswith(f"{server.url}/version (context hostile)")
    assert doc["observed"]["disagree"] == [] and doc["observed"]["agree"] > 100
    assert ("/metrics", "client certificate") in server.seen
    assert f"from {server.url} (client certificate)" in done.stderr  # says how it reads


def test_token_file_and_ca_file_relative_to_the_kubeconfig(server, certs, tmp_path):
    folder = tmp_path / "kube"
    folder.mkdir()
    shutil.copy(certs["ca.crt"], folder / "ca.crt")
    (folder / "token").write_text(TOKEN + "\n")
    config = kubeconfig(folder / "config", server.url, {"tokenFile": "token"}, {"certificate-authority": "ca.crt"})
    done = run(tmp_path, config)
    assert done.returncode == 0, done.stderr
    assert ("/version", "token") in server.seen and "(token file)" in done.stderr


def test_gzip_answers_are_decompressed(server, certs, tmp_path):
    server.mode = "gzip"
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, ca(certs))
    done = run(tmp_path, config, "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["observed"]["agree"] > 100


def test_a_refused_token_is_named(server, certs, tmp_path):
    config = kubeconfig(tmp_path / "config", server.url, {"token": "wrong"}, ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 2
    assert (f"kcompat: error: {server.url}/version (context hostile): answered 401 Unauthorized: Unauthorized "
            "(the context's credentials were refused or lack the permission)") in done.stderr


def test_an_unknown_ca_is_refused(server, certs, tmp_path):
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN})  # the system's roots
    done = run(tmp_path, config)
    assert done.returncode == 2 and "(context hostile): the server's certificate was not accepted: " in done.stderr


def test_insecure_skip_tls_verify(server, tmp_path):
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, {"insecure-skip-tls-verify": True})
    assert run(tmp_path, config).returncode == 0


def test_proxy_url_tunnels_with_connect(server, certs, tmp_path):
    proxy = ConnectProxy()
    try:
        config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, {**ca(certs), "proxy-url": proxy.url})
        done = run(tmp_path, config)
    finally:
        proxy.close()
    assert done.returncode == 0, done.stderr
    assert proxy.targets and set(proxy.targets) == {f"CONNECT 127.0.0.1:{server.port}"}


# --- exec credential plugins, as kubectl runs them ---------------------------------------------


def _plugin(tmp_path: Path, body: str) -> Path:
    plugin = tmp_path / "plugin"
    plugin.write_text(f"#!{sys.executable}\nimport json, os, sys, time\n{body}\n")
    plugin.chmod(0o755)
    return plugin


def _exec_user(plugin: Path, api_version: str = "client.authentication.k8s.io/v1", **extra) -> dict:
    return {"exec": {"apiVersion": api_version, "command": str(plugin), "args": ["get-token"], "interactiveMode": "Never",
                     "env": [{"name": "PLUGIN_TOKEN", "value": TOKEN}], **extra}}


@pytest.mark.parametrize("api_version", ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"])
def test_exec_plugin_token(server, certs, tmp_path, api_version):
    plugin = _plugin(tmp_path, (
        "info = json.loads(os.environ['KUBERNETES_EXEC_INFO'])\n"
        "assert sys.argv[1:] == ['get-token'] and info['spec']['interactive'] is False, info\n"
        "assert info['spec']['cluster']['server'].startswith('https://127.0.0.1:'), info\n"
        "print(json.dumps({'apiVersion': info['apiVersion'], 'kind': 'ExecCredential', 'status': {'token': os.environ['PLUGIN_TOKEN']}}))"
    ))
    config = kubeconfig(tmp_path / "config", server.url, _exec_user(plugin, api_version, provideClusterInfo=True), ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 0, done.stderr
    assert ("/metrics", "token") in server.seen and "exec plugin plugin (token)" in done.stderr


def test_exec_plugin_client_certificate(server, certs, tmp_path):
    credential = {"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
                  "status": {"clientCertificateData": certs["client.crt"].read_text(), "clientKeyData": certs["client.key"].read_text()}}
    plugin = _plugin(tmp_path, f"print(json.dumps({credential!r}))")
    config = kubeconfig(tmp_path / "config", server.url, _exec_user(plugin), ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 0, done.stderr
    assert ("/version", "client certificate") in server.seen


def test_a_missing_exec_plugin_gives_its_install_hint(server, certs, tmp_path):
    config = kubeconfig(tmp_path / "config", server.url,
                        _exec_user(Path("no-such-plugin"), installHint="install it with: apt-get install no-such-plugin"), ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 2
    assert "exec plugin no-such-plugin not found; install it with: apt-get install no-such-plugin" in done.stderr


def test_a_flooding_exec_plugin_is_stopped_at_its_limit(server, certs, tmp_path):
    plugin = _plugin(tmp_path, "chunk = b'y' * 65536\nwhile True:\n    sys.stdout.buffer.write(chunk)")
    config = kubeconfig(tmp_path / "config", server.url, _exec_user(plugin), ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 2
    assert "exec plugin" in done.stderr and "wrote more than the limit of 1,048,576 bytes on stdout; stopped" in done.stderr


def test_exec_plugin_stderr_escapes_do_not_reach_the_terminal(server, certs, tmp_path):
    plugin = _plugin(tmp_path, r"sys.stderr.write('\x1b]0;owned\x07\x1b[2J\x1b[31merror: \u202eforbidden\n'); sys.exit(1)")
    config = kubeconfig(tmp_path / "config", server.url, _exec_user(plugin), ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 2
    assert "failed (exit status 1): \\x1b]0;owned\\a\\x1b[2J\\x1b[31merror: \\u202eforbidden" in done.stderr
    assert "\x1b" not in done.stderr and "\u202e" not in done.stderr


def _load_in_process(tmp_path: Path, server_url: str, user: dict):
    """``live_config.load_credentials`` of a kubeconfig with ``user``, in this process; (the
    configuration and the run, or the LiveError, progress lines)."""
    from kcompat.data import live_config
    from kcompat.data.live import LiveError

    config = kubeconfig(tmp_path / "config", server_url, user)
    merged = live_config.merge([str(config)])
    values, folder = live_config.entries(merged, "users", "user")["hostile"]
    lines: list[str] = []
    try:
        return live_config.load_credentials(merged, "hostile", "hostile", values, folder, lines.append), lines
    except LiveError as exc:
        return exc, lines
    finally:
        live_config.remove_written_files()


def test_an_exec_plugin_run_patches_nothing_of_the_client_and_leaves_nothing_behind(tmp_path, capfd):
    """The plugin is run by kcompat.data.exec_bounds, the command of kcompat's copy of the exec
    entry: the client's modules keep their own subprocess and logging, the root logger its
    handlers and filters, the kubeconfig data its exec entry; the report folder is removed, the
    client's error is never printed and the token is kept as a secret."""
    import logging
    import tempfile

    from kubernetes.config import exec_provider, kube_config

    from kcompat.data import secrets

    root = logging.getLogger()
    before = (list(root.handlers), list(root.filters), set(Path(tempfile.gettempdir()).glob("kcompat-exec-*")))
    token = "exec-token-" + "q" * 20
    plugin = _plugin(tmp_path, (
        "info = json.loads(os.environ['KUBERNETES_EXEC_INFO'])\n"
        "assert info['spec']['interactive'] is False and sys.stdin.read() == '', info\n"
        "sys.stderr.write('a word on stderr\\n')\n"
        f"print(json.dumps({{'apiVersion': info['apiVersion'], 'kind': 'ExecCredential', 'status': {{'token': {token!r}}}}}))"
    ))
    (configuration, run), _ = _load_in_process(tmp_path, "https://127.0.0.1:1", _exec_user(plugin))
    assert configuration.api_key["BearerToken"] == f"Bearer {token}" and run.command == str(plugin)
    assert secrets.redact(f"x {token} y") != f"x {token} y"
    bad = _plugin(tmp_path, "print('not json %s %d')")
    failed, _ = _load_in_process(tmp_path, "https://127.0.0.1:1", _exec_user(bad))
    assert str(failed).startswith("user hostile: exec plugin ") and str(failed).endswith(" did not print an ExecCredential (not JSON)")
    assert exec_provider.subprocess is subprocess and kube_config.logging is logging
    assert (list(root.handlers), list(root.filters), set(Path(tempfile.gettempdir()).glob("kcompat-exec-*"))) == before
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # neither the client's error nor the plugin's stderr
    secrets.forget_all()


@pytest.mark.parametrize(("body", "status", "out", "stopped"), [
    ("sys.stdout.write('{\"k\": 1}'); sys.stderr.write('first\\nlast words\\n'); sys.exit(3)", 3, '{"k": 1}', ""),
    ("chunk = b'y' * 65536\nwhile True:\n    sys.stdout.buffer.write(chunk)", 1, "", "wrote more than the limit of 1,048,576 bytes on stdout"),
])
def test_the_exec_wrapper_passes_stdout_on_within_the_limits_and_reports_the_rest(tmp_path, body, status, out, stopped):
    plugin = _plugin(tmp_path, body)
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-P", "-m", "kcompat.data.exec_bounds", "--report", str(report), "--", str(plugin)],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stdout, done.stderr) == (status, out, "")
    written = json.loads(report.read_text())
    assert written["stopped"] == stopped and written["error"] == "" and '"k": 1' not in report.read_text()  # never stdout
    if not stopped:
        assert written["status"] == 3 and written["stderr"] == "first\nlast words\n"


def test_no_kcompat_module_writes_into_a_library_module():
    """No assignment, setattr or delattr on an imported module (kubernetes' exec_provider, say)
    nor on its ``__dict__``: in the library (kcompat/) on any module, in the dashboard on a
    module of the Kubernetes client (Streamlit's private parts are dashboard/server/internals.py's)."""
    import ast

    root = Path(__file__).resolve().parents[2]
    found = []
    for path in sorted([*(root / "kcompat").rglob("*.py"), *(root / "dashboard").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        library = path.is_relative_to(root / "kcompat")
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules |= {a.asname or a.name for a in node.names if library or a.name.split(".")[0] == "kubernetes"}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] not in ("kcompat", "dashboard", "__future__", "") \
                    and (library or (node.module or "").split(".")[0] == "kubernetes"):
                modules |= {a.asname or a.name for a in node.names if a.name.islower()}  # maybe a module (exec_provider)
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            if isinstance(node, ast.Delete):
                targets = node.targets
            for target in targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute) and target.value.attr == "__dict__":
                    target = target.value  # module.__dict__[name] = ...
                if isinstance(target, ast.Attribute) and ast.unparse(target.value) in modules:
                    found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(target)} written")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr") and node.args \
                    and ast.unparse(node.args[0]) in modules:
                found.append(f"{path.relative_to(root)}:{node.lineno}: {node.func.id}({ast.unparse(node.args[0])}, ...)")
    assert found == []


def test_a_kubeconfig_with_a_python_tag_is_refused(tmp_path):
    config = tmp_path / "config"
    config.write_text("apiVersion: v1\nkind: Config\nclusters: !!python/object/apply:os.system ['touch /tmp/owned']\n")
    done = run(tmp_path, config)
    assert done.returncode == 2 and "kubeconfig" in done.stderr and "Traceback" not in done.stderr


def test_missing_kubeconfig_and_context_are_named(server, certs, tmp_path):
    done = run(tmp_path, None)  # HOME is tmp_path: no ~/.kube/config
    assert done.returncode == 2 and f"kubeconfig {tmp_path}/.kube/config: no such file" in done.stderr
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, ca(certs))
    done = run(tmp_path, config, "--context", "elsewhere")
    assert done.returncode == 2 and "no context elsewhere (contexts: hostile)" in done.stderr


# --- size: nothing holds more than the limit ---------------------------------------------------


@pytest.mark.parametrize("mode", ["huge", "bomb"])
@pytest.mark.parametrize("path", ["direct", "kubectl proxy"])
def test_a_huge_or_gzip_bomb_metrics_stays_bounded(server, certs, tmp_path, mode, path, capsys):
    """200 MB of /metrics, or 1.4 MB of gzip that decompress to 1.5 GB: refused at the limit, and
    the whole process tree (kubectl proxy included, for a SOCKS5 proxy) stays under 200 MB."""
    if path == "kubectl proxy" and KUBECTL is None:
        pytest.skip("needs kubectl on PATH")
    server.mode = mode
    if mode == "bomb":
        server.bomb()  # made before the command starts
    socks = Socks5Proxy() if path == "kubectl proxy" else None
    try:
        config = kubeconfig(tmp_path / "config", server.url, cert_user(certs), {**ca(certs), **({"proxy-url": socks.url} if socks else {})})
        status, _, err, peak, maxrss = measured(tmp_path, config)
    finally:
        if socks is not None:
            socks.close()
    with capsys.disabled():
        print(f"\n[{mode} /metrics, {path}] process tree peak RSS {peak / 2**20:.1f} MB, largest process ru_maxrss {maxrss / 2**20:.1f} MB")
    assert status == 2
    expected = "larger than the limit of 33,554,432 bytes" + (" once decompressed" if mode == "bomb" else "")
    source = f"{server.url}/metrics" if path == "direct" else "kubectl proxy /metrics"
    assert f"{source} (context hostile): the answer is {expected}" in err
    assert peak < MEMORY_BOUND and maxrss < MEMORY_BOUND


# --- time: silent and slow servers ---------------------------------------------------------------


def test_a_silent_server_is_named_within_seconds_and_stopped(server, certs, tmp_path):
    server.mode = "silent"
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, ca(certs))
    started = time.monotonic()
    done = run(tmp_path, config, "--request-timeout", "4")
    took = time.monotonic() - started
    assert done.returncode == 2 and took < 30
    assert re.search(r"kcompat: waiting for https://127\.0\.0\.1:\d+/metrics \(context hostile\): sent the request, no answer yet", done.stderr)
    assert "/metrics (context hostile): no complete answer within 4 s; stopped" in done.stderr


def test_a_server_that_never_completes_the_handshake(certs, tmp_path):
    listener = silent_listener()
    try:
        url = f"https://127.0.0.1:{listener.getsockname()[1]}"
        config = kubeconfig(tmp_path / "config", url, {"token": TOKEN}, ca(certs))
        done = run(tmp_path, config, "--request-timeout", "3")
    finally:
        listener.close()
    assert done.returncode == 2 and "/version (context hostile): no complete answer within 3 s; stopped" in done.stderr
    assert "waiting for" in done.stderr and "TLS handshake" in done.stderr


def test_a_slow_drip_is_stopped_at_the_deadline(server, certs, tmp_path):
    server.mode = "drip"
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, ca(certs))
    started = time.monotonic()
    done = run(tmp_path, config, "--request-timeout", "3")
    assert done.returncode == 2 and time.monotonic() - started < 30
    assert "no complete answer within 3 s; stopped" in done.stderr and "bytes so far" in done.stderr


# --- SIGTERM: every child stopped --------------------------------------------------------------


def _wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _stderr_reader(process: subprocess.Popen) -> list[str]:
    lines: list[str] = []

    def pump():
        for line in process.stderr:
            lines.append(line)

    threading.Thread(target=pump, daemon=True).start()
    return lines


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_stops_a_hanging_exec_plugin_and_what_it_started(server, certs, tmp_path, sig):
    # the plugin starts a grandchild and both hang (a plugin waiting on a browser login, say)
    plugin = _plugin(tmp_path, "import subprocess\nsubprocess.Popen(['sleep', '600'])\ntime.sleep(600)")
    config = kubeconfig(tmp_path / "config", server.url, _exec_user(plugin), ca(certs))
    process = subprocess.Popen([*KCOMPAT], env=env_for(tmp_path, config), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines = _stderr_reader(process)
    try:
        _wait_for(lambda: any("still waiting for the exec credential plugin plugin" in line for line in lines))
        children = descendants(process.pid)
        assert len(children) >= 2  # the plugin and its sleep
        process.send_signal(sig)
        assert process.wait(15) == 128 + sig
        _wait_for(lambda: not any(alive(pid) for pid in children), 10)
        assert f"kcompat: error: stopped by {signal.Signals(sig).name}" in "".join(lines)
    finally:
        process.kill()


# --- auth-provider: read by the Kubernetes client; a token to refresh, and SOCKS5, left to kubectl proxy

def test_an_oidc_auth_provider_is_read_by_the_client(server, certs, tmp_path):
    user, token = _oidc_user()
    server.tokens.add(token)  # the client sends the id-token, as kubectl does
    config = kubeconfig(tmp_path / "config", server.url, user, ca(certs))
    done = run(tmp_path, config, "--format", "json")
    assert done.returncode == 0, done.stderr
    assert f"from {server.url} (auth-provider oidc)" in done.stderr and ("/metrics", "token") in server.seen
    assert token not in done.stderr + done.stdout


@pytest.mark.skipif(KUBECTL is None, reason="needs kubectl on PATH")
def test_an_expired_oidc_token_is_left_to_kubectl(server, certs, tmp_path):
    """The client would fetch a new id-token over the network with no time limit: kubectl does it
    (here it cannot: no refresh-token, an issuer that does not exist), and says why it failed."""
    user, token = _oidc_user(lifetime=-3600)
    config = kubeconfig(tmp_path / "config", server.url, user, ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "through kubectl proxy (user hostile has an auth-provider (oidc) whose id-token has expired)" in done.stderr
    assert token not in done.stderr and ("/version", "token") not in server.seen


@pytest.mark.skipif(KUBECTL is None, reason="needs kubectl on PATH")
def test_a_socks5_proxy_is_read_through_kubectl_proxy(server, certs, tmp_path):
    socks = Socks5Proxy()
    try:
        config = kubeconfig(tmp_path / "config", server.url, cert_user(certs), {**ca(certs), "proxy-url": socks.url})
        done = run(tmp_path, config, "--format", "json")
    finally:
        socks.close()
    assert done.returncode == 0, done.stderr
    assert f"through kubectl proxy (the proxy {socks.url} is not an http:// proxy)" in done.stderr
    assert json.loads(done.stdout)["sources"]["emulated"].startswith("kubectl proxy /version (context hostile)")
    assert socks.targets and set(socks.targets) == {f"CONNECT 127.0.0.1:{server.port}"}


@pytest.mark.skipif(KUBECTL is None, reason="needs kubectl on PATH")
def test_kubectl_proxy_is_stopped_on_sigterm(server, certs, tmp_path):
    server.mode = "silent"
    socks = Socks5Proxy()
    config = kubeconfig(tmp_path / "config", server.url, cert_user(certs), {**ca(certs), "proxy-url": socks.url})
    process = subprocess.Popen([*KCOMPAT], env=env_for(tmp_path, config), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines = _stderr_reader(process)
    try:
        _wait_for(lambda: any("waiting for kubectl proxy /metrics" in line for line in lines))
        children = descendants(process.pid)
        assert children  # kubectl proxy
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 128 + signal.SIGTERM
        _wait_for(lambda: not any(alive(pid) for pid in children), 10)
    finally:
        process.kill()
        socks.close()


def test_live_metrics_that_answers_version_json_is_named(server, certs, tmp_path):
    server.mode = "version-json"
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, ca(certs))
    done = run(tmp_path, config, "--format", "json")
    document = json.loads(done.stdout)
    assert done.returncode == 2 and document["observed"] is None
    assert len(document["errors"]) == 1
    assert re.fullmatch(r"https://127\.0\.0\.1:\d+/metrics \(context hostile\): given as /metrics, but this is /version JSON "
                        r"\(gitVersion v\d+\.\d+\.\d+[^)]*\)", document["errors"][0]), document["errors"]
    assert [i["kind"] for i in document["inputs"]] == ["/version", None]
