"""Gates: every feature gate of the binary at the selected versions, after --feature-gates.

The landing page. The frame draws its heading and the selection bar; the page goes straight to
the figures and the table. The advanced "Custom manifest" button comes after the answer; while
an uploaded manifest is in use, its notice comes first, since it changes the answer."""

from dashboard.data import gates_view
from dashboard.frame.selection_bar import current, show_flag_messages
from dashboard.tables.gate_table import gates_panel
from dashboard.uploads.custom_manifest import (
    custom_gates_view,
    custom_manifest_box,
    custom_manifest_in_use,
    show_problems,
)

sel = current()
if not custom_manifest_in_use():
    gates_panel(sel, gates_view(sel))
    custom_manifest_box(sel)  # only its button: nothing is uploaded
else:
    custom = custom_manifest_box(sel)
    if custom is None:
        gates_panel(sel, gates_view(sel))
    else:
        view = custom_gates_view(sel, custom)
        if isinstance(view, tuple):
            show_problems(view)
        else:
            show_flag_messages(view)
            gates_panel(sel, view, custom)
