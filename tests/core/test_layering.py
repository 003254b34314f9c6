"""Imports flow one way: the core imports nothing else of the project and no UI library, pages
and shared widgets never import the command line, and no two modules import each other (directly
or through others), counting the imports a module runs when it is loaded (top-level ones)."""

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


def imports_of(module: str, *, top_level_only: bool) -> set[str]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    if top_level_only:  # imports under `if TYPE_CHECKING:` never run
        nodes = [n for n in nodes if not (isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))]
        nodes = [c for n in nodes for c in ast.walk(n) if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.update(_resolve(module, node))
    return found


def _project_imports(module: str, *, top_level_only: bool) -> set[str]:
    result = set()
    for name in imports_of(module, top_level_only=top_level_only):
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name and name != module and name.startswith(("kcompat", "dashboard")):
            result.add(name)
    return result


def test_the_package_has_the_modules_the_rules_speak_of():
    assert "kcompat.core.gates" in MODULES and "kcompat.cli.main" in MODULES
    assert any(m.startswith("dashboard.app_pages.") for m in MODULES)


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("kcompat.core")])
def test_the_core_imports_only_the_core_and_no_ui_library(module):
    everything = imports_of(module, top_level_only=False)
    assert not {n.split(".")[0] for n in everything} & {"streamlit", "pandas", "altair", "vl_convert"}
    outside = {
        n for n in _project_imports(module, top_level_only=False) if not n.startswith("kcompat.core") and n != "kcompat"
    }
    assert outside == set()


@pytest.mark.parametrize(
    "module", [m for m in MODULES if m.startswith(("dashboard.app_pages", "dashboard.components", "kcompat.documents"))]
)
def test_pages_and_widgets_never_import_the_command_line(module):
    cli = {n for n in _project_imports(module, top_level_only=False) if n.startswith("kcompat.cli")}
    assert cli == set()


def test_no_import_cycles():
    graph = {m: _project_imports(m, top_level_only=True) for m in MODULES}
    # a package's __init__ importing its own submodules is not a cycle
    graph = {m: {d for d in deps if not m.startswith(d + ".")} for m, deps in graph.items()}
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
                cycles.append(path[path.index(child):] + [child])
            elif child not in state:
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(graph[child]))))

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert cycles == []
