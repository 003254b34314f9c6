"""Output that does not grow with the input: 9,999 gates the binary does not know give every
command the first 20 errors, then "… and 9,979 more" (text) or ``errorsOmitted`` (JSON), in every
format, and no line longer than a message may be (kcompat.core.errors.MESSAGE_LIMIT)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kcompat.cli.main import main
from kcompat.core.errors import MAX_SHOWN, MESSAGE_LIMIT

#: 9,999 gates no release registers (79 kB: one --feature-gates value within its 100,000 characters)
UNKNOWN = ",".join(f"G{i}=1" for i in range(9_999))
MORE = "… and 9,979 more"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_small(out: str, err: str, lines: int) -> None:
    for text in (out, err):
        assert len(text.splitlines()) <= lines
        assert max((len(line) for line in text.splitlines()), default=0) <= MESSAGE_LIMIT + 100


TEXT = [
    (["config", "--binary", "1.36"], "kcompat: error: "),
    (["apis", "--binary", "1.36"], "error: "),
    (["apis", "--binary", "1.36", "--format", "markdown"], "error: "),
    (["apis", "--binary", "1.36", "--format", "csv"], "error: "),
    (["changes", "--binary", "1.36"], "error: "),
    (["changes", "--binary", "1.36", "--format", "csv"], "error: "),
    (["changes", "--binary", "1.36", "--format", "markdown"], "error: "),
    (["gates", "--binary", "1.36"], "error: "),
    (["gate", "JobManagedBy", "--binary", "1.36"], "error: "),
    (["scan", "-", "--binary", "1.36"], "error: "),
]


@pytest.mark.parametrize(("argv", "prefix"), TEXT, ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_text_shows_twenty_errors_then_a_count(capsys, monkeypatch, argv, prefix):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")))
    code, out, err = run(capsys, *argv, "--feature-gates", UNKNOWN)
    assert code == 2
    errors = [line.removeprefix(prefix) for line in err.splitlines() if line.startswith(prefix)]
    # changes: both sides refuse, each error once per side
    assert len(errors) == MAX_SHOWN + 1 and errors[-1] == (MORE if argv[0] != "changes" else "… and 19,978 more"), err[:2_000]
    assert_small(out, err, 80)


@pytest.mark.parametrize("argv", [
    ["config", "--binary", "1.36"], ["apis", "--binary", "1.36"], ["changes", "--binary", "1.36"],
    ["gates", "--binary", "1.36"], ["gate", "JobManagedBy", "--binary", "1.36"], ["timeline", "--binary", "1.36", "--emulated", "1.39"],
], ids=" ".join)
def test_json_keeps_twenty_errors_and_counts_the_rest(capsys, argv):
    flags = [] if argv[0] == "timeline" else ["--feature-gates", UNKNOWN]
    code, out, err = run(capsys, *argv, *flags, "--format", "json")
    document = json.loads(out)
    assert code == 2
    if argv[0] == "timeline":  # one error: nothing omitted, no count
        assert len(document["errors"]) == 1 and "errorsOmitted" not in document
        return
    assert len(document["errors"]) == MAX_SHOWN and document["errorsOmitted"] == (19_978 if argv[0] == "changes" else 9_979)
    assert document["errors"][0] == ("1.36 (not emulating): " if argv[0] == "changes" else "") + "unrecognized feature gate: G0"
    assert_small(out, err, 3_000)
    for key in ("warnings", "hints", "notReady"):
        assert len(document.get(key, [])) <= MAX_SHOWN


def test_plan_shows_twenty_errors_per_point(capsys):
    code, out, _ = run(capsys, "plan", "--from", "1.35", "--to", "1.36", "--feature-gates", UNKNOWN)
    points = out.count("**REFUSES TO START**")
    assert code == 2 and points >= 2 and out.count("- error: unrecognized feature gate: ") == points * MAX_SHOWN
    assert out.count(f"- error: {MORE}") == points and len(out.splitlines()) < 400
    code, out, _ = run(capsys, "plan", "--from", "1.35", "--to", "1.36", "--feature-gates", UNKNOWN, "--format", "json")
    document = json.loads(out)
    assert len(document["startup"]["errors"]) == MAX_SHOWN and document["startup"]["errorsOmitted"] == 9_979
    assert all(len(s["startup"]["errors"]) <= MAX_SHOWN for s in document["steps"] if s["startup"])


def test_the_feature_gates_value_is_echoed_cut(capsys):
    _, out, _ = run(capsys, "changes", "--binary", "1.36", "--feature-gates", UNKNOWN, "--format", "json")
    assert json.loads(out)["featureGates"].endswith(f"({len(UNKNOWN):,} characters)")


def test_the_warning_about_gated_storage_names_three_errors():
    done = subprocess.run([sys.executable, "-m", "kcompat", "apis", "--binary", "1.36", "--feature-gates", UNKNOWN],
                          capture_output=True, text=True, check=False, timeout=120)
    (warning,) = [line for line in done.stderr.splitlines() if line.startswith("warning: feature-gated REST storage")]
    assert warning.endswith("unrecognized feature gate: G2; and 9,996 more)") and len(warning) < 300
    assert done.returncode == 2 and len(done.stderr.splitlines()) < 60


def _cpu_of(argv: list[str]) -> tuple[subprocess.CompletedProcess[str], float]:
    """A real ``kcompat`` process and the CPU seconds it took."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "kcompat", *argv], capture_output=True, text=True, check=False, timeout=300)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return done, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def test_a_folder_of_50000_links_is_ten_problems_and_a_count(tmp_path):
    import os

    (tmp_path / "real.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    for i in range(50_000):
        os.symlink("real.yaml", tmp_path / f"link{i:05}.yaml")
    done, cpu = _cpu_of(["scan", str(tmp_path), "--format", "json"])
    document = json.loads(done.stdout)
    assert done.returncode == 2 and len(done.stdout) < 50_000 and cpu < 3  # was 22.6 MB
    links = [i for i in document["inputs"] if i["problem"] and "symbolic link" in i["problem"]]
    assert len(links) == 10 and document["inputs"][10]["problem"] == (
        "… and 49,990 more inputs that cannot be read (links, folders too deep, unreadable files)")
    assert [i["file"] for i in document["inputs"] if i["problem"] is None] == [str(tmp_path / "real.yaml")]
    assert len(document["errors"]) == 11 and document["summary"]["objects"] == 1
    done, _ = _cpu_of(["scan", str(tmp_path)])
    assert done.returncode == 2 and len(done.stderr.splitlines()) < 20
    assert done.stderr.splitlines()[-1] == "error: … and 49,990 more inputs that cannot be read (links, folders too deep, unreadable files)"


REPEATED = [f"--feature-gates=G{i}=true" for i in range(10_000)]


@pytest.mark.parametrize("command", ["versions", "storage", "skew", "timeline", "scan"])
def test_10000_repeated_binaries_take_under_a_second_in_every_subcommand(command):
    """Every subcommand reads its repeated flags in one pass, not only those that take
    --feature-gates: the last --binary wins, as argparse has it."""
    argv = [command, *["--binary", "1.30"] * 5_000, *["--binary", "1.36"] * 5_000]
    done, cpu = _cpu_of(argv)
    assert cpu < 1.0 and "Traceback" not in done.stderr, (cpu, done.stderr[-500:])
    assert "1.30" not in done.stderr  # the last one was read


@pytest.mark.parametrize("argv", [
    ["gates", "--binary", "1.36"], ["apis", "--binary", "1.36"], ["config", "--binary", "1.36"], ["changes", "--binary", "1.36"],
    ["gate", "JobManagedBy", "--binary", "1.36"], ["plan", "--from", "1.35", "--to", "1.36"],
], ids=lambda argv: argv[0])
def test_10000_repeated_feature_gates_take_under_a_second(argv):
    """argparse looked for the next option over every one left (10,000 squared: 2.7 s), its append
    copied its list at every value, and plan parsed the values 12 times: 3.4 s in all, now linear."""
    done, cpu = _cpu_of([*argv, *REPEATED])
    assert done.returncode == 2 and cpu < 1.0, (cpu, done.stderr[-500:])
    assert "unrecognized feature gate: G" in done.stderr + done.stdout and "Traceback" not in done.stderr


def test_repeated_flags_read_as_argparse_reads_them():
    from kcompat.cli.main import build_parser

    args = build_parser("gates").parse_args(["gates", "--feature-gates", "A=true", "--binary", "1.35", "--feature-gates=B=false",
                                             "--emulated", "1.34", "--feature-gates", "C=true", "--binary", "1.36"])
    assert args.feature_gates == ["A=true", "B=false", "C=true"] and args.binary == "1.36" and args.emulated == ["1.34"]
    # a flag that takes one value (config's): the last one, as argparse gives it
    assert build_parser("config").parse_args(["config", "--binary", "1.36", "--feature-gates", "A=true", "--feature-gates=B=true"]
                                             ).feature_gates == "B=true"
    # an abbreviation argparse expands, a value starting with "-": argparse reads that flag every time, in order
    assert build_parser("gates").parse_args(["gates", "--feature", "A=true", "--feature-gates", "B=true"]).feature_gates == ["A=true", "B=true"]
    assert build_parser("apis").parse_args(["apis", "--runtime-config", "a=true", "--runtime-config=-x"]).runtime_config == ["a=true", "-x"]
    # the pasted command line after -- is not folded: it is read as the binary reads it
    args = build_parser("gates").parse_args(["gates", "--feature-gates", "A=true", "--", "kube-apiserver", "--feature-gates=B=true"])
    assert args.feature_gates == ["A=true"] and args.command_line == ["kube-apiserver", "--feature-gates=B=true"]


def test_a_flag_the_command_does_not_have_is_still_refused():
    done, _ = _cpu_of(["skew", "--binary", "1.36", "--feature-gates", "A=true", "--feature-gates", "B=true"])
    assert done.returncode == 2 and "unrecognized arguments: --feature-gates B=true" in done.stderr


def test_thousands_of_other_options_are_refused_quickly():
    done, cpu = _cpu_of(["gates", "--binary", "1.36", *["--show-defaults"] * 5_000])
    assert done.returncode == 2 and cpu < 1.0
    assert "5,001 options before --, more than the 1,000 one command reads" in done.stderr


def test_inspect_json_bounds_its_lists_of_problems(tmp_path):
    """A command line with 5,000 unknown gates: inspect's own JSON keeps 20 errors and counts the rest."""
    line = tmp_path / "cmd.txt"
    line.write_text("kube-apiserver --feature-gates=" + ",".join(f"G{i}=true" for i in range(5_000)) + "\n")
    done, _ = _cpu_of(["inspect", "--binary", "1.36", str(line), "--format", "json"])
    doc = json.loads(done.stdout)
    assert done.returncode == 2 and len(doc["errors"]) == 20 and doc["errorsOmitted"] == 4_980, doc["errors"][:3]
    assert len(done.stdout) < 200_000
