"""What every page carries around its answer: the app's style rules, the labelled "Pages" menu on
narrow screens, the "Copy link" button, and the choice between the landing heading in full or
compact.

* **Style rules** (:data:`STYLE`): one ``<style>`` element per run, sent with the Copy link
  button (one element instead of two: every element costs on every rerun). Only classes of keyed
  containers (``st-key-…``) and Streamlit's ``data-testid`` attributes are used.
  On a phone the pills of a quick filter wrap onto more lines instead of scrolling out of sight,
  and the selection bar's version boxes sit two to a row, except one whose value is too long for
  half the screen ("1.37 (not emulating)", "1.31 (out of range)"): it takes the whole row, so its
  value is read in full (a selectbox's value is an input's text: it cannot wrap).
  Streamlit's own "Download as PNG" in a chart's toolbar is hidden: it saves the chart without
  its title, beside the app's own PNG download that carries it (:mod:`dashboard.charts.export`).
* **Pages menu** (:func:`pages_menu`): Streamlit folds the top navigation into a sidebar behind an
  unlabelled "»" below 768 px. On a phone a "Pages" button (a popover of page links) takes its
  place, in the same corner; in a narrow window of a computer the "»" gets the visible label
  "Pages" (the popover costs 0.4 ms on every rerun, so it is built for phones only). Both buttons sit at the top of the page (``position: absolute``: a
  ``fixed`` layer's rounded corners were not drawn with the same pixels on every load, so
  screenshots differed).
* **Keyboard** (:mod:`dashboard.frame.keyboard`): sent with the button, one script per window.
* **Copy link** (:func:`copy_link_button`): copies the address of the view (``location.href``:
  the page, the selection and the page's own ``<page>_…`` keys) with ``navigator.clipboard``; when
  the browser refuses, the link is shown selected in a text box to copy by hand.
* **Compact heading** (:func:`compact_heading`): the landing heading shrinks to one line, and the
  sentence on emulation goes into an expander, on a phone, with ``compact=1`` in the URL (what
  ``kcompat screenshots`` uses), and when the Gates page is visited again in the same session.
  ``compact=0`` asks for the full heading.
"""

from __future__ import annotations

import streamlit as st

from dashboard.frame.keyboard import KEYBOARD_JS
from dashboard.frame.selection_bar import WIDGET
from dashboard.state.view_state import url_value

#: The URL flag of the compact heading: ``1`` compact, ``0`` full, absent: decided by the visit.
COMPACT_PARAM = "compact"
COMPACT_VALUES = {"1": True, "0": False}

#: Streamlit folds its top navigation into the sidebar below this width (its ``md`` breakpoint);
#: the "Pages" menu is shown there instead.
NARROW_PX = 768

#: The selection bar's version boxes (widget keys of :mod:`.selection`): two to a row on a phone.
_VERSION_BOXES = ", ".join(f".st-key-{WIDGET[name]}" for name in ("binary", "patch", "emulated", "min_compat"))

STYLE = f"""<style>
[data-testid="stMainBlockContainer"] {{ padding-top: 4.5rem; }}
.st-key-kc-heading-compact h1 {{ font-size: 1.375rem; line-height: 1.3; padding: 0.25rem 0 0 0; }}
@media (max-width: 640px) {{
  .st-key-kc-heading h1 {{ font-size: 1.5rem; line-height: 1.3; }}
  .st-key-kc-heading-compact h1 {{ font-size: 1.125rem; }}
  {_VERSION_BOXES}, .st-key-sel_min_compat_fixed {{ flex: 0 0 calc(50% - 0.5rem) !important; width: calc(50% - 0.5rem) !important; min-width: 0; }}
  :is({_VERSION_BOXES}, .st-key-sel_min_compat_fixed) > * {{ width: 100% !important; }}
  :is({_VERSION_BOXES}):has(input:is([value$="(not emulating)"], [value$="(out of range)"])) {{ flex: 0 0 100% !important; width: 100% !important; }}
  [data-testid="stButtonGroup"] div:has(> button) {{ flex-wrap: wrap; overflow-x: visible; row-gap: 0.5rem; }}
}}
.st-key-kc-pages-menu {{ display: none; }}
@media (max-width: {NARROW_PX - 0.02}px) {{
  .st-key-kc-pages-menu {{ display: block; position: absolute; top: 0.625rem; left: 1rem; z-index: 999991; width: auto; }}
  body:has(.st-key-kc-pages-menu) [data-testid="stExpandSidebarButton"] {{ display: none; }}
  [data-testid="stMainBlockContainer"] {{ padding-top: 4rem; }}
}}
[data-testid="stExpandSidebarButton"]::after {{ content: "Pages"; margin-left: 0.25rem; font-size: 1rem; color: inherit; }}
.st-key-kc-copy-link {{ position: absolute; top: 0.625rem; right: 3.5rem; z-index: 999991; width: auto; }}
.kc-copy-link {{ display: flex; gap: 0.5rem; align-items: center; font-size: 0.875rem; }}
.kc-copy-link button {{
  font: inherit; color: inherit; background: transparent; cursor: pointer; min-height: 2rem;
  border: 1px solid rgba(128, 132, 149, 0.6); border-radius: 0.5rem; padding: 0.25rem 0.75rem;
}}
.kc-copy-link button:hover, .kc-copy-link button:focus-visible {{ border-color: currentColor; }}
.kc-copy-link input {{ font: inherit; color: inherit; background: transparent; width: 16rem;
  border: 1px solid rgba(128, 132, 149, 0.6); border-radius: 0.5rem; padding: 0.25rem 0.5rem; }}
.kc-table-text {{ overflow-x: auto; max-height: 32rem; overflow-y: auto; }}
.kc-table-text table {{ border-collapse: collapse; font-size: 0.875rem; }}
.kc-table-text caption {{ text-align: left; padding-bottom: 0.25rem; }}
.kc-table-text th, .kc-table-text td {{ border: 1px solid rgba(128, 132, 149, 0.4); padding: 0.125rem 0.5rem; text-align: left; }}
.kc-table-text th[scope=row] {{ font-weight: normal; }}
[data-testid="stElementToolbar"] button[aria-label="Download as PNG"] {{ display: none; }}
.kc-sr-only {{ position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }}
</style>"""


def pages_menu(pages: list[st.Page]) -> None:
    """A "Pages" button listing every page, shown only where Streamlit hides its navigation."""
    with st.container(key="kc-pages-menu"), st.popover("Pages", help="Go to another page"):
        for page in pages:
            st.page_link(page)


#: The button: copies ``location.href`` (the view, as the URL bar shows it); if the clipboard is
#: refused or missing, shows the link in a selected text box instead. The status line is read out
#: by screen readers ("Link copied").
COPY_LINK_HTML = """<div class="kc-copy-link">
<span class="kc-sr-only" role="status" aria-live="polite"></span>
<input type="text" readonly hidden aria-label="Link to this view (select and copy)">
<button type="button" title="Copy the link to this view (page, selection and filters)">Copy link</button>
</div>
<script>
(() => {
  const boxes = document.querySelectorAll('.kc-copy-link');
  const box = boxes[boxes.length - 1];
  if (!box || box.dataset.ready) return;
  box.dataset.ready = '1';
  const button = box.querySelector('button'), status = box.querySelector('[role=status]');
  const field = box.querySelector('input');
  const showField = (link) => {
    field.value = link; field.hidden = false; field.focus(); field.select();
    status.textContent = 'Select the link and copy it';
  };
  button.addEventListener('click', () => {
    const link = window.location.href;
    if (!navigator.clipboard || !navigator.clipboard.writeText) { showField(link); return; }
    navigator.clipboard.writeText(link).then(() => {
      field.hidden = true; button.textContent = 'Link copied'; status.textContent = 'Link copied';
      setTimeout(() => { button.textContent = 'Copy link'; }, 2000);
    }, () => showField(link));
  });
})();
</script>"""


def copy_link_button() -> None:
    """The "Copy link" button at the top right of every page, with the app's style rules and its
    keyboard handling (:mod:`dashboard.frame.keyboard`)."""
    with st.container(key="kc-copy-link"):
        st.html(STYLE + COPY_LINK_HTML + KEYBOARD_JS, unsafe_allow_javascript=True)


def compact_flag() -> tuple[bool | None, str | None]:
    """``compact=`` of the URL: (True/False, None), (None, None) when absent, or (None, problem)."""
    text = url_value(COMPACT_PARAM)
    if text is None:
        return None, None
    if text in COMPACT_VALUES:
        return COMPACT_VALUES[text], None
    return None, f"compact={text[:40]} in the link is not 0 or 1: ignored."


def note_visit(key: str) -> int:
    """Count a visit of page ``key`` (a run on another page than the last run's) and return how
    many visits this session has made to it, this one included."""
    state = st.session_state
    visits = state.setdefault("_page_visits", {})
    if state.get("_last_page") != key:
        visits[key] = visits.get(key, 0) + 1
        state["_last_page"] = key
    count: int = visits.get(key, 1)
    return count


def compact_heading(visits: int, phone: bool) -> tuple[bool, str | None]:
    """Whether the landing heading is compact on this run, and a problem with ``compact=`` if any:
    the URL's ``compact=0/1`` decides; else compact on a phone or from the second visit on."""
    flag, problem = compact_flag()
    if flag is not None:
        return flag, None
    return phone or visits > 1, problem


def is_phone() -> bool:
    """Whether the browser says it is a phone (``Mobi`` in its User-Agent, as MDN recommends).
    Read once per session: reading the request headers costs more than a table rerun can spare."""
    phone = st.session_state.get("_is_phone")
    if phone is None:
        try:
            phone = "Mobi" in (st.context.headers.get("User-Agent") or "")
        except Exception:  # noqa: BLE001 - no request (a test harness): not a phone
            phone = False
        st.session_state["_is_phone"] = phone
    return phone
