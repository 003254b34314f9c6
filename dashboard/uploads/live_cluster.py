"""The Check a cluster page's live check (``kcompat scan --live``): what the cluster of an uploaded
or pasted kubeconfig context holds, checked against the selection bar's selection.

It is offered only where the dashboard serves the machine it runs on (``server.address`` is a
loopback address, as ``kcompat serve`` binds by default): the server then connects to the cluster
with the user's own kubeconfig, as the command would. A server others reach cannot reach the
user's cluster with the user's credentials (and must not hold them): it says so and gives the
command to run instead. The kubeconfig is written to a private folder (0700) only for the read and
removed after it; nothing of it is kept in the session or shown.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
import shutil
import tempfile

import streamlit as st

from dashboard.state.selection import Selection
from dashboard.text import md
from kcompat.core.errors import KcompatError, shown

#: a kubeconfig (kcompat.data.live.MAX_KUBECONFIG_BYTES)
MAX_KUBECONFIG_BYTES = 4 * 1024 * 1024
#: the whole read, from the page (the command's default is 900 s)
PAGE_READ_SECONDS = 180.0


def serves_locally(address: object) -> bool:
    """Whether ``server.address`` binds the loopback interface only (the dashboard then runs on
    the user's own machine)."""
    if not isinstance(address, str) or not address:
        return False  # Streamlit's default binds every interface
    if address == "localhost":
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def command(sel: Selection) -> str:
    argv = ["kcompat", "scan", "--live", "--binary", sel.binary_version, "--emulated", sel.emulated]
    if sel.min_compat:
        argv += ["--min-compat", sel.min_compat]
    if sel.feature_gates:
        argv += ["--feature-gates", sel.feature_gates]
    return shlex.join(argv)


def live_section(sel: Selection) -> None:
    """The expander of the Check a cluster page (see the module)."""
    with st.expander("What a live cluster holds, checked against this selection (kcompat scan --live)"):
        if not serves_locally(st.get_option("server.address")):
            st.info(md(
                "This dashboard runs on a server, which cannot reach your cluster with your credentials (and should not "
                "hold them). Run the same check where your kubeconfig works:"), icon=":material/cloud_off:")
            st.code(command(sel), language="sh")
            return
        st.caption(md(
            "Resources holding objects the selection would not serve, objects last applied with an apiVersion it does not "
            "serve, deployed Helm 3 releases whose manifest uses one. This dashboard runs on this machine: it reads the "
            "cluster with the kubeconfig given here (paths inside it must be absolute), which is removed after the read."))
        with st.form("cluster_live", border=False):
            upload = st.file_uploader("kubeconfig", key="cluster_live_kubeconfig", type=None)
            pasted = st.text_area("or paste it", key="cluster_live_paste", height=100, max_chars=MAX_KUBECONFIG_BYTES)
            context = st.text_input("context (default: its current-context)", key="cluster_live_context", max_chars=253)
            asked = st.form_submit_button("Read the cluster", icon=":material/travel_explore:")
        if not asked:
            return
        data = upload.getvalue() if upload is not None else (pasted or "").encode()
        if not data.strip():
            st.warning("Give a kubeconfig (upload or paste it).")
            return
        if len(data) > MAX_KUBECONFIG_BYTES:
            st.error(f"The kubeconfig is larger than the limit of {MAX_KUBECONFIG_BYTES:,} bytes.")
            return
        _read_and_show(sel, data, context or None)


def _read_and_show(sel: Selection, kubeconfig: bytes, context: str | None) -> None:
    from dashboard import data
    from kcompat.answers.scan_live import LiveTarget, live_reader, scan_cluster
    from kcompat.documents.scan import (
        LIVE_SCAN_COLUMNS,
        live_scan_rows,
        live_summary_line,
    )

    folder = tempfile.mkdtemp(prefix="kcompat-live-")
    try:
        path = os.path.join(folder, "kubeconfig")
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as f:
            f.write(kubeconfig)
        with st.spinner("Reading the cluster…"):
            try:
                reader = live_reader(LiveTarget(path, context, max_seconds=PAGE_READ_SECONDS))
                answer = scan_cluster(data.catalog(), sel.request, reader)
            except KcompatError as exc:
                st.error(md(str(exc)), icon=":material/block:")
                return
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for error in shown([*answer.errors, *([answer.unreadable] if answer.unreadable else [])]):
        st.error(md(error), icon=":material/block:")
    st.markdown(md(live_summary_line(answer)))
    rows = live_scan_rows(answer)
    if rows:
        st.dataframe(rows, column_order=LIVE_SCAN_COLUMNS, hide_index=True)
    elif answer.valid:
        st.success("Everything read is served by this selection.", icon=":material/check_circle:")
    for line in shown(answer.not_read):
        st.warning(md(f"Not read: {line}"))
