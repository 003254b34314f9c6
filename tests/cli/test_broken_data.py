"""A missing or corrupt bundled release leaves the other releases usable, with a clear message."""

import shutil
from pathlib import Path

import pytest

from kcompat.cli.main import main
from kcompat.core.errors import KcompatError
from kcompat.data.catalog import Catalog

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture()
def broken(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    (data / "features" / "v1.34.yaml").write_text("- name: [broken\n")
    (data / "features" / "v1.35.yaml").unlink()
    return Catalog(data)


def test_other_releases_stay_usable(broken):
    assert broken.usable_releases() == ("1.31", "1.32", "1.33", "1.36", "1.37", "1.38")
    problems = dict(broken.problems())
    assert "v1.34.yaml: not valid YAML (line 2" in problems["1.34"]
    assert "v1.35.yaml: cannot read" in problems["1.35"]
    assert sum(f.origin == "kube" for f in broken.manifest("1.36").features) == 230
    assert "WatchListClient" in broken.manifest("1.36")


def test_cli_names_the_broken_release(broken, capsys):
    code = main(["gates", "--binary", "1.34"], catalog=broken)
    err = capsys.readouterr().err
    assert code == 2 and "the bundled data for 1.34 cannot be used" in err and "v1.34.yaml" in err
    assert main(["gates", "--binary", "1.36", "--emulated", "1.34", "--format", "json"], catalog=broken) == 0


def test_unknown_release_lists_what_is_bundled(broken):
    with pytest.raises(KcompatError, match=r"bundled: 1\.31, 1\.32"):
        broken.manifest("1.40")
