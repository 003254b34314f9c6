"""The What changes page: the same answers as ``kcompat changes --format json`` for the same inputs."""

import json
import shlex

import pytest
from conftest import current_page, open_app, rerun, texts

from kcompat.cli.main import main as kcompat


def cli(capsys, command: str) -> dict:
    """Run the command the page shows, as JSON."""
    code = kcompat([*shlex.split(command)[1:], "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == (2 if doc["errors"] else 0)
    return doc


def table(at, key):
    return next(d for d in at.dataframe if d.key == key).value


def commands(at):
    return [c.value for c in at.code if c.value.startswith("kcompat changes")]


@pytest.fixture(scope="module")
def at():
    return open_app("changes", binary="1.33", emulated="1.31")


def test_tabs_name_the_sides(at):
    assert current_page(at) == "changes"
    assert [t.label for t in at.tabs] == ["vs a real 1.31", "vs 1.33 without emulation", "vs another release or emulated version"]
    assert at.subheader[0].value == "What changes for 1.33 emulating 1.31"


def test_vs_release_is_the_cli_document(at, capsys):
    [release_cmd, _native_cmd, _other_cmd] = commands(at)
    assert release_cmd == "kcompat changes --binary 1.33 --emulated 1.31 --against release"
    doc = cli(capsys, release_cmd)
    shown = table(at, "changes_release_table_0")
    differing = [c for c in doc["changes"] if c["behaviour"] != "same"]
    assert list(shown["gate"]) == [c["name"] for c in differing]
    assert list(shown["here_on"]) == [c["here"]["enabled"] for c in differing]
    assert list(shown["there_on"]) == [c["there"]["enabled"] for c in differing]
    assert list(shown["why"]) == [c["why"] for c in differing]
    # the labels say which side is which
    row = shown.set_index("gate").loc["WindowsHostNetwork"]  # v1.31.14 registers it Alpha on, the 1.33 gate says off at 1.31
    assert row["behaviour"] == "off in 1.33 emulating 1.31, on in a real 1.31 (v1.31.14)"


def test_all_differences_include_removed_gates_that_behave_the_same(capsys):
    at = open_app("changes", binary="1.33", emulated="1.31")
    at.segmented_control(key="changes_release_show").set_value("all differences")
    rerun(at)
    doc = cli(capsys, "kcompat changes --binary 1.33 --emulated 1.31 --against release")
    shown = table(at, "changes_release_table_0").set_index("gate")
    assert list(shown.index) == [c["name"] for c in doc["changes"]]
    chunking = shown.loc["APIListChunking"]
    assert (chunking["here_on"], chunking["here_stage"], chunking["there_on"], chunking["there_stage"]) == (True, "not registered", True, "GA, locked")
    assert chunking["behaviour"] == "behaves the same"
    assert "always on" in chunking["why"]


def test_feature_gates_of_the_selection_apply_to_both_sides(capsys):
    at = open_app("changes", binary="1.33", emulated="1.31", feature_gates="AllBeta=false")
    [release_cmd, *_] = commands(at)
    assert release_cmd == "kcompat changes --binary 1.33 --emulated 1.31 --feature-gates AllBeta=false --against release"
    doc = cli(capsys, release_cmd)
    shown = table(at, "changes_release_table_0")
    assert list(shown["gate"]) == [c["name"] for c in doc["changes"] if c["behaviour"] != "same"]
    assert "InOrderInformers" in set(shown["gate"])  # AllBeta=false turns the 1.33 binary's Beta client-go gate off
    assert any("AllBeta=false" in c for c in texts(at.caption))


def test_native_and_other_tabs_match_the_cli(at, capsys):
    _, native_cmd, other_cmd = commands(at)
    assert native_cmd.endswith("--against native")
    assert other_cmd.endswith("--against 1.33@1.32")  # the next emulated version: an emulation step
    for cmd, key in ((native_cmd, "changes_native_table_0"), (other_cmd, "changes_other_table_0")):
        doc = cli(capsys, cmd)
        assert list(table(at, key)["gate"]) == [c["name"] for c in doc["changes"] if c["behaviour"] != "same"]


def test_another_release_can_be_picked(capsys):
    at = open_app("changes", binary="1.36", emulated="1.33")
    at.selectbox(key="changes_other").set_value("1.34.12")
    rerun(at)
    cmd = commands(at)[-1]
    assert cmd.endswith("--against 1.34.12")
    doc = cli(capsys, cmd)
    assert list(table(at, "changes_other_table_0")["gate"]) == [c["name"] for c in doc["changes"] if c["behaviour"] != "same"]


def test_a_side_that_refuses_the_flags_is_shown_as_an_error():
    at = open_app("changes", binary="1.33", emulated="1.31", feature_gates="ContainerStopSignals=true")
    errors = texts(at.error)
    assert "1.33 emulating 1.31: cannot set feature gate ContainerStopSignals to true, feature is PreAlpha at emulated version 1.31" in errors
    assert "a real 1.31 (v1.31.14): unrecognized feature gate: ContainerStopSignals" in errors


def test_default_load_explains_that_nothing_is_emulated():
    at = open_app("changes", binary="1.36", emulated="1.36")
    assert current_page(at) == "changes"
    assert any("Not emulating" in i for i in texts(at.info))


def test_selecting_a_row_opens_the_gate(capsys):
    at = open_app("changes", binary="1.33", emulated="1.31")
    first = table(at, "changes_release_table_0")["gate"].iloc[0]
    at.session_state["changes_release_table_0"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    rerun(at)
    assert current_page(at) == "gate_detail"
    assert at.query_params == {"binary": "1.33", "emulated": "1.31", "gate": first}


def test_the_view_is_restored_from_the_url():
    at = open_app(
        "changes", binary="1.33", emulated="1.31",
        changes_tab="native", changes_native_show="all differences", changes_other="1.34",
    )
    assert at.session_state["changes_tab"] == "vs 1.33 without emulation"
    assert at.segmented_control(key="changes_native_show").value == "all differences"
    assert at.segmented_control(key="changes_release_show").value == "behaves differently"
    assert at.selectbox(key="changes_other").value == "1.34.12"  # a plain release: its newest recorded patch
    assert commands(at)[-1].endswith("--against 1.34.12")
    assert not at.warning


def test_a_change_writes_the_url_and_defaults_stay_out():
    at = open_app("changes", binary="1.33", emulated="1.31")
    assert at.query_params == {"binary": "1.33", "emulated": "1.31"}
    at.segmented_control(key="changes_release_show").set_value("all differences")
    at.selectbox(key="changes_other").set_value("1.34.12")
    rerun(at)
    assert at.query_params["changes_release_show"] == "all differences"
    assert at.query_params["changes_other"] == "1.34.12"


def test_invalid_view_values_warn_and_are_ignored():
    at = open_app("changes", binary="1.33", emulated="1.31", changes_tab="bogus", changes_other="9.99", changes_native_show="x")
    warnings = texts(at.warning)
    assert any(w.startswith("changes_tab='bogus' in the URL is not one of release, native, other") for w in warnings)
    assert any(w.startswith("changes_other='9.99' in the URL is not one of") for w in warnings)
    assert any(w.startswith("changes_native_show='x' in the URL") for w in warnings)
    assert at.session_state["changes_tab"] == "vs a real 1.31"
    assert at.query_params == {"binary": "1.33", "emulated": "1.31"}


@pytest.mark.parametrize("show", ["all differences", "behaves differently"])
def test_each_table_csv_has_the_cli_columns(csv_downloads, capsys, show):
    at = open_app(
        "changes", binary="1.33", emulated="1.31",
        changes_release_show=show, changes_native_show=show, changes_other_show=show,
    )
    assert sorted(csv_downloads) == ["changes_native_csv", "changes_other_csv", "changes_release_csv"]
    for cmd, key in zip(commands(at), ("changes_release_csv", "changes_native_csv", "changes_other_csv"), strict=True):
        assert kcompat([*shlex.split(cmd)[1:], "--format", "csv"]) == 0
        printed = capsys.readouterr().out
        assert csv_downloads[key].splitlines()[0] == printed.splitlines()[0]
        if show == "all differences":
            assert csv_downloads[key] == printed  # the whole table: byte for byte the CLI's CSV
        else:
            assert len(csv_downloads[key].splitlines()) - 1 == len(table(at, key.replace("_csv", "_table_0")))


def test_a_side_picked_for_another_selection_follows_the_new_one_silently():
    at = open_app("changes", binary="1.36", emulated="1.33")
    at.selectbox(key="changes_other").set_value("1.36@1.35")
    rerun(at)
    assert at.query_params["changes_other"] == "1.36@1.35"
    at.selectbox(key="sel_binary").set_value("1.34")
    rerun(at)
    assert not at.warning
    assert "changes_other" not in at.query_params
    assert at.selectbox(key="changes_other").value == "1.34@1.34"  # the next emulated version again


def test_every_column_is_as_wide_as_its_longest_text():
    """No cut "why" or gate name (the browser test measures the drawn text: tests/e2e/test_e2e_table_fit.py)."""
    from dashboard.tables.text_width import column_px

    at = open_app("changes", binary="1.36", emulated="1.33", changes_release_show="all differences")
    grid = next(d for d in at.dataframe if d.key.startswith("changes_release_table"))
    frame = grid.value
    widths = {name: c.get("width") for name, c in json.loads(grid.proto.columns).items()}
    longest_why = max(frame["why"], key=len)
    assert len(longest_why) > 90
    assert widths["why"] == column_px(["why", *frame["why"]]) >= column_px([longest_why])
    assert widths["gate"] == column_px(["gate", *frame["gate"]])
    assert widths["here_on"] == column_px(["on in 1.36 emulating 1.33"])  # the header fits too


def test_patch_releases_are_compared_and_named(capsys):
    """A patch chosen beside the binary and a patch picked as the other side are both kept: the
    page shows what `kcompat changes --binary 1.35.0 --against 1.35.8` prints, every heading and
    the export name the patches, and the picker offers every recorded patch of every release."""
    at = open_app("changes", binary="1.35", emulated="1.35", patch="0", changes_tab="other", changes_other="1.35.8")
    assert at.subheader[0].value == "What changes for 1.35.0 (not emulating)"
    assert at.tabs[1].label == "vs 1.35.0 without emulation"
    picker = at.selectbox(key="changes_other")
    offered = list(picker.options)
    for patch in ("1.35.0", "1.35.1", "1.35.6", "1.35.8", "1.36.0", "1.36.5"):
        assert f"a real {patch}" in offered, (patch, offered)
    assert "a real 1.34.12" in offered and "a real 1.38.0-beta.0" in offered  # every release by its recorded patches
    assert picker.value == "1.35.8"
    cmd = commands(at)[-1]
    assert cmd == "kcompat changes --binary 1.35.0 --emulated 1.35 --against 1.35.8"
    doc = cli(capsys, cmd)
    shown = table(at, "changes_other_table_0")
    assert list(shown["gate"]) == [c["name"] for c in doc["changes"]] == ["MaxUnavailableStatefulSet", "SchedulerAsyncAPICalls"]
    assert set(shown["behaviour"]) == {"on in 1.35.0 (not emulating), off in a real 1.35.8"}
    metrics = [m.label for m in at.metric]
    assert "On in 1.35.0 (not emulating) only" in metrics and "On in a real 1.35.8 only" in metrics


def test_the_other_direction_of_a_patch_comparison(capsys):
    at = open_app("changes", binary="1.35", emulated="1.35", patch="8", changes_tab="other", changes_other="1.35.0")
    cmd = commands(at)[-1]
    assert cmd == "kcompat changes --binary 1.35.8 --emulated 1.35 --against 1.35.0"
    doc = cli(capsys, cmd)
    shown = table(at, "changes_other_table_0")
    assert list(shown["gate"]) == [c["name"] for c in doc["changes"]] == ["MaxUnavailableStatefulSet", "SchedulerAsyncAPICalls"]
    assert set(shown["behaviour"]) == {"off in 1.35.8 (not emulating), on in a real 1.35.0"}


def test_an_emulation_step_keeps_the_selected_patch(capsys):
    at = open_app("changes", binary="1.35", emulated="1.34", patch="0")
    cmd = commands(at)[-1]
    assert cmd == "kcompat changes --binary 1.35.0 --emulated 1.34 --against 1.35.0@1.35"
    assert at.selectbox(key="changes_other").value == "1.35.0@1.35"
    assert "1.35.0 emulating 1.34" in at.subheader[0].value


def test_a_link_to_a_plain_release_opens_its_newest_patch():
    at = open_app("changes", binary="1.36", emulated="1.33", changes_tab="other", changes_other="1.35")
    assert not at.warning
    assert at.selectbox(key="changes_other").value == "1.35.8"
    assert commands(at)[-1].endswith("--against 1.35.8")


def test_gate_names_are_in_the_text_colour(at):
    """The grid draws a pinned column's text at 60 % (gate names that look disabled): the gate
    column of every What changes grid is not pinned, as on the Gates and Release matrix pages."""
    grids = [d for d in at.dataframe if "gate" in json.loads(d.proto.columns)]
    assert grids
    for grid in grids:
        assert not json.loads(grid.proto.columns)["gate"].get("pinned"), grid.key
