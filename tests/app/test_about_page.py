"""About the data: bundled releases, the patch each is read from, provenance, broken releases."""

import shutil

import pytest
import streamlit as st
from conftest import ROOT, current_page, open_app, plain, texts

from dashboard import data
from kcompat.data.catalog import DATA_DIR_ENV


def test_bundled_releases_and_their_status(catalog):
    at = open_app("about")
    assert current_page(at) == "about"
    releases = at.table[0].value.map(plain)
    assert list(releases["release"]) == list(catalog.release_names)
    assert list(releases["read from"]) == [f"v{r.patch}" if r.patch else "—" for r in catalog.releases]
    assert list(releases["status"]) == [r.status_text for r in catalog.releases]
    recorded = releases.set_index("release")
    assert recorded.loc["1.34", "components"] == "kube-apiserver, kube-controller-manager, kube-scheduler"
    assert (releases["loads"] == "yes").all()
    assert releases["gates"].map(int).gt(100).all()
    assert texts(at.success) == ["Every bundled release loads."]


def test_provenance_sections_of_sources_md():
    at = open_app("about")
    labels = at.selectbox(key="about_section").options
    assert any("One method" in label for label in labels)
    assert any("The recordings, per release" in label for label in labels)
    assert any("What the recordings do not give" in label for label in labels)


def test_the_provenance_section_shown_is_kept_in_the_url():
    at = open_app("about")
    section = next(label for label in at.selectbox(key="about_section").options if "What the recordings do not give" in label)
    at.selectbox(key="about_section").set_value(section)
    at.run()
    assert at.query_params["about_section"] == section
    again = open_app("about", about_section=section)  # a new tab from the link
    assert again.selectbox(key="about_section").value == section


def _serve(monkeypatch, data_dir):
    """Point the app at ``data_dir`` (``$KCOMPAT_DATA_DIR``) with every cache emptied."""
    monkeypatch.setenv(DATA_DIR_ENV, str(data_dir))
    _clear_caches()


def _clear_caches():
    data.catalog.clear()
    data.summary.clear()
    st.cache_data.clear()


@pytest.fixture
def broken_data_dir(tmp_path, monkeypatch):
    """A copy of data/ whose 1.34 manifest is not valid YAML."""
    copy = tmp_path / "data"
    shutil.copytree(ROOT / "data", copy)
    (copy / "features" / "v1.34.yaml").write_text("- name: [unclosed\n", encoding="utf-8")
    _serve(monkeypatch, copy)
    yield copy
    monkeypatch.delenv(DATA_DIR_ENV)
    _clear_caches()


@pytest.fixture
def empty_data_dir(tmp_path, monkeypatch):
    _serve(monkeypatch, tmp_path)
    yield tmp_path
    monkeypatch.delenv(DATA_DIR_ENV)
    _clear_caches()


def test_no_data_at_all_is_an_error_not_a_traceback(empty_data_dir):
    at = open_app()
    (error,) = texts(at.error)
    assert error.startswith("The bundled data cannot be used:") and "releases.yaml" in error


def test_broken_release_is_a_banner_and_is_not_offered(broken_data_dir):
    at = open_app(binary="1.34")
    banners = texts(at.error)
    assert any(b.startswith("The bundled data of release 1.34 cannot be used") for b in banners)
    # Kept as linked, shown in red, never replaced by another binary's answer.
    assert [o for o in at.selectbox(key="sel_binary").options if o.startswith("1.34")] == ["1.34 (data cannot be used)"]
    assert any(b.startswith("**Nothing to show**: the bundled data of release 1.34 cannot be used") for b in banners)
    assert not at.warning and not at.dataframe
    assert at.query_params["binary"] == "1.34"
    at.switch_page("app_pages/about.py").run()
    assert not at.exception
    assert any(e.startswith("1.34: ") for e in texts(at.error))
    about = at.table[0].value.map(plain).set_index("release")
    assert about.loc["1.34", "loads"] == "no" and about.loc["1.34", "gates"] == "—"


def test_the_releases_table_names_the_patches_not_recorded():
    """1.35's recorded patches are 0-6 and 8: the table says 7 is not recorded (the data gives no
    reason), and 1.33's 8 and 10."""
    at = open_app("about")
    releases = at.table[0].value
    releases = releases.set_index(releases["release"].str.replace("\\", ""))  # (md escapes the dots)
    assert releases.loc["1.35", "not recorded"] == "7"
    assert releases.loc["1.33", "not recorded"].replace("\\", "") == "8, 10"
    assert not any(ch.isdigit() for ch in releases.loc["1.36", "not recorded"])  # none missing
