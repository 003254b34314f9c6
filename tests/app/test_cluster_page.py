"""The Check a cluster page: pasted and uploaded inputs give the same answer as kcompat inspect
(JSON), disagreements first, and the config snippets of kcompat config. The /metrics text is
GENERATED from the engine's prediction (tests/inspect_samples.py)."""

import sys
from pathlib import Path

import pytest
from conftest import open_app, open_export, plain, rerun

from kcompat.answers.inspect import InspectQuery

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES, flip, metrics_text, version_info

from kcompat.answers.config import config
from kcompat.answers.inspect import inspect
from kcompat.core.inspect import GivenBinary
from kcompat.core.request import Request
from kcompat.data.catalog import DEFAULT_CATALOG
from kcompat.documents.config import config_document
from kcompat.documents.inspect import disagree_rows, inspect_document


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
        ("pasted input", cmdline), ("pasted /version", version), ("pasted /metrics", metrics),
    ]))
    [error] = at.error
    assert plain(error.value) == f"1 of {cli['observed']['gates']} gates on /metrics disagree with the prediction."
    # the first table on the page is the disagreements, as kcompat inspect lists them
    disagree = at.dataframe[0].value
    assert list(disagree.columns) == ["name", "predicted", "observed", "observed stage", "predicted stage", "likely"]
    assert disagree.to_dict("records") == disagree_rows(cli["observed"]["disagree"])
    assert disagree["name"].tolist() == ["APIServerTracing"]
    assert [m.value for m in at.metric] == ["kube-apiserver", "1.32", "1.31", "1.31"]
    gates = next(d.value for d in at.dataframe if list(d.value.columns) == ["name", "enabled", "stage", "default", "locked", "explicit"])
    assert gates.to_dict("records") == [{k: f[k] for k in gates.columns} for f in cli["gates"]["features"]]
    # config snippets: kcompat config for the selection found
    snippets = config_document(config(DEFAULT_CATALOG, Request("v1.32.0", "1.31"), every_component=True))["snippets"]
    shown = [c.value.rstrip("\n") for c in at.code][:3]
    assert shown == [snippets[k].rstrip("\n") for k in ("cmdline", "kubeadm", "kind")]


def test_agreement(inputs):
    cmdline, version, _ = inputs
    metrics = metrics_text("v1.32.0", "1.31")
    at = paste(open_app("cluster"), cmdline, version, metrics)
    assert not at.error
    assert [plain(s.value) for s in at.success] == [
        "kube-apiserver 1.32.0 emulating 1.31 starts and becomes ready, as recorded starts of v1.32.13 show",
        next(plain(s.value) for s in at.success if s.value.startswith("All ")),
    ]


def test_unknown_names_are_counted_in_words(inputs):
    """Issue 28: "1 names on /metrics"."""
    cmdline, version, _ = inputs
    metrics = metrics_text("v1.32.0", "1.31") + 'kubernetes_feature_enabled{name="AcmeFastPath",stage="ALPHA"} 1\n'
    at = paste(open_app("cluster"), cmdline, version, metrics)
    labels = [e.label for e in at.expander]
    assert "1 name on /metrics kcompat does not know (not counted as disagreements)" in labels


def test_unusable_input_is_named(inputs):
    at = paste(open_app("cluster"), "apiVersion: v1\nkind: Pod\na: &x [1]\nb: *x\n")
    assert plain(at.error[0].value) == "The input cannot be used: 1 problem(s)."
    assert "pasted input: anchors and aliases are not allowed (line 3" in at.text[0].value


def test_without_inputs_config_for_the_selection_bar():
    at = open_app("cluster", binary="1.36", emulated="1.34")
    snippets = config_document(config(DEFAULT_CATALOG, Request("1.36", "1.34"), every_component=True))["snippets"]
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
    document = exports["cluster_gates_csv"]
    header = document.header
    assert header.startswith(f"kcompat Check a cluster · selection: binary {document.selection['binary']}; ")
    assert "data: cluster inputs (pasted input, pasted /version, pasted /metrics); prediction from the bundled data" in header
    csv_downloads = {key: export.text("csv") for key, export in exports.items() if key.startswith("cluster_")}
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


# --- hostile inputs: the page gives the answer kcompat inspect gives ----------------------------------

HOSTILE = SAMPLES.parent / "hostile"


@pytest.mark.parametrize("name,emulated", [("pod-env-var.yaml", "1.34"), ("pod-sh-c.yaml", "1.33"), ("pod-bash-c-args.yaml", "1.34")])
def test_what_really_runs_is_read_on_the_page(name, emulated):
    at = paste(open_app("cluster"), (HOSTILE / name).read_text())
    assert [m.value for m in at.metric][:3] == ["kube-apiserver", "1.36", emulated]
    cli = inspect_document(inspect(DEFAULT_CATALOG, [("pasted input", (HOSTILE / name).read_text(), None)]))
    assert cli["emulated"] == emulated


def test_a_configmap_value_is_not_guessed_on_the_page():
    at = paste(open_app("cluster"), (HOSTILE / "pod-env-configmap.yaml").read_text())
    assert plain(at.error[0].value) == "The input cannot be used: 1 problem(s)."
    assert "the value of --emulated-version cannot be known from the inputs: --emulated-version=$(EMU)" in at.text[0].value


def test_one_dash_is_refused_on_the_page_with_its_remedy():
    at = paste(open_app("cluster"), (HOSTILE / "ps-one-dash.txt").read_text(), (SAMPLES / "version-1.36.2-emulating-1.34.json").read_text())
    refusal = plain(at.error[0].value)
    assert "This kube-apiserver would exit at start-up" in refusal and "unknown shorthand flag: 'e' in -emulated-version=1.34" in refusal
    assert any("has one dash, so pflag reads it as shorthand letters: write --emulated-version=1.34" in plain(i.value) for i in at.info)


@pytest.mark.parametrize("name,message", [
    ("kubeadm-unquoted-version.yaml", "kubeadm refuses this config: json: cannot unmarshal number into Go struct field APIServer"),
    ("kubeadm-v1beta4-boolean.yaml", "json: cannot unmarshal bool into Go struct field Arg"),
    ("kubeadm-kubernetes-version-number.yaml", "json: cannot unmarshal number into Go struct field ClusterConfiguration.kubernetesVersion"),
])
def test_kubeadm_types_are_refused_on_the_page(name, message):
    at = paste(open_app("cluster"), (HOSTILE / name).read_text())
    assert message in at.text[0].value


def test_a_metrics_of_two_servers_is_refused_on_the_page():
    at = paste(open_app("cluster"), metrics=(HOSTILE / "metrics-two-build-info.txt").read_text())
    assert "kubernetes_build_info git_version v1.33.0 contradicts pasted /metrics line 3 (v1.36.5)" in at.text[0].value


@pytest.mark.parametrize("box,name,message", [
    ("metrics", "version-1.36.2-emulating-1.33.json", "pasted /metrics: given as /metrics, but this is /version JSON (gitVersion v1.36.2)"),
    ("version", "login.html", "pasted /version: given as /version, but this is an HTML page (Sign in - Corporate SSO)"),
    ("version", "versions-array.json", "pasted /version: a JSON array of 2 item(s), not a /version response"),
    ("version", "metrics-two-build-info.txt", "pasted /version: given as /version, but this is /metrics text"),
])
def test_each_box_holds_its_endpoints_format(box, name, message):
    at = paste(open_app("cluster"), **{box: (HOSTILE / name).read_text()})
    assert plain(at.error[0].value) == "The input cannot be used: 1 problem(s)."
    assert at.text[0].value.startswith(message), at.text[0].value


def test_a_refused_emulated_version_shows_no_version_on_the_page():
    at = paste(open_app("cluster"), (HOSTILE / "pod-env-escaped.yaml").read_text())
    assert 'could not parse "$(EMU)" as version' in plain(at.error[0].value)
    assert [m.value for m in at.metric] == ["kube-apiserver", "1.36", "refused", "refused"]


# --- a command line alone: the Binary picker's binary -------------------------------------------

BARE = "kube-apiserver --emulated-version=1.33 --feature-gates=CoordinatedLeaderElection=true --runtime-config=coordination.k8s.io/v1beta1=true"


def test_a_command_line_alone_uses_the_binary_picker_and_says_so():
    at = paste(open_app("cluster", binary="1.35", emulated="1.35"), BARE)
    assert not at.error, [e.value for e in at.error]
    [info] = [i for i in at.info if "picker" in i.value]
    assert plain(info.value).startswith("No binary version in the inputs: binary version from the picker: 1.35 (v1.35.8).")
    assert [m.value for m in at.metric][:4] == ["kube-apiserver", "1.35", "1.33", "1.32"]
    sources = next(d.value for d in at.dataframe if list(d.value.columns) == ["setting", "value", "from"])
    assert sources.set_index("setting").loc["binary", "from"] == "binary version from the picker: 1.35 (v1.35.8)"
    # the same answer as kcompat inspect --binary 1.35 (the gates of kcompat gates --binary 1.35 -- <the line>)
    cli = inspect_document(inspect(DEFAULT_CATALOG, [("pasted input", BARE)], InspectQuery(binary=GivenBinary("1.35", "--binary 1.35"))))
    gates = next(d.value for d in at.dataframe if list(d.value.columns) == ["name", "enabled", "stage", "default", "locked", "explicit"])
    assert gates.to_dict("records") == [{k: f[k] for k in gates.columns} for f in cli["gates"]["features"]]
    # the bar follows the command line's emulated version and gates, on the picker's binary
    assert (at.query_params["binary"], at.query_params["emulated"]) == ("1.35", "1.33")


def test_the_pickers_patch_is_named_and_kept():
    at = paste(open_app("cluster", binary="1.35", emulated="1.35", patch="2"), BARE)
    [info] = [i for i in at.info if "picker" in i.value]
    assert "binary version from the picker: 1.35.2 (v1.35.2)" in plain(info.value)
    assert at.query_params["patch"] == "2"


def test_another_pick_answers_the_same_command_line_on_that_binary():
    at = paste(open_app("cluster", binary="1.35", emulated="1.35"), "kube-apiserver --emulated-version=1.33")
    assert [m.value for m in at.metric][1] == "1.35"
    at.selectbox(key="sel_binary").set_value("1.36")
    at = rerun(at)
    assert [m.value for m in at.metric][1] == "1.36"
    assert any("binary version from the picker: 1.36 (v1.36." in plain(i.value) for i in at.info)


def test_inputs_that_name_their_binary_do_not_use_the_picker(inputs):
    at = paste(open_app("cluster", binary="1.36", emulated="1.36"), *inputs)
    assert [m.value for m in at.metric][1] == "1.32"
    assert not any("picker" in i.value for i in at.info)
    assert not any("--binary" in w.value or "picker" in w.value for w in at.warning)
