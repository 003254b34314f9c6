"""Imports flow one way, counting every import a module can run: at the top, inside functions and
under ``if TYPE_CHECKING:`` alike.

    kcompat.core        pure rules: imports nothing else of the project and no UI library
    kcompat.data        loaders: the core only (never answers, documents, the CLI or the app)
    kcompat.refresh     writers of data/ (refresh, the compiled bundle): core and data
    kcompat.answers     one function per question: core and data; never a document or a front end
    kcompat.documents   serialisers of what the answers return: answers and the core
    kcompat.cli         a front end: anything of kcompat, never the app
    dashboard           the Streamlit app: kcompat and itself; nothing outside it imports it

and no modules import each other, directly or through others. What still breaks a rule is listed
in ``KNOWN`` with the reason; the test fails when a listed import is gone, so the list only shrinks."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (ROOT / "kcompat", ROOT / "dashboard")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for package in PACKAGES for p in sorted(package.rglob("*.py"))}


def _resolve(module: str, node: ast.ImportFrom) -> list[str]:
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".")
    if node.level:
        base = base[: len(base) - node.level + (1 if is_package else 0)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    names = [f"{target}.{alias.name}" for alias in node.names]
    # `from . import x` names a submodule when one exists; otherwise it is an attribute of target
    return [n for n in names if n in MODULES] or [target]


def imports_of(module: str) -> set[str]:
    """Every module ``module`` imports anywhere in its text."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.update(_resolve(module, node))
    return found


def project_imports(module: str) -> set[str]:
    result = set()
    for name in imports_of(module):
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name and name != module:
            result.add(name)
    return result


GRAPH = {m: project_imports(m) for m in MODULES}


def _within(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


#: package -> the project packages it may import (besides itself); the root ``kcompat`` holds
#: only the version and DATA_DIR
ALLOWED = {
    "kcompat.core": (),
    "kcompat.data": ("kcompat.core",),
    "kcompat.answers": ("kcompat.core", "kcompat.data"),
    "kcompat.documents": ("kcompat.core", "kcompat.answers"),
    "kcompat.refresh": ("kcompat.core", "kcompat.data"),
    "kcompat.cli": ("kcompat",),
    "kcompat.__main__": ("kcompat.cli",),
    "dashboard": ("kcompat",),
}

#: (importer, imported): why it still breaks a rule. Remove an entry when the import goes.
KNOWN: dict[tuple[str, str], str] = {}


def _package(module: str) -> str:
    for package in sorted(ALLOWED, key=len, reverse=True):
        if _within(module, package):
            return package
    return module


def violations() -> set[tuple[str, str]]:
    found = set()
    for module, deps in GRAPH.items():
        if module == "kcompat":
            continue
        own = _package(module)
        for dep in deps:
            if _within(dep, own):
                continue
            if dep == "kcompat" and own != "kcompat.core":
                continue  # the version and DATA_DIR
            if not _within(dep, *ALLOWED[own]):
                found.add((module, dep))
    return found


def test_the_packages_have_the_modules_the_rules_speak_of():
    assert "kcompat.core.gates" in MODULES and "kcompat.cli.main" in MODULES and "dashboard.app" in MODULES
    assert any(m.startswith("dashboard.app_pages.") for m in MODULES)
    assert all(m == "kcompat" or _package(m) in ALLOWED for m in MODULES), [m for m in MODULES if _package(m) not in ALLOWED]


def test_inner_imports_are_read():
    """An import inside a function counts: the catalog reads the bundle only when asked."""
    assert "kcompat.data.bundle" in GRAPH["kcompat.data.catalog"]


def test_imports_flow_one_way():
    assert violations() == set(KNOWN), {
        "new": sorted(violations() - set(KNOWN)),
        "gone (remove from KNOWN)": sorted(set(KNOWN) - violations()),
    }


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("kcompat")])
def test_the_library_imports_no_ui_library_and_not_the_app(module):
    libraries = {n.split(".")[0] for n in imports_of(module)}
    assert not libraries & {"dashboard", "streamlit"}
    if _within(module, "kcompat.core"):
        assert not libraries & {"streamlit", "pandas", "altair", "vl_convert", "pyarrow"}


def test_no_import_cycles():
    # a module importing the package it lies in (its __init__) is not a cycle
    graph = {m: {d for d in deps if not m.startswith(d + ".")} for m, deps in GRAPH.items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(start: str) -> None:
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(child) == 1:
                cycles.append([*path[path.index(child):], child])
            elif child not in state:
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(graph[child]))))

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert cycles == []


#: question -> the core function that computes it: front ends ask kcompat.answers instead, so the
#: CLI and the pages get one answer from the same arguments
ANSWERED = {
    ("kcompat.core.apis", "evaluate_api_availability"): "kcompat.answers.apis.apis",
    ("kcompat.core.storage", "storage_versions"): "kcompat.answers.apis.storage",
    ("kcompat.core.skew", "skew_policy"): "kcompat.answers.skew.skew",
    ("kcompat.core.gate_history", "gate_segments"): "kcompat.answers.gate.gate_detail",
    ("kcompat.core.gate_history", "spec_changes"): "kcompat.answers.gate.gate_detail",
    ("kcompat.core.gate_history", "timeline_segments"): "kcompat.answers.timeline.timeline",
    ("kcompat.core.placeholders", "gate_starts"): "kcompat.answers.timeline.timeline",
}


@pytest.mark.parametrize("module", [m for m in MODULES if _within(m, "kcompat.cli", "dashboard")])
def test_front_ends_ask_the_answers_not_the_core(module):
    asked = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            for target in _resolve(module, node):
                asked.update((target, alias.name) for alias in node.names)
    assert not {f"{m}.{name}" for m, name in asked & set(ANSWERED)}


#: what reads or lists files: builtins, os functions, pathlib methods, and the data directory
FILE_CALLS = {"open"}
OS_FILE_FUNCTIONS = {"open", "read", "stat", "fstat", "lstat", "listdir", "scandir", "walk", "access", "readlink"}
PATH_METHODS = {"read_bytes", "read_text", "write_bytes", "write_text", "iterdir", "glob", "rglob", "exists", "is_file", "is_dir", "stat", "open"}


def file_access_in(module: str) -> list[str]:
    """Each place ``module`` touches the file system (line and what), or names the data directory."""
    found = []
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = {alias.name for alias in node.names} | ({node.module} if isinstance(node, ast.ImportFrom) and node.module else set())
            if names & {"pathlib", "shutil", "tempfile", "DATA_DIR"}:
                found.append(f"{node.lineno}: imports {sorted(names)}")
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FILE_CALLS:
                found.append(f"{node.lineno}: {func.id}()")
            elif isinstance(func, ast.Attribute):
                owner = func.value.id if isinstance(func.value, ast.Name) else None
                if (owner == "os" and func.attr in OS_FILE_FUNCTIONS) or (owner != "os" and func.attr in PATH_METHODS):
                    found.append(f"{node.lineno}: {owner or '...'}.{func.attr}()")
        elif isinstance(node, ast.Name) and node.id == "DATA_DIR":
            found.append(f"{node.lineno}: DATA_DIR")
    return found


def test_the_core_reads_no_files():
    """kcompat.core takes data and text as values: every read of a file is in kcompat.data (or a
    front end), so the rules answer the same for any source of the same data."""
    reads = {m: file_access_in(m) for m in MODULES if _within(m, "kcompat.core")}
    assert {m: r for m, r in reads.items() if r} == {}


def test_the_file_access_check_sees_reads():
    assert file_access_in("kcompat.data.files") and file_access_in("kcompat.data.apis")
