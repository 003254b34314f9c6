"""mypy runs strict on every module of the core, the answers and the loaders: a new module there
is checked from its first commit (pyproject.toml lists the files mypy checks)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_core_answers_and_data_module_is_type_checked():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    listed = set(config["files"])
    modules = {
        p.relative_to(ROOT).as_posix()
        for package in ("core", "answers", "data")
        for p in (ROOT / "kcompat" / package).rglob("*.py")
    }
    assert len(modules) > 40
    assert sorted(modules - listed) == []
    assert all((ROOT / f).is_file() for f in listed), "a listed file is gone"
