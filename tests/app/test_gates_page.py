"""The Gates page: effective table, metrics, filters, downloads, row selection."""

import json

import pytest
from conftest import current_page, metric, open_app, rerun

from kcompat.answers.gates import gate_evaluation, gates
from kcompat.cli.main import main as kcompat
from kcompat.core.request import Request
from kcompat.data.catalog import DEFAULT_CATALOG
from kcompat.documents.gates import gate_rows, gates_text


@pytest.fixture(scope="module")
def at_133():
    return open_app(binary="1.36", emulated="1.33")


def table(at):
    return at.dataframe[0].value


def test_table_equals_the_cli_rows(catalog, at_133):
    shown = table(at_133)
    expected = gate_rows(gates(catalog, Request("1.36", "1.33")))
    assert list(shown.columns) == ["gate", "enabled", "stage", "default", "locked", "binary_stage", "changed", "origin", "history_from"]
    assert shown[["gate", "enabled", "stage", "default", "locked"]].to_dict("records") == [
        {"gate": r["name"], "enabled": r["enabled"], "stage": r["stage"], "default": r["default"], "locked": r["locked"]}
        for r in expected
    ]
    native = {r["name"]: r["stage"] for r in gate_rows(gates(catalog, Request("1.36")))}
    assert dict(zip(shown["gate"], shown["binary_stage"], strict=True)) == native
    # the origin column equals the JSON's origin key
    doc = json.loads(gates_text(gates(catalog, Request("1.36", "1.33", None, "")), "json"))
    assert dict(zip(shown["gate"], shown["origin"], strict=True)) == {f["name"]: f["origin"] for f in doc["features"]}
    assert dict(zip(shown["gate"], shown["origin"], strict=True))["WatchListClient"] == "client-go"
    assert dict(zip(shown["gate"], shown["origin"], strict=True))["JobManagedBy"] == "kube"


def test_table_with_flags_equals_the_cli_rows(catalog):
    at = open_app(binary="1.35", emulated="1.33", feature_gates="KMSv1=true,AllBeta=false")
    expected = gate_rows(gates(catalog, Request("1.35", "1.33", None, "KMSv1=true,AllBeta=false")))
    assert list(table(at)["enabled"]) == [r["enabled"] for r in expected]
    assert table(at).set_index("gate").loc["KMSv1", "enabled"]


def test_default_load_shows_the_newest_binary_at_its_own_release(catalog):
    at = open_app()
    assert current_page(at) == "gates"
    assert len(table(at)) == len(catalog.manifest("1.37"))
    # The landing selection: the newest release (1.37, read from v1.37.2) as it starts without flags.
    gates = gate_evaluation(catalog, Request("1.37", "1.37")).gates
    assert metric(at, "Enabled at 1.37") == str(sum(g.enabled for g in gates))
    assert metric(at, "Not yet introduced") == str(sum(g.stage.value == "PreAlpha" for g in gates))
    assert metric(at, "Changed vs 1.37") == "0"  # not emulating: every default is the binary's own
    # The code term is in the help text.
    assert "PreAlpha" in next(m for m in at.metric if m.label == "Not yet introduced").help


def test_metrics(catalog, at_133):
    gates = gate_evaluation(catalog, Request("1.36", "1.33")).gates
    assert metric(at_133, "Enabled") == str(sum(g.enabled for g in gates))
    assert metric(at_133, "Not yet introduced") == str(sum(g.stage.value == "PreAlpha" for g in gates))
    assert metric(at_133, "Locked") == str(sum(g.locked for g in gates))
    assert metric(at_133, "Changed vs 1.36") == str(int(table(at_133)["changed"].sum()))
    assert int(metric(at_133, "Changed vs 1.36")) > 0


def test_column_labels_name_the_versions(at_133):
    config = at_133.dataframe[0].proto.columns
    assert "stage at 1.33" in config and "stage in 1.36" in config and "changed vs 1.36" in config


def filtered(quick=(), text=""):
    at = open_app(binary="1.36", emulated="1.33")
    if quick:
        at.pills(key="gates_quick").set_value(list(quick))
    if text:
        at.text_input(key="gates_text").set_value(text)
    return rerun(at)


def test_stage_filter():
    at = filtered(["Alpha", "Beta"])
    assert set(table(at)["stage"]) == {"Alpha", "Beta"}
    at = filtered(["PreAlpha"])
    assert set(table(at)["stage"]) == {"PreAlpha"}
    assert len(table(at)) == int(metric(at, "Not yet introduced"))


def test_enabled_filter():
    at = filtered(["on"])
    assert table(at)["enabled"].all() and len(table(at)) == int(metric(at, "Enabled"))
    at = filtered(["off"])
    assert not table(at)["enabled"].any()
    assert len(filtered(["on", "off"]).dataframe[0].value) == len(DEFAULT_CATALOG.manifest("1.36"))


def test_changed_only_filter():
    at = filtered(["changed"])
    assert table(at)["changed"].all() and len(table(at)) == int(metric(at, "Changed"))


def test_locked_filter():
    at = filtered(["locked"])
    assert table(at)["locked"].all() and len(table(at)) == int(metric(at, "Locked"))
    assert not filtered(["unlocked"]).dataframe[0].value["locked"].any()


def test_text_search_is_case_insensitive():
    at = filtered(text="jobmanaged")
    assert list(table(at)["gate"]) == ["JobManagedBy"]
    total = len(DEFAULT_CATALOG.manifest("1.36"))
    assert any(f"1 of {total} gates" in c.value for c in at.caption)


def test_filters_combine():
    at = filtered(["Beta", "on", "changed"], text="Authorize")
    shown = table(at)
    assert len(shown) > 0
    assert (shown["stage"] == "Beta").all() and shown["enabled"].all() and shown["changed"].all()
    assert shown["gate"].str.contains("Authorize").all()


def test_selecting_a_row_opens_the_gate_detail():
    at = filtered(text="JobManagedBy")
    at.session_state["gates_table_0"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    rerun(at)
    assert current_page(at) == "gate_detail"
    assert at.query_params == {"binary": "1.36", "emulated": "1.33", "gate": "JobManagedBy"}
    assert at.subheader[0].value == "JobManagedBy"  # the detail page's heading


def test_download_dialog_offers_three_deferred_files():
    at = open_app(binary="1.36", emulated="1.33")
    assert not at.get("download_button")  # one "Download…" button until asked
    at.button(key="download_open").click()
    rerun(at)
    table = [b for b in at.get("download_button") if "-download_open_" in b.proto.id]  # the table shown
    assert [b.label for b in table] == ["CSV", "Markdown", "JSON"]
    assert all(b.proto.deferred_file_id and b.proto.ignore_rerun for b in table)
    buttons = [b for b in at.get("download_button") if "-download_" in b.proto.id and b not in table]
    assert [b.label for b in buttons] == ["CSV (every gate)", "JSON (every gate)", "Markdown (every gate)"]
    assert all(b.proto.deferred_file_id and b.proto.ignore_rerun for b in buttons)
    assert ["kcompat gates --format " + f in b.proto.help for f, b in zip(("csv", "json", "markdown"), buttons, strict=True)] == [True] * 3


@pytest.mark.parametrize("fmt", ["json", "csv", "markdown"])
@pytest.mark.parametrize("flags", [None, "KMSv1=true", "Nope=true"])
def test_download_is_what_the_cli_prints(catalog, capsys, fmt, flags):
    # the download keeps the table of a refused input: what --show-defaults prints (issue 19: the
    # CLI leaves it out by default)
    argv = ["gates", "--binary", "1.36", "--emulated", "1.33", "--format", fmt, "--show-defaults"]
    if flags:
        argv += ["--feature-gates", flags]
    kcompat(argv, catalog=catalog)
    printed = capsys.readouterr().out
    from dashboard.tables.downloads import _deferred

    assert _deferred(catalog, fmt, ("1.36", "1.33", None, flags or ""), None)() == printed  # the page's download
    if fmt == "json":
        document = json.loads(printed)
        assert document["valid"] is (flags != "Nope=true")


def test_the_gate_column_fits_the_longest_name(at_133):
    from dashboard.tables.gate_table import gate_column_width

    longest = max(map(len, table(at_133)["gate"]))
    gate = json.loads(at_133.dataframe[0].proto.columns)["gate"]
    assert gate["width"] == gate_column_width(longest) >= 7 * longest  # ~7 px a character in the grid's font
    # Not pinned: the grid fades a pinned column's text to 60 % (under 7:1 on either theme).
    assert not gate["pinned"]


def test_flags_read_as_words_and_stay_booleans(at_133):
    columns = json.loads(at_133.dataframe[0].proto.columns)
    for name, (yes, no) in {"enabled": ("on", "off"), "locked": ("locked", "no"), "changed": ("changed", "no")}.items():
        config = columns[name]["type_config"]
        assert config["type"] == "selectbox"
        assert config["options"] == [{"value": True, "label": yes}, {"value": False, "label": no}]
    assert table(at_133)["enabled"].dtype == bool


def test_search_finds_by_abbreviation_kep_and_description():
    """Issue 19: DRA finds DynamicResourceAllocation, a KEP number finds its gates, words find descriptions."""
    assert "DynamicResourceAllocation" in list(table(filtered(text="DRA"))["gate"])
    assert "DynamicResourceAllocation" in list(table(filtered(text="KEP-4381"))["gate"])
    assert "HPAScaleToZero" in list(table(filtered(text="scaling to zero"))["gate"])


def test_search_says_where_each_gate_matched(catalog, capsys):
    """Issue 28: "sidecar" found a gate by its description with no sign of why; "DRA" found
    EtcdRangeStream. The page's matched column is what kcompat gates --search prints."""
    shown = table(filtered(text="sidecar"))
    assert kcompat(["gates", "--binary", "1.36", "--emulated", "1.33", "--search", "sidecar", "--format", "json"], catalog=catalog) == 0
    printed = {f["name"]: f["matched"] for f in json.loads(capsys.readouterr().out)["features"]}
    assert dict(zip(shown["gate"], shown["matched"], strict=False)) == printed
    assert printed["SidecarContainers"] == "name" and printed["InPlacePodVerticalScalingInitContainers"] == "description"
    assert "matched" not in table(filtered(["Beta"])).columns  # no search, no column


def test_the_patch_control_answers_as_that_patch(catalog):
    """1.35's Patch control lists every recorded patch; v1.35.0 had MaxUnavailableStatefulSet on by
    default at 1.35, the newest (v1.35.8) has it off: the table follows the URL's patch."""
    newest = open_app(binary="1.35", emulated="1.35")
    patched = open_app(binary="1.35", emulated="1.35", patch="0")
    control = next(s for s in patched.selectbox if s.label == "Patch")
    assert control.value == "0" and control.options[:2] == ["v1.35.8 (newest)", "v1.35.0"]
    assert table(patched).set_index("gate").loc["MaxUnavailableStatefulSet", "enabled"]
    assert not table(newest).set_index("gate").loc["MaxUnavailableStatefulSet", "enabled"]
    binary = next(s for s in newest.selectbox if s.label == "Binary release")
    assert "1.35 (v1.35.8)" in binary.options
    # the release's label names the patch picked beside it, not the newest
    picked = next(s for s in patched.selectbox if s.label == "Binary release")
    assert "1.35 (v1.35.0)" in picked.options and "1.35 (v1.35.8)" not in picked.options
    # a binary typed with its patch selects that patch
    typed = open_app(binary="1.35.0", emulated="1.35")
    assert table(typed).set_index("gate").loc["MaxUnavailableStatefulSet", "enabled"]


def test_the_descriptions_columns_are_off_by_default_and_are_the_clis(capsys):
    """The Descriptions toggle adds description, since and until, in the words of
    kcompat gates --columns description,since,until (off: the default table is unchanged)."""
    import csv
    import io

    at = open_app(binary="1.33", emulated="1.31")
    assert "description" not in table(at).columns
    at.toggle(key="gates_describe").set_value(True)
    rerun(at)
    shown = table(at)
    assert list(shown.columns)[-3:] == ["description", "since", "until"]
    assert at.query_params.get("gates_describe") == "true"
    assert kcompat(["gates", "--binary", "1.33", "--emulated", "1.31", "--columns", "description,since,until", "--format", "csv"]) == 0
    printed = {r["name"]: (r["description"], r["since"], r["until"]) for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    assert {g: (d, s, u) for g, d, s, u in zip(shown["gate"], shown["description"], shown["since"], shown["until"], strict=True)} == printed
    assert printed["JobManagedBy"][1:] == ("1.30", "1.32 (Beta)")
