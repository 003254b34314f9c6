"""``kcompat scan --live`` against a real kube-apiserver running here (127.0.0.1 only), with
objects created in it through its API.

Needs ``kube-apiserver`` and ``etcd`` of a pinned release of 1.34 or later (resource.k8s.io/v1
serves DeviceClass from 1.34) in ``$KCOMPAT_ORACLE_BIN/<release>/`` (default
/tmp/kcompat-oracle-bin; ``oracle/build.sh v1.36.5`` builds them); without them every test here is
skipped. The newest such release found runs at its own version, with RBAC: the oracle's token is
in system:masters, a second token (``viewer``) may list only some resources.

The cluster holds a DeviceClass (resource.k8s.io/v1), a FlowSchema whose last-applied
configuration says flowcontrol.apiserver.k8s.io/v1beta3, a Deployment, and a Helm 3 release (a
Secret of type helm.sh/release.v1, written as Helm writes it) whose manifest uses
flowcontrol.apiserver.k8s.io/v1beta3; then 10,000 ConfigMaps for the figures of a larger read
(printed: run with ``-s`` to see them).
"""

from __future__ import annotations

import base64
import gzip
import http.client
import json
import os
import re
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINS = Path(os.environ.get("KCOMPAT_ORACLE_BIN", "/tmp/kcompat-oracle-bin"))


def _minor(release: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", release))


RELEASES = sorted((d.name for d in BINS.glob("v1.*") if (d / "kube-apiserver").is_file() and (d / "etcd").is_file()
                   and _minor(d.name)[1] >= 34), key=_minor)

pytestmark = pytest.mark.skipif(not RELEASES, reason=f"no kube-apiserver and etcd of 1.34 or later in {BINS} (oracle/build.sh v1.36.5)")

VIEWER_TOKEN = "kcompat-viewer-token"
CONFIGMAPS = 10_000
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"

FLOWSCHEMA_MANIFEST = """---
# Source: gate/templates/flowschema.yaml
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata:
  name: gate
spec:
  priorityLevelConfiguration:
    name: global-default
  matchingPrecedence: 9000
---
# Source: gate/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: gate
  namespace: tools
"""


def _servers():
    sys.path.insert(0, str(ROOT / "oracle"))
    import servers

    return servers


class Api:
    """The API server, over one kept-alive HTTPS connection (certificate not checked: it is ours)."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.connection = http.client.HTTPSConnection("127.0.0.1", port, context=ssl._create_unverified_context(), timeout=60)

    def request(self, method: str, path: str, body: object | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json", "Accept": "application/json"}
        for attempt in range(3):
            try:
                self.connection.request(method, path, data, headers)
                response = self.connection.getresponse()
                return response.status, json.loads(response.read() or b"{}")
            except (http.client.HTTPException, OSError):
                self.connection.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def create(self, path: str, body: dict) -> dict:
        status, answer = self.request("POST", path, body)
        assert status in (200, 201), (path, status, answer)
        return answer


def helm_release_secret(name: str, namespace: str, revision: int, manifest: str) -> dict:
    """A release Secret as Helm 3's Secret driver writes it: data.release is base64(gzip(release
    JSON)), and the Secret's data is base64 of that again on the wire."""
    release = {"name": name, "namespace": namespace, "version": revision, "manifest": manifest,
               "info": {"status": "deployed", "description": "Install complete"}, "chart": {"metadata": {"name": name, "version": "0.1.0"}}}
    helm_text = base64.b64encode(gzip.compress(json.dumps(release).encode()))
    return {
        "apiVersion": "v1", "kind": "Secret", "type": "helm.sh/release.v1",
        "metadata": {"name": f"sh.helm.release.v1.{name}.v{revision}", "namespace": namespace,
                     "labels": {"owner": "helm", "name": name, "status": "deployed", "version": str(revision)}},
        "data": {"release": base64.b64encode(helm_text).decode()},
    }


def _applied(body: dict, api_version: str | None = None) -> dict:
    """``body`` with the annotation kubectl apply writes (its apiVersion replaced by ``api_version``)."""
    text = json.dumps(dict(body, apiVersion=api_version or body["apiVersion"]))
    meta = dict(body["metadata"], annotations={LAST_APPLIED: text})
    return dict(body, metadata=meta)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    servers = _servers()
    release = RELEASES[-1]
    bindir = BINS / release
    work = tmp_path_factory.mktemp("live-scan")
    etcd = servers.Etcd(bindir / "etcd", work)
    port = servers.free_port()
    args = servers.apiserver_args(bindir / "kube-apiserver", work, etcd.url, port, "/live-scan", [])
    # RBAC instead of AlwaysAllow (a repeated --authorization-mode would add to the list, not replace it)
    args = [a if a != "--authorization-mode=AlwaysAllow" else "--authorization-mode=RBAC" for a in args]
    assert "--authorization-mode=RBAC" in args
    with open(work / "tokens.csv", "a") as tokens:
        tokens.write(f"{VIEWER_TOKEN},viewer,viewer-uid\n")
    log = (work / "apiserver.log").open("w")
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while True:
            assert proc.poll() is None, (work / "apiserver.log").read_text()[-3000:]
            try:
                if servers.get(port, "/readyz", timeout=3) == b"ok":
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "kube-apiserver did not become ready"
            time.sleep(0.5)
        api = Api(port, servers.TOKEN)
        _populate(api)
        kubeconfigs = {}
        for user, token in (("admin", servers.TOKEN), ("viewer", VIEWER_TOKEN)):
            path = work / f"kubeconfig-{user}"
            path.write_text(
                "apiVersion: v1\nkind: Config\n"
                f"clusters:\n- name: real\n  cluster:\n    server: https://127.0.0.1:{port}\n    insecure-skip-tls-verify: true\n"
                f"users:\n- name: {user}\n  user:\n    token: {token}\n"
                f"contexts:\n- name: real-{user}\n  context:\n    cluster: real\n    user: {user}\n"
                f"current-context: real-{user}\n"
            )
            kubeconfigs[user] = path
        yield release, api, kubeconfigs
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=60)
        log.close()
        etcd.stop()


def _populate(api: Api) -> None:
    api.create("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "tools"}})
    api.create("/apis/resource.k8s.io/v1/deviceclasses",
               {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu.example.com"}, "spec": {}})
    flowschema = {"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema", "metadata": {"name": "gate"},
                  "spec": {"priorityLevelConfiguration": {"name": "global-default"}, "matchingPrecedence": 9000}}
    api.create("/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas", _applied(flowschema, "flowcontrol.apiserver.k8s.io/v1beta3"))
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "tools"},
                  "spec": {"selector": {"matchLabels": {"app": "web"}},
                           "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "web:1"}]}}}}
    api.create("/apis/apps/v1/namespaces/tools/deployments", _applied(deployment))
    api.create("/api/v1/namespaces/tools/secrets", helm_release_secret("gate", "tools", 1, FLOWSCHEMA_MANIFEST))
    # the viewer may list some resources, not Secrets (nor most others): each is that resource's 403
    api.create("/apis/rbac.authorization.k8s.io/v1/clusterroles", {
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "kcompat-viewer"},
        "rules": [{"apiGroups": [""], "resources": ["configmaps", "namespaces"], "verbs": ["list"]},
                  {"apiGroups": ["apps", "flowcontrol.apiserver.k8s.io", "resource.k8s.io"], "resources": ["*"], "verbs": ["list"]}]})
    api.create("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": "kcompat-viewer"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "kcompat-viewer"},
        "subjects": [{"kind": "User", "name": "viewer", "apiGroup": "rbac.authorization.k8s.io"}]})


#: Runs argv[2:], then writes the peak resident memory of that child (kB) to the file argv[1].
LAUNCHER = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[2:])\n"
    "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
    "sys.exit(done.returncode)\n"
)


def kcompat(*args: str, timeout: float = 900) -> tuple[int, str, str, dict]:
    """The real command in a child process: (exit status, stdout, stderr, figures: its wall seconds
    and its own peak resident memory, ``ru_maxrss``, in kB).

    It is started by a small launcher process, not from this one: Linux counts the memory of the
    process a child was spawned from in the child's ``ru_maxrss`` (carried over its exec), and this
    test process holds hundreds of MB late in a suite; the launcher holds about 10."""
    import tempfile

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile() as peak:
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, peak.name, sys.executable, "-m", "kcompat", "scan", "--live", *args],
                                stdout=out, stderr=err, cwd=ROOT)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        peak_kb = int(Path(peak.name).read_text() or 0)
        return proc.returncode, out.read().decode(), err.read().decode(), {"seconds": round(seconds, 1), "peak_kb": peak_kb}


SMALL_RUN: dict = {}


def test_done_when_cluster(cluster):
    """1.36 emulating 1.33: exit 1, the DeviceClass resource, the FlowSchema and the Helm release named, not the Deployment."""
    _, _, kubeconfigs = cluster
    code, out, err, _ = kcompat("--kubeconfig", str(kubeconfigs["admin"]), "--binary", "1.36", "--emulated", "1.33")
    assert code == 1, err
    assert "deviceclasses.resource.k8s.io: gpu.example.com" in out
    assert "FlowSchema last applied as flowcontrol.apiserver.k8s.io/v1beta3: flowschemas.flowcontrol.apiserver.k8s.io gate" in out
    assert "Helm release tools/gate revision 1: FlowSchema gate (gate/templates/flowschema.yaml)" in out
    assert "Deployment" not in out and "deployments" not in out
    assert "kcompat-oracle-token" not in out + err
    code, out, err, figures = kcompat("--kubeconfig", str(kubeconfigs["admin"]), "--binary", "1.36", "--emulated", "1.33", "--format", "json")
    SMALL_RUN.update(figures, objects=json.loads(out)["cluster"]["objects"])
    doc = json.loads(out)
    assert code == 1, err
    kinds = [(f["finding"], f["subject"]) for f in doc["findings"]]
    assert kinds == [("unreachable", "deviceclasses.resource.k8s.io"),
                     ("last-applied", "FlowSchema last applied as flowcontrol.apiserver.k8s.io/v1beta3"),
                     ("helm-release", "Helm release tools/gate revision 1")]
    assert doc["notRead"] == [] and doc["cluster"]["helmReleases"] == 1
    # the same cluster at 1.36 itself: the DeviceClass is served, the v1beta3 uses are still not
    code, out, _, _ = kcompat("--kubeconfig", str(kubeconfigs["admin"]), "--binary", "1.36", "--format", "json")
    assert code == 1 and [f["finding"] for f in json.loads(out)["findings"]] == ["last-applied", "helm-release"]


def test_forbidden_resources_are_reported_and_the_check_goes_on(cluster):
    _, _, kubeconfigs = cluster
    code, out, err, _ = kcompat("--kubeconfig", str(kubeconfigs["viewer"]), "--binary", "1.36", "--emulated", "1.33", "--format", "json")
    doc = json.loads(out)
    assert code == 1, err
    assert [f["subject"] for f in doc["findings"]] == [
        "deviceclasses.resource.k8s.io", "FlowSchema last applied as flowcontrol.apiserver.k8s.io/v1beta3"]
    not_read = doc["notRead"]
    assert any(line.startswith("secrets: could not list: forbidden") for line in not_read)
    assert any(line.startswith("Helm releases stored in Secrets could not be read:") and "403" in line for line in not_read)
    assert not any(line.startswith(("configmaps:", "deployments.apps:", "flowschemas.")) for line in not_read)


def test_ten_thousand_objects_in_bounded_memory(cluster):
    """10,000 ConfigMaps (each with its last-applied annotation) created through the API; the read's
    time, requests and peak memory are printed."""
    _, api, kubeconfigs = cluster
    port = api.port
    errors: list[str] = []

    def create(start: int, count: int) -> None:
        mine = Api(port, api.token)
        for i in range(start, start + count):
            body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"cm-{i:05d}", "namespace": "default"},
                    "data": {"index": str(i), "text": "x" * 200}}
            status, answer = mine.request("POST", "/api/v1/namespaces/default/configmaps", _applied(body))
            if status not in (200, 201, 409):
                errors.append(f"{status} {answer}")
                return

    started = time.monotonic()
    threads = [threading.Thread(target=create, args=(n * CONFIGMAPS // 4, CONFIGMAPS // 4)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    created = time.monotonic() - started
    code, out, err, figures = kcompat("--kubeconfig", str(kubeconfigs["admin"]), "--binary", "1.36", "--format", "json")
    doc = json.loads(out)
    assert code == 1, err  # the FlowSchema and the Helm release of the first test
    assert doc["cluster"]["objects"] >= CONFIGMAPS
    configmap_pages = -(-CONFIGMAPS // 500)
    assert doc["cluster"]["requests"] >= configmap_pages
    peak_mb = figures["peak_kb"] / 1024
    print(f"\n10,000 ConfigMaps created in {created:.0f} s; kcompat scan --live read {doc['cluster']['objects']:,} objects of "
          f"{doc['cluster']['listedResources']} resources in {doc['cluster']['seconds']} s ({doc['cluster']['requests']} requests); "
          f"the command took {figures['seconds']} s, peak RSS {peak_mb:.0f} MB (a read of {SMALL_RUN.get('objects')} objects: "
          f"{SMALL_RUN.get('seconds')} s, {SMALL_RUN.get('peak_kb', 0) / 1024:.0f} MB)")
    print("stderr:", err)
    assert peak_mb < 150, figures
