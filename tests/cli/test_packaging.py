"""The distribution: name kcompat, one version, both commands, the data installed beside the code."""

import importlib.metadata
import json
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

import kcompat

ROOT = Path(__file__).resolve().parents[2]


def test_installed_metadata_names_kcompat_with_the_package_version():
    dist = importlib.metadata.distribution("kcompat")
    assert dist.version == kcompat.__version__
    scripts = {ep.name: ep.value for ep in dist.entry_points if ep.group == "console_scripts"}
    assert scripts == {"kcompat": "kcompat.cli.main:run", "kubectl-kcompat": "kcompat.cli.kubectl:main"}


def test_the_version_is_written_once():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'version = {attr = "kcompat.__version__"}' in pyproject
    assert "\nversion = " not in pyproject.split("[project]")[1].split("[")[0]


def test_the_data_files_list_every_bundled_file():
    """pyproject's data-files patterns cover every file the catalog and the API data read."""
    import tomllib

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    listed = {p for target in patterns.values() for pattern in target for p in ROOT.glob(pattern)}
    # data/oracle/ holds the recordings of the real releases: inputs of `kcompat data refresh --oracle`
    # and of tests/oracle, read from a checkout, never by the installed commands
    data = {p for p in (ROOT / "data").rglob("*") if p.is_file() and "oracle" not in p.relative_to(ROOT / "data").parts}
    assert data <= listed, sorted(str(p.relative_to(ROOT)) for p in data - listed)


#: run in the fresh venv (no dependency installed): Streamlit is not there, and every module of
#: the library imports, or stops only at another dependency it declares (PyYAML, pandas, ...)
IMPORT_EVERY_MODULE = """
import importlib, importlib.util, json, pkgutil, sys
import kcompat
assert importlib.util.find_spec("streamlit") is None
imported, missing = [], {}
for m in pkgutil.walk_packages(kcompat.__path__, "kcompat."):
    if m.name == "kcompat.__main__":
        continue
    try:
        importlib.import_module(m.name)
        imported.append(m.name)
    except ModuleNotFoundError as exc:
        missing[m.name] = exc.name
loaded = sorted({m.split(".")[0] for m in sys.modules} & {"streamlit", "dashboard"})
print(json.dumps({"imported": imported, "missing": missing, "loaded": loaded}))
"""
#: what the library may stop at in a venv without its dependencies (never streamlit)
OTHER_DEPENDENCIES = {"yaml", "pandas", "altair", "vl_convert", "pyarrow", "playwright"}


def test_pip_install_gives_the_cli_alone_with_both_commands_and_the_data(tmp_path):
    """`pip install .` into a fresh venv: the CLI and its dependencies (PyYAML, kubernetes), no Streamlit,
    pandas, Altair or vl-convert (the dashboard extra), and the commands that need an extra say
    which. Built from a copy, so no build/ or egg-info lands in the checkout."""
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy(ROOT / "pyproject.toml", source)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "kcompat", source / "kcompat", ignore=ignore)
    shutil.copytree(ROOT / "dashboard", source / "dashboard", ignore=ignore)
    shutil.copytree(ROOT / "data", source / "data", ignore=ignore)
    shutil.copytree(ROOT / ".streamlit", source / ".streamlit", ignore=ignore)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    done = subprocess.run([bin_dir / "python", "-m", "pip", "install", "-q", str(source)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0 and ("No matching distribution" in done.stderr or "Could not find a version" in done.stderr):
        pytest.skip(f"no package index to build with: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stderr
    assert (bin_dir / "kcompat").exists() and (bin_dir / "kubectl-kcompat").exists()
    shown = subprocess.run([bin_dir / "python", "-m", "pip", "show", "kcompat"], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert f"Version: {kcompat.__version__}" in shown.stdout
    version = subprocess.run([bin_dir / "kcompat", "--version"], capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert version.startswith(f"kcompat {kcompat.__version__}\n") and "1.36 (v1.36.5)" in version
    assert str(env_dir / "share" / "kcompat" / "data") in version and "compiled bundle up to date" in version
    # the library and the CLI without Streamlit (nor any other dependency): every kcompat module imports
    imported = subprocess.run([bin_dir / "python", "-c", IMPORT_EVERY_MODULE], capture_output=True, text=True, cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    result = json.loads(imported.stdout)
    assert result["loaded"] == [] and {name.split(".")[0] for name in result["missing"].values()} <= OTHER_DEPENDENCIES, result
    assert {"kcompat.cli.main", "kcompat.answers.queries", "kcompat.core.gates", "kcompat.data.catalog"} <= set(result["imported"])
    gates = subprocess.run([bin_dir / "kubectl-kcompat", "gates", "--binary", "1.36", "--emulated", "1.33", "--format", "json"],
                           capture_output=True, text=True, cwd=tmp_path)
    assert gates.returncode == 0, gates.stderr
    assert '"emulated": "1.33"' in gates.stdout
    # what pip installed: the CLI, PyYAML and the Kubernetes client; the front ends' dependencies only with their extras
    installed = subprocess.run([bin_dir / "python", "-m", "pip", "list", "--format", "json"], capture_output=True, text=True, check=True)
    names = {d["name"].lower() for d in json.loads(installed.stdout)}
    assert "pyyaml" in names and not names & {"streamlit", "pandas", "altair", "vl-convert-python", "playwright", "numpy"}, names
    requires = subprocess.run([bin_dir / "python", "-c", "import importlib.metadata as m; print('\\n'.join(m.requires('kcompat')))"],
                              capture_output=True, text=True, check=True).stdout.splitlines()
    assert [r for r in requires if "extra ==" not in r] == ["PyYAML<7,>=6.0", "kubernetes<38,>=37"]
    assert any(r.startswith("streamlit") and 'extra == "dashboard"' in r for r in requires)
    assert any(r.startswith("playwright") and 'extra == "screenshots"' in r for r in requires)
    for command, extra in (("serve", "kcompat[dashboard]"), ("screenshots", "kcompat[screenshots]")):
        done = subprocess.run([bin_dir / "kcompat", command], capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 2 and f"pip install '{extra}'" in done.stderr and "Traceback" not in done.stderr, done.stderr
