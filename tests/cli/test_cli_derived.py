"""kcompat changes, matrix and plan: the JSON contracts on the bundled data, formats and refusals."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kcompat.cli.main import main
from kcompat.core.stages import Stage

ROOT = Path(__file__).resolve().parents[2]
CHANGES_KEYS = ["binary", "component", "emulated", "label", "against", "featureGates", "errors", "warnings", "changes"]
CHANGE_KEYS = ["name", "origin", "here", "there", "behaviour", "why"]
SIDE_KEYS = ["exists", "enabled", "stage", "locked"]


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def changes(capsys, *argv):
    code, out, _err = run(capsys, "changes", *argv, "--format", "json")
    return code, json.loads(out)


def test_changes_json_contract_against_the_real_release(capsys):
    code, doc = changes(capsys, "--binary", "1.33", "--emulated", "1.31", "--against", "release")
    assert code == 0 and list(doc) == CHANGES_KEYS
    assert doc["against"] == {"kind": "release", "binary": "1.31", "emulated": "1.31", "label": "a real 1.31 (v1.31.14)"}
    assert doc["label"] == "1.33 emulating 1.31"
    assert (doc["binary"], doc["emulated"], doc["featureGates"], doc["errors"]) == ("1.33", "1.31", "", [])
    for c in doc["changes"]:
        assert list(c) == CHANGE_KEYS and list(c["here"]) == SIDE_KEYS and list(c["there"]) == SIDE_KEYS
        assert c["here"] != c["there"] and c["why"]
        on = (c["here"]["enabled"], c["there"]["enabled"])
        assert c["behaviour"] == {(True, True): "same", (False, False): "same", (True, False): "on-here-only", (False, True): "on-there-only"}[on]
    chunking = next(c for c in doc["changes"] if c["name"] == "APIListChunking")
    assert chunking["behaviour"] == "same"
    assert chunking["here"] == {"exists": False, "enabled": True, "stage": None, "locked": None}


def test_changes_default_is_the_release_and_native_is_the_same_binary(capsys):
    code, doc = changes(capsys, "--binary", "1.36", "--emulated", "1.33")
    assert code == 0 and doc["against"]["kind"] == "release"
    code, doc = changes(capsys, "--binary", "1.36", "--emulated", "1.33", "--against", "native")
    assert doc["against"] == {"kind": "native", "binary": "1.36", "emulated": "1.36", "label": "1.36 (not emulating)"}
    job = next(c for c in doc["changes"] if c["name"] == "JobManagedBy")
    assert (job["here"]["stage"], job["there"]["stage"]) == ("Beta", "GA")


def test_changes_against_a_version_and_a_binary_at_an_emulated_version(capsys):
    code, doc = changes(capsys, "--binary", "1.36", "--emulated", "1.33", "--against", "1.34")
    assert code == 0 and doc["against"] == {"kind": "version", "binary": "1.34", "emulated": "1.34", "label": "a real 1.34 (v1.34.12)"}
    code, doc = changes(capsys, "--binary", "1.36", "--emulated", "1.33", "--against", "1.36@1.34")
    assert doc["against"] == {"kind": "version", "binary": "1.36", "emulated": "1.34", "label": "1.36 emulating 1.34"}


def test_the_same_feature_gates_apply_to_both_sides(capsys):
    code, doc = changes(capsys, "--binary", "1.33", "--emulated", "1.31", "--feature-gates", "AllBeta=false")
    assert code == 0 and doc["featureGates"] == "AllBeta=false"
    informers = next(c for c in doc["changes"] if c["name"] == "InOrderInformers")  # Beta on in the 1.33 binary: off with AllBeta=false
    assert informers["here"] == {"exists": True, "enabled": False, "stage": Stage.BETA.value, "locked": False}
    assert informers["behaviour"] == "on-there-only"


def test_a_side_refusing_the_flags_is_an_error_and_exit_2(capsys):
    code, doc = changes(capsys, "--binary", "1.33", "--emulated", "1.31", "--feature-gates", "ContainerStopSignals=true")
    assert code == 2
    assert [e.split(":")[0] for e in doc["errors"]] == ["1.33 emulating 1.31", "a real 1.31 (v1.31.14)"]
    assert doc["changes"]  # the sides at their defaults are still compared


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--binary", "1.36", "--emulated", "1.33", "--against", "2.0"], "--against release 2.0 has no bundled data"),
        (["--binary", "1.36", "--emulated", "1.33", "--against", "banana"], "is not native, release"),
        (["--binary", "1.36", "--emulated", "1.33", "--against", "1.36@1.34@1.33"], "is not native, release"),
        (["--binary", "1.36", "--emulated", "1.33", "--against", "1.35.0 lol"], "is not native, release"),
        (["--binary", "1.36", "--emulated", "1.30"], "emulation version 1.30 is not between"),
        (["--binary", "1.36", "--emulated", "1.33", "--against", "1.36@1.30"], "--against 1.36@1.30"),
        (["--binary", "nope"], "nope"),
    ],
)
def test_changes_refusals_are_documents_with_exit_2(capsys, argv, message):
    code, doc = changes(capsys, *argv)
    assert code == 2 and doc["changes"] == [] and any(message in e for e in doc["errors"]), doc["errors"]


@pytest.mark.parametrize(("fmt", "needle"), [("table", "behaviour"), ("csv", "name,origin,behaviour"), ("markdown", "| name |")])
def test_changes_text_formats(capsys, fmt, needle):
    code, out, err = run(capsys, "changes", "--binary", "1.33", "--emulated", "1.31", "--format", fmt)
    assert code == 0 and needle in out and "APIListChunking" in out
    assert "here: 1.33 emulating 1.31; there: a real 1.31 (v1.31.14)" in err


def test_matrix_json_contract(capsys, catalog):
    code, out, _ = run(capsys, "matrix", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and list(doc) == ["releases", "releaseData", "gates", "transitions", "removedGates", "filter", "removable", "patchTransitions"]
    assert doc["releases"] == list(catalog.usable_releases())
    chunking = next(g for g in doc["gates"] if g["name"] == "APIListChunking")
    assert chunking["releases"]["1.32"] == {"stage": "GA", "default": True, "locked": True}
    assert chunking["releases"]["1.33"] is None
    assert list(doc["transitions"]) == doc["releases"][1:]
    assert list(doc["transitions"]["1.35"]) == ["newAlpha", "new", "toBeta", "toGA", "deprecated", "removed", "defaultFlipped", "locked"]
    assert "APIListChunking" in doc["transitions"]["1.33"]["removed"]
    removed = next(r for r in doc["removedGates"] if r["name"] == "APIListChunking")
    assert (removed["lastRelease"], removed["removedIn"], removed["behaviour"]) == ("1.32", "1.33", "always on")


def test_matrix_table(capsys):
    code, out, _ = run(capsys, "matrix")
    assert code == 0 and out.splitlines()[0].split()[:3] == ["gate", "origin", "1.31"]


@pytest.mark.parametrize("target", ["2.0", "99.99"])
def test_plan_to_a_release_without_data_is_refused_at_once(target):
    # it used to loop forever: no path from 1.36 ever reaches 2.0 one minor at a time
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "plan", "--from", "1.36", "--to", target],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"kcompat: error: the target binary {target} has no bundled data (bundled releases: 1.31, ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert time.monotonic() - started < 30


def test_plan_json_steps_are_supported_one_minor_steps(capsys):
    code, out, _ = run(capsys, "plan", "--from", "1.33@1.32", "--to", "1.36", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["supported"] is True and doc["allowJumps"] is False
    binaries = [s["after"]["binary"] for s in doc["steps"] if s["kind"] == "binary"]
    assert binaries == ["1.34", "1.35", "1.36"]
    code, out, _ = run(capsys, "plan", "--from", "1.33@1.32", "--to", "1.36", "--format", "json", "--allow-multi-minor")
    doc = json.loads(out)
    assert doc["steps"][0]["after"]["binary"] == "1.35" and doc["steps"][0]["supported"] is False
