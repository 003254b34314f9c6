"""Hosting settings and the server's customisations (dashboard/server): no outbound lookups, no file
watcher, no error details to clients, a client's clear_cache message cannot empty the caches other
sessions use, uploads bounded per session; each customisation checks what it patches exists and
says so when it cannot apply."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
import streamlit as st
from conftest import (
    open_app,  # the app suite's helper (module level: tests/e2e has a conftest too)
)
from streamlit import net_util
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.state import SessionState

import dashboard.server as server
from dashboard.server import janitor, memory, patches
from dashboard.server.patch import Patch, streamlit_version

ROOT = Path(__file__).resolve().parents[2]


def test_the_configuration_turns_off_lookups_watcher_and_error_details():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["fileWatcherType"] == "none"
    assert config["browser"]["serverAddress"] == "localhost"  # no external-IP lookup at start
    assert config["browser"]["gatherUsageStats"] is False
    assert config["client"]["showErrorDetails"] == "none"
    assert config["server"]["enableXsrfProtection"] is True
    assert config["runner"]["postScriptGC"] is False  # see dashboard/server
    assert "kcompat serve" in (ROOT / "scripts" / "serve.sh").read_text()  # which runs Streamlit as below
    from argparse import Namespace

    from kcompat.cli.serve import serve_command, settings_home

    command = serve_command(Namespace(port=8501, address=None, server_address="localhost"))
    assert command[command.index("--browser.serverAddress") + 1] == "localhost"
    assert command[1:4] == ["-m", "dashboard.server", "run"]  # Streamlit's command line, customisations installed first
    assert settings_home() == ROOT  # the configuration above applies


def test_refused_origins_never_trigger_an_external_ip_lookup():
    assert all(r.applied for r in server.install()), [r for r in server.report() if not r.applied]
    # the allowlist walk ends at get_external_ip: it now answers from memory, with loopback
    assert net_util.get_external_ip() == "127.0.0.1"


_CALLS: list[int] = []


@st.cache_data
def _shared(x: int) -> list[int]:
    _CALLS.append(x)
    return [x]


def test_clear_cache_from_a_client_clears_its_own_session_only():
    server.install()
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

    monkeypatch.setattr(memory, "_frozen", False)
    alive = [{"gate": n} for n in range(1000)]  # tracked objects, alive for good
    try:
        assert memory.freeze_long_lived() is True
        assert gc.get_freeze_count() >= len(alive)
        tracked = {id(o) for o in gc.get_objects()}
        assert not any(id(o) in tracked for o in alive)
        assert memory.freeze_long_lived() is False  # once per process
    finally:
        gc.unfreeze()


def test_loading_the_catalog_freezes_it(monkeypatch):
    import gc

    from dashboard import data

    monkeypatch.setattr(memory, "_frozen", False)
    monkeypatch.delenv("KCOMPAT_DATA_DIR", raising=False)
    data.catalog.clear()
    try:
        manifest = data.catalog().all()[0]
        assert memory._frozen is True
        assert not any(obj is manifest for obj in gc.get_objects())
    finally:
        gc.unfreeze()


def test_the_served_app_hands_the_interpreter_lock_over_sooner():
    import sys

    server.install()
    assert janitor.started()  # the served app's first run applied the settings
    assert sys.getswitchinterval() == pytest.approx(memory.SWITCH_INTERVAL) and memory.SWITCH_INTERVAL < 0.005


@pytest.mark.parametrize("patch", patches.PATCHES, ids=lambda p: p.name)
def test_every_customisation_applies_to_the_installed_streamlit(patch):
    """Each patch names what it changes or reads in Streamlit; all of it is there in the release
    installed (with KCOMPAT_STREAMLIT=newest, the newest one: scripts/test.sh)."""
    assert patch.missing() == [], f"Streamlit {streamlit_version()} moved what {patch.name!r} relies on"
    assert next(r for r in server.install() if r.name == patch.name).applied


def test_a_customisation_that_cannot_apply_is_logged_and_reported(monkeypatch, caplog):
    ghost = Patch("a patch of something gone", ("streamlit.runtime.app_session:AppSession._no_such_method",), lambda: "applied")
    monkeypatch.setattr(patches, "PATCHES", (*patches.PATCHES, ghost))
    monkeypatch.setattr(server, "PATCHES", patches.PATCHES)
    with caplog.at_level("WARNING", logger="dashboard.server"):
        results = server.install()
    [result] = [r for r in results if r.name == ghost.name]
    assert not result.applied and result.detail == f"Streamlit {streamlit_version()} has no streamlit.runtime.app_session:AppSession._no_such_method"
    assert f"the server customisation {ghost.name!r} is not applied" in caplog.text
    monkeypatch.delitem(server._results, ghost.name)


def test_the_about_page_names_a_customisation_that_does_not_apply(monkeypatch):
    from dashboard.server.patch import PatchResult

    at = open_app("about")
    assert any(c.value.endswith("customisations apply.") and "all" in c.value for c in at.caption), [c.value for c in at.caption] + [r for r in server.report() if not r.applied]
    monkeypatch.setitem(server._results, "uploads bounded per session", PatchResult("uploads bounded per session", False, "gone"))
    at = open_app("about")
    assert any("Server customisation not applied: uploads bounded per session" in w.value.replace("\\", "") for w in at.warning)


def test_the_janitor_stops_and_says_so_on_a_server_it_cannot_read(monkeypatch):
    from unittest.mock import MagicMock

    from streamlit.runtime import Runtime

    monkeypatch.setattr(Runtime, "exists", staticmethod(lambda: True))
    monkeypatch.setattr(Runtime, "instance", staticmethod(lambda: MagicMock(spec=Runtime)))
    assert janitor.Janitor().tick() is True  # AppTest's stand-in runtime: no server, nothing to look after
    real = Runtime.__new__(Runtime)  # a server's runtime whose session manager is not where the janitor reads it
    monkeypatch.setattr(Runtime, "instance", staticmethod(lambda: real))
    assert janitor.Janitor().tick() is False


def test_warming_up_makes_streamlit_s_once_per_process_checks():
    """What the first visitor's run no longer pays: Streamlit's "use streamlit run" check (it walks
    every module's file) and its emoji table are done, the app imported, the catalog loaded."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from dashboard.server.warm_up import warm\n"
        "from streamlit import delta_generator\n"
        "before = delta_generator._use_warning_has_been_displayed, 'streamlit.emojis' in sys.modules\n"
        "line = warm()\n"
        "from dashboard import data\n"
        "print(before, delta_generator._use_warning_has_been_displayed, 'streamlit.emojis' in sys.modules,\n"
        "      'dashboard.tables.gate_table' in sys.modules, len(data.summary().usable) > 0, line.startswith('the app imported'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[-2] == "(False, False) True True True True True"


def test_the_janitor_shuts_down_one_forgotten_session_per_look(monkeypatch):
    """Each shutdown makes Streamlit sweep its media files, and a file two sweeps find unreferenced
    is deleted: a chart download rendered on click is unreferenced until the browser fetched it, so
    back-to-back shutdowns could delete it in between. One per look (5 s apart) leaves it time."""
    from types import SimpleNamespace

    from streamlit.runtime import Runtime

    shut: list[str] = []
    sessions = {sid: SimpleNamespace(session=SimpleNamespace(id=sid, shutdown=lambda sid=sid: shut.append(sid))) for sid in "abc"}
    live = dict(sessions)
    storage = SimpleNamespace(expire=lambda: None, _data={})
    manager = SimpleNamespace(_session_storage=SimpleNamespace(_cache=storage), list_active_sessions=lambda: list(live.values()))
    loop = SimpleNamespace(call_soon_threadsafe=lambda f: f())
    real = Runtime.__new__(Runtime)
    real._session_mgr = manager
    real._get_async_objs = lambda: SimpleNamespace(eventloop=loop)
    monkeypatch.setattr(Runtime, "exists", staticmethod(lambda: True))
    monkeypatch.setattr(Runtime, "instance", staticmethod(lambda: real))
    monkeypatch.setattr(janitor.time, "sleep", lambda _s: None)
    look = janitor.Janitor()
    assert look.tick() and shut == []  # three live sessions
    live.clear()  # all three dropped by Streamlit without a shutdown
    assert look.tick() and shut == ["a"]
    assert look.tick() and shut == ["a", "b"]
    assert look.tick() and shut == ["a", "b", "c"]
    assert look.tick() and shut == ["a", "b", "c"]  # each once


#: what the app reads or writes of Streamlit's private parts, by name (dashboard/server/internals.py)
STREAMLIT_INTERNALS = ("_session_mgr", "_session_storage", "net_util", "_external_ip", "AppSession", "_handle_clear_cache_request",
                       "_get_async_objs", "MemoryUploadedFileManager", "_maybe_print_use_warning", "_altair_globals_lock",
                       "websocket_session_manager", "ttl_cache", "get_script_run_ctx", "is_active_session", "streamlit.runtime.scriptrunner")


def _private_names(path: Path) -> set[str]:
    """The private names a module reads on something other than itself: ``x._name`` (x not self or
    cls) and ``getattr(x, "_name")``."""
    import ast

    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                names.add(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr", "setattr"):
            names |= {a.value for a in node.args[1:2] if isinstance(a, ast.Constant) and str(a.value).startswith("_")
                      and not str(a.value).startswith("__")}
    return names


def test_streamlit_internals_are_read_in_one_module_only():
    internals_py = ROOT / "dashboard" / "server" / "internals.py"
    used_there = _private_names(internals_py)
    assert {"_session_mgr", "_external_ip", "_handle_clear_cache_request", "_get_async_objs"} <= used_there  # (the check reads them)
    for path in sorted((ROOT / "dashboard").rglob("*.py")):
        if path == internals_py:
            continue
        text = path.read_text(encoding="utf-8")
        assert [name for name in STREAMLIT_INTERNALS if name in text] == [], path
        assert _private_names(path) & used_there == set(), path


def test_every_private_part_the_app_uses_is_in_the_installed_streamlit():
    """What internals.py reads or writes, checked against the installed release (the patches check
    their own part again before they apply; the reads fall back without it)."""
    from dashboard.server import internals
    from dashboard.server.patch import exists

    assert [need for need in internals.ALL_NEEDS if not exists(need)] == [], f"Streamlit {streamlit_version()}"
    assert {need for patch in patches.PATCHES for need in patch.needs} <= set(internals.ALL_NEEDS)
    assert internals.print_use_warning_once() is True
    from streamlit.elements import vega_charts

    assert internals.altair_lock() is vega_charts._altair_globals_lock
