"""The What changes page: B at E vs B, vs the real release E, and an emulation step."""

import pytest

from conftest import current_page, open_app, rerun, texts
from dashboard.core.compat import select_versions
from dashboard.core.diffs import emulation_step, emulation_vs_binary, emulation_vs_release
from dashboard.core.versions import parse_version as V


@pytest.fixture(scope="module")
def at():
    return open_app("changes", binary="1.36", emulated="1.33")


def metrics(at):
    return [(m.label, m.value) for m in at.metric]


def frame(at, key):
    return next(d for d in at.dataframe if d.key == key).value


def test_default_load_explains_that_nothing_is_emulated():
    at = open_app("changes")
    assert current_page(at) == "changes"
    assert any("Not emulating" in i for i in texts(at.info))


def test_deep_link_shows_the_three_comparisons(at):
    assert [t.label for t in at.tabs] == ["1.36 at 1.33 vs 1.36 at 1.36", "vs the real release 1.33", "Emulation step"]
    assert at.subheader[0].value == "What changes for a 1.36 binary emulating 1.33"


def test_vs_binary_table_is_the_core_comparison(catalog, at):
    comparison = emulation_vs_binary(catalog.manifest("1.36"), select_versions(V("1.36"), "1.33"))
    shown = frame(at, "changes_binary_table_0")
    assert list(shown["gate"]) == list(comparison.names())
    assert metrics(at)[:3] == [
        ("Gates that differ", str(len(comparison))),
        ("Turn on", str(len(comparison.turned_on))),
        ("Turn off", str(len(comparison.turned_off))),
    ]
    row = shown.set_index("gate").loc["JobManagedBy"]
    assert (row["left_stage"], row["right_stage"]) == ("Beta", "GA")
    assert row["why"] == "graduated to GA in 1.35 (default on); locked to its default (on) in 1.35"


def test_vs_release_lists_one_sided_gates(catalog, at):
    comparison = emulation_vs_release(catalog.manifest("1.36"), select_versions(V("1.36"), "1.33"), catalog.manifest("1.33"))
    shown = frame(at, "changes_release_table_0").set_index("gate")
    assert list(shown.index) == list(comparison.names())
    assert shown.loc["AllowServiceLBStatusOnNonLB", "changed"] == "present"
    assert "no longer registers it" in shown.loc["AllowServiceLBStatusOnNonLB", "why"]
    assert ("Only in release 1.33", str(sum(d.left is None for d in comparison.diffs))) in metrics(at)


def test_step_defaults_to_the_next_emulated_version(catalog, at):
    assert at.selectbox(key="step_from").value == "1.33"
    assert at.selectbox(key="step_to").value == "1.34"
    step = emulation_step(catalog.manifest("1.36"), select_versions(V("1.36"), "1.33"), select_versions(V("1.36"), "1.34"))
    assert list(frame(at, "changes_step_table_0")["gate"]) == list(step.names())


def test_step_can_be_changed_and_reversed(catalog):
    at = open_app("changes", binary="1.36", emulated="1.33")
    at.selectbox(key="step_from").set_value("1.35")
    at.selectbox(key="step_to").set_value("1.34")
    rerun(at)
    step = emulation_step(catalog.manifest("1.36"), select_versions(V("1.36"), "1.35"), select_versions(V("1.36"), "1.34"))
    shown = frame(at, "changes_step_table_0")
    assert list(shown["gate"]) == list(step.names())
    assert shown["why"].str.contains("not yet at 1.34").all()
    at.selectbox(key="step_to").set_value("1.35")
    rerun(at)
    assert any("Pick two different versions" in i for i in texts(at.info))


def test_effect_filter():
    at = open_app("changes", binary="1.36", emulated="1.33")
    at.pills(key="changes_binary_effects").set_value(["turns on"])
    rerun(at)
    shown = frame(at, "changes_binary_table_0")
    assert set(shown["effect"]) == {"turns on"}
    assert metrics(at)[1][0] == "Turn on" and len(shown) == int(metrics(at)[1][1])


def test_binary_without_emulation_range_has_no_step():
    at = open_app("changes", binary="1.31")
    assert any("accepts only 1.31" in i for i in texts(at.info))


def test_selecting_a_row_opens_the_gate(catalog):
    first = emulation_vs_binary(catalog.manifest("1.36"), select_versions(V("1.36"), "1.33")).diffs[0].name
    at = open_app("changes", binary="1.36", emulated="1.33")
    at.session_state["changes_binary_table_0"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    rerun(at)
    assert current_page(at) == "gate_detail"
    assert at.query_params == {"binary": "1.36", "emulated": "1.33", "gate": first}
    assert at.subheader[0].value == first
