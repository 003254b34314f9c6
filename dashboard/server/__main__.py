"""``python -m dashboard.server run APP [Streamlit's options]``: Streamlit's own command line (what
``python -m streamlit`` runs), with every server customisation installed first and the app warmed
up as soon as the server runs (:mod:`.warm_up`). ``kcompat serve`` replaces itself with this."""

from __future__ import annotations

import runpy

from dashboard.server import install
from dashboard.server.warm_up import start as warm_up

install()
warm_up()
runpy.run_module("streamlit", run_name="__main__", alter_sys=True)
