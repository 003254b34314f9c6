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


def test_an_interrupted_refresh_leaves_data_as_it_was_or_wholly_refreshed(data_copy: Path, tmp_path: Path) -> None:
    """Real signals to real processes at several points of a refresh. The copy is made to differ
    from what a refresh writes (an edited feature file, the API list files with their entries
    reversed), so a refresh that went part way would show."""
    for name, key in (("default-enablement.yaml", "snapshots"), ("scheme-priority.yaml", "releases"), ("storage-overrides.yaml", "releases")):
        path = data_copy / "apis" / name
        import yaml

        document = yaml.safe_load(path.read_text())
        document[key] = list(reversed(document[key]))
        path.write_text(yaml.safe_dump(document, sort_keys=False, width=1000))
    (data_copy / "features" / "v1.36.yaml").write_text((data_copy / "features" / "v1.36.yaml").read_text() + "# edited\n")
    (data_copy / "bundle.json").unlink()
    before = snapshot(data_copy)

    refreshed_copy = tmp_path / "refreshed"
    shutil.copytree(data_copy, refreshed_copy)
    started = time.monotonic()
    done = kcompat("data", "refresh", "--oracle", "--out", str(refreshed_copy))
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    after = {k: v for k, v in snapshot(refreshed_copy).items()}
    assert after != before

    interrupted = 0
    for i, fraction in enumerate((0.3, 0.45, 0.6, 0.7, 0.8, 0.9, 0.95)):
        sig = (signal.SIGTERM, signal.SIGINT)[i % 2]
        work = tmp_path / f"run{i}"
        shutil.copytree(data_copy, work)
        process = subprocess.Popen([*KCOMPAT, "data", "refresh", "--oracle", "--out", str(work)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(took * fraction)
        process.send_signal(sig)
        _out, err = process.communicate(timeout=120)
        state = snapshot(work)
        if process.returncode != 0:
            interrupted += 1
            assert process.returncode in (128 + signal.SIGTERM, 130, -signal.SIGTERM), err
        assert state in (before, after), (fraction, sig, sorted(k for k in set(before) | set(state) if before.get(k) != state.get(k)))
    assert interrupted >= 3  # the signals did land part way


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
