"""Check manifests: paste or upload Kubernetes manifests (YAML, JSON, rendered Helm output,
``kind: List``) and see every object a kube-apiserver with the selection would not serve, why,
and the nearest served version: the answer of ``kcompat scan`` for the same selection
(:func:`kcompat.answers.scan.scan`, rows from :mod:`kcompat.documents.scan`).

The inputs are bounded here, on the server, and read by the upload worker (a child process with a
CPU limit, as on Check a cluster); they stay in this session's widgets and the last answer in its
state, never in the URL. In the URL: the selection bar's selection and the page's own flags and
toggle (``manifests_runtime_config``, ``manifests_efc``, ``manifests_rcefc``, ``manifests_all``).
"""

from __future__ import annotations

import hashlib
import shlex
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.frame.selection_bar import current
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import data_source, table_exports
from dashboard.tables.table_text import table_as_text
from dashboard.tables.text_width import fit_columns
from dashboard.text import md
from dashboard.uploads.custom_manifest import run_worker
from dashboard.uploads.names import MANIFEST_SUFFIXES, refused_name
from kcompat.core.errors import KcompatError, echo, shown
from kcompat.core.runtime_config import MAX_RUNTIME_CONFIG_LENGTH, parse_runtime_config
from kcompat.core.scan import MAX_SCAN_BYTES, ScanAnswer
from kcompat.documents import formats
from kcompat.documents.scan import (
    SCAN_COLUMNS,
    scan_document,
    scan_rows,
    summary_counts,
)

#: The paste box and the uploader (widget keys); uploads per check and bytes of all inputs of one
#: check (the upload worker reads about 1.5 MB a second and stops at 3 s of CPU).
PASTE, UPLOAD = "manifests_paste", "manifests_upload"
MAX_MANIFEST_UPLOADS = 5
MAX_MANIFEST_CHECK_BYTES = 2 * MAX_SCAN_BYTES
#: The uploader's own per-file limit, in the MiB Streamlit counts (its "Limit 1MB per file" label and
#: its refusal): the same limit as the check's (server.maxUploadSize only bounds the whole server).
UPLOAD_MIB = MAX_SCAN_BYTES // (1024 * 1024)
#: The session's last answer: (digest of the inputs and the selection, answer).
_LAST = "_manifests_last_check"
PASTED = "pasted manifests"


def runtime_config_problem(text: str) -> str | None:
    try:
        parse_runtime_config(text)
    except KcompatError as exc:
        return f"cannot be used ({exc}); using no --runtime-config"
    return None


def collect_inputs() -> tuple[list[tuple[str, bytes | str]], list[str]]:
    """The pasted text and uploaded files, with the refusals of oversized ones (checked here, on
    the server: what the browser enforces, a websocket client does not)."""
    inputs: list[tuple[str, bytes | str]] = []
    problems: list[str] = []
    text = st.session_state.get(PASTE) or ""
    total = 0
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SCAN_BYTES:
        problems.append(f"{PASTED}: more than the limit of {MAX_SCAN_BYTES:,} bytes for one manifest input")
    elif text.strip():
        inputs.append((PASTED, text))
        total += len(text)
    uploads = st.session_state.get(UPLOAD) or []
    if len(uploads) > MAX_MANIFEST_UPLOADS:
        problems.append(f"{len(uploads)} files uploaded, more than the limit of {MAX_MANIFEST_UPLOADS} in one check")
        uploads = []
    for upload in uploads:
        name = echo(upload.name, 200)
        if (refused := refused_name(upload.name, MANIFEST_SUFFIXES)) is not None:
            problems.append(refused)
        elif upload.size > MAX_SCAN_BYTES:
            problems.append(f"{name}: {upload.size:,} bytes, more than the limit of {MAX_SCAN_BYTES:,} bytes for one manifest input")
        else:
            inputs.append((name, upload.getvalue()))
            total += upload.size
    if total > MAX_MANIFEST_CHECK_BYTES:
        problems.append(f"the inputs together are {total:,} bytes, more than the limit of {MAX_MANIFEST_CHECK_BYTES:,} bytes for one check")
    return inputs, problems


def checked(inputs: list[tuple[str, bytes | str]], request: tuple[Any, ...]) -> tuple[str, Any]:
    """The answer for ``inputs`` and the selection (``request``), from the upload worker; kept for
    this session's reruns while both stay the same (one answer per session)."""
    digest = hashlib.sha256(repr(request).encode())
    for name, content in inputs:
        raw = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
        digest.update(f"{len(name)}:{name}:{len(raw)}:".encode("utf-8", "surrogatepass"))
        digest.update(raw)
    key = digest.hexdigest()
    last = st.session_state.get(_LAST)
    if last is not None and last[0] == key:
        answer: tuple[str, Any] = last[1]
        return answer
    st.session_state.pop(_LAST, None)
    kind, value = run_worker(("scan", tuple(inputs), *request))
    answer = value if kind == "scan" else tuple(value)
    st.session_state[_LAST] = (key, answer)
    return answer


def cli_command(request: tuple[Any, ...], names: list[str], fmt: str = "json") -> str:
    binary, emulated, min_compat, feature_gates, runtime_config, efc, rcefc = request
    argv = ["kcompat", "scan", *(n if n != PASTED else "-" for n in names), "--binary", binary, "--emulated", emulated]
    if min_compat:
        argv += ["--min-compat", min_compat]
    if feature_gates:
        argv += ["--feature-gates", feature_gates]
    if runtime_config:
        argv += ["--runtime-config", runtime_config]
    if efc:
        argv.append("--emulation-forward-compatible")
    if rcefc:
        argv.append("--runtime-config-emulation-forward-compatible")
    return shlex.join([*argv, "--format", fmt])


def show_answer(answer: ScanAnswer, request: tuple[Any, ...], every: bool) -> None:
    for error in shown(answer.errors):
        st.error(md(error), icon=":material/block:")
    for hint in answer.hints:
        st.info(md(hint.text), icon=":material/lightbulb:")
    if answer.errors:
        st.caption("kube-apiserver would refuse to start with this selection (`kcompat scan` exits with status 2); "
                   "the objects below are checked against what the rest of the flags give.")
    for problem in shown(answer.problems):
        st.error(md(problem), icon=":material/error:")
    for warning in shown(answer.warnings):
        st.warning(md(warning), icon=":material/warning:")
    counts = summary_counts(answer)
    release = ".".join(answer.binary.split(".")[:2])
    binary = f"a {answer.binary} kube-apiserver" + (f" emulating {answer.emulated}" if answer.emulated != release else "")
    if counts["notServed"]:
        st.error(f"{counts['notServed']} of {counts['objects']} objects would not be served by {md(binary)}.", icon=":material/error:")
    elif counts["objects"]:
        st.success(f"Every built-in object is served by {md(binary)} ({counts['served']} of {counts['objects']}).", icon=":material/check_circle:")
    with st.container(horizontal=True):
        st.metric("Objects", counts["objects"], help="Objects read from the inputs (kind: List items and JSON array elements each count).")
        st.metric("Not served", counts["notServed"], help="Built-in objects this kube-apiserver would not serve with the selection.")
        st.metric("Served", counts["served"])
        st.metric("Not checked", counts["notChecked"], help="Custom resources (not built in) and kinds the bundled data of this release lacks.")
    rows = scan_rows(answer, every)
    what = f"Objects {'' if every else 'not served or not checked '}for {binary}"
    if rows:
        frame = pd.DataFrame(rows, columns=list(SCAN_COLUMNS))
        config = {
            "where": st.column_config.TextColumn("where", help="File and line of the object (and the Helm template it was rendered from)"),
            "status": st.column_config.TextColumn("status", help="served, not served, or not checked (not a built-in API)"),
            "reason": st.column_config.TextColumn("reason", width="large", help="Why, as kcompat scan says it"),
            "nearest": st.column_config.TextColumn(
                "nearest", width="medium",
                help="The nearest served version: the replacement the data names, else a served version of the same kind in its group",
            ),
            "lifecycle": st.column_config.TextColumn(
                "lifecycle", width="large",
                help="Deprecated in, removed in and the replacement the release data gives the kind (APILifecycle*), "
                "at the emulated version; not recorded: the data has no lifecycle for it",
            ),
        }
        config = fit_columns(config, frame, ("reason", "nearest", "lifecycle"))  # the answers, in full: the grid scrolls sideways
        st.dataframe(frame, hide_index=True, key="manifests_table", column_config=config, alt=what)
        table_as_text(frame, "table_text_manifests", f"{what}: {len(frame)} rows", row_header="where")
        names = ", ".join(i.file for i in answer.inputs) or "none"
        table_exports(
            rows, SCAN_COLUMNS, "kcompat-scan.csv", "manifests_table_export", as_is=True,
            help="These objects, with the columns of the table `kcompat scan` prints.",
            source=f"manifests ({names}); APIs from the {data_source(answer.binary)}",
        )
    elif counts["objects"]:
        st.caption("Every object is served: turn on “Show served objects too” to list them.")
    st.download_button(
        "Download the scan document (JSON)", formats.to_json(scan_document(answer)), file_name="kcompat-scan.json",
        mime="application/json", icon=":material/download:", key="manifests_download", on_click="ignore",
    )
    st.caption("Same as the command line (the pasted text on stdin):")
    st.code(cli_command(request, [i.file for i in answer.inputs]), language=None)


sel = current()
view = ViewState("manifests")
url_problems = st.container()
st.caption(
    "Paste or upload Kubernetes manifests (YAML with any number of documents, rendered Helm output, kind: List, JSON): "
    "every object is checked against the built-in APIs the selected kube-apiserver serves, as `kcompat scan` does, "
    "with the reason and the nearest served version. Nothing is kept beyond this session."
)
with st.container(border=True, horizontal=True, vertical_alignment="bottom"):
    runtime_config = view.text_input(
        "runtime_config", "--runtime-config", validate=runtime_config_problem, max_chars=MAX_RUNTIME_CONFIG_LENGTH,
        placeholder="e.g. networking.k8s.io/v1beta1=true",
        help="The kube-apiserver `--runtime-config` value the objects are checked with (as on the APIs page).",
    )
    efc = view.toggle("efc", "--emulation-forward-compatible", help="`--emulation-forward-compatible=true` (1.33+, only while emulating).")
    rcefc = view.toggle(
        "rcefc", "--runtime-config-emulation-forward-compatible",
        help="`--runtime-config-emulation-forward-compatible=true` (1.33+, only while emulating).",
    )
with st.form("manifests_inputs", border=False):
    st.text_area(
        "Manifests", key=PASTE, height=200, max_chars=MAX_SCAN_BYTES + 1,
        help="One or more YAML documents (---), the output of helm template, kubectl get -o yaml|json, or a JSON object or array.",
    )
    st.file_uploader(
        "Or upload files", key=UPLOAD, accept_multiple_files=True, max_upload_size=UPLOAD_MIB,  # .yaml, .yml, .json: checked in collect_inputs (names.py)
        help=f"At most {MAX_MANIFEST_UPLOADS} files of {UPLOAD_MIB} MiB ({MAX_SCAN_BYTES:,} bytes) each; kept in this session only.",
    )
    st.form_submit_button("Check", icon=":material/fact_check:")
every = view.toggle("all", "Show served objects too", help="List every object, served ones included (`kcompat scan --all`).")
with url_problems:
    view.show_problems()

inputs, problems = collect_inputs()
request = (sel.binary_version, sel.emulated, sel.min_compat or "", sel.feature_gates or "", runtime_config or "", bool(efc), bool(rcefc))
if problems:
    for problem in problems:
        st.error(md(problem), icon=":material/error:")
elif inputs:
    answer = checked(inputs, request)
    if isinstance(answer, tuple):  # the worker could not answer
        for problem in answer:
            st.error(md(problem), icon=":material/error:")
    else:
        show_answer(answer, request, bool(every))
else:
    st.info("Paste or upload manifests and press Check.", icon=":material/upload_file:")
