"""The pages' "Same as the command line" lines (kcompat.documents.commands.same_as) read back by the
CLI's own parser give the page's selection: each value one argument, whatever it holds."""

import shlex

import pytest

from kcompat.cli.main import build_parser, main
from kcompat.documents.commands import same_as

HOSTILE = "AllBeta=false,Job ManagedBy='x' \"y\" $(rm -rf) `z`;|&"


def parsed(line: str):
    words = shlex.split(line)
    assert words[0] == "kcompat"
    return build_parser(words[1]).parse_args(words[1:])


@pytest.mark.parametrize("feature_gates", ["", "AllBeta=false", HOSTILE])
def test_gates_and_gate_lines(feature_gates):
    args = parsed(same_as("gates", binary="1.35.0", emulated="1.33", min_compat="1.32", feature_gates=feature_gates, format="json"))
    assert (args.binary, args.emulated, args.min_compat, args.format) == ("1.35.0", ["1.33"], ["1.32"], "json")
    assert args.feature_gates == ([feature_gates] if feature_gates else None)
    args = parsed(same_as("gate", "JobManagedBy", binary="1.36", emulated="1.33", min_compat=None, feature_gates=feature_gates, format="json"))
    assert (args.command, args.name, args.binary, args.emulated, args.min_compat) == ("gate", "JobManagedBy", "1.36", ["1.33"], None)


def test_timeline_line():
    args = parsed(same_as("timeline", binary="1.36", emulated="1.33", min_compat=None, stage=["PreAlpha", "Beta"],
                          search="dynamic resource", sort="stage at emulated", format="csv"))
    assert (args.binary, args.emulated, args.stage, args.search, args.sort, args.format) == (
        "1.36", ["1.33"], ["PreAlpha", "Beta"], "dynamic resource", "stage at emulated", "csv")


@pytest.mark.parametrize("efc", [False, True])
def test_apis_storage_skew_lines(efc):
    args = parsed(same_as("apis", binary="1.33", emulated="1.31", runtime_config="api/all=true,x=y z",
                          emulation_forward_compatible=efc, runtime_config_emulation_forward_compatible=False, format="json"))
    assert (args.binary, args.emulated, args.runtime_config) == ("1.33", ["1.31"], ["api/all=true,x=y z"])
    assert args.emulation_forward_compatible is efc and args.runtime_config_emulation_forward_compatible is False
    args = parsed(same_as("storage", binary="1.36", emulated="1.33", min_compat="", format="json"))
    assert (args.binary, args.emulated, args.min_compat) == ("1.36", "1.33", None)
    args = parsed(same_as("skew", binary="1.36", emulated="1.33", min_compat="1.32", format="csv"))
    assert (args.binary, args.emulated, args.min_compat) == ("1.36", "1.33", "1.32")


def test_changes_and_plan_lines():
    args = parsed(same_as("changes", binary="1.36", emulated="1.33", min_compat=None, feature_gates=HOSTILE, against="1.36@1.34"))
    assert (args.binary, args.emulated, args.feature_gates, args.against) == ("1.36", "1.33", HOSTILE, "1.36@1.34")
    args = parsed(same_as("plan", from_="1.33@1.32", to="1.36", allow_multi_minor=True))
    assert (args.start, args.target, args.allow_multi_minor) == ("1.33@1.32", "1.36", True)
    assert parsed(same_as("plan", from_="1.33", to="1.36", allow_multi_minor=False)).allow_multi_minor is False


def test_a_line_runs(capsys):
    line = same_as("gate", "JobManagedBy", binary="1.36", emulated="1.33", format="json")
    assert line == "kcompat gate JobManagedBy --binary 1.36 --emulated 1.33 --format json"
    assert main(shlex.split(line)[1:]) == 0 and '"name": "JobManagedBy"' in capsys.readouterr().out
