"""The upgrade planner: the KEP's stepwise path, what each step changes, skew checks."""

import pytest

from dashboard.core.errors import KcompatError
from dashboard.core.plan import parse_plan_endpoint, plan_document, plan_markdown, plan_upgrade
from dashboard.core.versions import parse_version as V


@pytest.fixture(scope="module")
def plan_1_33_to_1_36(catalog):
    return plan_upgrade(V("1.33"), V("1.32"), V("1.36"), catalog.manifest, data_dir=catalog.data_dir)


def test_binaries_first_holding_emulation_then_one_minor_at_a_time(plan_1_33_to_1_36):
    steps = [(s.kind, str(s.after.binary), str(s.after.emulated)) for s in plan_1_33_to_1_36.steps]
    # 1.35 is the newest binary whose floor (1.32) admits the held 1.32
    assert steps[0] == ("binary", "1.35", "1.32")
    assert steps[1] == ("emulation", "1.35", "1.33")
    assert steps[2] == ("binary", "1.36", "1.33")
    controls = [s for s in steps if s[0] == "emulation"]
    assert [e for _, _, e in controls] == ["1.33", "1.34", "1.35", "1.36"]
    assert steps[-1][0] == "nodes"


def test_every_point_of_the_path_is_allowed(plan_1_33_to_1_36):
    from dashboard.core.compat import select_versions

    for step in plan_1_33_to_1_36.steps:
        assert select_versions(step.after.binary, str(step.after.emulated)).valid


def test_holding_emulation_changes_no_served_api_on_a_binary_step(plan_1_33_to_1_36):
    first = plan_1_33_to_1_36.steps[0]
    assert first.kind == "binary" and first.api_changes == ()
    # but the new binary's manifest brings gates the old one lacked (back-dated GA specs) and drops removed ones
    changes = {c.name: (c.before, c.after) for c in first.gate_changes}
    assert changes["ComponentSLIs"] == ("GA locked on", "absent")


def test_raising_emulation_turns_gates_on(plan_1_33_to_1_36):
    step = next(s for s in plan_1_33_to_1_36.steps if s.kind == "emulation")
    assert step.gates_turned_on  # 1.32 -> 1.33 promotes beta gates to on


def test_kubelets_are_upgraded_before_they_fall_out_of_skew(plan_1_33_to_1_36):
    for step in plan_1_33_to_1_36.steps:
        assert all(c.ok for c in step.skew_checks), step.title


def test_markdown_and_json_exports(plan_1_33_to_1_36):
    md = plan_markdown(plan_1_33_to_1_36)
    assert md.startswith("# Upgrade plan: 1.33 (emulating 1.32) -> 1.36")
    assert "## Step 1: Upgrade the control-plane binaries 1.33 -> 1.35" in md
    doc = plan_document(plan_1_33_to_1_36)
    assert doc["from"] == {"binary": "1.33", "emulated": "1.32", "minCompatibility": "1.31"}
    assert doc["steps"][0]["kind"] == "binary"


def test_endpoints_and_rejections(catalog):
    assert tuple(map(str, parse_plan_endpoint("1.33@1.32"))) == ("1.33", "1.32")
    assert parse_plan_endpoint("v1.36.2")[1] is None
    with pytest.raises(KcompatError, match="expected B or B@E"):
        parse_plan_endpoint("1.33@x")
    with pytest.raises(KcompatError, match="older than the current binary"):
        plan_upgrade(V("1.36"), None, V("1.35"), catalog.manifest)
    with pytest.raises(KcompatError, match="cannot emulate"):
        plan_upgrade(V("1.36"), V("1.30"), V("1.37"), catalog.manifest)
    assert plan_upgrade(V("1.36"), None, V("1.36"), catalog.manifest).steps == ()
