"""``kcompat.cli.screenshots``: one 1440x900 PNG per page or view link, the same pixels from run to
run and whatever host or port the link names."""

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
        # alpha_only=False: by default getbbox() of an RGBA image looks at the alpha channel only,
        # which is 0 everywhere in the difference of two opaque images.
        return ImageChops.difference(ia.convert("RGBA"), ib.convert("RGBA")).getbbox(alpha_only=False) is None


def assert_same_pixels(a, b, label: str) -> None:
    """Pixel equality; on a difference both files and the box that differs are kept in build/e2e-artifacts."""
    if same_pixels(a, b):
        return
    import shutil

    from e2e_support import artifact_dir
    from PIL import Image, ImageChops

    shutil.copy(a, artifact_dir() / f"{label}-a.png")
    shutil.copy(b, artifact_dir() / f"{label}-b.png")
    with Image.open(a) as ia, Image.open(b) as ib:
        box = ImageChops.difference(ia.convert("RGB"), ib.convert("RGB")).getbbox() if ia.size == ib.size else (ia.size, ib.size)
    raise AssertionError(f"{a} and {b} differ in {box} (copies in build/e2e-artifacts/{label}-*.png)")


def test_gates_screenshot_is_stable(server_url, browser, tmp_path):
    # Two runs, each in its own fresh browser context.
    first = screenshots.take_screenshots(tmp_path / "one", pages=["gates"], server=server_url, browser=browser)
    second = screenshots.take_screenshots(tmp_path / "two", pages=["gates"], server=server_url, browser=browser)
    assert [p.name for p in first] == [p.name for p in second] == ["gates.png"]
    # The same pixels (in practice the same bytes too: same chromium, same bundled fonts).
    assert_same_pixels(first[0], second[0], "gates-two-runs")


def test_screenshot_size_and_fixed_selection(server_url, browser, tmp_path):
    from PIL import Image

    [path] = screenshots.take_screenshots(tmp_path, pages=["timeline"], server=server_url, browser=browser)
    with Image.open(path) as im:
        assert im.size == (1440, 900)
        assert im.format == "PNG"
    params = screenshots.screenshot_params("timeline")
    assert params == {
        "binary": "1.36", "emulated": "1.33", "feature_gates": "AllBeta=false", "compact": "1", "embed_options": "light_theme"
    }


def test_cli_entry_points(server_url, tmp_path, capsys):
    """``kcompat screenshots --out DIR --page about --server URL``: launches its own chromium (in a
    thread: the session's Playwright owns this thread's event loop)."""
    parser = screenshots.register(argparse.ArgumentParser())
    args = parser.parse_args(["--out", str(tmp_path), "--page", "about", "--server", server_url])
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(screenshots.run, args).result(timeout=120) == 0
    assert (tmp_path / "about.png").is_file()
    assert capsys.readouterr().out.strip() == str(tmp_path / "about.png")

    bad = parser.parse_args(["--out", str(tmp_path), "--page", "nope", "--server", server_url])
    assert screenshots.run(bad) == 2
    assert "unknown page" in capsys.readouterr().err


MATRIX_VIEW = "/matrix?binary=1.35&matrix_transition=1.35:toGA"


def cli(*argv: str) -> int:
    """``kcompat screenshots ARGV`` in a thread of its own (it launches its own chromium)."""
    parser = screenshots.register(argparse.ArgumentParser())
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(screenshots.run, parser.parse_args(list(argv))).result(timeout=300)


def test_a_view_link_gives_the_same_pixels_whatever_its_host(server_url, browser, tmp_path, capsys):
    """``kcompat screenshots --url LINK`` twice, each run on a local server of its own (another
    free port each time), with links naming two other hosts: the same bytes and pixels; and the
    same pixels again on the tests' server (a third port)."""
    one, two = tmp_path / "one", tmp_path / "two"
    assert cli("--out", str(one), "--url", "http://kcompat.example:8501" + MATRIX_VIEW) == 0
    assert cli("--out", str(two), "--url", "https://203.0.113.7" + MATRIX_VIEW) == 0
    assert capsys.readouterr().out.split() == [str(one / "matrix.png"), str(two / "matrix.png")]
    assert_same_pixels(one / "matrix.png", two / "matrix.png", "link-two-runs")
    assert (one / "matrix.png").read_bytes() == (two / "matrix.png").read_bytes()
    [here] = screenshots.take_screenshots(tmp_path / "three", server=server_url, links=[server_url + MATRIX_VIEW], browser=browser)
    assert_same_pixels(one / "matrix.png", here, "link-tests-server")
    # The view is the link's: the default matrix looks different.
    [default] = screenshots.take_screenshots(tmp_path / "four", pages=["matrix"], server=server_url, browser=browser)
    assert not same_pixels(here, default)


def test_page_and_query_shoot_what_the_link_shows(server_url, browser, tmp_path):
    query = {"binary": "1.35", "emulated": "1.34"}
    [by_query] = screenshots.take_screenshots(tmp_path / "q", pages=["gates"], query=query, server=server_url, browser=browser)
    [by_link] = screenshots.take_screenshots(
        tmp_path / "l", links=["http://dashboard.example/?binary=1.35&emulated=1.34"], server=server_url, browser=browser
    )
    assert by_query.name == by_link.name == "gates.png"
    assert_same_pixels(by_query, by_link, "query-vs-link")
    [fixed] = screenshots.take_screenshots(tmp_path / "f", pages=["gates"], server=server_url, browser=browser)
    assert not same_pixels(by_query, fixed), (by_query, fixed)


def test_phone_screenshots(server_url, browser, tmp_path):
    from PIL import Image

    [path] = screenshots.take_screenshots(tmp_path, pages=["gates"], server=server_url, browser=browser, phone=True)
    with Image.open(path) as im:
        assert im.size == (780, 1688)  # 390x844 at twice the pixels
