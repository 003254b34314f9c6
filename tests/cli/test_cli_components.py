"""``--component``: each control-plane component answers with its own recorded gate set.

A 1.34 kube-controller-manager registers client-go's WatchListClient on by default (its main
overrides it); kube-apiserver and kube-scheduler have it off (data/oracle/v1.34.12/*/gates.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kcompat.cli.main import main as kcompat


def run(capsys, *argv):
    code = kcompat(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def watch_list(capsys, *argv):
    code, out, _ = run(capsys, "gates", "--format", "json", *argv)
    document = json.loads(out)
    return code, document, next((f["enabled"], f["default"]) for f in document["features"] if f["name"] == "WatchListClient")


@pytest.mark.parametrize("component, on", [("kube-apiserver", False), ("kube-controller-manager", True), ("kube-scheduler", False)])
def test_gates_answer_with_the_components_own_gate_set(capsys, component, on):
    code, document, state = watch_list(capsys, "--binary", "1.34", "--component", component)
    assert code == 0 and document["component"] == component and state == (on, on)


def test_the_default_is_kube_apiserver_and_a_pasted_command_line_names_the_component(capsys):
    _, document, state = watch_list(capsys, "--binary", "1.34")
    assert document["component"] == "kube-apiserver" and state == (False, False)
    _, document, state = watch_list(capsys, "--binary", "1.34", "--", "kube-controller-manager", "--emulated-version=1.33")
    assert document["component"] == "kube-controller-manager" and document["emulated"] == "1.33" and state == (True, True)
    code, _, err = run(capsys, "gates", "--binary", "1.34", "--component", "kube-scheduler", "--", "kube-controller-manager")
    assert code == 2 and "--component kube-scheduler, but the pasted command line runs kube-controller-manager" in err


def test_gates_say_where_another_component_differs(capsys):
    code, out, err = run(capsys, "gates", "--binary", "1.34")
    assert code == 0
    assert "note: kube-controller-manager differs from kube-apiserver here: WatchListClient on, Beta (here off, Beta)" in err
    assert "kube-scheduler differs" not in err
    _, out, _ = run(capsys, "gates", "--binary", "1.34", "--format", "json")
    components = {c["component"]: c for c in json.loads(out)["components"]}
    assert [d["name"] for d in components["kube-controller-manager"]["differences"]] == ["WatchListClient"]
    assert components["kube-scheduler"] == {"component": "kube-scheduler", "recorded": True, "differences": [], "errors": [], "note": None}


def test_a_component_not_recorded_for_the_release_is_refused_not_answered_with_kube_apiservers(capsys, tmp_path):
    import shutil

    from kcompat.data.catalog import Catalog

    copy = tmp_path / "data"
    shutil.copytree("data", copy, ignore=shutil.ignore_patterns("oracle"))
    releases = copy / "releases.yaml"
    releases.write_text(releases.read_text().replace("    components: features/components-v1.36.yaml\n", ""))
    code = kcompat(["gates", "--binary", "1.36", "--component", "kube-scheduler", "--format", "json"], catalog=Catalog(copy))
    document = json.loads(capsys.readouterr().out)
    assert code == 2 and document["features"] == [] and document["component"] == "kube-scheduler"
    assert document["errors"][0].startswith("kube-scheduler's gate set is not recorded for 1.36 (recorded for: 1.31, 1.32, 1.33, 1.34, 1.35, 1.37")


def test_an_unknown_component_is_an_argument_error(capsys):
    with pytest.raises(SystemExit) as exit_status:
        kcompat(["gates", "--binary", "1.34", "--component", "kube-proxy"])
    err = capsys.readouterr().err
    assert exit_status.value.code == 2
    assert "unknown component 'kube-proxy': expected one of kube-apiserver, kube-controller-manager, kube-scheduler" in err


def test_versions_are_the_same_for_every_component_without_the_forward_compatibility_flags(capsys):
    _, apiserver, _ = run(capsys, "versions", "--binary", "1.34", "--format", "json")
    _, scheduler, _ = run(capsys, "versions", "--binary", "1.34", "--component", "kube-scheduler", "--format", "json")
    apiserver, scheduler = json.loads(apiserver), json.loads(scheduler)
    assert (apiserver["component"], scheduler["component"]) == ("kube-apiserver", "kube-scheduler")
    assert apiserver["emulated"] == scheduler["emulated"] and apiserver["emulatedRange"] == scheduler["emulatedRange"]
    assert apiserver["forwardCompatibilityFlags"] is True and scheduler["forwardCompatibilityFlags"] is False


def test_changes_compare_the_components_gate_sets(capsys):
    code, out, err = run(capsys, "changes", "--binary", "1.34", "--emulated", "1.33", "--component", "kube-controller-manager")
    assert code == 0 and "WatchListClient" in out
    assert err.startswith("# kube-controller-manager: here: 1.34 emulating 1.33; there: a real 1.33")
    _, out, _ = run(capsys, "changes", "--binary", "1.34", "--emulated", "1.33")
    assert "WatchListClient" not in out


def test_config_checks_each_component_and_gives_one_components_flags(capsys):
    code, out, _ = run(capsys, "config", "--binary", "1.34", "--emulated", "1.33", "--feature-gates", "WatchListClient=false")
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == ["kube-apiserver", "kube-controller-manager", "kube-scheduler"]
    code, out, _ = run(capsys, "config", "--binary", "1.34", "--emulated", "1.33", "--component", "kube-scheduler", "--format", "json")
    document = json.loads(out)
    assert code == 0 and document["component"] == "kube-scheduler" and list(document["components"]) == ["kube-scheduler"]
    code, _, err = run(capsys, "config", "--binary", "1.34", "--component", "kube-scheduler", "--runtime-config", "api/all=true")
    assert code == 2 and "--runtime-config is kube-apiserver's only: kube-scheduler takes no such flag" in err


@pytest.mark.parametrize("command, what", [("apis", "built-in APIs"), ("storage", "storage versions")])
def test_apis_and_storage_are_kube_apiservers_only(capsys, command, what):
    code, _, err = run(capsys, command, "--binary", "1.34", "--component", "kube-controller-manager")
    assert code == 2 and f"{what} are kube-apiserver's only: kube-controller-manager serves no API" in err


def test_inspect_predicts_with_the_inspected_components_gate_set(tmp_path, capsys):
    record = json.loads(Path("data/oracle/v1.34.12/kube-controller-manager/live/1.34.json").read_text())
    metrics = tmp_path / "metrics.txt"
    metrics.write_text("\n".join(f'kubernetes_feature_enabled{{name="{n}",stage="{s}"}} {v}' for n, (s, v) in record["gates"].items()) + "\n")
    ps = tmp_path / "ps.txt"
    ps.write_text("root 1 0 kube-apiserver --emulated-version=1.34\nroot 2 0 kube-controller-manager --emulated-version=1.34\n")
    version = tmp_path / "version.json"
    version.write_text(json.dumps({"gitVersion": "v1.34.12", "major": "1", "minor": "34", "emulationMajor": "1", "emulationMinor": "34"}))
    code, out, _ = run(capsys, "inspect", str(ps), str(metrics), str(version), "--component", "kube-controller-manager", "--format", "json")
    document = json.loads(out)
    assert code == 0 and document["component"] == "kube-controller-manager" and document["observed"]["disagree"] == []
    assert document["sources"]["component"] == "--component kube-controller-manager"
    # kube-apiserver's gate set disagrees with kube-controller-manager's /metrics on WatchListClient
    code, out, _ = run(capsys, "inspect", str(metrics), str(version), "--format", "json")
    assert code == 1 and [d["name"] for d in json.loads(out)["observed"]["disagree"]] == ["WatchListClient"]
    # an input that describes another component alone is refused
    alone = tmp_path / "kcm.txt"
    alone.write_text("kube-controller-manager --emulated-version=1.34\n")
    code, out, _ = run(capsys, "inspect", str(alone), "--component", "kube-scheduler", "--format", "json")
    assert code == 2 and "not kube-scheduler (--component)" in json.loads(out)["errors"][0]
