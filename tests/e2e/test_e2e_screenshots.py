"""``kcompat.cli.screenshots``: one 1440x900 PNG per page or view link, the same pixels from run to
run and whatever host or port the link names."""

from __future__ import annotations

import argparse
from concurrent.futures import ThreadPoolExecutor

import pytest

from kcompat.cli import screenshots
from kcompat.core.request import Request

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


# --- pictures for documentation: --element, --full-height, --no-chrome ------------------------

#: Gates locked to their default for a 1.36 binary emulating 1.33: more rows than the Gates grid
#: shows at its height on the page (15).
LOCKED_VIEW = {"binary": "1.36", "emulated": "1.33", "gates_quick": "locked"}


def locked_gates() -> int:
    from kcompat.answers.gates import gates
    from kcompat.data.catalog import DEFAULT_CATALOG

    return sum(row.locked for row in gates(DEFAULT_CATALOG, Request("1.36", "1.33")).rows)


def text_rows(path, left: int = 0, right: int = 300) -> tuple[int, int]:
    """(lines of text, leftmost x of text) in a band of columns of a PNG: a line is a run of pixel
    rows holding dark (text) pixels; grid lines and checkboxes are lighter than text."""
    from PIL import Image

    with Image.open(path) as im:
        grey = im.convert("L")
        width, height = grey.size
        pixels = grey.load()
        runs, inside, first_x = 0, False, width
        for y in range(height):
            dark = [x for x in range(left, min(right, width)) if pixels[x, y] < 128]
            if dark:
                first_x = min(first_x, dark[0])
            if dark and not inside:
                runs += 1
            inside = bool(dark)
    return runs, first_x


def test_a_table_alone_shows_every_row_without_the_checkboxes(server_url, browser, tmp_path):
    rows = locked_gates()
    assert rows > 15  # more than the grid shows on the page
    framing = screenshots.Framing(("table", 1), full_height=True, no_chrome=True)
    [path] = screenshots.take_screenshots(tmp_path / "one", pages=["gates"], query=LOCKED_VIEW, server=server_url, browser=browser, framing=framing)
    assert path.name == "gates-table.png"
    from PIL import Image

    with Image.open(path) as im:
        width, height = im.size
    assert abs(height - (35 * (rows + 1) + 2)) <= 1, (height, rows)  # the header and every row, 35 px each
    assert 1000 < width < 1440  # the grid alone, not the window
    lines, first_x = text_rows(path)
    assert lines == rows + 1, (lines, rows)  # the header line and each gate's name
    # The gate names start at the picture's left edge (8 px of cell padding): no checkbox column before them.
    assert first_x < 14, first_x
    # The same pixels on a second run.
    [again] = screenshots.take_screenshots(tmp_path / "two", pages=["gates"], query=LOCKED_VIEW, server=server_url, browser=browser, framing=framing)
    assert_same_pixels(path, again, "table-two-runs")


def test_a_table_with_the_chrome_shows_every_row_and_its_checkboxes(server_url, browser, tmp_path):
    rows = locked_gates()
    [path] = screenshots.take_screenshots(
        tmp_path, pages=["gates"], query=LOCKED_VIEW, server=server_url, browser=browser, framing=screenshots.Framing(("table", 1))
    )
    from PIL import Image

    with Image.open(path) as im:
        assert abs(im.size[1] - (35 * (rows + 1) + 2)) <= 1, (im.size, rows)  # every row, not the page's 15
    lines, first_x = text_rows(path)
    assert lines == rows + 1 and first_x > 33, (lines, first_x)  # the checkbox column comes first


def test_a_wide_table_shows_every_column(open_page):
    """The APIs grid of every kind is twice as wide as a 1440 px window: the window is widened
    until the grid scrolls sideways no more, its last column ("reason") whole in the picture."""
    page, watch = open_page("apis", {"binary": "1.36", "emulated": "1.33", "feature_gates": "AllBeta=false"})
    framing = screenshots.Framing(("table", 2))
    table = page.locator('[data-testid="stDataFrame"]:visible').nth(1)
    assert table.evaluate(screenshots.HIDDEN_WIDTH_JS) > 500  # on the page it scrolls sideways
    screenshots.freeze(page)
    screenshots.frame_page(page, framing)
    assert table.evaluate(screenshots.HIDDEN_WIDTH_JS) <= 0
    assert page.viewport_size["width"] > 1440
    clip = screenshots.clip_of(page, framing)
    box = table.bounding_box()
    assert clip is not None and box is not None and clip["x"] + clip["width"] >= box["x"] + box["width"]
    grid = table.evaluate(screenshots.GRID_JS)
    assert grid["height"] == grid["content"]  # every row
    assert watch.console_errors == []


def test_a_chart_is_its_png_download_whole_and_titled(server_url, browser, tmp_path):
    """The Timeline draws its chart in blocks of 25 rows: ``--element chart`` is the chart's PNG
    download, every row in one picture under its title."""
    framing = screenshots.Framing(("chart", 1), no_chrome=True)
    [path] = screenshots.take_screenshots(tmp_path, pages=["timeline"], server=server_url, browser=browser, framing=framing)
    assert path.name == "timeline-chart.png"
    from PIL import Image

    from kcompat.answers.gates import gates
    from kcompat.data.catalog import DEFAULT_CATALOG

    rows = len(gates(DEFAULT_CATALOG, Request("1.36", "1.33")).rows)
    with Image.open(path) as im:
        width, height = im.size
        assert im.format == "PNG"
    # the PNG download is drawn at twice the pixels, 18 px a row: every row, plus title and legends
    assert height > 2 * 18 * rows > 2 * 18 * 3 * 25, (im.size, rows)
    assert width > 2000, im.size
    [matrix] = screenshots.take_screenshots(tmp_path, pages=["matrix"], server=server_url, browser=browser, framing=screenshots.Framing(("chart", 2)))
    assert matrix.name == "matrix-chart-2.png"
    with pytest.raises(ValueError, match="the page shows 2 charts: no chart 3"):
        screenshots.take_screenshots(
            tmp_path, pages=["matrix"], server=server_url, browser=browser, framing=screenshots.Framing(("chart", 3))
        )


def test_without_chrome_the_page_keeps_its_answer_only(open_page):
    page, watch = open_page("gates", LOCKED_VIEW)
    shown = {
        "navigation": '[data-testid="stTopNav"]',
        "copy link": ".kc-copy-link button",
        "selection bar": 'input[aria-label="Binary release"]',
        "metrics": '[data-testid="stMetric"]',
    }
    assert all(page.locator(css).first.is_visible() for css in shown.values())
    # the grid's rows are drawn (under load they come a moment after the page is idle)
    table = page.locator('[data-testid="stDataFrame"]').first
    for _ in range(100):
        if table.evaluate(screenshots.GRID_JS)["rows"] == locked_gates():
            break
        page.wait_for_timeout(100)
    screenshots.freeze(page)
    screenshots.frame_page(page, screenshots.Framing(None, full_height=True, no_chrome=True))
    assert [name for name, css in shown.items() if page.locator(css).first.is_visible()] == []
    assert page.locator('[data-testid="stDataFrame"]').first.is_visible()
    # Every row of the grid is drawn (it was grown to its content), and the window holds the whole page.
    grid = page.locator('[data-testid="stDataFrame"]').first.evaluate(screenshots.GRID_JS)
    assert grid["rows"] == locked_gates() and grid["height"] == grid["content"] == 35 * (grid["rows"] + 1) + 2
    assert page.viewport_size["height"] > 900
    assert watch.console_errors == []


def test_element_options_on_the_command_line(server_url, tmp_path, capsys):
    query = "&".join(f"{k}={v}" for k, v in LOCKED_VIEW.items())
    assert cli("--out", str(tmp_path), "--page", "gates", "--query", query, "--server", server_url,
               "--element", "table", "--full-height", "--no-chrome") == 0
    assert capsys.readouterr().out.split() == [str(tmp_path / "gates-table.png")]
    assert cli("--out", str(tmp_path), "--page", "about", "--server", server_url, "--element", "table:9") == 2
    assert "the page shows 0 tables: no table 9 (--element)" in capsys.readouterr().err
