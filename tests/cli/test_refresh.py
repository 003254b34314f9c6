"""`kcompat data refresh`: the bundled data is exactly what the recordings of the real releases give.

A refresh of a copy of data/ writes every feature, patch, component and API file, releases.yaml
and the per-release table of SOURCES.md from data/oracle/ alone; the result must equal the
bundled files byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from kcompat.cli.main import main as kcompat
from kcompat.data.catalog import Catalog
from kcompat.refresh.provenance import SOURCES_BEGIN, SOURCES_END

BUNDLED = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def refreshed(tmp_path_factory) -> Path:
    copy = tmp_path_factory.mktemp("refresh") / "data"
    shutil.copytree(BUNDLED, copy)
    assert kcompat(["data", "refresh", "--out", str(copy)]) == 0
    return copy


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file() and "oracle" not in p.relative_to(root).parts}


def test_a_refresh_reproduces_every_bundled_file(refreshed):
    bundled, again = _files(BUNDLED), _files(refreshed)
    assert sorted(again) == sorted(bundled)
    assert [name for name in bundled if again[name] != bundled[name]] == []


def test_every_recorded_release_is_a_release_of_its_patch(refreshed):
    releases = yaml.safe_load((refreshed / "releases.yaml").read_text())["releases"]
    recorded = {p.parent.name for p in (refreshed / "oracle").glob("v*/gates.json")}
    for entry in releases:
        features = entry["features"]
        if f"v{features.get('patch')}" not in recorded:
            continue  # a release not recorded yet keeps its entry
        assert features["status"] == "release", entry["release"]  # one status; the patch names a pre-release
        assert entry["apis"]["status"] == features["status"] and features["clientGo"]["status"] == features["status"]
        meta = json.loads((refreshed / "oracle" / f"v{features['patch']}" / "meta.json").read_text())
        assert meta["modules"]["k8s.io/kubernetes"] in features["basis"]


def test_the_sources_table_names_every_recording(refreshed):
    text = (refreshed / "SOURCES.md").read_text()
    table = text[text.index(SOURCES_BEGIN):text.index(SOURCES_END)]
    for folder in (refreshed / "oracle").glob("v*"):
        meta = json.loads((folder / "meta.json").read_text())
        if (folder / "apis.json").is_file() and folder.name == max(
            (f.name for f in (refreshed / "oracle").glob(folder.name.rsplit(".", 1)[0] + ".*") if (f / "apis.json").is_file()),
            key=lambda n: [int(x) for x in n[1:].split("-")[0].split(".")],
        ):
            assert f"| {meta['modules']['k8s.io/kubernetes']} |" in table and meta["go"] in table
    assert len(text.splitlines()) < 150


def test_only_the_release_asked_for_is_written(tmp_path, capsys):
    copy = tmp_path / "data"
    shutil.copytree(BUNDLED, copy, ignore=shutil.ignore_patterns("v1.3[5-8]*"))
    assert kcompat(["data", "refresh", "--out", str(copy), "--release", "1.34"]) == 0
    out = capsys.readouterr().out
    assert "wrote features/v1.34.yaml" in out and "wrote features/components-v1.34.yaml" in out
    assert "features/v1.33.yaml" not in out
    assert Catalog(copy).info("1.34").components_file == "features/components-v1.34.yaml"


def test_a_folder_without_recordings_or_a_malformed_recording_is_refused(tmp_path, capsys):
    assert kcompat(["data", "refresh", "--out", str(tmp_path / "none")]) == 2
    assert "no recordings in" in capsys.readouterr().err
    copy = tmp_path / "data"
    shutil.copytree(BUNDLED, copy, ignore=shutil.ignore_patterns("v1.3[5-8]*"))
    (copy / "oracle" / "v1.34.12" / "gates.json").write_text('[{"name": "X"}]')
    assert kcompat(["data", "refresh", "--out", str(copy), "--release", "1.34"]) == 2
    err = capsys.readouterr().err
    assert "oracle/v1.34.12/gates.json: [0].origin: expected text, found nothing (missing or null)" in err and "Traceback" not in err


def test_every_description_names_its_source_and_the_header_counts_them():
    import re

    path = BUNDLED / "features" / "descriptions.yaml"
    entries = yaml.safe_load(path.read_text())
    assert all(isinstance(e.get("source"), str) and e["source"] for e in entries)
    counts = re.search(r"# (\d+) entries \((\d+) with a description, (\d+) with owners, (\d+) with a KEP link\)", path.read_text())
    assert counts and [int(c) for c in counts.groups()] == [
        len(entries), sum(bool(e.get("description")) for e in entries), sum(bool(e.get("owners")) for e in entries),
        sum(bool(e.get("kep")) for e in entries),
    ]
