"""How wide the data grids draw a text, so that a column can be as wide as its longest cell.

``st.dataframe`` draws on a canvas (glide-data-grid) in the theme's font, 14 px "Source Sans",
and cuts a text that is wider than its column (minus 8 px of padding on each side). Streamlit
sizes a column from its first rows only, so a long cell further down is cut. The widths below
were measured in chromium with the font the app ships (``CanvasRenderingContext2D.measureText``,
each character alone); summed, they are within 3 % of the measured width of every gate name, cell
and "why" text of the Release matrix and What changes pages (kerning makes the difference).
``tests/e2e/test_e2e_table_fit.py`` checks in a real browser that no cell is cut.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

#: (characters, px at 14 px Source Sans, rounded up to 0.1 px)
_WIDTHS = (
    (' ', 2.8),
    ('|', 3.4),
    ("',.:;ij", 3.5),
    ('l', 3.6),
    ('I', 3.7),
    ('!f', 4.1),
    ('()[]{}', 4.3),
    ('-', 4.4),
    ('t', 4.8),
    ('/\\r', 4.9),
    ('*s', 5.9),
    ('"?z', 6.0),
    ('x', 6.3),
    ('c', 6.4),
    ('vy', 6.6),
    ('Y', 6.7),
    ('J', 6.8),
    ('L', 6.9),
    ('#$+0123456789<=>F^_ek~', 7.0),
    ('ag', 7.1),
    ('X', 7.2),
    ('V', 7.3),
    ('E', 7.4),
    ('S', 7.5),
    ('TZ`o', 7.6),
    ('Ahnu', 7.7),
    ('bdpq', 7.8),
    ('CPR', 8.0),
    ('K', 8.2),
    ('B', 8.3),
    ('&✓', 8.6),
    ('DG', 8.7),
    ('NU', 9.1),
    ('H', 9.2),
    ('OQ', 9.3),
    ('w', 10.1),
    ('M', 10.2),
    ('W', 11.1),
    ('—', 11.2),
    ('%', 11.6),
    ('m', 11.7),
    ('@', 11.9),
    ('…', 13.3),
)
CHAR_PX = {ch: px for chars, px in _WIDTHS for ch in chars}
#: A character not in the table (another script, an emoji): as wide as the font size, or wider.
OTHER_PX = 16.0
#: glide-data-grid's cell padding, left and right (Streamlit's theme: 8 px each).
CELL_PADDING = 16
#: What summing single characters can miss (kerning, rounding), as a share of the width.
MARGIN = 0.04


def text_px(text: object) -> float:
    """The width of ``text`` drawn by the grid, in CSS pixels."""
    return sum(CHAR_PX.get(ch, OTHER_PX) for ch in str(text))


def column_px(texts: Iterable[object], minimum: int = 48) -> int:
    """A column width (px) that shows each of ``texts`` (the cells and the header) whole."""
    widest = max((text_px(t) for t in texts), default=0.0)
    return max(minimum, math.ceil(widest * (1 + MARGIN) + CELL_PADDING + 2))


def fit_columns(config: dict[str, Any], frame: Any, columns: Iterable[str]) -> dict[str, Any]:
    """``config`` with ``columns`` of ``frame`` as wide as their longest cell or header: an answer
    the column holds (a reason, a likely cause) is never cut (the grid scrolls sideways instead)."""
    out = dict(config)
    for name in columns:
        if name in frame.columns:
            label = (out.get(name) or {}).get("label") or name
            out[name] = {**(out.get(name) or {}), "width": column_px([label, *frame[name].astype(str)])}
    return out
