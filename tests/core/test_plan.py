"""The upgrade planner: one binary minor at a time, what each step changes, skew checks, rollback."""

import pytest

from kcompat.answers.plan import PlanQuery, plan_for
from kcompat.core.compat import rules_for, select_versions
from kcompat.core.errors import KcompatError
from kcompat.core.plan import parse_plan_endpoint, plan_upgrade
from kcompat.core.versions import major_minor
from kcompat.core.versions import parse_version as V
from kcompat.documents.plan import plan_document, plan_markdown


@pytest.fixture(scope="module")
def plan_1_33_to_1_36(catalog):
    return plan_for(catalog, PlanQuery("1.33@1.32", "1.36"))


def _starts(catalog):
    """Every bundled (binary, emulated) start and every bundled target at or after it."""
    releases = catalog.usable_releases()
    for i, b in enumerate(releases):
        low, high = rules_for(V(b)).emulation_range()
        for minor in range(low.minor, high.minor + 1):
            for target in releases[i:]:
                yield f"{b}@{major_minor(1, minor)}", target


def test_binaries_move_one_minor_at_a_time_by_default_for_every_bundled_pair(catalog):
    planned = 0
    for start, target in _starts(catalog):
        plan = plan_for(catalog, PlanQuery(start, target))
        binary_steps = [s for s in plan.steps if s.kind == "binary"]
        assert all(s.binary_minors == 1 for s in binary_steps), (start, target)
        assert all(s.supported for s in plan.steps), (start, target, [s.why for s in plan.steps if not s.supported])
        assert len(binary_steps) == V(target).minor - V(start.split("@")[0]).minor
        if plan.steps:
            assert (plan.steps[-1].after.binary, plan.steps[-1].after.emulated) == (V(target), V(target))
        planned += 1
    assert planned > 50


def test_1_33_to_1_36_holds_emulation_and_raises_it_where_the_floor_requires(plan_1_33_to_1_36):
    steps = [(s.kind, str(s.after.binary), str(s.after.emulated)) for s in plan_1_33_to_1_36.steps]
    assert steps[:3] == [("binary", "1.34", "1.32"), ("binary", "1.35", "1.32"), ("emulation", "1.35", "1.33")]
    # 1.36's floor is 1.33: the held 1.32 is raised on 1.35 before the 1.36 binaries come
    assert ("binary", "1.36", "1.33") in steps
    assert [e for k, _, e in steps if k == "emulation"] == ["1.33", "1.34", "1.35", "1.36"]
    assert steps[-1][0] == "nodes"


def test_every_point_of_the_path_is_allowed(plan_1_33_to_1_36):
    for step in plan_1_33_to_1_36.steps:
        assert select_versions(step.after.binary, str(step.after.emulated)).valid


def test_skew_checks_pass_under_both_policies_on_the_default_path(plan_1_33_to_1_36):
    for step in plan_1_33_to_1_36.steps:
        assert all(c.ok and c.classic_ok for c in step.skew_checks), step.title


def test_multi_minor_jumps_only_when_asked_and_marked_unsupported(catalog):
    plan = plan_for(catalog, PlanQuery("1.33@1.32", "1.36", allow_jumps=True))
    first = plan.steps[0]
    assert (first.kind, str(first.after.binary), first.binary_minors) == ("binary", "1.35", 2)
    assert first.supported is False and "one minor at a time" in first.why
    # the apiserver peers still on 1.33 are out of the Version Skew Policy range of a 1.35 apiserver
    peer = next(c for c in first.skew_checks if c.component.startswith("kube-apiserver"))
    assert (peer.binary, peer.classic_ok) == ("1.33", False)
    assert first.rollback.supported is False
    doc = plan_document(plan)
    assert doc["allowJumps"] is True and doc["supported"] is False
    assert doc["steps"][0]["supported"] is False and doc["steps"][0]["why"]
    assert all(s.supported for s in plan.steps if s.binary_minors <= 1 or s.kind != "binary")


def test_rollback_guidance_follows_min_compatibility(plan_1_33_to_1_36):
    for step in plan_1_33_to_1_36.steps:
        rb = step.rollback
        assert rb is not None and rb.to == step.before
        if step.kind != "nodes":
            assert rb.supported == (step.after.min_compat <= step.before.emulated)
            assert str(step.after.min_compat) in rb.text
    emulation = next(s for s in plan_1_33_to_1_36.steps if s.kind == "emulation")
    assert emulation.rollback.text.startswith(f"set --emulated-version={emulation.before.emulated} again")


def test_a_removed_gate_is_not_a_gate_turning_off(plan_1_33_to_1_36):
    # ComponentSLIs: GA locked on in 1.34, no longer registered by 1.35: the feature stays on
    step = next(s for s in plan_1_33_to_1_36.steps if s.kind == "binary" and str(s.after.binary) == "1.35")
    change = next(c for c in step.gate_changes if c.name == "ComponentSLIs")
    assert (change.before, change.after) == ("GA locked on", "removed in 1.35, always on")
    assert change.before_on and change.after_on
    assert "ComponentSLIs" not in step.gates_turned_off


def test_raising_emulation_turns_gates_on(plan_1_33_to_1_36):
    step = next(s for s in plan_1_33_to_1_36.steps if s.kind == "emulation")
    assert step.gates_turned_on  # 1.32 -> 1.33 promotes beta gates to on


def test_markdown_and_json_exports(plan_1_33_to_1_36):
    md = plan_markdown(plan_1_33_to_1_36)
    assert md.startswith("# Upgrade plan: 1.33 (emulating 1.32) -> 1.36")
    assert "## Step 1: Upgrade the control-plane binaries 1.33 -> 1.34" in md
    assert "Rollback: reinstall the 1.33 binaries" in md
    doc = plan_document(plan_1_33_to_1_36)
    assert doc["from"] == {"binary": "1.33", "emulated": "1.32", "minCompatibility": "1.31"}
    assert doc["steps"][0]["kind"] == "binary" and doc["steps"][0]["supported"] is True
    assert doc["steps"][0]["rollback"]["to"] == doc["from"]


@pytest.mark.parametrize("target", ["2.0", "99.99", "1.39", "1.30"])
def test_targets_without_bundled_data_are_refused_before_planning(catalog, target):
    with pytest.raises(KcompatError, match=f"the target binary {target} has no bundled data"):
        plan_for(catalog, PlanQuery("1.36", target))


def test_the_core_refuses_a_path_across_a_major_version(catalog):
    with pytest.raises(KcompatError, match="never cross a major version"):
        plan_upgrade(V("1.36"), None, V("2.0"), catalog.manifest, catalog.api_data)


@pytest.mark.parametrize("text,problem", [
    ("1.33@1.32@1.31", "invalid plan endpoint '1.33@1.32@1.31': 2 '@' (one at most: B@E)"),
    ("1.33@", "invalid plan endpoint '1.33@': nothing after '@'"),
    ("@1.32", "invalid plan endpoint '@1.32': nothing before '@'"),
    ("1.36 lol", "invalid plan endpoint '1.36 lol': ' lol' after the version '1.36'"),
    ("1.33@1.32x", "invalid plan endpoint '1.33@1.32x': 'x' after the version '1.32'"),
    ("latest", "invalid plan endpoint 'latest': 'latest' is not a version"),
])
def test_plan_endpoints_are_read_whole(text, problem):
    with pytest.raises(KcompatError) as exc:
        parse_plan_endpoint(text)
    assert str(exc.value) == f"{problem} (expected B or B@E, e.g. 1.33@1.32)"


@pytest.mark.parametrize("text", ["1.33", "v1.36.2", "1.33@1.32", "v1.36.2@1.34", "1.37.0-alpha.1"])
def test_plan_endpoints_that_are_versions(text):
    binary, emulated = parse_plan_endpoint(text)
    assert str(binary) == text.split("@")[0].lstrip("v")[:4] and (emulated is None) == ("@" not in text)


def test_endpoints_and_rejections(catalog):
    assert tuple(map(str, parse_plan_endpoint("1.33@1.32"))) == ("1.33", "1.32")
    assert parse_plan_endpoint("v1.36.2")[1] is None
    with pytest.raises(KcompatError, match="expected B or B@E"):
        parse_plan_endpoint("1.33@x")
    with pytest.raises(KcompatError, match="older than the current binary"):
        plan_for(catalog, PlanQuery("1.36", "1.35"))
    with pytest.raises(KcompatError, match="cannot emulate"):
        plan_for(catalog, PlanQuery("1.36@1.30", "1.37"))
    assert plan_for(catalog, PlanQuery("1.36", "1.36")).steps == ()
