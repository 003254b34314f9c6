"""Streamlit building blocks shared by the pages: selection, tables, charts, downloads.

``state``, ``stage_colors`` and ``charts`` are pure (no Streamlit import) and unit-testable."""
