"""A misbehaving API server on 127.0.0.1 for ``kcompat inspect --live`` (no cluster needed).

TLS with a CA, a server certificate for 127.0.0.1 and a client certificate made here by Debian's
``openssl`` command; ``/version`` and ``/metrics`` answered by a mode:

- ``good``: the recorded-format /version and a /metrics generated from the engine's prediction
  (``gzip``: the same, gzip-encoded as a real API server sends it);
- ``huge``: a /metrics of 200 MB, generated while it is sent (the server holds 1 MB);
- ``bomb``: a gzip bomb, 1.4 MB on the wire that decompress to 1.5 GB;
- ``drip``: headers, then one byte every 0.2 s forever;
- ``silent``: ``/metrics`` accepted and never answered (the connection is held open);
- ``version-json``: ``/metrics`` answers with the /version JSON (another endpoint's format).

A server that never answers the TLS handshake is :func:`silent_listener`. Requests need the client
certificate or ``Authorization: Bearer <token>`` with ``token`` (401 otherwise), and are recorded.
"""

from __future__ import annotations

import base64
import gzip
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

from inspect_samples import SAMPLES, metrics_text, version_info
from proc_tree import alive, descendants, tree_rss  # noqa: F401 - the tests import them from here

OPENSSL = shutil.which("openssl")
TOKEN = "s3cr3t-token"
HUGE_BYTES = 200 * 1024 * 1024
BOMB_BYTES = 1536 * 1024 * 1024


def make_certificates(folder: Path) -> dict[str, Path]:
    """A CA, a server certificate for 127.0.0.1 and localhost, and a client certificate."""
    folder.mkdir(parents=True, exist_ok=True)

    def run(*args: str) -> None:
        subprocess.run([OPENSSL, *args], check=True, capture_output=True, cwd=folder, timeout=60)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=kcompat-test-ca")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for name, subject in (("server", "/CN=127.0.0.1"), ("client", "/CN=kcompat-test-user/O=system:masters")):
        run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", subject)
        extra = ["-extfile", "san.ext"] if name == "server" else []
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", f"{name}.crt",
            "-days", "2", *extra)
    return {n: folder / n for n in ("ca.crt", "server.crt", "server.key", "client.crt", "client.key")}


def _bomb() -> bytes:
    """gzip of BOMB_BYTES of '#' (a /metrics comment), made in 8 MB pieces."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    piece = b"#" * (8 * 1024 * 1024)
    out = [compressor.compress(piece) for _ in range(BOMB_BYTES // len(piece))]
    out.append(compressor.flush())
    return b"".join(out)


class HostileApiServer:
    """The server (see the module). ``mode`` may be changed between requests."""

    def __init__(self, certs: dict[str, Path], mode: str = "good") -> None:
        self.certs = certs
        self.mode = mode
        self.seen: list[tuple[str, str]] = []  # (path, how the client authenticated)
        self.tokens = {TOKEN}  # bearer tokens accepted
        self.version = (SAMPLES / "version-1.36.2-emulating-1.34.json").read_bytes()
        self.metrics = metrics_text("v1.36.2", "1.34", info=version_info("version-1.36.2-emulating-1.34.json")).encode()
        self._bomb: bytes | None = None
        self._stop = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):  # noqa: N802 - http.server's name
                owner.handle(self)

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certs["server.crt"], certs["server.key"])
        context.load_verify_locations(certs["ca.crt"])
        context.verify_mode = ssl.CERT_OPTIONAL
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        self.url = f"https://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def bomb(self) -> bytes:
        if self._bomb is None:
            self._bomb = _bomb()
        return self._bomb

    def close(self) -> None:
        self._stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def handle(self, request: BaseHTTPRequestHandler) -> None:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
        path = request.path.split("?")[0]
        peer = request.connection.getpeercert() if isinstance(request.connection, ssl.SSLSocket) else None
        bearer = request.headers.get("Authorization", "")
        how = "client certificate" if peer else "token" if bearer.removeprefix("Bearer ") in self.tokens else "none"
        self.seen.append((path, how))
        if how == "none":
            body = b'{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}'
            return self._send(request, 401, body, "application/json")
        if path == "/version":
            return self._send(request, 200, self.version, "application/json")
        if path != "/metrics":
            return self._send(request, 404, b'{"kind":"Status","code":404}', "application/json")
        mode = self.mode
        if mode == "good":
            return self._send(request, 200, self.metrics, "text/plain; version=0.0.4")
        if mode == "version-json":
            return self._send(request, 200, self.version, "application/json")
        if mode == "gzip":
            return self._send(request, 200, gzip.compress(self.metrics), "text/plain; version=0.0.4", encoding="gzip")
        if mode == "bomb":
            return self._send(request, 200, self.bomb(), "text/plain; version=0.0.4", encoding="gzip")
        if mode == "huge":
            request.send_response(200)
            request.send_header("Content-Type", "text/plain; version=0.0.4")
            request.send_header("Content-Length", str(HUGE_BYTES))
            request.end_headers()
            line = b"# " + b"x" * 1021 + b"\n"
            block = line * 1024  # 1 MB
            try:
                for _ in range(HUGE_BYTES // len(block)):
                    request.wfile.write(block)
            except OSError:
                pass  # the client stopped reading: what it should do
            return None
        if mode == "drip":
            request.send_response(200)
            request.send_header("Content-Type", "text/plain")
            request.send_header("Content-Length", str(10**9))
            request.end_headers()
            try:
                while not self._stop.is_set():
                    request.wfile.write(b"#")
                    request.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
            return None
        if mode == "silent":
            self._stop.wait(600)  # never answers (until the server is closed)
            return None
        raise AssertionError(mode)

    @staticmethod
    def _send(request: BaseHTTPRequestHandler, status: int, body: bytes, kind: str, encoding: str | None = None) -> None:
        request.send_response(status)
        request.send_header("Content-Type", kind)
        if encoding:
            request.send_header("Content-Encoding", encoding)
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        with contextlib.suppress(OSError):
            request.wfile.write(body)


def silent_listener() -> socket.socket:
    """A listening socket on 127.0.0.1 that accepts connections (the kernel does) and never
    answers anything, the TLS handshake included."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    return sock


def kubeconfig(path: Path, server: str, user: dict, cluster_extra: dict | None = None, name: str = "hostile") -> Path:
    """A kubeconfig with one context ``name`` (current) for ``server`` and ``user``, written as YAML."""
    import yaml

    cluster = {"server": server, **(cluster_extra or {})}
    document = {
        "apiVersion": "v1", "kind": "Config", "current-context": name,
        "clusters": [{"name": name, "cluster": cluster}],
        "users": [{"name": name, "user": user}],
        "contexts": [{"name": name, "context": {"cluster": name, "user": name}}],
    }
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


class ConnectProxy:
    """An HTTP proxy on 127.0.0.1 that accepts ``CONNECT host:port`` and pipes the bytes both ways;
    ``targets`` records what was asked for."""

    def __init__(self) -> None:
        self.targets: list[str] = []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._tunnel, args=(client,), daemon=True).start()

    def _tunnel(self, client: socket.socket) -> None:
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 8192:
            chunk = client.recv(1024)
            if not chunk:
                return client.close()
            head += chunk
        method, target = head.split(b" ")[:2]
        self.targets.append(f"{method.decode()} {target.decode()}")
        host, port = target.decode().rsplit(":", 1)
        upstream = socket.create_connection((host, int(port)))
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")

        splice(client, upstream)

    def close(self) -> None:
        self.sock.close()


class Socks5Proxy(ConnectProxy):
    """A SOCKS5 proxy on 127.0.0.1 (no authentication, CONNECT only), which kcompat leaves to
    ``kubectl proxy``; ``targets`` records what was asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.url = self.url.replace("http://", "socks5://")

    def _tunnel(self, client: socket.socket) -> None:
        def exactly(n: int) -> bytes:
            data = b""
            while len(data) < n:
                chunk = client.recv(n - len(data))
                if not chunk:
                    raise OSError("closed")
                data += chunk
            return data

        try:
            _, methods = exactly(2)
            exactly(methods)
            client.sendall(b"\x05\x00")
            _, _, _, kind = exactly(4)  # version, CONNECT (the only command asked for), reserved, address type
            if kind == 1:
                host = socket.inet_ntoa(exactly(4))
            elif kind == 3:
                host = exactly(exactly(1)[0]).decode()
            else:
                host = socket.inet_ntop(socket.AF_INET6, exactly(16))
            port = int.from_bytes(exactly(2), "big")
            self.targets.append(f"CONNECT {host}:{port}")
            upstream = socket.create_connection((host, port))
            client.sendall(b"\x05\x00\x00\x01\x00\x00\x00\x00\x00\x00")
        except OSError:
            client.close()
            return

        splice(client, upstream)


def ca(certs: dict) -> dict:
    """The kubeconfig cluster entry trusting the test CA of ``certs`` (:func:`make_certificates`)."""
    return {"certificate-authority-data": base64.b64encode(certs["ca.crt"].read_bytes()).decode()}


def _pipe(a: socket.socket, b: socket.socket) -> None:
    try:
        while data := a.recv(65536):
            b.sendall(data)
    except OSError:
        pass
    finally:
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)


def splice(client: socket.socket, upstream: socket.socket) -> None:
    """Relay both ways between a proxy's client and its upstream until either side closes."""
    threading.Thread(target=_pipe, args=(upstream, client), daemon=True).start()
    _pipe(client, upstream)
