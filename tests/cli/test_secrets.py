"""No credential given to ``kcompat`` appears in anything it writes: stdout, stderr, or a file.

Each test gives a distinctive token, password or key (in a kubeconfig, a token file, an exec
plugin's answer, a server or proxy URL) to a real ``kcompat inspect --live`` against the local
API server of tests/hostile_apiserver.py, then looks for it in stdout, stderr and every file
under the test's folders (``HOME`` and ``TMPDIR`` are there) other than the ones the test wrote.
A bad header value is a one-line error naming the kubeconfig field, never an "unexpected" one.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kcompat.data import secrets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hostile_apiserver import (
    OPENSSL,
    TOKEN,
    ca,
    kubeconfig,
    silent_listener,
)

pytestmark = pytest.mark.skipif(OPENSSL is None, reason="needs the openssl command to make test certificates")

SECRET = "Zq7SECRETxv9"  # in every credential below: found nowhere kcompat writes


def run(tmp_path: Path, config: Path, *args: str, path: str | None = None, **extra: str) -> subprocess.CompletedProcess:
    """``kcompat inspect --live ARGS`` with HOME and TMPDIR under ``tmp_path``; every file it left
    there is checked for the secret (the ones written before the run excepted)."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
    env = {k: v for k, v in os.environ.items() if k.upper() not in ("KUBECONFIG", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")}
    env.update(HOME=str(tmp_path), TMPDIR=str(tmp), LANG="C.UTF-8", KUBECONFIG=str(config), **extra)
    if path is not None:
        env["PATH"] = path
    done = subprocess.run([sys.executable, "-m", "kcompat", "inspect", "--live", *args], env=env, capture_output=True,
                          timeout=120, check=False)
    for stream in (done.stdout, done.stderr):
        assert SECRET.encode() not in stream, stream.decode(errors="replace")
        assert b"\x1b" not in stream
    written = [p for p in tmp_path.rglob("*") if p.is_file() and before.get(p) != p.stat().st_mtime_ns]
    for p in written:
        assert SECRET.encode() not in p.read_bytes(), p
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def one_error(done: subprocess.CompletedProcess) -> str:
    """The error line of a refused run (exactly one, no "unexpected")."""
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("kcompat: error:")]
    assert len(errors) == 1 and "unexpected" not in done.stderr, done.stderr
    return errors[0]


@pytest.mark.parametrize("token", [f"{SECRET}\nsecond-line", f"{SECRET}\r\nX-Injected: 1", f"{SECRET}\x00", f"{SECRET}\x1b[31m"])
def test_a_token_with_a_control_character_names_the_field(server, certs, tmp_path, token):
    config = kubeconfig(tmp_path / "config", server.url, {"token": token}, ca(certs))
    line = one_error(run(tmp_path, config))
    assert "context hostile: users[hostile].user.token holds a line break or another control character" in line
    assert "(the value is not shown)" in line
    assert server.seen == []  # nothing was sent


def test_a_token_that_is_not_ascii_names_the_field(server, certs, tmp_path):
    config = kubeconfig(tmp_path / "config", server.url, {"token": f"{SECRET}\u20ac\u00fc"}, ca(certs))
    line = one_error(run(tmp_path, config))
    assert "users[hostile].user.token holds a character that is not ASCII" in line and server.seen == []


def test_a_token_file_with_a_line_break_inside_names_the_file(server, certs, tmp_path):
    (tmp_path / "token").write_text(f"{SECRET}\nsecond-line\n")
    config = kubeconfig(tmp_path / "config", server.url, {"tokenFile": "token"}, ca(certs))
    line = one_error(run(tmp_path, config))
    assert f"users[hostile].user.tokenFile ({tmp_path / 'token'}) holds a line break" in line


def _plugin(tmp_path: Path, token: str, stderr: str = "") -> dict:
    plugin = tmp_path / "plugin"
    plugin.write_text(f"#!{sys.executable}\nimport json, sys\nsys.stderr.write({stderr!r})\n"
                      f"print(json.dumps({{'apiVersion': 'client.authentication.k8s.io/v1', 'kind': 'ExecCredential', "
                      f"'status': {{'token': {token!r}}}}}))\n")
    plugin.chmod(0o755)
    return {"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": str(plugin), "interactiveMode": "Never"}}


def test_an_exec_plugin_token_with_a_line_break_names_the_field(server, certs, tmp_path):
    config = kubeconfig(tmp_path / "config", server.url, _plugin(tmp_path, f"{SECRET}\nsecond-line"), ca(certs))
    line = one_error(run(tmp_path, config))
    assert "users[hostile].user.exec (the plugin's status.token) holds a line break" in line


def test_an_exec_plugin_that_prints_its_token_on_stderr_is_not_echoed(server, certs, tmp_path):
    """Its token is refused by the server: the plugin's own stderr, shown nowhere on success, and
    the 401 are printed without it."""
    server.tokens = {"another"}
    config = kubeconfig(tmp_path / "config", server.url, _plugin(tmp_path, SECRET, stderr=f"got token {SECRET}\n"), ca(certs))
    line = one_error(run(tmp_path, config))
    assert "answered 401 Unauthorized" in line


def test_a_password_in_the_server_url_is_never_shown(server, certs, tmp_path):
    url = server.url.replace("https://", f"https://admin:{SECRET}@")
    config = kubeconfig(tmp_path / "config", url, {"token": TOKEN}, ca(certs))
    for fmt in ("table", "json", "markdown"):
        done = run(tmp_path, config, "--format", fmt)
        assert done.returncode == 0, done.stderr
        assert f"from {server.url} (bearer token)" in done.stderr and "admin" not in done.stderr + done.stdout


def test_a_password_in_a_failing_server_url_is_never_shown(certs, tmp_path):
    listener = silent_listener()  # accepts, never answers the handshake
    try:
        port = listener.getsockname()[1]
        config = kubeconfig(tmp_path / "config", f"https://admin:{SECRET}@127.0.0.1:{port}/prefix", {"token": TOKEN}, ca(certs))
        line = one_error(run(tmp_path, config, "--request-timeout", "3"))
    finally:
        listener.close()
    assert f"https://127.0.0.1:{port}/prefix/version (context hostile): no complete answer within 3 s" in line


@pytest.mark.parametrize("server_url", ["https://admin:{s}@127.0.0.1:99999", "ftp://admin:{s}@127.0.0.1", "https://admin:{s}@"])
def test_a_password_in_a_bad_server_url_is_never_shown(certs, tmp_path, server_url):
    config = kubeconfig(tmp_path / "config", server_url.format(s=SECRET), {"token": TOKEN}, ca(certs))
    line = one_error(run(tmp_path, config))
    assert "admin" not in line


def test_a_proxy_password_is_never_shown(server, certs, tmp_path):
    # a socks5 proxy is left to kubectl: the note says so, without the password; no kubectl here
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, {**ca(certs), "proxy-url": f"socks5://user:{SECRET}@127.0.0.1:1080"})
    line = one_error(run(tmp_path, config, path=str(tmp_path / "no-bin")))
    assert "the proxy socks5://127.0.0.1:1080 is not an http:// proxy" in line and "kubectl is not on PATH" in line
    # a bad port, from the kubeconfig or from the environment
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, {**ca(certs), "proxy-url": f"http://user:{SECRET}@proxy:99999"})
    assert "proxy http://proxy:99999 has a bad port" in one_error(run(tmp_path, config))
    config = kubeconfig(tmp_path / "config", "https://kubernetes.invalid:6443", {"token": TOKEN}, ca(certs))
    line = one_error(run(tmp_path, config, HTTPS_PROXY=f"http://user:{SECRET}@proxy:99999"))
    assert "proxy http://proxy:99999 has a bad port" in line


def test_a_proxy_that_never_answers_is_named(server, certs, tmp_path):
    listener = silent_listener()
    try:
        port = listener.getsockname()[1]
        proxy = f"http://user:{SECRET}@127.0.0.1:{port}"
        config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN}, {**ca(certs), "proxy-url": proxy})
        done = run(tmp_path, config, "--request-timeout", "4")
    finally:
        listener.close()
    line = one_error(done)
    assert line.endswith(f"no complete answer within 4 s; stopped (through the proxy http://127.0.0.1:{port}: "
                         "asked the proxy to connect, no answer yet)")
    assert "stopped after 4 s)" in done.stderr  # the progress line names the limit applied


def test_a_password_and_a_client_key_are_never_shown(server, certs, tmp_path):
    """Basic authentication's password and a client key: the server refuses both (401 for the
    password, its client certificate is not the one the key fits), nothing shows them."""
    key = certs["client.key"].read_text()
    user = {"username": "admin", "password": SECRET, "client-certificate-data": base64.b64encode(certs["ca.crt"].read_bytes()).decode(),
            "client-key-data": base64.b64encode(key.encode()).decode()}
    config = kubeconfig(tmp_path / "config", server.url, user, ca(certs))
    done = run(tmp_path, config)
    assert done.returncode == 2 and "unexpected" not in done.stderr, done.stderr
    body = "".join(line for line in key.splitlines() if not line.startswith("-----"))
    for piece in (body[i:i + 40] for i in range(0, len(body) - 40, 40)):
        assert piece not in done.stdout + done.stderr


@pytest.mark.parametrize("field", ["as", "as-uid"])
def test_an_impersonation_value_with_a_line_break_names_the_field(server, certs, tmp_path, field):
    config = kubeconfig(tmp_path / "config", server.url, {"token": TOKEN, field: "admin\r\nX-Injected: 1"}, ca(certs))
    line = one_error(run(tmp_path, config))
    assert f"users[hostile].user.{field} holds a line break or another control character" in line


def test_the_guard_redacts_a_secret_a_message_forgot():
    """Every byte the CLI writes passes the guard: a secret read in the process (kept in
    kcompat.data.secrets) is replaced wherever it would appear, here in argparse's echo of a
    value and in a refusal of the core."""
    code = (f"import sys; from kcompat.data import secrets; secrets.keep({SECRET!r}); from kcompat.cli.main import main; "
            f"sys.exit(main(sys.argv[1:]))")
    for args in (["gates", "--binary", f"1.{SECRET}"], ["gates", f"--{SECRET}"], ["gates", "--binary", "1.36", "--emulated", SECRET]):
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, timeout=60, check=False)
        assert done.returncode == 2, done
        assert SECRET.encode() not in done.stdout + done.stderr and b"[redacted]" in done.stderr, done.stderr


CATCH_ALL = (
    "import sys\n"
    "from kcompat.data import secrets\n"
    "from kcompat.cli.main import main\n"
    f"secrets.keep({SECRET!r})\n"
    "class Broken:  # a catalog that fails in a way nobody expected, its message holding a header value\n"
    "    def __getattr__(self, name):\n"
    f"        raise ValueError('Invalid header value ' + repr(b'Bearer {SECRET}' + bytes([10]) + b'second-line') + ' \\x1b]0;owned\\x07')\n"
    "sys.exit(main(['gates', '--binary', '1.36', '--emulated', '1.34'], catalog=Broken()))\n"
)


def test_the_catch_all_prints_the_type_only():
    env = {k: v for k, v in os.environ.items() if k != "KCOMPAT_DEBUG"}
    done = subprocess.run([sys.executable, "-c", CATCH_ALL], capture_output=True, timeout=60, check=False, env=env)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr == b"kcompat: error: unexpected ValueError (set KCOMPAT_DEBUG=1 to see its message and where)\n"


def test_the_debug_traceback_passes_the_guard():
    done = subprocess.run([sys.executable, "-c", CATCH_ALL], capture_output=True, timeout=60, check=False,
                          env={**os.environ, "KCOMPAT_DEBUG": "1"})
    assert done.returncode == 2
    assert b"Traceback" in done.stderr and b"ValueError: Invalid header value b'Bearer [redacted]\\nsecond-line'" in done.stderr
    assert SECRET.encode() not in done.stderr and b"\x1b" not in done.stderr and b"\\x1b]0;owned\\a" in done.stderr


def test_the_registry_keeps_secrets_and_the_forms_they_are_shown_in():
    secrets.forget_all()
    try:
        assert not secrets.any_kept()
        secrets.keep("abc")  # too short to be worth replacing everywhere
        secrets.keep(None)
        assert not secrets.any_kept()
        secrets.keep("tok-1234\nline2-xyz")
        secrets.keep(b"-----BEGIN KEY-----\nAAAABBBBCCCC\nDDDDEEEE\n-----END KEY-----\n")
        assert secrets.redact("a tok-1234\nline2-xyz b") == "a [redacted] b"
        assert secrets.redact("shown: tok-1234\\nline2-xyz") == "shown: [redacted]"  # as printable() writes it
        assert secrets.redact("line AAAABBBBCCCC and DDDDEEEE") == "line [redacted] and [redacted]"
        assert secrets.redact("nothing here") == "nothing here"
    finally:
        secrets.forget_all()
