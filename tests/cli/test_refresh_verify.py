"""``kcompat data refresh`` verifies every recording before it stages anything.

Each damaged recording is refused with exit 2, a message naming the file (relative to the data
folder) and the field, and every file of the data folder byte-identical afterwards (SHA-256 of
each, hidden ones too). The FIFO and the 200 MB recording run as real processes with a timeout:
neither may hang the refresh nor be read whole."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kcompat.cli.main import main as kcompat
from kcompat.data.catalog import Catalog
from kcompat.refresh.verify import MAX_RECORDING_BYTES, MAX_SHOWN

DATA = Path(__file__).resolve().parents[2] / "data"
GATES = "oracle/v1.36.5/gates.json"


def snapshot(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` (hidden ones too, FIFOs by their kind) and the SHA-256 of its bytes."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            out[str(path.relative_to(folder))] = "link " + os.readlink(path)
        elif path.is_fifo():
            out[str(path.relative_to(folder))] = "fifo"
        elif path.is_file():
            with open(path, "rb") as f:  # in chunks: the 200 MB recording is not held here either
                out[str(path.relative_to(folder))] = hashlib.file_digest(f, "sha256").hexdigest()
    return out


@pytest.fixture
def data(tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    return copy


def refused(data: Path, capsys: pytest.CaptureFixture[str], *more: str) -> str:
    """Refresh ``data``; assert exit 2, nothing written, and the folder unchanged; the stderr."""
    before = snapshot(data)
    assert kcompat(["data", "refresh", "--oracle", "--out", str(data), *more]) == 2
    out, err = capsys.readouterr()
    assert "wrote" not in out and "Traceback" not in err
    assert f"kcompat data refresh: the recordings under {data}/oracle cannot be used" in err and "nothing was written" in err
    assert snapshot(data) == before
    return err


def test_a_gate_listed_twice_is_refused_naming_both(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gates = json.loads((data / GATES).read_text())
    name = gates[3]["name"]
    gates.insert(17, dict(gates[3]))
    (data / GATES).write_text(json.dumps(gates))
    err = refused(data, capsys)
    assert f'{GATES}: [17].name: "{name}" listed twice (also [3])' in err
    assert "(1 problem)" in err
    assert kcompat(["gates", "--binary", "1.36", "--format", "json"], catalog=Catalog(data)) == 0  # the copy still answers 1.36
    assert name in capsys.readouterr().out


def test_a_gate_twice_in_a_components_list_and_a_spec_version_twice(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = data / "oracle/v1.36.5/kube-scheduler/gates.json"
    gates = json.loads(path.read_text())
    gates.append(gates[0])
    gates[1]["versionedSpecs"].append(dict(gates[1]["versionedSpecs"][0]))
    path.write_text(json.dumps(gates))
    err = refused(data, capsys)
    last = len(gates) - 1
    assert f'oracle/v1.36.5/kube-scheduler/gates.json: [{last}].name: "{gates[0]["name"]}" listed twice (also [0])' in err
    spec = len(gates[1]["versionedSpecs"]) - 1
    version = gates[1]["versionedSpecs"][0]["version"]
    assert f'[1].versionedSpecs[{spec}].version: "{version}" listed twice (also versionedSpecs[0])' in err


def test_a_missing_gates_file_is_refused_not_answered_from_an_older_patch(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (data / GATES).unlink()
    err = refused(data, capsys)
    assert f"{GATES}: missing (every recording has its gates" in err


def test_a_release_whose_recording_disappears_is_refused(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.rmtree(data / "oracle/v1.36.5")
    err = refused(data, capsys)
    assert ("releases.yaml: releases[5].features.patch: 1.36 was read from v1.36.5, whose recording oracle/v1.36.5/ is gone: "
            "a refresh would answer 1.36 from the older v1.36.4") in err
    for folder in (data / "oracle").glob("v1.36.*"):
        shutil.rmtree(folder)
    err = refused(data, capsys)
    assert "1.36 was read from v1.36.5, and no recording of 1.36 is left under oracle/" in err


def test_a_truncated_recording_names_the_file_line_and_column(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (data / "oracle/v1.36.5/apis.json").read_text()
    (data / "oracle/v1.36.5/apis.json").write_text(text[: len(text) // 2])
    err = refused(data, capsys)
    assert f"oracle/v1.36.5/apis.json: ends too early, at line 1, column {len(text) // 2} (truncated?): " in err


def test_a_fifo_is_refused_without_blocking(data: Path) -> None:
    (data / GATES).unlink()
    os.mkfifo(data / GATES)
    before = snapshot(data)
    done = subprocess.run([sys.executable, "-m", "kcompat", "data", "refresh", "--out", str(data)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert f"{GATES}: a named pipe, not a regular file" in done.stderr
    assert snapshot(data) == before


def test_a_200_mb_recording_is_refused_by_its_size_unread(data: Path) -> None:
    """A sparse 200 MB startup.json: refused by its size, and the process never holds it (its
    peak resident size stays far below 200 MB: it was 430 MB when the file was read whole)."""
    with open(data / "oracle/v1.36.5/startup.json", "r+b") as f:
        f.truncate(200 * 1024 * 1024)
    before = snapshot(data)
    # VmHWM: the peak of this process's own memory (ru_maxrss would carry the forking parent's over exec)
    script = ("import sys\nfrom kcompat.cli.main import main\ncode = main(sys.argv[1:])\n"
              "peak = [line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:')][0]\n"
              "print('maxrss', peak, file=sys.stderr)\nsys.exit(code)")
    done = subprocess.run([sys.executable, "-c", script, "data", "refresh", "--out", str(data)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert f"oracle/v1.36.5/startup.json: {200 * 1024 * 1024} bytes, over the {MAX_RECORDING_BYTES} bytes a recording may have" in done.stderr
    peak_kb = int(done.stderr.split("maxrss ")[1].split()[0])
    assert peak_kb < 100 * 1024, peak_kb
    assert snapshot(data) == before


def test_a_link_out_of_the_data_folder_is_refused(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "elsewhere.json"
    shutil.copyfile(data / GATES, outside)
    (data / GATES).unlink()
    (data / GATES).symlink_to(outside)
    err = refused(data, capsys)
    assert f"{GATES}: a symbolic link out of the data folder (to {outside})" in err


def test_what_meta_json_lists_must_be_there(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (data / "oracle/v1.36.5/startup.json").unlink()
    (data / "oracle/v1.36.5/kube-controller-manager/gates.json").unlink()
    (data / "oracle/v1.36.5/live/1.33-1.33.json").unlink()
    err = refused(data, capsys)
    assert "oracle/v1.36.5/startup.json: missing (meta.json lists its readiness starts)" in err
    assert "oracle/v1.36.5/kube-controller-manager/gates.json: missing (meta.json lists kube-controller-manager)" in err
    assert "oracle/v1.36.5/live: 14 runs recorded, meta.json lists 15 (livePairs)" in err


def test_names_types_and_versions_are_checked_and_echoed_escaped(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gates = json.loads((data / GATES).read_text())
    gates[0]["name"] = "Evil\x1b[31mGate"
    gates[1]["versionedSpecs"][0]["version"] = "one.two"
    gates[2]["versionedSpecs"][0]["default"] = "yes"
    gates[3]["origin"] = 7
    (data / GATES).write_text(json.dumps(gates))
    err = refused(data, capsys)
    assert "\x1b" not in err
    assert f'{GATES}: [0].name: "Evil\\x1b[31mGate" is not a feature gate name' in err
    assert f'{GATES}: [1].versionedSpecs[0].version: "one.two" is not a version (X.Y)' in err
    assert f'{GATES}: [2].versionedSpecs[0].default: expected true or false, found text "yes"' in err
    assert f'{GATES}: [3].origin: expected text, found a number "7"' in err


def test_the_problems_are_bounded(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gates = json.loads((data / GATES).read_text())
    for gate in gates[:50]:
        gate["origin"] = "elsewhere"
    (data / GATES).write_text(json.dumps(gates))
    err = refused(data, capsys)
    assert "(50 problems)" in err and f"  and {50 - MAX_SHOWN} more" in err
    assert err.count("is neither kube nor client-go") == MAX_SHOWN


def test_a_release_asked_for_alone_is_checked_against_releases_yaml(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.rmtree(data / "oracle/v1.36.5")
    err = refused(data, capsys, "--release", "1.36")
    assert "1.36 was read from v1.36.5" in err
    # another release asked for alone does not depend on 1.36's recordings in releases.yaml, but
    # every recording under oracle/ is still verified (SOURCES.md's table reads them all)
    assert kcompat(["data", "refresh", "--out", str(data), "--release", "1.34"]) == 0
    capsys.readouterr()


def test_a_recording_changed_after_its_verification_is_refused(data: Path) -> None:
    """The writers read what was verified: a file changed between the pass and its read, or one
    the pass did not verify, is refused by name."""
    from kcompat.refresh.common import RefreshError
    from kcompat.refresh.verify import read_recording, verified, verify_recordings

    recordings = verify_recordings(data)
    with verified(recordings):
        assert read_recording(data / GATES)[0]["name"]
        (data / GATES).write_text((data / GATES).read_text().replace('"kube"', '"kube" '))
        with pytest.raises(RefreshError, match="^" + re.escape(GATES) + ": changed while the refresh ran"):
            read_recording(data / GATES)
        (data / "oracle/v1.36.5/extra.json").write_text("{}")
        with pytest.raises(RefreshError, match=r"^oracle/v1\.36\.5/extra\.json: read by the refresh but not verified"):
            read_recording(data / "oracle/v1.36.5/extra.json")


def test_a_file_named_like_a_recording_is_refused(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (data / "oracle/v1.36.9").write_text("not a folder")
    err = refused(data, capsys)
    assert "oracle/v1.36.9: named like a recording but not a folder of the data folder" in err


def test_a_damaged_rehearsal_recording_is_refused(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The rollback rehearsal is a recording like the others: verified before anything is staged."""
    path = data / "oracle/v1.36.5/rehearsal.json"
    document = json.loads(path.read_text())
    document["phases"] = []
    path.write_text(json.dumps(document))
    err = refused(data, capsys)
    assert "oracle/v1.36.5/rehearsal.json: phases: empty: nothing was rehearsed" in err
    text = json.dumps(document)
    path.write_text(text[: len(text) // 2])
    err = refused(data, capsys)
    assert "oracle/v1.36.5/rehearsal.json: ends too early" in err
