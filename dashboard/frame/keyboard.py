"""What the keyboard does on every page, beyond Streamlit's own handling (one script per window,
sent with the Copy link button by :func:`dashboard.frame.chrome.copy_link_button`):

* **The "?" help buttons are not tab stops** (``tabindex="-1"``): a page has a dozen of them
  between its controls (Gates: 11 of the 35 Tabs from the top of the page to Search). They still
  open on hover and click; what they say is in docs/dashboard.md. Only the "?" icons (labelled
  "Help for …") are taken out: a button with a ``help=`` text (every "Download…", PNG, SVG and
  Markdown button) sits in the same tooltip wrapper and stays a tab stop.
* **Enter on a grid row opens it**: in a table whose rows can be picked (the Gates, Release
  matrix and What changes grids open the gate of the picked row), Enter picks the row of the
  focused cell, as Shift+Space (the grid's own key for it) does, whether the grid was reached by
  Tab (the focus is on its canvas) or a cell was clicked (the focus is on the cell of the grid's
  accessible table); it never opens the grid's cell viewer there. Other grids keep Enter.
* **Escape does not clear a choice**: a selectbox that may be left empty (a filter such as the
  matrix's "Changed in a release") clears its value on Escape in Streamlit, and with it the
  filter kept in the URL. Here Escape closes the list if it is open and keeps the value; the
  box's "Clear value" button (a tab stop) clears it on purpose. A selectbox that cannot be empty
  is left to Streamlit (its Escape puts back what was typed).
"""

from __future__ import annotations

#: Installed once per window (the Copy link element is sent again on every run).
KEYBOARD_JS = """<script>
(() => {
  if (window.__kcKeyboard) return;
  window.__kcKeyboard = true;
  const HELP = '[data-testid="stTooltipIcon"] button[aria-label^="Help for "]';
  const untab = (root) => {
    if (root.nodeType !== 1) return;
    if (root.matches(HELP)) root.tabIndex = -1;
    for (const b of root.querySelectorAll(HELP)) if (b.tabIndex !== -1) b.tabIndex = -1;
  };
  untab(document.body);
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) untab(n);
  }).observe(document.body, {childList: true, subtree: true});

  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.isComposing) return;
    const t = e.target;
    if (!(t instanceof Element)) return;
    if (e.key === 'Enter' && t.matches('[data-testid="stDataFrame"] :is(canvas, table[role="grid"] td)')) {
      const cell = t.closest('[data-testid="stDataFrame"]').querySelector('table[role="grid"] td[id^="glide-cell-"]');
      if (!cell || cell.id.split('-')[2] !== '1') return;  // no checkbox column: rows cannot be picked
      e.preventDefault();
      e.stopPropagation();
      t.dispatchEvent(new KeyboardEvent('keydown', {key: ' ', code: 'Space', shiftKey: true, bubbles: true, cancelable: true}));
      return;
    }
    if (e.key === 'Escape' && t.matches('[data-testid="stSelectbox"] input[role="combobox"]')) {
      const box = t.closest('[data-testid="stSelectbox"]');
      if (!box.querySelector('button[aria-label="Clear value"]')) return;
      e.preventDefault();
      e.stopPropagation();
      if (t.getAttribute('aria-expanded') === 'true') { t.blur(); t.focus(); }
    }
  }, true);
})();
</script>"""
