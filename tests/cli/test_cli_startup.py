"""Will it start, and will it become ready, from the command line: kube-apiserver's refusals of its
options (exit 2, the binary's line and a remedy) and a start that never becomes ready (exit 3, the
reason and the remedy), for command lines pasted after ``--`` as the issue's users paste them, and
in every subcommand that answers the verdict (gates, apis, inspect, config, plan)."""

from __future__ import annotations

import json

import pytest

from kcompat.cli.contract import ExitStatus
from kcompat.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


APF = "error: --runtime-config=api/all=false conflicts with --enable-priority-and-fairness=true"


@pytest.mark.parametrize("binary", ["1.34", "1.37"])
def test_api_all_false_with_v1_names_priority_and_fairness_then_apiregistration(capsys, binary):
    line = ["--", "kube-apiserver", "--runtime-config=api/all=false,api/v1=true"]
    code, _, err = run(capsys, "gates", "--binary", binary, *line)
    assert code == ExitStatus.REFUSED == 2
    assert APF in err.splitlines()
    assert "hint: api/all=false also turns off flowcontrol.apiserver.k8s.io/v1" in err and "--enable-priority-and-fairness=false" in err
    code, _, err = run(capsys, "gates", "--binary", binary, *line, "--enable-priority-and-fairness=false")
    assert code == 2
    assert "error: API group/version apiregistration.k8s.io/v1 must be enabled" in err.splitlines()
    assert "hint: kube-aggregator cannot run without apiregistration.k8s.io/v1 apiservices, which --runtime-config turns off: " \
           "add apiregistration.k8s.io/v1=true to --runtime-config" in err


def test_authorize_node_with_selectors_alone_is_the_binarys_line(capsys):
    code, _, err = run(capsys, "gates", "--binary", "1.34", "--", "kube-apiserver", "--emulated-version=1.33",
                       "--feature-gates=AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false")
    assert code == 2
    assert "error: AuthorizeNodeWithSelectors feature requires AuthorizeWithSelectors feature to be enabled" in err.splitlines()


def test_not_ready_has_its_own_exit_status_reason_and_remedy(capsys):
    code, _, err = run(capsys, "gates", "--binary", "1.34", "--", "kube-apiserver", "--feature-gates=CoordinatedLeaderElection=true")
    assert code == ExitStatus.NOT_READY == 3
    assert "(kube-apiserver starts but does not become ready)" in err.splitlines()[0]
    (reason,) = [line for line in err.splitlines() if line.startswith("not ready: ")]
    assert "CoordinatedLeaderElection on at emulated version 1.34 needs coordination.k8s.io/v1beta1 (Lease, LeaseCandidate)" in reason
    assert "it kept failing to list *v1beta1.LeaseCandidate" in reason
    assert ("hint: add coordination.k8s.io/v1beta1=true to --runtime-config (the recorded start got ready with it), "
            "or drop CoordinatedLeaderElection=true from --feature-gates") in err
    code, _, err = run(capsys, "gates", "--binary", "1.34", "--", "kube-apiserver", "--feature-gates=CoordinatedLeaderElection=true",
                       "--runtime-config=coordination.k8s.io/v1beta1=true")
    assert code == 0 and "not ready" not in err


@pytest.mark.parametrize("gates", ["StorageVersionAPI=true", "AllAlpha=true"])
def test_storage_version_api_says_not_ready_with_the_reason(capsys, gates):
    code, out, _ = run(capsys, "gates", "--binary", "1.34", "--format", "json", "--", "kube-apiserver", f"--feature-gates={gates}")
    document = json.loads(out)
    assert code == 3 and document["verdict"] == "not-ready" and document["valid"] and document["readinessRecorded"] == "v1.34.12"
    (reason,) = document["notReady"]
    assert "StorageVersionAPI on at emulated version 1.34 needs internal.apiserver.k8s.io/v1alpha1 (StorageVersion)" in reason
    assert "v1.34.12 exited after about" in reason and "PostStartHook" in reason
    assert [h["kind"] for h in document["hints"]] == ["readiness"]


def test_no_api_fixes_it_below_the_release_it_appears_in(capsys):
    code, _, err = run(capsys, "gates", "--binary", "1.34", "--emulated", "1.31", "--feature-gates", "MultiCIDRServiceAllocator=true")
    assert code == 3
    assert "MultiCIDRServiceAllocator on at emulated version 1.31, whatever --runtime-config enables" in err
    assert "hint: no --runtime-config made the recorded start ready: drop MultiCIDRServiceAllocator=true from --feature-gates, " \
           "or emulate 1.33 or later" in err


def test_an_api_a_default_start_needs(capsys):
    code, out, _ = run(capsys, "apis", "--binary", "1.34", "--runtime-config", "admissionregistration.k8s.io/v1=false", "--format", "json")
    document = json.loads(out)
    assert code == 3 and document["verdict"] == "not-ready"
    assert document["notReady"][0].startswith(
        "kube-apiserver starts but does not become ready: --runtime-config turns off admissionregistration.k8s.io/v1, which it needs")
    assert document["hints"][0]["text"] == "drop admissionregistration.k8s.io/v1=false from --runtime-config"
    # flowcontrol's resources are needed by API Priority and Fairness only: off with it, it gets ready (recorded)
    code, _, _ = run(capsys, "apis", "--binary", "1.34", "--runtime-config", "flowcontrol.apiserver.k8s.io/v1=false",
                     "--enable-priority-and-fairness=false")
    assert code == 0
    code, _, err = run(capsys, "apis", "--binary", "1.34", "--runtime-config", "flowcontrol.apiserver.k8s.io/v1/flowschemas=false")
    assert code == 3 and "turns off flowcontrol.apiserver.k8s.io/v1/flowschemas" in err


def test_config_gives_no_snippet_that_would_not_become_ready(capsys):
    code, out, err = run(capsys, "config", "--binary", "1.34", "--feature-gates", "StorageVersionAPI=true", "--format", "kubeadm")
    assert code == 3 and out == ""
    assert "kcompat: not ready: kube-apiserver starts but does not become ready: StorageVersionAPI" in err
    assert "hint: add internal.apiserver.k8s.io/v1alpha1=true to --runtime-config" in err
    code, out, _ = run(capsys, "config", "--binary", "1.34", "--feature-gates", "StorageVersionAPI=true",
                       "--runtime-config", "internal.apiserver.k8s.io/v1alpha1=true", "--format", "json")
    document = json.loads(out)
    assert code == 0 and document["verdict"] == "starts" and document["snippets"]["kubeadm"]


def test_the_plan_flags_a_step_that_would_not_become_ready(capsys):
    code, out, _ = run(capsys, "plan", "--from", "1.33@1.31", "--to", "1.35", "--feature-gates", "MultiCIDRServiceAllocator=true",
                       "--format", "json")
    document = json.loads(out)
    assert code == 3
    first = document["steps"][0]
    assert first["title"].startswith("Upgrade the control-plane binaries 1.33 -> 1.34")
    assert first["startup"]["verdict"] == "not-ready" and "MultiCIDRServiceAllocator" in first["startup"]["notReady"][0]
    code, out, _ = run(capsys, "plan", "--from", "1.33@1.31", "--to", "1.35", "--feature-gates", "MultiCIDRServiceAllocator=true")
    assert "**STARTS BUT DOES NOT BECOME READY**: kube-apiserver 1.34 emulating 1.31 with these flags:" in out


def test_inspect_reads_the_option_flags_and_says_not_ready(capsys, tmp_path):
    manifest = tmp_path / "ps.txt"
    manifest.write_text("root 1 0 kube-apiserver --feature-gates=CoordinatedLeaderElection=true --enable-priority-and-fairness=true\n")
    version = tmp_path / "version.json"
    version.write_text(json.dumps({"major": "1", "minor": "34", "gitVersion": "v1.34.12", "emulationMajor": "1", "emulationMinor": "34",
                                   "minCompatibilityMajor": "1", "minCompatibilityMinor": "33"}))
    code, out, _ = run(capsys, "inspect", str(manifest), str(version), "--format", "json")
    document = json.loads(out)
    assert code == 3 and document["valid"]
    assert document["startup"] == "this kube-apiserver would start but not become ready"
    assert document["apiserverFlags"] == [["enable-priority-and-fairness", "true"]]
    assert "CoordinatedLeaderElection" in document["notReady"][0]
    code, out, _ = run(capsys, "inspect", str(manifest), str(version))
    assert out.startswith("# Not ready: this kube-apiserver would start but not become ready\n")
    manifest.write_text("root 1 0 kube-apiserver --runtime-config=api/all=false,api/v1=true\n")
    code, out, _ = run(capsys, "inspect", str(manifest), str(version), "--format", "json")
    assert code == 2 and json.loads(out)["errors"] == ["--runtime-config=api/all=false conflicts with --enable-priority-and-fairness=true"]
