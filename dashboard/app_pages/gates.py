"""Gates: every feature gate of the binary at the selected versions, after --feature-gates.

The landing page, kept lean: the selection bar above already names the binary, the emulated
and the min compatibility version, so the page goes straight to the figures and the table."""

from dashboard.components.data import custom_gates_view, gates_view
from dashboard.components.gate_table import gates_panel
from dashboard.components.selection import current, show_flag_messages
from dashboard.components.upload import custom_manifest_box

sel = current()
custom = custom_manifest_box(sel.binary)
if custom is None:
    gates_panel(sel, gates_view(sel))
else:
    view = custom_gates_view(sel, custom.digest, custom.manifest)
    show_flag_messages(view)
    gates_panel(sel, view, custom.manifest)
