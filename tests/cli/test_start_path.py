"""The quick commands start by design, not by patching: no module of the project rewrites a
standard-library module or puts an object into ``sys.modules``, and a ``kcompat gates`` answer on
input the binary accepts imports only what that answer needs (``bench/bench_cli_start.py``
measures the time: docs/cli.md, "Start-up")."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_RUN = """
import io, json, sys, types
from contextlib import redirect_stdout
from kcompat.cli.main import main
with redirect_stdout(io.StringIO()) as out:
    status = main(ARGV)
print(json.dumps({"status": int(status), "answer": json.loads(out.getvalue()) if out.getvalue().startswith("{") else None,
                  "modules": sorted(sys.modules),
                  "not_modules": sorted(name for name, m in sys.modules.items() if not isinstance(m, types.ModuleType))}))
"""


def _run(argv: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", _RUN.replace("ARGV", repr(argv))], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_an_accepted_gates_answer_imports_no_problem_kind_remedy_or_yaml():
    run = _run(["gates", "--binary", "1.36", "--emulated", "1.33", "--format", "json"])
    assert run["status"] == 0 and run["answer"]["valid"] is True and run["answer"]["features"]
    assert run["not_modules"] == []  # nothing stands in for a module
    loaded = set(run["modules"])
    assert "kcompat.core.gates" in loaded  # (the answer was computed here)
    assert not loaded & {"kcompat.core.problems", "kcompat.core.remedies", "yaml", "kcompat.cli.apis", "kcompat.cli.scan",
                       "kubernetes", "kcompat.data.live_config"}, loaded  # the Kubernetes client: on --live only
    # the values on the path are records (kcompat/core/record.py): no generated dataclass, so
    # neither dataclasses nor what it imports (inspect) is loaded, nor typing
    assert not loaded & {"dataclasses", "inspect", "typing"}, loaded & {"dataclasses", "inspect", "typing"}


def test_a_refused_answer_imports_the_problem_kinds_it_reports():
    run = _run(["gates", "--binary", "1.36", "--emulated", "1.20", "--format", "json"])
    assert run["status"] == 2 and run["answer"]["valid"] is False and run["answer"]["errors"]
    assert "kcompat.core.problems" in run["modules"] and run["not_modules"] == []


def _stdlib_patches(path: Path) -> list[str]:
    """Assignments into a standard-library module (``dataclasses.exec = ...``, ``sys.modules[x] =
    ...``) and ``sys.modules`` changed by a call, in one source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    stdlib = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            stdlib |= {(a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] in sys.stdlib_module_names}
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, ast.Subscript):
                target = target.value
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id in stdlib:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {target.value.id}.{target.attr} written")
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Attribute) and ast.unparse(target.value) == "sys.modules":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: sys.modules written")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and ast.unparse(node.func.value) == "sys.modules" \
                and node.func.attr in ("setdefault", "update", "pop", "__setitem__"):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: sys.modules.{node.func.attr}")
    return found


def test_no_module_patches_the_standard_library_or_sys_modules():
    sources = sorted([*(ROOT / "kcompat").rglob("*.py"), *(ROOT / "dashboard").rglob("*.py")])
    assert len(sources) > 100
    assert [hit for path in sources for hit in _stdlib_patches(path)] == []


def test_the_check_finds_a_patch():
    sample = ROOT / "tests" / "cli" / "test_start_path.py"  # this file writes none; a written one is found
    assert _stdlib_patches(sample) == []
    probe = Path(__file__).with_name("_probe_patch.py")
    probe.write_text("import dataclasses\nimport sys\ndataclasses.exec = print\nsys.modules['inspect'] = object()\n", encoding="utf-8")
    try:
        assert [hit.split(": ", 1)[1] for hit in _stdlib_patches(probe)] == ["dataclasses.exec written", "sys.modules written"]
    finally:
        probe.unlink()
