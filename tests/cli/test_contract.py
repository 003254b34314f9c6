"""One contract per kcompat/cli module (kcompat/cli/contract.py): each subcommand module registers
its arguments and runs with the catalog it is given, returning an ExitStatus; no module reaches
into argparse's or atexit's private parts."""

import ast
import inspect
import re
from pathlib import Path

import pytest

from kcompat.cli.contract import ExitStatus
from kcompat.cli.main import COMMANDS, main, subcommand

CLI = Path(__file__).resolve().parents[2] / "kcompat" / "cli"
ROOT = CLI.parents[1]
#: the modules of kcompat/cli that are no subcommand (contract.py says why)
NOT_SUBCOMMANDS = {"__init__", "main", "contract", "cmdline", "kubectl", "signals", "options"}


def test_every_module_is_one_subcommand_or_named_as_none():
    modules = {p.stem for p in CLI.glob("*.py")} - NOT_SUBCOMMANDS
    assert modules == {module for _, module, _ in COMMANDS}


@pytest.mark.parametrize("name", [name for name, _, _ in COMMANDS])
def test_each_subcommand_registers_and_runs_with_the_catalog_it_is_given(name):
    module = subcommand(name)
    register, run = inspect.signature(module.register), inspect.signature(module.run)
    assert list(register.parameters) == ["parser"]
    assert list(run.parameters) == ["args", "catalog"] and run.return_annotation == "ExitStatus"


class _Catalog:
    """A catalog that says so when it is asked anything."""

    def __getattr__(self, name):
        raise RuntimeError(f"the given catalog was asked for {name}")


@pytest.mark.parametrize(
    "argv",
    [
        ["gates", "--binary", "1.36"],
        ["gate", "JobManagedBy", "--binary", "1.36"],
        ["timeline", "--binary", "1.36"],
        ["versions", "--binary", "1.36"],
        ["plan", "--from", "1.33", "--to", "1.36"],
        ["apis", "--binary", "1.36"],
        ["storage", "--binary", "1.36"],
        ["changes", "--binary", "1.36", "--emulated", "1.35"],
        ["matrix"],
        ["config", "--binary", "1.36", "--emulated", "1.35"],
    ],
    ids=lambda argv: argv[0],
)
def test_the_answer_comes_from_the_catalog_given(argv, capsys, monkeypatch):
    monkeypatch.setenv("KCOMPAT_DEBUG", "1")  # the catch-all prints an exception's text only then (its type otherwise)
    assert main(argv, _Catalog()) is ExitStatus.REFUSED
    assert "RuntimeError: the given catalog was asked for" in capsys.readouterr().err


def _private_uses(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value.id if isinstance(node.value, ast.Name) else "..."
            if owner not in ("self", "os"):  # os._exit is os's public API
                found.append(f"{path.name}:{node.lineno}: {owner}.{node.attr}")
    return found


def test_no_private_argparse_or_atexit_use():
    assert [use for path in sorted(CLI.glob("*.py")) for use in _private_uses(path)] == []


def test_the_exit_statuses_are_documented():
    docs = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for status in ExitStatus:
        assert re.search(rf"\*\*{status.value}\*\* `{status.name}`", docs), status


def test_the_reserved_status_is_distinct():
    assert ExitStatus.NOT_READY not in (ExitStatus.OK, ExitStatus.DIFFERS, ExitStatus.REFUSED)
    assert len({s.value for s in ExitStatus}) == len(ExitStatus)


#: every option more than one subcommand takes: kcompat/cli/options.py defines each once
SHARED = ("--binary", "--emulated", "--emulated-version", "--min-compat", "--min-compatibility-version", "--feature-gates",
          "--runtime-config", "--emulation-forward-compatible", "--runtime-config-emulation-forward-compatible", "--component",
          "--format", "--search", "--show-defaults", "--kubeconfig", "--context")


def _option_definitions(path: Path) -> list[str]:
    """The option strings of every ``add_argument`` call in a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            found += [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
    return found


def test_each_shared_option_is_defined_in_options_only():
    elsewhere = {f"{path.name}: {flag}" for path in sorted(CLI.glob("*.py")) if path.name != "options.py"
                 for flag in _option_definitions(path) if flag in SHARED}
    assert elsewhere == set()
    from kcompat.cli import options

    defined = [flag for option in vars(options).values() if isinstance(option, options.Option) for flag in option.flags]
    assert sorted(defined) == sorted(SHARED)  # once each


def _option_help(name: str, capsys, monkeypatch) -> dict[str, str]:
    """``kcompat NAME --help``'s options: first spelling -> help text (one line each: wide columns)."""
    monkeypatch.setenv("COLUMNS", "1000")
    with pytest.raises(SystemExit):
        main([name, "--help"])
    found: dict[str, str] = {}
    flag = ""
    for line in capsys.readouterr().out.splitlines():
        match = re.match(r"  (--[a-z-]+)\S*(?: \S+)?(?:, --\S+(?: \S+)?)?(?:\s{2,}(\S.*))?$", line)
        if match:  # (a long option's help starts on the next line)
            flag = match[1]
            found[flag] = match[2] or ""
        elif flag and not found[flag] and line.startswith(" " * 8):
            found[flag] = line.strip()
    return found


def test_every_subcommand_describes_a_shared_option_with_its_one_text(capsys, monkeypatch):
    from kcompat.cli import options

    shared = {option.flags[0]: option for option in vars(options).values() if isinstance(option, options.Option)}
    seen: dict[str, set[str]] = {}
    for name, _, _ in COMMANDS:
        for flag, text in _option_help(name, capsys, monkeypatch).items():
            if flag in shared:
                assert text.startswith(shared[flag].help), (name, flag, text)  # the one text, a command's note after it
                seen.setdefault(flag, set()).add(name)
    assert {flag for flag, names in seen.items() if len(names) > 1} == set(shared)  # each taken by two subcommands or more


def test_a_repeatable_option_says_so_and_adds_up_where_the_subcommand_reads_every_occurrence(capsys, monkeypatch):
    assert "(default: the binary's own release; repeatable)" in _option_help("gates", capsys, monkeypatch)["--emulated"]
    assert "repeatable" not in _option_help("skew", capsys, monkeypatch)["--emulated"]
    from kcompat.cli.main import build_parser

    args = build_parser("gates").parse_args(["gates", "--feature-gates", "A=true", "--feature-gates", "B=false"])
    assert args.feature_gates == ["A=true", "B=false"]
    args = build_parser("skew").parse_args(["skew", "--binary", "1.35", "--emulated", "1.33", "--emulated", "1.34"])
    assert args.emulated == "1.34"
