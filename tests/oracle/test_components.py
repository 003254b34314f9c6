"""kcompat against the real kube-controller-manager and kube-scheduler: every recording under
data/oracle/<release>/<component>/ (oracle/record.py).

Each component registers its own feature gate (kube's gates, client-go's, and what its own main
adds or overrides: kube-controller-manager turns WatchListClient on in 1.34). ``--component``
answers with that gate set. Each live recording is one real component of a pinned release started
at one emulated version (or with every gate on) against the recorded kube-apiserver: its
``/metrics`` gates. Each refusal is the component started with an input it refuses. No Go is
needed: the recordings are in the repository.
"""

from __future__ import annotations

from kcompat.core.request import Request

import json
import re
from pathlib import Path

import pytest

from kcompat import DATA_DIR
from kcompat.answers.gates import gate_evaluation
from kcompat.answers.versions import allowed_ranges
from kcompat.cli.main import main as kcompat
from kcompat.core.compat import parse_binary_version
from kcompat.core.components import OTHER_COMPONENTS
from kcompat.data.catalog import DEFAULT_CATALOG as CATALOG

from oracle_support import META_GATES, STAGES, aggregate, binary_error, flags_of as _flags, verdict

ORACLE = DATA_DIR / "oracle"
GATES = sorted(p for c in OTHER_COMPONENTS for p in ORACLE.glob(f"v*/{c}/gates.json"))
LIVE = sorted(p for c in OTHER_COMPONENTS for p in ORACLE.glob(f"v*/{c}/live/*.json"))
REFUSALS = sorted(p for c in OTHER_COMPONENTS for p in ORACLE.glob(f"v*/{c}/refusals.json"))
RANGES = sorted(p for c in OTHER_COMPONENTS for p in ORACLE.glob(f"v*/{c}/ranges.json"))


def _release_of(path: Path) -> str:
    return next(p.name for p in path.parents if p.parent == ORACLE)


def _component_of(path: Path) -> str:
    return next(p.name for p in path.parents if p.name in OTHER_COMPONENTS)


def _id(path: Path) -> str:
    return f"{_release_of(path)}:{_component_of(path)}:{path.stem}"


def test_every_full_recording_of_1_33_on_has_both_components():
    full = [p.parent for p in ORACLE.glob("v*/apis.json") if (p.parent / "meta.json").is_file()
            and "components" in json.loads((p.parent / "meta.json").read_text())]
    assert {f.name for f in full} >= {"v1.33.13", "v1.34.12"}
    for folder in full:
        for component in OTHER_COMPONENTS:
            assert (folder / component / "gates.json").is_file() and list((folder / component / "live").glob("*.json")), (folder, component)


@pytest.mark.parametrize("path", GATES, ids=_id)
def test_the_component_answers_with_its_own_recorded_gate_set(path):
    """``--component C --binary 1.N.P`` evaluates exactly the gates C registered (specs, origin)."""
    release, component = _release_of(path)[1:], _component_of(path)
    recorded = {g["name"]: g for g in json.loads(path.read_text())}
    manifest, note = CATALOG.manifest_for(parse_binary_version(release), component)
    assert note is None
    assert set(manifest.by_name) == set(recorded)
    for name, gate in recorded.items():
        feature = manifest.by_name[name]
        assert feature.origin == gate["origin"], name
        assert tuple(sorted(feature.dependencies)) == tuple(sorted(gate.get("dependencies") or ())), name
        specs = [(str(s.version), s.default, s.lock_to_default, s.stage.value,
                  str(s.effective_min_compatibility) if s.effective_min_compatibility else "") for s in feature.specs]
        assert specs == [(s["version"], s["default"], s["lockToDefault"], s["preRelease"], s.get("minCompatibilityVersion", ""))
                         for s in gate["versionedSpecs"]], name


@pytest.mark.parametrize("path", LIVE, ids=_id)
def test_component_gates_agree_with_its_metrics(path):
    record = json.loads(path.read_text())
    assert record["verdict"] == "ready" and record["component"] == _component_of(path)
    flags = _flags(record["flags"])
    evaluation = gate_evaluation(CATALOG, Request(record["binary"], flags.get("emulated-version"), flags.get("min-compatibility-version"), flags.get("feature-gates"), component=record["component"]))
    assert evaluation.valid, evaluation.errors
    predicted = {g.name: g for g in evaluation.gates}
    observed = {name: value for name, value in record["gates"].items() if name not in META_GATES}
    wrong = [(name, stage, on, predicted.get(name) and (predicted[name].stage.value, predicted[name].enabled))
             for name, (stage, on) in observed.items()
             if name not in predicted or predicted[name].enabled != bool(on) or predicted[name].stage.value != STAGES.get(stage, stage)]
    assert not wrong
    assert {g.name for g in evaluation.gates if g.stage.value != "PreAlpha"} == set(observed)


def test_kube_controller_manager_turns_watch_list_client_on_in_1_34():
    """A real difference between the components: kube-controller-manager's main sets client-go's
    WatchListClient on (its own recorded gate and /metrics), kube-apiserver's is off."""
    def state(component):
        ev = gate_evaluation(CATALOG, Request("1.34", component=component))
        return next((g.enabled, g.stage.value) for g in ev.gates if g.name == "WatchListClient")

    assert state("kube-controller-manager") == (True, "Beta") and state("kube-apiserver") == (False, "Beta")
    assert state("kube-scheduler") == (False, "Beta")
    metrics = json.loads((ORACLE / "v1.34.12" / "kube-controller-manager" / "live" / "1.34.json").read_text())["gates"]
    assert metrics["WatchListClient"] == ["BETA", 1]


def _refusal_cases():
    for path in REFUSALS:
        for name, case in sorted(json.loads(path.read_text()).items()):
            yield pytest.param(_release_of(path), _component_of(path), case, id=f"{_id(path).rsplit(':', 1)[0]}:{name}")


@pytest.mark.parametrize("release, component, case", list(_refusal_cases()))
def test_component_refusals_are_the_binarys_own_words(release, component, case):
    flags = _flags(case["flags"])
    evaluation = gate_evaluation(CATALOG, Request(release, flags.get("emulated-version"), flags.get("min-compatibility-version"), flags.get("feature-gates"), component=component))
    if verdict(case) == "ready":
        assert evaluation.valid, evaluation.errors
        return
    if verdict(case) != "refused":
        pytest.skip(f"verdict {verdict(case)}: a start-up failure after the flags were accepted (readiness, not the gates)")
    assert case["exitStatus"] == 1
    assert evaluation.errors, "kcompat accepts what the component refused"
    assert aggregate(list(evaluation.errors)) == binary_error(case["errorLines"][0])


def _range(text: str | None) -> tuple[str, str] | None:
    match = re.match(r"(\d+\.\d+)\.\.(\d+\.\d+)", text or "")
    return (match.group(1), match.group(2)) if match else None


@pytest.mark.parametrize("path", RANGES, ids=_id)
def test_component_version_ranges_are_kcompats(path):
    """The --emulated-version range each component's --help states is the one kcompat allows."""
    ranges = json.loads(path.read_text())
    allowed = allowed_ranges(_release_of(path)[1:], _component_of(path))
    assert _range(ranges["allowedEmulationVersionRange"]) == tuple(allowed.emulated_range)
    assert not allowed.forward_compat_flags  # kube-apiserver's only
    if ranges.get("allowedMinCompatibilityVersionRange"):
        assert _range(ranges["allowedMinCompatibilityVersionRange"])[0] == allowed.floor


def test_the_scheduler_of_1_36_emulating_1_34_answers_from_its_own_gate_set(capsys):
    """v1.36.5's kube-scheduler does not register ControllerManagerReleaseLeaderElectionLockOnExit,
    which kube-apiserver and kube-controller-manager do; its /metrics agrees (the tests above)."""
    recorded = {g["name"] for g in json.loads((ORACLE / "v1.36.5" / "kube-scheduler" / "gates.json").read_text())}
    code = kcompat(["gates", "--component", "kube-scheduler", "--binary", "1.36", "--emulated", "1.34", "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["component"] == "kube-scheduler" and document["warnings"] == []
    assert {f["name"] for f in document["features"]} == recorded
    assert "ControllerManagerReleaseLeaderElectionLockOnExit" not in recorded
    differs = {c["component"]: [d["name"] for d in c["differences"]] for c in document["components"]}
    assert differs == {"kube-apiserver": ["ControllerManagerReleaseLeaderElectionLockOnExit"],
                       "kube-controller-manager": ["ControllerManagerReleaseLeaderElectionLockOnExit"]}


def test_a_components_gates_at_another_patch_are_that_patchs_with_its_recorded_difference():
    """Only the gates program is recorded at the other patches: a component's patch set is derived
    (the data's provenance says so), and differs from kube-apiserver's exactly where the component's
    recording does."""
    checked = 0
    for release in CATALOG.component_releases():
        recorded = CATALOG.component_gates(release)
        for level in CATALOG.patches(release).levels:
            binary = parse_binary_version(level.name)
            apiserver, _ = CATALOG.manifest_for(binary)
            for component, difference in recorded.differences.items():
                own, note = CATALOG.manifest_for(binary, component)
                assert note is None
                named = {g["name"] for g in difference.gates}
                assert set(own.by_name) == (set(apiserver.by_name) | named) - set(difference.absent)
                assert {n for n in own.by_name if n in apiserver.by_name and own.by_name[n] != apiserver.by_name[n]} <= named
                checked += 1
    assert checked >= 8
