#!/usr/bin/env bash
# Installs the dashboard in .venv and serves it on http://localhost:8501 with the bundled data.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
# the distribution was called "dashboard" before it became "kcompat": drop a stale copy
.venv/bin/python -m pip uninstall -q -y dashboard >/dev/null 2>&1 || true
# the CLI, the dashboard extra (Streamlit, pandas, Altair) and the screenshots extra (Playwright's
# Python package: `kcompat screenshots` drives Debian's chromium, no browser is downloaded). Offline
# without Playwright at hand, the dashboard alone is installed and served.
.venv/bin/python -m pip install -q -e '.[dashboard,screenshots]' 2>/dev/null || {
  echo "serve.sh: the screenshots extra could not be installed (offline?): serving the dashboard without it;" \
    "'.venv/bin/python -m pip install -e .[screenshots]' adds it for kcompat screenshots" >&2
  .venv/bin/python -m pip install -q -e '.[dashboard]'
}
# bytecode once, so every later `kcompat` call starts fast even where PYTHONDONTWRITEBYTECODE is set
.venv/bin/python -m compileall -q kcompat dashboard >/dev/null
# Multi-megabyte inputs (Check a cluster pastes and files) are allocated by mmap and handed back
# when freed, in at most two malloc arenas (dashboard/server/memory.py MALLOC_ENV)
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}" MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
# kcompat serve: Streamlit with .streamlit/config.toml (no file watcher, address lookups or client
# error details), listening on 127.0.0.1 only (this machine: http://localhost:8501); ADDRESS=0.0.0.0
# (or --address 0.0.0.0) listens on every interface. PORT, and SERVER_ADDRESS: the host name visitors
# use (printed; never looked up).
exec .venv/bin/kcompat serve "$@"
