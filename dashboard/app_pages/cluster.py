"""Check a cluster: paste or upload what a cluster says about a control-plane component (a ps
line, a static pod manifest, a kubeadm or kind config, ``/version``, ``/metrics``), see the
selection found, the prediction, and where ``/metrics`` disagrees with it -- the same document
as ``kcompat inspect`` -- and the flags for that selection as config snippets
(``kcompat config``).

Inputs are bounded in size (checked here, on the server: the browser's own limit is no limit)
and read by the upload worker (:mod:`dashboard.uploads.worker`): a child process with a CPU limit,
one at a time in the order asked, killed when the session disconnects, so a hostile input costs
this server neither CPU time nor heap. The inputs stay in this session's widgets and the last
answer in its state (one document per session): nothing is shared across sessions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.frame.pages import page
from dashboard.frame.selection_bar import SAVED, current, write_url
from dashboard.state.selection import Selection, missing_data, startup_errors
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import data_source, table_exports
from dashboard.tables.table_text import flag_column, table_as_text
from dashboard.tables.text_width import fit_columns
from dashboard.text import code, md
from dashboard.uploads.custom_manifest import run_worker
from dashboard.uploads.live_cluster import live_section
from kcompat.answers.config import config
from kcompat.answers.inspect import Input
from kcompat.core.errors import MAX_SHOWN, echo, printable, shown
from kcompat.core.inspect.model import (
    MAX_CHECK_BYTES,
    MAX_PASTE_CHARS,
    MAX_UPLOAD_BYTES,
    MAX_UPLOADS,
)
from kcompat.documents import formats
from kcompat.documents.config import config_document
from kcompat.documents.gates import GATE_COLUMNS
from kcompat.documents.inspect import (
    DISAGREE_HEADERS,
    REFUSED_VERSION,
    disagree_rows,
    verdict_line,
)

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


#: The session's last answer: (digest of the inputs, (inspect document, config document or None)).
_LAST_CHECK = "_cluster_last_check"
PASTES = (
    ("cluster_paste_cmdline", "Command line, static pod manifest, kubeadm or kind config",
     "A ps line (ps aux | grep kube-apiserver), /etc/kubernetes/manifests/kube-apiserver.yaml, a kubeadm "
     "ClusterConfiguration or a kind Cluster config."),
    ("cluster_paste_version", "/version", "The output of kubectl get --raw /version."),
    ("cluster_paste_metrics", "/metrics", "The output of kubectl get --raw /metrics (or just its kubernetes_feature_enabled and kubernetes_build_info lines)."),
)
#: What each paste is called in the answer: messages say "<name> line 14", so no name ends in
#: "line" ("pasted command line line 14" for a static pod manifest read as a double word).
PASTE_NAMES = {
    "cluster_paste_cmdline": "pasted input",
    "cluster_paste_version": "pasted /version",
    "cluster_paste_metrics": "pasted /metrics",
}
#: What a paste box must hold (the endpoint it is labelled with); the first box takes any format.
EXPECTED = {"cluster_paste_version": "/version", "cluster_paste_metrics": "/metrics"}
UPLOAD = "cluster_upload"
SOURCE_LABELS = {
    "component": "component", "binary": "binary", "emulated": "emulated", "minCompatibility": "min compatibility",
    "featureGates": "--feature-gates", "runtimeConfig": "--runtime-config",
    "emulationForwardCompatible": "--emulation-forward-compatible",
    "runtimeConfigEmulationForwardCompatible": "--runtime-config-emulation-forward-compatible",
}
#: The inputs whose selection the selection bar was last moved to (it follows each new input once:
#: a later change of the bar by hand is not undone while the same inputs stay pasted).
FOLLOWED = "_cluster_followed"


def collect_inputs() -> tuple[list[Input], list[str]]:
    """The pasted texts and uploaded files, with the refusals of oversized ones: every limit is
    checked here, on the server (what the browser enforces, a websocket client does not). A
    paste in the /version or /metrics box must be that endpoint's answer (inspect says what it is
    otherwise)."""
    inputs: list[Input] = []
    problems: list[str] = []
    total = 0
    for key, _, _ in PASTES:
        text = st.session_state.get(key) or ""
        name = PASTE_NAMES[key]
        if len(text) > MAX_PASTE_CHARS:  # the widget keeps one character more: a longer paste is refused, not cut
            problems.append(f"{name}: more than the limit of {MAX_PASTE_CHARS:,} characters")
        elif text.strip():
            inputs.append((name, text, EXPECTED.get(key)))
            total += len(text)
    uploads = st.session_state.get(UPLOAD) or []
    if len(uploads) > MAX_UPLOADS:
        problems.append(f"{len(uploads)} files uploaded, more than the limit of {MAX_UPLOADS} in one check")
        uploads = []
    for upload in uploads:
        name = echo(upload.name, 200)
        if upload.size > MAX_UPLOAD_BYTES:
            problems.append(f"{name}: {upload.size:,} bytes, more than the limit of {MAX_UPLOAD_BYTES:,} bytes")
        else:
            inputs.append((name, upload.getvalue()))
            total += upload.size
    if total > MAX_CHECK_BYTES:
        problems.append(f"the inputs together are {total:,} bytes, more than the limit of {MAX_CHECK_BYTES:,} bytes for one check")
    return inputs, problems


def picker_binary(sel: Selection) -> tuple[str, str]:
    """The Binary picker's binary as the engine takes it, and how the answer names it: for inputs
    that name no binary version (a command line alone), as ``kcompat inspect --binary`` answers."""
    patches = data.patch_options(sel.binary)
    patch = sel.patch or (patches[-1] if patches else None)
    shown = f"{sel.binary_version} (v{sel.binary}.{patch})" if patch else sel.binary_version
    return sel.binary_version, f"{PICKER_SOURCE}{shown}"


#: How the answer names a binary version taken from the picker (``sources.binary`` starts with it).
PICKER_SOURCE = "binary version from the picker: "


def checked_document(inputs: list[Input], picker: tuple[str, str]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The inspect document of ``inputs`` and the config document of the selection they give
    (None when the binary refuses it), from the upload worker, kept for this session's reruns (a
    tab switch, a download) while the inputs stay the same, and the picker's binary too when the
    answer took it (inputs that name their own binary do not depend on the picker)."""
    digest = hashlib.sha256()
    for given in inputs:
        name, content = given[0], given[1]
        raw = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
        digest.update(f"{len(name)}:{name}:{len(raw)}:".encode("utf-8", "surrogatepass"))
        digest.update(raw)
    key = digest.hexdigest()
    last = st.session_state.get(_LAST_CHECK)
    if last is not None and last[0] == key and last[1] in (None, picker):
        kept: tuple[dict[str, Any], dict[str, Any] | None] = last[2]
        return kept
    st.session_state.pop(_LAST_CHECK, None)  # one document per session, never two
    kind, value = run_worker(("inspect", tuple(inputs), *picker))
    documents: tuple[dict[str, Any], dict[str, Any] | None] = (
        value if kind == "document" else ({"valid": False, "errors": list(value), "warnings": [], "observed": None}, None)
    )
    st.session_state[_LAST_CHECK] = (key, picker if from_picker(documents[0]) else None, documents)
    return documents


def from_picker(document: Mapping[str, Any]) -> bool:
    """The answer's binary is the picker's (the inputs name none)."""
    return str(document.get("sources", {}).get("binary", "")).startswith(PICKER_SOURCE)


def show_picker_binary(document: Mapping[str, Any]) -> None:
    """Say that the inputs name no binary version and the picker's is used."""
    if from_picker(document):
        st.info(
            f"No binary version in the inputs: {md(document['sources']['binary'])}. Pick another binary above to check "
            "the same flags on it (`kcompat inspect --binary`).",
            icon=":material/info:",
        )


def input_form() -> None:
    with st.form("cluster_inputs", border=False):
        columns = st.columns(3)
        for column, (key, label, help_text) in zip(columns, PASTES, strict=True):
            # Streamlit cuts a longer value to max_chars on the server: one more than the limit lets
            # collect_inputs refuse it by name instead of reading a silently cut /metrics
            column.text_area(label, key=key, height=160, max_chars=MAX_PASTE_CHARS + 1, help=help_text)
        st.file_uploader(
            "Or upload files", key=UPLOAD, accept_multiple_files=True,
            help=f"The same inputs as files, at most {MAX_UPLOAD_BYTES // 1024 // 1024} MB each; kept in this session only.",
        )
        st.form_submit_button("Check", icon=":material/fact_check:")  # not "primary": white on the dark theme's primary fails contrast


#: How the boolean columns read (in the grids and in their tables as text).
ON_WORDS = ("on", "off")
DISAGREE_WORDS = {"predicted": ON_WORDS, "observed": ON_WORDS}
GATE_WORDS = {"enabled": ON_WORDS, "default": ON_WORDS, "locked": ("locked", "no"), "explicit": ("set", "no")}
GATE_HELP = {
    "enabled": "Predicted value with the cluster's selection",
    "default": "Default at the emulated version",
    "locked": "Locked to its default",
    "explicit": "Set in --feature-gates",
}


def inspected(document: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of a table export of this document: the selection found in the
    inputs (not the bar's, which may not follow a refused one) and the inputs as the source."""
    min_compat = document.get("minCompatibility") or "none"
    if str(document.get("sources", {}).get("minCompatibility", "default")).startswith("default"):
        min_compat += " (default)"
    selection = {
        "binary": document.get("binary") or "not found",
        "emulated": document.get("emulated") or "not found",
        "min compat": min_compat,
        "feature gates": document.get("featureGates") or "none",
        "runtime config": document.get("runtimeConfig") or "none",
    }
    names = ", ".join(item["file"] for item in document.get("inputs", [])) or "none"
    return {"selection": selection, "source": f"cluster inputs ({names}); prediction from the {data_source()}"}


def show_disagreements(document: dict[str, Any]) -> None:
    observed = document["observed"]
    if observed is None:
        st.info("No /metrics among the inputs: the prediction below is not compared with the cluster.", icon=":material/info:")
        return
    disagree = observed["disagree"]
    if disagree:
        st.error(
            f"{len(disagree)} of {observed['gates']} gates on /metrics disagree with the prediction.",
            icon=":material/error:",
        )
        rows = disagree_rows(disagree)
        frame = pd.DataFrame(rows, columns=list(DISAGREE_HEADERS))
        what = "Gates on /metrics that disagree with the prediction"
        st.dataframe(
            frame, hide_index=True, width="stretch", key="cluster_disagree", alt=what,
            column_config=fit_columns({
                "predicted": flag_column("predicted", "On or off by the prediction", ON_WORDS),
                "observed": flag_column("observed", "On or off on /metrics", ON_WORDS),
            }, frame, ("name", "observed stage", "predicted stage", "likely")),
        )
        table_as_text(frame, "table_text_cluster_disagree", f"{what}: {len(frame)} rows", words=DISAGREE_WORDS)
        table_exports(
            rows, DISAGREE_HEADERS, file_name="kcompat-inspect-disagreements.csv", key="cluster_disagree_csv", as_is=True,
            help="These gates, with the columns of the disagreements table `kcompat inspect` prints.", **inspected(document),
        )
    else:
        st.success(
            f"All {observed['agree']} gates kcompat knows agree with the prediction ({observed['gates']} on /metrics).",
            icon=":material/check_circle:",
        )
    if observed["unknown"]:
        unknown = len(observed["unknown"])
        with st.expander(f"{unknown:,} name{'' if unknown == 1 else 's'} on /metrics kcompat does not know (not counted as disagreements)"):
            st.text(printable(", ".join(observed["unknown"])))


def show_refusal(document: dict[str, Any]) -> None:
    """A refused input: the binary's lines, the remedies, then what was read from where."""
    startup = document.get("startup")
    errors = document["errors"]
    if startup:
        listed = shown(errors)  # at most MAX_SHOWN, then "… and N more"
        lines = [f"**{md(startup[0].upper() + startup[1:])}** with", *(code("error: " + e) for e in listed[:MAX_SHOWN]), *listed[MAX_SHOWN:]]
        st.error("  \n".join(lines), icon=":material/block:")
    else:
        st.error(f"The input cannot be used: {len(errors):,} problem(s).", icon=":material/error:")
        st.text("\n".join(shown(errors)))
    for hint in document.get("hints", [])[:MAX_SHOWN]:
        st.info(md(hint_text(hint)), icon=":material/lightbulb:")
    if startup:
        st.caption("No config snippet is offered for input the binary refuses: follow a remedy above and check again.")
    read = [f"{item['file']}: {item['kind'] or 'not read'}" for item in document.get("inputs", [])]
    if read:
        st.caption("Read: " + md("; ".join(read)))


def show_not_ready(document: dict[str, Any]) -> None:
    """The amber state of inputs kube-apiserver starts with but never becomes ready (kcompat
    inspect exits with status 3): the reasons, then the remedies."""
    if not document.get("notReady"):
        return
    lines = [f"**{md(document['startup'][0].upper() + document['startup'][1:])}**:", *(f"- {md(r)}" for r in shown(document["notReady"]))]
    st.warning("\n".join(lines), icon=":material/hourglass_disabled:")
    for hint in document.get("hints", [])[:MAX_SHOWN]:
        st.info(md(hint_text(hint)), icon=":material/lightbulb:")


def show_verdict(document: dict[str, Any]) -> None:
    """A good start in words, as the first line of kcompat inspect's text ("kube-apiserver 1.36
    emulating 1.33 starts and becomes ready, as recorded starts of v1.36.5 show"); nothing for a
    refusal or a start that does not become ready."""
    line = verdict_line(document)  # the inspect document, as the worker sent it
    if line:
        st.success(md(line), icon=":material/check_circle:")


def hint_text(hint: dict[str, Any]) -> str:
    return f"{hint['gate']}: {hint['text']}" if hint["kind"] == "unknown-gate" else hint["text"]


def show_version_disagreements(document: dict[str, Any]) -> None:
    for disagreement in shown(document.get("versionDisagreements") or []):
        st.error(md(disagreement), icon=":material/difference:")


def follow_selection(document: dict[str, Any], inputs: list[Input]) -> None:
    """Move the selection bar to the inspected cluster's binary, emulated version, min
    compatibility and --feature-gates (once per new input), and rerun so the bar shows it."""
    if not document.get("binary") or not document.get("emulated"):
        return
    key = hash(tuple((given[0], given[1]) for given in inputs))
    if st.session_state.get(FOLLOWED) == key:
        return
    st.session_state[FOLLOWED] = key
    sources = document["sources"]
    min_compat = None if sources.get("minCompatibility", "default").startswith("default") else document["minCompatibility"]
    # a refused --feature-gates value stays on this page (the bar would repeat its errors above it)
    gates_refused = document.get("gates") is not None and not document["gates"]["valid"]
    sel = current()
    # the picker's own binary (inputs without one) keeps its patch
    wanted = Selection(document["binary"], document["emulated"], min_compat, "" if gates_refused else document.get("featureGates") or "",
                       sel.patch if from_picker(document) else None)
    summary = data.summary()
    if startup_errors(wanted) or missing_data(wanted, summary.usable, dict(summary.broken)) is not None:
        return  # the bar would refuse it and hide this page's answer: the refusal is shown below instead
    if sel != wanted:
        st.session_state[SAVED] = wanted
        write_url(wanted.params())
        st.rerun()


def show_selection(document: dict[str, Any]) -> None:
    st.subheader("Selection found")
    cols = st.columns(4)
    for col, key in zip(cols, ("component", "binary", "emulated", "minCompatibility"), strict=False):
        col.metric(SOURCE_LABELS[key], document[key] or "refused")  # None: the binary refuses the version flags
    rows = [
        {"setting": label, "value": document.get(key) or (REFUSED_VERSION if key in ("emulated", "minCompatibility") else ""), "from": document["sources"][key]}
        for key, label in SOURCE_LABELS.items() if key in document["sources"]
    ]
    frame = pd.DataFrame(rows, columns=["setting", "value", "from"])
    what = "Selection found in the inputs, and where each setting comes from"
    st.dataframe(frame, hide_index=True, width="stretch", key="cluster_sources", alt=what)
    table_as_text(frame, "table_text_cluster_sources", f"{what}: {len(frame)} rows")
    table_exports(
        rows, ["setting", "value", "from"], file_name="kcompat-inspect-selection.csv", key="cluster_sources_csv", **inspected(document)
    )
    for warning in shown(document["warnings"]):
        st.warning(md(warning), icon=":material/warning:")


def show_prediction(document: dict[str, Any]) -> None:
    gates = document["gates"]
    st.subheader("Prediction")
    params = {"binary": document["binary"], "emulated": document["emulated"]}
    if document["featureGates"]:
        params["feature_gates"] = document["featureGates"]
    st.page_link(page("gates"), label="Open this selection on the Gates page", icon=":material/toggle_on:", query_params=params)
    frame = pd.DataFrame(gates["features"], columns=list(GATE_COLUMNS))
    what = f"Predicted feature gates of a {document['binary']} binary emulating {document['emulated']}"
    st.dataframe(
        frame, hide_index=True, width="stretch", key="cluster_gates", alt=what,
        column_config={name: flag_column(name, GATE_HELP[name], words) for name, words in GATE_WORDS.items()},
    )
    table_as_text(frame, "table_text_cluster_gates", f"{what}: {len(frame)} rows", words=GATE_WORDS)
    table_exports(
        gates["features"], GATE_COLUMNS, file_name="kcompat-inspect-gates.csv", key="cluster_gates_csv", as_is=True,
        help="Every predicted gate, with the columns of the predicted gates table `kcompat inspect` prints.", **inspected(document),
    )


def show_snippets(config: Mapping[str, Any]) -> None:
    """The flags for a selection as a command line, kubeadm, kind and static pod patches."""
    if not config["valid"]:
        count = len(config["errors"]) + int(config.get("errorsOmitted") or 0)  # the document keeps the first 20 and counts the rest
        st.error(f"The selection cannot be used: {count:,} problem(s).", icon=":material/error:")
        st.text("\n".join(formats.listed(config, "errors")))
        return
    if "snippets" not in config:  # kube-apiserver would start but never become ready: no config is handed out
        st.warning(
            "No config is given for this selection: kube-apiserver would start but never become ready "
            "(as `kcompat config` refuses it).", icon=":material/hourglass_disabled:",
        )
        st.text("\n".join(formats.listed(config, "notReady")))
        for hint in config.get("hints") or ():
            st.caption(md(f"Remedy: {hint['text']}"))
        return
    tabs = view.tabs("snippet", ("cmdline", "kubeadm", "kind", "static-pod"), ("Command line", "kubeadm (v1beta4)", "kind", "Static pod patches"))
    snippets = config["snippets"]
    tabs[0].code(snippets["cmdline"], language=None)  # no syntax colours: they fail contrast
    tabs[1].code(snippets["kubeadm"], language=None)
    tabs[2].code(snippets["kind"], language=None)
    for name, text in snippets["static-pod"].items():
        tabs[3].caption(code(name))
        tabs[3].code(text, language=None)
    if not snippets["static-pod"]:
        tabs[3].caption("No flags to add: the selection is the binary's own defaults.")


view = ViewState("cluster")
url_problems = st.container()  # warnings about this page's URL values
st.caption(
    "Paste or upload what a cluster says about its kube-apiserver (or controller-manager, or scheduler): "
    "kcompat reads the binary, emulated and min compatibility versions and the flags, predicts every gate, and "
    "compares the prediction with /metrics. A command line alone is checked on the binary picked above. "
    "The same as kcompat inspect; nothing is kept beyond this session."
)
input_form()
inputs, upload_problems = collect_inputs()
refused = False  # the inputs' kube-apiserver would refuse: no live check of what it would serve
if upload_problems:
    for problem in upload_problems:
        st.error(md(problem), icon=":material/error:")
elif inputs:
    document, inspected_config = checked_document(inputs, picker_binary(current()))
    follow_selection(document, inputs)
    show_picker_binary(document)
    if not document["valid"]:
        refused = True
        show_refusal(document)
        if document.get("binary"):
            show_selection(document)
    else:
        show_not_ready(document)
        show_verdict(document)
        show_version_disagreements(document)
        show_disagreements(document)
        show_selection(document)
        st.subheader("Config for this selection")
        show_snippets(inspected_config or {"valid": False, "errors": ["no config for these inputs"]})
        show_prediction(document)
        st.download_button(
            "Download the inspect document (JSON)", formats.to_json(document), file_name="kcompat-inspect.json",
            mime="application/json", icon=":material/download:", key="cluster_download",
        )
else:
    sel = current()
    st.subheader("Config for the selection above")
    st.caption("The flags that give the selection chosen above, for each control-plane component that takes them.")
    show_snippets(
        config_document(config(data.catalog(), sel.request if sel.is_emulating else sel.request.with_(emulated=None), every_component=True))
    )

if not refused:
    live_section(current())

with url_problems:
    view.show_problems()
