import sys
from pathlib import Path

import pytest

from kcompat.core.request import Request

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def catalog():
    from kcompat.data.catalog import Catalog

    return Catalog(ROOT / "data")


@pytest.fixture(scope="session")
def gates(catalog):
    """gates(binary, emulated=None, min_compat=None, flags=None) -> {name: GateState} plus the evaluation."""
    from kcompat.answers.gates import gate_evaluation

    def run(binary, emulated=None, min_compat=None, flags=None):
        return gate_evaluation(catalog, Request(binary, emulated, min_compat, flags))

    return run


# Deadlines make property tests flaky on a loaded 2-core machine (first examples load data from disk).
from hypothesis import settings as _settings  # noqa: E402

_settings.register_profile("project", deadline=None)
_settings.load_profile("project")
