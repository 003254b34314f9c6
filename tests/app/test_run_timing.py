"""dashboard/server/run_timing.py: the server-side run times a benchmark asks for with KCOMPAT_RUN_TIMES."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dashboard.server.run_timing import timed_run

ROOT = Path(__file__).resolve().parents[2]


def test_a_run_appends_one_line(tmp_path):
    path = tmp_path / "runs.jsonl"
    timed_run(lambda: None, str(path))
    timed_run(lambda: None, str(path))
    runs = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(runs) == 2 and all(r["outcome"] == "ok" and r["ms"] >= 0 and r["cpu_ms"] >= 0 for r in runs)


def test_an_interrupted_run_is_recorded_and_the_exception_passes(tmp_path):
    path = tmp_path / "runs.jsonl"

    def stop():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        timed_run(stop, str(path))
    assert json.loads(path.read_text())["outcome"] == "KeyboardInterrupt"


def test_the_app_records_its_runs_only_when_asked(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    path = tmp_path / "runs.jsonl"
    monkeypatch.setenv("KCOMPAT_RUN_TIMES", str(path))
    AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=60).run()
    (run,) = [json.loads(line) for line in path.read_text().splitlines()]
    assert run["outcome"] == "ok" and run["ms"] > 0


def test_the_app_does_not_import_the_timing_module_by_default():
    code = "import sys; import dashboard.frame.page_frame; print('dashboard.server.run_timing' in sys.modules)"
    env = {k: v for k, v in os.environ.items() if k != "KCOMPAT_RUN_TIMES"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert done.stdout.strip() == "False"
