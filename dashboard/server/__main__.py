"""``python -m dashboard.server run APP [Streamlit's options]``: Streamlit's own command line (what
``python -m streamlit`` runs), with every server customisation installed first. ``kcompat serve``
replaces itself with this."""

from __future__ import annotations

import runpy

from dashboard.server import install

install()
runpy.run_module("streamlit", run_name="__main__", alter_sys=True)
