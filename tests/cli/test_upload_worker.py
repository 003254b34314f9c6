"""The upload worker: an uploaded manifest is parsed and evaluated in a child process, and its
answers are the ones the same work gives in this process and the ones the CLI prints for
``kcompat gates --manifest``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dashboard.gates_view import view_of
from dashboard.uploads.worker import ask
from kcompat.answers.gates import gates
from kcompat.cli.main import main
from kcompat.core.manifest import Manifest
from kcompat.core.registration import load_manifest_bytes, registration_for
from kcompat.core.request import Request
from kcompat.core.versions import mm, parse_version
from kcompat.data.catalog import Catalog

CATALOG = Catalog()
# the real 1.35 manifest, as a distribution would upload its own copy
REAL_135_PATH = CATALOG.data_dir / "features" / "v1.35.yaml"
REAL_135 = REAL_135_PATH.read_bytes()


def test_the_worker_counts_the_real_135_manifest():
    kind, answer = ask(("view", REAL_135, "1.35", "1.35", None, ""))
    in_process = Manifest(load_manifest_bytes(REAL_135, "x", 2**21, registration_for(mm(parse_version("1.35")))))
    assert kind == "view" and dict(answer.metrics)["gates"] == len(answer.rows) == len(in_process) > 200


def test_the_workers_view_is_the_view_built_here():
    kind, answer = ask(("view", REAL_135, "1.35", "1.33", None, "InPlacePodVerticalScaling=true"))
    assert kind == "view"
    manifest = Manifest(load_manifest_bytes(REAL_135, "x", 2**21, registration_for(mm(parse_version("1.35")))))
    assert answer == gates(CATALOG, Request("1.35", "1.33", None, "InPlacePodVerticalScaling=true"), manifest)
    here, there = view_of(gates(CATALOG, Request("1.35", "1.33", None, "InPlacePodVerticalScaling=true"), manifest)), view_of(answer)
    assert there.table.equals(here.table)
    assert (there.metrics, there.errors, there.warnings) == (here.metrics, here.errors, here.warnings)
    assert [r.name for r in answer.rows if r.explicit] == ["InPlacePodVerticalScaling"]
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
    code = "import resource, dashboard.uploads.worker as w; w.limit_cpu(); print(*resource.getrlimit(resource.RLIMIT_CPU))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    from dashboard.uploads.worker import CPU_SECONDS

    assert done.stdout.split() == [str(CPU_SECONDS), str(CPU_SECONDS + 1)]


# --- issue 21: first come, first served; a request given up stops its worker ----------------


def test_the_work_lock_is_first_come_first_served():
    import threading
    import time

    from dashboard.uploads.worker import FifoLock

    lock, order, started = FifoLock(), [], []
    lock.acquire()  # a long request holds it while the others queue in a known order

    def request(n: int) -> None:
        started.append(n)
        lock.acquire()
        order.append(n)
        time.sleep(0.01)
        lock.release()

    threads = []
    for n in range(12):
        thread = threading.Thread(target=request, args=(n,), daemon=True)
        thread.start()
        threads.append(thread)
        while lock.waiting() < n + 1:  # queued before the next one asks
            time.sleep(0.001)
    lock.release()
    for thread in threads:
        thread.join(30)
    assert order == list(range(12)) and lock.waiting() == 0


def test_a_cancelled_waiter_leaves_the_queue_without_running():
    import threading

    from dashboard.uploads.worker import Cancelled, FifoLock

    lock, gone = FifoLock(), threading.Event()
    lock.acquire()
    outcome = []

    def victim() -> None:
        try:
            lock.acquire(gone.is_set)
            outcome.append("ran")
        except Cancelled:
            outcome.append("cancelled")

    thread = threading.Thread(target=victim, daemon=True)
    thread.start()
    while lock.waiting() < 1:
        thread.join(0.001)
    gone.set()
    thread.join(30)
    assert outcome == ["cancelled"] and lock.waiting() == 0
    lock.release()
    lock.acquire()  # the lock is still usable
    lock.release()


def test_a_cancelled_request_kills_its_worker():
    import os
    import threading

    import pytest

    from dashboard.uploads.worker import Cancelled

    pids_before = set(os.listdir("/proc"))
    asked = threading.Event()
    # a large check: the worker runs long enough to be seen and killed
    metrics = "".join(f'kubernetes_feature_enabled{{name="G{i}",stage="BETA"}} 1\n' for i in range(4_000))
    inputs = (("m", 'kubernetes_build_info{git_version="v1.36.0"} 1\n' + metrics),) * 5

    def cancelled() -> bool:
        if not asked.is_set():
            asked.set()
            return False
        return True

    with pytest.raises(Cancelled):
        ask(("inspect", inputs), cancelled)
    # no worker process of ours is left running (children of this process only: another test
    # process running beside this one under xdist starts workers of its own)
    children = [p for p in set(os.listdir("/proc")) - pids_before if p.isdigit()]
    for pid in children:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(b")", 1)[1].split()[1])
        if parent == os.getpid():
            assert b"dashboard.uploads.worker" not in cmdline


def test_the_worker_answers_an_inspect_request_as_the_cli_does(capsys):
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from inspect_samples import SAMPLES

    inputs = (("ps", (SAMPLES / "ps-kube-apiserver-1.32.txt").read_text()), ("v", (SAMPLES / "version-1.32.0.json").read_bytes()))
    kind, (document, config) = ask(("inspect", inputs))
    assert kind == "document"
    main(["inspect", str(SAMPLES / "ps-kube-apiserver-1.32.txt"), str(SAMPLES / "version-1.32.0.json"), "--format", "json"])
    cli = json.loads(capsys.readouterr().out)
    assert (document["binary"], document["emulated"], document["gates"]) == (cli["binary"], cli["emulated"], cli["gates"])
    # and the config of the selection found, as kcompat config prints it
    main(["config", "--binary", "v1.32.0", "--emulated", "1.31", "--format", "json"])
    assert config == json.loads(capsys.readouterr().out)


def test_a_session_asking_again_at_once_cannot_pass_a_waiting_one():
    """The starvation of issue 21 item 12: an attacking session whose request has just been
    answered asks again at once and, with ``threading.Lock``, takes the lock again before the
    waiting victim wakes (measured here: the victim came last after 20 attacker requests in 4 of
    5 runs). First come, first served, the victim goes next."""
    import threading
    import time

    from dashboard.uploads.worker import FifoLock

    for _ in range(5):
        lock, order = FifoLock(), []
        lock.acquire()

        def victim(lock: FifoLock = lock, order: list[str] = order) -> None:
            lock.acquire()
            order.append("victim")
            lock.release()

        thread = threading.Thread(target=victim, daemon=True)
        thread.start()
        while lock.waiting() < 1:
            time.sleep(0.001)
        for i in range(20):  # done, and at once asks again
            lock.release()
            lock.acquire()
            order.append(f"attacker {i}")
        lock.release()
        thread.join(30)
        assert order.index("victim") == 0, order
