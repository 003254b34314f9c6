"""``kcompat rehearse``'s input: what it refuses before starting anything, and how it finds the
binaries (real executables here: scripts that print a version as kube-apiserver does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.cli.main import main
from kcompat.core.errors import KcompatError
from kcompat.data.rehearsal_run import find_binaries


def _binary(path: Path, version: str = "v1.35.8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho 'Kubernetes {version}'\n")
    path.chmod(0o755)
    return path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--from", "1.35", "--to", "1.37", "--binaries", "."], "not adjacent minors"),
        (["--from", "1.36", "--to", "1.35", "--binaries", "."], "not adjacent minors"),
        (["--from", "1.35", "--to", "1.36@1.35", "--binaries", "."], "--to takes a binary release only"),
        (["--from", "1.35 lol", "--to", "1.36", "--binaries", "."], "invalid plan endpoint"),
        (["--from", "1.35", "--to", "1.36"], "give --binaries DIR"),
        (["--from", "1.35", "--to", "1.36", "--binaries", ".", "--time-limit", "0"], "--time-limit must be a positive"),
        (["--from", "1.35", "--to", "1.36", "--binaries", "/nonexistent-kcompat"], "no kube-apiserver of 1.35 found"),
    ],
)
def test_refused_before_anything_starts(capsys, argv, message):
    assert main(["rehearse", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_binaries_found_by_release_folder_and_checked_by_version(tmp_path):
    frm = _binary(tmp_path / "v1.35.8" / "kube-apiserver", "v1.35.8")
    to = _binary(tmp_path / "v1.36.5" / "kube-apiserver", "v1.36.5")
    etcd = _binary(tmp_path / "v1.36.5" / "etcd", "3.6.8")
    found = find_binaries(tmp_path, "1.35", "1.36")
    assert (found.from_apiserver, found.to_apiserver, found.etcd) == (frm, to, etcd)
    named = _binary(tmp_path / "flat" / "kube-apiserver-1.35", "v1.35.2")
    _binary(tmp_path / "flat" / "kube-apiserver-1.36", "v1.36.0")
    _binary(tmp_path / "flat" / "etcd", "3.6.8")
    assert find_binaries(tmp_path / "flat", "1.35", "1.36").from_apiserver == named


def test_a_binary_of_another_release_is_named(tmp_path):
    _binary(tmp_path / "kube-apiserver-1.35", "v1.34.3")
    _binary(tmp_path / "kube-apiserver-1.36", "v1.36.5")
    _binary(tmp_path / "etcd", "3.6.8")
    with pytest.raises(KcompatError, match=r"is kube-apiserver 1\.34, not 1\.35"):
        find_binaries(tmp_path, "1.35", "1.36")


def test_the_report_of_the_recorded_rehearsal():
    import json

    from kcompat.core.rehearsal import judge
    from kcompat.documents.rehearsal import rehearsal_document, rehearsal_markdown

    recording = json.loads((Path(__file__).resolve().parents[2] / "data" / "rehearsals" / "v1.36.json").read_text())
    judgement = judge(recording)
    text = rehearsal_markdown(recording, judgement)
    assert text.startswith("# Rollback rehearsal: v1.35.8 -> v1.36.5 -> v1.35.8\n")
    assert f"The promise held: {judgement.summary}" in text
    assert "| rollback (promised) | v1.35.8 | - | 114 of 114 |" in text
    assert "no template (0): none;" in text
    doc = rehearsal_document(recording, judgement)
    assert doc["judgement"]["held"] is True and doc["judgement"]["total"] == 114
    assert doc["judgement"]["unsupportedRollback"] == {"ok": judgement.unsupported[0], "total": judgement.unsupported[1]}
    hostile = dict(recording, corpus=dict(recording["corpus"], noTemplate=["evil/\x1b[31mKind"]))
    assert "\x1b" not in rehearsal_markdown(hostile, judgement)
