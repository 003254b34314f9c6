"""Patch releases answer as themselves: the gates of every recorded patch (data/oracle/v1.N.P,
the real code's answers) decide ``--binary 1.N.P``; a plain ``1.N`` is the newest recorded patch."""

import json
import re

import pytest

from kcompat import DATA_DIR
from kcompat.cli.main import main as kcompat


def gates_json(capsys, *args):
    code = kcompat(["gates", *args, "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    return code, doc, {f["name"]: (f["enabled"], f["stage"], f["default"], f["locked"]) for f in doc["features"]}


def recorded(patch: str) -> dict:
    return {g["name"]: g for g in json.loads((DATA_DIR / "oracle" / f"v{patch}" / "gates.json").read_text())}


def test_1_35_0_and_1_35_4_differ_exactly_where_the_real_patches_differ(capsys):
    _, _, old = gates_json(capsys, "--binary", "1.35.0")
    _, _, new = gates_json(capsys, "--binary", "1.35.4")
    differing_answers = {name for name in old if old[name] != new.get(name)}
    a, b = recorded("1.35.0"), recorded("1.35.4")
    differing_specs = {name for name in a if a[name] != b.get(name)} | (set(a) ^ set(b))
    assert differing_answers == differing_specs == {"MaxUnavailableStatefulSet", "SchedulerAsyncAPICalls"}
    # v1.35.0 had both on by default at its own version; v1.35.4 has both off
    assert old["MaxUnavailableStatefulSet"][0] and old["SchedulerAsyncAPICalls"][0]
    assert not new["MaxUnavailableStatefulSet"][0] and not new["SchedulerAsyncAPICalls"][0]


def test_a_plain_release_is_its_newest_recorded_patch(capsys):
    _, _, plain = gates_json(capsys, "--binary", "1.35")
    _, _, newest = gates_json(capsys, "--binary", "1.35.8")
    assert plain == newest


@pytest.mark.parametrize("patch, used", [("1.35.7", "1.35.6"), ("1.35.99", "1.35.8")])
def test_an_unrecorded_patch_answers_as_the_nearest_earlier_one_and_says_so(capsys, patch, used):
    code, doc, answer = gates_json(capsys, "--binary", patch)
    _, _, expected = gates_json(capsys, "--binary", used)
    assert code == 0 and answer == expected
    assert any(f"{patch} is not a recorded patch release" in w and f"answered as {used}" in w for w in doc["warnings"])


def test_each_recorded_patch_is_listed_in_the_patch_file():
    text = (DATA_DIR / "features" / "patches-v1.35.yaml").read_text()
    listed = re.search(r"Patches recorded: ([0-9., ]+);", text).group(1).split(", ")
    folders = sorted(p.name[1:] for p in (DATA_DIR / "oracle").glob("v1.35.*"))
    assert listed == sorted(folders, key=lambda v: int(v.split(".")[2]))


# --- comparisons between patch releases: a patch given on either side is kept all the way ----------

PATCH_DIFFERENCES = ["MaxUnavailableStatefulSet", "SchedulerAsyncAPICalls"]


def changes(capsys, *args):
    code = kcompat(["changes", *args, "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    return code, doc


@pytest.mark.parametrize(
    "here, there, on_here",
    [("1.35.0", "1.35.8", True), ("1.35.8", "1.35.0", False), ("1.35", "1.35.0", False), ("1.35.0", "1.35", True)],
)
def test_two_patch_releases_differ_in_both_directions(capsys, here, there, on_here):
    code, doc = changes(capsys, "--binary", here, "--against", there)
    assert code == 0 and doc["errors"] == []
    assert [c["name"] for c in doc["changes"]] == PATCH_DIFFERENCES
    assert {c["behaviour"] for c in doc["changes"]} == {"on-here-only" if on_here else "on-there-only"}
    assert (doc["binary"], doc["against"]["binary"]) == (here, there)  # the patches as given, on both sides
    # each side named with its patch; a plain release names the patch it answers as
    named = {"1.35.0": "1.35.0", "1.35.8": "1.35.8", "1.35": "1.35 (v1.35.8"}
    assert doc["label"].startswith(named[here]) and doc["against"]["label"].startswith("a real " + named[there])
    for c in doc["changes"]:
        assert "the patch releases register different specs at 1.35" in c["why"]
        assert doc["label"] in c["why"] and doc["against"]["label"] in c["why"]


def test_a_patch_comparison_summary_names_both_patches(capsys):
    assert kcompat(["changes", "--binary", "1.35.8", "--against", "1.35.0"]) == 0
    err = capsys.readouterr().err
    assert err.splitlines()[0] == "# here: 1.35.8 (not emulating); there: a real 1.35.0; 2 gate(s) differ"


def test_an_emulated_patch_side_and_native_keep_the_patch(capsys):
    code, doc = changes(capsys, "--binary", "1.36", "--emulated", "1.35", "--against", "1.35.0@1.34")
    assert code == 0 and doc["against"] == {"kind": "version", "binary": "1.35.0", "emulated": "1.34", "label": "1.35.0 emulating 1.34"}
    # native: the same binary, its patch included (v1.35.0 has both gates on at its own version, v1.35.8 off)
    code, old = changes(capsys, "--binary", "1.35.0", "--emulated", "1.34", "--against", "native")
    assert old["against"]["binary"] == "1.35.0" and old["against"]["label"] == "1.35.0 (not emulating)"
    code, new = changes(capsys, "--binary", "1.35.8", "--emulated", "1.34", "--against", "native")
    there = {name: {c["name"]: c["there"]["enabled"] for c in d["changes"]} for name, d in (("old", old), ("new", new))}
    for gate in PATCH_DIFFERENCES:
        assert there["old"].get(gate) is True and there["new"].get(gate, False) is False


def test_an_unrecorded_patch_on_a_side_is_said(capsys):
    code, doc = changes(capsys, "--binary", "1.35.8", "--against", "1.35.7")
    assert code == 0 and doc["against"]["binary"] == "1.35.7"
    assert doc["against"]["label"] == "a real 1.35.7 (answered as v1.35.6)"  # the label names whose data answered
    assert any(w.startswith("a real 1.35.7 (answered as v1.35.6): 1.35.7 is not a recorded patch release") and "answered as 1.35.6" in w
               for w in doc["warnings"])


def test_a_side_of_an_unrecorded_patch_compares_the_patch_answering_for_it(capsys):
    """1.35.99 answers as v1.35.8 (the newest recorded): against 1.35.0 it differs where v1.35.8
    does, and each heading names what answered; a recorded patch is named by itself alone."""
    code, doc = changes(capsys, "--binary", "1.35.99", "--against", "1.35.0")
    assert code == 0 and sorted(c["name"] for c in doc["changes"]) == sorted(PATCH_DIFFERENCES)
    assert doc["label"] == "1.35.99 (answered as v1.35.8, not emulating)" and doc["against"]["label"] == "a real 1.35.0"


# --- one release's patches side by side: kcompat matrix --patches ---------------------------------


def test_matrix_patches_shows_each_recorded_patch_and_what_it_changed(capsys):
    assert kcompat(["matrix", "--patches", "1.35", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    folders = sorted((p.name[1:] for p in (DATA_DIR / "oracle").glob("v1.35.*")), key=lambda v: int(v.split(".")[2]))
    assert doc["release"] == "1.35" and doc["patches"] == folders and doc["base"] == folders[-1]
    cells = {g["name"]: {p: c and (c["stage"], c["default"]) for p, c in g["patches"].items()} for g in doc["gates"]}
    assert set(cells) == set(PATCH_DIFFERENCES)
    assert cells["SchedulerAsyncAPICalls"]["1.35.0"] == ("Beta", True) and cells["SchedulerAsyncAPICalls"]["1.35.1"] == ("Beta", False)
    assert cells["MaxUnavailableStatefulSet"]["1.35.3"] == ("Beta", True) and cells["MaxUnavailableStatefulSet"]["1.35.4"] == ("Beta", False)
    flipped = {patch: kinds["defaultFlipped"] for patch, kinds in doc["transitions"].items() if kinds["defaultFlipped"]}
    assert flipped == {"1.35.1": ["SchedulerAsyncAPICalls"], "1.35.4": ["MaxUnavailableStatefulSet"]}


def test_the_release_matrix_names_the_patch_that_changed_a_default(capsys):
    assert kcompat(["matrix", "--search", "SchedulerAsyncAPICalls", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["patchTransitions"]["1.35"]["1.35.1"]["defaultFlipped"] == ["SchedulerAsyncAPICalls"]
    assert kcompat(["matrix", "--search", "SchedulerAsyncAPICalls"]) == 0
    assert "# patch releases: 1.35: 1.35.1 default flipped: SchedulerAsyncAPICalls" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--patches", "1.35.2"], "give the release (1.35), not a patch"),
    (["--patches", "1.29"], "1.29 has no bundled data"),
    (["--patches", "nope"], "expected a bundled release"),
    (["--patches", "1.35", "--stage", "Beta"], "drop --stage"),
])
def test_matrix_patches_refuses_what_it_cannot_show(capsys, argv, message):
    assert kcompat(["matrix", *argv]) == 2
    assert message in capsys.readouterr().err


# --- the releases before 1.35, recorded the same way ---------------------------------------------


def test_a_1_34_patch_has_scheduler_async_api_calls_off_and_registers_the_patch_added_gate(capsys):
    code, doc, answer = gates_json(capsys, "--binary", "1.34.4")
    assert code == 0 and answer["SchedulerAsyncAPICalls"][0] is False and "StatefulSetSemanticRevisionComparison" in answer
    recorded = (DATA_DIR / "oracle" / "v1.34.4" / "gates.json").is_file()
    assert any("1.34.4 is not a recorded patch release" in w for w in doc["warnings"]) is not recorded


def test_v1_31_14_has_disable_node_kube_proxy_version_deprecated_and_off(capsys):
    code, doc, answer = gates_json(capsys, "--binary", "1.31.14")
    assert code == 0 and doc["warnings"] == []
    assert answer["DisableNodeKubeProxyVersion"] == (False, "Deprecated", False, False)
    assert "OrderedNamespaceDeletion" in answer
