"""A custom feature manifest for this session: uploaded, validated with the same loader as the
bundled data, and used by the Gates page instead of the binary's bundled gates.

The parsed manifest is cached by the file's SHA-256 (immutable, content-addressed), and the
choice to use it lives in this session's state only: other sessions never see it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from dashboard.core.compat import parse_binary_version
from dashboard.core.errors import KcompatError
from dashboard.core.manifest import Manifest, ManifestError, load_manifest_bytes, registration_for
from dashboard.core.versions import mm

from .text import md

#: Largest manifest accepted (the real 1.37 list is about 50 kB); the server refuses above 5 MB.
MAX_BYTES = 2 * 1024 * 1024
WIDGET = "custom_manifest_file"


@dataclass(frozen=True)
class CustomManifest:
    name: str
    digest: str
    manifest: Manifest


def parse_upload(data: bytes, binary: str) -> Manifest | tuple[str, ...]:
    """The manifest, or every problem found (file, gate, field), with the binary's registration rules."""
    registration = registration_for(mm(parse_binary_version(binary)))
    digest = hashlib.sha256(data).hexdigest()
    return _parse(digest, registration, data)


@st.cache_resource(show_spinner=False, max_entries=32)
def _parse(digest: str, registration: str, _data: bytes) -> Manifest | tuple[str, ...]:
    # keyed by content and rules; ``_data`` is not hashed by Streamlit (the digest stands for it)
    try:
        return Manifest(load_manifest_bytes(_data, "uploaded file", MAX_BYTES, registration))
    except ManifestError as exc:
        return tuple(str(p) for p in exc.problems)
    except KcompatError as exc:
        return (str(exc),)


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
    name, data = upload
    result = parse_upload(data, binary) if len(data) <= MAX_BYTES else (
        f"the file is {len(data):,} bytes, more than the limit of {MAX_BYTES:,} bytes",
    )
    left, right = st.columns([5, 1], vertical_alignment="center")
    if isinstance(result, tuple):
        left.error(f"{md(name)} cannot be used: {len(result)} problem(s).", icon=":material/error:")
        st.text("\n".join(result[:100]))
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
    return CustomManifest(name, hashlib.sha256(data).hexdigest(), result)


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
        st.session_state[SESSION] = (uploaded.name, uploaded.getvalue())
        st.rerun()
