"""mypy runs strict on every module of the library and of the app: pyproject lists the two
packages themselves, so a new module is checked from its first commit (scripts/test.sh runs mypy)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_module_of_kcompat_and_dashboard_is_type_checked_strictly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert sorted(config["files"]) == ["dashboard", "kcompat"]
    assert "follow_imports" not in config  # every error of every module is reported
    assert "mypy" in (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
