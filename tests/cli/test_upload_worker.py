"""The upload worker: an uploaded manifest is parsed and evaluated in a child process, and its
answers are the ones the same work gives in this process and the ones the CLI prints for
``kcompat gates --manifest``."""

from __future__ import annotations

import subprocess
import sys

from kcompat.data.catalog import Catalog
from kcompat.cli.main import main
from kcompat.core.manifest import Manifest, load_manifest_bytes, registration_for
from kcompat.core.versions import parse_version, mm
from kcompat.answers.gates_view import build_gates_view, view_from_fields
from dashboard.components.upload_worker import ask

CATALOG = Catalog()
# the real 1.35 manifest, as a distribution would upload its own copy
REAL_135_PATH = CATALOG.data_dir / "features" / "v1.35.yaml"
REAL_135 = REAL_135_PATH.read_bytes()


def test_the_worker_counts_the_real_135_manifest():
    kind, fields = ask(("view", REAL_135, "1.35", "1.35", None, ""))
    in_process = Manifest(load_manifest_bytes(REAL_135, "x", 2**21, registration_for(mm(parse_version("1.35")))))
    assert kind == "view" and dict(fields["metrics"])["gates"] == len(in_process) > 200


def test_the_workers_view_is_the_view_built_here():
    kind, fields = ask(("view", REAL_135, "1.35", "1.33", None, "InPlacePodVerticalScaling=true"))
    assert kind == "view"
    manifest = Manifest(load_manifest_bytes(REAL_135, "x", 2**21, registration_for(mm(parse_version("1.35")))))
    here = build_gates_view(CATALOG, "1.35", "1.33", None, "InPlacePodVerticalScaling=true", manifest)
    there = view_from_fields(fields)
    assert there.table.equals(here.table)
    assert (there.metrics, there.errors, there.warnings, there.explicit) == (here.metrics, here.errors, here.warnings, here.explicit)
    assert "InPlacePodVerticalScaling" in there.explicit
    row = there.row("InPlacePodVerticalScaling")
    assert (row["stage"], row["enabled"]) == ("Beta", True)  # Beta at 1.33 in the 1.35 list


def test_a_download_is_what_kcompat_gates_manifest_prints(capsys):
    for fmt in ("csv", "json"):
        kind, text = ask(("download", REAL_135, "1.35", "1.33", None, "AllBeta=false", fmt))
        assert kind == "text"
        main(["gates", "--binary", "1.35", "--emulated", "1.33", "--feature-gates", "AllBeta=false",
              "--manifest", str(REAL_135_PATH), "--format", fmt])
        assert text == capsys.readouterr().out


def test_problems_come_back_named_and_a_failing_worker_is_a_problem_not_a_traceback():
    kind, problems = ask(("view", b"- name: A\n  versionedSpecs: 3\n", "1.35", "1.33", None, ""))
    assert kind == "problems" and "versionedSpecs" in problems[0] and "gate" in problems[0]
    kind, problems = ask(("nonsense", REAL_135, "1.35", "1.33", None, ""))
    assert kind == "problems" and problems == ("checking the uploaded file failed: the worker ended with exit status 1",)


def test_the_worker_limits_its_own_cpu():
    code = "import resource, dashboard.components.upload_worker as w; w.limit_cpu(); print(*resource.getrlimit(resource.RLIMIT_CPU))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    from dashboard.components.upload_worker import CPU_SECONDS

    assert done.stdout.split() == [str(CPU_SECONDS), str(CPU_SECONDS + 1)]
