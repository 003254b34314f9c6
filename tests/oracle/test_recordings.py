"""kcompat against the real Kubernetes: every recording under data/oracle/ (oracle/record.py).

Each live recording is one real kube-apiserver of a pinned release, started at one (emulated,
min compatibility) pair (or with every API on, or with every gate on), as it answered:
``/version``, the ``kubernetes_feature_enabled`` lines of ``/metrics`` and its discovery
documents. Each refusal is the binary started with an input it refuses: its exit status and
its error line. kcompat must give the same answer for every one of them; where it does not,
the difference is listed in docs/agreement.md ("What the binaries answered") and here as an
expected difference. No Go and no kube-apiserver is needed: the recordings are in the repository.
"""

from __future__ import annotations

from kcompat.core.request import Request

import json
import re
from pathlib import Path

import pytest

from kcompat import DATA_DIR
from kcompat.data.catalog import DEFAULT_CATALOG as CATALOG
from kcompat.core.apis import evaluate_api_availability
from kcompat.core.storage import storage_versions
from kcompat.core.versions import parse_version
from kcompat.answers.gates import gate_evaluation
from kcompat.answers.queries import api_gate_states
from kcompat.refresh.apis import storage_version_hash
from oracle_support import META_GATES, STAGES, aggregate, agreement_rows, agreement_total, binary_error, discovered as _discovered, flags_of as _flags, verdict

ORACLE = DATA_DIR / "oracle"
LIVE = sorted(ORACLE.glob("v*/live/*.json"))
REFUSALS = sorted(ORACLE.glob("v*/refusals.json"))


def _id(path: Path) -> str:
    return f"{path.parent.parent.name}:{path.stem}"


def _record(path: Path) -> dict:
    return json.loads(path.read_text())


def _inputs(record: dict) -> tuple[str, list[str] | None, list[str] | None, list[str] | None, list[str] | None]:
    flags = _flags(record["flags"])
    return (record["binary"], flags.get("emulated-version"), flags.get("min-compatibility-version"),
            flags.get("feature-gates"), flags.get("runtime-config"))


def test_there_is_a_full_recording_of_every_bundled_release():
    """For each of 1.31-1.38: gates, APIs, refusals and live runs of its patch (the tests here compare them all)."""
    releases = {p.parent.parent.name[: len("v1.3x")] for p in LIVE}
    assert {f"v1.{minor}" for minor in range(31, 39)} <= releases
    for info in CATALOG.releases:
        folder = ORACLE / f"v{info.patch}"
        assert info.status == "release" and info.patch, info.release
        for name in ("gates.json", "apis.json", "refusals.json", "meta.json"):
            assert (folder / name).is_file(), (folder, name)
        assert list((folder / "live").glob("*.json")), folder
    assert len(LIVE) >= 70 and REFUSALS


@pytest.mark.parametrize("path", LIVE, ids=_id)
def test_gates_agree_with_the_metrics_of_the_real_apiserver(path):
    record = _record(path)
    binary, emulated, min_compat, feature_gates, _ = _inputs(record)
    evaluation = gate_evaluation(CATALOG, Request(binary, emulated, min_compat, feature_gates))
    assert evaluation.valid, evaluation.errors
    predicted = {g.name: g for g in evaluation.gates}
    observed = {name: value for name, value in record["gates"].items() if name not in META_GATES}
    wrong = []
    for name, (stage, enabled) in observed.items():
        gate = predicted.get(name)
        if gate is None or gate.enabled != bool(enabled) or gate.stage.value != STAGES.get(stage, stage):
            wrong.append((name, stage, enabled, gate and (gate.stage.value, gate.enabled)))
    assert not wrong
    # /metrics lists every gate that is not PreAlpha at this version, and nothing else
    shown = {g.name for g in evaluation.gates if g.stage.value != "PreAlpha"}
    assert shown == set(observed)


@pytest.mark.parametrize("path", LIVE, ids=_id)
def test_version_document_agrees(path):
    record = _record(path)
    binary, emulated, min_compat, feature_gates, _ = _inputs(record)
    selection = gate_evaluation(CATALOG, Request(binary, emulated, min_compat, feature_gates)).selection
    version = record["version"]
    assert version["gitVersion"] == binary
    assert f"{version['major']}.{version['minor']}" == str(selection.binary)[: len(f"{version['major']}.{version['minor']}")]
    if "emulationMajor" not in version:  # a /version before 1.33 reports neither (kcompat inspect says so)
        assert selection.binary < parse_version("1.33")
        return
    assert f"{version['emulationMajor']}.{version['emulationMinor']}" == str(selection.emulated)
    assert f"{version['minCompatibilityMajor']}.{version['minCompatibilityMinor']}" == str(selection.min_compat)


def _availability(record: dict):
    binary, emulated, min_compat, feature_gates, runtime_config = _inputs(record)
    return evaluate_api_availability(binary, emulated, runtime_config, min_compat=min_compat,
                                      gate_states=api_gate_states(CATALOG, feature_gates), compare_with_release=False, api_data=CATALOG.api_data)


@pytest.mark.parametrize("path", LIVE, ids=_id)
def test_served_resources_and_subresources_agree_with_discovery(path):
    record = _record(path)
    result = _availability(record)
    assert result.valid, result.errors
    predicted = {(e.group, e.version, e.resource): e for e in result.served()}
    observed = _discovered(record)
    assert sorted(set(predicted) - set(observed)) == []
    assert sorted(set(observed) - set(predicted)) == []
    wrong = [(k, predicted[k].subresources, v["subresources"]) for k, v in observed.items() if tuple(v["subresources"]) != predicted[k].subresources]
    assert not wrong


def test_the_storage_version_hash_is_the_apiservers():
    # from a recording: core v1 pods are stored as v1
    record = _record(LIVE[0])
    pods = next(r for r in record["discovery"]["v1"] if r["name"] == "pods")
    assert storage_version_hash("", "v1", "Pod") == pods["storageVersionHash"]


@pytest.mark.parametrize("path", LIVE, ids=_id)
def test_storage_versions_agree_with_the_hash_discovery_reports(path):
    record = _record(path)
    binary, emulated_flag, min_compat_flag, feature_gates, _ = _inputs(record)
    selection = gate_evaluation(CATALOG, Request(binary, emulated_flag, min_compat_flag, feature_gates)).selection
    emulated, min_compat = str(selection.emulated), str(selection.min_compat)
    flags = _flags(record["flags"])
    result = storage_versions(record["binary"], emulated, min_compat, gate_states=api_gate_states(CATALOG, flags.get("feature-gates")), api_data=CATALOG.api_data)
    predicted = {(c.group, c.resource): storage_version_hash(c.storage_group, c.version, c.kind) for c in result.choices if c.version}
    wrong = []
    for (group, _, name), resource in _discovered(record).items():
        if resource.get("storageVersionHash") and predicted.get((group, name)) != resource["storageVersionHash"]:
            wrong.append((group, name))
    assert not wrong


def _refusal_cases():
    for path in REFUSALS:
        for name, case in sorted(json.loads(path.read_text()).items()):
            yield pytest.param(path.parent.name, case, id=f"{path.parent.name}:{name}")


@pytest.mark.parametrize("release, case", list(_refusal_cases()))
def test_refusals_are_the_binarys_own_words(release, case):
    """A case the binary refused (its flag checks) is refused with its words; a case it started
    with is accepted. A case that exited or never got ready after the flags were accepted is a
    start-up matter (tests of the readiness data), not the flags'."""
    if verdict(case) not in ("refused", "ready"):
        pytest.skip(f"verdict {verdict(case)}: the flags were accepted, the start failed later (readiness)")
    flags = _flags(case["flags"])
    emulated, min_compat = flags.get("emulated-version"), flags.get("min-compatibility-version")
    feature_gates, runtime_config = flags.get("feature-gates"), flags.get("runtime-config")
    errors = list(gate_evaluation(CATALOG, Request(release, emulated, min_compat, feature_gates)).errors)
    if not errors:  # the API checks run once the versions and gates are accepted
        result = evaluate_api_availability(release, emulated, runtime_config, min_compat=min_compat,
                                           gate_states=api_gate_states(CATALOG, feature_gates), compare_with_release=False, api_data=CATALOG.api_data)
        errors = list(result.errors)
    if verdict(case) == "ready":
        assert not errors, "kcompat refuses what the binary started with"
        return
    assert case["exitStatus"] == 1
    assert errors, "kcompat accepts what the binary refused"
    assert aggregate(errors) == binary_error(case["errorLines"][0])


@pytest.mark.parametrize("path", sorted(ORACLE.glob("v*/gates.json")), ids=lambda p: p.parent.name)
def test_every_recorded_patch_answers_as_itself(path):
    """``--binary 1.N.P`` evaluates exactly the gates v1.N.P registered (specs, origin, dependencies)."""
    patch = path.parent.name[1:]  # a pre-release of the development release (1.38.0-beta.0) too
    recorded = {g["name"]: g for g in json.loads(path.read_text())}
    manifest, note = CATALOG.manifest_for(gate_evaluation(CATALOG, Request(patch)).selection.binary)
    assert note is None
    assert set(manifest.by_name) == set(recorded)
    for name, gate in recorded.items():
        feature = manifest.by_name[name]
        assert feature.origin == gate["origin"]
        assert tuple(sorted(feature.dependencies)) == tuple(sorted(gate.get("dependencies") or ()))
        specs = [(str(s.version), s.default, s.lock_to_default, s.stage.value,
                  str(s.effective_min_compatibility) if s.effective_min_compatibility else "") for s in feature.specs]
        assert specs == [(s["version"], s["default"], s["lockToDefault"], s["preRelease"], s.get("minCompatibilityVersion", ""))
                         for s in gate["versionedSpecs"]], name


def test_the_agreement_page_states_the_agreement_the_recordings_give():
    readme = (Path(__file__).resolve().parents[2] / "docs" / "agreement.md").read_text()
    for row in agreement_rows():
        assert row in readme, f"docs/agreement.md lacks the row: {row}"
    assert f"All {agreement_total():,} answers agree" in readme
