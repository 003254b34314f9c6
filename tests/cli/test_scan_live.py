"""``kcompat scan --live`` against a recorded cluster served on 127.0.0.1: discovery and list
answers written from a real kube-apiserver's shapes (APIVersions, APIGroupList, APIResourceList,
PartialObjectMetadataList with ``continue``, Secrets and ConfigMaps of Helm 3's drivers). The
server pages every list by ``limit`` and ``continue`` as kube-apiserver does, answers 403 where a
test forbids a path, and records the requests (paths and Accept headers)."""

from __future__ import annotations

import base64
import gzip
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from kcompat.cli.main import main as kcompat
from kcompat.data.live import open_cluster
from kcompat.data.live_objects import METADATA_ONLY, Limits, read_cluster

TOKEN = "live-scan-secret-token"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
CONFIGMAPS = 1_234


def helm_release(name: str, namespace: str, revision: int, status: str, manifest: str) -> str:
    """``data.release`` as Helm 3 writes it: base64 of gzip of the release JSON."""
    release = {"name": name, "namespace": namespace, "version": revision, "info": {"status": status}, "manifest": manifest,
               "chart": {"metadata": {"name": name, "version": "1.0.0"}}}
    return base64.b64encode(gzip.compress(json.dumps(release).encode())).decode()


FLOWSCHEMA_MANIFEST = """---
# Source: gate/templates/flowschema.yaml
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata:
  name: gate
spec:
  priorityLevelConfiguration: {name: global-default}
---
# Source: gate/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: gate
  namespace: tools
"""
PDB_MANIFEST = """---
# Source: old/templates/pdb.yaml
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata:
  name: old
  namespace: legacy
spec:
  minAvailable: 1
"""


def _resource(name, kind, namespaced=True, verbs=("create", "delete", "get", "list", "watch")):
    return {"name": name, "singularName": "", "namespaced": namespaced, "kind": kind, "verbs": list(verbs)}


def _meta(name, namespace=None, applied=None, labels=None):
    meta = {"name": name, "uid": f"uid-{name}", "resourceVersion": "1"}
    if namespace:
        meta["namespace"] = namespace
    if applied:
        meta["annotations"] = {LAST_APPLIED: json.dumps(applied)}
    if labels:
        meta["labels"] = labels
    return meta


def recorded_cluster() -> dict:
    """The cluster: path -> its discovery answer or its objects (a list path)."""
    helm_secret = {"metadata": _meta("sh.helm.release.v1.gate.v2", "tools", labels={"owner": "helm", "name": "gate", "status": "deployed",
                                                                                    "version": "2"}),
                   "type": "helm.sh/release.v1",
                   "data": {"release": base64.b64encode(helm_release("gate", "tools", 2, "deployed", FLOWSCHEMA_MANIFEST).encode()).decode()}}
    superseded = {"metadata": _meta("sh.helm.release.v1.gate.v1", "tools", labels={"owner": "helm", "status": "superseded"}),
                  "type": "helm.sh/release.v1",
                  "data": {"release": base64.b64encode(helm_release("gate", "tools", 1, "superseded", PDB_MANIFEST).encode()).decode()}}
    helm_configmap = {"metadata": _meta("sh.helm.release.v1.old.v1", "legacy", labels={"owner": "helm", "status": "deployed"}),
                      "data": {"release": helm_release("old", "legacy", 1, "deployed", PDB_MANIFEST)}}
    configmaps = [{"metadata": _meta(f"cm-{i:05d}", "default")} for i in range(CONFIGMAPS)] + [helm_configmap]
    return {
        "/api": {"kind": "APIVersions", "versions": ["v1"]},
        "/apis": {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
            {"name": g, "versions": [{"groupVersion": f"{g}/{v}", "version": v} for v in vs],
             "preferredVersion": {"groupVersion": f"{g}/{vs[0]}", "version": vs[0]}}
            for g, vs in (("apps", ["v1"]), ("flowcontrol.apiserver.k8s.io", ["v1"]), ("resource.k8s.io", ["v1"]),
                          ("metrics.k8s.io", ["v1beta1"]), ("example.com", ["v1"]))]},
        "/api/v1": {"kind": "APIResourceList", "groupVersion": "v1", "resources": [
            _resource("configmaps", "ConfigMap"), _resource("secrets", "Secret"), _resource("namespaces", "Namespace", False),
            _resource("pods", "Pod"), _resource("pods/log", "Pod", verbs=("get",)), _resource("bindings", "Binding", verbs=("create",))]},
        "/apis/apps/v1": {"kind": "APIResourceList", "groupVersion": "apps/v1", "resources": [
            _resource("deployments", "Deployment"), _resource("deployments/scale", "Scale", verbs=("get", "update"))]},
        "/apis/flowcontrol.apiserver.k8s.io/v1": {"kind": "APIResourceList", "groupVersion": "flowcontrol.apiserver.k8s.io/v1",
                                                  "resources": [_resource("flowschemas", "FlowSchema", False)]},
        "/apis/resource.k8s.io/v1": {"kind": "APIResourceList", "groupVersion": "resource.k8s.io/v1",
                                     "resources": [_resource("deviceclasses", "DeviceClass", False)]},
        "/apis/example.com/v1": {"kind": "APIResourceList", "groupVersion": "example.com/v1", "resources": [_resource("widgets", "Widget")]},
        "/api/v1/configmaps": configmaps,
        "/api/v1/secrets": [{"metadata": _meta("token", "default")}, helm_secret, superseded],
        "/api/v1/namespaces": [{"metadata": _meta(n)} for n in ("default", "tools", "legacy")],
        "/api/v1/pods": [],
        "/apis/apps/v1/deployments": [{"metadata": _meta("web", "default", {"apiVersion": "apps/v1", "kind": "Deployment"})}],
        "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas": [
            {"metadata": _meta("gate", None, {"apiVersion": "flowcontrol.apiserver.k8s.io/v1beta3", "kind": "FlowSchema"})},
            {"metadata": _meta("exempt", None, {"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema"})}],
        "/apis/resource.k8s.io/v1/deviceclasses": [{"metadata": _meta("gpu.example.com")}],
        "/apis/example.com/v1/widgets": [{"metadata": _meta("w1", "default")}],
    }


class FakeCluster:
    """The recorded cluster on 127.0.0.1 (http; a bearer token needed, 401 otherwise)."""

    def __init__(self, answers: dict, forbidden: tuple[str, ...] = (), drop_over: int | None = None) -> None:
        self.answers = answers
        self.forbidden = set(forbidden)
        self.drop_over = drop_over  # a list asked with a larger limit: the connection is closed unanswered
        self.seen: list[tuple[str, str]] = []
        cluster = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):  # noqa: N802 - http.server's name
                cluster.seen.append((self.path, self.headers.get("Accept", "")))
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    return self.send(401, {"kind": "Status", "message": "Unauthorized"})
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                if parts.path in cluster.forbidden:
                    return self.send(403, {"kind": "Status", "message": f'{parts.path} is forbidden: User "me" cannot list'})
                if parts.path == "/apis/metrics.k8s.io/v1beta1":
                    return self.send(503, {"kind": "Status", "message": "the server is currently unable to handle the request"})
                if cluster.drop_over is not None and int(query.get("limit") or 0) > cluster.drop_over:
                    self.close_connection = True
                    return None
                found = cluster.answers.get(parts.path)
                if found is None:
                    return self.send(404, {"kind": "Status", "message": "the server could not find the requested resource"})
                if isinstance(found, dict):
                    return self.send(200, found)
                return self.send(200, cluster.page(found, query, self.headers.get("Accept", "")))

            def send(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def page(self, items: list, query: dict, accept: str) -> dict:
        if "fieldSelector" in query:
            items = [i for i in items if query["fieldSelector"] == f"type={i.get('type')}"]
        if "labelSelector" in query:
            key, _, value = query["labelSelector"].partition("=")
            items = [i for i in items if i["metadata"].get("labels", {}).get(key) == value]
        start = int(query.get("continue") or 0)
        limit = int(query.get("limit") or 0) or len(items)
        chunk = items[start:start + limit]
        more = start + limit < len(items)
        metadata_only = "as=PartialObjectMetadataList" in accept
        if metadata_only:
            chunk = [{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": i["metadata"]} for i in chunk]
        return {"kind": "PartialObjectMetadataList" if metadata_only else "List", "apiVersion": "meta.k8s.io/v1" if metadata_only else "v1",
                "metadata": {"resourceVersion": "9", **({"continue": str(start + limit)} if more else {})}, "items": chunk}

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def write_kubeconfig(folder: Path, url: str) -> Path:
    path = folder / "kubeconfig"
    path.write_text(
        "apiVersion: v1\nkind: Config\n"
        f"clusters:\n- name: recorded\n  cluster:\n    server: {url}\n"
        f"users:\n- name: me\n  user:\n    token: {TOKEN}\n"
        "contexts:\n- name: recorded\n  context:\n    cluster: recorded\n    user: me\n"
        "current-context: recorded\n"
    )
    return path


@pytest.fixture
def fake(tmp_path):
    clusters = []

    def start(forbidden=(), answers=None, drop_over=None):
        server = FakeCluster(answers or recorded_cluster(), forbidden, drop_over)
        clusters.append(server)
        return server, write_kubeconfig(tmp_path, server.url)

    yield start
    for c in clusters:
        c.stop()


def scan(capsys, kubeconfig, *argv):
    code = kcompat(["scan", "--live", "--kubeconfig", str(kubeconfig), *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_unreachable_last_applied_and_helm_releases_named(fake, capsys):
    server, kubeconfig = fake()
    code, out, err = scan(capsys, kubeconfig, "--binary", "1.36", "--emulated", "1.33", "--format", "json")
    doc = json.loads(out)
    assert code == 1, err
    findings = doc["findings"]
    assert [f["finding"] for f in findings] == ["unreachable", "last-applied", "helm-release", "helm-release"]
    device, applied, helm_pdb, helm_fs = findings  # the releases by namespace, then name
    assert device["subject"] == "deviceclasses.resource.k8s.io" and device["objects"] == 1
    assert device["examples"] == ["gpu.example.com"] and device["why"] == "not-introduced"
    assert applied["subject"] == "FlowSchema last applied as flowcontrol.apiserver.k8s.io/v1beta3" and applied["objects"] == 1
    assert applied["examples"] == ["flowschemas.flowcontrol.apiserver.k8s.io gate"]
    assert applied["why"] == "removed" and applied["nearest"] == "flowcontrol.apiserver.k8s.io/v1"
    assert (applied["deprecatedIn"], applied["removedIn"], applied["replacement"]) == ("1.29", "1.32", "flowcontrol.apiserver.k8s.io/v1 FlowSchema")
    assert applied["lifecycleRecorded"] is True and "deprecated in 1.29" in applied["lifecycle"]
    assert helm_fs["subject"] == "Helm release tools/gate revision 2" and helm_fs["template"] == "gate/templates/flowschema.yaml"
    assert helm_fs["apiVersion"] == "flowcontrol.apiserver.k8s.io/v1beta3" and helm_fs["release"] == "gate"
    assert helm_pdb["subject"] == "Helm release legacy/old revision 1" and helm_pdb["apiVersion"] == "policy/v1beta1"
    assert helm_pdb["nearest"] == "policy/v1"
    assert "Deployment" not in json.dumps(findings) and "deployments" not in json.dumps(findings)
    assert doc["cluster"]["objects"] == CONFIGMAPS + 1 + 3 + 3 + 1 + 2 + 1 + 1
    assert doc["cluster"]["helmReleases"] == 2 and doc["cluster"]["otherHelmRevisions"] == 1
    assert doc["notChecked"] == [{"resource": "widgets.example.com", "apiVersion": "example.com/v1", "kind": "Widget", "objects": 1}]
    assert doc["notRead"] == ["discovery of metrics.k8s.io/v1beta1: " + doc["notRead"][0].split(": ", 1)[1]]
    assert "503" in doc["notRead"][0]
    # every list asked metadata only, the Helm reads full objects; subresources and unlistable resources not listed
    lists = [(p, a) for p, a in server.seen if "limit=" in p]
    assert all(a == METADATA_ONLY for p, a in lists if "Selector" not in p)
    assert any("fieldSelector=type%3Dhelm.sh%2Frelease.v1" in p and a == "application/json" for p, a in lists)
    assert not any("/log" in p or "bindings" in p or "/scale" in p for p, _ in server.seen)
    assert TOKEN not in out + err


def test_paged_with_continue(fake, capsys):
    server, kubeconfig = fake()
    scan(capsys, kubeconfig, "--binary", "1.36", "--format", "json")
    pages = [p for p, _ in server.seen if p.startswith("/api/v1/configmaps?") and "Selector" not in p]
    assert len(pages) == 3 and "continue=500" in pages[1] and "continue=1000" in pages[2]


def test_served_target_exits_0(fake, capsys):
    """At 1.36 itself the DeviceClass is served, but the v1beta3 last-applied and Helm objects are not."""
    answers = recorded_cluster()
    answers["/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas"] = []
    answers["/api/v1/secrets"] = []
    answers["/api/v1/configmaps"] = answers["/api/v1/configmaps"][:10]
    _, kubeconfig = fake(answers=answers)
    code, out, err = scan(capsys, kubeconfig, "--binary", "1.36")
    assert code == 0, out + err
    assert "0 resource(s) holding objects would be unreachable" in err
    assert out.splitlines()[0].split() == ["finding", "what", "apiVersion", "objects", "reason", "nearest", "lifecycle"]
    assert len(out.splitlines()) == 2  # the header and its rule: nothing found


def test_forbidden_resource_is_reported_and_the_check_goes_on(fake, capsys):
    _, kubeconfig = fake(forbidden=("/api/v1/namespaces", "/api/v1/secrets"))
    code, out, err = scan(capsys, kubeconfig, "--binary", "1.36", "--emulated", "1.33")
    assert code == 1
    assert "deviceclasses.resource.k8s.io" in out and "FlowSchema last applied as flowcontrol.apiserver.k8s.io/v1beta3" in out
    assert "Helm release legacy/old revision 1" in out  # the ConfigMap driver is still read
    assert "Helm release tools/gate" not in out  # its Secret could not be read
    not_read = [line for line in err.splitlines() if line.startswith("not read: ")]
    assert not_read[0].startswith("not read: namespaces: could not list: forbidden")
    assert not_read[1].startswith("not read: secrets: could not list: forbidden")
    assert any(line.startswith("not read: Helm releases stored in Secrets could not be read:") and "403" in line for line in not_read)
    assert "thing(s) could not be read" in err


def test_forbidden_unserved_resource_is_unknown_exit_2(fake, capsys):
    """Nothing found, but a resource the target does not serve could not be listed: not all served, not known."""
    answers = recorded_cluster()
    answers["/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas"] = []
    answers["/api/v1/secrets"] = []
    answers["/api/v1/configmaps"] = []
    _, kubeconfig = fake(forbidden=("/apis/resource.k8s.io/v1/deviceclasses",), answers=answers)
    code, out, _ = scan(capsys, kubeconfig, "--binary", "1.36", "--emulated", "1.33", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and doc["findings"] == [] and doc["valid"] is True
    assert doc["unknown"][0]["resource"] == "deviceclasses.resource.k8s.io" and "forbidden" in doc["unknown"][0]["problem"]


def test_unreachable_cluster_exit_2(tmp_path, capsys):
    kubeconfig = write_kubeconfig(tmp_path, "http://127.0.0.1:9")
    code, out, _ = scan(capsys, kubeconfig, "--binary", "1.36", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and doc["valid"] is False and doc["cluster"] is None
    assert "connection refused" in doc["errors"][0]


def test_refused_selection_does_not_read_the_cluster(fake, capsys):
    server, kubeconfig = fake()
    code, _, err = scan(capsys, kubeconfig, "--binary", "1.36", "--emulated", "1.20")
    assert code == 2 and "error:" in err and server.seen == []


@pytest.mark.parametrize("flags, line", [
    (["--feature-gates", "Nope=true"], "error: unrecognized feature gate: Nope"),
    (["--feature-gates", "JobManagedBy=false"], "error: cannot set feature gate JobManagedBy to false, feature is locked to true"),
    (["--runtime-config", "v1=false"], "error:"),
])
def test_a_selection_the_binary_refuses_at_start_up_is_refused_as_scan_refuses_it(fake, capsys, flags, line):
    """The start-up checks scan and apis run (the gates, --runtime-config), not only the versions."""
    server, kubeconfig = fake()
    code, _, err = scan(capsys, kubeconfig, "--binary", "1.36", *flags)
    assert code == 2 and line in err and server.seen == []


def test_pasted_command_line(fake, capsys):
    _, kubeconfig = fake()
    code, out, _ = scan(capsys, kubeconfig, "--binary", "1.36", "--format", "json", "--", "kube-apiserver", "--emulated-version=1.33")
    assert code == 1 and json.loads(out)["emulated"] == "1.33"
    code, _, err = scan(capsys, kubeconfig, "manifests/")
    assert code == 2 and "--live checks the cluster, not files" in err


def test_no_paths_without_live(capsys):
    assert kcompat(["scan", "--binary", "1.36"]) == 2
    assert "--live to check a cluster" in capsys.readouterr().err


def test_caps_stop_a_resource_and_say_so(fake):
    _, kubeconfig = fake()
    with open_cluster(str(kubeconfig), None, None) as cluster:
        reading = read_cluster(cluster, Limits(page_size=100, max_pages=3))
    configmaps = next(r for r in reading.resources if r.resource == "configmaps")
    assert configmaps.objects == 300 and not configmaps.complete
    assert configmaps.problem == "stopped at the limit of 3 pages of 100 for one resource"
    with open_cluster(str(kubeconfig), None, None) as cluster:
        reading = read_cluster(cluster, Limits(max_objects=50))
    after = [r for r in reading.resources if r.problem and r.problem.startswith("not read: the limit of 50 objects")]
    assert after and all(r.objects == 0 for r in after)


def test_names_from_the_cluster_reach_the_terminal_escaped(fake, capsys):
    answers = recorded_cluster()
    answers["/apis/resource.k8s.io/v1/deviceclasses"] = [{"metadata": _meta("gpu\x1b[2J\u202e")}]
    _, kubeconfig = fake(answers=answers)
    code, out, err = scan(capsys, kubeconfig, "--binary", "1.36", "--emulated", "1.33")
    assert code == 1
    assert "\x1b" not in out + err and "\u202e" not in out + err
    assert "gpu\\x1b[2J\\u202e" in out


@pytest.mark.parametrize(("fmt", "header"), [("csv", "finding,what,apiVersion,objects,reason,nearest,lifecycle"),
                                             ("markdown", "| finding | what | apiVersion | objects | reason | nearest | lifecycle |")])
def test_formats(fake, capsys, fmt, header):
    _, kubeconfig = fake()
    code, out, _ = scan(capsys, kubeconfig, "--binary", "1.36", "--emulated", "1.33", "--format", fmt)
    assert code == 1 and out.splitlines()[0] == header
    assert sum("helm-release" in line for line in out.splitlines()) == 2


def test_a_version_the_runtime_config_serves_keeps_the_objects_reachable(fake, capsys):
    """DeviceClass is read at resource.k8s.io/v1; served at v1beta1 by the target, its objects stay readable."""
    _, kubeconfig = fake()
    code, out, err = scan(capsys, kubeconfig, "--binary", "1.36", "--emulated", "1.33", "--runtime-config", "resource.k8s.io/v1beta1=true",
                          "--format", "json")
    doc = json.loads(out)
    assert code == 1, err
    assert [f["finding"] for f in doc["findings"]] == ["last-applied", "helm-release", "helm-release"]


def test_a_page_that_fails_is_asked_again_in_smaller_pages(fake):
    server, kubeconfig = fake(drop_over=50)
    with open_cluster(str(kubeconfig), None, None) as cluster:
        reading = read_cluster(cluster)
    configmaps = next(r for r in reading.resources if r.resource == "configmaps")
    assert configmaps.complete and configmaps.objects == CONFIGMAPS + 1
    asked = [p for p, _ in server.seen if p.startswith("/api/v1/configmaps?") and "Selector" not in p]
    assert "limit=500" in asked[0] and all("limit=50&" in p or p.endswith("limit=50") for p in asked[1:])
    assert len(reading.releases) == 2  # the Helm pages (20) were never too large


def test_newest_deployed_revision_and_a_broken_release(fake, capsys):
    answers = recorded_cluster()
    newer = {"metadata": _meta("sh.helm.release.v1.old.v3", "legacy", labels={"owner": "helm"}),
             "data": {"release": helm_release("old", "legacy", 3, "deployed", FLOWSCHEMA_MANIFEST)}}
    broken = {"metadata": _meta("sh.helm.release.v1.bad.v1", "legacy", labels={"owner": "helm"}),
              "data": {"release": helm_release("bad", "legacy", 1, "deployed", "a: [unclosed")}}
    garbage = {"metadata": _meta("sh.helm.release.v1.junk.v1", "legacy", labels={"owner": "helm"}), "data": {"release": "%%%"}}
    answers["/api/v1/configmaps"] = [*answers["/api/v1/configmaps"][-1:], newer, broken, garbage]
    _, kubeconfig = fake(answers=answers)
    code, out, _ = scan(capsys, kubeconfig, "--binary", "1.36", "--emulated", "1.33", "--format", "json")
    doc = json.loads(out)
    assert code == 1
    subjects = [f["subject"] for f in doc["findings"] if f["finding"] == "helm-release"]
    assert subjects == ["Helm release legacy/old revision 3", "Helm release tools/gate revision 2"]  # revision 1 of old is not checked
    assert any(t.startswith("Helm release legacy/bad revision 1 (ConfigMap legacy/sh.helm.release.v1.bad.v1):") for t in doc["notRead"])
    assert any(t.startswith("Helm release ConfigMap legacy/sh.helm.release.v1.junk.v1: data.release is not base64") for t in doc["notRead"])
