"""Kubernetes compatibility versions: the library (``kcompat.core``, data, answers, documents) and the CLI.
The Streamlit app (``dashboard``) builds on it; nothing here imports it."""

import sys as _sys
from pathlib import Path as _Path

#: The one place the version is written (pyproject.toml reads it: ``dynamic = ["version"]``).
__version__ = "0.2.0"


def _find_data_dir() -> _Path:
    """The bundled data: ``data/`` beside the package in a source checkout (and an editable
    install), else where ``pip install .`` puts it (``<prefix>/share/kcompat/data``, pyproject's
    data-files), for a venv, a --user install and the system prefix alike."""
    source = _Path(__file__).resolve().parent.parent / "data"
    if (source / "releases.yaml").is_file():
        return source
    package = _Path(__file__).resolve().parent  # <prefix>/lib/pythonX.Y/site-packages/kcompat
    for prefix in (package.parents[3] if len(package.parents) > 3 else None, _Path(_sys.prefix)):
        if prefix is not None and (prefix / "share" / "kcompat" / "data" / "releases.yaml").is_file():
            return prefix / "share" / "kcompat" / "data"
    return source


#: Where the bundled releases live (read by kcompat.data.catalog, kcompat.data.apis, refresh).
DATA_DIR = _find_data_dir()
