"""Gates: every feature gate of the binary at the selected versions, after --feature-gates.

The landing page. The frame draws its heading and the selection bar; the page goes straight to
the figures and the table. The advanced "Custom manifest" button comes after the answer; while
an uploaded manifest is in use, its notice comes first, since it changes the answer."""

import streamlit as st

from dashboard.data import gates_view
from dashboard.frame.chrome import is_phone
from dashboard.frame.selection_bar import current, show_flag_messages
from dashboard.gates_view import GatesView
from dashboard.tables.gate_table import gates_panel
from dashboard.text import md
from dashboard.uploads.custom_manifest import (
    custom_gates_view,
    custom_manifest_box,
    custom_manifest_in_use,
    show_problems,
)


def show_verdict(view: GatesView) -> None:
    """A good start in words ("kube-apiserver 1.36 emulating 1.33 starts and becomes ready, as
    recorded starts of v1.36.5 show"), as kcompat gates' last line; nothing when refused or not ready."""
    if view.starts and is_phone():  # a line, not a box: the table stays near the first screen
        st.caption(f":material/check_circle: {md(view.starts)}")
    elif view.starts:
        st.success(md(view.starts), icon=":material/check_circle:")


sel = current()
if not custom_manifest_in_use():
    bundled = gates_view(sel)
    show_verdict(bundled)
    gates_panel(sel, bundled)
    custom_manifest_box(sel)  # only its button: nothing is uploaded
else:
    custom = custom_manifest_box(sel)
    if custom is None:
        bundled = gates_view(sel)
        show_verdict(bundled)
        gates_panel(sel, bundled)
    else:
        view = custom_gates_view(sel, custom)
        if isinstance(view, tuple):
            show_problems(view)
        else:
            show_flag_messages(view)
            show_verdict(view)
            gates_panel(sel, view, custom)
