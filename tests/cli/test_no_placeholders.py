"""No message is a template left unfilled or a value's stand-in: every text a set of commands prints
(tables, summaries, warnings, errors, hints) is scanned for ``{name}`` / ``%s`` placeholders,
Python reprs (``None``, ``<function ...>``, ``object at 0x...``) and a side named by its kind
(``there: version``, what ``kcompat changes`` once printed for a comparison with no difference).
Templates written without their ``f`` prefix are ruff's RUF027 (pyproject.toml)."""

import contextlib
import re
import shlex
from pathlib import Path

import pytest

from kcompat.cli.main import main

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "inspect"

#: what an unfilled or stand-in text looks like
PLACEHOLDER = re.compile(
    r"\{[A-Za-z_][A-Za-z0-9_.]*(?:![rsa])?(?::[^{}\s]*)?\}"  # str.format / f-string field
    r"|%[sdrf]\b|%\(\w+\)[sdr]"  # printf-style field
    r"|\bNone\b|object at 0x|<function |<bound method "  # a Python repr
    r"|\b(?:here|there): (?:version|release|native)\b"  # a side named by its kind
)

COMMANDS = [
    "gates --binary 1.36 --emulated 1.33",
    "gates --binary 1.36 --feature-gates JobManagdBy=true",
    "gates --binary 1.35.7",
    "gates --binary 1.36 --emulated 1.30",
    "versions --binary 1.36",
    "versions --binary 1.30",
    "apis --binary 1.33 --emulated 1.31 --runtime-config networking.k8s.io/v1beta1=true",
    "storage --binary 1.36 --emulated 1.33",
    "changes --binary 1.35.8 --against 1.35.0",
    "changes --binary 1.35.0 --against 1.35.8",
    "changes --binary 1.35 --against 1.35",  # no difference: the summary still names both sides
    "changes --binary 1.35 --against 1.35.7",
    "changes --binary 1.36 --emulated 1.33 --against native",
    "changes --binary 1.36 --emulated 1.33",
    "changes --binary 1.36 --emulated 1.33 --against 1.36@1.34",
    "changes --binary 1.36 --emulated 1.33 --feature-gates ContainerStopSignals=true",
    "changes --binary nope",
    "changes --binary 1.36 --against banana",
    "changes --binary 1.36 --against 2.0",
    "changes --binary 1.36 --emulated 1.30",
    "matrix --changed 1.35:toGA --since 1.34",
    "plan --from 1.33@1.32 --to 1.36",
    "plan --from 1.36 --to 1.33",
    f"inspect {SAMPLES / 'kube-apiserver.yaml'} {SAMPLES / 'version-1.36.2-emulating-1.34.json'}",
    f"inspect {SAMPLES / 'ps-kube-apiserver-1.32.txt'} {SAMPLES / 'version-1.32.0.json'}",
    f"inspect {SAMPLES / 'kind-cluster.yaml'}",
    f"inspect {SAMPLES / 'kubeadm-v1beta4.yaml'}",
    "config --binary 1.36 --emulated 1.34 --format kubeadm",
    "config --binary 1.36 --emulated 1.34",
]


#: each command in a table and, where it has one, in Markdown
CASES = [(c, fmt) for c in COMMANDS for fmt in (("table",) if c.startswith(("config", "versions")) else ("table", "markdown"))]


@pytest.mark.parametrize(("command", "fmt"), CASES)
def test_no_message_has_placeholder_text(capsys, command, fmt):
    argv = shlex.split(command) + ([] if fmt == "table" else ["--format", fmt])
    with contextlib.suppress(SystemExit):  # argparse's refusals
        main(argv)
    out = capsys.readouterr()
    found = {m.group() for m in PLACEHOLDER.finditer(out.out + out.err)}
    assert not found, (command, found, out.err[:500])


def test_the_pattern_finds_what_it_is_for():
    for text in ("# here: 1.35; there: version; 0 gate(s) differ", "gate {name} is off", "at None", "%s is off"):
        assert PLACEHOLDER.search(text), text
    for text in ("# here: 1.35.8 (not emulating); there: a real 1.35.0", "kind: {\"a\": 1}", "100% served"):
        assert not PLACEHOLDER.search(text), text
