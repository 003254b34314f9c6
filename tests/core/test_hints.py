"""Hints beside the binary's errors (kcompat/core/hints.py), on the bundled data."""

import json

from kcompat.cli.main import main as kcompat
from kcompat.core.hints import MAX_HINTS, closest_names, dependency_error_parts, hints_for
from kcompat.answers.gates import gate_evaluation


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
    ev = gate_evaluation(catalog, "1.36", None, None, "AllAlfa=true")
    (hint,) = hints_for(ev)
    assert hint.names == ("AllAlpha",)


def test_dependency_hint_names_the_fix(catalog):
    ev = gate_evaluation(catalog, "1.36", "1.34", None, "DRAAdminAccess=true,DynamicResourceAllocation=false")
    hints = {h.gate: h.text for h in hints_for(ev)}
    assert hints["DRAAdminAccess"] == "DRAAdminAccess depends on DynamicResourceAllocation: enable DynamicResourceAllocation or leave DRAAdminAccess off"
    # on by default at 1.34: it has to be turned off explicitly
    assert hints["DRAPrioritizedList"].endswith("or set DRAPrioritizedList=false (it is on by default at 1.34)")
    assert all(h.error in ev.errors for h in hints_for(ev))


def test_dependency_hint_on_a_gate_turned_on_by_all_alpha(catalog):
    ev = gate_evaluation(catalog, "1.36", None, None, "AllAlpha=true,AllBeta=false")
    texts = [h.text for h in hints_for(ev)]
    assert texts == [
        "PodLevelResourceManagers depends on PodLevelResources: enable PodLevelResources or set PodLevelResourceManagers=false (turned on by AllAlpha=true)",
        "StorageVersionAPI depends on APIServerIdentity: enable APIServerIdentity or set StorageVersionAPI=false (turned on by AllAlpha=true)",
        "UserNamespacesHostNetworkSupport depends on NodeDeclaredFeatures: enable NodeDeclaredFeatures or set UserNamespacesHostNetworkSupport=false (turned on by AllAlpha=true)",
    ]


def test_error_parsing_is_plain_string_splitting():
    assert dependency_error_parts("A is enabled, but depends on features that are disabled: [B C]") == ("A", ("B", "C"))
    assert dependency_error_parts("unrecognized feature gate: A") is None
    assert dependency_error_parts("A is enabled, but depends on features that are disabled: [" * 10_000) is None


def test_a_flood_of_unknown_names_gets_a_bounded_number_of_hints(catalog):
    flags = ",".join(f"JobManagedBx{i}=true" for i in range(200))
    ev = gate_evaluation(catalog, "1.36", None, None, flags)
    assert len(hints_for(ev)) <= MAX_HINTS


def test_valid_input_has_no_hints(catalog, capsys):
    kcompat(["gates", "--binary", "1.36", "--format", "json"])
    assert json.loads(capsys.readouterr().out)["hints"] == []


def test_dependency_that_cannot_be_enabled_is_said_so():
    from kcompat.core.hints import dependency_hint
    from kcompat.core.manifest import GateState
    from kcompat.core.stages import Stage

    states = {
        "Dep": GateState("Dep", False, Stage.DEPRECATED, False, True, False, "default"),
        "New": GateState("New", False, Stage.PRE_ALPHA, False, False, False, "default"),
    }
    error = "Gate is enabled, but depends on features that are disabled: [Dep New]"
    hint = dependency_hint(error, states, {"Gate": "flag"}, "1.34")
    assert hint.text == "Gate depends on Dep and New; Dep is locked off at 1.34; New is not yet introduced at 1.34, so leave Gate off"
    assert hint.error == error and hint.names == ("Dep", "New")
