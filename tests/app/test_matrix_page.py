"""The Release matrix page: gates x releases, filters, per-release transition counts."""

import json
import subprocess
import sys

import pytest
from conftest import current_page, open_app, rerun, texts

from kcompat.core.matrix import TRANSITION_KINDS, release_matrix, release_transitions
from kcompat.core.request import Request
from kcompat.data.catalog import DEFAULT_CATALOG


@pytest.fixture(scope="module")
def matrix(catalog):
    return release_matrix([(r, catalog.manifest(r)) for r in catalog.usable_releases()])


def table(at, position=0):
    """0: the matrix, 1: the transition counts."""
    return at.dataframe[position].value


def name_pills(at):
    """The gate names of the chosen "Changed in a release" (a click opens the gate)."""
    return next(p for p in at.pills if p.key.startswith("matrix_names_"))


def kcompat_json(*argv):
    """``kcompat matrix ARGV --format json``, run as a command."""
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "matrix", *argv, "--format", "json"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_default_load_shows_every_gate_of_every_release(matrix):
    at = open_app("matrix")
    assert current_page(at) == "matrix"
    shown = table(at)
    assert list(shown.columns) == ["gate", "origin", *(HEADERS.get(r, r) for r in matrix.releases)]
    assert list(shown["gate"]) == [r.gate for r in matrix.rows]
    assert set(shown["origin"]) == {"kube", "client-go"}
    row = shown.set_index("gate").loc["JobManagedBy"]  # exact releases keep the bare release as their header
    assert (row["1.31"], row["1.32"], row["1.35"]) == ("Alpha (off)", "Beta (on)", "GA (on, locked)")
    assert shown.set_index("gate").loc["APIListChunking", "1.33"] == "removed (always on)"
    assert shown.set_index("gate").loc["VolumeCapacityPriority", "1.36"] == "removed (always off)"
    assert shown.set_index("gate").loc["ContainerStopSignals", "1.32"] == "—"  # not introduced yet


#: the release columns whose data is not the release itself say so in their header
HEADERS = {"1.38": "1.38 (pre-release)"}  # every other release is read from its own patch release


def test_reconstructed_releases_are_marked_in_the_grid_and_its_exports(catalog, csv_downloads, capsys):
    """Issue 28: the page marked a reconstructed release with "*" and its downloads dropped it. The
    header says it in words, on the page, in every export and in every text output of kcompat matrix."""
    from kcompat.cli.main import main as kcompat

    at = open_app("matrix")
    columns = json.loads(at.dataframe[0].proto.columns)
    for info in catalog.releases:
        header = HEADERS.get(info.release, info.release)
        assert (header != info.release) is (not info.exact)
        assert columns[header]["label"] == header
    # the gate names in the theme's text colour: the grid fades a pinned column's text to 60 % (issue 28: they looked disabled)
    assert not columns["gate"].get("pinned")
    assert csv_downloads["matrix_csv"].splitlines()[0] == "gate,origin," + ",".join(HEADERS.get(r, r) for r in catalog.release_names)
    assert kcompat(["matrix", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["releaseData"] == {
        r: {"1.38": "pre-release"}.get(r, "exact") for r in catalog.release_names
    }


def test_text_filter():
    at = open_app("matrix")
    at.text_input(key="matrix_text").set_value("sidecar")
    rerun(at)
    shown = list(table(at)["gate"])
    assert "SidecarContainers" in shown and "LegacySidecarContainers" in shown
    # the search also finds gates by their description (issue 19): every row names sidecars somewhere
    info = DEFAULT_CATALOG.gate_info
    assert all("sidecar" in g.lower() or "sidecar" in (info[g].description or "").lower() for g in shown)
    assert any("sidecar" not in g.lower() for g in shown)


def test_stage_filter_in_a_chosen_release(matrix):
    at = open_app("matrix")
    at.multiselect(key="matrix_stages").set_value(["Deprecated"])
    at.selectbox(key="matrix_release").set_value("1.33")
    rerun(at)
    expected = [r.gate for r in matrix.rows if r.cells[2] is not None and r.cells[2].stage.value == "Deprecated"]
    assert list(table(at)["gate"]) == expected
    assert all(v.startswith("Deprecated") for v in table(at)["1.33"])


def test_changed_only_filter(matrix):
    at = open_app("matrix")
    at.toggle(key="matrix_changed").set_value(True)
    rerun(at)
    shown = table(at).set_index("gate")
    assert "JobManagedBy" in shown.index
    assert "KMSv1" not in shown.index  # Deprecated (off) in every release
    assert (shown.nunique(axis=1) > 1).all()


def test_transition_counts_table_equals_the_core(matrix):
    at = open_app("matrix")
    counts = table(at, 1)
    expected = release_transitions(matrix)
    assert list(counts["release"]) == [t.release for t in expected]
    for kind in TRANSITION_KINDS:
        assert list(counts[kind]) == [t.counts()[kind] for t in expected]
    assert len(at.get("vega_lite_chart")) == 2  # transitions and stages per release


def test_selecting_a_row_opens_the_gate():
    at = open_app("matrix", binary="1.36", emulated="1.34")
    at.text_input(key="matrix_text").set_value("JobManagedBy")
    rerun(at)
    at.session_state["matrix_table_0"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    rerun(at)
    assert current_page(at) == "gate_detail"
    assert at.query_params == {"binary": "1.36", "emulated": "1.34", "gate": "JobManagedBy"}


def _graduated(catalog, release, previous):
    """Independently of the matrix: GA in release's own gate table, not GA (or absent) in the previous one's."""
    from kcompat.answers.gates import gate_evaluation

    now = {g.name for g in gate_evaluation(catalog, Request(release)).gates if g.stage.value == "GA"}
    before = {g.name for g in gate_evaluation(catalog, Request(previous)).gates if g.stage.value == "GA"}
    return sorted(now - before)


def test_graduated_to_ga_in_1_35_is_exactly_the_gates_that_graduated_then(catalog, capsys):
    from kcompat.cli.main import main as kcompat

    at = open_app("matrix")
    assert at.selectbox(key="matrix_transition").format_func("1.35:toGA").startswith("graduated to GA in 1.35 (")
    at.selectbox(key="matrix_transition").set_value("1.35:toGA")
    rerun(at)
    expected = _graduated(catalog, "1.35", "1.34")
    assert "JobManagedBy" in expected and "APIServerTracing" not in expected  # GA since 1.34
    assert list(table(at)["gate"]) == expected
    assert kcompat(["matrix", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["transitions"]["1.35"]["toGA"] == expected
    assert name_pills(at).options == expected


def test_removed_in_a_release_names_the_behaviour_and_opens_the_gate():
    at = open_app("matrix", binary="1.36", emulated="1.36")
    at.selectbox(key="matrix_transition").set_value("1.33:removed")
    rerun(at)
    pills = name_pills(at)
    assert "APIListChunking (always on)" in pills.options  # removed after GA locked on
    assert "VolumeCapacityPriority (always off)" in pills.options  # removed while off
    pills.set_value("APIListChunking")
    rerun(at)
    assert current_page(at) == "gate_detail"
    assert at.query_params == {"binary": "1.36", "emulated": "1.36", "gate": "APIListChunking"}


def test_matrix_cells_are_the_cli_document(capsys):
    from kcompat.cli.main import main as kcompat
    from kcompat.documents.matrix import matrix_rows

    assert kcompat(["matrix", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    shown = table(open_app("matrix"))
    assert list(shown.columns) == ["gate", "origin", *(HEADERS.get(r, r) for r in doc["releases"])]
    assert shown.to_dict("records") == matrix_rows(doc)
    assert [r["gate"] for r in matrix_rows(doc)] == [g["name"] for g in doc["gates"]]


def test_the_view_is_restored_from_the_url():
    at = open_app(
        "matrix", matrix_text="job", matrix_stages="Beta,GA", matrix_release="1.34", matrix_changed="true",
        matrix_transition="1.35:toGA",
    )
    assert at.text_input(key="matrix_text").value == "job"
    assert at.multiselect(key="matrix_stages").value == ["Beta", "GA"]
    assert at.selectbox(key="matrix_release").value == "1.34"
    assert at.toggle(key="matrix_changed").value is True
    assert at.selectbox(key="matrix_transition").value == "1.35:toGA"
    assert not at.warning
    shown = table(at)
    assert len(shown) and all("job" in g.lower() for g in shown["gate"])


def test_a_change_writes_the_url_and_defaults_stay_out():
    at = open_app("matrix")
    at.toggle(key="matrix_changed").set_value(True)
    at.text_input(key="matrix_text").set_value("pod")
    rerun(at)
    assert at.query_params["matrix_changed"] == "true" and at.query_params["matrix_text"] == "pod"
    at.toggle(key="matrix_changed").set_value(False)
    rerun(at)
    assert "matrix_changed" not in at.query_params


def test_invalid_view_values_warn_and_are_ignored():
    at = open_app("matrix", matrix_stages="Beta,Nope", matrix_release="0.1", matrix_changed="maybe", matrix_transition="x")
    warnings = texts(at.warning)
    for key in ("matrix_stages", "matrix_release", "matrix_changed", "matrix_transition"):
        assert any(w.startswith(f"{key}=") for w in warnings), key
    assert at.multiselect(key="matrix_stages").value == []
    assert at.selectbox(key="matrix_transition").value is None
    assert not any(k.startswith("matrix_") for k in at.query_params)


def test_the_table_csv_is_the_cli_csv(csv_downloads, capsys):
    from kcompat.cli.main import main as kcompat

    assert kcompat(["matrix", "--format", "csv"]) == 0
    printed = capsys.readouterr().out
    open_app("matrix")
    assert csv_downloads["matrix_csv"] == printed  # no filter: byte for byte
    at = open_app("matrix", matrix_text="sidecar")
    assert kcompat(["matrix", "--search", "sidecar", "--format", "csv"]) == 0
    assert csv_downloads["matrix_csv"] == capsys.readouterr().out  # the search's rows, and where each matched
    lines = csv_downloads["matrix_csv"].splitlines()
    assert lines[0] == printed.splitlines()[0] + ",matched"
    assert [line.split(",")[0] for line in lines[1:]] == list(table(at)["gate"])
    assert csv_downloads["matrix_counts_csv"].splitlines()[0].startswith("release,since,")


# ---------------------------------------------------------------------------------------------
# The filters of kcompat matrix, in the URL: the same rows as the command


def test_the_cli_and_the_page_show_the_same_gates_that_became_ga_in_1_35(gates):
    """``kcompat matrix --changed 1.35:toGA --format json`` and the page opened with
    ``?matrix_transition=1.35:toGA``: the same rows, cell for cell; kube and client-go gates."""
    from kcompat.documents.matrix import matrix_rows

    doc = kcompat_json("--changed", "1.35:toGA")
    shown = table(open_app("matrix", matrix_transition="1.35:toGA"))
    assert shown.to_dict("records") == matrix_rows(doc)
    now = {g.name for g in gates("1.35").gates if g.stage.value == "GA"}
    before = {g.name for g in gates("1.34").gates if g.stage.value == "GA"}
    assert list(shown["gate"]) == sorted(now - before)
    assert set(shown["origin"]) == {"kube", "client-go"}  # InformerResourceVersion is client-go's


@pytest.mark.parametrize(
    "params, argv",
    [
        ({"matrix_origin": "client-go", "matrix_since": "1.35"}, ["--origin", "client-go", "--since", "1.35"]),
        (
            {"matrix_text": "DRA", "matrix_stages": "Beta", "matrix_release": "1.36", "matrix_origin": "kube"},
            ["--search", "DRA", "--stage", "Beta", "--in-release", "1.36", "--origin", "kube"],
        ),
        ({"matrix_transition": "1.36:defaultFlipped", "matrix_changed": "true"}, ["--changed", "1.36:defaultFlipped", "--changed-only"]),
        ({"matrix_transition": "1.34:locked", "matrix_since": "1.33"}, ["--changed", "1.34:locked", "--since", "1.33"]),
    ],
    ids=["client-go-since", "dra-beta", "default-flipped", "locked"],
)
def test_every_filter_in_the_url_gives_the_rows_of_the_same_command(params, argv, csv_downloads):
    from kcompat.documents.matrix import matrix_rows

    doc = kcompat_json(*argv)
    at = open_app("matrix", **params)
    assert not at.warning
    shown = table(at)
    assert len(shown) > 0
    assert list(shown.columns) == ["gate", "origin", *(HEADERS.get(r, r) for r in doc["releases"]), *(["matched"] if "--search" in argv else [])]
    assert shown.to_dict("records") == matrix_rows(doc)
    # the CSV is the rows and columns shown
    lines = csv_downloads["matrix_csv"].splitlines()
    assert lines[0] == ",".join(shown.columns) and len(lines) == len(shown) + 1


def test_the_new_kinds_are_offered_with_their_counts(matrix):
    at = open_app("matrix")
    transitions = {t.release: t for t in release_transitions(matrix)}
    box = at.selectbox(key="matrix_transition")
    assert box.format_func("1.36:defaultFlipped") == f"default flipped in 1.36 ({len(transitions['1.36'].default_flipped)})"
    assert box.format_func("1.34:locked") == f"locked to its default in 1.34 ({len(transitions['1.34'].locked)})"
    counts = table(at, 1)
    assert list(counts.columns) == ["release", "since", "new alpha", "new", *TRANSITION_KINDS[1:], "default flipped", "locked"]
    assert list(counts["new"]) == [len(t.new) for t in release_transitions(matrix)]
    assert box.format_func("1.36:new") == f"new (at Beta, GA or Deprecated) in 1.36 ({len(transitions['1.36'].new)})"
    assert "AllowServiceExternalIPs" in transitions["1.36"].new and "AllowServiceExternalIPs" not in transitions["1.36"].to_ga
    assert list(counts["locked"]) == [len(t.locked) for t in release_transitions(matrix)]


def test_origin_and_from_release_write_the_url():
    at = open_app("matrix")
    at.pills(key="matrix_origin").set_value(["client-go"])
    at.selectbox(key="matrix_since").set_value("1.36")
    rerun(at)
    assert at.query_params["matrix_origin"] == "client-go" and at.query_params["matrix_since"] == "1.36"
    shown = table(at)
    assert list(shown.columns) == ["gate", "origin", "1.36", "1.37", "1.38 (pre-release)"]
    assert set(shown["origin"]) == {"client-go"}


def test_columns_are_as_wide_as_their_longest_cell_and_no_answer_is_a_message():
    """The widths (the browser test measures the drawn text: tests/e2e/test_e2e_table_fit.py)."""
    from dashboard.tables.text_width import column_px

    at = open_app("matrix", matrix_transition="1.35:toGA")
    shown = table(at)
    widths = {name: c.get("width") for name, c in json.loads(at.dataframe[0].proto.columns).items()}
    assert widths["gate"] == column_px(["gate", *shown["gate"]]) == column_px(["PodObservedGenerationTracking"])
    assert widths["1.38 (pre-release)"] == column_px(["removed (always on)"]) > widths["1.31"] == column_px(["Alpha (off)"])
    at = open_app("matrix", matrix_transition="1.38:toGA", matrix_origin="client-go")
    assert len(at.dataframe) == 1  # the counts only
    assert "No gate matches these filters." in [i.value for i in at.info]


def test_bad_origin_and_since_in_the_url_warn():
    at = open_app("matrix", matrix_origin="k8s", matrix_since="1.2")
    warnings = texts(at.warning)
    assert any(w.startswith("matrix_origin=") for w in warnings) and any(w.startswith("matrix_since=") for w in warnings)
    assert len(table(at)) == len(table(open_app("matrix")))


def test_removable_in_is_the_cli_answer_with_its_rule(capsys):
    """Issue 28, the release team's "which gates can be removed next release?": the page's "Removable in"
    filter (matrix_removable in the URL) shows the rows of ``kcompat matrix --removable-in 1.39`` and the rule."""
    from kcompat.core.removable import RULE
    from kcompat.documents.matrix import matrix_rows

    doc = kcompat_json("--removable-in", "1.39")
    at = open_app("matrix", matrix_removable="1.39")
    assert not at.warning and at.selectbox(key="matrix_removable").value == "1.39"
    shown = table(at)
    assert shown.to_dict("records") == matrix_rows(doc)
    assert list(shown.columns)[-3:] == ["locked", "locked since", "last settable"]
    assert "CPUManagerPolicyOptions" in set(shown["gate"]) and "DRAPrioritizedList" not in set(shown["gate"])
    (info,) = [i for i in texts(at.info) if "can drop" in i]
    assert info.startswith(f"**{len(shown)} gates a 1.39 binary can drop**, of the {doc['removable']['lockedGates']} gates 1.38 has locked")
    assert RULE in info and "KEP-4330" in info
    # the options: the release after the newest bundled one, then the bundled releases but the oldest
    assert at.selectbox(key="matrix_removable").options[:2] == ["1.39", "1.38"]
    assert "1.31" not in at.selectbox(key="matrix_removable").options


def test_the_patch_view_shows_what_kcompat_matrix_patches_prints():
    at = open_app("matrix", matrix_patches="1.35")
    assert at.selectbox(key="matrix_patches").value == "1.35"
    document = kcompat_json("--patches", "1.35")
    frame = next(d.value for d in at.dataframe if list(d.value.columns)[2:3] == [document["patches"][0]])
    assert list(frame.columns) == ["gate", "origin", *document["patches"]]
    assert list(frame["gate"]) == [g["name"] for g in document["gates"]] == ["MaxUnavailableStatefulSet", "SchedulerAsyncAPICalls"]
    assert frame.set_index("gate").loc["SchedulerAsyncAPICalls", "1.35.0"] == "Beta (on)"
    captions = " ".join(texts(at.caption))
    assert "1.35.1: default flipped SchedulerAsyncAPICalls" in captions and "1.35.4: default flipped MaxUnavailableStatefulSet" in captions
    # the matrix itself says which patch changed a default of a gate it shows
    assert "Patch releases that changed a gate shown" in captions and "1.35.1 default flipped: SchedulerAsyncAPICalls" in captions
    # the gap between v1.35.6 and v1.35.8 is named, with what the data says of it
    assert "v1.35.6, v1.35.8; 1.35.7 not recorded (no recording in the bundled data, and no reason given)" in captions


def test_a_release_whose_patches_agree_says_so():
    at = open_app("matrix", matrix_patches="1.36")
    assert not [d for d in at.dataframe if "1.36.0" in d.value.columns]
    assert any("Every recorded patch of 1.36 registers the same gates" in i for i in texts(at.info))


def test_the_intro_names_each_release_as_its_column_header_does():
    """1.38 is read from v1.38.0-beta.0: the intro and the header both say "1.38 (pre-release)"
    (the intro said "1.38 (release)")."""
    at = open_app("matrix")
    intro = next(c.value for c in at.caption if "Each cell" in c.value)
    assert "downloads too: 1\\.38 \\(pre\\-release\\)." in intro  # (md escapes the punctuation)
    assert "(release)" not in intro
    assert "1.38 (pre-release)" in table(at).columns
