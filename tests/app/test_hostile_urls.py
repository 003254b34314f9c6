"""Hostile URL values through the real app (AppTest): 100,000-character versions with newlines and
5,000-digit components in every URL parameter are answered quickly with a short message naming
the parameter, and the page still shows the default selection."""

from __future__ import annotations

import time

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, TIMEOUT, plain

LONG = "1" * 100_000 + "\n"
DIGITS = "1." + "9" * 5_000
JUNK = "1.36" + "x" * 100_000


@pytest.fixture(scope="module")
def warm():
    # the first run of a process loads the bundled data; the measured runs come after it
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    return True


def _run(params: dict[str, str], page: str | None = None) -> tuple[AppTest, float]:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    start = time.process_time()
    at.run()
    if page is not None:
        for key, value in params.items():
            at.query_params[key] = value
        at.switch_page(f"app_pages/{page}.py").run()
    cpu = time.process_time() - start
    assert not at.exception, [e.value[:300] for e in at.exception]
    return at, cpu


@pytest.mark.parametrize("param", ["binary", "emulated", "min_compat"])
@pytest.mark.parametrize("value", [LONG, DIGITS, JUNK], ids=["100k-newline", "5000-digits", "1.36-junk"])
def test_hostile_version_in_the_url(warm, param, value):
    at, cpu = _run({"binary": "1.36", param: value})
    warnings = [plain(w.value) for w in at.warning]
    mine = [w for w in warnings if w.startswith(f"{param}=")]
    assert mine, warnings
    assert all(len(w) < 800 for w in warnings) and "characters" in mine[0]
    shown = at.query_params["binary"]
    assert (shown if isinstance(shown, str) else shown[0]) in ("1.36", "1.37")  # the value, or the default
    assert cpu < 1.5, cpu  # a rerun of the Gates page included; the value itself costs microseconds


@pytest.mark.parametrize("value", ["Z" * 90_000 + "=true", ",".join(f"U{i}=1" for i in range(9_000))], ids=["long-name", "9000-unknown"])
def test_hostile_feature_gates_in_the_url(warm, value):
    at, cpu = _run({"binary": "1.36", "feature_gates": value})
    errors = [plain(e.value) for e in at.error]
    assert errors and len(errors) <= 21 and all(len(e) < 800 for e in errors)
    assert cpu < 3, cpu


def test_9000_unknown_gates_show_twenty_messages_then_a_count(warm):
    value = ",".join(f"U{i}=1" for i in range(9_000))
    at, _ = _run({"binary": "1.36", "feature_gates": value})
    errors = [plain(e.value) for e in at.error]
    assert len(errors) == 21 and errors[-1] == "… and 8,980 more"


def test_hostile_plan_target_in_the_url(warm):
    at, _cpu = _run({"binary": "1.36", "emulated": "1.36", "to": DIGITS}, page="plan")
    warnings = [plain(w.value) for w in at.warning]
    assert any(w.startswith("to=") and "(5,002 characters)" in w for w in warnings), warnings
    assert all(len(w) < 800 for w in warnings)


@pytest.mark.parametrize("to", ["1.36 lol", "1.36@1.35@1.34"])
def test_a_plan_target_with_trailing_text_is_named_not_cut(warm, to):
    at, _ = _run({"binary": "1.35", "emulated": "1.35", "to": to}, page="plan")
    warnings = [plain(w.value) for w in at.warning]
    assert any(w.startswith(f"to={to!r}") and "invalid plan endpoint" in w for w in warnings), warnings


def test_hostile_gate_name_in_the_url(warm):
    at, _ = _run({"binary": "1.36", "gate": "G" * 100_000 + "\n"}, page="gate_detail")
    warnings = [plain(w.value) for w in at.warning]
    assert any(w.startswith("gate=") for w in warnings) and all(len(w) < 800 for w in warnings)
