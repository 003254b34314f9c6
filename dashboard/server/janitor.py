"""The janitor: looks after the sessions Streamlit forgets (see :mod:`dashboard.server`).

It reads Streamlit's runtime internals through :mod:`.internals`, checked twice: their classes when
it is installed (before the server runs), their instances on its first look at the running server;
when one is missing it stops and says so (:func:`dashboard.server.record`)."""

from __future__ import annotations

import gc
import threading
import time
from typing import Any

from . import internals
from .memory import trim_heap
from .patch import Patch, PatchResult

JANITOR_INTERVAL = 5.0
NAME = "closed sessions' memory returned"


class Janitor:
    def __init__(self) -> None:
        self.seen: int | None = None
        self.known: dict[str, Any] = {}  # session id -> (Active)SessionInfo live or stored at the last look
        #: sessions to shut down, one per look (see :meth:`tick`)
        self.pending: list[Any] = []

    def tick(self) -> bool:
        """One look; False when the running server lacks what the janitor reads (it then stops)."""
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return True
        runtime: Any = Runtime.instance()
        if type(runtime) is not Runtime:
            return True  # a stand-in (AppTest's mock runtime), no server's sessions: nothing to look after
        found = internals.sessions(runtime)
        if found is None:
            return False
        live, stored = found
        active = {info.session.id: info for info in live}
        # A session that is neither live nor stored any more was dropped by Streamlit (expired or
        # evicted) without its session's shutdown(), which is what removes its uploaded files from the
        # runtime-wide upload manager: call it. Sessions seen live at the last look count too, so
        # one that disconnected and expired in between is not missed.
        known = {**active, **stored}
        gone = [info for sid, info in self.known.items() if sid not in known]
        self.known = known
        loop = internals.event_loop(runtime)
        # One shutdown per look. Each makes Streamlit sweep its media files, and a downloadable file
        # that two sweeps find unreferenced is deleted; a chart download made on click is
        # unreferenced until the browser has fetched it. Shutdowns back to back deleted a PNG or
        # SVG between its rendering and its fetch (the browser saved a 404 named by the file's hash).
        self.pending += gone
        if self.pending:
            loop.call_soon_threadsafe(self.pending.pop(0).session.shutdown)
        count = len(active) + len(stored)
        if self.seen is not None and count < self.seen:
            time.sleep(0.5)  # let the shutdowns run on the event loop first
            gc.collect()
            trim_heap()
        self.seen = count
        return True


def _look_after_sessions() -> None:
    janitor = Janitor()
    while True:
        time.sleep(JANITOR_INTERVAL)
        try:
            if janitor.tick():
                continue
            why = "the running server has no session storage the janitor can read (internals.sessions)"
        except Exception as exc:  # noqa: BLE001 - another Streamlit layout: stop looking, and say so
            why = f"{type(exc).__name__}: {exc}"
        from dashboard.server import record

        record(PatchResult(NAME, False, why))
        return


_started = False


def _start() -> str:
    global _started  # noqa: PLW0603
    if not _started:
        _started = True
        threading.Thread(target=_look_after_sessions, name="kcompat-janitor", daemon=True).start()
    return f"every {JANITOR_INTERVAL:g} s: expired sessions shut down, then one collection and malloc_trim"


def started() -> bool:
    return _started


JANITOR = Patch(NAME, internals.JANITOR_NEEDS, _start)
