"""The rollback rehearsal on real binaries (127.0.0.1 only): every template against a real
kube-apiserver of each release found, and ``kcompat rehearse`` on each adjacent pair found.

Needs ``kube-apiserver`` and ``etcd`` in ``$KCOMPAT_ORACLE_BIN/<release>/`` (default
/tmp/kcompat-oracle-bin; oracle/record.py --build-only). Without them every test here is skipped:
the default suite checks the plan against the recorded rehearsals (tests/cli/test_plan_rehearsal.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

BINS = Path(os.environ.get("KCOMPAT_ORACLE_BIN", "/tmp/kcompat-oracle-bin"))
RELEASES = sorted((d.name for d in BINS.glob("v1.*") if (d / "kube-apiserver").is_file() and (d / "etcd").is_file()),
                  key=lambda r: tuple(int(x) for x in re.findall(r"\d+", r)))


def _minor(release: str) -> str:
    return ".".join(release.lstrip("v").split(".")[:2])


PAIRS = [(a, b) for a in RELEASES for b in RELEASES if int(_minor(b).split(".")[1]) == int(_minor(a).split(".")[1]) + 1]

pytestmark = pytest.mark.skipif(not RELEASES, reason=f"no kube-apiserver and etcd in {BINS} (oracle/record.py --build-only v1.36.5)")


@pytest.mark.parametrize("release", RELEASES)
def test_every_template_is_created_read_and_updated_by_the_real_server(release):
    from kcompat.core.rehearsal import NAMESPACE, build_corpus
    from kcompat.data import rehearsal_run as run

    work = Path(tempfile.mkdtemp(prefix="kcompat-live-rehearse-"))
    etcd = None
    try:
        run._keys(work)
        etcd, url = run._etcd(BINS / release / "etcd", work, 60)
        server = run._Server(BINS / release / "kube-apiserver", work, url, [], 240)
        assert server.error is None
        try:
            corpus = build_corpus(server.discovery())
            # every stored built-in it serves by default has a template, but PodCertificateRequest (1.37+: it needs a
            # pod, its node and service account with their UIDs, and a proof of possession signed for them)
            assert set(corpus.no_template) <= {"certificates.k8s.io/PodCertificateRequest"}
            for path, name in (("/api/v1/namespaces", NAMESPACE), (f"/api/v1/namespaces/{NAMESPACE}/serviceaccounts", "default")):
                kind = "Namespace" if "serviceaccounts" not in path else "ServiceAccount"
                assert run._request(server.port, "POST", path, {"apiVersion": "v1", "kind": kind, "metadata": {"name": name}})[0] == 201
            failures = []
            for entry in corpus.entries:
                created, obj = run._create(server.port, entry, 0, "create")
                if obj is None:
                    failures.append(created)
                    continue
                updated = run._read_update(server.port, obj, "check")
                if updated.get("error"):
                    failures.append(updated)
            assert failures == []
        finally:
            server.stop()
    finally:
        if etcd is not None:
            run.stop(etcd)
        shutil.rmtree(work, ignore_errors=True)


def _rehearse(start: str, target: str, tmp: Path, *extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ, TMPDIR=str(tmp))
    return subprocess.Popen([sys.executable, "-m", "kcompat", "rehearse", "--binaries", str(BINS), "--from", _minor(start),
                             "--to", _minor(target), *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


@pytest.mark.parametrize(("start", "target"), PAIRS, ids=lambda r: r)
def test_rehearse_keeps_the_promise_and_leaves_nothing_behind(start, target, tmp_path):
    proc = _rehearse(start, target, tmp_path, "--format", "json")
    out, err = proc.communicate(timeout=3600)
    assert proc.returncode == 0, err[-3000:]
    doc = json.loads(out)
    assert doc["judgement"]["held"] is True and doc["judgement"]["total"] >= 2 * len(doc["corpus"]["resources"])
    assert [p["name"] for p in doc["phases"]] == ["create", "emulated", "rollback", "raised", "unsupported-rollback"]
    assert "phase 3/5 rollback" in err
    assert list(tmp_path.iterdir()) == []  # the private folder is gone


@pytest.mark.parametrize(("start", "target"), PAIRS[:1], ids=lambda r: r)
def test_rehearse_stopped_by_sigterm_stops_its_servers_and_cleans_up(start, target, tmp_path):
    proc = _rehearse(start, target, tmp_path)
    assert proc.stderr is not None
    deadline = time.monotonic() + 600
    for line in proc.stderr:
        if "phase 2/5" in line or time.monotonic() > deadline:
            break
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "stopped by SIGTERM" in err
    assert list(tmp_path.iterdir()) == []
    leftover = subprocess.run(["pgrep", "-f", str(tmp_path)], capture_output=True, text=True).stdout
    assert leftover == ""  # no etcd or kube-apiserver of its folder still runs


@pytest.mark.parametrize(("start", "target"), PAIRS[:1], ids=lambda r: r)
def test_rehearse_past_its_time_limit_says_so_and_cleans_up(start, target, tmp_path):
    proc = _rehearse(start, target, tmp_path, "--time-limit", "2")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 2, err
    assert "time limit of 2 s passed" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
    assert subprocess.run(["pgrep", "-f", str(tmp_path)], capture_output=True, text=True).stdout == ""
