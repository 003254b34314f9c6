"""Running a rollback rehearsal on real binaries (:mod:`kcompat.core.rehearsal` says what it does
and writes; this module starts the servers and asks them).

One etcd and one kube-apiserver at a time, on 127.0.0.1 only, in a private temporary folder
(mode 0700: the etcd data, the certificates the apiserver makes, a service-account key made with
``openssl``, a token file). Every process runs in its own process group
(:func:`kcompat.data.children.spawn`) and is stopped, and the folder removed, on every way out:
an error, the time limit, Ctrl-C, or SIGTERM/SIGHUP (which the CLI turns into an interrupt).
``oracle/rehearse.py`` records the bundled pairs with this same code.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcompat.core.errors import KcompatError, cut
from kcompat.core.rehearsal import (
    LABEL,
    NAMESPACE,
    PHASES,
    CorpusEntry,
    ServedResource,
    build_corpus,
    served_from_discovery,
)

from .children import spawn, stop

#: the token the servers of a rehearsal accept (a private, short-lived server: not a secret of anyone's)
TOKEN = "kcompat-rehearse-token"
#: the API groups the corpus itself adds (a CustomResourceDefinition, local APIServices): never part of the corpus
OWN_GROUPS = ".kcompat.example"
#: seconds one kube-apiserver may take to get ready
READY_WAIT = 240.0
#: klog's header (level, date, time, thread), dropped from the lines a failed start is reported with
_KLOG = re.compile(r"^([EWIF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ ")

_CTX = ssl.create_default_context()
_CTX.check_hostname = False
_CTX.verify_mode = ssl.CERT_NONE


class RehearsalTimeout(KcompatError):
    """The time limit passed before the rehearsal finished."""


@dataclass(frozen=True)
class Binaries:
    """The binaries of a rehearsal: kube-apiserver of each release and etcd."""

    from_apiserver: Path
    to_apiserver: Path
    etcd: Path


def binary_version(binary: Path) -> str:
    """What ``binary --version`` prints last (``v1.36.5``)."""
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60).stdout.split()
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise KcompatError(f"cannot run {cut(binary, 200)} --version: {exc}") from None
    if not out:
        raise KcompatError(f"{cut(binary, 200)} --version printed nothing")
    return out[-1]


def _minor(version: str) -> str:
    m = re.match(r"^v?(\d+)\.(\d+)", version)
    return f"{m.group(1)}.{m.group(2)}" if m else version


def find_binaries(directory: Path | None, from_minor: str, to_minor: str, *, from_apiserver: Path | None = None,
                  to_apiserver: Path | None = None, etcd: Path | None = None) -> Binaries:
    """The binaries, given or found in ``directory``: ``kube-apiserver-<release>`` or
    ``<release>/kube-apiserver`` (a release folder named ``1.36``, ``v1.36`` or ``v1.36.5``),
    ``etcd`` or ``<release>/etcd`` (the newer release's first). Each kube-apiserver's ``--version``
    must be of its release."""

    def candidates(minor: str, name: str) -> list[Path]:
        if directory is None:
            return []
        found = [directory / f"{name}-{minor}", directory / f"{name}-v{minor}"]
        found += sorted(p / name for p in directory.glob(f"v{minor}*")) + sorted(p / name for p in directory.glob(f"{minor}*"))
        return found

    def pick(given: Path | None, minor: str, name: str, fallback: Sequence[Path] = ()) -> Path:
        if given is not None:
            options = [given]
        else:
            options = [p for p in candidates(minor, name) if p.is_file()] + [p for p in fallback if p.is_file()]
        for path in options:
            if path.is_file():
                return path
        where = f" in {cut(directory, 200)}" if directory is not None else ""
        raise KcompatError(f"no {name} of {minor} found{where} (looked for {name}-{minor}, {minor}/{name}, v{minor}.*/{name}; or give its path)")

    frm = pick(from_apiserver, from_minor, "kube-apiserver")
    to = pick(to_apiserver, to_minor, "kube-apiserver")
    for path, minor in ((frm, from_minor), (to, to_minor)):
        got = _minor(binary_version(path))
        if got != minor:
            raise KcompatError(f"{cut(path, 200)} is kube-apiserver {got}, not {minor}")
    etcd_fallback = [directory / "etcd"] if directory is not None else []
    found_etcd = pick(etcd, to_minor, "etcd", [*etcd_fallback, *(p / "etcd" for p in sorted((directory or Path("/nonexistent")).glob(f"*{from_minor}*")))])
    return Binaries(frm, to, found_etcd)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _request(port: int, method: str, path: str, body: dict[str, Any] | None = None, timeout: float = 30) -> tuple[int, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"https://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, context=_CTX, timeout=timeout) as r:
            return int(r.status), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _status_message(code: int, body: bytes) -> str:
    try:
        message = json.loads(body).get("message")
    except (ValueError, AttributeError):
        message = None
    return f"HTTP {code}: {cut(str(message or body.decode(errors='replace')).strip(), 300)}"


class _Server:
    """One kube-apiserver of the rehearsal, ready or with the reason it is not."""

    def __init__(self, binary: Path, work: Path, etcd_url: str, flags: Sequence[str], wait: float) -> None:
        self.port = _free_port()
        certs = work / f"certs-{self.port}"
        certs.mkdir()
        self.log_path = work / f"apiserver-{self.port}.log"
        args = [
            str(binary), f"--etcd-servers={etcd_url}", "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
            "--endpoint-reconciler-type=none", f"--secure-port={self.port}", f"--cert-dir={certs}",
            "--service-cluster-ip-range=10.0.0.0/24", "--service-account-issuer=https://kubernetes.default.svc",
            f"--service-account-key-file={work / 'sa.pub'}", f"--service-account-signing-key-file={work / 'sa.key'}",
            "--authorization-mode=AlwaysAllow", "--anonymous-auth=false", f"--token-auth-file={work / 'tokens.csv'}", *flags,
        ]
        self.error: str | None = None
        with open(self.log_path, "wb") as log:
            self.proc = spawn(args, stdout=log.fileno(), stderr=subprocess.STDOUT)
        try:
            self._wait(wait)
        except BaseException:  # Ctrl-C, SIGTERM, an error while it starts: it is stopped before anything else
            self.stop()
            raise

    def _wait(self, wait: float) -> None:
        deadline = time.monotonic() + wait
        while True:
            if self.proc.poll() is not None:
                self.error = f"exited with status {self.proc.returncode}: {self._last_errors()}"
                return
            try:
                code, body = _request(self.port, "GET", "/readyz", timeout=3)
                if code == 200 and body.strip() == b"ok":
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.error = f"not ready after {round(wait)} s: {self._last_errors()}"
                self.stop()
                return
            time.sleep(0.5)

    def _last_errors(self) -> str:
        lines = [ln for ln in self.log_path.read_text(errors="replace").splitlines() if ln.strip()]
        picked = [ln for ln in lines if ln[:1] in "EF" and _KLOG.match(ln)][-3:] or lines[-3:]
        return " | ".join(cut(_KLOG.sub(r"\1 ", ln), 300) for ln in picked)

    def stop(self) -> None:
        stop(self.proc, grace=20)

    def discovery(self) -> list[ServedResource]:
        def get(path: str) -> Any:
            code, body = _request(self.port, "GET", path)
            if code != 200:
                raise KcompatError(f"discovery {path}: {_status_message(code, body)}")
            return json.loads(body)

        doc: dict[str, list[dict[str, Any]]] = {}
        gvs = [f"{v}" for v in get("/api")["versions"]]
        for group in get("/apis")["groups"]:
            gvs += [v["groupVersion"] for v in group["versions"]]
        for gv in gvs:
            if gv.split("/")[0].endswith(OWN_GROUPS):  # the corpus's own CRD and APIService groups: no built-ins
                continue
            doc[gv] = get(f"/api/{gv}" if "/" not in gv else f"/apis/{gv}").get("resources", [])
        return served_from_discovery(doc)


def _etcd(binary: Path, work: Path, wait: float) -> tuple[subprocess.Popen[bytes], str]:
    client, peer = _free_port(), _free_port()
    with open(work / "etcd.log", "wb") as log:
        proc = spawn([
            str(binary), "--data-dir", str(work / "etcd"), "--listen-client-urls", f"http://127.0.0.1:{client}",
            "--advertise-client-urls", f"http://127.0.0.1:{client}", "--listen-peer-urls", f"http://127.0.0.1:{peer}",
            "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}", "--initial-cluster", f"default=http://127.0.0.1:{peer}",
        ], stdout=log.fileno(), stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise KcompatError(f"etcd exited with status {proc.returncode}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{client}/health", timeout=2) as r:
                    if b"true" in r.read():
                        return proc, f"http://127.0.0.1:{client}"
            except OSError:
                pass
            time.sleep(0.3)
        raise KcompatError(f"etcd did not become healthy in {round(wait)} s")
    except BaseException:
        stop(proc)
        raise


def _keys(work: Path) -> None:
    try:
        subprocess.run(["openssl", "genrsa", "-out", str(work / "sa.key"), "2048"], check=True, capture_output=True, timeout=120)
        subprocess.run(["openssl", "rsa", "-in", str(work / "sa.key"), "-pubout", "-out", str(work / "sa.pub")],
                       check=True, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as exc:
        raise KcompatError(f"cannot make the service-account key with openssl: {exc}") from None
    (work / "tokens.csv").write_text(f'{TOKEN},kcompat-rehearse,kcompat-rehearse,"system:masters"\n')


def _has_flag(binary: Path, flag: str) -> bool:
    try:
        return flag in subprocess.run([str(binary), "--help"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False


@dataclass
class _Written:
    """An object the rehearsal wrote: its resource, name, and the phase that last updated it."""

    entry: CorpusEntry
    name: str
    created_in: str


def _read_update(port: int, obj: _Written, phase: str) -> dict[str, Any]:
    r = obj.entry.resource
    out: dict[str, Any] = {"resource": f"{r.api_version} {r.resource}", "object": obj.name, "createdIn": obj.created_in,
                           "read": False, "decoded": False, "updated": False}
    code, body = _request(port, "GET", obj.entry.path(obj.name))
    if code != 200:
        out["error"] = f"read: {_status_message(code, body)}"
        return out
    out["read"] = True
    try:
        got = json.loads(body)
        decoded = got.get("kind") == r.kind and got.get("metadata", {}).get("name") == obj.name
    except (ValueError, AttributeError):
        got, decoded = {}, False
    if not decoded:
        out["error"] = "decode: the answer is not the object"
        return out
    out["decoded"] = True
    for _attempt in range(5):  # a controller of the server (the CRD's status) may write it meanwhile: read it again
        got.setdefault("metadata", {}).setdefault("labels", {})[LABEL] = phase
        code, body = _request(port, "PUT", obj.entry.path(obj.name), got)
        if code != 409:
            break
        again, fresh = _request(port, "GET", obj.entry.path(obj.name))
        if again != 200:
            break
        got = json.loads(fresh)
    if code != 200:
        out["error"] = f"update: {_status_message(code, body)}"
        return out
    out["updated"] = True
    return out


def _create(port: int, entry: CorpusEntry, index: int, phase: str) -> tuple[dict[str, Any], _Written | None]:
    obj = entry.object(index)
    obj["metadata"].setdefault("labels", {})[LABEL] = phase
    r = entry.resource
    out: dict[str, Any] = {"resource": f"{r.api_version} {r.resource}", "object": obj["metadata"]["name"], "createdIn": phase, "created": False}
    code, body = _request(port, "POST", entry.path(), obj)
    if code not in (200, 201):
        out["error"] = f"create: {_status_message(code, body)}"
        return out, None
    out["created"] = True
    return out, _Written(entry, obj["metadata"]["name"], phase)


def rehearse(binaries: Binaries, from_minor: str, to_minor: str, *, from_emulated: str | None = None,
             flags: Sequence[str] = (), required: Sequence[str] = (), time_limit: float = 1800.0,
             progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """The rehearsal of ``from_minor`` -> ``to_minor`` on ``binaries`` (the recording's shape:
    :mod:`kcompat.core.rehearsal`). ``from_emulated``: the emulated version the old control plane
    runs at (its own when None; the new binary then emulates it too); ``flags``: added to every
    kube-apiserver; ``required``: the group/kinds whose storage version changes in the pair.
    :class:`RehearsalTimeout` when ``time_limit`` seconds pass."""
    start = time.monotonic()
    deadline = start + time_limit
    held = from_emulated or from_minor
    from_version, to_version = binary_version(binaries.from_apiserver), binary_version(binaries.to_apiserver)
    raised = ["--min-compatibility-version=" + to_minor] if _has_flag(binaries.to_apiserver, "--min-compatibility-version") else []
    phase_flags = {
        "create": [f"--emulated-version={held}"] if from_emulated else [],
        "emulated": [f"--emulated-version={held}"],
        "rollback": [f"--emulated-version={held}"] if from_emulated else [],
        "raised": raised,
        "unsupported-rollback": [f"--emulated-version={held}"] if from_emulated else [],
    }
    recording: dict[str, Any] = {"from": from_version, "to": to_version, "fromMinor": from_minor, "toMinor": to_minor,
                                 "fromEmulated": held, "flags": list(flags), "phases": []}
    work = Path(tempfile.mkdtemp(prefix="kcompat-rehearse-"))
    etcd = None
    try:
        work.chmod(0o700)
        _keys(work)
        etcd, etcd_url = _etcd(binaries.etcd, work, 60)
        written: list[_Written] = []
        corpus = None
        for index, (name, which, _promised) in enumerate(PHASES):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RehearsalTimeout(f"the time limit of {round(time_limit)} s passed before the phase {name!r}")
            binary = binaries.from_apiserver if which == "from" else binaries.to_apiserver
            version = from_version if which == "from" else to_version
            args = [*phase_flags[name], *flags]
            progress(f"phase {index + 1}/{len(PHASES)} {name}: kube-apiserver {version} {' '.join(args)}".rstrip())
            phase_start = time.monotonic()
            server = _Server(binary, work, etcd_url, args, min(READY_WAIT, remaining))
            phase: dict[str, Any] = {"name": name, "binary": version, "flags": args, "started": server.error is None, "results": []}
            recording["phases"].append(phase)
            if server.error is not None:
                phase["error"] = server.error
                progress(f"  did not start: {server.error}")
                phase["seconds"] = round(time.monotonic() - phase_start, 1)
                continue
            try:
                results = [_read_update(server.port, obj, name) for obj in written]
                if name in ("create", "emulated", "raised"):
                    served = server.discovery()
                    this = build_corpus(served, required)
                    phase["noTemplate"] = list(this.no_template)  # named, never silently skipped
                    if corpus is None:
                        corpus = this
                        recording["corpus"] = this.document()
                        code, body = _request(server.port, "POST", "/api/v1/namespaces",
                                              {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}})
                        if code not in (200, 201, 409):
                            raise KcompatError(f"cannot create the namespace {NAMESPACE}: {_status_message(code, body)}")
                        # no controller-manager runs: the service account pods need is made here
                        code, body = _request(server.port, "POST", f"/api/v1/namespaces/{NAMESPACE}/serviceaccounts",
                                              {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default"}})
                        if code not in (200, 201, 409):
                            raise KcompatError(f"cannot create the service account default: {_status_message(code, body)}")
                    for entry in this.entries:
                        result, obj = _create(server.port, entry, index, name)
                        results.append(result)
                        if obj is not None:
                            written.append(obj)
                phase["results"] = results
            finally:
                server.stop()
            phase["seconds"] = round(time.monotonic() - phase_start, 1)
            failed = [r for r in results if r.get("error")]
            progress(f"  {len(results) - len(failed)} of {len(results)} objects ok in {phase['seconds']} s")
        recording["seconds"] = round(time.monotonic() - start, 1)
        return recording
    finally:
        if etcd is not None:
            stop(etcd, grace=20)
        shutil.rmtree(work, ignore_errors=True)
