"""The customisations of Streamlit's server, each checking what it changes (see :mod:`dashboard.server`);
what they read or write of Streamlit's private parts is in :mod:`.internals`."""

from __future__ import annotations

import sys
from typing import Any

from . import internals
from .janitor import JANITOR
from .memory import SWITCH_INTERVAL
from .patch import Patch, PatchResult

__all__ = ["MAX_SESSION_FILES", "MAX_SESSION_UPLOAD_BYTES", "PATCHES", "Patch", "PatchResult"]

#: Files, and bytes of files, one session may hold in Streamlit's upload storage (the Check a
#: cluster page reads at most 5 files, 6 MB in all; the Gates page's custom manifest is one file
#: of at most 2 MB). 20 sessions at this budget fit the Deployment's memory limit (docs/hosting.md).
MAX_SESSION_FILES = 6
MAX_SESSION_UPLOAD_BYTES = 8 * 1024 * 1024

LOOPBACK = "127.0.0.1"


def _no_address_lookup() -> str:
    return f"the external address is known to be {internals.known_external_address(LOOPBACK)}: no lookup"


def _clear_state(state: Any) -> None:
    state.clear()


def _clear_cache_per_session() -> str:
    internals.handle_clear_cache_with(_clear_state)
    return "a client's clear_cache message clears its own session state only"


def within_session_budget(held: dict[str, Any], file: Any) -> None:
    """Refuse (HTTP 413) a file that would take its session past :data:`MAX_SESSION_FILES` or
    :data:`MAX_SESSION_UPLOAD_BYTES`; ``held``: the session's other files (a replaced file counts once)."""
    from starlette.exceptions import HTTPException

    if len(held) + 1 > MAX_SESSION_FILES:
        raise HTTPException(status_code=413, detail=f"more than {MAX_SESSION_FILES} files in this session")
    if sum(len(f.data) for f in held.values()) + len(file.data) > MAX_SESSION_UPLOAD_BYTES:
        raise HTTPException(status_code=413, detail=f"more than {MAX_SESSION_UPLOAD_BYTES:,} bytes of files in this session")


def _bounded_uploads() -> str:
    internals.check_uploads_with(within_session_budget)
    return f"at most {MAX_SESSION_FILES} files and {MAX_SESSION_UPLOAD_BYTES:,} bytes of files per session"


def _switch_interval() -> str:
    sys.setswitchinterval(SWITCH_INTERVAL)
    return f"a thread hands the interpreter lock over after {SWITCH_INTERVAL * 1000:g} ms"


#: Every customisation, in the order :func:`dashboard.server.install` applies them.
PATCHES = (
    Patch("no external address lookup", internals.EXTERNAL_IP_NEEDS, _no_address_lookup),
    Patch("cache clearing per session", internals.CLEAR_CACHE_NEEDS, _clear_cache_per_session),
    Patch("uploads bounded per session", internals.UPLOADS_NEEDS, _bounded_uploads),
    JANITOR,
    Patch("event loop gets the lock sooner", (), _switch_interval),
)
