"""What differs between two sides (kcompat.core.diffs) on the bundled data."""

import pytest

from kcompat.answers.changes import compare
from kcompat.answers.gates import gate_evaluation, gates, native_states
from kcompat.core.diffs import spec_events
from kcompat.core.request import Request
from kcompat.core.stages import Stage
from kcompat.core.versions import parse_version as V


def comparison(catalog, binary, emulated=None, against="release", flags=None, min_compat=None):
    result = compare(catalog, Request(binary, emulated, min_compat, flags), against)
    assert result.comparison is not None, result.errors
    return result.comparison


@pytest.fixture(scope="module")
def m136(catalog):
    return catalog.manifest("1.36")


@pytest.fixture(scope="module")
def vs_136(catalog):
    return comparison(catalog, "1.36", "1.33", "native")


# --- (a) binary at E against binary at B -----------------------------------------------------


def test_vs_native_labels(vs_136):
    assert (vs_136.here, vs_136.there) == ("1.36 emulating 1.33", "1.36 (not emulating)")


def test_job_managed_by_graduated_and_locked_after_1_33(vs_136):
    c = vs_136.get("JobManagedBy")
    assert (c.here.stage, c.there.stage) == (Stage.BETA, Stage.GA)
    assert c.behaviour == "same" and c.fields == ("stage", "locked")
    assert [r.kind for r in c.reasons] == ["graduated", "locked"]


def test_gate_introduced_after_the_emulated_version_is_prealpha_here(vs_136):
    c = vs_136.get("AuthorizePodWebsocketUpgradeCreatePermission")  # Beta (on) from 1.35
    assert c.here.stage is Stage.PRE_ALPHA and not c.here.enabled
    assert c.there.enabled and c.behaviour == "on-there-only"
    assert c.reasons[0].kind == "introduced"


def test_deprecated_gate_turns_off(vs_136):
    c = vs_136.get("ChangeContainerStatusOnKubeletRestart")
    assert c.behaviour == "on-here-only"
    assert [r.kind for r in c.reasons] == ["deprecated"]


def test_unchanged_gates_are_not_listed(catalog, vs_136):
    assert vs_136.get("APIResponseCompression") is None  # Beta, on at 1.33 and 1.36
    assert comparison(catalog, "1.36", None, "native").changes == ()


def test_every_listed_gate_really_differs(vs_136):
    for c in vs_136.changes:
        assert c.fields and c.here.key() != c.there.key()
        assert c.reasons, c.name


def test_changed_column_of_the_table_matches_the_comparison(catalog, vs_136):
    evaluation = gate_evaluation(catalog, Request("1.36", "1.33"))
    states = native_states(evaluation, gate_evaluation(catalog, Request("1.36")))
    assert list(states) == [g.name for g in evaluation.gates]
    stages = {g.name: g.stage.value for g in evaluation.gates}
    changed = {name for name, (_, c) in states.items() if c}
    assert {c.name for c in vs_136.changes if "stage" in c.fields} <= changed
    assert {c.name for c in vs_136.changes} >= {name for name, (stage, c) in states.items() if c and stages[name] != stage}
    assert native_states(evaluation, None) == {name: (None, False) for name in stages}  # no binary: nothing to compare


def test_table_rows_agree_with_the_cli_rows(catalog):
    evaluation = gate_evaluation(catalog, Request("1.36", "1.33", None, "AllAlpha=true"))
    answer = gates(catalog, Request("1.36", "1.33", None, "AllAlpha=true"))
    assert [(r.name, r.enabled, r.stage, r.default, r.locked) for r in answer.rows] == [
        (g.name, g.enabled, g.stage.value, g.default, g.locked) for g in evaluation.gates
    ]
    job = next(r for r in answer.rows if r.name == "JobManagedBy")
    assert job.binary_stage == "GA" and job.changed


# --- (b) binary at E against the real release E ----------------------------------------------


@pytest.fixture(scope="module")
def vs_release_133(catalog):
    return comparison(catalog, "1.36", "1.33", "release")


def test_gate_removed_from_the_binary_keeps_its_last_state(vs_release_133):
    c = vs_release_133.get("AllowServiceLBStatusOnNonLB")  # Deprecated, locked off; gone from 1.35
    assert not c.here.exists and c.here.enabled is False and c.here.source == "removed"
    assert c.there.stage is Stage.DEPRECATED and not c.there.enabled
    assert c.behaviour == "same"
    assert "removed in 1.35" in c.why and "always off" in c.why


def test_api_list_chunking_at_1_33_emulating_1_31_behaves_as_in_1_31(catalog):
    c = comparison(catalog, "1.33", "1.31", "release").get("APIListChunking")
    assert c.here.document() == {"exists": False, "enabled": True, "stage": None, "locked": None}
    assert c.there.document() == {"exists": True, "enabled": True, "stage": "GA", "locked": True}
    assert c.behaviour == "same" and "always on" in c.why


def test_gate_only_in_the_binary_is_described_by_its_back_dated_spec(vs_release_133):
    c = vs_release_133.get("AllowServiceExternalIPs")  # the 1.36 manifest dates it to 1.0 (GA)
    assert not c.there.exists and c.there.source == "back-dated"
    assert c.there.enabled == c.here.enabled and c.behaviour == "same"


def test_history_rewritten_in_the_newer_manifest(catalog):
    # v1.31.14 registers WindowsHostNetwork as Alpha on; the 1.33 gate says Alpha off at 1.31
    c = comparison(catalog, "1.33", "1.31", "release").get("WindowsHostNetwork")
    assert (c.here.stage, c.there.stage) == (Stage.ALPHA, Stage.ALPHA) and (c.here.enabled, c.there.enabled) == (False, True)
    assert c.behaviour == "on-there-only"
    assert any(r.kind == "history-differs" for r in c.reasons)


def test_all_beta_false_applies_on_both_sides(catalog, gates):
    result = compare(catalog, Request("1.33", "1.31", None, "AllBeta=false"), "release")
    assert result.errors == ()
    here = gates("1.33", "1.31", None, "AllBeta=false").by_name()
    there = gates("1.31", None, None, "AllBeta=false").by_name()
    for c in result.comparison.changes:
        if c.here.exists:
            assert c.here.enabled == here[c.name].enabled, c.name
        if c.there.exists:
            assert c.there.enabled == there[c.name].enabled, c.name
    # client-go's InOrderInformers: Beta (on, at 0.0) in the 1.33 binary, which AllBeta=false turns off; a real
    # 1.31 does not register it, so the flag cannot reach it there (its back-dated spec: on)
    c = result.comparison.get("InOrderInformers")
    assert (c.here.enabled, c.here.source) == (False, "AllBeta") and (c.there.exists, c.there.enabled, c.there.source) == (False, True, "back-dated")
    assert c.behaviour == "on-there-only"


def test_a_side_that_refuses_the_flags_says_so_and_shows_its_defaults(catalog):
    result = compare(catalog, Request("1.33", "1.31", None, "ContainerStopSignals=true"), "release")
    assert result.errors == (
        "1.33 emulating 1.31: cannot set feature gate ContainerStopSignals to true, feature is PreAlpha at emulated version 1.31",
        "a real 1.31 (v1.31.14): unrecognized feature gate: ContainerStopSignals",
    )
    assert all(c.here.source != "flag" for c in result.comparison.changes)


def test_release_compared_with_itself_has_no_difference(catalog):
    assert comparison(catalog, "1.34", None, "release").changes == ()


# --- (c) an emulation step ---------------------------------------------------------------------


def test_step_1_33_to_1_34_lists_what_happened_in_1_34(catalog):
    step = comparison(catalog, "1.36", "1.33", "1.36@1.34")
    c = step.get("APIServerTracing")
    assert [(r.kind, str(r.version)) for r in c.reasons] == [("graduated", "1.34"), ("locked", "1.34")]
    for change in step.changes:
        assert all(r.version is None or V("1.33") < r.version <= V("1.34") for r in change.reasons)
    assert step.get("JobManagedBy") is None  # changes in 1.35, not in this step


def test_step_down_is_the_mirror_of_the_step_up(catalog):
    up = comparison(catalog, "1.36", "1.33", "1.36@1.34")
    down = comparison(catalog, "1.36", "1.34", "1.36@1.33")
    assert [c.name for c in up.changes] == [c.name for c in down.changes]
    assert {c.name for c in up.behaving("on-there-only")} == {c.name for c in down.behaving("on-here-only")}


def test_spec_events_of_kmsv1(m136):
    feature = m136.by_name["KMSv1"]
    events = spec_events(feature, V("1.27"), V("1.29"))
    assert [(e.kind, str(e.version)) for e in events] == [("deprecated", "1.28"), ("default-off", "1.29")]
    assert spec_events(feature, V("1.29"), V("1.36")) == ()




# --- every bundled pair, against an independent reading of the manifests -----------------------


def _independent_state(catalog, releases, binary, emulated, name, evaluation):
    """(exists, enabled, stage, locked) of ``name`` on a side, computed without kcompat.core.removals."""
    g = evaluation.get(name)
    if g is not None:
        return (True, g.enabled, g.stage, g.locked)
    older = [r for r in releases if V(r) < V(binary) and name in catalog.manifest(r)]
    if older:  # removed: the last spec of the newest release that listed it
        return (False, catalog.manifest(older[-1]).by_name[name].specs[-1].default, None, None)
    return None  # not introduced or back-dated: checked elsewhere


def test_every_bundled_pair_against_the_real_release(catalog):
    from kcompat.core.compat import rules_for

    releases = catalog.usable_releases()
    checked = 0
    for b in releases:
        low, high = rules_for(V(b)).emulation_range()
        for minor in range(low.minor, high.minor + 1):
            e = f"1.{minor}"
            if e not in releases:
                continue
            result = compare(catalog, Request(b, e, None, None), "release")
            here = gate_evaluation(catalog, Request(b, e)).by_name()
            there = gate_evaluation(catalog, Request(e)).by_name()
            listed = {c.name: c for c in result.comparison.changes}
            for name in sorted(set(catalog.manifest(b).by_name) | set(catalog.manifest(e).by_name)):
                h = _independent_state(catalog, releases, b, e, name, here)
                t = _independent_state(catalog, releases, e, e, name, there)
                if h is None or t is None:
                    continue
                if h == t:
                    assert name not in listed, (b, e, name)
                else:
                    c = listed[name]
                    assert (c.here.key(), c.there.key()) == (h, t), (b, e, name)
                    assert c.behaviour == ("same" if h[1] == t[1] else "on-here-only" if h[1] else "on-there-only")
                checked += 1
    assert checked > 1000
