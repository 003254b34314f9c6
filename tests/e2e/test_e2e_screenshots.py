"""``kcompat.cli.screenshots``: one 1440x900 PNG per page, the same pixels from run to run."""

from __future__ import annotations

import argparse
from concurrent.futures import ThreadPoolExecutor

import pytest

from kcompat.cli import screenshots

pytestmark = pytest.mark.e2e


def same_pixels(a, b) -> bool:
    """Pixel equality with Pillow; byte equality of the PNG files without it."""
    try:
        from PIL import Image, ImageChops
    except ImportError:  # pragma: no cover
        return a.read_bytes() == b.read_bytes()
    with Image.open(a) as ia, Image.open(b) as ib:
        if ia.size != ib.size:
            return False
        return ImageChops.difference(ia.convert("RGBA"), ib.convert("RGBA")).getbbox() is None


def test_gates_screenshot_is_stable(server_url, browser, tmp_path):
    # Two runs, each in its own fresh browser context.
    first = screenshots.take_screenshots(tmp_path / "one", pages=["gates"], url=server_url, browser=browser)
    second = screenshots.take_screenshots(tmp_path / "two", pages=["gates"], url=server_url, browser=browser)
    assert [p.name for p in first] == [p.name for p in second] == ["gates.png"]
    # The same pixels (in practice the same bytes too: same chromium, same bundled fonts).
    assert same_pixels(first[0], second[0])


def test_screenshot_size_and_fixed_selection(server_url, browser, tmp_path):
    from PIL import Image

    [path] = screenshots.take_screenshots(tmp_path, pages=["timeline"], url=server_url, browser=browser)
    with Image.open(path) as im:
        assert im.size == (1440, 900)
        assert im.format == "PNG"
    params = screenshots.screenshot_params("timeline")
    assert params == {"binary": "1.36", "emulated": "1.33", "feature_gates": "AllBeta=false", "embed_options": "light_theme"}


def test_cli_entry_points(server_url, tmp_path, capsys):
    """``kcompat screenshots --out DIR --page about --url URL``: launches its own chromium (in a
    thread: the session's Playwright owns this thread's event loop)."""
    parser = screenshots.add_screenshot_arguments(argparse.ArgumentParser())
    args = parser.parse_args(["--out", str(tmp_path), "--page", "about", "--url", server_url])
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(screenshots.run_screenshots, args).result(timeout=120) == 0
    assert (tmp_path / "about.png").is_file()
    assert capsys.readouterr().out.strip() == str(tmp_path / "about.png")

    bad = parser.parse_args(["--out", str(tmp_path), "--page", "nope", "--url", server_url])
    assert screenshots.run_screenshots(bad) == 2
    assert "unknown page" in capsys.readouterr().err
