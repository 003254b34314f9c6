"""The flags as users type them (issue 19): the binary's own flag names beside kcompat's short
forms, a pasted command line after ``--``, usage without arguments, and refused input printing
the errors and remedies without a 200-row table unless --show-defaults."""

import json

import pytest

from kcompat.cli.main import main as kcompat


def run(capsys, *argv):
    status = kcompat(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "short, real",
    [
        (["gates", "--binary", "1.36", "--emulated", "1.34", "--min-compat", "1.33"],
         ["gates", "--binary", "1.36", "--emulated-version", "1.34", "--min-compatibility-version", "1.33"]),
        (["apis", "--binary", "1.33", "--emulated", "1.31"], ["apis", "--binary", "1.33", "--emulated-version=1.31"]),
        (["storage", "--binary", "1.36", "--emulated", "1.34", "--min-compat", "1.33"],
         ["storage", "--binary", "1.36", "--emulated-version", "1.34", "--min-compatibility-version", "1.33"]),
        (["changes", "--binary", "1.36", "--emulated", "1.33"], ["changes", "--binary", "1.36", "--emulated-version", "1.33"]),
    ],
)
def test_real_flag_names_give_the_same_answer(capsys, short, real):
    status_short, out_short, _ = run(capsys, *short, "--format", "json")
    status_real, out_real, _ = run(capsys, *real, "--format", "json")
    assert status_short == status_real
    assert json.loads(out_short) == json.loads(out_real)
    assert json.loads(out_real)["emulated"] == short[short.index("--emulated") + 1]


def test_pasted_command_line_is_read_like_the_options(capsys):
    pasted = [
        "gates", "--binary", "1.34", "--format", "json", "--",
        "/usr/local/bin/kube-apiserver", "--advertise-address=10.0.0.1", "--emulated-version=1.33",
        "--feature-gates", "DRAPrioritizedList=true", "--etcd-servers=https://127.0.0.1:2379",
    ]
    status, out, err = run(capsys, *pasted)
    assert status == 0, err
    assert json.loads(out) == json.loads(run(capsys, "gates", "--binary", "1.34", "--emulated", "1.33",
                                             "--feature-gates", "DRAPrioritizedList=true", "--format", "json")[1])
    [gate] = [f for f in json.loads(out)["features"] if f["name"] == "DRAPrioritizedList"]
    assert gate["explicit"] and gate["enabled"] and gate["stage"] == "Alpha"  # emulating 1.33: alpha, set on


def test_pasted_command_line_refusal_gets_its_remedy(capsys):
    status, _, err = run(capsys, "gates", "--binary", "1.34", "--", "kube-apiserver", "--emulated-version=1.32",
                         "--feature-gates=DRAPrioritizedList=true")
    assert status == 2
    assert "error: cannot set feature gate DRAPrioritizedList to true, feature is PreAlpha at emulated version 1.32" in err
    assert "hint: DRAPrioritizedList appears in 1.33 (Alpha): emulate 1.33 or later" in err


def test_pasted_runtime_config_and_forward_compatibility_for_apis(capsys):
    line = ["--", "kube-apiserver", "--emulated-version=1.31", "--runtime-config=resource.k8s.io/v1beta1=true"]
    status, out, _ = run(capsys, "apis", "--binary", "1.33", "--format", "json", *line)
    assert status == 2 and json.loads(out)["hints"][0]["text"].startswith("resource.k8s.io/v1beta1 appears in 1.32")
    status, out, _ = run(capsys, "apis", "--binary", "1.33", "--format", "json", *line, "--runtime-config-emulation-forward-compatible")
    assert status == 0 and json.loads(out)["valid"]


def test_gates_answers_for_the_whole_pasted_kube_apiserver_line(capsys):
    """kube-apiserver's start-up: --runtime-config is checked as kcompat apis checks it."""
    status, _, err = run(capsys, "gates", "--binary", "1.33", "--", "kube-apiserver", "--runtime-config=resource.k8s.io/v1beta1=true")
    assert status == 0 and "error" not in err
    status, _, err = run(capsys, "gates", "--binary", "1.33", "--", "kube-apiserver", "--emulated-version=1.31",
                         "--runtime-config=resource.k8s.io/v1beta1=true")
    assert status == 2 and "error: cannot enable version resource.k8s.io/v1beta1 in runtime-config" in err


def test_a_kube_apiserver_flag_on_another_components_line_is_pflags_refusal(capsys):
    status, _, err = run(capsys, "gates", "--binary", "1.33", "--", "kube-controller-manager", "--runtime-config=apps/v1=true")
    assert status == 2
    assert "kcompat: error: unknown flag: --runtime-config (kube-controller-manager has no such flag: it is kube-apiserver's)" in err


def test_config_reads_a_pasted_line(capsys):
    status, out, _ = run(capsys, "config", "--binary", "1.33", "--", "kube-apiserver", "--emulated-version", "1.32",
                         "--runtime-config=resource.k8s.io/v1beta1=true")
    assert status == 0
    assert out.splitlines()[0] == "kube-apiserver --emulated-version=1.32 --runtime-config=resource.k8s.io/v1beta1=true"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["gates", "1.34"], "kcompat gates takes no argument '1.34'; paste a command line after --"),
        (["gates", "--", "kube-apiserver", "--emulated-version"], "the pasted command line: flag needs an argument: --emulated-version"),
        (["apis", "--binary", "1.33", "--", "kube-apiserver", "--emulation-forward-compatible=maybe"],
         'invalid argument "maybe" for "--emulation-forward-compatible" flag'),
        (["config", "--binary", "1.33", "--emulated", "1.31", "--", "kube-apiserver", "--emulated-version=1.32"],
         "--emulated-version is given twice: 1.31 before -- and 1.32 in the pasted command line"),
    ],
)
def test_bad_pasted_lines_get_a_message_not_a_traceback(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 2 and err.startswith("kcompat: error: ") and message in err
    assert "Traceback" not in err


def test_no_arguments_prints_usage(capsys):
    status, out, err = run(capsys)
    assert status == 0 and err == ""
    assert out.startswith("usage: kcompat")
    for command in ("gates", "versions", "apis", "inspect", "plan"):
        assert command in out


def test_refused_gates_print_errors_and_remedies_without_the_table(capsys):
    argv = ["gates", "--binary", "1.34", "--feature-gates", "CloudDualStackNodeIPs=true"]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("# binary 1.34, emulated 1.34, min compatibility 1.33 (refused: no gate table; --show-defaults prints the ")
    assert lines[1:] == [
        "error: unrecognized feature gate: CloudDualStackNodeIPs",
        "hint: CloudDualStackNodeIPs was removed in 1.32 after GA locked on (last listed by 1.31): always on in a 1.34 binary, "
        "drop it from --feature-gates",
    ]
    status, out, _ = run(capsys, *argv, "--show-defaults")
    assert status == 2 and out.splitlines()[0].split() == ["name", "enabled", "stage", "default", "locked", "explicit"]
    rows = len(out.splitlines()) - 2
    assert f"prints the {rows} gates it keeps" in lines[0]
    status, out, _ = run(capsys, *argv, "--format", "json")
    assert status == 2 and len(json.loads(out)["features"]) == rows  # JSON keeps today's content


def test_refused_apis_print_no_table_by_default(capsys):
    argv = ["apis", "--binary", "1.33", "--emulated", "1.31", "--runtime-config", "resource.k8s.io/v1beta1=true"]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert "hint: resource.k8s.io/v1beta1 appears in 1.32" in err
    status, out, _ = run(capsys, *argv, "--show-defaults")
    assert status == 2 and "flowschemas" in out
