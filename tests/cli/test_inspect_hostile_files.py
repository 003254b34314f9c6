"""kcompat inspect on hostile and careless inputs (files under tests/samples/hostile/): what the
kubelet, a shell or systemd would expand, pflag's one-dash refusal, kubeadm's typed YAML, a
/metrics of two servers, an endpoint that answers in another format, and the messages that say
what an input is. Each case is the command's exit status and the line that matters."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES

from kcompat.cli.main import main as kcompat

HOSTILE = SAMPLES.parent / "hostile"
ROOT = Path(__file__).resolve().parents[2]
VERSION_134 = SAMPLES / "version-1.36.2-emulating-1.34.json"


def inspect(capsys, *files):
    status = kcompat(["inspect", *map(str, files), "--format", "json"])
    out, _ = capsys.readouterr()
    return status, json.loads(out)


def text(capsys, *argv):
    status = kcompat(list(map(str, argv)))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("files,status,emulated,error", [
    # 2: variable references
    (["pod-env-var.yaml"], 0, "1.34", None),
    (["pod-env-escaped.yaml"], 2, None, 'could not parse "$(EMU)" as version'),
    (["pod-env-configmap.yaml"], 2, None, "the value of --emulated-version cannot be known from the inputs: --emulated-version=$(EMU)"),
    (["kube-apiserver.service", "version-1.36.2-emulating-1.33.json"], 0, "1.33", None),
    # 3: wrapped commands
    (["pod-sh-c.yaml"], 0, "1.33", None),
    (["pod-bash-c-args.yaml"], 0, "1.34", None),
    # 4: one dash
    (["ps-one-dash.txt", VERSION_134], 2, "1.34", "unknown shorthand flag: 'e' in -emulated-version=1.34"),
    # 5: kubeadm's types
    (["kubeadm-unquoted-version.yaml"], 2, None, "kubeadm refuses this config: json: cannot unmarshal number into Go struct field APIServer"),
    (["kubeadm-v1beta4-boolean.yaml"], 2, None, "json: cannot unmarshal bool into Go struct field Arg.apiServer.ControlPlaneComponent.extraArgs.value"),
    (["kubeadm-kubernetes-version-number.yaml"], 2, None, "json: cannot unmarshal number into Go struct field ClusterConfiguration.kubernetesVersion"),
    # 6: two build infos
    (["metrics-two-build-info.txt"], 2, None, "kubernetes_build_info git_version v1.33.0 contradicts"),
    # messages
    (["login.html"], 2, None, "an HTML page (Sign in - Corporate SSO)"),
    (["versions-array.json"], 2, None, "a JSON array of 2 item(s), not a /version response"),
    (["pod-image-latest.yaml"], 2, None, "image registry.k8s.io/kube-apiserver:latest: the tag latest moves from release to release"),
    (["pod-image-digest.yaml"], 2, None, "an image by digest alone names no release"),
    (["kubeadm-stable.yaml"], 2, None, "kubeadm resolves stable from dl.k8s.io when it runs"),
    (["kubeadm-stable-label.yaml"], 0, "1.34", None),
    (["kind-bad-feature-gate.yaml"], 2, None, "kind-bad-feature-gate.yaml line 9: featureGates must map gate names to true or false"),
    (["version-minor-contradicts.json"], 2, None, '/version minor "31" contradicts gitVersion v1.33.4'),
    (["version-utf16.json"], 0, "1.34", None),
    (["metrics.txt.gz"], 0, "1.36", None),
])
def test_hostile_file(capsys, files, status, emulated, error):
    paths = [f if isinstance(f, Path) else HOSTILE / f for f in files]
    got, document = inspect(capsys, *paths)
    assert got == status, document["errors"]
    assert document["emulated"] == emulated
    if error is None:
        assert document["errors"] == []
    else:
        assert any(error in e for e in document["errors"]), document["errors"]
    assert "binary data (NUL bytes)" not in json.dumps(document)


def test_one_dash_is_a_startup_refusal_with_its_remedy(capsys, monkeypatch):
    monkeypatch.chdir(HOSTILE)  # the file named as a user names it
    status, out, err = text(capsys, "inspect", "ps-one-dash.txt", VERSION_134)
    assert status == 2 and out.startswith("# Refused: this kube-apiserver would exit at start-up")
    assert "error: unknown shorthand flag: 'e' in -emulated-version=1.34" in err
    assert "hint: ps-one-dash.txt line 1: -emulated-version=1.34 has one dash, so pflag reads it as shorthand letters: write --emulated-version=1.34" in err


def test_a_pasted_command_line_with_one_dash_is_refused_too(capsys):
    status, _, err = text(capsys, "gates", "--binary", "1.36", "--", "kube-apiserver", "-emulated-version=1.34")
    assert status == 2 and "the pasted command line: unknown shorthand flag: 'e' in -emulated-version=1.34" in err


def test_an_unread_script_is_a_warning_in_the_answer(capsys):
    status, document = inspect(capsys, HOSTILE / "pod-script-file.yaml")
    assert status == 0
    assert any("/bin/sh /scripts/start-apiserver.sh may hold flags that cannot be read" in w for w in document["warnings"])


# --- 7: an endpoint that answers in another format: tests/cli/test_live_hostile.py (a real TLS server) ---


# --- a refused version flag shows no versions ------------------------------------------------------

@pytest.mark.parametrize("command", ["gates", "apis", "storage"])
def test_the_header_shows_no_emulated_version_for_a_refused_flag(capsys, command):
    status, out, err = text(capsys, command, "--binary", "1.36", "--emulated", "x1.33")
    assert status == 2
    header = err.splitlines()[0]
    assert header.startswith("# binary 1.36, emulated version: none (the binary refuses the version flags)"), header
    assert "emulated 1.36" not in err and out == ""  # no table of the versions the binary would not run at
    assert 'error: could not parse "x1.33" as version' in err


def test_inspect_shows_no_emulated_version_for_a_refused_flag(capsys):
    status, out, _ = text(capsys, "inspect", HOSTILE / "pod-env-escaped.yaml")
    assert status == 2
    assert "emulated: none (the binary refuses the version flags)" in out and "emulated: 1.36" not in out


# --- 13: plan endpoints ---------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,message", [
    (["--from", "1.33@1.32@1.31", "--to", "1.36"], "invalid plan endpoint '1.33@1.32@1.31': 2 '@' (one at most: B@E)"),
    (["--from", "1.33@", "--to", "1.36"], "invalid plan endpoint '1.33@': nothing after '@'"),
    (["--from", "1.33", "--to", "1.36 lol"], "invalid plan endpoint '1.36 lol': ' lol' after the version '1.36'"),
])
def test_plan_endpoints_with_trailing_text_are_refused(capsys, argv, message):
    status, out, err = text(capsys, "plan", *argv)
    assert status == 2 and message in err and out == ""
