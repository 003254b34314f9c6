"""A good start is said in words on the pages that give a verdict (Gates, APIs, Check a cluster):
a success line "kube-apiserver 1.36 emulating 1.33 starts and becomes ready, as recorded starts of
v1.36.5 show", the same words as the CLI's ``verdict:`` line, with the honest "readiness not
recorded for this release" when it is not; none for a refusal or a start that does not become ready."""

from __future__ import annotations

import pytest
import streamlit as st
from conftest import ROOT, open_app, plain, texts

from dashboard import data
from kcompat.cli.main import main as kcompat
from kcompat.data.catalog import DATA_DIR_ENV

READY = "kube-apiserver 1.36 emulating 1.33 starts and becomes ready, as recorded starts of v1.36.5 show"


def verdict_of(capsys, *argv: str) -> str | None:
    """The CLI's ``verdict:`` line for the same selection, without its prefix."""
    kcompat(list(argv))
    lines = [line.removeprefix("verdict: ") for line in capsys.readouterr().err.splitlines() if line.startswith("verdict: ")]
    return lines[0] if lines else None


def successes(at) -> list[str]:
    return [plain(s) for s in texts(at.success)]


def starts(at) -> list[str]:
    return [s for s in successes(at) if " starts" in s]


def test_the_gates_page_says_a_good_start_as_the_cli_does(capsys):
    at = open_app("gates", binary="1.36", emulated="1.33")
    assert starts(at) == [READY] == [verdict_of(capsys, "gates", "--binary", "1.36", "--emulated", "1.33")]


def test_on_a_phone_the_gates_page_says_it_in_a_line():
    from streamlit.testing.v1 import AppTest

    # (the app's path from this file's own ROOT: another folder's conftest may be "conftest" by now)
    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=30)
    at.session_state["_is_phone"] = True  # what a "Mobi" User-Agent sets on the first run
    at.query_params["binary"], at.query_params["emulated"] = "1.36", "1.33"
    at.run()
    assert not at.exception and starts(at) == []
    assert any(plain(c.value) == f":material/check_circle: {READY}" for c in at.caption)


@pytest.mark.parametrize("component", ["kube-scheduler", "kube-controller-manager"])
def test_the_gates_page_of_another_component_says_what_is_known(capsys, component):
    at = open_app("gates", binary="1.36", emulated="1.34", component=component)
    expected = verdict_of(capsys, "gates", "--binary", "1.36", "--emulated", "1.34", "--component", component)
    assert starts(at) == [expected]
    assert expected.startswith(f"{component} 1.36 emulating 1.34 starts:") and "its readiness is not recorded" in expected


@pytest.mark.parametrize(("params", "state"), [
    ({"binary": "1.34", "emulated": "1.30"}, "error"),  # the version flags: the frame's refusal
    ({"binary": "1.34", "emulated": "1.34", "feature_gates": "AuthorizeNodeWithSelectors=true,AuthorizeWithSelectors=false"}, "error"),
    ({"binary": "1.34", "emulated": "1.34", "feature_gates": "CoordinatedLeaderElection=true"}, "warning"),
])
def test_the_gates_page_says_no_good_start_when_refused_or_not_ready(params, state):
    at = open_app("gates", **params)
    assert starts(at) == []
    assert getattr(at, state), f"the {state} state is shown"


def test_the_apis_page_says_a_good_start_and_none_when_not_ready(capsys):
    at = open_app("apis", binary="1.36", emulated="1.33")
    assert starts(at) == [READY] == [verdict_of(capsys, "apis", "--binary", "1.36", "--emulated", "1.33")]
    at = open_app("apis", binary="1.34", emulated="1.34", runtime_config="admissionregistration.k8s.io/v1=false")
    assert starts(at) == [] and any("would start but not become ready" in plain(w) for w in texts(at.warning))
    at = open_app("apis", binary="1.37", emulated="1.37", runtime_config="api/all=false,api/v1=true")
    assert starts(at) == [] and at.error


def _paste(at, cmdline):
    at.text_area(key="cluster_paste_cmdline").input(cmdline)
    next(b for b in at.button if b.label == "Check").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_cluster_page_says_a_good_start_and_none_when_refused_or_not_ready(capsys, tmp_path):
    at = _paste(open_app("cluster", binary="1.36", emulated="1.36"), "kube-apiserver --emulated-version=1.33")
    line = tmp_path / "cmd.txt"
    line.write_text("kube-apiserver --emulated-version=1.33\n")
    kcompat(["inspect", "--binary", "1.36", str(line)])
    first = capsys.readouterr().out.splitlines()[0]
    assert starts(at) == [READY] and first == f"# Verdict: {READY}"
    at = _paste(open_app("cluster", binary="1.34", emulated="1.34"), "kube-apiserver --feature-gates=CoordinatedLeaderElection=true")
    assert starts(at) == [] and any("would start but not become ready" in plain(w) for w in texts(at.warning))
    at = _paste(open_app("cluster", binary="1.34", emulated="1.34"), "kube-apiserver --emulated-version=1.30")
    assert starts(at) == [] and any("would exit at start-up" in plain(e) for e in texts(at.error))


# --- readiness not recorded: the bundled data without data/startup/v1.36.json -------------------


def _clear_caches():
    data.catalog.clear()
    data.summary.clear()
    st.cache_data.clear()


@pytest.fixture
def unrecorded(tmp_path, monkeypatch):
    root = tmp_path / "data"
    root.mkdir()
    for item in (ROOT / "data").iterdir():
        if item.name != "startup":
            (root / item.name).symlink_to(item)
    (root / "startup").mkdir()
    for rules in (ROOT / "data" / "startup").iterdir():
        if rules.name != "v1.36.json":
            (root / "startup" / rules.name).symlink_to(rules)
    monkeypatch.setenv(DATA_DIR_ENV, str(root))
    _clear_caches()
    yield root
    monkeypatch.delenv(DATA_DIR_ENV)
    _clear_caches()


NOT_RECORDED = "kube-apiserver 1.36 emulating 1.33 starts; readiness not recorded for this release"


def test_readiness_not_recorded_is_said_on_every_page(unrecorded):
    assert starts(open_app("gates", binary="1.36", emulated="1.33")) == [NOT_RECORDED]
    assert starts(open_app("apis", binary="1.36", emulated="1.33")) == [NOT_RECORDED]
    at = _paste(open_app("cluster", binary="1.36", emulated="1.36"), "kube-apiserver --emulated-version=1.33")
    assert starts(at) == [NOT_RECORDED]
