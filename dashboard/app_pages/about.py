"""About the data: the bundled releases, the patch each was read from, the recorded patches and
components, the provenance (data/SOURCES.md), broken releases.

In the URL: the provenance section shown (``about_section``)."""

import re

import pandas as pd
import streamlit as st

from dashboard import data, server
from dashboard.server.patch import streamlit_version
from dashboard.state.view_state import ViewState
from dashboard.tables.downloads import table_csv
from dashboard.text import md, or_missing
from kcompat.core.matrix import unrecorded_patches

view = ViewState("about")  # before the first table: its exports name the page's view
url_problems = st.container()  # a URL value of this page that is not an option, named (as on every page)
summary = data.summary()
counts = dict(summary.gate_counts)
broken = dict(summary.broken)

st.subheader("About the data", anchor=False)
st.caption(
    "Everything is bundled with the app and read offline from data/. Every release is read the same way: from the "
    "running code of a named patch release (its registered feature gates, schemes, default API lists and a real "
    "kube-apiserver's discovery), the other served patches' gates and each control-plane component's gate set beside it. "
    "The provenance notes below (data/SOURCES.md) say how."
)

rows = [
    {
        "release": r.release,
        "read from": f"v{r.patch}" if r.patch else None,
        "status": r.status_text,
        "gates": counts.get(r.release),
        "patches": ", ".join(data.patch_options(r.release)) or None,
        # the patch numbers between two recorded ones that the data has no recording of (1.35.7)
        "not recorded": ", ".join(
            p.rsplit(".", 1)[1] for p in unrecorded_patches([f"{r.release}.{n}" for n in data.patch_options(r.release)])
        ) or None,
        "components": "kube-apiserver, kube-controller-manager, kube-scheduler" if r.components_file else "kube-apiserver",
        "loads": r.release not in broken,
        "basis": r.basis,
    }
    for r in summary.releases
]
# A static table wraps long cells (the basis is a sentence), so nothing is cut off in a
# screenshot; it renders Markdown, so every cell goes through md().
st.table(
    pd.DataFrame(
        [
            {
                k: md(or_missing("yes" if v is True else "no" if v is False else v))
                for k, v in row.items()
            }
            for row in rows
        ]
    ),
    hide_index=True,
)
st.caption(
    "read from: the patch release whose running code the release's data is; patches: the patch numbers whose gates are "
    "recorded (`--binary 1.N.P`, the Patch control); not recorded: the patch numbers between two recorded ones that the "
    "data has no recording of, and gives no reason for; components: whose own gate sets are recorded (the Component control); "
    "loads: whether the bundled files load and validate."
)
table_csv(rows, list(rows[0]) if rows else [], "kcompat-releases.csv", "about_releases_csv", help="The bundled releases above as CSV.")
st.caption(f"Default binary: {md(summary.default_binary)} (the newest bundled release that is not a pre-release).")

if broken:
    st.markdown("**Releases whose data cannot be used**")
    for release, problem in broken.items():
        st.error(f"{md(release)}: {md(problem)}", icon=":material/error:")
else:
    st.success("Every bundled release loads.", icon=":material/check:")

# The server's customisations of Streamlit (dashboard/server): one that could not apply to the
# installed Streamlit is named here, as in the server's log.
patches = server.report()
missing = [p for p in patches if not p.applied]
for patch in missing:
    st.warning(f"Server customisation not applied: {md(patch.name)} ({md(patch.detail)}).", icon=":material/warning:")
st.caption(
    f"Server: Streamlit {md(streamlit_version())}; "
    + (f"{len(patches) - len(missing)} of {len(patches)} customisations apply." if missing else f"all {len(patches)} customisations apply.")
)


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
else:
    titles = [title for title, _ in sections]
    shown = view.selectbox(
        "section",
        "Section",
        titles,
        default=titles[min(1, len(titles) - 1)],
        help="A section of data/SOURCES.md; the link keeps the one shown.",
    )
    with st.container(border=True):
        # Project documentation shipped with the data: rendered as Markdown, never as HTML.
        st.markdown(dict(sections)[shown])

with url_problems:
    view.show_problems()
