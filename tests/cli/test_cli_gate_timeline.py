"""kcompat gate, timeline and skew: refusals, formats and the parser's copies of the answers'
choices (the page-equals-CLI identity is in tests/app/test_page_cli_identity.py)."""

import csv
import io
import json

import pytest

from kcompat.cli import gate as gate_cli
from kcompat.cli import timeline as timeline_cli
from kcompat.cli.contract import ExitStatus
from kcompat.cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_parsers_choices_are_the_answers():
    from kcompat.answers.timeline import SORTS, STAGE_NAMES
    from kcompat.documents.gate import TABLES

    assert tuple(TABLES) == gate_cli.TABLES
    assert tuple(SORTS) == timeline_cli.SORTS and tuple(STAGE_NAMES) == timeline_cli.STAGES


def test_an_unknown_gate_is_refused_with_the_closest_name(capsys):
    code, out, err = run(capsys, "gate", "JobManagedBi", "--binary", "1.36")
    assert code is ExitStatus.REFUSED and out == ""
    assert 'feature gate "JobManagedBi"' in err and "did you mean JobManagedBy?" in err


def test_a_release_without_data_is_refused(capsys):
    code, _out, err = run(capsys, "gate", "JobManagedBy", "--binary", "1.99")
    assert code is ExitStatus.REFUSED and "no bundled data for release '1.99'" in err


def test_gate_csv_is_the_releases_table_unless_another_is_named(capsys):
    _code, releases, _err = run(capsys, "gate", "JobManagedBy", "--binary", "1.36", "--format", "csv")
    code, specs, _err = run(capsys, "gate", "JobManagedBy", "--binary", "1.36", "--format", "csv", "--table", "specs")
    assert code is ExitStatus.OK
    assert releases.splitlines()[0] == "release,data,listed,stage,default,locked,provenance"
    rows = list(csv.DictReader(io.StringIO(specs)))
    assert [row["stage"] for row in rows] == ["Alpha", "Beta", "GA"]
    assert [row["version"] for row in rows] == ["1.30", "1.32", "1.35"]


def test_gate_json_holds_the_selection_and_the_state(capsys):
    code, out, _err = run(capsys, "gate", "JobManagedBy", "--binary", "1.36", "--emulated", "1.33", "--format", "json")
    document = json.loads(out)
    assert code is ExitStatus.OK and document["name"] == "JobManagedBy"
    assert (document["binary"], document["emulated"]) == ("1.36", "1.33")
    assert (document["state"]["stage"], document["state"]["binaryStage"]) == ("Beta", "GA")


def test_timeline_filters_by_stage_and_reports_the_count(capsys):
    code, out, err = run(capsys, "timeline", "--binary", "1.36", "--stage", "Beta", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code is ExitStatus.OK and rows and {row["stage"] for row in rows} == {"Beta"}
    assert f": {len(rows)} of " in err


def test_timeline_search_and_json(capsys):
    code, out, _err = run(capsys, "timeline", "--binary", "1.36", "--search", "JobManagedBy", "--format", "json")
    document = json.loads(out)
    assert code is ExitStatus.OK and document["filter"] == {"stages": [], "search": "JobManagedBy"}
    assert document["shown"] == 1 and [row["gate"] for row in document["rows"]] == ["JobManagedBy"]


def test_an_unknown_stage_is_an_argument_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["timeline", "--stage", "Foo"])
    assert exit_.value.code == ExitStatus.REFUSED
    assert "invalid choice: 'Foo'" in capsys.readouterr().err


def test_skew_needs_a_binary(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["skew"])
    assert exit_.value.code == ExitStatus.REFUSED


def test_no_placeholder_version_is_printed_as_history_in_any_format(capsys):
    """AllowServiceExternalIPs: one spec dated 1.0 (a placeholder) in the data, first listed by
    v1.36: its history starts at 1.36 in the JSON (historyStart and the stretches alike) and in
    the table, CSV and Markdown, which say that nothing before it is recorded."""
    code, out, err = run(capsys, "timeline", "--search", "AllowServiceExternalIPs", "--format", "json")
    assert code == 0, err
    row = json.loads(out)["rows"][0]
    assert row["historyStart"]["placeholder"] == "1.0" and row["historyStart"]["start"] == "1.36"
    assert [(h["since"], h["until"]) for h in row["history"]] == [("1.36", "1.37")]
    expected = "before 1.36: not recorded; GA, default on, 1.36–1.37"
    for fmt in ("table", "csv", "markdown"):
        code, out, err = run(capsys, "timeline", "--search", "AllowServiceExternalIPs", "--format", fmt)
        assert code == 0 and expected in out and "1.0" not in out, (fmt, out)
    # the same for every gate of the newest binary: no stretch starts at a placeholder
    code, out, _ = run(capsys, "timeline", "--format", "json")
    rows = json.loads(out)["rows"]
    assert sum(r["historyStart"] is not None for r in rows) > 10
    assert all(h["since"] not in ("0.0", "1.0") for r in rows for h in r["history"])
    code, out, _ = run(capsys, "timeline", "--format", "csv")
    assert all(not cell.startswith(("0.0", "1.0")) for line in csv.reader(io.StringIO(out)) for cell in line[2].split(", "))
    # gate detail: its history too
    code, out, _ = run(capsys, "gate", "AllowServiceExternalIPs", "--format", "json")
    assert [(h["since"], h["until"]) for h in json.loads(out)["history"]] == [("1.36", "1.37")]


def test_gate_changes_for_an_older_binary_include_the_later_releases(capsys):
    """A 1.33 binary's manifest knows JobManagedBy up to Beta (1.32): the GA step of 1.35 comes
    from the newest manifest that lists it (1.37), each change naming its manifest."""
    code, out, err = run(capsys, "gate", "JobManagedBy", "--binary", "1.33", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["changesFrom"], doc["changesLaterFrom"]) == ("1.33", "1.37")
    assert [(c["release"], c["change"], c["after"], c["source"]) for c in doc["changes"]] == [
        ("1.30", "appeared", "Alpha off", "1.33"), ("1.32", "stage", "Beta", "1.33"), ("1.32", "default", "on", "1.33"),
        ("1.35", "stage", "GA", "1.37"), ("1.35", "locked", "on", "1.37"), ("1.38", "removed", "always on", ""),
    ]
    code, out, _ = run(capsys, "gate", "JobManagedBy", "--binary", "1.37", "--format", "json")
    assert json.loads(out)["changesLaterFrom"] is None  # nothing newer lists it
    code, out, _ = run(capsys, "gate", "JobManagedBy", "--binary", "1.33")
    assert "# What changed, release by release (1.33, later releases from 1.37)" in out


def test_a_description_is_one_line_without_a_literal_backslash_n(capsys, catalog):
    """data/features/descriptions.yaml keeps the Go comments' line breaks: the text summary flows
    them into one line (no "\\n" printed, no line started by the data); JSON keeps the text."""
    info = catalog.gate_info["AggregatedDiscoveryRemoveBetaType"]
    assert "\n" in info.description
    for fmt in ("table", "markdown"):
        code, out, _ = run(capsys, "gate", "AggregatedDiscoveryRemoveBetaType", "--binary", "1.33", "--format", fmt)
        assert code == 0 and "\\n" not in out
        [line] = [x for x in out.splitlines() if "description: " in x]
        assert line.endswith("Aggregated discovery implements its own handlers and follows a different lifecycle than traditional k8s resources.")
    code, out, _ = run(capsys, "gate", "AggregatedDiscoveryRemoveBetaType", "--binary", "1.33", "--format", "json")
    assert json.loads(out)["description"] == info.description


def test_a_control_character_in_a_description_is_escaped_not_obeyed():
    from kcompat.core.errors import printable
    from kcompat.documents.gate import flowed

    assert flowed("one\ntwo\r\nthree\tfour") == "one two three four"
    assert printable(flowed("red \x1b[31m text")) == "red \\x1b[31m text"
