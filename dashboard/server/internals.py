"""Every read and write of Streamlit's private parts, in this one module (see :mod:`dashboard.server`).

Streamlit 1.67 (the pinned range: ``streamlit>=1.66,<2``) has a public setting for some of what the
server needs, and ``.streamlit/config.toml`` uses it (``browser.serverAddress``,
``server.maxUploadSize``, ``server.disconnectedSessionTTL``, ``runner.postScriptGC``,
``client.toolbarMode``). What follows has none:

- a refused cross-origin websocket walks the origin allowlist down to ``net_util.get_external_ip``
  (after ``browser.serverAddress``, before ``server.corsAllowedOrigins``: neither stops the walk;
  ``server.enableCORS = false`` would, by accepting every origin);
- a client's ``clear_cache`` message empties every cache of the process (``client.toolbarMode``
  hides the menu item, the message is still handled);
- ``server.maxUploadSize`` bounds one file, not what a session holds;
- a session Streamlit drops without ``AppSession.shutdown`` keeps its uploads, and only its
  session manager knows the sessions stored after a disconnect;
- the once-per-process "use streamlit run" check, and the lock Streamlit holds around Altair's
  global state.

Each use names what it needs (``module:Class.attr``) in one of the ``*_NEEDS`` tuples below; the
patches check them before they apply (:class:`~.patch.Patch`), the reads fall back when one is
gone, and ``tests/app/test_server.py`` checks every one against the installed Streamlit. No other
module of the app touches a private part of Streamlit (the same test reads the code for it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .patch import exists

EXTERNAL_IP_NEEDS = ("streamlit.net_util:_external_ip", "streamlit.net_util:get_external_ip")
CLEAR_CACHE_NEEDS = ("streamlit.runtime.app_session:AppSession._handle_clear_cache_request",)
UPLOADS_NEEDS = (
    "streamlit.runtime.memory_uploaded_file_manager:MemoryUploadedFileManager.add_file",
    "starlette.exceptions:HTTPException",  # what refuses a file (patches.py)
)
JANITOR_NEEDS = (
    "streamlit.runtime:Runtime.exists",
    "streamlit.runtime:Runtime.instance",
    "streamlit.runtime:Runtime._get_async_objs",
    "streamlit.runtime.app_session:AppSession.shutdown",
    "streamlit.runtime.websocket_session_manager:WebsocketSessionManager.list_active_sessions",
    "streamlit.runtime.caching.ttl_cache:TTLCache.expire",
)
USE_WARNING_NEEDS = ("streamlit.delta_generator:_maybe_print_use_warning",)
ALTAIR_LOCK_NEEDS = ("streamlit.elements.vega_charts:_altair_globals_lock",)
#: every need above: what the installed Streamlit must have for each use to work as meant
ALL_NEEDS = (*EXTERNAL_IP_NEEDS, *CLEAR_CACHE_NEEDS, *UPLOADS_NEEDS, *JANITOR_NEEDS, *USE_WARNING_NEEDS, *ALTAIR_LOCK_NEEDS)


def known_external_address(address: str) -> str:
    """Record ``address`` as the machine's external address unless one is known: Streamlit then
    answers ``get_external_ip`` from memory and makes no request. Returns the address known."""
    from streamlit import net_util

    if getattr(net_util, "_external_ip", None) is None:
        net_util._external_ip = address  # noqa: SLF001
    return str(net_util._external_ip)  # noqa: SLF001


def handle_clear_cache_with(handler: Callable[[Any], None]) -> None:
    """A client's ``clear_cache`` message runs ``handler(its session state)`` instead of
    emptying the process caches."""
    from streamlit.runtime.app_session import AppSession

    def handle(self: Any) -> None:
        handler(self._session_state)  # noqa: SLF001

    AppSession._handle_clear_cache_request = handle  # type: ignore[method-assign]  # noqa: SLF001


def check_uploads_with(check: Callable[[dict[str, Any], Any], None]) -> None:
    """Before the upload manager keeps a file, ``check(the session's other files by id, the file)``
    runs (under the manager's lock; it raises to refuse the file). Once per process."""
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    manager: Any = MemoryUploadedFileManager
    add_file = manager.add_file
    if getattr(add_file, "kcompat_checked", False):
        return

    def add(self: Any, session_id: str, file: Any) -> None:
        with self._lock:  # noqa: SLF001 - the manager's own lock (add_file takes it again below)
            held = {k: v for k, v in self.file_storage.get(session_id, {}).items() if k != file.file_id}
        check(held, file)
        add_file(self, session_id, file)

    add.kcompat_checked = True  # type: ignore[attr-defined]
    manager.add_file = add


def sessions(runtime: Any) -> tuple[list[Any], dict[str, Any]] | None:
    """The running server's sessions: (the live ones' infos, session id -> the info of each one
    stored after a disconnect, expired ones dropped first), or None when the runtime does not keep
    them where Streamlit 1.67 does."""
    manager = getattr(runtime, "_session_mgr", None)
    storage = getattr(getattr(manager, "_session_storage", None), "_cache", None)
    if manager is None or storage is None or not hasattr(storage, "expire") or not hasattr(storage, "_data"):
        return None
    storage.expire()  # Streamlit expires stored sessions only when another one is stored
    stored = dict(storage._data)  # noqa: SLF001
    return list(manager.list_active_sessions()), stored


def event_loop(runtime: Any) -> Any:
    """The running server's event loop."""
    return runtime._get_async_objs().eventloop  # noqa: SLF001


def print_use_warning_once() -> bool:
    """Streamlit's once-per-process "use streamlit run" check, made now; False when it is gone."""
    from streamlit import delta_generator

    once = getattr(delta_generator, "_maybe_print_use_warning", None)
    if once is None:
        return False
    once()
    return True


def altair_lock() -> Any:
    """The lock Streamlit holds while it changes Altair's global state, else (another version)
    a lock of our own."""
    lock = None
    if exists(ALTAIR_LOCK_NEEDS[0]):
        from streamlit.elements import vega_charts

        lock = getattr(vega_charts, "_altair_globals_lock", None)
    return lock if lock is not None else threading.Lock()


def script_run_ctx() -> Any:
    """The context of the script run on this thread (its ``session_id``, ``page_script_hash``), or
    None outside one: Streamlit has no public accessor for either."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return get_script_run_ctx(suppress_warning=True)


def session_gone() -> Callable[[], bool]:
    """A test of whether this script run's session has disconnected (always False outside a
    served app, as in AppTest): the runtime's session registry, which has no public reader."""
    from streamlit import runtime

    ctx = script_run_ctx()
    if ctx is None or not runtime.exists():
        return lambda: False
    instance, session_id = runtime.get_instance(), ctx.session_id
    return lambda: not instance.is_active_session(session_id)
