"""Dockerfile and deploy/: every manifest uses APIs served (GA, not removed) at every bundled
release, according to the project's own API data; probes, security context and image settings."""

from pathlib import Path

import pytest
import yaml

from kcompat.core.apis import evaluate_api_availability
from kcompat.data.apis import api_files

BUNDLED = api_files()
ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = sorted((ROOT / "deploy").glob("*.yaml"))
HEALTH = "/_stcore/health"


def _documents():
    return [(path.name, doc) for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text()) if doc]


def _by_kind(kind):
    found = [doc for _, doc in _documents() if doc["kind"] == kind]
    assert len(found) == 1, kind
    return found[0]


def test_the_manifests_exist():
    kinds = {doc["kind"] for _, doc in _documents()}
    assert {"Deployment", "Service", "Ingress"} <= kinds


@pytest.mark.parametrize("release", [str(r) for r in BUNDLED.api_releases()])
def test_every_manifest_api_is_served_ga_at_every_bundled_release(release):
    availability = evaluate_api_availability(release, api_data=BUNDLED)
    assert availability.valid
    for name, doc in _documents():
        group, _, version = doc["apiVersion"].rpartition("/")
        entry = availability.entry(group, version, doc["kind"])
        assert entry is not None, f"{name}: {doc['apiVersion']} {doc['kind']} unknown at {release}"
        assert entry.served, f"{name}: {doc['apiVersion']} {doc['kind']} not served at {release} ({entry.reason})"
        assert entry.stage == "GA" and entry.removed is None, f"{name}: {doc['apiVersion']} {doc['kind']} is {entry.stage}, removed {entry.removed}"


def test_there_is_api_data_for_several_releases():
    assert len(BUNDLED.api_releases()) >= 7


def test_the_deployment_probes_health_and_runs_locked_down():
    spec = _by_kind("Deployment")["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert container[probe]["httpGet"]["path"] == HEALTH, probe
    assert spec["securityContext"]["runAsNonRoot"] is True
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] is True and security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"]
    assert container["resources"]["requests"]["memory"] and container["resources"]["limits"]["memory"]
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in spec["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]
    assert {e["name"]: e["value"] for e in container["env"]}["HOME"] == "/tmp"
    assert container["ports"][0]["containerPort"] == 8501


def test_service_and_ingress_keep_a_browser_on_one_replica():
    assert _by_kind("Service")["spec"]["sessionAffinity"] == "ClientIP"
    annotations = _by_kind("Ingress")["metadata"]["annotations"]
    assert annotations["nginx.ingress.kubernetes.io/affinity"] == "cookie"


def test_the_dockerfile_runs_as_a_user_with_a_health_check():
    text = (ROOT / "Dockerfile").read_text()
    assert text.startswith("#") and "\nFROM python:3.12-slim\n" in text
    assert "\nUSER 10001:10001\n" in text  # numeric: runAsNonRoot can check it
    assert "HEALTHCHECK" in text and f"127.0.0.1:8501{HEALTH}" in text
    assert "HOME=/tmp" in text and "EXPOSE 8501" in text
    user = _by_kind("Deployment")["spec"]["template"]["spec"]["securityContext"]["runAsUser"]
    assert user == 10001


def test_the_dockerignore_keeps_the_image_small_and_clean():
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".git", ".venv", "tests", "bench", "**/__pycache__"} <= ignored
    assert not {"dashboard", "data", ".streamlit", "pyproject.toml"} & ignored


# --- issue 21: no egress, every resource bounded, spread across nodes, TLS, a hashed lock file ---


def test_a_network_policy_allows_the_dashboard_port_in_and_nothing_out():
    policy = _by_kind("NetworkPolicy")
    assert policy["spec"]["podSelector"]["matchLabels"] == _by_kind("Deployment")["spec"]["selector"]["matchLabels"]
    assert set(policy["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    assert policy["spec"]["egress"] == []
    assert [p["port"] for rule in policy["spec"]["ingress"] for p in rule["ports"]] == ["http"]


def test_cpu_memory_and_ephemeral_storage_are_requested_and_limited():
    (container,) = _by_kind("Deployment")["spec"]["template"]["spec"]["containers"]
    for kind in ("requests", "limits"):
        assert {"cpu", "memory", "ephemeral-storage"} <= set(container["resources"][kind]), kind
    # the measured worst case (bench_soak --cluster-checks, docs/hosting.md) fits under the limit
    assert container["resources"]["limits"]["memory"] == "768Mi"


def test_replicas_spread_across_nodes():
    spec = _by_kind("Deployment")["spec"]["template"]["spec"]
    [spread] = spec["topologySpreadConstraints"]
    assert spread["topologyKey"] == "kubernetes.io/hostname" and spread["maxSkew"] == 1
    assert spread["labelSelector"]["matchLabels"] == _by_kind("Deployment")["spec"]["selector"]["matchLabels"]


def test_the_ingress_serves_tls_only():
    ingress = _by_kind("Ingress")
    hosts = [rule["host"] for rule in ingress["spec"]["rules"]]
    assert ingress["spec"]["tls"] == [{"hosts": hosts, "secretName": "kcompat-tls"}]
    assert ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/force-ssl-redirect"] == "true"


def test_the_image_installs_only_hashed_pinned_packages():
    import re
    import tomllib

    text = (ROOT / "Dockerfile").read_text()
    assert "pip install --require-hashes --no-deps --only-binary :all: -r requirements.lock" in text
    assert "pip install --no-deps --no-build-isolation ." in text
    lock = (ROOT / "requirements.lock").read_text()
    pins = dict(re.findall(r"^([a-z0-9][a-z0-9._-]*)==(\S+) \\$", lock, re.M))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["dependencies"] + project["optional-dependencies"]["dashboard"]  # the image serves the dashboard
    names = {re.split(r"[<>=!~ ;\[]", d, maxsplit=1)[0].lower().replace("_", "-") for d in declared}
    assert names | {"setuptools"} <= set(pins), names - set(pins)
    # every requirement line is followed by at least one hash
    blocks = re.split(r"\n(?=[a-z0-9])", lock.split("\n\n", 1)[1])
    assert all("--hash=sha256:" in block for block in blocks if "==" in block)


def test_comments_cite_files_that_exist():
    import re

    for path in [ROOT / "Dockerfile", *MANIFESTS]:
        for cited in re.findall(r"\b((?:docs/|deploy/|README)[\w./-]*\.(?:md|yaml))", path.read_text()):
            assert (ROOT / cited).exists(), f"{path.name} cites {cited}, which does not exist"


def test_the_image_and_serve_sh_start_the_server_with_the_malloc_settings():
    from dashboard.server import MALLOC_ENV

    docker = (ROOT / "Dockerfile").read_text()
    serve = (ROOT / "scripts" / "serve.sh").read_text()
    for name, value in MALLOC_ENV.items():
        assert f"    {name}={value}" in docker, name
        assert f'{name}="${{{name}:-{value}}}"' in serve, name
