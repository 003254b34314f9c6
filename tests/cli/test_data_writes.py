"""Writing data/: ``kcompat data compile`` and ``kcompat data refresh`` as real processes.

- files keep their mode (a new one gets the umask's), so another user or the image's non-root
  user can still read them;
- a refresh stopped by SIGTERM or SIGINT at any point leaves data/ byte-identical, or wholly
  refreshed: never some files of each, nor a list file rewritten part way;
- a refresh with nothing to refresh from, or that wrote no release, exits 2 and creates nothing;
- a full disk (a tmpfs filled to the last byte, in a private mount namespace) names the file
  that could not be written, and leaves data/ as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
KCOMPAT = [sys.executable, "-m", "kcompat"]


def kcompat(*args: str, umask: int | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    preexec = (lambda: os.umask(umask)) if umask is not None else None
    return subprocess.run([*KCOMPAT, *args], capture_output=True, text=True, timeout=timeout, preexec_fn=preexec, check=False)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` (hidden ones too) and the SHA-256 of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


def modes(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): stat.S_IMODE(p.stat().st_mode) for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    for path in copy.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return copy


# --- modes ----------------------------------------------------------------------------------


def test_compile_keeps_the_bundles_mode(data_copy: Path) -> None:
    bundle = data_copy / "bundle.json"
    bundle.chmod(0o664)
    done = kcompat("data", "compile", "--data", str(data_copy))
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(bundle.stat().st_mode) == 0o664  # was 0600 (mkstemp's)


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_a_new_bundle_gets_the_umasks_mode(data_copy: Path, umask: int, mode: int) -> None:
    (data_copy / "bundle.json").unlink()
    done = kcompat("data", "compile", "--data", str(data_copy), umask=umask)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE((data_copy / "bundle.json").stat().st_mode) == mode


def test_refresh_keeps_every_files_mode(data_copy: Path) -> None:
    (data_copy / "apis" / "default-enablement.yaml").chmod(0o640)
    before = modes(data_copy)
    done = kcompat("data", "refresh", "--oracle", "--out", str(data_copy))
    assert done.returncode == 0, done.stderr
    assert "wrote apis/default-enablement.yaml" in done.stdout and "bundle: wrote" in done.stdout
    assert modes(data_copy) == before  # bundle.json and apis/*.yaml were left at 0600


# --- an interrupted refresh ----------------------------------------------------------------

#: a signal before the commit stops a refresh within this many seconds of its delivery
STOP_BOUND = 2.0
#: the lines the refresh writes on stderr as it goes (kcompat.refresh.run_refresh)
VERIFYING, STAGING, WRITING = "verifying the recordings in", "recordings verified; staging", "files into"


def _stopped_refresh(work: Path, sig: signal.Signals, marker: str | None, delay: float, *, sigint_ignored: bool = False) -> dict:
    """A real refresh of ``work``, sent ``sig`` ``delay`` seconds after its stderr shows ``marker``
    (None: after the process starts). ``sigint_ignored``: started as a shell starts a background
    job, with SIGINT ignored. What happened: the exit status, stderr, the seconds from the signal
    to the exit, and whether the commit had been announced when the signal was sent."""
    import queue
    import threading

    preexec = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored else None
    process = subprocess.Popen([*KCOMPAT, "data", "refresh", "--oracle", "--out", str(work)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, preexec_fn=preexec)
    lines: queue.Queue[str] = queue.Queue()
    seen: list[str] = []
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stderr], daemon=True)  # type: ignore[union-attr]
    reader.start()
    deadline = time.monotonic() + 1200  # a failure net only (a loaded machine)
    while marker is not None and not any(marker in line for line in seen):
        try:
            seen.append(lines.get(timeout=max(0.0, deadline - time.monotonic())))
        except queue.Empty:
            process.kill()
            pytest.fail(f"no {marker!r} line in 1200 s: {seen}")
    time.sleep(delay)
    while not lines.empty():
        seen.append(lines.get())
    committing = any(WRITING in line for line in seen)
    process.send_signal(sig)
    sent = time.monotonic()
    process.wait(timeout=120)  # a failure net only: the bound is asserted below
    took = time.monotonic() - sent
    reader.join(timeout=10)
    while not lines.empty():
        seen.append(lines.get())
    return {"status": process.returncode, "stderr": "".join(seen), "took": took, "committing": committing}


def test_an_interrupted_refresh_leaves_data_as_it_was_or_wholly_refreshed(data_copy: Path, tmp_path: Path) -> None:
    """Real signals to real processes at several points of a refresh, found by the lines it
    writes as it goes (not by a time measured on a machine whose load changes): each stops it
    within 2 s of the signal. The copy is made to differ from what a refresh writes (an edited
    feature file, the API list files with their entries reversed), so a refresh that went part
    way would show."""
    for name, key in (("default-enablement.yaml", "snapshots"), ("scheme-priority.yaml", "releases"), ("storage-overrides.yaml", "releases")):
        path = data_copy / "apis" / name
        import yaml

        document = yaml.safe_load(path.read_text())
        document[key] = list(reversed(document[key]))
        path.write_text(yaml.safe_dump(document, sort_keys=False, width=1000))
    (data_copy / "features" / "v1.36.yaml").write_text((data_copy / "features" / "v1.36.yaml").read_text() + "# edited\n")
    (data_copy / "bundle.json").unlink()
    before = snapshot(data_copy)

    # wholly refreshed, the copy is the bundled data/ again (tests/cli/test_refresh.py: a refresh
    # reproduces every bundled file), so no refresh of its own is needed to know it
    after = snapshot(DATA)
    assert after != before

    points = [(signal.SIGTERM, VERIFYING, 0.0), (signal.SIGINT, STAGING, 0.5), (signal.SIGTERM, STAGING, 3.0), (signal.SIGINT, WRITING, 0.0)]
    for i, (sig, marker, delay) in enumerate(points):
        work = tmp_path / f"run{i}"
        shutil.copytree(data_copy, work)
        run = _stopped_refresh(work, sig, marker, delay)
        state = snapshot(work)
        where = (sig.name, marker, delay, run["took"], run["stderr"][-600:])
        print(f"{sig.name} {delay} s after {marker!r}: exit {run['status']} {run['took']:.2f} s after the signal")
        assert run["took"] < STOP_BOUND, where
        if run["status"] == 0:  # the signal came after the commit was done: the refresh had finished
            assert run["committing"] and state == after, where
            continue
        assert run["status"] == 128 + sig, where
        if f"stopped by {sig.name} after the commit: {work} is wholly refreshed" in run["stderr"]:
            assert run["committing"] and state == after, where
        else:
            assert f"stopped by {sig.name} before the commit: {work} is left as it was" in run["stderr"], where
            assert state == before, (where, sorted(k for k in set(before) | set(state) if before.get(k) != state.get(k)))
        if not run["committing"]:
            assert state == before, where  # signalled before the commit began: stopped before it


@pytest.mark.parametrize("point, marker, delay, sigint_ignored", [
    ("early", None, 0.3, False),
    ("during verification", VERIFYING, 0.0, False),
    ("during verification, started with SIGINT ignored", VERIFYING, 0.1, True),
    ("during staging", STAGING, 1.0, False),
    ("during staging, started with SIGINT ignored", STAGING, 2.0, True),
])
def test_sigint_stops_a_refresh_within_2_s_and_changes_nothing(data_copy: Path, point: str, marker: str | None, delay: float,
                                                             sigint_ignored: bool) -> None:
    """SIGINT (Ctrl-C, ``kill -INT``) before the commit: the refresh stops within 2 s of the signal,
    says so, exits 130 and leaves every file as it was. A shell starts a background job with
    SIGINT ignored: the refresh stops all the same (it once ran to its end and wrote everything).
    The early signal may come before Python has its handler (killed by it: -2, nothing written)."""
    before = snapshot(data_copy)
    run = _stopped_refresh(data_copy, signal.SIGINT, marker, delay, sigint_ignored=sigint_ignored)
    print(f"SIGINT {point}: exit {run['status']} {run['took']:.2f} s after the signal")
    assert run["took"] < STOP_BOUND, (point, run)
    assert snapshot(data_copy) == before
    assert not list(data_copy.rglob(".*.*")), "a temporary file was left"
    if point == "early":  # killed before Python's handler (-2), or stopped before the refresh began (130, "interrupted")
        assert run["status"] in (130, -signal.SIGINT), run
        assert run["status"] == -signal.SIGINT or "kcompat: error:" in run["stderr"], run
        return
    assert run["status"] == 130, run
    assert f"kcompat data refresh: stopped by SIGINT before the commit: {data_copy} is left as it was" in run["stderr"]
    assert "kcompat: error: stopped by SIGINT" in run["stderr"] or "kcompat: error: interrupted" in run["stderr"]


# --- nothing to refresh --------------------------------------------------------------------


def test_a_refresh_with_no_recordings_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    typo = tmp_path / "typo"
    done = kcompat("data", "refresh", "--oracle", "--out", str(typo))
    assert done.returncode == 2
    assert f"kcompat data refresh: --oracle: no recordings in {typo}/oracle" in done.stderr and "nothing to refresh from" in done.stderr
    assert "wrote" not in done.stdout and not typo.exists()


def test_a_refresh_of_a_release_without_recordings_writes_nothing(data_copy: Path) -> None:
    before = snapshot(data_copy)
    done = kcompat("data", "refresh", "--oracle", "--release", "1.30", "--out", str(data_copy))
    assert done.returncode == 2 and "no oracle recording for 1.30" in done.stderr
    assert snapshot(data_copy) == before


# --- a full disk ---------------------------------------------------------------------------

CHECK = """
import hashlib, json, pathlib, sys
root = pathlib.Path(sys.argv[1])
print(json.dumps({str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}))
"""


def _on_a_full_disk(tmp_path: Path, command: str) -> tuple[str, dict]:
    """Run ``command`` (shell, $DATA = a copy of data/) in a private mount namespace on a tmpfs
    that is full once the copy is made; (its stderr and exit line, the copy's files afterwards)."""
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux)")
    mount = tmp_path / "full"
    mount.mkdir()
    check = tmp_path / "check.py"
    check.write_text(CHECK)
    script = (
        f"set -e; mount -t tmpfs -o size=16m tmpfs {mount}; cp -r {DATA} {mount}/data; "
        f"cat /dev/zero > {mount}/filler 2>/dev/null || true; DATA={mount}/data; "
        f"set +e; {command}; echo \"exit=$?\" >&2; {sys.executable} {check} {mount}/data"
    )
    done = subprocess.run(["unshare", "--mount", "--map-root-user", "sh", "-c", script], capture_output=True, text=True, timeout=300,
                          check=False)
    if "mount" in done.stderr and "exit=" not in done.stderr:
        pytest.skip(f"cannot mount a tmpfs in a private namespace here: {done.stderr.strip()[:200]}")
    assert "exit=" in done.stderr, done.stderr
    return done.stderr, json.loads(done.stdout.strip().splitlines()[-1])


def test_compile_on_a_full_disk_names_the_file(tmp_path: Path) -> None:
    err, after = _on_a_full_disk(tmp_path, f"{' '.join(KCOMPAT)} data compile --data $DATA")
    assert "exit=2" in err
    assert f"kcompat data compile: cannot write {tmp_path}/full/data/bundle.json: the disk is full (No space left on device, ENOSPC)" in err
    assert after == snapshot(DATA)  # no temporary file left, nothing else changed


def test_refresh_on_a_full_disk_names_the_file_and_changes_nothing(tmp_path: Path) -> None:
    err, after = _on_a_full_disk(tmp_path, f"{' '.join(KCOMPAT)} data refresh --oracle --out $DATA")
    assert "exit=2" in err
    assert f"kcompat data refresh: cannot write {tmp_path}/full/data/" in err and "the disk is full (No space left on device, ENOSPC)" in err
    assert after == snapshot(DATA)
