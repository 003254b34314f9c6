"""A custom feature manifest for this session: uploaded, validated with the same loader as the
bundled data, and used by the Gates page instead of the binary's bundled gates.

Everything about an upload lives in this session's state only (``st.session_state``): the
file's bytes (at most :data:`MAX_BYTES`) and its parsed result for the binary rules in use (at
most :data:`_PARSED_KEEP` rule sets). Nothing is kept process-wide, so other sessions never see
it, it goes when the session ends, and many uploads cannot grow the server. A file is counted
(gates, specs, YAML nodes) before it is fully parsed; libyaml's C loader parses the rest.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field

import streamlit as st

from dashboard.core.compat import parse_binary_version
from dashboard.core.errors import KcompatError, MAX_SHOWN, cut, shown
from dashboard.core.manifest import Manifest, ManifestError, load_manifest_bytes, registration_for
from dashboard.core.versions import mm

from .text import md

#: Largest manifest accepted (the real 1.37 list is about 60 kB); the server refuses above 5 MB.
MAX_BYTES = 2 * 1024 * 1024
WIDGET = "custom_manifest_file"
#: Parsed results kept per session (one per registration rule set: 1.31, 1.33, 1.35).
_PARSED_KEEP = 3


@dataclass(frozen=True)
class CustomManifest:
    name: str
    digest: str
    manifest: Manifest


@dataclass
class _Upload:
    """This session's upload: the file and its parsed result per registration rule set."""

    name: str
    data: bytes
    digest: str
    parsed: dict[str, Manifest | tuple[str, ...]] = field(default_factory=dict)


def parse_upload(data: bytes, binary: str) -> Manifest | tuple[str, ...]:
    """The manifest, or every problem found (file, gate, field), with the binary's registration rules."""
    registration = registration_for(mm(parse_binary_version(binary)))
    return _parse(data, registration)


#: Work on uploads (parsing, the Gates view of an uploaded manifest) runs one at a time in the
#: process: twenty sessions uploading at once then queue on this lock (waiting without holding
#: the interpreter lock) instead of twenty CPU-bound threads starving the server's event loop,
#: which answers /_stcore/health and every other session's messages.
UPLOAD_WORK = threading.Lock()


def _parse(data: bytes, registration: str) -> Manifest | tuple[str, ...]:
    with UPLOAD_WORK:
        try:
            return Manifest(load_manifest_bytes(data, "uploaded file", MAX_BYTES, registration))
        except ManifestError as exc:
            return tuple(str(p) for p in exc.problems)
        except KcompatError as exc:
            return (str(exc),)


def _parsed_for(upload: _Upload, binary: str) -> Manifest | tuple[str, ...]:
    """The upload parsed with the binary's rules, memoised in the session."""
    if len(upload.data) > MAX_BYTES:
        return (f"the file is {len(upload.data):,} bytes, more than the limit of {MAX_BYTES:,} bytes",)
    registration = registration_for(mm(parse_binary_version(binary)))
    result = upload.parsed.get(registration)
    if result is None:
        result = upload.parsed[registration] = _parse(upload.data, registration)
        while len(upload.parsed) > _PARSED_KEEP:
            upload.parsed.pop(next(iter(upload.parsed)))
    return result


SESSION = "_custom_manifest_upload"


def custom_manifest_in_use() -> bool:
    """Whether this session has uploaded a manifest (valid or not) and not dropped it."""
    return st.session_state.get(SESSION) is not None


def custom_manifest_box(binary: str) -> CustomManifest | None:
    """A button opening the upload dialog, and the state of this session's upload. Returns the
    valid custom manifest, if any. Only the button runs on an ordinary rerun."""
    upload = st.session_state.get(SESSION)
    if upload is None:
        # label only (no tooltip): this button is drawn on every rerun of the Gates page
        if st.button("Custom manifest…", key="custom_manifest_open", icon=":material/upload_file:"):
            _upload_dialog(binary)
        return None
    name = cut(upload.name)
    result = _parsed_for(upload, binary)
    left, right = st.columns([5, 1], vertical_alignment="center")
    if isinstance(result, tuple):
        left.error(f"{md(name)} cannot be used: {len(result):,} problem(s).", icon=":material/error:")
        st.text("\n".join(shown(result, MAX_SHOWN)))
    else:
        left.info(
            f"Using the uploaded manifest {md(name)} ({len(result)} gates) instead of the bundled {md(binary)} gates, "
            "in this session only.",
            icon=":material/upload_file:",
        )
    if right.button("Back to the bundled gates", key="custom_manifest_drop", icon=":material/close:"):
        del st.session_state[SESSION]
        st.rerun()
    if isinstance(result, tuple):
        return None
    return CustomManifest(name, upload.digest, result)


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
        type=["yaml", "yml"],
        key=WIDGET,
        help="Kubernetes' test/compatibility_lifecycle/reference/versioned_feature_list.yaml format.",
    )
    if uploaded is not None:
        data = uploaded.getvalue()
        st.session_state[SESSION] = _Upload(uploaded.name, data, hashlib.sha256(data).hexdigest())
        st.rerun()
