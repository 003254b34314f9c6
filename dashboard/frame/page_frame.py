"""The frame every page shares: page config, navigation (with a labelled "Pages" menu on narrow
screens), the "Copy link" button, the selection bar and its messages, the browser title naming the
page and the selection, and the refusal state."""

from __future__ import annotations

import streamlit as st

from dashboard import data
from dashboard.frame import chrome
from dashboard.frame.chrome import is_phone
from dashboard.frame.landing import landing_intro
from dashboard.frame.pages import WITHOUT_SELECTION, all_pages, document_title, page_key
from dashboard.frame.selection_bar import (
    flag_messages,
    keep_selection,
    selection_bar,
    show_component_state,
    show_refusal,
)
from dashboard.state.selection import GATE_PARAM, Selection, landing_selection
from dashboard.state.view_state import drop_url_keys
from dashboard.text import md
from dashboard.uploads.custom_manifest import custom_manifest_in_use

#: The browser tab's icon: an emoji is inlined; a :material: one is fetched from the internet.
PAGE_ICON = "☸️"


def run_app() -> None:
    """Build the navigation and the shared frame, then run the chosen page."""
    st.set_page_config(
        page_title="kcompat — Kubernetes compatibility versions",
        page_icon=PAGE_ICON,
        layout="wide",
    )
    pages = all_pages()
    page = st.navigation(pages, position="top")
    key = page_key(page.url_path)
    visits = chrome.note_visit(key)
    if is_phone():
        chrome.pages_menu(pages)
    chrome.copy_link_button()
    if page.url_path != "gate":
        drop_url_keys(GATE_PARAM)  # only the gate detail page reads it
    if key in WITHOUT_SELECTION:
        keep_selection()
        st.set_page_config(page_title=document_title(key))
        page.run()
        return
    sel = selection_bar((lambda s: _landing_intro(s, visits)) if key == "gates" else None)
    st.set_page_config(page_title=document_title(key, sel.binary, sel.emulated))
    if show_refusal(sel):
        st.stop()  # the binary would not start: no page answers for this selection
    if show_component_state(sel, key):
        st.stop()  # no answer for this component here
    if not (key == "gates" and custom_manifest_in_use()):
        flag_messages(sel)  # with an uploaded manifest the Gates page reports its own
    page.run()


def _landing_intro(sel: Selection, visits: int) -> None:
    summary = data.summary()
    compact, problem = chrome.compact_heading(visits, is_phone())
    landing_intro(sel, landing_selection(summary.default_binary), compact)
    if problem:
        st.warning(md(problem), icon=":material/link_off:")
