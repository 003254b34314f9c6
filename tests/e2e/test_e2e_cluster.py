"""The Check a cluster page in a real browser: files uploaded through the file chooser, the
disagreement shown first, and the config snippets with their copy buttons. The /metrics file is
GENERATED from the engine's prediction (tests/inspect_samples.py) with one Beta gate flipped."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_samples import SAMPLES, flip, metrics_text, version_info

pytestmark = pytest.mark.e2e


def test_upload_shows_disagreement_and_snippets(browser, server_url, tmp_path):
    from e2e_support import (
        PageWatch,
        new_context,
        page_url,
        streamlit_problems,
        wait_idle,
    )

    metrics = tmp_path / "metrics.txt"
    metrics.write_text(flip(metrics_text("v1.32.0", "1.31", info=version_info("version-1.32.0.json")), "APIServerTracing"))
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        watch = PageWatch(page, server_url)
        page.goto(page_url(server_url, "cluster", {"binary": "1.36", "emulated": "1.33"}), wait_until="domcontentloaded")
        wait_idle(page)
        page.locator('[data-testid="stFileUploaderDropzoneInput"][multiple]').set_input_files(
            [str(SAMPLES / "ps-kube-apiserver-1.32.txt"), str(SAMPLES / "version-1.32.0.json"), str(metrics)]
        )
        wait_idle(page)
        page.get_by_role("button", name="Check").click()
        page.get_by_text("gates on /metrics disagree with the prediction").wait_for(timeout=30_000)
        wait_idle(page)
        [error] = streamlit_problems(page, ("Error",))
        assert error.splitlines()[-1].startswith("1 of ") and error.endswith("gates on /metrics disagree with the prediction.")
        main = page.locator('[data-testid="stMain"]')
        # the grid fills its (hidden, accessible) cell table after the run: wait for the name
        main.get_by_text("APIServerTracing").first.wait_for(state="attached", timeout=30_000)
        # the snippets have copy buttons (st.code's built-in one)
        page.locator('[data-testid="stCode"]').first.hover()
        page.locator('[data-testid="stCode"] button').first.wait_for(timeout=10_000)
        assert "kube-scheduler --emulated-version=1.31" in page.locator('[data-testid="stCode"]').first.inner_text()
        assert watch.console_errors == [] and watch.external_requests() == []
    finally:
        ctx.close()


def test_uploaded_utf16_and_gzip_files_are_read(browser, server_url):
    """What Windows' PowerShell writes (UTF-16 with a byte-order mark) and a gzip-compressed
    /metrics are read, not called binary data."""
    from e2e_support import new_context, page_url, wait_idle

    hostile = SAMPLES.parent / "hostile"
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        page.goto(page_url(server_url, "cluster", {"binary": "1.36", "emulated": "1.36"}), wait_until="domcontentloaded")
        wait_idle(page)
        page.locator('[data-testid="stFileUploaderDropzoneInput"][multiple]').set_input_files(
            [str(hostile / "version-utf16.json"), str(hostile / "metrics.txt.gz")]
        )
        wait_idle(page)
        page.get_by_role("button", name="Check").click()
        page.get_by_text("gates kcompat knows agree with the prediction").wait_for(timeout=30_000)
        main = page.locator('[data-testid="stMain"]').inner_text()
        assert "binary data" not in main and "NUL bytes" not in main
    finally:
        ctx.close()
