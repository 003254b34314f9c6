"""kcompat gates --columns description,since,until: the kubernetes.io feature-gates table's columns,
read from the data (descriptions.yaml and the binary's specs)."""

import csv
import io
import json

import pytest

from kcompat.cli.main import main


def run(capsys, *argv):
    code = main(["gates", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_description_since_and_until_from_the_data(capsys, catalog):
    """JobManagedBy in a 1.33 binary emulating 1.31: Alpha since 1.30 until 1.32 (Beta), as its
    specs in data/features/v1.33.yaml say; the description is descriptions.yaml's, on one line."""
    code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--search", "JobManagedBy", "--columns", "description,since,until",
                       "--format", "csv")
    [row] = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and list(row)[-3:] == ["description", "since", "until"]
    assert (row["stage"], row["since"], row["until"]) == ("Alpha", "1.30", "1.32 (Beta)")
    assert row["description"] == catalog.gate_info["JobManagedBy"].description
    code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--search", "JobManagedBy", "--columns", "until", "--format", "json")
    [feature] = json.loads(out)["features"]
    assert (feature["stageSince"], feature["stageUntil"], feature["nextStage"]) == ("1.30", "1.32", "Beta")


def test_a_placeholder_stage_is_not_recorded_and_a_later_gate_not_introduced(capsys):
    code, out, _ = run(capsys, "--search", "AllowServiceExternalIPs", "--columns", "since,until", "--format", "csv")
    [row] = list(csv.DictReader(io.StringIO(out)))
    assert (row["since"], row["until"]) == ("not recorded", "no later stage in the specs")  # its one spec is dated 1.0
    code, out, _ = run(capsys, "--binary", "1.33", "--emulated", "1.31", "--search", "DRAAdminAccess", "--columns", "since,until",
                       "--format", "csv")
    [row] = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and (row["stage"], row["since"], row["until"]) == ("PreAlpha", "not introduced", "1.32 (Alpha)")


def test_descriptions_are_one_line_and_the_default_output_is_unchanged(capsys):
    code, out, _ = run(capsys, "--binary", "1.33", "--columns", "description")
    assert code == 0 and "\\n" not in out
    assert len(out.splitlines()) == len(run(capsys, "--binary", "1.33")[1].splitlines())
    assert "description" not in run(capsys, "--binary", "1.33")[1].splitlines()[0]
    code, out, _ = run(capsys, "--binary", "1.33", "--format", "json")
    assert "description" not in json.loads(out)["features"][0]


def test_an_unknown_column_is_refused(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["gates", "--columns", "owner"])
    assert exc.value.code == 2
    assert "expected some of description, since, until" in capsys.readouterr().err
