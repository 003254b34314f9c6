"""Showing data as text: every string that comes from data or from the user goes through
:func:`md` before it reaches a Streamlit element that renders Markdown (st.markdown, st.caption,
st.warning, st.error, ...). Data reaches HTML in one place only, the grids' "Table as text"
(``table_text.py``), and every value there goes through :func:`html.escape`."""

from __future__ import annotations

import string

from kcompat.documents.formats import (  # the pages' words are the documents' own
    MISSING as MISSING,
)
from kcompat.documents.formats import plain as plain

_PUNCTUATION = frozenset(string.punctuation)


def md(text: object) -> str:
    """Escape every ASCII punctuation character (CommonMark allows a backslash before any of them),
    so data cannot become emphasis, links, HTML, LaTeX (``$``) or Streamlit directives
    (``:red[...]``, ``:material/...:``). Newlines become hard line breaks."""
    out = []
    for ch in str(text):
        if ch in _PUNCTUATION:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("  \n")
        elif ch == "\r":
            continue
        else:
            out.append(ch)
    return "".join(out)


def code(text: object) -> str:
    """Inline code span for data text (backticks inside are handled by a longer fence)."""
    text = str(text).replace("\n", " ")
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"




def or_missing(value: object) -> object:
    """``value``, or :data:`MISSING` for None and empty text (for cells of tables on the pages)."""
    return MISSING if value is None or value == "" else value


def on_off(value: bool | None) -> str:
    """A boolean cell as text: on / off, or :data:`MISSING`."""
    return MISSING if value is None else ("on" if value else "off")
