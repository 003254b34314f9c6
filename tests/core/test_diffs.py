"""What emulation changes (dashboard.core.diffs) on the bundled data."""

import pytest

from dashboard.core.compat import select_versions
from dashboard.core.diffs import (
    TABLE_COLUMNS,
    emulation_step,
    emulation_vs_binary,
    emulation_vs_release,
    gate_table_rows,
    spec_events,
)
from dashboard.core.reports import gate_rows
from dashboard.core.stages import Stage
from dashboard.core.versions import parse_version as V
from dashboard.queries import gates_for


def sel(binary, emulated=None, min_compat=None):
    return select_versions(V(binary), emulated, min_compat)


@pytest.fixture(scope="module")
def m136(catalog):
    return catalog.manifest("1.36")


@pytest.fixture(scope="module")
def vs_136(m136):
    return emulation_vs_binary(m136, sel("1.36", "1.33"))


# --- (a) binary at E against binary at B -----------------------------------------------------


def test_vs_binary_labels_and_direction(vs_136):
    assert vs_136.left == "1.36 binary at 1.33"
    assert vs_136.right == "1.36 binary (not emulating)"


def test_job_managed_by_graduated_and_locked_after_1_33(vs_136):
    d = vs_136.get("JobManagedBy")
    assert (d.left.stage, d.left.locked) == (Stage.BETA, False)
    assert (d.right.stage, d.right.locked) == (Stage.GA, True)
    assert d.fields == ("stage", "locked")
    assert d.effect == "value unchanged"
    assert [(r.kind, str(r.version)) for r in d.reasons] == [("graduated", "1.35"), ("locked", "1.35")]


def test_gate_introduced_after_the_emulated_version_turns_on(vs_136):
    d = vs_136.get("AuthorizePodWebsocketUpgradeCreatePermission")
    assert d.left.stage is Stage.PRE_ALPHA and not d.left.enabled
    assert d.right.stage is Stage.BETA and d.right.enabled
    assert d.turned_on and d.effect == "turns on"
    assert d.why == "introduced in 1.35 as Beta, default on"


def test_deprecated_gate_turns_off(vs_136):
    d = vs_136.get("ChangeContainerStatusOnKubeletRestart")
    assert d.turned_off
    assert [r.kind for r in d.reasons] == ["deprecated"]
    assert [x.name for x in vs_136.turned_off] == ["ChangeContainerStatusOnKubeletRestart"]


def test_unchanged_gates_are_not_listed(vs_136, m136):
    assert vs_136.get("APIResponseCompression") is None  # Beta, on at 1.33 and 1.36
    assert emulation_vs_binary(m136, sel("1.36")).diffs == ()


def test_every_listed_gate_really_differs(vs_136):
    for d in vs_136.diffs:
        assert d.fields and d.left != d.right
        assert d.reasons, d.name


def test_changed_column_of_the_table_matches_the_comparison(catalog, vs_136):
    rows = gate_table_rows(gates_for(catalog, "1.36", "1.33"), gates_for(catalog, "1.36"))
    assert {r["gate"] for r in rows if r["changed"]} == set(vs_136.names())
    assert all(list(r) == list(TABLE_COLUMNS) for r in rows)


def test_table_rows_agree_with_the_cli_rows(catalog):
    evaluation = gates_for(catalog, "1.36", "1.33", None, "AllAlpha=true")
    rows = gate_table_rows(evaluation, gates_for(catalog, "1.36"))
    cli = gate_rows(evaluation)
    assert [(r["gate"], r["enabled"], r["stage"], r["default"], r["locked"]) for r in rows] == [
        (r["name"], r["enabled"], r["stage"], r["default"], r["locked"]) for r in cli
    ]
    job = next(r for r in rows if r["gate"] == "JobManagedBy")
    assert job["binary_stage"] == "GA" and job["changed"]


# --- (b) binary at E against the real release E ----------------------------------------------


@pytest.fixture(scope="module")
def vs_release_133(catalog, m136):
    return emulation_vs_release(m136, sel("1.36", "1.33"), catalog.manifest("1.33"))


def test_gate_removed_from_the_binary(vs_release_133):
    d = vs_release_133.get("AllowServiceLBStatusOnNonLB")
    assert d.left is None and d.right.stage is Stage.DEPRECATED and d.right.locked
    assert d.fields == ("present",)
    assert d.reasons[0].kind == "removed-from-binary"
    assert "cannot bring it back" in d.why


def test_gate_only_in_the_binary_is_back_dated(vs_release_133):
    d = vs_release_133.get("AllowServiceExternalIPs")
    assert d.right is None and d.left.stage is Stage.GA
    assert d.reasons[0].kind == "not-in-release" and str(d.reasons[0].version) == "1.0"


def test_history_rewritten_in_the_newer_manifest(vs_release_133):
    d = vs_release_133.get("TopologyManagerPolicyOptions")
    assert d.fields == ("locked",)
    assert d.left.locked and not d.right.locked
    assert d.reasons[0].kind == "history-differs"


def test_prealpha_in_the_binary_and_absent_from_the_release_is_no_difference(vs_release_133):
    # Introduced in 1.35: neither the 1.36 binary at 1.33 nor release 1.33 offers it.
    assert vs_release_133.get("AuthorizePodWebsocketUpgradeCreatePermission") is None
    assert vs_release_133.get("JobManagedBy") is None  # Beta, on in both


def test_gate_the_binary_starts_later_than_the_release_shipped_it(catalog):
    comparison = emulation_vs_release(catalog.manifest("1.33"), sel("1.33", "1.31"), catalog.manifest("1.31"))
    d = comparison.get("MutatingAdmissionPolicy")
    assert d.left.stage is Stage.PRE_ALPHA and d.right.stage is Stage.ALPHA
    assert d.reasons[0].kind == "introduced-later-in-binary" and str(d.reasons[0].version) == "1.32"


def test_release_compared_with_itself_has_no_difference(catalog):
    m = catalog.manifest("1.34")
    assert emulation_vs_release(m, sel("1.34"), m).diffs == ()


# --- (c) an emulation step ---------------------------------------------------------------------


def test_step_1_33_to_1_34_lists_what_happened_in_1_34(m136):
    step = emulation_step(m136, sel("1.36", "1.33"), sel("1.36", "1.34"))
    d = step.get("APIServerTracing")
    assert [(r.kind, str(r.version)) for r in d.reasons] == [("graduated", "1.34"), ("locked", "1.34")]
    for diff in step.diffs:
        assert all(r.version is None or V("1.33") < r.version <= V("1.34") for r in diff.reasons)
    assert step.get("JobManagedBy") is None  # changes in 1.35, not in this step


def test_step_down_is_the_mirror_of_the_step_up(m136):
    up = emulation_step(m136, sel("1.36", "1.33"), sel("1.36", "1.34"))
    down = emulation_step(m136, sel("1.36", "1.34"), sel("1.36", "1.33"))
    assert up.names() == down.names()
    assert {d.name for d in up.turned_on} == {d.name for d in down.turned_off}
    assert all(r.text.endswith("(not yet at 1.33)") for d in down.diffs for r in d.reasons)


def test_spec_events_of_kmsv1(m136):
    feature = m136.by_name["KMSv1"]
    events = spec_events(feature, V("1.27"), V("1.29"))
    assert [(e.kind, str(e.version)) for e in events] == [("deprecated", "1.28"), ("default-off", "1.29")]
    assert spec_events(feature, V("1.29"), V("1.36")) == ()


def test_rows_are_flat_and_complete(vs_release_133):
    rows = vs_release_133.rows()
    removed = next(r for r in rows if r["gate"] == "AllowServiceLBStatusOnNonLB")
    assert removed["left_present"] is False and removed["left_stage"] is None
    assert removed["right_stage"] == "Deprecated" and removed["why"]
