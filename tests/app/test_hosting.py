"""Hosting settings: no outbound lookups, no file watcher, no error details to clients, and a
client's clear_cache message cannot empty the caches other sessions use."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
import streamlit as st
from streamlit import net_util
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.state import SessionState

from dashboard.components import hosting

ROOT = Path(__file__).resolve().parents[2]


def test_the_configuration_turns_off_lookups_watcher_and_error_details():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["fileWatcherType"] == "none"
    assert config["browser"]["serverAddress"] == "localhost"  # no external-IP lookup at start
    assert config["browser"]["gatherUsageStats"] is False
    assert config["client"]["showErrorDetails"] == "none"
    assert config["server"]["enableXsrfProtection"] is True
    assert config["runner"]["postScriptGC"] is False  # see components/hosting.py
    assert "kcompat serve" in (ROOT / "scripts" / "serve.sh").read_text()  # which runs Streamlit as below
    from argparse import Namespace

    from kcompat.cli.serve import serve_command, settings_home

    command = serve_command(Namespace(port=8501, address=None, server_address="localhost"))
    assert command[command.index("--browser.serverAddress") + 1] == "localhost"
    assert settings_home() == ROOT  # the configuration above applies


def test_refused_origins_never_trigger_an_external_ip_lookup():
    assert hosting.harden_server()
    # the allowlist walk ends at get_external_ip: it now answers from memory, with loopback
    assert net_util.get_external_ip() == "127.0.0.1"


_CALLS: list[int] = []


@st.cache_data
def _shared(x: int) -> list[int]:
    _CALLS.append(x)
    return [x]


def test_clear_cache_from_a_client_clears_its_own_session_only():
    assert hosting.harden_server()
    _shared(1)
    calls = len(_CALLS)
    state = SessionState()
    state["mine"] = 1
    AppSession._handle_clear_cache_request(SimpleNamespace(_session_state=state))  # what a clear_cache BackMsg runs
    assert "mine" not in state
    _shared(1)
    assert len(_CALLS) == calls  # the process cache other sessions use is untouched (not recomputed)


def test_freezing_leaves_what_is_alive_out_of_later_collections(monkeypatch):
    import gc

    monkeypatch.setattr(hosting, "_frozen", False)
    alive = [{"gate": n} for n in range(1000)]  # tracked objects, alive for good
    try:
        assert hosting.freeze_long_lived() is True
        assert gc.get_freeze_count() >= len(alive)
        tracked = {id(o) for o in gc.get_objects()}
        assert not any(id(o) in tracked for o in alive)
        assert hosting.freeze_long_lived() is False  # once per process
    finally:
        gc.unfreeze()


def test_loading_the_catalog_freezes_it(monkeypatch):
    import gc

    from dashboard.components import data

    monkeypatch.setattr(data.hosting, "_frozen", False)
    monkeypatch.delenv("KCOMPAT_DATA_DIR", raising=False)
    data.catalog.clear()
    try:
        manifest = data.catalog().all()[0]
        assert data.hosting._frozen is True
        assert not any(obj is manifest for obj in gc.get_objects())
    finally:
        gc.unfreeze()


def test_the_served_app_hands_the_interpreter_lock_over_sooner():
    import sys

    hosting.harden_server()
    assert hosting._janitor_started  # the served app's first run applied the settings
    assert sys.getswitchinterval() == pytest.approx(hosting.SWITCH_INTERVAL) and hosting.SWITCH_INTERVAL < 0.005


def test_the_private_streamlit_names_the_hosting_hooks_use_are_there():
    """components/hosting.py patches and reads Streamlit internals, checked against one minor
    release (pyproject pins it). When Streamlit moves one of them, this fails by name instead of
    the hooks quietly doing nothing."""
    import inspect

    import streamlit
    from streamlit import net_util
    from streamlit.runtime import Runtime
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.caching.ttl_cache import TTLCache
    from streamlit.runtime.memory_session_storage import MemorySessionStorage
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager

    assert streamlit.__version__.startswith("1.67."), f"hosting.py is checked against 1.67, not {streamlit.__version__}"
    missing = [
        name
        for name, present in {
            "net_util._external_ip": hasattr(net_util, "_external_ip"),
            "net_util.get_external_ip": hasattr(net_util, "get_external_ip"),
            "AppSession._handle_clear_cache_request": hasattr(AppSession, "_handle_clear_cache_request"),
            "AppSession.shutdown": hasattr(AppSession, "shutdown"),
            "Runtime._session_mgr": "self._session_mgr" in inspect.getsource(Runtime.__init__),
            "Runtime._get_async_objs": hasattr(Runtime, "_get_async_objs"),
            "WebsocketSessionManager._session_storage": "self._session_storage" in inspect.getsource(WebsocketSessionManager.__init__),
            "WebsocketSessionManager.list_active_sessions": hasattr(WebsocketSessionManager, "list_active_sessions"),
            "MemorySessionStorage._cache": "self._cache" in inspect.getsource(MemorySessionStorage),
            "TTLCache.expire": hasattr(TTLCache, "expire"),
            "TTLCache._data": "self._data" in inspect.getsource(TTLCache.__init__),
        }.items()
        if not present
    ]
    assert missing == [], f"Streamlit moved what components/hosting.py relies on: {missing}"
