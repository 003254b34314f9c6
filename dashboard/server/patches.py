"""The patches of Streamlit's server, each checking what it changes (see :mod:`dashboard.server`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

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


def _no_external_ip_lookup() -> str:
    from streamlit import net_util

    if getattr(net_util, "_external_ip", None) is None:
        net_util._external_ip = LOOPBACK  # noqa: SLF001 - the one place it is written
    return f"the external address is known to be {net_util._external_ip}: no lookup"  # noqa: SLF001


def _clear_own_session_only(self: Any) -> None:
    """``AppSession._handle_clear_cache_request``, limited to the session that asked."""
    self._session_state.clear()  # noqa: SLF001


def _clear_cache_per_session() -> str:
    from streamlit.runtime.app_session import AppSession

    AppSession._handle_clear_cache_request = _clear_own_session_only  # type: ignore[method-assign]  # noqa: SLF001
    return "a client's clear_cache message clears its own session state only"


def bounded_add_file(add_file: Callable[[Any, str, Any], None]) -> Callable[[Any, str, Any], None]:
    """``MemoryUploadedFileManager.add_file`` refusing a file that would take the session past
    :data:`MAX_SESSION_FILES` or :data:`MAX_SESSION_UPLOAD_BYTES` (a replaced file counts once)."""

    def add(self: Any, session_id: str, file: Any) -> None:
        from starlette.exceptions import HTTPException

        with self._lock:  # noqa: SLF001 - the manager's own lock (add_file takes it again below)
            held = {k: v for k, v in self.file_storage.get(session_id, {}).items() if k != file.file_id}
        if len(held) + 1 > MAX_SESSION_FILES:
            raise HTTPException(status_code=413, detail=f"more than {MAX_SESSION_FILES} files in this session")
        if sum(len(f.data) for f in held.values()) + len(file.data) > MAX_SESSION_UPLOAD_BYTES:
            raise HTTPException(status_code=413, detail=f"more than {MAX_SESSION_UPLOAD_BYTES:,} bytes of files in this session")
        add_file(self, session_id, file)

    add.kcompat_bounded = True  # type: ignore[attr-defined]
    return add


def _bounded_uploads() -> str:
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    manager: Any = MemoryUploadedFileManager
    if not getattr(manager.add_file, "kcompat_bounded", False):
        manager.add_file = bounded_add_file(manager.add_file)
    return f"at most {MAX_SESSION_FILES} files and {MAX_SESSION_UPLOAD_BYTES:,} bytes of files per session"


def _switch_interval() -> str:
    sys.setswitchinterval(SWITCH_INTERVAL)
    return f"a thread hands the interpreter lock over after {SWITCH_INTERVAL * 1000:g} ms"


#: Every customisation, in the order :func:`dashboard.server.install` applies them.
PATCHES = (
    Patch(
        "no external address lookup",
        ("streamlit.net_util:_external_ip", "streamlit.net_util:get_external_ip"),
        _no_external_ip_lookup,
    ),
    Patch(
        "cache clearing per session",
        ("streamlit.runtime.app_session:AppSession._handle_clear_cache_request",),
        _clear_cache_per_session,
    ),
    Patch(
        "uploads bounded per session",
        ("streamlit.runtime.memory_uploaded_file_manager:MemoryUploadedFileManager.add_file", "starlette.exceptions:HTTPException"),
        _bounded_uploads,
    ),
    JANITOR,
    Patch("event loop gets the lock sooner", (), _switch_interval),
)
