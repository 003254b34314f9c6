"""The landing page's introduction: what the tool answers, what emulation is, where to read more."""

from __future__ import annotations

import streamlit as st

from dashboard.state.selection import Selection

KEP_4330 = "https://github.com/kubernetes/enhancements/tree/master/keps/sig-architecture/4330-compatibility-versions"
FEATURE_GATES_DOC = "https://kubernetes.io/docs/reference/command-line-tools-reference/feature-gates/"
COMPATIBILITY_DOC = "https://kubernetes.io/docs/concepts/cluster-administration/compatibility-version/"

HEADING = "What does a Kubernetes binary enable when it emulates an older release?"
EMULATION = (
    "A control-plane binary (kube-apiserver, kube-controller-manager, kube-scheduler) started with "
    "`--emulated-version` behaves like that older release: its feature gates, their defaults and its "
    "APIs follow the emulated version, so a cluster can be upgraded one step at a time and rolled back."
)


#: The expander holding the sentence and the links when the heading is compact.
MORE_LABEL = "What --emulated-version does, and where to read more"


def landing_intro(sel: Selection, landing: Selection, compact: bool = False) -> None:
    """Heading, one sentence on emulation and the links; ``landing`` is the default selection,
    named as such while it is the one shown. ``compact``: the heading on one small line and the
    sentence and links in a closed expander (:mod:`dashboard.frame.chrome` decides when)."""
    with st.container(key="kc-heading-compact" if compact else "kc-heading"):
        st.title(HEADING, anchor=False)
    intro = (
        f"{EMULATION} Read more: [KEP-4330 compatibility versions]({KEP_4330}) · "
        f"[Feature gates]({FEATURE_GATES_DOC}) · [Compatibility version]({COMPATIBILITY_DOC}) on kubernetes.io."
    )
    if compact:
        with st.expander(MORE_LABEL):
            st.markdown(intro)
    else:
        st.markdown(intro)
    if sel == landing:
        st.caption(
            f"Shown by default: a {sel.binary} binary (the newest release) at its own release, as it starts "
            "without `--emulated-version`. Pick an older emulated version below to see what emulation changes; "
            "the URL keeps the choice."
        )
