"""Kubernetes compatibility versions dashboard: engine (``dashboard.core``), CLI and Streamlit UI."""
