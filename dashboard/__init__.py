"""Kubernetes compatibility versions dashboard: engine (``dashboard.core``), CLI and Streamlit UI."""

#: The one place the version is written (pyproject.toml reads it: ``dynamic = ["version"]``).
__version__ = "0.2.0"
