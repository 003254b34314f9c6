"""data/bundle.json (kcompat/data/bundle.py): the compiled form of the bundled YAML, and a fast CLI start."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from kcompat import __version__
from kcompat.cli.main import main
from kcompat.data.bundle import BUNDLE_NAME, read_bundle
from kcompat.data.catalog import Catalog
from kcompat.refresh.compile import (
    bundle_text,
    compile_bundle,
    stage_bundle,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"


@pytest.fixture()
def data_copy(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    return data


def test_committed_bundle_is_fresh():
    """data/bundle.json is what `kcompat data compile` makes of the YAML files now."""
    committed = (DATA / BUNDLE_NAME).read_text(encoding="utf-8")
    assert committed == bundle_text(compile_bundle(DATA)), "data/bundle.json is stale: run `kcompat data compile`"


def _deep(manifest):
    """Everything of a manifest, with each version's full repr (Version equality is looser)."""
    return (
        manifest.sources,
        [(f.name, f.origin, f.dependencies, [repr(s) for s in f.specs], f.version_keys, f.min_compat_keys, f.default_states) for f in manifest.features],
    )


def test_the_bundle_loads_exactly_what_the_yaml_does():
    from_yaml = Catalog(DATA, use_bundle=False)
    compiled = Catalog(DATA)
    bundle = compiled.bundle
    assert bundle is not None and bundle.releases() is not None and compiled.releases == from_yaml.releases
    assert len(compiled.releases) >= 7
    for info in from_yaml.releases:
        direct = bundle.manifest(info)
        assert direct is not None, f"{info.release} not served by the bundle"
        assert compiled.manifest(info.release) == direct == from_yaml.manifest(info.release)
        assert _deep(direct) == _deep(from_yaml.manifest(info.release)), info.release
        assert direct.uses_min_compatibility == from_yaml.manifest(info.release).uses_min_compatibility


def test_the_cli_answers_the_same_from_the_bundle_and_from_yaml(capsys):
    argv = ["gates", "--binary", "1.36", "--emulated", "1.33", "--format", "json"]
    assert main(argv, catalog=Catalog(DATA)) == 0
    fast = capsys.readouterr().out
    assert main(argv, catalog=Catalog(DATA, use_bundle=False)) == 0
    assert capsys.readouterr().out == fast


def test_a_changed_feature_file_is_read_from_yaml_not_the_stale_bundle(data_copy):
    path = data_copy / "features" / "v1.36.yaml"
    path.write_text(path.read_text().replace("name: JobManagedBy", "name: JobManagedByRenamed", 1))
    catalog = Catalog(data_copy)
    assert catalog.bundle is not None
    assert catalog.bundle.manifest(catalog.info("1.36")) is None
    assert "JobManagedByRenamed" in catalog.manifest("1.36") and "JobManagedBy" not in catalog.manifest("1.36")
    assert catalog.bundle.manifest(catalog.info("1.35")) is not None  # other releases still compiled


def test_a_changed_release_list_is_read_from_yaml(data_copy):
    path = data_copy / "releases.yaml"
    document = yaml.safe_load(path.read_text())
    document["releases"][0]["features"]["status"] = "development"
    path.write_text(yaml.safe_dump(document))
    catalog = Catalog(data_copy)
    assert catalog.bundle.releases() is None
    assert catalog.info(catalog.release_names[0]).status == "development"


def test_a_broken_release_is_reported_even_with_a_bundle(data_copy):
    (data_copy / "features" / "v1.34.yaml").write_text("- name: [broken\n")
    catalog = Catalog(data_copy)
    assert "not valid YAML" in dict(catalog.problems())["1.34"]


@pytest.mark.parametrize("content", ["not json", "[]", '{"format": 999}', '{"format": 1}'])
def test_an_unusable_bundle_is_ignored(data_copy, content):
    (data_copy / BUNDLE_NAME).write_text(content)
    assert read_bundle(data_copy) is None
    catalog = Catalog(data_copy)
    assert catalog.bundle is None and len(catalog.manifest("1.36")) > 200


def test_no_bundle_reads_yaml(data_copy):
    (data_copy / BUNDLE_NAME).unlink()
    assert Catalog(data_copy).manifest("1.36").features == Catalog(DATA).manifest("1.36").features


def test_data_compile_writes_and_checks(data_copy, capsys):
    (data_copy / BUNDLE_NAME).unlink()
    assert main(["data", "compile", "--data", str(data_copy), "--check"]) == 1
    assert "missing or stale" in capsys.readouterr().err
    assert main(["data", "compile", "--data", str(data_copy)]) == 0
    assert (data_copy / BUNDLE_NAME).read_text() == (DATA / BUNDLE_NAME).read_text()
    assert main(["data", "compile", "--data", str(data_copy), "--check"]) == 0
    json.loads((data_copy / BUNDLE_NAME).read_text())  # valid JSON


def test_data_compile_refuses_broken_data(data_copy, capsys):
    (data_copy / "features" / "v1.34.yaml").write_text("- name: [broken\n")
    assert main(["data", "compile", "--data", str(data_copy)]) == 2
    assert "release 1.34 cannot be compiled" in capsys.readouterr().err


def test_after_a_refresh_the_bundle_is_rebuilt_or_removed(data_copy):
    stale = data_copy / BUNDLE_NAME
    stale.write_text('{"format": 1}')
    assert stage_bundle(data_copy).startswith("bundle: wrote")
    assert stale.read_text() == (DATA / BUNDLE_NAME).read_text()
    (data_copy / "features" / "v1.34.yaml").write_text("- name: [broken\n")
    line = stage_bundle(data_copy)
    assert line.startswith("bundle: not written") and not stale.exists()
    assert f"{data_copy}/features/v1.34.yaml" in line  # the data folder's file, not a temporary copy's


def test_version_prints_the_version_and_the_bundled_releases(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert out.startswith(f"kcompat {__version__}\n")
    assert "bundled releases: 1.31 (v1.31.14)" in out and "1.37 (v1.37.2)" in out
    assert "compiled bundle up to date" in out


def test_the_gates_command_imports_no_yaml_ui_or_dataframe_library():
    # nor the problem kinds and their remedies: input the binary accepts has none to report
    code = (
        "import sys; from kcompat.cli.main import main; "
        "code = main(['gates', '--binary', '1.36', '--emulated', '1.33', '--format', 'json']); "
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('yaml', 'pandas', 'altair', 'streamlit', 'numpy', 'typing', 'hashlib') "
        "or m.startswith(('kcompat.core.problems', 'kcompat.core.remedies'))); "
        "print(heavy, file=sys.stderr); sys.exit(code)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "[]"


def test_help_still_lists_every_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in ("gates", "versions", "plan", "apis", "inspect", "config", "storage", "changes", "matrix", "screenshots", "data"):
        assert name in out


def test_patch_and_component_files_come_from_the_bundle_unless_they_changed(data_copy):
    from kcompat.core.compat import parse_binary_version

    catalog = Catalog(data_copy)
    assert catalog.bundle.document("features/components-v1.34.yaml") is not None
    assert catalog.bundle.document("features/patches-v1.35.yaml") is not None
    kcm, _ = catalog.manifest_for(parse_binary_version("1.34"), "kube-controller-manager")
    assert kcm.by_name["WatchListClient"].specs[0].default is True
    path = data_copy / "features" / "components-v1.34.yaml"
    path.write_text(path.read_text().replace("default: true", "default: false", 1))
    changed = Catalog(data_copy)
    assert changed.bundle.document("features/components-v1.34.yaml") is None  # read from the YAML again
    kcm, _ = changed.manifest_for(parse_binary_version("1.34"), "kube-controller-manager")
    assert kcm.by_name["WatchListClient"].specs[0].default is False


def test_a_release_whose_manifest_line_is_broken_is_read_from_yaml(data_copy):
    # format 3 keeps each manifest on a line of its own, decoded when asked for: a broken one is not used
    path = data_copy / BUNDLE_NAME
    lines = path.read_text(encoding="utf-8").split("\n")
    at = {line.split(":")[0]: i for i, line in enumerate(lines)}
    lines[at['"1.36"']] = '"1.36": {"files": ["features/v1.36.yaml"'
    lines[at['"1.35"']] = '"1.35": [1, 2],'
    path.write_text("\n".join(lines), encoding="utf-8")
    catalog = Catalog(data_copy)
    assert catalog.bundle is not None
    assert catalog.bundle.manifest(catalog.info("1.36")) is None and catalog.bundle.manifest(catalog.info("1.35")) is None
    assert catalog.bundle.manifest(catalog.info("1.34")) is not None  # the lines around them are still read
    assert catalog.manifest("1.36").features == Catalog(DATA).manifest("1.36").features
    assert catalog.manifest("1.35").features == Catalog(DATA).manifest("1.35").features


def test_a_bundle_laid_out_otherwise_is_read_whole(data_copy):
    path = data_copy / BUNDLE_NAME
    document = json.loads(path.read_text(encoding="utf-8"))
    assert list(document)[-1] == "manifests"  # last: the lines before it are read without it
    document["manifests"]["1.35"] = [1, 2]
    path.write_text(json.dumps(document), encoding="utf-8")  # one line, as a tool would rewrite it
    catalog = Catalog(data_copy)
    assert catalog.bundle is not None and catalog.bundle.manifest(catalog.info("1.35")) is None
    assert catalog.bundle.manifest(catalog.info("1.36")).features == Catalog(DATA).manifest("1.36").features
    assert catalog.manifest("1.35").features == Catalog(DATA).manifest("1.35").features
