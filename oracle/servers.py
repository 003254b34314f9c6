"""The real servers record.py starts on 127.0.0.1: etcd, kube-apiserver, kube-scheduler and
kube-controller-manager, and what it asks them (standard library only).

:func:`watch` is the one way a server is started and judged: it runs the binary with extra flags
until it is ready, exits, or a time limit passes, and says which of the four it was:

* ``refused``: it exited before its port ever answered (an option or version check);
* ``exited``: it answered, then exited (a post-start hook that could not finish, a fatal check);
* ``not-ready``: still running at the time limit, ``/readyz`` never ``ok`` (the failing checks kept);
* ``ready``: ``/readyz`` (``/healthz`` for the scheduler and controller-manager) said ``ok``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import ssl
import subprocess
import time
import urllib.error
import http.client
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

METRIC = re.compile(r'^kubernetes_feature_enabled\{name="([^"]+)",stage="([^"]*)"\} ([01])$')
KLOG_HEADER = re.compile(r"^([EWIF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ ")
TOKEN = "kcompat-oracle-token"

_CTX = ssl.create_default_context()
_CTX.check_hostname = False
_CTX.verify_mode = ssl.CERT_NONE


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def log_line(line: str) -> str:
    """A klog line without its date, time and thread id, so two recordings of the same answer are equal."""
    return KLOG_HEADER.sub(r"\1 ", line)


def status(port: int, path: str, timeout: float = 10, token: bool = True) -> tuple[int, bytes]:
    """(HTTP status, body) of a GET; an error status is an answer too. OSError when nothing answers."""
    headers = {"Authorization": f"Bearer {TOKEN}"} if token else {}
    request = urllib.request.Request(f"https://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, context=_CTX, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        try:
            return exc.code, exc.read()
        except http.client.HTTPException as cut_short:  # the body ended early (the server went away): no answer
            raise OSError(f"GET {path}: HTTP {exc.code}, body cut short: {cut_short!r}") from None
    except http.client.HTTPException as exc:  # an answer cut short, as when the server exits mid-reply
        raise OSError(f"GET {path}: {exc!r}") from None


def get(port: int, path: str, timeout: float = 10, token: bool = True) -> bytes:
    code, body = status(port, path, timeout, token)
    if code != 200:
        raise OSError(f"GET {path}: HTTP {code}")
    return body


def get_json(port: int, path: str):
    return json.loads(get(port, path))


class Etcd:
    def __init__(self, binary: Path, work: Path):
        self.client = free_port()
        peer = free_port()
        self.log = open(work / f"etcd-{self.client}.log", "w")
        self.proc = subprocess.Popen(
            [str(binary), "--data-dir", str(work / f"etcd-{self.client}"), "--listen-client-urls", f"http://127.0.0.1:{self.client}",
             "--advertise-client-urls", f"http://127.0.0.1:{self.client}", "--listen-peer-urls", f"http://127.0.0.1:{peer}",
             "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}", "--initial-cluster", f"default=http://127.0.0.1:{peer}",
             "--quota-backend-bytes", str(2 * 1024**3)],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.client}/health", timeout=2) as r:
                    if b"true" in r.read():
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise RuntimeError("etcd did not become healthy")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.client}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=30)
        self.log.close()


def service_account_keys(work: Path) -> tuple[Path, Path]:
    key = work / "sa.key"
    pub = work / "sa.pub"
    if not key.exists():
        subprocess.run(["openssl", "genrsa", "-out", str(key), "2048"], check=True, capture_output=True)
        subprocess.run(["openssl", "rsa", "-in", str(key), "-pubout", "-out", str(pub)], check=True, capture_output=True)
    return key, pub


def apiserver_args(binary: Path, work: Path, etcd_url: str, port: int, prefix: str, extra: list[str]) -> list[str]:
    key, pub = service_account_keys(work)
    tokens = work / "tokens.csv"
    tokens.write_text(f'{TOKEN},kcompat-oracle,kcompat-oracle,"system:masters"\n')
    certs = work / f"certs-{port}"
    certs.mkdir(exist_ok=True)
    return [
        str(binary),
        f"--etcd-servers={etcd_url}", f"--etcd-prefix={prefix}",
        "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--endpoint-reconciler-type=none",
        f"--secure-port={port}", f"--cert-dir={certs}",
        "--service-cluster-ip-range=10.0.0.0/24",
        "--service-account-issuer=https://kubernetes.default.svc", f"--service-account-key-file={pub}",
        f"--service-account-signing-key-file={key}",
        "--authorization-mode=AlwaysAllow", "--anonymous-auth=false", f"--token-auth-file={tokens}",
        *extra,
    ]


def kubeconfig(work: Path, port: int) -> Path:
    """A kubeconfig for the apiserver on ``port`` with the oracle's token (JSON is YAML)."""
    path = work / f"kubeconfig-{port}.json"
    path.write_text(json.dumps({
        "apiVersion": "v1", "kind": "Config", "current-context": "oracle",
        "clusters": [{"name": "oracle", "cluster": {"server": f"https://127.0.0.1:{port}", "insecure-skip-tls-verify": True}}],
        "users": [{"name": "oracle", "user": {"token": TOKEN}}],
        "contexts": [{"name": "oracle", "context": {"cluster": "oracle", "user": "oracle"}}],
    }))
    return path


def component_args(component: str, binary: Path, work: Path, apiserver_port: int, port: int, extra: list[str]) -> list[str]:
    """kube-scheduler or kube-controller-manager against the apiserver on ``apiserver_port``; /metrics
    and the health paths are served to anyone (--authorization-always-allow-paths)."""
    config = kubeconfig(work, apiserver_port)
    certs = work / f"certs-{port}"
    certs.mkdir(exist_ok=True)
    args = [str(binary), f"--kubeconfig={config}", f"--authentication-kubeconfig={config}", f"--authorization-kubeconfig={config}",
            f"--secure-port={port}", "--bind-address=127.0.0.1", f"--cert-dir={certs}", "--leader-elect=false",
            "--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics"]
    return [*args, *extra]


def discovery(port: int) -> dict:
    """Every served group-version with its resources (name, kind, namespaced, verbs, storage version hash)."""
    out = {}
    gvs = [("", v) for v in get_json(port, "/api")["versions"]]
    for group in get_json(port, "/apis")["groups"]:
        gvs += [(group["name"], v["version"]) for v in group["versions"]]
    for group, version in gvs:
        path = f"/api/{version}" if not group else f"/apis/{group}/{version}"
        doc = get_json(port, path)
        resources = []
        for r in doc.get("resources", []):
            item = {"name": r["name"], "kind": r["kind"], "namespaced": r["namespaced"], "verbs": sorted(r.get("verbs") or [])}
            if r.get("storageVersionHash"):
                item["storageVersionHash"] = r["storageVersionHash"]
            resources.append(item)
        out[f"{group}/{version}" if group else version] = sorted(resources, key=lambda x: x["name"])
    return out


def metrics_gates(port: int, token: bool = True) -> dict[str, list]:
    gates = {}
    for line in get(port, "/metrics", timeout=30, token=token).decode().splitlines():
        m = METRIC.match(line)
        if m:
            gates[m.group(1)] = [m.group(2), int(m.group(3))]
    return gates


def error_lines(text: str) -> list[str]:
    """The lines that say why a binary stopped, at most five: the ``"command failed" err=...`` line,
    klog fatals, cobra's ``Error:`` or a Go ``panic:``, then the last klog errors; else its last three lines."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    klog = [ln for ln in lines if KLOG_HEADER.match(ln)]
    failed = [ln for ln in klog if "command failed" in ln]
    fatal = [ln for ln in klog if ln.startswith("F")]
    cobra = [ln for ln in lines if ln.startswith(("Error:", "panic:"))]
    errors = [ln for ln in klog if ln.startswith("E") and ln not in failed][-5:]
    picked = list(dict.fromkeys(failed + fatal + cobra + errors))[:5]
    return [log_line(ln) for ln in picked or lines[-3:]]


def readyz_failing(port: int, path: str = "/readyz?verbose") -> list[str]:
    """The checks ``/readyz?verbose`` lists as failed (``[-]name failed: ...``)."""
    try:
        _, body = status(port, path, timeout=5)
    except OSError:
        return []
    return sorted(line[3:].split(" ", 1)[0] for line in body.decode(errors="replace").splitlines() if line.startswith("[-]"))


@dataclass
class Outcome:
    """How one start of a server ended (see the module docstring)."""

    verdict: str
    seconds: float
    exit_status: int | None = None
    lines: list[str] = field(default_factory=list)
    failing: list[str] = field(default_factory=list)
    data: dict = field(default_factory=dict)

    def as_dict(self, flags: list[str]) -> dict:
        out: dict = {"flags": flags, "verdict": self.verdict, "seconds": round(self.seconds)}
        if self.exit_status is not None:
            out["exitStatus"] = self.exit_status
        if self.lines:
            out["errorLines"] = self.lines
        if self.failing:
            out["failingChecks"] = self.failing
        return out


def watch(args: list[str], port: int, log: Path, wait: float, *, ready_path: str = "/readyz", token: bool = True,
          on_ready: Callable[[int], dict] | None = None) -> Outcome:
    """Start ``args`` (a server listening on ``port``) and judge it: ready, refused, exited or not-ready."""
    start = time.monotonic()
    answered = False
    with open(log, "w") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            while True:
                elapsed = time.monotonic() - start
                if proc.poll() is not None:
                    out.flush()
                    text = log.read_text(errors="replace")
                    return Outcome("exited" if answered else "refused", elapsed, proc.returncode, error_lines(text))
                try:
                    code, body = status(port, ready_path, timeout=3, token=token)
                    answered = True
                    if code == 200 and body.strip() == b"ok":
                        data = on_ready(port) if on_ready else {}
                        return Outcome("ready", time.monotonic() - start, data=data)
                except OSError:
                    pass
                if elapsed > wait:
                    failing = readyz_failing(port, ready_path + "?verbose") if answered else []
                    text = log.read_text(errors="replace")
                    return Outcome("not-ready", elapsed, None, [ln for ln in error_lines(text) if ln[:1] in "EF"][:5], failing)
                time.sleep(0.5)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
