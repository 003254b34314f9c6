"""kcompat inspect and kcompat config on real-format samples, against the real bundled data.

The /metrics inputs are GENERATED from the engine's prediction (tests/inspect_samples.py) in the
exact text format a kube-apiserver serves; the other samples are files in tests/samples/inspect/
written the way ps, kubeadm, kind and kubectl write them."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES, flip, metrics_text, version_info

from kcompat.answers.config import config
from kcompat.cli.main import main as kcompat
from kcompat.core.inspect import combine_readings, read_input
from kcompat.core.request import Request
from kcompat.data.catalog import DEFAULT_CATALOG
from kcompat.documents.config import config_document


def run(capsys, *argv):
    status = kcompat(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys, *argv):
    status, out, err = run(capsys, *argv, "--format", "json")
    return status, json.loads(out), err


@pytest.fixture
def apiserver_132(tmp_path):
    """ps line, /version and /metrics of a 1.32.0 kube-apiserver started with --emulated-version=1.31."""
    metrics = tmp_path / "metrics.txt"
    metrics.write_text(metrics_text("v1.32.0", "1.31", info=version_info("version-1.32.0.json")))
    return SAMPLES / "ps-kube-apiserver-1.32.txt", SAMPLES / "version-1.32.0.json", metrics


def test_132_emulating_131_agrees(capsys, apiserver_132):
    cmdline, version, metrics = apiserver_132
    status, doc, _ = run_json(capsys, "inspect", str(cmdline), str(version), str(metrics))
    assert status == 0, doc["errors"]
    assert (doc["component"], doc["binary"], doc["emulated"], doc["minCompatibility"]) == ("kube-apiserver", "1.32", "1.31", "1.31")
    assert doc["sources"]["binary"].endswith("gitVersion v1.32.0")
    assert doc["sources"]["emulated"] == f"{cmdline} line 2: --emulated-version=1.31"
    observed = doc["observed"]
    assert observed["disagree"] == []
    assert observed["agree"] + len(observed["unknown"]) == observed["gates"]
    # the gates document is exactly kcompat gates' answer
    _, gates, _ = run_json(capsys, "gates", "--binary", "v1.32.0", "--emulated", "1.31")
    assert doc["gates"] == gates
    # a 1.32 /version has no emulation fields: without the ps line the emulated version is unknown
    assert "emulationMajor" not in version.read_text()


def test_flipping_a_beta_gate_exits_1_and_names_it(capsys, apiserver_132, tmp_path):
    cmdline, version, metrics = apiserver_132
    _, gates, _ = run_json(capsys, "gates", "--binary", "1.32", "--emulated", "1.31")
    beta = next(g for g in gates["features"] if g["stage"] == "Beta" and g["name"] == "APIServerTracing")
    flipped = tmp_path / "flipped.txt"
    flipped.write_text(flip(metrics.read_text(), "APIServerTracing"))
    status, doc, _ = run_json(capsys, "inspect", str(cmdline), str(version), str(flipped))
    assert status == 1
    [d] = doc["observed"]["disagree"]
    assert (d["name"], d["predicted"], d["observed"], d["stage"]) == ("APIServerTracing", beta["enabled"], not beta["enabled"], "BETA")
    assert "--feature-gates=APIServerTracing=false" in d["likely"]
    status, out, _ = run(capsys, "inspect", str(cmdline), str(version), str(flipped))
    assert status == 1 and "APIServerTracing" in out.split("# Predicted gates")[0]
    # the table's headers are words, not JSON keys (issue 28: a raw predictedStage header)
    header = next(line for line in out.splitlines() if line.startswith("name "))
    assert header.split("  ")[:1] == ["name"] and "observed stage" in header and "predicted stage" in header
    assert "predictedStage" not in out


def test_unknown_metrics_names_are_not_disagreements(capsys, apiserver_132, tmp_path):
    cmdline, version, metrics = apiserver_132
    extra = tmp_path / "fork.txt"
    extra.write_text(metrics.read_text() + 'kubernetes_feature_enabled{name="AcmeFastPath",stage="ALPHA"} 1\n')
    status, doc, _ = run_json(capsys, "inspect", str(cmdline), str(version), str(extra))
    assert status == 0 and "AcmeFastPath" in doc["observed"]["unknown"]


def test_static_pod_136_emulating_134_equals_kcompat_gates(capsys):
    manifest = SAMPLES / "kube-apiserver.yaml"
    status, doc, _ = run_json(capsys, "inspect", str(manifest))
    assert status == 0, doc["errors"]
    assert (doc["binary"], doc["emulated"]) == ("1.36", "1.34")
    assert doc["sources"]["component"] == f"{manifest} line 14: kube-apiserver"
    assert doc["sources"]["binary"] == f"{manifest} line 44: image registry.k8s.io/kube-apiserver:v1.36.2"
    assert doc["featureGates"] == "ImageVolume=true"
    _, gates, _ = run_json(capsys, "gates", "--binary", "1.36", "--emulated", "1.34", "--feature-gates", "ImageVolume=true")
    assert {k: v for k, v in doc["gates"].items() if k != "binary"} == {k: v for k, v in gates.items() if k != "binary"}
    _, exact, _ = run_json(capsys, "gates", "--binary", "v1.36.2", "--emulated", "1.34", "--feature-gates", "ImageVolume=true")
    assert doc["gates"] == exact


def test_both_versions_follow_the_flags_never_one_from_version(capsys):
    """--emulated-version=1.34 in the manifest and a /version of a 1.36 binary not emulating (min
    compatibility 1.35): the pair comes from the flags (1.34, and its default min compatibility
    1.33), not 1.34 with /version's 1.35, which the binary would refuse. What /version reports is
    an observation about the running binary (exit 1), not a refusal (exit 2)."""
    manifest, version = SAMPLES / "kube-apiserver.yaml", SAMPLES / "version-1.36.2.json"
    status, doc, _ = run_json(capsys, "inspect", str(manifest), str(version))
    assert status == 1 and doc["valid"] and doc["errors"] == [] and doc["startup"] is None
    assert (doc["binary"], doc["emulated"], doc["minCompatibility"]) == ("1.36", "1.34", "1.33")
    assert doc["sources"]["emulated"] == f"{manifest} line 19: --emulated-version=1.34"
    assert doc["sources"]["minCompatibility"] == "default: derived from the emulated version"
    emulation, min_compat = doc["versionDisagreements"]
    assert emulation.startswith(f"{version} line 5: emulationMajor 1, emulationMinor 36 but the flags give emulated 1.34")
    assert min_compat.startswith(f"{version} line 7: minCompatibilityMajor 1, minCompatibilityMinor 35 but the flags give min compatibility 1.33")
    _, gates, _ = run_json(capsys, "gates", "--binary", "v1.36.2", "--emulated", "1.34", "--feature-gates", "ImageVolume=true")
    assert doc["gates"] == gates  # the answer of the flags alone
    status, out, err = run(capsys, "inspect", str(manifest), str(version))
    assert status == 1 and "would exit at start-up" not in out + err and "# Disagreements with /version (2)" in out


def test_min_compatibility_flag_alone_keeps_the_binary_default_emulation(capsys, tmp_path):
    """--min-compatibility-version without --emulated-version: the emulated version is the
    binary's own release (the flags' default), not the one /version reports."""
    ps = tmp_path / "ps.txt"
    ps.write_text("root 1 0 kube-apiserver --min-compatibility-version=1.34\n")
    status, doc, _ = run_json(capsys, "inspect", str(ps), str(SAMPLES / "version-1.36.2-emulating-1.34.json"))
    assert status == 1 and doc["valid"]
    assert (doc["emulated"], doc["minCompatibility"]) == ("1.36", "1.34")
    assert doc["sources"]["emulated"] == "default: the binary's own release (no --emulated-version in the inputs)"
    assert [d.split(" but ")[0].split(": ", 1)[1] for d in doc["versionDisagreements"]] == [
        "emulationMajor 1, emulationMinor 34", "minCompatibilityMajor 1, minCompatibilityMinor 33"
    ]


def test_version_133_plus_reports_emulation(capsys):
    status, doc, _ = run_json(capsys, "inspect", str(SAMPLES / "version-1.36.2-emulating-1.34.json"))
    assert status == 0
    assert (doc["binary"], doc["emulated"], doc["minCompatibility"]) == ("1.36", "1.34", "1.33")
    assert "emulationMajor 1, emulationMinor 34" in doc["sources"]["emulated"]


def test_contradicting_inputs_exit_2_naming_both(capsys, tmp_path):
    other = tmp_path / "ps.txt"
    other.write_text("/usr/local/bin/kube-apiserver --emulated-version=1.35 --secure-port=6443\n")
    status, doc, _ = run_json(capsys, "inspect", str(SAMPLES / "kube-apiserver.yaml"), str(other))
    assert status == 2
    error = next(e for e in doc["errors"] if e.startswith("--emulated-version differs"))
    assert any(e.startswith("--feature-gates differs") and "not set" in e for e in doc["errors"])
    assert "kube-apiserver.yaml line 19: --emulated-version=1.34" in error and f"{other} line 1: --emulated-version=1.35" in error
    status, doc, _ = run_json(capsys, "inspect", str(SAMPLES / "kube-apiserver.yaml"), str(SAMPLES / "version-1.32.0.json"))
    assert status == 2 and "different binaries" in doc["errors"][0]


def test_unusable_inputs_exit_2(capsys, tmp_path):
    status, _, err = run(capsys, "inspect", str(tmp_path / "missing.txt"))
    assert status == 2 and "missing.txt: cannot read" in err and "Traceback" not in err
    lone = tmp_path / "cmd.txt"
    lone.write_text("kube-apiserver --emulated-version=1.31\n")
    status, doc, _ = run_json(capsys, "inspect", str(lone))
    assert status == 2 and doc["errors"][0].startswith("no binary version in the inputs")
    status, _out, err = run(capsys, "inspect")
    assert status == 2 and "at least one FILE" in err


def test_table_and_markdown(capsys, apiserver_132):
    for fmt in ("table", "markdown"):
        status, out, _ = run(capsys, "inspect", *map(str, apiserver_132), "--format", fmt)
        assert status == 0
        assert "emulated: 1.31" in out.replace("\\", "") and "Disagreements with /metrics (0)" in out


# --- kcompat config: the reverse, read back by the readers ----------------------------------

CASES = [
    ("v1.36.2", "1.34", "1.33", "ImageVolume=true", "api/alpha=false"),
    ("1.33", "1.31", None, "APIServerTracing=false", None),
    ("1.32", "1.31", None, None, None),
]


@pytest.mark.parametrize("binary,emulated,min_compat,gates,runtime", CASES)
def test_config_round_trip(binary, emulated, min_compat, gates, runtime):
    doc = config_document(config(DEFAULT_CATALOG, Request(binary, emulated, min_compat, gates, runtime), every_component=True))
    assert doc["valid"], doc["errors"]
    snippets = doc["snippets"]
    version = json.dumps({"gitVersion": f"v{binary.lstrip('v')}" + (".0" if binary.count(".") == 1 else "")})
    readings = {
        "cmdline": [read_input(snippets["cmdline"], "cmdline.txt")],
        "kubeadm": [read_input(snippets["kubeadm"], "kubeadm.yaml")],
        "kind": [read_input(snippets["kind"], "kind.yaml")],
    }
    for name, text in snippets["static-pod"].items():
        readings[name] = [read_input(text, name)]
    for name, reading in readings.items():
        for flag_set in reading[0].flag_sets:
            expected = doc["components"][flag_set.component]
            assert [f"--{n}={fact.value}" for n, fact in flag_set.flags] == expected, (name, flag_set.component)
        for component in doc["components"]:
            if name.startswith(("cmdline", "kubeadm", "kind")):
                assert component in {s.component for s in reading[0].flag_sets}, (name, component)
        combined = combine_readings([*reading, read_input(version, "version.json")])
        assert combined.emulated == (emulated,)
        assert combined.feature_gates == ((gates,) if gates else ())
        assert combined.component == (name.split("0+")[0] if "+json" in name else "kube-apiserver")
        apiserver = combined.component == "kube-apiserver"
        assert combined.runtime_config == ((runtime,) if runtime and apiserver else ())
        assert combined.min_compat == ((min_compat,) if min_compat else ())


def test_config_cli(capsys):
    status, out, _ = run(capsys, "config", "--binary", "1.35", "--emulated", "1.33", "--min-compat", "1.32")
    assert status == 0
    assert out.splitlines() == [
        "kube-apiserver --emulated-version=1.33 --min-compatibility-version=1.32",
        "kube-controller-manager --emulated-version=1.33 --min-compatibility-version=1.32",
        "kube-scheduler --emulated-version=1.33 --min-compatibility-version=1.32",
    ]
    assert "kubelet" not in out
    # a selection the binary refuses gets its error and exit 2 (1.33 has no --min-compatibility-version)
    status, out, err = run(capsys, "config", "--binary", "1.33", "--emulated", "1.31", "--min-compat", "1.31")
    assert status == 2 and "unknown flag: --min-compatibility-version" in err
    status, doc, _ = run_json(capsys, "config", "--binary", "1.36", "--emulated", "1.30")
    assert status == 2 and "emulation version 1.30 is not between [1.33, 1.36.0]" in doc["errors"][0]


def test_config_formats_match_the_document():
    from kcompat.cli.config import FORMATS as CONFIG_FORMATS
    from kcompat.cli.inspect import MAX_FILE_BYTES
    from kcompat.core.inspect.model import MAX_INPUT_BYTES
    from kcompat.documents.config import SNIPPETS

    assert (*SNIPPETS, "json") == CONFIG_FORMATS and MAX_FILE_BYTES == MAX_INPUT_BYTES


def test_building_the_parser_does_not_import_the_documents():
    import subprocess

    code = (
        "import sys; from kcompat.cli.main import build_parser; build_parser(); "
        "print(sorted(m for m in sys.modules if m.startswith(('kcompat.documents', 'kcompat.core.inspect', 'yaml'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "kcompat.answers.inspect" not in done.stdout and "kcompat.core.inspect" not in done.stdout


def test_metrics_alone_suggest_the_emulated_version(capsys, apiserver_132):
    """A 1.32 /version does not report emulation: without the ps line the prediction assumes 1.32,
    /metrics disagrees, and kcompat names the emulated version that agrees."""
    _, version, metrics = apiserver_132
    status, doc, _ = run_json(capsys, "inspect", str(version), str(metrics))
    assert status == 1 and doc["emulated"] == "1.32"
    assert any(w.startswith("/metrics agrees exactly with --emulated-version=1.31") for w in doc["warnings"])


def test_stage_difference_and_missing_gates(capsys, apiserver_132, tmp_path):
    """A fork's build: one gate GA where 1.32 at 1.31 has it Beta, one gate missing from /metrics."""
    cmdline, version, metrics = apiserver_132
    text = metrics.read_text().replace(
        'kubernetes_feature_enabled{name="APIServerTracing",stage="BETA"} 1', 'kubernetes_feature_enabled{name="APIServerTracing",stage=""} 1'
    )
    text = "\n".join(line for line in text.splitlines() if 'name="APIResponseCompression"' not in line) + "\n"
    fork = tmp_path / "fork.txt"
    fork.write_text(text)
    status, doc, _ = run_json(capsys, "inspect", str(cmdline), str(version), str(fork))
    assert status == 1
    [d] = doc["observed"]["disagree"]
    assert (d["name"], d["stage"], d["predictedStage"], d["predicted"], d["observed"]) == ("APIServerTracing", "", "BETA", True, True)
    assert "fork" in d["likely"]
    assert doc["observed"]["missing"] == ["APIResponseCompression"]
    # said the right way round (issue 28): the prediction has it on /metrics, the /metrics given does not
    assert any("the /metrics given lacks 1 gate the prediction puts there (first: APIResponseCompression)" in w for w in doc["warnings"])


# --- --binary: a command line alone -------------------------------------------------------------

BARE = ("kube-apiserver", "--emulated-version=1.33", "--feature-gates=CoordinatedLeaderElection=true",
        "--runtime-config=coordination.k8s.io/v1beta1=true")


@pytest.mark.parametrize("binary", ["1.35", "1.35.0", "v1.35.0"])
def test_a_bare_command_line_with_binary_answers_as_gates_does(capsys, tmp_path, binary):
    lone = tmp_path / "cmd.txt"
    lone.write_text(" ".join(BARE) + "\n")
    status, doc, _ = run_json(capsys, "inspect", "--binary", binary, str(lone))
    assert status == 0, doc["errors"]
    assert (doc["binary"], doc["emulated"], doc["minCompatibility"]) == ("1.35", "1.33", "1.32")
    assert doc["sources"]["binary"] == f"--binary {binary}"
    assert doc["runtimeConfig"] == "coordination.k8s.io/v1beta1=true" and doc["warnings"] == []
    gates_status, out, _ = run(capsys, "gates", "--binary", binary, "--format", "json", "--", *BARE)
    gates = json.loads(out)
    assert gates_status == status
    for key in ("binary", "emulated", "minCompatibility", "verdict", "readinessRecorded", "errors", "notReady", "features"):
        assert doc["gates"][key] == gates[key], key
    assert doc["gates"]["verdict"] == "starts" and doc["gates"]["readinessRecorded"] == "v1.35.8"


def test_a_bare_command_line_with_binary_is_refused_or_not_ready_as_gates_says(capsys, tmp_path):
    lone = tmp_path / "cmd.txt"
    lone.write_text("kube-apiserver --feature-gates=CoordinatedLeaderElection=true\n")
    status, doc, _ = run_json(capsys, "inspect", "--binary", "1.34", str(lone))
    assert status == 3 and doc["gates"]["verdict"] == "not-ready" and doc["notReady"]
    lone.write_text("kube-apiserver --emulated-version=1.30\n")
    status, doc, _ = run_json(capsys, "inspect", "--binary", "1.34", str(lone))
    assert status == 2 and doc["gates"]["verdict"] == "refuses"
    assert "emulation version 1.30 is not between [1.31, 1.34.0]" in doc["errors"][0]


def test_the_running_binarys_version_wins_over_binary_with_a_warning(capsys):
    files = (str(SAMPLES / "ps-kube-apiserver-1.32.txt"), str(SAMPLES / "version-1.32.0.json"))
    status, doc, _ = run_json(capsys, "inspect", "--binary", "1.36", *files)
    assert status == 0 and doc["binary"] == "1.32" and doc["sources"]["binary"].endswith("gitVersion v1.32.0")
    [warning] = [w for w in doc["warnings"] if "--binary" in w]
    assert warning == (f"{files[1]} line 4: gitVersion v1.32.0 but --binary 1.36: another release; the inputs' version is used "
                       "(what the running binary says wins over a version given beside it)")
    status, doc, _ = run_json(capsys, "inspect", "--binary", "1.32.4", *files)
    assert status == 0 and any("but --binary 1.32.4: another patch" in w for w in doc["warnings"])
    status, doc, err = run(capsys, "inspect", "--binary", "1.32", *files)
    assert status == 0 and "--binary" not in err and "--binary" not in doc  # the same release: nothing to say


@pytest.mark.parametrize(("binary", "message"), [
    ("foo", "--binary: invalid binary version 'foo'"),
    ("1.99", "--binary: no bundled data for release '1.99'; bundled: 1.31,"),
    ("1", "--binary: invalid binary version '1'"),
    ("1.30", "--binary: no bundled data for release '1.30'"),
])
def test_a_bad_binary_is_refused_by_name(capsys, binary, message):
    cmdline = str(SAMPLES / "ps-kube-apiserver-1.32.txt")
    status, out, err = run(capsys, "inspect", "--binary", binary, cmdline)
    assert status == 2 and out == "" and err.startswith(f"kcompat: error: {message}") and "Traceback" not in err
    status, doc, _ = run_json(capsys, "inspect", "--binary", binary, cmdline)
    assert status == 2 and doc["valid"] is False and doc["errors"][0].startswith(message)
