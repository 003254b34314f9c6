"""A good start is said in words: ``kcompat gates`` and ``kcompat apis`` end their text output
with ``verdict: ... starts and becomes ready, as recorded starts of v1.N.P show`` (stderr, beside
the ``error:`` and ``not ready:`` lines), ``kcompat inspect`` starts its text with ``# Verdict:``;
with the evidence, or the honest "readiness not recorded for this release". A refusal or a start
that does not become ready has no such line; JSON and CSV are unchanged; exit statuses too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kcompat.cli.main import main
from kcompat.data.catalog import DEFAULT_CATALOG, Catalog

DATA = Path(__file__).resolve().parents[2] / "data"
READY_136 = "verdict: kube-apiserver 1.36 emulating 1.33 starts and becomes ready, as recorded starts of v1.36.5 show"


def run(capsys, *argv: str, catalog: Catalog = DEFAULT_CATALOG) -> tuple[int, str, str]:
    code = main(list(argv), catalog)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def unrecorded(tmp_path_factory) -> Catalog:
    """The bundled data without the recorded starts of 1.36 (data/startup/v1.36.json)."""
    root = tmp_path_factory.mktemp("data")
    for item in DATA.iterdir():
        if item.name != "startup":
            (root / item.name).symlink_to(item)
    (root / "startup").mkdir()
    for rules in (DATA / "startup").iterdir():
        if rules.name != "v1.36.json":
            (root / "startup" / rules.name).symlink_to(rules)
    return Catalog(root)


def verdicts(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("verdict:")]


def test_gates_says_a_good_start_last_with_its_evidence(capsys):
    code, out, err = run(capsys, "gates", "--binary", "1.36", "--emulated", "1.33")
    assert code == 0 and err.splitlines()[-1] == READY_136 and verdicts(err) == [READY_136]
    assert "verdict" not in out  # the table on stdout is unchanged
    code, _, err = run(capsys, "gates", "--binary", "1.34")
    assert code == 0 and err.splitlines()[-1] == "verdict: kube-apiserver 1.34 starts and becomes ready, as recorded starts of v1.34.12 show"


def test_gates_refused_or_not_ready_has_no_verdict_line(capsys):
    code, _, err = run(capsys, "gates", "--binary", "1.34", "--emulated", "1.30")
    assert code == 2 and "error: " in err and verdicts(err) == []
    code, _, err = run(capsys, "gates", "--binary", "1.34", "--emulated", "1.30", "--show-defaults")
    assert code == 2 and verdicts(err) == []
    code, _, err = run(capsys, "gates", "--binary", "1.34", "--feature-gates", "CoordinatedLeaderElection=true")
    assert code == 3 and "not ready: " in err and verdicts(err) == []
    code, _, err = run(capsys, "gates", "--binary", "1.34", "--feature-gates", "CoordinatedLeaderElection=true",
                       "--runtime-config", "coordination.k8s.io/v1beta1=true")
    assert code == 0 and verdicts(err) == ["verdict: kube-apiserver 1.34 starts and becomes ready, as recorded starts of v1.34.12 show"]


def test_gates_readiness_not_recorded_is_said(capsys, unrecorded):
    code, _, err = run(capsys, "gates", "--binary", "1.36", "--emulated", "1.33", catalog=unrecorded)
    assert code == 0
    assert verdicts(err) == ["verdict: kube-apiserver 1.36 emulating 1.33 starts; readiness not recorded for this release"]


@pytest.mark.parametrize("component", ["kube-scheduler", "kube-controller-manager"])
def test_gates_of_another_component_says_what_is_known(capsys, component):
    code, _, err = run(capsys, "gates", "--binary", "1.36", "--emulated", "1.34", "--component", component)
    assert code == 0
    assert verdicts(err) == [f"verdict: {component} 1.36 emulating 1.34 starts: it accepts these version flags and --feature-gates; "
                             "its readiness is not recorded (the recorded starts are kube-apiserver's)"]


def test_machine_output_is_unchanged(capsys):
    code, out, err = run(capsys, "gates", "--binary", "1.36", "--emulated", "1.33", "--format", "json")
    document = json.loads(out)
    assert code == 0 and err == "" and document["verdict"] == "starts" and document["readinessRecorded"] == "v1.36.5"
    code, out, err = run(capsys, "gates", "--binary", "1.36", "--emulated", "1.33", "--format", "csv")
    assert code == 0 and out.startswith("name,") and "verdict" not in out and verdicts(err) == [READY_136]
    code, out, err = run(capsys, "apis", "--binary", "1.36", "--format", "json")
    assert code == 0 and err == "" and json.loads(out)["verdict"] == "starts"


def test_apis_says_a_good_start_last(capsys, unrecorded):
    code, out, err = run(capsys, "apis", "--binary", "1.36", "--emulated", "1.34")
    assert code == 0 and "verdict" not in out
    assert err.splitlines()[-1] == "verdict: kube-apiserver 1.36 emulating 1.34 starts and becomes ready, as recorded starts of v1.36.5 show"
    code, _, err = run(capsys, "apis", "--binary", "1.34", "--runtime-config", "admissionregistration.k8s.io/v1=false")
    assert code == 3 and verdicts(err) == []
    code, _, err = run(capsys, "apis", "--binary", "1.37", "--runtime-config", "api/all=false,api/v1=true")
    assert code == 2 and verdicts(err) == []
    code, _, err = run(capsys, "apis", "--binary", "1.36", catalog=unrecorded)
    assert code == 0 and verdicts(err) == ["verdict: kube-apiserver 1.36 starts; readiness not recorded for this release"]


def test_inspect_says_a_good_start_first(capsys, tmp_path, unrecorded):
    line = tmp_path / "cmd.txt"
    line.write_text("kube-apiserver --emulated-version=1.33\n")
    code, out, _ = run(capsys, "inspect", "--binary", "1.36", str(line))
    assert code == 0
    assert out.splitlines()[0] == "# Verdict: kube-apiserver 1.36 emulating 1.33 starts and becomes ready, as recorded starts of v1.36.5 show"
    code, out, _ = run(capsys, "inspect", "--binary", "1.36", str(line), "--format", "markdown")
    assert code == 0 and out.splitlines()[0].startswith("## Verdict: kube-apiserver 1.36 emulating 1.33 starts and becomes ready")
    code, out, _ = run(capsys, "inspect", "--binary", "1.36", str(line), catalog=unrecorded)
    assert code == 0 and out.splitlines()[0] == "# Verdict: kube-apiserver 1.36 emulating 1.33 starts; readiness not recorded for this release"
    code, out, _ = run(capsys, "inspect", "--binary", "1.36", str(line), "--format", "json")
    document = json.loads(out)
    assert code == 0 and document["gates"]["verdict"] == "starts" and document["verdictText"] == READY_136.removeprefix("verdict: ")
    line.write_text("kube-apiserver --feature-gates=CoordinatedLeaderElection=true\n")
    code, out, _ = run(capsys, "inspect", "--binary", "1.34", str(line))
    assert code == 3 and out.startswith("# Not ready: ") and "Verdict" not in out
    code, out, _ = run(capsys, "inspect", "--binary", "1.34", str(line), "--format", "json")
    assert code == 3 and json.loads(out)["verdictText"] is None
    line.write_text("kube-apiserver --emulated-version=1.30\n")
    code, out, _ = run(capsys, "inspect", "--binary", "1.34", str(line))
    assert code == 2 and out.startswith("# Refused: ") and "Verdict" not in out
    code, out, _ = run(capsys, "inspect", "--binary", "1.34", str(line), "--format", "json")
    assert code == 2 and json.loads(out)["verdictText"] is None


def test_inspect_of_the_scheduler_says_what_is_known(capsys, tmp_path):
    line = tmp_path / "cmd.txt"
    line.write_text("kube-scheduler --emulated-version=1.34\n")
    code, out, _ = run(capsys, "inspect", "--binary", "1.36", str(line))
    assert code == 0
    assert out.splitlines()[0] == ("# Verdict: kube-scheduler 1.36 emulating 1.34 starts: it accepts these version flags and "
                                   "--feature-gates; its readiness is not recorded (the recorded starts are kube-apiserver's)")


def test_a_custom_manifest_says_only_its_gates_were_checked(capsys, tmp_path):
    manifest = tmp_path / "m.yaml"
    manifest.write_text('- name: Widget\n  versionedSpecs:\n  - {default: false, lockToDefault: false, preRelease: Alpha, version: "1.30"}\n')
    code, _, err = run(capsys, "gates", "--manifest", str(manifest), "--binary", "1.36", "--emulated", "1.34")
    assert code == 0 and verdicts(err) == [
        "verdict: kube-apiserver 1.36 emulating 1.34 starts as far as its feature gates tell; "
        "its other start-up checks and its readiness are not checked with a custom manifest"]
    code, _, err = run(capsys, "gates", "--manifest", str(manifest), "--emulated", "1.34")
    assert code == 0 and verdicts(err)[0].startswith("verdict: kube-apiserver of the given manifest emulating 1.34 starts as far as")


@pytest.fixture(scope="module")
def without_api_data(tmp_path_factory) -> Catalog:
    """The bundled data without the API data of 1.36 (data/apis/v1.36.yaml)."""
    root = tmp_path_factory.mktemp("data")
    for item in DATA.iterdir():
        if item.name != "apis":
            (root / item.name).symlink_to(item)
    (root / "apis").mkdir()
    for part in (DATA / "apis").iterdir():
        if part.name != "v1.36.yaml":
            (root / "apis" / part.name).symlink_to(part)
    return Catalog(root)


def test_a_start_whose_readiness_is_unknown_does_not_claim_ready(capsys, without_api_data):
    """The APIs kube-apiserver needs could not be checked (no API data for the release): its
    readiness is recorded but not known for these flags, and the line says so."""
    code, _, err = run(capsys, "gates", "--binary", "1.36", "--emulated", "1.34", "--runtime-config", "api/alpha=true",
                       catalog=without_api_data)
    assert code == 0 and "warning: --runtime-config and the APIs kube-apiserver needs are not checked" in err
    assert verdicts(err) == ["verdict: kube-apiserver 1.36 emulating 1.34 starts; whether it becomes ready is not known with these flags "
                             "(the warnings say why)"]
    code, _, err = run(capsys, "gates", "--binary", "1.36", "--emulated", "1.34", catalog=without_api_data)
    assert code == 0 and verdicts(err)[0].endswith("starts and becomes ready, as recorded starts of v1.36.5 show")


def test_no_line_for_a_refusal_or_a_start_that_does_not_become_ready():
    from kcompat.documents.gates import starts_line

    assert starts_line("kube-apiserver", "1.36", "1.33", "starts", "v1.36.5") == READY_136.removeprefix("verdict: ")
    assert starts_line("kube-apiserver", "1.36", "1.33", "refuses", "v1.36.5") is None
    assert starts_line("kube-apiserver", "1.36", "1.33", "not-ready", "v1.36.5") is None
