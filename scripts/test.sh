#!/usr/bin/env bash
# Installs what the tests need (Python packages in .venv, Debian's chromium for the browser
# tests), lints (ruff) and type-checks (mypy), then runs the whole suite on both cores. Extra
# arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium
fi

PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# the distribution was called "dashboard" before it became "kcompat": drop a stale copy
.venv/bin/python -m pip uninstall -q -y dashboard >/dev/null 2>&1 || true
.venv/bin/python -m pip install -q -e ".[test]"
# KCOMPAT_STREAMLIT=newest runs the suite against the newest Streamlit release (KCOMPAT_STREAMLIT=1.68.0:
# that release), so the next release is a measured upgrade: tests/app/test_server.py names every
# server customisation (dashboard/server) the release no longer allows. The .venv keeps it afterwards.
if [ -n "${KCOMPAT_STREAMLIT:-}" ]; then
  if [ "$KCOMPAT_STREAMLIT" = newest ]; then spec=streamlit; else spec="streamlit==$KCOMPAT_STREAMLIT"; fi
  .venv/bin/python -m pip install -q --upgrade "$spec"
fi
.venv/bin/python -c 'import streamlit; print("streamlit", streamlit.__version__)'
# bytecode once, so every `kcompat` process the tests start does not compile the package again
.venv/bin/python -m compileall -q kcompat dashboard >/dev/null

# lint and types first (seconds): ruff over the project, mypy strict on kcompat and dashboard (pyproject)
.venv/bin/ruff check .
.venv/bin/mypy

exec .venv/bin/python -m pytest -n 2 -p no:cacheprovider "$@"
