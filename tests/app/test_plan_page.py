"""The Upgrade plan page: the core's plan step by step, the target in the URL, the Markdown export."""

import re
import shlex

import pytest
from conftest import current_page, open_app, rerun, texts

from kcompat.answers.plan import PlanQuery, plan_for
from kcompat.cli.main import main as kcompat


@pytest.fixture(scope="module")
def plan(catalog):
    return plan_for(catalog, PlanQuery("1.33@1.32", "1.36"))


@pytest.fixture(scope="module")
def at():
    return open_app("plan", binary="1.33", emulated="1.32", to="1.36")


def overview(at):
    return next(d.value for d in at.dataframe if list(d.value.columns)[:3] == ["step", "kind", "what"])


def command(at):
    return next(c.value for c in at.code if c.value.startswith("kcompat plan"))


def test_lists_the_core_plan_steps(at, plan):
    assert current_page(at) == "plan"
    assert at.subheader[0].value == "Upgrade plan: 1.33 (emulating 1.32) → 1.36"
    shown = overview(at)
    assert list(shown["step"]) == [s.number for s in plan.steps]
    assert list(shown["what"]) == [s.title for s in plan.steps]
    assert list(shown["emulated"]) == [str(s.after.emulated) for s in plan.steps]
    assert list(shown["gates"]) == [len(s.gate_changes) for s in plan.steps]
    assert list(shown["APIs"]) == [len(s.api_changes) for s in plan.steps]
    assert list(shown["storage"]) == [len(s.storage_changes) for s in plan.steps]
    assert {s.kind for s in plan.steps} == {"binary", "emulation", "nodes"}
    assert [m.value for m in at.metric] == [
        str(len(plan.steps)),
        *(str(sum(s.kind == k for s in plan.steps)) for k in ("binary", "emulation", "nodes")),
    ]
    assert texts(at.info) == list(plan.notes)


def test_each_step_shows_flags_order_changes_and_skew(at, plan):
    markdown = texts(at.markdown)
    for step in plan.steps:
        assert f"**Step {step.number}: {step.title}**" in markdown
        assert any(m.startswith("Flags after this step") and f"`{step.after.flags()}`" in m for m in markdown)
    labels = [e.label for e in at.expander]
    first = plan.steps[0]
    assert f"Feature gates that change ({len(first.gate_changes)}: {len(first.gates_turned_on)} turn on, {len(first.gates_turned_off)} turn off)" in labels
    gates = next(d.value for d in at.dataframe if list(d.value.columns) == ["gate", "before", "after"])
    assert gates.to_dict("records") == [{"gate": c.name, "before": c.before, "after": c.after} for c in first.gate_changes]
    skews = [d.value for d in at.dataframe if list(d.value.columns)[:3] == ["component", "binary", "at"]]
    assert len(skews) == len(plan.steps)
    assert [list(s["emulation-aware"]) for s in skews] == [["ok" if c.ok else "out of range" for c in s.skew_checks] for s in plan.steps]


def test_markdown_download_and_the_cli(at, plan, capsys):
    [button] = [b for b in at.get("download_button") if b.proto.id.endswith("-plan_download")]
    assert button.label == "Download as Markdown"
    assert button.proto.deferred_file_id and button.proto.ignore_rerun
    assert "kcompat plan --format markdown" in button.proto.help
    assert command(at) == "kcompat plan --from 1.33@1.32 --to 1.36"
    assert kcompat(shlex.split(command(at))[1:]) == 0
    printed = capsys.readouterr().out
    assert re.findall(r"^## Step \d+: (.*)$", printed, re.M) == [s.title for s in plan.steps]


def test_default_target_is_the_newest_release():
    at = open_app("plan", binary="1.34")
    assert at.query_params["to"] == "1.37"
    assert at.selectbox(key="plan_to").value == "1.37"
    assert at.selectbox(key="plan_to").options == ["1.38", "1.37", "1.36", "1.35", "1.34"]
    assert not at.warning


def test_nothing_to_do():
    at = open_app("plan", binary="1.37", emulated="1.37")
    assert at.query_params == {"binary": "1.37", "emulated": "1.37", "to": "1.37"}
    assert any("Nothing to do" in i for i in texts(at.info))
    assert not any(list(d.value.columns)[:1] == ["step"] for d in at.dataframe)


def test_changing_the_target_writes_the_url(catalog):
    at = open_app("plan", binary="1.35", emulated="1.34", to="1.36")
    at.selectbox(key="plan_to").set_value("1.35")
    rerun(at)
    assert at.query_params["to"] == "1.35"
    expected = plan_for(catalog, PlanQuery("1.35@1.34", "1.35"))
    assert list(overview(at)["what"]) == [s.title for s in expected.steps]


@pytest.mark.parametrize(
    ("to", "why"),
    [
        ("banana", "is not a binary release"),
        ("1.32", "is older than the current 1.33 binary"),
        ("1.40", "there is no bundled release 1.40"),
        ("2.0", "there is no bundled release 2.0"),
        ("99.99", "there is no bundled release 99.99"),
        ("1.36@1.35", "the target is a binary release only"),
    ],
)
def test_invalid_target_is_explained_and_defaulted(to, why, catalog):
    plan = plan_for(catalog, PlanQuery("1.33@1.32", "1.37"))  # defaulted to the newest release
    at = open_app("plan", binary="1.33", emulated="1.32", to=to)
    [warning] = texts(at.warning)
    assert warning.startswith(f"to={to!r} in the URL") and why in warning and warning.endswith("planning to 1.37.")
    assert at.query_params["to"] == "1.37"
    assert list(overview(at)["what"]) == [s.title for s in plan.steps]


def test_a_target_left_behind_by_a_binary_change_follows_silently():
    at = open_app("plan", binary="1.33", emulated="1.33", to="1.34")
    at.selectbox(key="sel_binary").set_value("1.35")
    rerun(at)
    assert at.query_params["to"] == "1.37" and not at.warning


def test_the_page_shows_the_cli_json_plan(at, capsys):
    import json

    assert kcompat([*shlex.split(command(at))[1:], "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    shown = overview(at)
    assert list(shown["what"]) == [s["title"] for s in doc["steps"]]
    assert list(shown["binary"]) == [s["after"]["binary"] for s in doc["steps"]]
    assert list(shown["supported"]) == ["yes" if s["supported"] else "no" for s in doc["steps"]]
    assert list(shown["rollback"]) == ["yes" if s["rollback"]["supported"] else "no" for s in doc["steps"]]
    # one binary minor per step by default
    assert [b for b, k in zip(shown["binary"], shown["kind"], strict=True) if k == "Binary upgrade"] == ["1.34", "1.35", "1.36"]
    markdown = texts(at.markdown)
    for step in doc["steps"]:
        assert f"Rollback: {step['rollback']['text']}" in markdown
        assert f"Rehearsal: {step['rollback']['rehearsal']}" in markdown  # "not rehearsed", or the recorded rehearsal cited


def test_multi_minor_jumps_are_opt_in_and_marked_unsupported(capsys):
    import json

    at = open_app("plan", binary="1.33", emulated="1.32", to="1.36")
    at.toggle(key="plan_jumps").set_value(True)
    rerun(at)
    assert command(at) == "kcompat plan --from 1.33@1.32 --to 1.36 --allow-multi-minor"
    assert kcompat([*shlex.split(command(at))[1:], "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    shown = overview(at)
    assert list(shown["supported"]) == ["yes" if s["supported"] else "no" for s in doc["steps"]]
    assert shown["supported"].iloc[0] == "no" and shown["binary"].iloc[0] == "1.35"
    assert any(e.startswith("Not supported: the binaries jump 2 minors (1.33 -> 1.35)") for e in texts(at.error))


def test_jumps_and_target_are_restored_from_the_url():
    at = open_app("plan", binary="1.33", emulated="1.32", to="1.36", plan_jumps="true")
    assert at.toggle(key="plan_jumps").value is True
    assert at.selectbox(key="plan_to").value == "1.36"
    assert command(at) == "kcompat plan --from 1.33@1.32 --to 1.36 --allow-multi-minor"
    at.toggle(key="plan_jumps").set_value(False)
    rerun(at)
    assert "plan_jumps" not in at.query_params


def test_invalid_jumps_value_warns_and_is_ignored():
    at = open_app("plan", binary="1.33", emulated="1.32", to="1.36", plan_jumps="yes")
    assert any(w.startswith("plan_jumps='yes' in the URL is not one of true, false") for w in texts(at.warning))
    assert at.toggle(key="plan_jumps").value is False
    assert "plan_jumps" not in at.query_params


def test_each_table_has_a_csv_with_its_columns(csv_downloads, plan):
    at = open_app("plan", binary="1.33", emulated="1.32")
    shown = overview(at)
    lines = csv_downloads["plan_overview_csv"].splitlines()
    assert lines[0].split(",") == list(shown.columns) and len(lines) == len(shown) + 1
    step_csvs = [k for k in csv_downloads if k.startswith("plan_step_")]
    assert len(at.dataframe) == 1 + len(step_csvs)  # the overview, then one CSV per step table
    assert {f"plan_step_{s.number}_skew_csv" for s in plan.steps} <= set(step_csvs)
