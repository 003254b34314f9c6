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


def custom_manifest_in_use() -> bool:
    """Whether this session has a file in the upload control."""
    return st.session_state.get(WIDGET) is not None


def custom_manifest_box(binary: str) -> CustomManifest | None:
    """The upload control; returns the session's valid custom manifest, if any."""
    with st.expander("Custom feature manifest (this session only)", icon=":material/upload_file:"):
        st.caption(
            "A `versioned_feature_list.yaml` from a fork or distribution replaces the bundled gates of the "
            f"{md(binary)} binary on this page, with that binary's version rules. It is validated like the "
            f"bundled data (at most {MAX_BYTES // 1024 // 1024} MB, no YAML anchors or aliases) and is never shared with other sessions."
        )
        uploaded = st.file_uploader(
            "Manifest file",
            type=["yaml", "yml"],
            key=WIDGET,
            help="Kubernetes' test/compatibility_lifecycle/reference/versioned_feature_list.yaml format.",
        )
        if uploaded is None:
            return None
        data = uploaded.getvalue()
        if len(data) > MAX_BYTES:
            st.error(f"{md(uploaded.name)} is {len(data):,} bytes, more than the limit of {MAX_BYTES:,} bytes.", icon=":material/error:")
            return None
        result = parse_upload(data, binary)
        if isinstance(result, tuple):
            st.error(f"{md(uploaded.name)} cannot be used: {len(result)} problem(s).", icon=":material/error:")
            st.text("\n".join(result[:100]))
            return None
    st.info(
        f"Using the uploaded manifest {md(uploaded.name)} ({len(result)} gates) instead of the bundled {md(binary)} gates.",
        icon=":material/upload_file:",
    )
    return CustomManifest(uploaded.name, hashlib.sha256(data).hexdigest(), result)
