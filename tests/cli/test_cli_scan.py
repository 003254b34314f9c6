"""kcompat scan: files, directories and stdin, every format, exit codes fit for CI, hostile input."""

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kcompat.cli.main import main as kcompat

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "tests" / "samples" / "scan"
HELM = str(SAMPLES / "helm-render.yaml")


def run(capsys, *argv):
    code = kcompat(["scan", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_document(capsys):
    code, out, err = run(capsys, HELM, "--binary", "1.33", "--emulated", "1.31", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and err == ""
    assert list(doc) == [
        "binary", "emulated", "minCompatibility", "featureGates", "runtimeConfig", "emulationForwardCompatible",
        "runtimeConfigEmulationForwardCompatible", "valid", "errors", "warnings", "hints", "inputs", "summary", "objects",
    ]
    assert doc["summary"] == {"objects": 7, "served": 2, "notServed": 4, "notChecked": 1}
    assert doc["inputs"] == [{"file": HELM, "format": "YAML", "documents": 7, "objects": 7, "problem": None}]
    ingress = doc["objects"][1]
    assert ingress == {
        "file": HELM, "line": 9, "template": "web/templates/ingress.yaml", "apiVersion": "extensions/v1beta1", "kind": "Ingress",
        "name": "web", "namespace": "shop", "group": "extensions", "version": "v1beta1", "resource": "ingresses",
        "status": "not served", "why": "removed", "reason": ingress["reason"], "nearest": "networking.k8s.io/v1",
        "nearestKind": None, "nearestNote": "the replacement the data names",
        # data/apis/lifecycle.csv (extensions/v1beta1 Ingress): deprecated 1.14, removed 1.22
        "deprecatedIn": "1.14", "removedIn": "1.22", "replacement": "networking.k8s.io/v1 Ingress", "lifecycleRecorded": True,
        "lifecycle": "deprecated in 1.14 (deprecated at the emulated 1.31), removed in 1.22, replaced by networking.k8s.io/v1 Ingress",
    }
    crd = doc["objects"][-1]
    assert crd["status"] == "not checked" and (crd["deprecatedIn"], crd["lifecycleRecorded"], crd["lifecycle"]) == (None, None, None)


def test_a_served_object_says_it_is_deprecated_removed_in_and_replaced_by(capsys, tmp_path):
    """flowcontrol v1beta3 FlowSchema, served by a 1.33 binary emulating 1.31 (enabled by
    --runtime-config): deprecated in 1.29 (so at 1.31), removed in 1.32, replaced by
    flowcontrol.apiserver.k8s.io/v1 FlowSchema (data/apis/v1.33.yaml), in every format."""
    manifest = tmp_path / "fs.yaml"
    manifest.write_text("apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata:\n  name: x\n")
    args = (str(manifest), "--binary", "1.33", "--emulated", "1.31", "--runtime-config", "flowcontrol.apiserver.k8s.io/v1beta3=true")
    code, out, _ = run(capsys, *args, "--format", "json")
    [item] = json.loads(out)["objects"]
    assert code == 0 and item["status"] == "served"
    assert (item["deprecatedIn"], item["removedIn"], item["replacement"]) == ("1.29", "1.32", "flowcontrol.apiserver.k8s.io/v1 FlowSchema")
    words = "deprecated in 1.29 (deprecated at the emulated 1.31), removed in 1.32, replaced by flowcontrol.apiserver.k8s.io/v1 FlowSchema"
    assert item["lifecycle"] == words
    for fmt in ("table", "csv", "markdown"):
        code, out, _ = run(capsys, *args, "--all", "--format", fmt)
        assert code == 0 and words in out, fmt
    # at 1.28 it was not deprecated yet
    code, out, _ = run(capsys, str(manifest), "--binary", "1.31", "--emulated", "1.28", "--format", "json")
    assert "not yet deprecated at the emulated 1.28" in json.loads(out)["objects"][0]["lifecycle"]


def test_table_lists_what_is_not_served_and_the_summary_on_stderr(capsys):
    code, out, err = run(capsys, HELM, "--binary", "1.33", "--emulated", "1.31")
    lines = out.splitlines()
    assert code == 1 and lines[0].split() == ["where", "apiVersion", "kind", "name", "status", "reason", "nearest", "lifecycle"]
    assert len(lines) == 2 + 5  # 4 not served, 1 not checked; the served ones only with --all
    assert err == "# binary 1.33, emulated 1.31, min compatibility 1.31: 7 objects in 1 input; 2 served, 4 not served, 1 not checked\n"
    code, out, _ = run(capsys, HELM, "--binary", "1.33", "--emulated", "1.31", "--all", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 7 and rows[0]["where"] == f"{HELM} line 3 (web/templates/serviceaccount.yaml)"
    assert rows[1]["nearest"] == "networking.k8s.io/v1 Ingress (the replacement the data names)"
    code, out, _ = run(capsys, HELM, "--binary", "1.33", "--emulated", "1.31", "--format", "markdown")
    assert out.startswith("| where | apiVersion | kind | name | status | reason | nearest | lifecycle |\n|---|")


def test_exit_codes_for_ci(capsys, tmp_path):
    ok = tmp_path / "ok.yaml"
    ok.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n---\napiVersion: example.com/v1\nkind: Widget\n")
    assert run(capsys, str(ok), "--binary", "1.36")[0] == 0  # served, and a custom resource that is not checked
    assert run(capsys, HELM, "--binary", "1.36")[0] == 1
    code, _, err = run(capsys, str(ok), "--binary", "1.36", "--emulated", "1.30")
    assert code == 2 and "error: emulation version 1.30 is not between [1.33, 1.36.0]" in err and "hint: " in err
    code, _, err = run(capsys, str(ok), "--binary", "1.36", "--runtime-config", "nonsense/v1=true")
    assert code == 2 and "error: " in err
    code, _, err = run(capsys, str(ok), "--binary", "banana")
    assert code == 2 and "invalid binary version 'banana'" in err
    code, _, err = run(capsys, str(ok), str(tmp_path / "missing.yaml"))
    assert code == 2 and "missing.yaml: cannot read: No such file or directory" in err


def test_without_binary_the_newest_release_and_says_so(capsys):
    _code, out, err = run(capsys, HELM, "--format", "json")
    assert json.loads(out)["binary"] == "1.37"
    _, _, err = run(capsys, HELM)
    assert err.startswith("# binary 1.37 (the newest bundled release: --binary picks another), emulated 1.37")


def test_directories_stdin_and_links(capsys, tmp_path, monkeypatch):
    tree = tmp_path / "chart"
    (tree / "templates" / "nested").mkdir(parents=True)
    (tree / "templates" / "a.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n")
    (tree / "templates" / "nested" / "b.json").write_text('{"apiVersion": "batch/v1beta1", "kind": "CronJob"}')
    (tree / "README.md").write_text("apiVersion: not read\n")
    secret = tmp_path / "outside.yaml"
    secret.write_text("apiVersion: v1\nkind: Secret\n")
    os.symlink(secret, tree / "templates" / "link.yaml")
    os.symlink(tmp_path, tree / "loop")
    code, out, _err = run(capsys, str(tree), "--binary", "1.36", "--format", "json")
    doc = json.loads(out)
    assert [(i["file"].removeprefix(str(tree)), i["objects"]) for i in doc["inputs"] if not i["problem"]] == [
        ("/templates/a.yaml", 1), ("/templates/nested/b.json", 1),
    ]
    problems = {i["file"].removeprefix(str(tree)): i["problem"] for i in doc["inputs"] if i["problem"]}
    assert problems["/templates/link.yaml"].endswith("link.yaml: a symbolic link inside a directory, not followed (name it on the command line to read it)")
    assert "loop: a symbolic link inside a directory, not followed" in problems["/loop"]
    assert "Secret" not in out and code == 2  # a link not followed is said so: the scan is incomplete
    # stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n")))
    code, out, _ = run(capsys, "-", "--binary", "1.36", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["objects"][0]["file"] == "stdin" and doc["objects"][0]["nearest"] == "policy/v1"


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "kcompat", "scan", str(fifo)], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "a named pipe, not a regular file" in done.stderr


@pytest.mark.parametrize("fmt", ["table", "csv", "markdown", "json"])
def test_hostile_names_are_shown_never_obeyed(capsys, tmp_path, fmt):
    evil = tmp_path / "evil.yaml"
    evil.write_text('apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: "=cmd|\' /C calc\'!A0\\u001b[31m\\n| x | y |"}\n')
    code, out, _ = run(capsys, str(evil), "--binary", "1.36", "--format", fmt)
    assert code == 1 and "\x1b" not in out
    if fmt == "csv":
        assert next(iter(csv.DictReader(io.StringIO(out))))["name"].startswith("'=cmd")
    if fmt == "markdown":
        assert "\\| x \\| y \\|" in out
    if fmt == "table":
        assert "\\x1b[31m\\n" in out
    long = tmp_path / "long.yaml"
    long.write_text("# Source: " + "t" * 100_000 + "\napiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: " + "n" * 100_000 + "}\n")
    code, out, _ = run(capsys, str(long), "--binary", "1.36", "--format", fmt)
    assert code == 1 and len(out) < 4_000 and "(100,000 characters)" in out  # an echo never grows with the input
