"""kcompat matrix with filters: rows, columns, formats and the refusal of a bad value."""

import json

import pytest

from kcompat.cli.main import main


def run(capsys, *argv):
    code = main(["matrix", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def document(capsys, *argv):
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def names(doc):
    return [g["name"] for g in doc["gates"]]


def test_changed_to_ga_lists_the_kube_and_client_go_gates_that_became_ga(capsys, gates):
    doc = document(capsys, "--changed", "1.35:toGA")
    now = {g.name for g in gates("1.35").gates if g.stage.value == "GA"}
    before = {g.name for g in gates("1.34").gates if g.stage.value == "GA"}
    assert names(doc) == sorted(now - before)
    origins = {g["name"]: g["origin"] for g in doc["gates"]}
    assert origins["JobManagedBy"] == "kube" and origins["InformerResourceVersion"] == "client-go"
    assert doc["filter"]["changed"] == ["1.35:toGA"]
    assert doc["transitions"]["1.35"]["toGA"] == names(doc)
    assert doc["transitions"]["1.35"]["newAlpha"] == []  # transitions name the gates shown only


def test_a_gate_first_listed_in_1_36_is_new_there_not_graduated(capsys, catalog):
    """AllowServiceExternalIPs first appears in v1.36 already GA: it is new in 1.36 (at GA), and
    "graduated to GA in 1.36" does not list it; the new gates are exactly those no earlier bundled
    release lists, at Beta, GA or Deprecated."""
    to_ga = document(capsys, "--changed", "1.36:toGA")
    assert "AllowServiceExternalIPs" not in names(to_ga)
    new = document(capsys, "--changed", "1.36:new")
    earlier = set().union(*(catalog.manifest(r).by_name for r in new["releases"][: new["releases"].index("1.36")]))
    full = document(capsys)
    expected = sorted(n for n in catalog.manifest("1.36").by_name if n not in earlier and new_stage(full, n) not in ("Alpha", "PreAlpha"))
    assert names(new) == expected == new["transitions"]["1.36"]["new"]
    assert "AllowServiceExternalIPs" in expected and len(expected) == 17
    row = next(g for g in new["gates"] if g["name"] == "AllowServiceExternalIPs")
    assert row["releases"]["1.35"] is None and row["releases"]["1.36"]["stage"] == "GA"
    assert set(names(new)).isdisjoint(new["transitions"]["1.36"]["toGA"] + new["transitions"]["1.36"]["toBeta"])
    code, out, _ = run(capsys, "--changed", "1.36:new")
    assert code == 0 and "AllowServiceExternalIPs" in out


def new_stage(doc, name):
    return next((g["releases"]["1.36"]["stage"] for g in doc["gates"] if g["name"] == name), None)


def test_repeated_and_comma_separated_values_are_any_of(capsys):
    one = document(capsys, "--changed", "1.35:toGA,1.33:removed")
    two = document(capsys, "--changed", "1.35:toGA", "--changed", "1.33:removed")
    assert names(one) == names(two)
    ga = document(capsys, "--changed", "1.35:toGA")
    removed = document(capsys, "--changed", "1.33:removed")
    assert names(one) == sorted(set(names(ga)) | set(names(removed)))
    assert {g["name"] for g in one["removedGates"]} <= set(names(one)) and one["removedGates"]


def test_every_option_together(capsys):
    doc = document(capsys, "--search", "DRA", "--stage", "Beta", "--in-release", "1.36", "--origin", "kube", "--since", "1.35")
    assert doc["releases"] == ["1.35", "1.36", "1.37", "1.38"]
    assert names(doc) and all(g["releases"]["1.36"]["stage"] == "Beta" and g["origin"] == "kube" for g in doc["gates"])
    assert "DRAConsumableCapacity" in names(doc)
    assert list(doc["transitions"]) == ["1.35", "1.36", "1.37", "1.38"]


def test_columns_fit_a_terminal(capsys):
    code, out, _ = run(capsys, "--releases", "1.33,1.35", "--changed", "1.35:toGA")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["gate", "origin", "1.33", "1.35"]
    assert max(map(len, lines)) <= 100
    code, out, _ = run(capsys, "--since", "1.37", "--format", "csv")
    assert out.splitlines()[0] == "gate,origin,1.37,1.38 (pre-release)"
    code, full, _ = run(capsys)
    assert max(map(len, full.splitlines())) > 200  # every release: wider than a terminal


def test_client_go_origin_and_changed_only(capsys):
    doc = document(capsys, "--origin", "client-go", "--changed-only")
    assert names(doc) and {g["origin"] for g in doc["gates"]} == {"client-go"}
    for g in doc["gates"]:
        assert len({json.dumps(c, sort_keys=True) for c in g["releases"].values()}) > 1


def test_a_long_search_is_cut_like_the_search_box(capsys):
    doc = document(capsys, "--search", "x" * 100_000)
    assert doc["gates"] == [] and len(doc["filter"]["search"]) == 200


def test_an_empty_answer_is_not_an_error(capsys):
    code, out, _ = run(capsys, "--changed", "1.38:toGA", "--origin", "client-go", "--format", "csv")
    assert code == 0 and out.splitlines() == ["gate,origin,1.31,1.32,1.33,1.34,1.35,1.36,1.37,1.38 (pre-release)"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--changed", "1.35:toGAA"], '--changed "1.35:toGAA": "toGAA" is not one of newAlpha, new, toBeta, toGA, deprecated, removed, defaultFlipped, locked'),
        (["--changed", "1.35"], '--changed "1.35": expected RELEASE:KIND such as 1.35:toGA'),
        (["--changed", "1.30:toGA"], '--changed "1.30:toGA": "1.30" is not a bundled release (one of 1.31,'),
        (["--changed", "1.31:toGA"], "1.31 is the oldest bundled release"),
        (["--stage", "Bata"], '--stage "Bata": not one of Alpha, Beta, GA, Deprecated'),
        (["--stage", "Beta", "--in-release", "2.0"], '--in-release "2.0": not a bundled release'),
        (["--in-release", "1.35"], '--in-release "1.35" needs --stage'),
        (["--changed", ""], '--changed "": no value (give e.g. 1.35:toGA)'),
        (["--origin", ","], '--origin ",": no value'),
        (["--since", ""], '--since "": not a bundled release'),
        (["--changed", "\x1b[31m1.35:toGA"], '--changed "\\x1b[31m1.35:toGA": "\\x1b[31m1.35" is not a bundled release'),
        (["--origin", "kubernetes"], '--origin "kubernetes": not one of kube, client-go'),
        (["--releases", "1.33,1.99"], '--releases "1.99": not a bundled release'),
        (["--since", "1.2"], '--since "1.2": not a bundled release'),
        (["--since", "1.35", "--releases", "1.36"], "--releases and --since both choose the columns"),
    ],
)
def test_a_bad_value_is_named_and_exits_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_the_patch_list_says_which_patches_are_not_recorded(capsys, catalog):
    """1.35's recorded patches jump from 1.35.6 to 1.35.8: 1.35.7 is named, "not recorded" (the
    data gives no reason), in the JSON and on the summary line; a release without a gap has none."""
    doc = document(capsys, "--patches", "1.35")
    assert "1.35.7" not in doc["patches"] and {"1.35.6", "1.35.8"} <= set(doc["patches"])
    assert doc["notRecorded"] == ["1.35.7"] and doc["notRecordedWhy"].startswith("not recorded")
    code, _, err = run(capsys, "--patches", "1.35")
    assert code == 0 and "1.35.7 not recorded" in err
    assert document(capsys, "--patches", "1.36")["notRecorded"] == []
    assert document(capsys, "--patches", "1.33")["notRecorded"] == ["1.33.8", "1.33.10"]


def test_unrecorded_patches_rule():
    from kcompat.core.matrix import unrecorded_patches

    assert unrecorded_patches(["1.35.0", "1.35.6", "1.35.8"]) == tuple(f"1.35.{p}" for p in (1, 2, 3, 4, 5, 7))
    assert unrecorded_patches(["1.36.0", "1.36.1"]) == ()
    assert unrecorded_patches(["1.38.0-beta.0"]) == ()
