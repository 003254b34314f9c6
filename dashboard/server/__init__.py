"""Every customisation of the Streamlit server, in one place, applied by one explicit call.

:func:`install` is called before the server starts (``kcompat serve`` runs Streamlit through
``python -m dashboard.server``) and again by the app's entry (``dashboard/app.py``: a plain
``streamlit run dashboard/app.py`` gets them at the first script run); it is idempotent. Each
customisation is a :class:`Patch` that first checks that what it changes exists in the installed
Streamlit; one that cannot apply is logged (logger ``dashboard.server``) and listed on the About
page (:func:`report`), and the server runs on without it. Where the pinned Streamlit has a public
setting, ``.streamlit/config.toml`` uses it; what has none is below, and every read or write of
Streamlit's private parts is in :mod:`.internals` alone (which says, for each, why no setting
does it). What each one does and why:

- **No outbound lookups** (:mod:`.patches`): a refused cross-origin websocket walks Streamlit's
  origin allowlist down to its external-address lookup, which asks checkip.amazonaws.com on every
  refusal when offline (the miss is not remembered), a blocking call on the server's event loop.
  The loopback address is recorded as the known "external" address instead: that adds nothing to
  the allowlist (127.0.0.1 is on it already) and no request is ever made.
- **Cache clearing stays per session** (:mod:`.patches`): any websocket client can send the
  ``clear_cache`` message (the menu item is hidden with ``toolbarMode = "viewer"``, the message is
  not refused); Streamlit then empties every ``st.cache_data``/``st.cache_resource`` of the
  process, for all users. Here it clears the sender's own session state only. Should it not apply,
  the process caches are cheap to rebuild (the bundled catalog loads in well under a second).
- **Uploads are bounded per session** (:mod:`.patches`): ``server.maxUploadSize`` bounds one file,
  but a client may send any number of files to a session's uploaders, and Streamlit keeps every one
  in memory until the session ends. A file past :data:`~.patches.MAX_SESSION_FILES` files or
  :data:`~.patches.MAX_SESSION_UPLOAD_BYTES` bytes held by one session is refused (HTTP 413).
- **Memory of closed sessions comes back** (:mod:`.janitor`): ``.streamlit/config.toml`` sets
  ``runner.postScriptGC = false`` (Streamlit's default runs ``gc.collect(2)`` after every script run
  of every session, holding the lock all threads share while it walks every live object). Instead
  a janitor thread looks every 5 s: it expires disconnected sessions past
  ``server.disconnectedSessionTTL``, shuts down the ones Streamlit dropped without
  their session's ``shutdown`` (their uploaded files stayed in the upload manager for good), one per
  look (each shutdown sweeps the media files, and two sweeps back to back deleted a chart download
  between its rendering on click and the browser's fetch), and, when sessions went away, runs one
  full collection and glibc's ``malloc_trim``.
- **The event loop gets the lock sooner** (:mod:`.memory`): every session's script runs in a thread
  of its own, and the event loop that answers ``/_stcore/health`` needs the interpreter lock
  between its steps; :data:`~.memory.SWITCH_INTERVAL` makes Python hand it over after 1 ms, not 5.
  ``bench/bench_soak.py`` (20 sessions x 50 reruns + 20 maximum-size uploads): worst health latency
  705-746 ms and p99 361-411 ms, against 916-1,256 ms and 521-526 ms at 5 ms.
- **Collections skip what lives for good** (:mod:`.memory`): once the bundled catalog is loaded,
  :func:`~.memory.freeze_long_lived` moves every object alive then (~150,000) into the collector's
  permanent generation (``gc.freeze``): a full collection walks only what sessions created.

- **The app is warmed up at start** (:mod:`.warm_up`, started by ``python -m dashboard.server``, not
  by :func:`install`): the first visitor's script run no longer imports the app, loads the data or
  makes Streamlit's once-per-process checks.

``tests/app/test_server.py`` applies every patch to the installed Streamlit; ``scripts/test.sh``
runs the whole suite against the newest Streamlit release when ``KCOMPAT_STREAMLIT=newest``
(docs/hosting.md), so the next release is a measured upgrade.
"""

from __future__ import annotations

import logging

from .memory import MALLOC_ENV, SWITCH_INTERVAL, freeze_long_lived
from .patches import PATCHES, Patch, PatchResult

log = logging.getLogger(__name__)

#: name -> what installing it found, for every patch installed in this process
_results: dict[str, PatchResult] = {}


def install() -> tuple[PatchResult, ...]:
    """Apply every customisation once per process (later calls return the first results). Each
    one that cannot apply is logged with the reason; none raises."""
    for patch in PATCHES:
        if patch.name in _results:
            continue
        result = patch.install()
        _results[patch.name] = result
        if not result.applied:
            log.warning("kcompat: the server customisation %r is not applied: %s", patch.name, result.detail)
    return report()


def record(result: PatchResult) -> None:
    """A patch's later finding (the janitor checks the running server's internals when it starts
    looking after it), logged as :func:`install` logs its own."""
    _results[result.name] = result
    if not result.applied:
        log.warning("kcompat: the server customisation %r stopped: %s", result.name, result.detail)


def report() -> tuple[PatchResult, ...]:
    """What :func:`install` found for each customisation, in the order they are installed."""
    return tuple(_results[p.name] for p in PATCHES if p.name in _results)


__all__ = ["MALLOC_ENV", "PATCHES", "SWITCH_INTERVAL", "Patch", "PatchResult", "freeze_long_lived", "install", "record", "report"]
