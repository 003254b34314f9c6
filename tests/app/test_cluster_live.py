"""The Check a cluster page's live check: offered only where the dashboard serves its own machine
(a loopback server.address); there it reads a recorded cluster on 127.0.0.1 from a pasted
kubeconfig and shows the rows of kcompat scan --live; elsewhere it says the server cannot reach
the cluster and gives the command."""

import sys
from pathlib import Path

import pytest
import streamlit as st
from conftest import open_app, plain, rerun

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from test_scan_live import TOKEN, FakeCluster, recorded_cluster, write_kubeconfig

from dashboard.uploads.live_cluster import serves_locally
from kcompat.answers.scan_live import LiveTarget, live_reader, scan_cluster
from kcompat.core.request import Request
from kcompat.data.catalog import DEFAULT_CATALOG
from kcompat.documents.scan import live_scan_rows


@pytest.fixture
def address():
    before = st.get_option("server.address")
    yield lambda value: st.config.set_option("server.address", value)
    st.config.set_option("server.address", before)


def test_serves_locally():
    assert [serves_locally(a) for a in ("127.0.0.1", "::1", "localhost", "127.0.0.2")] == [True] * 4
    assert [serves_locally(a) for a in ("", None, "0.0.0.0", "10.0.0.5", "kcompat.example")] == [False] * 5


def test_a_server_says_it_cannot_reach_the_cluster(address):
    address("0.0.0.0")
    at = open_app("cluster", binary="1.36", emulated="1.33")
    assert any("cannot reach your cluster" in plain(i.value) for i in at.info)
    assert any(c.value == "kcompat scan --live --binary 1.36 --emulated 1.33" for c in at.code)
    assert not any(t.key == "cluster_live_paste" for t in at.text_area)


def test_a_local_dashboard_reads_the_cluster(address, tmp_path):
    address("127.0.0.1")
    server = FakeCluster(recorded_cluster())
    try:
        kubeconfig = write_kubeconfig(tmp_path, server.url)
        at = open_app("cluster", binary="1.36", emulated="1.33")
        at.text_area(key="cluster_live_paste").input(kubeconfig.read_text())
        next(b for b in at.button if b.label == "Read the cluster").click()
        rerun(at)
        cli = scan_cluster(DEFAULT_CATALOG, Request("1.36", "1.33"), live_reader(LiveTarget(str(kubeconfig), None)))
        table = next(d.value for d in at.dataframe if "finding" in d.value.columns)
        expected = live_scan_rows(cli)
        assert table["finding"].tolist() == ["unreachable", "last-applied", "helm-release", "helm-release"]
        assert table["what"].tolist() == [r["what"] for r in expected]
        page = " ".join(plain(m.value) for m in at.markdown) + " ".join(plain(w.value) for w in at.warning)
        assert "1 resource(s) holding objects would be unreachable" in page
        assert TOKEN not in page
    finally:
        server.stop()
