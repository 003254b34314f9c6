"""Gates: every feature gate of the binary at the selected versions, after --feature-gates.

The landing page, kept lean: the selection bar above already names the binary, the emulated
and the min compatibility version, so the page goes straight to the figures and the table."""

from dashboard.components.data import gates_view
from dashboard.components.gate_table import gates_panel
from dashboard.components.selection import current

sel = current()
gates_panel(sel, gates_view(sel))
