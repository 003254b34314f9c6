"""Which uploads a file uploader takes, by name, checked on the server.

Streamlit's own check of a file uploader's ``type`` raises from inside the widget when a client
sends another name (a websocket client is not bound by the browser's file picker): the page then
shows Streamlit's error page and the server logs a traceback. The uploaders therefore take any
name, and the page refuses what it does not read here, with a message that names the file.
"""

from __future__ import annotations

from kcompat.core.errors import echo

#: what the Check manifests page reads, and a custom feature manifest
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
FEATURE_LIST_SUFFIXES = (".yaml", ".yml")


def refused_name(name: str, suffixes: tuple[str, ...]) -> str | None:
    """Why an upload named ``name`` is not read (its name ends in none of ``suffixes``), or None."""
    if name.lower().endswith(suffixes) and "\0" not in name:
        return None
    kinds = ", ".join(suffixes[:-1]) + f" or {suffixes[-1]}" if len(suffixes) > 1 else suffixes[0]
    return f"{echo(name, 200)} is not a {kinds} file (by its name): nothing of it was read"
