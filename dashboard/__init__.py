"""The Streamlit dashboard: app.py, app_pages/ and components/, built on the ``kcompat`` library."""
