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
  and the health endpoint waited behind them). Instead a janitor thread looks every 5 s: it
  expires disconnected sessions past ``server.disconnectedSessionTTL`` (Streamlit only does so
  when another session disconnects), shuts down the ones Streamlit dropped (Streamlit 1.67 drops
  an expired session without ``AppSession.shutdown``, so its uploaded files stayed in the
  runtime-wide upload manager for good), and, when sessions went away, runs one full collection, so
  their reference cycles (and the uploads they hold) are freed within seconds, and glibc's
  ``malloc_trim`` hands the freed pages back to the system.
- **The event loop gets the lock sooner.** Every session's script runs in a thread of its own,
  and the event loop that answers ``/_stcore/health`` and sends every session's messages needs
  the interpreter lock between its steps. Python lets a running thread keep the lock 5 ms after
  another asks for it; with twenty sessions rerunning, the loop waited behind them at each step.
  :data:`SWITCH_INTERVAL` makes that 1 ms (``sys.setswitchinterval``). Measured with
  ``bench/bench_soak.py`` (20 sessions x 50 reruns + 20 maximum-size uploads): worst health
  latency 705-746 ms and p99 361-411 ms, against 916-1,256 ms and 521-526 ms at 5 ms, for the same
  crowd time (78-84 s against 81 s in the same conditions).
- **Uploads are bounded per session.** ``server.maxUploadSize`` bounds one file, but a client may
  send any number of files to a session's uploaders, and Streamlit keeps every one in memory until
  the session ends. :func:`_bounded_add_file` refuses (HTTP 413) a file past
  :data:`MAX_SESSION_FILES` files or :data:`MAX_SESSION_UPLOAD_BYTES` bytes held by one session
  (a replaced file counts once).
- **Collections skip what lives for good.** Once the bundled catalog is loaded,
  :func:`freeze_long_lived` moves every object alive then (modules, the parsed catalog, ~150,000
  objects) into the collector's permanent generation (``gc.freeze``). A full collection then walks
  only what sessions created: the janitor's collection and Python's own generation-2 collections
  hold the lock for a fraction of the ~130 ms a walk over everything took on this 2-core machine.
"""

from __future__ import annotations

import gc
import sys
import threading
import time

_applied = False
_janitor_started = False
_frozen = False
JANITOR_INTERVAL = 5.0
#: Seconds a thread may hold the interpreter lock while another waits for it (Python's default
#: is 0.005). See "The event loop gets the lock sooner" in the module docstring.
SWITCH_INTERVAL = 0.001


class _Janitor:
    """Looks after sessions that Streamlit forgets (see the module docstring)."""

    def __init__(self) -> None:
        self.seen: int | None = None
        self.known: dict = {}  # session id -> (Active)SessionInfo live or stored at the last look

    def tick(self) -> None:
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return
        runtime = Runtime.instance()
        manager = runtime._session_mgr  # noqa: SLF001
        storage = getattr(getattr(manager, "_session_storage", None), "_cache", None)
        if storage is None or not hasattr(storage, "expire"):
            return
        storage.expire()  # Streamlit expires stored sessions only when another one is stored
        stored = dict(storage._data)  # noqa: SLF001
        active = {info.session.id: info for info in manager.list_active_sessions()}
        # A session that is neither live nor stored any more was dropped by Streamlit (expired or
        # evicted) without AppSession.shutdown(), which is what removes its uploaded files from the
        # runtime-wide upload manager: call it. Sessions seen live at the last look count too, so
        # one that disconnected and expired in between is not missed.
        known = {**active, **stored}
        gone = [info for sid, info in self.known.items() if sid not in known]
        self.known = known
        loop = runtime._get_async_objs().eventloop  # noqa: SLF001
        for info in gone:
            loop.call_soon_threadsafe(info.session.shutdown)
        count = len(active) + len(stored)
        if self.seen is not None and count < self.seen:
            time.sleep(0.5)  # let the shutdowns run on the event loop first
            gc.collect()
            _trim_heap()
        self.seen = count


def _janitor() -> None:
    janitor = _Janitor()
    while True:
        time.sleep(JANITOR_INTERVAL)
        try:
            janitor.tick()
        except Exception:  # noqa: BLE001 - another Streamlit layout: nothing to look after
            return


def _trim_heap() -> None:
    """Give freed heap pages back to the system (glibc ``malloc_trim``): without it the memory of
    closed sessions stays in the process's malloc arenas and the RSS never comes down."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to do
        pass


def freeze_long_lived() -> bool:
    """Collect once, then exclude every object alive now from later collections (``gc.freeze``).
    Called when the bundled catalog has been loaded; later calls do nothing. Returns whether this
    call froze."""
    global _frozen  # noqa: PLW0603
    if _frozen:
        return False
    _frozen = True
    gc.collect()
    gc.freeze()
    return True


#: glibc malloc settings the server is started with (Dockerfile ``ENV``, ``scripts/serve.sh``):
#: buffers of 128 kB and more (a paste, an uploaded /metrics, their pickles for the upload worker)
#: are mmapped and returned to the system when freed, instead of glibc raising its threshold after
#: the first large free and carving later ones from heaps that stay fragmented; two arenas, not
#: eight per core. 20 sessions checking maximum-size cluster inputs: peak RSS 537 MB and 185 MB
#: after they closed, against 628 and 256 MB without (bench/bench_soak.py --cluster-checks 5).
MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": "131072", "MALLOC_ARENA_MAX": "2"}

#: Files, and bytes of files, one session may hold in Streamlit's upload storage (the Check a
#: cluster page reads at most 5 files, 6 MB in all; the Gates page's custom manifest is one file
#: of at most 2 MB). 20 sessions at this budget fit the Deployment's memory limit (docs/hosting.md).
MAX_SESSION_FILES = 6
MAX_SESSION_UPLOAD_BYTES = 8 * 1024 * 1024


def _bounded_add_file(add_file):
    """``MemoryUploadedFileManager.add_file`` refusing a file that would take the session past
    :data:`MAX_SESSION_FILES` or :data:`MAX_SESSION_UPLOAD_BYTES`."""

    def add(self, session_id, file) -> None:
        from starlette.exceptions import HTTPException

        with self._lock:  # noqa: SLF001 - the manager's own lock (add_file takes it again below)
            held = {k: v for k, v in self.file_storage.get(session_id, {}).items() if k != file.file_id}
        if len(held) + 1 > MAX_SESSION_FILES:
            raise HTTPException(status_code=413, detail=f"more than {MAX_SESSION_FILES} files in this session")
        if sum(len(f.data) for f in held.values()) + len(file.data) > MAX_SESSION_UPLOAD_BYTES:
            raise HTTPException(status_code=413, detail=f"more than {MAX_SESSION_UPLOAD_BYTES:,} bytes of files in this session")
        add_file(self, session_id, file)

    add.kcompat_bounded = True
    return add


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
    try:
        from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

        if not getattr(MemoryUploadedFileManager.add_file, "kcompat_bounded", False):
            MemoryUploadedFileManager.add_file = _bounded_add_file(MemoryUploadedFileManager.add_file)
    except ImportError:  # pragma: no cover
        pass
    global _janitor_started  # noqa: PLW0603
    if found and not _janitor_started:
        _janitor_started = True
        threading.Thread(target=_janitor, name="kcompat-janitor", daemon=True).start()
        sys.setswitchinterval(SWITCH_INTERVAL)
    _applied = found == 2
    return _applied
