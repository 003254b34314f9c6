"""Every command that takes a selection refuses what kube-apiserver refuses, as ``kcompat gates``
and ``apis`` do (exit 2, the binary's line): ``scan``, ``gate``, ``timeline`` and ``skew`` with the
inputs that were once answered "valid" (a gate the binary does not know, a locked gate set off,
``--runtime-config v1=false``, an unparsable or out-of-range version), and ``scan`` when the
control plane it checks against would never become ready."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kcompat.cli.contract import ExitStatus
from kcompat.cli.main import main

MANIFEST = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def errors_of(err: str) -> list[str]:
    return [line.removeprefix("error: ") for line in err.splitlines() if line.startswith("error: ")]


@pytest.fixture
def manifest(tmp_path: Path) -> str:
    path = tmp_path / "configmap.yaml"
    path.write_text(MANIFEST)
    return str(path)


SCAN_REFUSALS = [
    (["--feature-gates", "Nope=true"], "unrecognized feature gate: Nope"),
    (["--feature-gates", "JobManagedBy=false"], "cannot set feature gate JobManagedBy to false, feature is locked to true"),
    (["--runtime-config", "v1=false"], "panic: interface conversion: interface is nil, not rest.Getter"),
]


@pytest.mark.parametrize(("flags", "line"), SCAN_REFUSALS)
def test_scan_refuses_what_apis_refuses(capsys, manifest, flags, line):
    code, _, apis_err = run(capsys, "apis", "--binary", "1.36", *flags)
    assert code == ExitStatus.REFUSED and line in errors_of(apis_err)
    code, _, err = run(capsys, "scan", manifest, "--binary", "1.36", *flags)
    assert code == ExitStatus.REFUSED
    assert errors_of(err) == errors_of(apis_err)  # the same lines, in the same order
    code, out, _ = run(capsys, "scan", manifest, "--binary", "1.36", *flags, "--format", "json")
    document = json.loads(out)
    assert code == 2 and document["valid"] is False and line in document["errors"]


def test_scan_of_an_accepted_selection_still_answers(capsys, manifest):
    code, _, err = run(capsys, "scan", manifest, "--binary", "1.36", "--emulated", "1.34", "--feature-gates", "JobManagedBy=false")
    assert code == ExitStatus.OK and "error" not in err


def test_scan_cannot_check_a_control_plane_that_never_becomes_ready(capsys, manifest):
    flags = ["--binary", "1.34", "--feature-gates", "CoordinatedLeaderElection=true"]
    code, _, _ = run(capsys, "gates", *flags)
    assert code == ExitStatus.NOT_READY
    code, _, err = run(capsys, "scan", manifest, *flags)
    assert code == ExitStatus.REFUSED
    (line,) = errors_of(err)
    assert line.startswith("could not check: kube-apiserver starts but does not become ready: CoordinatedLeaderElection on")
    assert "hint: add coordination.k8s.io/v1beta1=true to --runtime-config" in err
    code, _, err = run(capsys, "scan", manifest, *flags, "--runtime-config", "coordination.k8s.io/v1beta1=true")
    assert code == ExitStatus.OK and errors_of(err) == []


GATE_REFUSALS = [
    (["--emulated", "1e2"], 'illegal version string "1e2"'),
    (["--emulated", "1.39"], "emulation version 1.39 is not between [1.33, 1.36.0]"),
    (["--min-compat", "1.20"], "minCompatibilityVersion version 1.20 is not between [1.33, 1.36]"),
    (["--feature-gates", "JobManagedBy=false"], "cannot set feature gate JobManagedBy to false, feature is locked to true"),
]


@pytest.mark.parametrize(("flags", "line"), GATE_REFUSALS)
def test_gate_refuses_what_gates_refuses(capsys, flags, line):
    code, _, gates_err = run(capsys, "gates", "--binary", "1.36", *flags)
    assert code == ExitStatus.REFUSED and line in errors_of(gates_err)
    code, out, err = run(capsys, "gate", "JobManagedBy", "--binary", "1.36", *flags)
    assert code == ExitStatus.REFUSED and out == ""
    assert errors_of(err) == errors_of(gates_err)
    assert err.startswith("# binary 1.36, ") and "(refused: no answer)" in err.splitlines()[0]
    code, out, _ = run(capsys, "gate", "JobManagedBy", "--binary", "1.36", *flags, "--format", "json")
    document = json.loads(out)
    assert code == 2 and document["verdict"] == "refuses" and document["valid"] is False and line in document["errors"]


def test_gate_says_versions_it_refuses_are_none(capsys):
    code, out, err = run(capsys, "gate", "JobManagedBy", "--binary", "1.36", "--emulated", "1e2", "--format", "json")
    document = json.loads(out)
    assert code == 2 and document["emulated"] is None and document["minCompatibility"] is None
    code, _, err = run(capsys, "gate", "JobManagedBy", "--binary", "1.36", "--emulated", "1e2")
    assert "emulated version: none" in err.splitlines()[0] and "1.36 emulating 1.36" not in err


@pytest.mark.parametrize(("flags", "line"), GATE_REFUSALS[:3])
def test_timeline_refuses_what_gates_refuses(capsys, flags, line):
    code, out, err = run(capsys, "timeline", "--binary", "1.36", *flags)
    assert code == ExitStatus.REFUSED and out == ""
    assert line in errors_of(err)


def test_gate_and_timeline_answer_an_accepted_selection(capsys):
    code, out, _ = run(capsys, "gate", "JobManagedBy", "--binary", "1.36", "--emulated", "1.34")
    assert code == ExitStatus.OK and out.startswith("JobManagedBy (kube gate), binary 1.36 emulating 1.34")
    code, out, _ = run(capsys, "timeline", "--binary", "1.36", "--emulated", "1.34", "--format", "json")
    assert code == ExitStatus.OK and json.loads(out)["emulated"] == "1.34"


def test_skew_refuses_an_emulated_version_out_of_range(capsys):
    code, out, err = run(capsys, "skew", "--binary", "1.36", "--emulated", "1.30")
    assert code == ExitStatus.REFUSED and out == "" and "1.33..1.30" not in out + err
    code, _, gates_err = run(capsys, "gates", "--binary", "1.36", "--emulated", "1.30")
    assert errors_of(err) == errors_of(gates_err) == [
        "emulation version 1.30 is not between [1.33, 1.36.0]", "minCompatibilityVersion version 1.33 is not between [1.33, 1.30]",
    ]


@pytest.mark.parametrize(("flags", "line"), [
    (["--emulated", "1e2"], 'illegal version string "1e2"'),
    (["--emulated", "1.39"], "emulation version 1.39 is not between [1.33, 1.36.0]"),
    (["--min-compat", "1.20"], "minCompatibilityVersion version 1.20 is not between [1.33, 1.36]"),
    (["--emulated", "1.34.1"], "patch version not allowed, got: kube=1.34.1"),
])
def test_skew_reads_the_version_flags_as_the_binary_does(capsys, flags, line):
    code, out, _ = run(capsys, "skew", "--binary", "1.36", *flags, "--format", "json")
    document = json.loads(out)
    assert code == ExitStatus.REFUSED and document["verdict"] == "refuses" and line in document["errors"]


def test_skew_of_an_accepted_selection_and_a_release_without_data(capsys):
    code, out, _ = run(capsys, "skew", "--binary", "1.36", "--emulated", "1.34", "--format", "json")
    assert code == ExitStatus.OK and json.loads(out)["emulated"] == "1.34"
    code, out, _ = run(capsys, "skew", "--binary", "1.45", "--emulated", "1.43", "--format", "json")
    assert code == ExitStatus.OK and json.loads(out)["minCompatibility"] == "1.42"


def test_the_installed_command_refuses_too(manifest):
    """The same refusals from a real ``kcompat`` process."""
    for argv in (["scan", manifest, "--binary", "1.36", "--feature-gates", "Nope=true"],
                 ["gate", "JobManagedBy", "--binary", "1.36", "--emulated", "1.39"],
                 ["timeline", "--binary", "1.36", "--emulated", "1e2"],
                 ["skew", "--binary", "1.36", "--emulated", "1.30"]):
        done = subprocess.run([sys.executable, "-m", "kcompat", *argv], capture_output=True, text=True, check=False, timeout=120)
        assert done.returncode == 2, (argv, done.stderr)
        assert "error: " in done.stderr and "Traceback" not in done.stderr
