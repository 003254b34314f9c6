"""The Streamlit dashboard: app.py, app_pages/ and the packages they are built from (frame, state, tables,
charts, uploads, server), on the ``kcompat`` library."""
