"""The Check a cluster page: pasted and uploaded inputs give the same answer as kcompat inspect
(JSON), disagreements first, and the config snippets of kcompat config. The /metrics text is
GENERATED from the engine's prediction (tests/inspect_samples.py)."""

import sys
from pathlib import Path

import pytest
from conftest import open_app, open_export, plain, rerun

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES, flip, metrics_text, version_info

from kcompat.answers.config import config
from kcompat.answers.inspect import inspect
from kcompat.data.catalog import DEFAULT_CATALOG
from kcompat.documents.config import config_document
from kcompat.documents.inspect import inspect_document


def paste(at, cmdline="", version="", metrics=""):
    at.text_area(key="cluster_paste_cmdline").input(cmdline)
    at.text_area(key="cluster_paste_version").input(version)
    at.text_area(key="cluster_paste_metrics").input(metrics)
    next(b for b in at.button if b.label == "Check").click()
    return rerun(at)


@pytest.fixture(scope="module")
def inputs():
    cmdline = (SAMPLES / "ps-kube-apiserver-1.32.txt").read_text()
    version = (SAMPLES / "version-1.32.0.json").read_text()
    metrics = flip(metrics_text("v1.32.0", "1.31", info=version_info("version-1.32.0.json")), "APIServerTracing")
    return cmdline, version, metrics


def test_disagreement_first_and_same_as_cli(inputs):
    cmdline, version, metrics = inputs
    at = paste(open_app("cluster"), *inputs)
    cli = inspect_document(inspect(DEFAULT_CATALOG, [
        ("pasted command line", cmdline), ("pasted /version", version), ("pasted /metrics", metrics),
    ]))
    [error] = at.error
    assert plain(error.value) == f"1 of {cli['observed']['gates']} gates on /metrics disagree with the prediction."
    # the first table on the page is the disagreements, as kcompat inspect lists them
    disagree = at.dataframe[0].value
    assert list(disagree.columns)[:3] == ["name", "predicted", "observed"]
    assert disagree.to_dict("records") == [{k: d[k] for k in disagree.columns} for d in cli["observed"]["disagree"]]
    assert disagree["name"].tolist() == ["APIServerTracing"]
    assert [m.value for m in at.metric] == ["kube-apiserver", "1.32", "1.31", "1.31"]
    gates = next(d.value for d in at.dataframe if list(d.value.columns) == ["name", "enabled", "stage", "default", "locked", "explicit"])
    assert gates.to_dict("records") == [{k: f[k] for k in gates.columns} for f in cli["gates"]["features"]]
    # config snippets: kcompat config for the selection found
    snippets = config_document(config(DEFAULT_CATALOG, "v1.32.0", "1.31"))["snippets"]
    shown = [c.value.rstrip("\n") for c in at.code][:3]
    assert shown == [snippets[k].rstrip("\n") for k in ("cmdline", "kubeadm", "kind")]


def test_agreement(inputs):
    cmdline, version, _ = inputs
    metrics = metrics_text("v1.32.0", "1.31")
    at = paste(open_app("cluster"), cmdline, version, metrics)
    assert not at.error
    assert plain(at.success[0].value).startswith("All ")


def test_unusable_input_is_named(inputs):
    at = paste(open_app("cluster"), "apiVersion: v1\nkind: Pod\na: &x [1]\nb: *x\n")
    assert plain(at.error[0].value) == "The input cannot be used: 1 problem(s)."
    assert "pasted command line: anchors and aliases are not allowed (line 3" in at.text[0].value


def test_without_inputs_config_for_the_selection_bar():
    at = open_app("cluster", binary="1.36", emulated="1.34")
    snippets = config_document(config(DEFAULT_CATALOG, "1.36", "1.34"))["snippets"]
    assert at.code[0].value.rstrip("\n") == snippets["cmdline"].rstrip("\n")
    assert "kube-scheduler --emulated-version=1.34" in at.code[0].value


def test_the_snippet_tab_is_restored_from_the_url():
    at = open_app("cluster", binary="1.36", emulated="1.34", cluster_snippet="kind")
    assert at.session_state["cluster_snippet"] == "kind"
    assert not at.warning
    at = open_app("cluster", binary="1.36", emulated="1.34", cluster_snippet="static-pod")
    assert at.session_state["cluster_snippet"] == "Static pod patches"


def test_invalid_snippet_tab_warns_and_is_ignored():
    at = open_app("cluster", binary="1.36", emulated="1.34", cluster_snippet="helm")
    assert plain(at.warning[0].value).startswith("cluster_snippet='helm' in the URL is not one of cmdline, kubeadm, kind, static-pod")
    assert at.session_state["cluster_snippet"] == "Command line"
    assert "cluster_snippet" not in at.query_params


def test_each_table_csv_has_the_cli_columns(inputs, exports, tmp_path, capsys):
    from kcompat.cli.main import main as kcompat

    at = paste(open_app("cluster"), *inputs)
    for key in ("cluster_disagree_csv", "cluster_sources_csv", "cluster_gates_csv"):
        open_export(at, key)
    assert {k for k in exports if k.startswith("cluster_")} == {"cluster_disagree_csv", "cluster_sources_csv", "cluster_gates_csv"}
    # the header line names the inspected selection and the inputs as the data's source
    header = exports["cluster_gates_csv"].text("csv").splitlines()[0]
    document = exports["cluster_gates_csv"]
    assert header.startswith(f"# kcompat Check a cluster · selection: binary {document.selection['binary']}; ")
    assert "data: cluster inputs (pasted command line, pasted /version, pasted /metrics); prediction from the bundled data" in header
    csv_downloads = {key: "\n".join(export.text("csv").splitlines()[1:]) for key, export in exports.items() if key.startswith("cluster_")}
    files = []
    for name, text in zip(("cmdline.txt", "version.json", "metrics.txt"), inputs, strict=True):
        (tmp_path / name).write_text(text)
        files.append(str(tmp_path / name))
    kcompat(["inspect", *files, "--format", "markdown"])  # inspect has no CSV output: its tables' columns
    headers = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| name |")]
    columns = [[c.strip() for c in h.strip("|").split("|")] for h in headers]
    assert csv_downloads["cluster_disagree_csv"].splitlines()[0].split(",") == columns[0]
    assert csv_downloads["cluster_gates_csv"].splitlines()[0].split(",") == columns[1]
    assert len(csv_downloads["cluster_gates_csv"].splitlines()) > 100
