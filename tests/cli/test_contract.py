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
NOT_SUBCOMMANDS = {"__init__", "main", "contract", "cmdline", "kubectl", "signals", "components", "fast_start"}


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
