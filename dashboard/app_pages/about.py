"""About the data: bundled releases, exact vs reconstructed, provenance, broken releases."""

import re

import pandas as pd
import streamlit as st

from dashboard.components import data
from dashboard.components.text import md

summary = data.summary()
counts = dict(summary.gate_counts)
broken = dict(summary.broken)

st.subheader("About the data", anchor=False)
st.caption(
    "Everything is bundled with the app and read offline from data/: one feature-gate manifest per release "
    "(the format of Kubernetes' versioned_feature_list.yaml), descriptions, and the provenance notes below."
)

releases = pd.DataFrame(
    [
        {
            "release": r.release,
            "data": "exact" if r.exact else "reconstructed",
            "status": r.status_text,
            "gates": counts.get(r.release),
            "loads": r.release not in broken,
            "basis": r.basis,
            "files": ", ".join(r.feature_files),
        }
        for r in summary.releases
    ]
)
st.dataframe(
    releases,
    hide_index=True,
    key="about_releases",
    column_config={
        "data": st.column_config.TextColumn("data", help="exact = verified gate by gate against the release source at x.y.0"),
        "loads": st.column_config.CheckboxColumn("loads", help="Whether the bundled files load and validate"),
        "basis": st.column_config.TextColumn("basis", width="large"),
    },
)
st.caption(f"Default binary: {md(summary.default_binary)} (the newest bundled release that is not a development snapshot).")

if broken:
    st.markdown("**Releases whose data cannot be used**")
    for release, problem in broken.items():
        st.error(f"{md(release)}: {md(problem)}", icon=":material/error:")
else:
    st.success("Every bundled release loads.", icon=":material/check:")


@st.cache_data(show_spinner=False)
def _sources() -> list[tuple[str, str]]:
    """data/SOURCES.md split into its ``## `` sections (title, body)."""
    try:
        text = (data.catalog().data_dir / "SOURCES.md").read_text(encoding="utf-8")
    except OSError:
        return []
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    return [(p.split("\n", 1)[0].strip(), p.split("\n", 1)[1] if "\n" in p else "") for p in parts[1:]]


st.markdown("**Provenance** (data/SOURCES.md)")
sections = _sources()
if not sections:
    st.caption("data/SOURCES.md is missing.")
for i, (title, body) in enumerate(sections):
    with st.expander(md(title), expanded=i == 2):
        # Project documentation shipped with the data: rendered as Markdown, never as HTML.
        st.markdown(body)
