"""The readiness rules (kcompat/core/readiness.py) and their files: a gate set holds at the emulated
version it was recorded at when all its gates are on, unless the group/versions it needs are
served; an API rule holds where a default start serves the API and the flags turn it off, unless
the options a recorded start got ready with are given; the loader refuses a file it cannot read."""

from __future__ import annotations

import json

import pytest

from kcompat.core.errors import KcompatError
from kcompat.core.problems import ApiOffNotReady, GatesNotReady, ReadinessNotSearched
from kcompat.core.readiness import readiness_problems, rules_from_document, served_apis
from kcompat.core.versions import parse_version
from kcompat.data.startup import readiness_rules
from kcompat.refresh.startup import split_api

DOCUMENT = {
    "release": "1.34", "recorded": "v1.34.12", "probed": ["1.31", "1.32", "1.33", "1.34"],
    "gates": [
        {"gates": ["G"], "emulated": "1.31", "needs": None, "outcome": {"verdict": "exited", "seconds": 61, "line": "PostStartHook \"x\" failed"}},
        {"gates": ["G"], "emulated": "1.32", "needs": None, "outcome": {"verdict": "exited", "seconds": 62}},
        {"gates": ["H", "I"], "emulated": "1.34", "needs": ["g.example/v1beta1"],
         "outcome": {"verdict": "not-ready", "seconds": 100, "failing": ["informer-sync"], "waitsFor": ["v1beta1.Thing"]}},
    ],
    "apis": [
        {"groupVersion": "g.example/v1", "resource": None, "emulated": "1.34", "outcome": {"verdict": "exited", "seconds": 13}},
        {"groupVersion": "f.example/v1", "resource": "things", "emulated": "1.34", "outcome": {"verdict": "not-ready", "seconds": 25},
         "unless": [[["enable-priority-and-fairness", "false"]]]},
    ],
}
RULES = rules_from_document(DOCUMENT)
DEFAULT = served_apis([("g.example/v1", "widgets"), ("f.example/v1", "things"), ("f.example/v1", "others")])


def on(*names):
    return lambda gate: gate in names


def test_a_gate_rule_holds_at_its_emulated_version_with_every_gate_on():
    (problem,) = readiness_problems(RULES, parse_version("1.31"), on("G"), None, None)
    assert isinstance(problem, GatesNotReady) and problem.missing == ()
    assert problem.message == ('kube-apiserver starts but does not become ready: G on at emulated version 1.31, whatever '
                               '--runtime-config enables (v1.34.12 exited after about 61 s: PostStartHook "x" failed)')
    assert readiness_problems(RULES, parse_version("1.33"), on("G"), None, None) == []  # not recorded there: it got ready
    assert readiness_problems(RULES, parse_version("1.34"), on("H"), None, lambda: DEFAULT) == []  # only all of the set


def test_a_gate_rule_with_needs_holds_until_they_are_served():
    kinds = {"g.example/v1beta1": ("Thing",)}.get
    (problem,) = readiness_problems(RULES, parse_version("1.34"), on("H", "I"), None, lambda: DEFAULT, lambda gv: kinds(gv, ()))
    assert problem.missing == ("g.example/v1beta1",) and problem.kinds == ("Thing",)
    assert problem.message.startswith("kube-apiserver starts but does not become ready: H and I on at emulated version 1.34 needs "
                                      "g.example/v1beta1 (Thing), which is not served (v1.34.12's /readyz never reported ok in 100 s "
                                      "(failing: informer-sync); it kept failing to list *v1beta1.Thing)")
    fixed = served_apis([*DEFAULT.resources, ("g.example/v1beta1", "things")])
    assert readiness_problems(RULES, parse_version("1.34"), on("H", "I"), lambda: fixed, lambda: DEFAULT) == []


def test_a_gate_rule_api_all_fixes_holds_until_the_selection_serves_what_api_all_serves():
    # v1.36.5: GenericWorkload on never got ready, and got ready with --runtime-config=api/all=true
    document = {**DOCUMENT, "gates": [{"gates": ["W"], "emulated": "1.34", "needs": None, "fixedByAllApis": True,
                                      "outcome": {"verdict": "not-ready", "seconds": 100}}]}
    rules = rules_from_document(document)
    everything = served_apis([*DEFAULT.resources, ("s.example/v1alpha2", "workloads"), ("s.example/v1alpha2", "podgroups")])
    some = served_apis([*DEFAULT.resources, ("s.example/v1alpha2", "workloads")])
    emu = parse_version("1.34")
    (problem,) = readiness_problems(rules, emu, on("W"), None, lambda: DEFAULT, all_served=lambda: everything)
    assert problem.fixed_by_all_apis  # no --runtime-config: a default start
    assert len(readiness_problems(rules, emu, on("W"), lambda: some, lambda: DEFAULT, all_served=lambda: everything)) == 1
    assert readiness_problems(rules, emu, on("W"), lambda: everything, lambda: DEFAULT, all_served=lambda: everything) == []


def test_an_api_rule_holds_where_a_default_start_serves_it_and_the_flags_turn_it_off():
    off = served_apis([("f.example/v1", "others")])
    found = readiness_problems(RULES, parse_version("1.34"), on(), lambda: off, lambda: DEFAULT)
    assert [(type(p), p.api) for p in found] == [(ApiOffNotReady, "g.example/v1"), (ApiOffNotReady, "f.example/v1/things")]
    # with the options a recorded start got ready with, the second does not hold
    options = frozenset({("enable-priority-and-fairness", "false")})
    assert [p.api for p in readiness_problems(RULES, parse_version("1.34"), on(), lambda: off, lambda: DEFAULT, options=options)] == ["g.example/v1"]
    # an API the default start does not serve (introduced later, say) is no need
    assert readiness_problems(RULES, parse_version("1.34"), on(), lambda: off, lambda: served_apis([])) == []
    # without a --runtime-config (served is None) no API rule can hold
    assert readiness_problems(RULES, parse_version("1.34"), on(), None, lambda: DEFAULT) == []


def test_the_lowest_emulated_version_a_gate_set_gets_ready_at():
    assert RULES.lowest_ready(("G",)) == parse_version("1.33")
    assert RULES.lowest_ready(("H", "I")) is None  # failing at the newest probed version
    assert RULES.lowest_ready(("Z",)) is None


@pytest.mark.parametrize(
    "api, split",
    [("v1", ("v1", None)), ("v1/pods", ("v1", "pods")), ("apps/v1", ("apps/v1", None)),
     ("flowcontrol.apiserver.k8s.io/v1/flowschemas", ("flowcontrol.apiserver.k8s.io/v1", "flowschemas"))],
)
def test_an_api_off_finding_splits_into_group_version_and_resource(api, split):
    assert split_api(api) == split


def test_the_loader_reads_a_rules_file_and_refuses_a_broken_one(tmp_path):
    (tmp_path / "startup").mkdir()
    assert readiness_rules(tmp_path, "1.31") is None  # none recorded
    (tmp_path / "startup" / "v1.34.json").write_text(json.dumps(DOCUMENT))
    assert readiness_rules(tmp_path, "1.34") == RULES
    (tmp_path / "startup" / "v1.33.json").write_text(json.dumps(DOCUMENT))
    with pytest.raises(KcompatError, match=r"holds the rules of 1\.34, not 1\.33"):
        readiness_rules(tmp_path, "1.33")
    (tmp_path / "startup" / "v1.32.json").write_text('{"release": "1.32", "gates": [{"gates": 3}]}')
    with pytest.raises(KcompatError, match="malformed readiness rules"):
        readiness_rules(tmp_path, "1.32")


def test_gates_of_a_stage_the_recording_could_not_search_get_a_note_not_a_verdict():
    rules = rules_from_document({**DOCUMENT, "unsearched": [{"emulated": "1.34", "stage": "Alpha", "evidence": ["r9"]}]})
    alpha_on = {"Alpha": ("H", "X"), "Beta": ("B",)}.get

    def found(emulated, meta=lambda stage: alpha_on(stage, ())):
        return readiness_problems(rules, parse_version(emulated), on("H", "X", "B"), None, lambda: DEFAULT, meta_gates_on=meta)

    (problem,) = found("1.34")
    # H is named by a rule at 1.34 (with I): X alone is not known; Beta was searched there
    assert isinstance(problem, ReadinessNotSearched) and problem.gates == ("X",) and problem.warns and not problem.not_ready
    assert problem.message == ("whether kube-apiserver becomes ready with X on at emulated version 1.34 is not known: the recorded "
                               "starts of v1.34.12 could not search its Alpha gates there (--feature-gates=AllAlpha=true is refused at 1.34)")
    assert found("1.33") == []  # searched there
    assert found("1.34", lambda stage: ()) == []  # no such gate on
    many = found("1.34", lambda stage: tuple(f"A{i}" for i in range(9)) if stage == "Alpha" else ())
    assert "A0, A1, A2 and 6 other Alpha gates on at emulated version 1.34" in many[0].message
    assert readiness_problems(RULES, parse_version("1.34"), on("X"), None, lambda: DEFAULT, meta_gates_on=lambda s: ("X",)) == []
