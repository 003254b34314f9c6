"""kcompat inspect runs every check the binary runs at start-up (issue 19): version ranges,
--feature-gates, and for kube-apiserver --runtime-config with the forward-compatibility flags;
a refusal is said as "this kube-apiserver would exit at start-up" with the binary's line and a
remedy. Inputs are the real-format samples of tests/samples/inspect, edited the way a user would."""

import json
from pathlib import Path

import pytest

from kcompat.cli.main import main as kcompat

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "inspect"
REFUSAL = (
    "cannot enable version resource.k8s.io/v1beta1 in runtime-config because all the resources have been introduced "
    "after the current version 1.31. Consider setting --runtime-config-emulation-forward-compatible=true"
)


def manifest(tmp_path, binary="v1.33.0", emulated="1.31", flags=("--runtime-config=resource.k8s.io/v1beta1=true",)):
    """The sample kubeadm static pod manifest with another image, --emulated-version and extra flags."""
    text = (SAMPLES / "kube-apiserver.yaml").read_text()
    text = text.replace("kube-apiserver:v1.36.2", f"kube-apiserver:{binary}")
    text = text.replace("--emulated-version=1.34", f"--emulated-version={emulated}")
    text = text.replace("    - --feature-gates=ImageVolume=true\n", "".join(f"    - {f}\n" for f in flags))
    path = tmp_path / "kube-apiserver.yaml"
    path.write_text(text)
    return path


def run(capsys, *argv):
    status = kcompat(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_runtime_config_refused_at_start_up(capsys, tmp_path):
    path = manifest(tmp_path)
    status, out, _ = run(capsys, "inspect", str(path), "--format", "json")
    doc = json.loads(out)
    assert status == 2 and not doc["valid"]
    assert doc["startup"] == "this kube-apiserver would exit at start-up"
    assert doc["errors"] == [REFUSAL]  # the apiserver's own line, exactly as kcompat apis prints it
    [hint] = doc["hints"]
    assert hint["error"] == REFUSAL and hint["text"].startswith("resource.k8s.io/v1beta1 appears in 1.32: emulate 1.32 or later")
    assert (doc["binary"], doc["emulated"]) == ("1.33", "1.31")
    assert doc["sources"]["runtimeConfig"].endswith("--runtime-config=resource.k8s.io/v1beta1=true")
    # the same refusal as kcompat apis on the same flags
    status, out, _ = run(capsys, "apis", "--binary", "1.33", "--emulated", "1.31", "--runtime-config", "resource.k8s.io/v1beta1=true", "--format", "json")
    assert status == 2 and json.loads(out)["errors"] == doc["errors"]


def test_refusal_text_comes_first_without_the_gate_table(capsys, tmp_path):
    path = manifest(tmp_path)
    status, out, err = run(capsys, "inspect", str(path))
    assert status == 2
    lines = out.splitlines()
    assert lines[0] == "# Refused: this kube-apiserver would exit at start-up"
    assert lines[2] == f"error: {REFUSAL}"
    assert lines[3].startswith("fix: resource.k8s.io/v1beta1 appears in 1.32")
    assert f"input {path}: static pod manifest" in out  # what was read, from where
    assert "# Predicted gates" not in out
    assert f"error: {REFUSAL}" in err and "hint: resource.k8s.io/v1beta1 appears in 1.32" in err
    status, out, _ = run(capsys, "inspect", str(path), "--show-defaults")
    assert status == 2 and "# Predicted gates" in out and "APIResponseCompression" in out


@pytest.mark.parametrize(
    "emulated, flags",
    [
        ("1.32", ("--runtime-config=resource.k8s.io/v1beta1=true",)),  # the first remedy: emulate 1.32
        ("1.31", ()),  # drop the runtime-config item
        ("1.31", ("--runtime-config=resource.k8s.io/v1beta1=true", "--runtime-config-emulation-forward-compatible=true")),
    ],
)
def test_following_the_remedy_is_accepted(capsys, tmp_path, emulated, flags):
    status, out, _ = run(capsys, "inspect", str(manifest(tmp_path, emulated=emulated, flags=flags)), "--format", "json")
    doc = json.loads(out)
    assert status == 0, doc["errors"]
    assert doc["startup"] is None and doc["errors"] == [] and doc["hints"] == []


def test_forward_compatibility_flag_with_a_bad_value_is_refused(capsys, tmp_path):
    flags = ("--runtime-config=resource.k8s.io/v1beta1=true", "--runtime-config-emulation-forward-compatible=maybe")
    status, out, _ = run(capsys, "inspect", str(manifest(tmp_path, flags=flags)), "--format", "json")
    doc = json.loads(out)
    assert status == 2
    assert doc["errors"][0] == (
        'invalid argument "maybe" for "--runtime-config-emulation-forward-compatible" flag: '
        'strconv.ParseBool: parsing "maybe": invalid syntax'
    )
    assert doc["sources"]["runtimeConfigEmulationForwardCompatible"].endswith("--runtime-config-emulation-forward-compatible=maybe")


def test_forward_compatibility_flag_at_the_binarys_own_version_is_refused(capsys, tmp_path):
    flags = ("--emulation-forward-compatible=true",)
    status, out, _ = run(capsys, "inspect", str(manifest(tmp_path, emulated="1.33", flags=flags)), "--format", "json")
    doc = json.loads(out)
    assert status == 2
    assert doc["errors"] == ["ServerRunOptions.EmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version"]
    assert doc["hints"][0]["text"] == "--emulation-forward-compatible only applies while emulating an older release: drop it, or set --emulated-version below 1.33"


def test_gate_refusal_in_a_manifest_gets_its_remedy(capsys, tmp_path):
    path = manifest(tmp_path, binary="v1.34.1", emulated="1.32", flags=("--feature-gates=DRAPrioritizedList=true",))
    status, out, _ = run(capsys, "inspect", str(path), "--format", "json")
    doc = json.loads(out)
    assert status == 2 and doc["startup"] == "this kube-apiserver would exit at start-up"
    assert doc["errors"] == ["cannot set feature gate DRAPrioritizedList to true, feature is PreAlpha at emulated version 1.32"]
    assert [h["kind"] for h in doc["hints"]] == ["not-introduced"] and "appears in 1.33" in doc["hints"][0]["text"]


def test_version_reporting_other_flags_is_a_disagreement_not_unusable_input(capsys, tmp_path):
    ps = tmp_path / "ps.txt"
    ps.write_text("root 1 0 kube-apiserver --emulated-version=1.35 --min-compatibility-version=1.33\n")
    version = SAMPLES / "version-1.36.2-emulating-1.34.json"
    status, out, _ = run(capsys, "inspect", str(ps), str(version), "--format", "json")
    doc = json.loads(out)
    assert status == 1 and doc["valid"]
    [disagreement] = doc["versionDisagreements"]
    assert "emulationMajor 1, emulationMinor 34 but the flags give emulated 1.35" in disagreement
    assert doc["emulated"] == "1.35" and doc["gates"] is not None  # the answer follows the flags read
    status, out, _ = run(capsys, "inspect", str(ps), str(version))
    assert status == 1
    assert "# Disagreements with /version (1)" in out and "# Predicted gates" in out


def test_a_scheduler_gets_no_apiserver_checks(capsys, tmp_path):
    ps = tmp_path / "ps.txt"
    ps.write_text("kube-scheduler --emulated-version=1.32 --feature-gates=DRAPrioritizedList=true\n")
    version = tmp_path / "version.json"
    version.write_text(json.dumps({"major": "1", "minor": "34", "gitVersion": "v1.34.1"}))
    status, out, _ = run(capsys, "inspect", str(ps), str(version), "--format", "json")
    doc = json.loads(out)
    assert status == 2 and doc["startup"] == "this kube-scheduler would exit at start-up"
    assert len(doc["errors"]) == 1 and "PreAlpha" in doc["errors"][0]


def test_config_refuses_flags_the_apiserver_would_refuse(capsys):
    """kcompat config gives no snippet for a --runtime-config the apiserver refuses at start-up."""
    argv = ["config", "--binary", "1.33", "--emulated-version", "1.31", "--runtime-config", "resource.k8s.io/v1beta1=true"]
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert f"kcompat: error: {REFUSAL}" in err and "hint: resource.k8s.io/v1beta1 appears in 1.32" in err
    status, out, _ = run(capsys, *argv, "--format", "json")
    doc = json.loads(out)
    assert status == 2 and doc["errors"] == [REFUSAL] and doc["hints"][0]["kind"] == "runtime-config"
    # the remedy's third option: the forward-compatibility flag, carried into the snippets
    status, out, _ = run(capsys, *argv, "--runtime-config-emulation-forward-compatible")
    assert status == 0
    assert out.splitlines()[0] == (
        "kube-apiserver --emulated-version=1.31 --runtime-config=resource.k8s.io/v1beta1=true "
        "--runtime-config-emulation-forward-compatible=true"
    )


def test_config_refused_gate_gets_its_remedy(capsys):
    status, out, _ = run(capsys, "config", "--binary", "1.34", "--emulated", "1.32", "--feature-gates", "DRAPrioritizedList=true", "--format", "json")
    doc = json.loads(out)
    assert status == 2 and doc["hints"][0]["text"].startswith("DRAPrioritizedList appears in 1.33 (Alpha)")
