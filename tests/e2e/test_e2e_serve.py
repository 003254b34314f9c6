"""``kcompat serve`` from an installed package: a fresh venv outside the checkout, ``pip install``
of the project, then every page served and shown without an error by a real browser."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.request
import venv
from pathlib import Path

import pytest
from e2e_support import (
    PAGES,
    free_port,
    new_context,
    open_in_context,
    streamlit_problems,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A venv outside the checkout with the project installed from a copy (not editable). The
    dependencies are this environment's (a .pth file): only the build backend comes from the index."""
    tmp = tmp_path_factory.mktemp("serve")
    source = tmp / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copy(ROOT / "pyproject.toml", source)
    for folder in ("kcompat", "dashboard", "data", ".streamlit"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=True)
    site = next((env_dir / "lib").glob("python*/site-packages"))
    (site / "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run(
        [env_dir / "bin" / "python", "-m", "pip", "install", "-q", "--no-deps", str(source)],
        capture_output=True, text=True, timeout=300, cwd=tmp,
    )
    if done.returncode != 0 and ("No matching distribution" in done.stderr or "Could not find a version" in done.stderr):
        pytest.skip(f"no package index to build with: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stderr
    shutil.rmtree(source)  # what is served comes from the venv alone
    return env_dir


def test_serve_from_an_installed_package_shows_every_page(installed, browser, tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KCOMPAT_DATA_DIR")}
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen(
        [installed / "bin" / "kcompat", "serve", "--port", str(port), "--address", "127.0.0.1"],
        cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("kcompat serve did not become healthy: " + (tmp_path / "serve.log").read_text()[-2000:])
        ctx = new_context(browser)
        for key in PAGES:
            page, _ = open_in_context(ctx, url, key)
            assert streamlit_problems(page, ("Error", "Warning")) == [], key
            assert page.locator('[data-testid="stMain"]').inner_text().strip(), f"{key}: the page is empty"
        ctx.close()
        text = (tmp_path / "serve.log").read_text()
        assert "Traceback" not in text
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        log.close()


def test_serve_refuses_a_bad_port():
    done = subprocess.run([sys.executable, "-m", "kcompat", "serve", "--port", "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--port must be 1-65535" in done.stderr
