"""Server-side time of each script run, for benchmarks: on only when ``KCOMPAT_RUN_TIMES`` names a file.

``dashboard/app.py`` runs the app through :func:`timed_run` then, and each run appends one JSON line
to that file: wall and thread CPU milliseconds from the start of the script to its end (what the
server spends; no websocket delivery, no browser rendering), the session, and how the run ended
("ok", or the control-flow exception Streamlit used to stop or restart it).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

ENV = "KCOMPAT_RUN_TIMES"
_lock = threading.Lock()


def _session_id() -> str | None:
    try:
        from dashboard.server.internals import script_run_ctx

        ctx = script_run_ctx()
        return ctx.session_id if ctx is not None else None
    except Exception:  # noqa: BLE001 - timing must never break a page
        return None


def timed_run(run: Callable[[], None], path: str) -> None:
    start, cpu = time.perf_counter(), time.thread_time()
    outcome = "ok"
    try:
        run()
    except BaseException as exc:
        outcome = type(exc).__name__
        raise
    finally:
        line = json.dumps(
            {
                "end": time.time(),
                "ms": (time.perf_counter() - start) * 1000,
                "cpu_ms": (time.thread_time() - cpu) * 1000,
                "session": _session_id(),
                "outcome": outcome,
            }
        )
        with _lock, open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")
