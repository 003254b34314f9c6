"""The frame every page shares: page config, navigation, the selection bar and its messages."""

from __future__ import annotations

import streamlit as st

from .pages import all_pages
from .selection import flag_messages, selection_bar
from .state import GATE_PARAM
from .upload import custom_manifest_in_use


def run_app() -> None:
    """Build the navigation and the shared frame, then run the chosen page."""
    st.set_page_config(
        page_title="kcompat — Kubernetes compatibility versions",
        page_icon="☸️",  # an emoji favicon is inlined; a :material: one is fetched from the internet
        layout="wide",
    )
    page = st.navigation(all_pages(), position="top")
    selection = selection_bar()
    if not (page.url_path in ("", "gates") and custom_manifest_in_use()):
        flag_messages(selection)  # with an uploaded manifest the Gates page reports its own
    if page.url_path != "gate" and GATE_PARAM in st.query_params:
        del st.query_params[GATE_PARAM]  # only the gate detail page reads it
    page.run()
