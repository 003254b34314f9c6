"""The component on the selection: kube-apiserver, kube-controller-manager or kube-scheduler, in
the URL (``component``), answered from each component's own recorded gate set as
``kcompat gates --component`` answers it; the Gates page says where the components differ."""

import json

import pytest
from conftest import ROOT, open_app, rerun, texts

from kcompat.cli.main import main as kcompat


def table(at):
    return at.dataframe[0].value


def cli_rows(capsys, *argv):
    assert kcompat(["gates", *argv, "--format", "json"]) == 0
    return {f["name"]: (f["enabled"], f["stage"]) for f in json.loads(capsys.readouterr().out)["features"]}


def test_the_component_is_offered_kept_in_the_url_and_left_out_by_default():
    at = open_app(binary="1.34", emulated="1.34")
    picker = at.selectbox(key="sel_component")
    assert picker.options == ["kube-apiserver", "kube-controller-manager", "kube-scheduler"]
    assert picker.value == "kube-apiserver" and "component" not in at.query_params
    picker.set_value("kube-controller-manager")
    rerun(at)
    assert at.query_params["component"] == "kube-controller-manager"
    again = open_app(binary="1.34", emulated="1.34", component="kube-controller-manager")  # a new tab from the link
    assert again.selectbox(key="sel_component").value == "kube-controller-manager"


def test_the_gates_page_answers_with_the_components_own_gate_set(capsys):
    at = open_app(binary="1.34", emulated="1.34", component="kube-controller-manager")
    shown = table(at)
    rows = dict(zip(shown["gate"], zip(shown["enabled"], shown["stage"], strict=False), strict=False))
    assert rows == cli_rows(capsys, "--binary", "1.34", "--emulated", "1.34", "--component", "kube-controller-manager")
    assert rows["WatchListClient"] == (True, "Beta")  # kube-controller-manager's own default
    # kube-apiserver differs, and the page says so (the note kcompat gates prints)
    assert any(i.startswith("kube-apiserver differs from kube-controller-manager here: WatchListClient off, Beta (here on, Beta)")
               for i in texts(at.info))


def test_the_gates_page_of_kube_apiserver_names_the_component_that_differs():
    infos = texts(open_app(binary="1.34", emulated="1.34").info)
    assert any(i.startswith("kube-controller-manager differs from kube-apiserver here: WatchListClient on") for i in infos)
    assert not any(i.startswith("kube-scheduler differs") for i in infos)  # the same gates and states


@pytest.fixture
def without_1_36_components(tmp_path, monkeypatch):
    """A copy of data/ whose 1.36 lists no component recording, served to the app."""
    import shutil

    import streamlit as st

    from dashboard import data
    from kcompat.data.catalog import DATA_DIR_ENV

    copy = tmp_path / "data"
    shutil.copytree(ROOT / "data", copy, ignore=shutil.ignore_patterns("oracle"))
    releases = copy / "releases.yaml"
    releases.write_text(releases.read_text().replace("    components: features/components-v1.36.yaml\n", ""))

    def clear():
        for cached in (data.catalog, data.summary, st.cache_data):
            cached.clear()
        for memo in (data.component_problem, data.patch_options):
            memo.cache_clear()

    monkeypatch.setenv(DATA_DIR_ENV, str(copy))
    clear()
    yield copy
    monkeypatch.delenv(DATA_DIR_ENV)
    clear()


def test_a_release_without_the_components_recording_says_so(without_1_36_components):
    at = open_app(binary="1.36", emulated="1.36", component="kube-scheduler")
    (error,) = [e for e in texts(at.error) if e.startswith("**Nothing to show**")]
    assert "kube-scheduler's gate set is not recorded for 1.36" in error
    assert not at.dataframe


def test_the_apis_page_is_kube_apiservers_only():
    at = open_app("apis", binary="1.34", emulated="1.34", component="kube-scheduler")
    assert texts(at.error) == ["built-in APIs are kube-apiserver's only: kube-scheduler serves no API (ask with --component kube-apiserver)"]
    assert not at.dataframe


def test_a_component_the_url_cannot_mean_is_named_and_replaced():
    at = open_app(binary="1.34", emulated="1.34", component="kube-proxy")
    assert any(w.startswith("component='kube-proxy' in the URL is not one of kube-apiserver") for w in texts(at.warning))
    assert at.selectbox(key="sel_component").value == "kube-apiserver" and "component" not in at.query_params


def test_what_changes_compares_the_components_gate_sets(capsys):
    at = open_app("changes", binary="1.34", emulated="1.33", component="kube-controller-manager")
    assert kcompat(["changes", "--binary", "1.34", "--emulated", "1.33", "--component", "kube-controller-manager", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["component"] == "kube-controller-manager"
    shown = at.dataframe[0].value
    assert list(shown["gate"]) == [c["name"] for c in document["changes"] if c["behaviour"] != "same"]
    # a 1.34 kube-controller-manager has WatchListClient on whatever it emulates; a real 1.33 one has it off
    assert "WatchListClient" in list(shown["gate"])
    apiserver = open_app("changes", binary="1.34", emulated="1.33").dataframe[0].value
    assert "WatchListClient" not in list(apiserver["gate"])
