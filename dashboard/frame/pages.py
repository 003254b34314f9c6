"""The pages of the app and moving between them with the selection kept in the URL."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard.frame.selection_bar import current
from dashboard.state.selection import GATE_PARAM

PAGE_DIR = Path(__file__).resolve().parent.parent / "app_pages"

#: key -> (file in app_pages/, title, icon); the first one is the default page.
PAGES: dict[str, tuple[str, str, str]] = {
    "gates": ("gates.py", "Gates", ":material/toggle_on:"),
    "changes": ("changes.py", "What changes", ":material/compare_arrows:"),
    "timeline": ("timeline.py", "Timeline", ":material/timeline:"),
    "matrix": ("matrix.py", "Release matrix", ":material/grid_on:"),
    "apis": ("apis.py", "APIs", ":material/api:"),
    "plan": ("plan.py", "Upgrade plan", ":material/upgrade:"),
    "cluster": ("cluster.py", "Check a cluster", ":material/fact_check:"),
    "manifests": ("manifests.py", "Check manifests", ":material/checklist:"),
    "gate": ("gate_detail.py", "Gate detail", ":material/info:"),
    "about": ("about.py", "About the data", ":material/database:"),
}

#: Pages whose answer does not depend on the selection: no selection bar (the selection stays in
#: the session and the URL for the next page).
WITHOUT_SELECTION: frozenset[str] = frozenset({"matrix", "about"})

APP_NAME = "kcompat"


def page_key(url_path: str) -> str:
    """The key of PAGES for a page's ``url_path`` (the default page has the empty path)."""
    return url_path if url_path in PAGES else next(iter(PAGES))


def document_title(key: str, binary: str | None = None, emulated: str | None = None) -> str:
    """The browser tab's title: the selection (when the page uses it), the page, the app.
    ``1.36 emulating 1.33 · Gates · kcompat``; ``1.36 · Gates · kcompat`` when not emulating."""
    parts = []
    if key not in WITHOUT_SELECTION and binary:
        parts.append(f"{binary} emulating {emulated}" if emulated and emulated != binary else binary)
    parts += [PAGES[key][1], APP_NAME]
    return " · ".join(parts)


def page(key: str) -> st.Page:
    filename, title, icon = PAGES[key]
    return st.Page(
        PAGE_DIR / filename,
        title=title,
        icon=icon,
        url_path=key,
        default=key == next(iter(PAGES)),
    )


def all_pages() -> list[st.Page]:
    """The pages, built once per session (``st.Page`` objects are cheap to keep, not to rebuild)."""
    pages = st.session_state.get("_pages")
    if pages is None:
        pages = st.session_state["_pages"] = [page(key) for key in PAGES]
    return pages


def open_gate(name: str) -> None:
    """Go to the gate detail page for ``name``, keeping the selection in the URL (the gate page's
    :class:`~dashboard.state.view_state.ViewState` reads ``gate``)."""
    st.switch_page(page("gate"), query_params={**current().params(), GATE_PARAM: name})
