"""The real binaries' whole gate set on the bundled data: every dependency edge of
``defaultKubernetesFeatureGateDependencies`` (1.35 v1.35.4, 1.36 v1.36.2, 1.37 master of 2026-07-29)
enforced with the binary's error text, and k8s.io/client-go's gates registered as each release's
adapter registers them (pkg/features/kube_features.go ``init()``, ``clientAdapter``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from kcompat.answers.gates import gate_evaluation
from kcompat.cli.main import main as kcompat
from kcompat.core.request import Request

METRICS_1_31 = Path(__file__).parent / "data" / "metrics_emulated_1_31.yaml"
METRIC_STAGE = {"Alpha": "ALPHA", "Beta": "BETA", "GA": "", "Deprecated": "DEPRECATED", "PreAlpha": "PRE-ALPHA"}


def dependency_error(gate: str, *off: str) -> str:
    # component-base featuregate validateDependencies (1.35+)
    return f"{gate} is enabled, but depends on features that are disabled: [{' '.join(off)}]"


def edges(catalog, release: str) -> set[tuple[str, str]]:
    return {(f.name, d) for f in catalog.manifest(release).features for d in f.dependencies}


def test_edge_counts_are_the_real_maps(catalog):
    # counted in the pinned copies' kube_features.go (data/SOURCES.md section 10)
    assert {r: len(edges(catalog, r)) for r in ("1.35", "1.36", "1.37")} == {"1.35": 38, "1.36": 57, "1.37": 72}
    assert all(not edges(catalog, r) for r in ("1.31", "1.32", "1.33", "1.34"))  # AddDependencies is 1.35+


@pytest.mark.parametrize(
    "release, gate, dependency",
    [
        ("1.35", "DRADeviceTaintRules", "DRADeviceTaints"),
        ("1.35", "GangScheduling", "GenericWorkload"),
        ("1.35", "UnknownVersionInteroperabilityProxy", "APIServerIdentity"),
        ("1.35", "AuthorizeNodeWithSelectors", "AuthorizeWithSelectors"),
        ("1.36", "PodLevelResourceManagers", "PodLevelResources"),
        ("1.36", "UserNamespacesHostNetworkSupport", "NodeDeclaredFeatures"),
        ("1.36", "ResourceHealthStatusMessage", "ResourceHealthStatus"),
        ("1.36", "DRAWorkloadResourceClaims", "GenericWorkload"),
        ("1.36", "StaleControllerConsistencyJob", "AtomicFIFO"),
        ("1.37", "StaleControllerConsistencyHPA", "AtomicFIFO"),
        ("1.37", "NodeControllerLeaseCircuitBreaker", "AtomicFIFO"),
        ("1.37", "DRAPartitionableDevicesType", "DRAResourcePoolStatus"),
    ],
)
def test_named_edges_are_enforced_with_the_binarys_text(catalog, release, gate, dependency):
    assert (gate, dependency) in edges(catalog, release)
    found = settable_emulation(catalog, release, gate, dependency)
    assert found is not None, "the edge can be exercised at some emulation version the binary accepts"
    emulated, states = found
    ev = gate_evaluation(catalog, Request(release, emulated, None, edge_flags(catalog, release, gate, dependency, states)))
    assert dependency_error(gate, dependency) in ev.errors
    assert not ev.flags_applied


def edge_flags(catalog, release: str, gate: str, dependency: str, states: dict) -> str:
    """gate on, dependency off, the gate's other dependencies on (by flag unless locked on)."""
    others = [d for d in catalog.manifest(release).by_name[gate].dependencies if d != dependency and not states[d].locked]
    return ",".join([f"{gate}=true", f"{dependency}=false", *(f"{d}=true" for d in others)])


def settable_emulation(catalog, release: str, gate: str, dependency: str):
    """(emulation version, states) for the newest version the binary accepts at which the gate and the
    dependency can be set and its other dependencies can be on; None when there is none."""
    others = [d for d in catalog.manifest(release).by_name[gate].dependencies if d != dependency]
    minor = int(release.split(".")[1])
    for emulated in (f"1.{m}" for m in range(minor, minor - 4, -1)):
        ev = gate_evaluation(catalog, Request(release, emulated, None, None))
        if not ev.valid:
            continue
        s = ev.by_name()
        settable = all(not s[n].locked and s[n].stage.value != "PreAlpha" for n in (gate, dependency))
        if settable and all(s[d].stage.value != "PreAlpha" and (not s[d].locked or s[d].default) for d in others):
            return emulated, s
    return None


def test_every_settable_edge_is_enforced(catalog):
    checked = unsettable = 0
    for release in ("1.35", "1.36", "1.37"):
        for gate, dependency in sorted(edges(catalog, release)):
            found = settable_emulation(catalog, release, gate, dependency)
            if found is None:
                unsettable += 1  # locked or not introduced at every accepted version: no flag can violate it
                continue
            emulated, states = found
            ev = gate_evaluation(catalog, Request(release, emulated, None, edge_flags(catalog, release, gate, dependency, states)))
            assert dependency_error(gate, dependency) in ev.errors, (release, emulated, gate, dependency, ev.errors)
            checked += 1
    assert checked + unsettable == 38 + 57 + 72 and checked >= 120, (checked, unsettable)


def test_no_edge_beyond_the_real_maps_is_enforced(catalog):
    # a gate without dependencies turned on while everything else is off: no dependency error
    for release in ("1.35", "1.36"):
        manifest = catalog.manifest(release)
        with_edges = {g for g, _ in edges(catalog, release)}
        for name in ("JobManagedBy", "WatchListClient", "InformerResourceVersion"):
            assert name not in with_edges
        ev = gate_evaluation(catalog, Request(release, None, None, "AllAlpha=false,AllBeta=false"))
        assert all("depends on features" not in e for e in ev.errors) or all(
            e.split(" is enabled")[0] in with_edges for e in ev.errors
        )
        assert manifest.by_name["AtomicFIFO" if release == "1.36" else "WatchListClient"].origin == "client-go"


def test_all_alpha_without_beta_gives_the_real_three_errors_at_1_36(catalog):
    ev = gate_evaluation(catalog, Request("1.36", None, None, "AllAlpha=true,AllBeta=false"))
    assert ev.errors == (
        dependency_error("PodLevelResourceManagers", "PodLevelResources"),
        dependency_error("StorageVersionAPI", "APIServerIdentity"),
        dependency_error("UserNamespacesHostNetworkSupport", "NodeDeclaredFeatures"),
    )


def test_watch_list_client_at_1_32_emulating_1_31(capsys):
    assert kcompat(["gates", "--binary", "1.32", "--emulated", "1.31", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    wlc = next(f for f in doc["features"] if f["name"] == "WatchListClient")
    assert (wlc["stage"], wlc["enabled"], wlc["default"], wlc["origin"]) == ("Beta", False, False, "client-go")
    code = kcompat(["gates", "--binary", "1.32", "--emulated", "1.31", "--feature-gates=WatchListClient=true", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["valid"] and doc["errors"] == []
    assert next(f for f in doc["features"] if f["name"] == "WatchListClient")["enabled"] is True


@pytest.mark.parametrize(
    "release, versioned",
    [("1.31", False), ("1.32", False), ("1.33", False), ("1.34", False), ("1.35", True), ("1.36", True), ("1.37", True)],
)
def test_client_go_gates_are_registered_like_the_adapter_of_the_release(catalog, release, versioned):
    # 1.31-1.34: clientAdapter.Add (unversioned, at 0.0); 1.35+: clientAdapter.AddVersioned
    gates = [f for f in catalog.manifest(release).features if f.origin == "client-go"]
    assert "WatchListClient" in {f.name for f in gates}
    assert all((str(f.specs[0].version) != "0.0") == versioned for f in gates)


def test_client_go_specs_at_1_36(catalog):
    m = catalog.manifest("1.36")
    assert [(str(s.version), s.stage.value, s.default, s.lock_to_default) for s in m.by_name["InOrderInformers"].specs] == [
        ("1.33", "Beta", True, False), ("1.36", "GA", True, True),
    ]
    assert [(str(s.version), s.stage.value, s.default) for s in m.by_name["WatchListClient"].specs] == [
        ("1.30", "Beta", False), ("1.35", "Beta", True),
    ]


def test_metrics_at_emulation_1_31_are_predicted_gate_for_gate(catalog):
    """Kubernetes' TestFeatureGateCompatibilityEmulationVersion (binary 1.32 emulating 1.31), check for
    check: every expected gate that is neither locked on nor Alpha is there with its value and stage;
    gates missing are GA locked on (removed); gates the list lacks are off."""
    expected = yaml.safe_load(METRICS_1_31.read_text())["gates"]
    ev = gate_evaluation(catalog, Request("1.32", "1.31", None, None))
    actual = {g.name: g for g in ev.gates + ev.meta if g.stage.value != "PreAlpha"}
    for name, (stage, locked_on, enabled) in expected.items():
        g = actual.get(name)
        if g is None:
            assert locked_on or stage == "ALPHA", f"{name} expected in /metrics"
            continue
        if stage != "ALPHA":
            assert (METRIC_STAGE[g.stage.value], int(g.enabled)) == (stage, enabled), name
    for name, g in actual.items():
        if name not in expected:
            assert not g.enabled, f"{name} is not in the list and must be off"
    assert {"WatchListClient", "InformerResourceVersion"} <= set(actual)


def test_a_gate_in_both_lists_makes_that_release_unusable(tmp_path):
    import shutil

    from kcompat.data.catalog import Catalog

    data = tmp_path / "data"
    shutil.copytree(Path(__file__).resolve().parents[2] / "data", data)
    client_go = data / "features" / "client-go-v1.36.yaml"
    client_go.write_text(client_go.read_text() + "- name: JobManagedBy\n  versionedSpecs:\n  - {default: false, lockToDefault: false, preRelease: Alpha, version: '1.36'}\n")
    catalog = Catalog(data)
    problem = catalog.load("1.36").problem
    assert "gate JobManagedBy, field name: listed in more than one file" in problem and "client-go-v1.36.yaml" in problem
    assert "1.35" in catalog.usable_releases() and "1.36" not in catalog.usable_releases()


def test_a_malformed_client_go_entry_is_named(tmp_path):
    import shutil

    from kcompat.core.errors import KcompatError
    from kcompat.data.catalog import Catalog

    data = tmp_path / "data"
    shutil.copytree(Path(__file__).resolve().parents[2] / "data", data)
    releases = data / "releases.yaml"
    releases.write_text(releases.read_text().replace("files: [features/client-go-v1.33.yaml]", "files: features/client-go-v1.33.yaml"))
    with pytest.raises(KcompatError, match=r"releases\[2\] is malformed \(files must be a list of paths"):
        _ = Catalog(data).releases
