"""Charts download as PNG and SVG, rendered on the server without a browser or network."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_support import wait_idle

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("page_key, name", [("timeline", "timeline-1.36-emulating-1.33"), ("matrix", "release-changes")])
def test_chart_png_and_svg_downloads(open_page, page_key, name):
    page, watch = open_page(page_key)
    # The timeline draws ten charts; a rerun their first render may start replaces the download
    # buttons' files (a click in between gets a file without its name): let it end first.
    wait_idle(page, settle=1500)
    for label, magic in (("SVG", b"<svg"), ("PNG", b"\x89PNG\r\n\x1a\n")):
        with page.expect_download(timeout=60_000) as info:
            page.locator('[data-testid="stDownloadButton"] button', has_text=label).first.click()
        download = info.value
        assert download.suggested_filename == f"{name}.{label.lower()}"
        body = Path(download.path()).read_bytes()
        assert body.startswith(magic) and len(body) > 1000
    assert watch.external_requests() == []
