"""Server-wide settings the configuration file cannot express (checked against Streamlit 1.67).

Applied once per process when the app's modules are first imported (the first script run):

- **No outbound lookups.** ``browser.serverAddress`` in ``.streamlit/config.toml`` stops the
  lookup of the machine's external IP at start. A refused cross-origin websocket still walks
  Streamlit's origin allowlist down to ``net_util.get_external_ip``, which asks
  checkip.amazonaws.com again on every refusal when offline (the miss is not remembered), a
  blocking call on the server's event loop. The loopback address is recorded as the known
  "external" address instead: that adds nothing to the allowlist (127.0.0.1 is on it already)
  and no request is ever made.
- **Cache clearing stays per session.** Any websocket client can send the ``clear_cache``
  message (the menu item is hidden with ``toolbarMode = "viewer"``, the message is not refused);
  Streamlit then empties every ``st.cache_data``/``st.cache_resource`` of the process, for all
  users. Here it clears the sender's own session state only. Should the hook not apply (another
  Streamlit version), the process caches are cheap to rebuild: the whole bundled catalog loads
  in well under a second with libyaml.
- **Memory of closed sessions comes back without a full collection after every run.**
  ``.streamlit/config.toml`` sets ``runner.postScriptGC = false``: Streamlit's default runs
  ``gc.collect(2)`` after every script run of every session, holding the lock all threads share
  for as long as it takes to walk every live object (every session's upload included: about 9 ms
  per maximum-size upload, so 20 uploading sessions made each rerun of anyone's page pay 180 ms,
  and the health endpoint waited behind them). Instead a janitor thread looks every 10 s: it
  expires disconnected sessions past ``server.disconnectedSessionTTL`` (Streamlit only does so
  when another session disconnects) and, when sessions went away, runs one full collection, so
  their reference cycles (and the uploads they hold) are freed within seconds.
"""

from __future__ import annotations

import gc
import threading
import time

_applied = False
_janitor_started = False
JANITOR_INTERVAL = 10.0


def _sessions_now() -> int | None:
    """Live plus stored (disconnected) sessions, after expiring the stored ones past their TTL."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None
    manager = Runtime.instance()._session_mgr  # noqa: SLF001
    stored = getattr(getattr(manager, "_session_storage", None), "_cache", None)
    if hasattr(stored, "expire"):
        stored.expire()
    return len(manager.list_active_sessions()) + (len(stored) if stored is not None else 0)


def _janitor() -> None:
    seen = None
    while True:
        time.sleep(JANITOR_INTERVAL)
        try:
            count = _sessions_now()
        except Exception:  # noqa: BLE001 - another Streamlit layout: nothing to look after
            return
        if count is not None and seen is not None and count < seen:
            gc.collect()
        seen = count


def _clear_own_session_only(self) -> None:
    """``AppSession._handle_clear_cache_request``, limited to the session that asked."""
    self._session_state.clear()


def harden_server() -> bool:
    """Apply both settings (idempotent). Returns whether both hooks were found."""
    global _applied  # noqa: PLW0603
    if _applied:
        return True
    found = 0
    try:
        from streamlit import net_util

        if getattr(net_util, "_external_ip", None) is None and hasattr(net_util, "get_external_ip"):
            net_util._external_ip = "127.0.0.1"  # noqa: SLF001
        found += 1
    except ImportError:  # pragma: no cover - other Streamlit layouts
        pass
    try:
        from streamlit.runtime.app_session import AppSession

        if hasattr(AppSession, "_handle_clear_cache_request"):
            AppSession._handle_clear_cache_request = _clear_own_session_only  # noqa: SLF001
            found += 1
    except ImportError:  # pragma: no cover
        pass
    global _janitor_started  # noqa: PLW0603
    if found and not _janitor_started:
        _janitor_started = True
        threading.Thread(target=_janitor, name="kcompat-janitor", daemon=True).start()
    _applied = found == 2
    return _applied
