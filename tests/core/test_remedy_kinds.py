"""Remedies beside the binary's problems (kcompat/core/remedies), on the bundled data."""

import json

from kcompat.answers.gates import gate_evaluation
from kcompat.cli.main import main as kcompat
from kcompat.core.problems import MAX_REMEDIES, DependencyDisabled
from kcompat.core.remedies import gate_remedies
from kcompat.core.request import Request
from kcompat.core.search import closest_names


def test_typo_gets_the_closest_gate_and_keeps_the_binarys_text(capsys):
    code = kcompat(["gates", "--binary", "1.36", "--feature-gates", "JobManagdBy=true", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 2 and doc["errors"] == ["unrecognized feature gate: JobManagdBy"]
    assert doc["hints"] == [
        {
            "kind": "unknown-gate",
            "error": "unrecognized feature gate: JobManagdBy",
            "gate": "JobManagdBy",
            "text": "did you mean JobManagedBy?",
            "names": ["JobManagedBy"],
        }
    ]


def test_table_output_prints_hints_after_the_errors(capsys):
    assert kcompat(["gates", "--binary", "1.36", "--feature-gates", "watchlistclient=true"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-2:] == ["error: unrecognized feature gate: watchlistclient", "hint: watchlistclient: did you mean WatchListClient?"]


def test_closest_names():
    known = ("JobManagedBy", "JobPodReplacementPolicy", "AllAlpha", "WatchList", "WatchListClient")
    assert closest_names("JobManagdBy", known) == ("JobManagedBy",)
    assert closest_names("allalpha", known) == ("AllAlpha",)  # same name but for case: that one only
    assert closest_names("WatchLis", known)[0] == "WatchList"
    assert closest_names("Completely", known) == ()
    assert closest_names("J" * 10_000, known) == ()  # long input: no quadratic matching


def test_meta_gates_are_suggested_too(catalog):
    ev = gate_evaluation(catalog, Request("1.36", None, None, "AllAlfa=true"))
    (hint,) = gate_remedies(ev)
    assert hint.names == ("AllAlpha",)


def test_dependency_hint_names_the_fix(catalog):
    ev = gate_evaluation(catalog, Request("1.36", "1.34", None, "DRAAdminAccess=true,DynamicResourceAllocation=false"))
    hints = {h.gate: h.text for h in gate_remedies(ev)}
    assert hints["DRAAdminAccess"] == "DRAAdminAccess depends on DynamicResourceAllocation: enable DynamicResourceAllocation or leave DRAAdminAccess off"
    # on by default at 1.34: it has to be turned off explicitly
    assert hints["DRAPrioritizedList"].endswith("or set DRAPrioritizedList=false (it is on by default at 1.34)")
    assert all(h.error in ev.errors for h in gate_remedies(ev))


def test_dependency_hint_on_a_gate_turned_on_by_all_alpha(catalog):
    ev = gate_evaluation(catalog, Request("1.36", None, None, "AllAlpha=true,AllBeta=false"))
    texts = [h.text for h in gate_remedies(ev)]
    assert texts == [
        "PodLevelResourceManagers depends on PodLevelResources: enable PodLevelResources or set PodLevelResourceManagers=false (turned on by AllAlpha=true)",
        "StorageVersionAPI depends on APIServerIdentity: enable APIServerIdentity or set StorageVersionAPI=false (turned on by AllAlpha=true)",
        "UserNamespacesHostNetworkSupport depends on NodeDeclaredFeatures: enable NodeDeclaredFeatures or set UserNamespacesHostNetworkSupport=false (turned on by AllAlpha=true)",
    ]


def test_a_flood_of_unknown_names_gets_a_bounded_number_of_hints(catalog):
    flags = ",".join(f"JobManagedBx{i}=true" for i in range(200))
    ev = gate_evaluation(catalog, Request("1.36", None, None, flags))
    assert len(gate_remedies(ev)) <= MAX_REMEDIES


def test_valid_input_has_no_hints(catalog, capsys):
    kcompat(["gates", "--binary", "1.36", "--format", "json"])
    assert json.loads(capsys.readouterr().out)["hints"] == []


def test_dependency_that_cannot_be_enabled_is_said_so(catalog):
    # 1.36 at emulated 1.34: DRAAdminAccess depends on DynamicResourceAllocation; with the
    # dependency forced off by a flag, the remedy says to leave the gate off or enable it
    ev = gate_evaluation(catalog, Request("1.36", "1.34", None, "DRAAdminAccess=true,DynamicResourceAllocation=false"))
    [remedy] = [r for r in gate_remedies(ev) if r.gate == "DRAAdminAccess"]
    assert isinstance(remedy.problem, DependencyDisabled)
    assert remedy.problem.disabled == ("DynamicResourceAllocation",) and remedy.names == ("DynamicResourceAllocation",)
    assert remedy.error == remedy.problem.message and remedy.error in ev.errors


def test_dependency_that_cannot_be_enabled_is_said_so_whatever_the_message_says():
    """A gate whose dependencies are locked off and not yet introduced: the remedy names why each
    cannot be enabled (read from the problem's values and the gate states, never its text)."""
    from kcompat.core.compat import select_versions
    from kcompat.core.gates import evaluate_gates
    from kcompat.core.manifest import Manifest
    from kcompat.core.registration import load_manifest_bytes

    text = """
- name: Dep
  versionedSpecs:
  - {default: false, lockToDefault: false, preRelease: Alpha, version: "1.0"}
  - {default: false, lockToDefault: true, preRelease: Deprecated, version: "1.30"}
- name: Gate
  dependencies: [Dep, New]
  versionedSpecs:
  - {default: false, lockToDefault: false, preRelease: Alpha, version: "1.30"}
- name: New
  versionedSpecs:
  - {default: false, lockToDefault: false, preRelease: Alpha, version: "1.40"}
"""
    manifest = Manifest(load_manifest_bytes(text, "t.yaml", check_dependencies=False))
    ev = evaluate_gates(manifest, select_versions(None, "1.34"), "Gate=true")
    [remedy] = gate_remedies(ev)
    assert remedy.problem == DependencyDisabled("Gate", ("Dep", "New"))
    assert remedy.text == "Gate depends on Dep and New; Dep is locked off at 1.34; New is not yet introduced at 1.34, so leave Gate off"
    assert remedy.error == ev.errors[0] and remedy.names == ("Dep", "New")


def test_remedies_follow_the_problem_not_its_wording(catalog, monkeypatch):
    """Rewording a message cannot lose its remedy: the remedy is found from the problem's type."""
    from kcompat.core.problems import UnknownGate

    monkeypatch.setattr(UnknownGate, "message", property(lambda self: f"no gate called {self.name}"))
    ev = gate_evaluation(catalog, Request("1.36", None, None, "JobManagdBy=true"))
    assert ev.errors == ("no gate called JobManagdBy",)
    [remedy] = gate_remedies(ev)
    assert remedy.text == "did you mean JobManagedBy?" and remedy.error == "no gate called JobManagdBy"


def test_the_remedies_read_no_message_text():
    """No regular expression and no reading of a message in the remedies' modules: they branch on
    the problems' types and read their fields."""
    import ast
    from pathlib import Path

    import kcompat.core.remedies as remedies

    for path in Path(remedies.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert "re" not in imported, path
        attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not attributes & {"message", "error", "errors", "warnings", "match", "startswith", "partition"}, path
