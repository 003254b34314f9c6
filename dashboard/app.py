"""Streamlit entry point: ``streamlit run dashboard/app.py``.

Builds the navigation and the shared frame (the selection bar); each page lives in
``dashboard/app_pages/`` and only reads the selection, asks the core and renders.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script by Streamlit: make the project importable
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)

import streamlit as st

from dashboard.components.pages import all_pages
from dashboard.components.selection import flag_messages, selection_bar
from dashboard.components.state import GATE_PARAM

st.set_page_config(
    page_title="kcompat — Kubernetes compatibility versions",
    page_icon=":material/history:",
    layout="wide",
)

page = st.navigation(all_pages(), position="top")
selection = selection_bar()
flag_messages(selection)
if page.url_path != "gate" and GATE_PARAM in st.query_params:
    del st.query_params[GATE_PARAM]
page.run()
