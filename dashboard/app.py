"""Streamlit entry point: ``streamlit run dashboard/app.py`` (from the repository root).

Installs the server customisations (:func:`dashboard.server.install`), then builds the navigation
and the shared frame (selection bar) with :func:`dashboard.frame.page_frame.run_app`; each page
lives in ``dashboard/app_pages/``.
"""

import os
import sys
from pathlib import Path

if "dashboard" not in sys.modules:  # run as a script by Streamlit: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dashboard.server import install

install()  # every customisation of the Streamlit server, once per process (done already under kcompat serve)

from dashboard.frame.page_frame import run_app  # noqa: E402

if os.environ.get("KCOMPAT_RUN_TIMES"):  # benchmarks only: server-side time of each run (run_timing.py)
    from dashboard.server.run_timing import timed_run

    timed_run(run_app, os.environ["KCOMPAT_RUN_TIMES"])
else:
    run_app()
