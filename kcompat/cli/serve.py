"""``kcompat serve``: the dashboard from the installed package, with the project's Streamlit settings.

As ``datasette serve`` or ``mlflow ui`` do: the command knows where its app is. The app
(``dashboard/app.py``) is found without importing it, and Streamlit runs in the folder whose
``.streamlit/config.toml`` holds the project's settings (headless, XSRF on, uploads capped, no
telemetry, the themes): the checkout's root, or ``<prefix>/share/kcompat`` where ``pip install``
puts it beside the data. The server is Streamlit's own command line run as ``python -m
dashboard.server``, which installs every server customisation before Streamlit starts
(:func:`dashboard.server.install`). Without the dashboard extra (``pip install
'kcompat[dashboard]'``) it says so and exits 2."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

from kcompat import DATA_DIR
from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import KcompatError
from kcompat.data.catalog import Catalog


def app_path() -> Path:
    """``dashboard/app.py`` of the installed (or checked-out) package."""
    spec = importlib.util.find_spec("dashboard")
    if spec is None or not spec.submodule_search_locations:
        raise KcompatError("the dashboard package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "app.py"


def settings_home() -> Path:
    """The folder whose ``.streamlit/config.toml`` holds the project's Streamlit settings."""
    home = DATA_DIR.parent
    if not (home / ".streamlit" / "config.toml").is_file():
        raise KcompatError(f"no Streamlit settings at {home / '.streamlit' / 'config.toml'}")
    return home


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=os.environ.get("PORT", "8501"), help="port to listen on (default: $PORT or 8501)")
    parser.add_argument(
        "--address", default=os.environ.get("ADDRESS", "127.0.0.1"),
        help="address to listen on (default: $ADDRESS or 127.0.0.1, this machine only; 0.0.0.0 for every interface, as in a container)",
    )
    parser.add_argument(
        "--server-address",
        default=os.environ.get("SERVER_ADDRESS", "localhost"),
        help="the host name visitors use, printed at start; nothing looks it up (default: $SERVER_ADDRESS or localhost)",
    )


def serve_command(args: argparse.Namespace) -> list[str]:
    """The ``streamlit run`` command line that :func:`run_serve` replaces this process with."""
    if not 0 < args.port < 65536:
        raise KcompatError(f"--port must be 1-65535, not {args.port}")
    # Streamlit's own command line, with the server customisations installed first (dashboard.server)
    command = [sys.executable, "-m", "dashboard.server", "run", str(app_path()), "--server.port", str(args.port)]
    command += ["--server.address", args.address or "127.0.0.1"]
    return [*command, "--browser.serverAddress", args.server_address]


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    """Replace this process with the Streamlit server (the catalog is the server's own: it reads
    the data directory, or ``$KCOMPAT_DATA_DIR``, itself)."""
    if importlib.util.find_spec("streamlit") is None:
        raise KcompatError("kcompat serve needs the dashboard: pip install 'kcompat[dashboard]' (Streamlit, pandas, Altair)")
    command = serve_command(args)
    os.chdir(settings_home())
    sys.stdout.flush()
    os.execv(command[0], command)  # the server is this process (signals, exit status: as in a container)
    return ExitStatus.OK  # not reached
