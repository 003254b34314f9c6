"""A custom feature manifest for this session: uploaded, validated with the same loader as the
bundled data, and used by the Gates page instead of the binary's bundled gates.

Everything about an upload lives in this session's state only (``st.session_state``): the
file's bytes (at most :data:`MAX_BYTES`), what checking it found for the binary rules in use (a
gate count or the problems; at most :data:`_PARSED_KEEP` rule sets) and its views. Nothing is
kept process-wide, so other sessions never see it and it goes when the session ends.

The file is parsed and evaluated in a short-lived process of its own
(:mod:`dashboard.uploads.worker`), never in the server: its millions of short-lived objects would
otherwise leave the server's heap fragmented (110 MB kept after a crowd of uploads had gone), and
the child's CPU limit bounds what a hostile file can cost. A file is counted (gates, specs, YAML
nodes) before it is fully parsed; libyaml's C loader parses the rest.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from dashboard.data import keep_last
from dashboard.gates_view import GatesView, view_of
from dashboard.server.internals import session_gone
from dashboard.state.selection import Selection
from dashboard.text import md
from dashboard.uploads.names import FEATURE_LIST_SUFFIXES, refused_name
from dashboard.uploads.worker import MAX_BYTES, Cancelled, FifoLock, ask
from kcompat.core.compat import parse_binary_version
from kcompat.core.errors import MAX_SHOWN, cut, shown
from kcompat.core.registration import registration_for
from kcompat.core.versions import mm

WIDGET = "custom_manifest_file"
#: Results kept per session (one per registration rule set: 1.31, 1.33, 1.35).
_PARSED_KEEP = 3


@dataclass(frozen=True)
class CustomManifest:
    """A valid upload: the file (the worker parses it again for each view) and its gate count."""

    name: str
    digest: str
    data: bytes
    gates: int


@dataclass
class _Upload:
    """This session's upload: the file and, per registration rule set, its gate count or problems."""

    name: str
    data: bytes
    digest: str
    parsed: dict[str, int | tuple[str, ...]] = field(default_factory=dict)


#: Work on uploads (checking a file, the Gates view of an uploaded manifest, a Check a cluster)
#: runs one at a time in the process: twenty sessions uploading at once then queue on this lock
#: (waiting without holding the interpreter lock) instead of twenty worker processes competing for
#: 2 cores with the server's event loop, which answers /_stcore/health and every other session's
#: messages. First come, first served: a request waits for the ones asked before it only, each
#: bounded by the worker's CPU limit; a request whose session has gone leaves the queue, and its
#: worker is killed.
UPLOAD_WORK = FifoLock()


def _parsed_for(upload: _Upload, sel: Selection) -> int | tuple[str, ...]:
    """The upload checked with the binary's rules (its gate count, or every problem found: file,
    gate, field), memoised in the session. Checking builds the view of ``sel`` in the same worker
    run, so a new upload costs one process, not two."""
    if len(upload.data) > MAX_BYTES:
        return (f"the file is {len(upload.data):,} bytes, more than the limit of {MAX_BYTES:,} bytes",)
    registration = registration_for(mm(parse_binary_version(sel.binary)))
    result = upload.parsed.get(registration)
    if result is None:
        view = _view(sel, upload.data, upload.digest)
        result = upload.parsed[registration] = view if isinstance(view, tuple) else dict(view.metrics)["gates"]
        while len(upload.parsed) > _PARSED_KEEP:
            upload.parsed.pop(next(iter(upload.parsed)))
    return result


def run_worker(request: tuple[Any, ...]) -> tuple[Any, ...]:
    """``request`` answered by the upload worker, one at a time in the process (in the order
    asked); nothing runs for, and no worker outlives, a session that disconnected."""
    gone = session_gone()
    try:
        UPLOAD_WORK.acquire(gone)
        try:
            return ask(request, gone)
        finally:
            UPLOAD_WORK.release()
    except Cancelled:
        st.stop()  # the session is gone: nothing to show (st.stop raises)
        raise


_SESSION_CUSTOM_VIEWS = "_custom_gates_views"


def _view(sel: Selection, data: bytes, digest: str) -> GatesView | tuple[str, ...]:
    """The view of ``sel`` on the uploaded file: this session's (its last few views, never a
    process-wide cache, like the upload itself) or the upload worker's. A tuple holds the problems
    found instead."""
    key = (sel.query, digest)
    views = st.session_state.setdefault(_SESSION_CUSTOM_VIEWS, {})
    view: GatesView | None = views.get(key)
    if view is None:
        kind, value = run_worker(("view", data, sel.binary, sel.emulated, sel.min_compat, sel.feature_gates))
        if kind != "view":
            problems: tuple[str, ...] = value
            return problems
        view = keep_last(views, key, view_of(value))
    return view


def custom_gates_view(sel: Selection, custom: CustomManifest) -> GatesView | tuple[str, ...]:
    """The Gates page's data on a valid upload (see :func:`_view`)."""
    return _view(sel, custom.data, custom.digest)


def custom_download(custom: CustomManifest, fmt: str, args: tuple[str | None, ...]) -> str:
    """``kcompat gates --manifest FILE --format fmt`` for the upload, written by the upload worker."""
    kind, text = run_worker(("download", custom.data, *args, fmt))
    return str(text) if kind == "text" else "\n".join(text) + "\n"


SESSION = "_custom_manifest_upload"


def custom_manifest_in_use() -> bool:
    """Whether this session has uploaded a manifest (valid or not) and not dropped it."""
    return st.session_state.get(SESSION) is not None


def custom_manifest_box(sel: Selection) -> CustomManifest | None:
    """A button opening the upload dialog, and the state of this session's upload. Returns the
    valid custom manifest, if any. Only the button runs on an ordinary rerun."""
    upload = st.session_state.get(SESSION)
    if upload is None:
        # label only (no tooltip): this button is drawn on every rerun of the Gates page
        if st.button("Custom manifest…", key="custom_manifest_open", icon=":material/upload_file:"):
            _upload_dialog(sel.binary)
        return None
    name = cut(upload.name)
    result = _parsed_for(upload, sel)
    left, right = st.columns([5, 1], vertical_alignment="center")
    if isinstance(result, tuple):
        show_problems(result, f"{md(name)} cannot be used", left)
    else:
        left.info(
            f"Using the uploaded manifest {md(name)} ({result} gates) instead of the bundled {md(sel.binary)} gates, "
            "in this session only.",
            icon=":material/upload_file:",
        )
    if right.button("Back to the bundled gates", key="custom_manifest_drop", icon=":material/close:"):
        del st.session_state[SESSION]
        st.rerun()
    if isinstance(result, tuple):
        return None
    return CustomManifest(name, upload.digest, upload.data, result)


@st.dialog("Custom feature manifest")
def _upload_dialog(binary: str) -> None:
    st.caption(
        "A `versioned_feature_list.yaml` from a fork or distribution replaces the bundled gates of the "
        f"{md(binary)} binary on the Gates page, with that binary's version rules. It is validated like the "
        f"bundled data (at most {MAX_BYTES // 1024 // 1024} MB, no YAML anchors or aliases) and never shared "
        "with other sessions."
    )
    uploaded = st.file_uploader(
        "Manifest file",
        key=WIDGET,  # any name is taken by the widget, and refused below unless .yaml or .yml (names.py)
        help="A .yaml or .yml file in Kubernetes' test/compatibility_lifecycle/reference/versioned_feature_list.yaml format.",
    )
    refused = refused_name(uploaded.name, FEATURE_LIST_SUFFIXES) if uploaded is not None else None
    if refused is not None:
        st.error(md(refused), icon=":material/error:")
    elif uploaded is not None:
        data = uploaded.getvalue()
        st.session_state[SESSION] = _Upload(uploaded.name, data, hashlib.sha256(data).hexdigest())
        st.rerun()


def show_problems(problems: tuple[str, ...], heading: str = "The uploaded manifest cannot be shown", where: Any = st) -> None:
    """What the upload worker found wrong: ``heading`` and the count in ``where``, then the
    messages (every one cut, at most :data:`~kcompat.core.errors.MAX_SHOWN` of them)."""
    where.error(f"{heading}: {len(problems):,} problem(s).", icon=":material/error:")
    st.text("\n".join(shown(problems, MAX_SHOWN)))
