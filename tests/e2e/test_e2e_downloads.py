"""The Gates page's downloads in a real browser: the "Every gate" files arrive byte for byte as
``kcompat gates --format …`` prints them for the same selection, and the table's own CSV and
Markdown files from a filtered view hold exactly the rows shown (the Markdown after a header line
naming the view; the CSV is the table alone)."""

from __future__ import annotations

import contextlib
import csv
import io
import json

import pytest

pytestmark = pytest.mark.e2e

PARAMS = {"binary": "1.36", "emulated": "1.33", "feature_gates": "AllBeta=false"}
DOCUMENTED_KEYS = {
    "binary", "emulated", "minCompatibility", "valid", "verdict", "component", "errors", "notReady", "readinessRecorded", "warnings", "hints",
    "features", "components",
}
FEATURE_KEYS = {"name", "enabled", "stage", "default", "locked", "explicit", "origin", "historyFrom", "binaryStage", "changed"}


def kcompat_output(fmt: str) -> str:
    from kcompat.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(["gates", "--binary", "1.36", "--emulated", "1.33", "--feature-gates", "AllBeta=false", "--format", fmt])
    assert status == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def downloads(browser, server_url, tmp_path_factory):
    """Label -> (suggested file name, text) for the three buttons of the download dialog."""
    from e2e_support import PageWatch, new_context, page_url, wait_idle

    ctx = new_context(browser, accept_downloads=True)
    try:
        page = ctx.new_page()
        watch = PageWatch(page, server_url)
        page.goto(page_url(server_url, "gates", PARAMS), wait_until="domcontentloaded")
        wait_idle(page)
        page.get_by_role("button", name="Download…").click()
        dialog = page.get_by_role("dialog")
        dialog.wait_for()
        wait_idle(page)
        out: dict[str, tuple[str, str]] = {}
        folder = tmp_path_factory.mktemp("downloads")
        for label in ("CSV", "JSON", "Markdown"):
            with page.expect_download(timeout=30_000) as info:
                dialog.get_by_role("button", name=f"{label} (every gate)", exact=True).click()
            download = info.value
            target = folder / download.suggested_filename
            download.save_as(target)
            out[label] = (download.suggested_filename, target.read_text(encoding="utf-8"))
        assert watch.console_errors == []
        yield out
    finally:
        ctx.close()


def test_csv_download(downloads):
    name, text = downloads["CSV"]
    assert name == "gates-1.36-emulating-1.33.csv"
    assert text.splitlines()[0] == "name,enabled,stage,default,locked,explicit,stage in binary,changed"  # emulating: the page's two columns too
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) > 100
    assert all(r["enabled"] in ("true", "false") for r in rows)
    assert text == kcompat_output("csv")


def test_json_download(downloads):
    name, text = downloads["JSON"]
    assert name == "gates-1.36-emulating-1.33.json"
    doc = json.loads(text)
    assert set(doc) == DOCUMENTED_KEYS
    assert (doc["binary"], doc["emulated"], doc["valid"]) == ("1.36", "1.33", True)
    assert doc["features"] and all(set(f) == FEATURE_KEYS for f in doc["features"])
    # AllBeta=false: every beta gate that is not locked ends up off.
    assert all(not f["enabled"] for f in doc["features"] if f["stage"] == "Beta" and not f["locked"])
    assert text == kcompat_output("json")


def test_markdown_download(downloads):
    name, text = downloads["Markdown"]
    assert name == "gates-1.36-emulating-1.33.md"
    lines = text.splitlines()
    assert lines[0] == "| name | enabled | stage | default | locked | explicit | stage in binary | changed |"
    assert set(lines[1].replace("|", "").replace(" ", "")) == {"-"}
    assert len(lines) > 100 and all(line.startswith("| ") and line.endswith(" |") and line.count(" | ") == 7 for line in lines[2:])
    assert text == kcompat_output("markdown")


FILTERED = {**PARAMS, "gates_quick": "Beta", "gates_text": "Job"}


def expected_rows() -> list[str]:
    """The gates the filtered view shows: ``kcompat gates --search Job`` (the page's search), stage Beta."""
    from kcompat.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["gates", "--binary", "1.36", "--emulated", "1.33", "--feature-gates", "AllBeta=false", "--search", "Job", "--format", "json"])
    return sorted(f["name"] for f in json.loads(out.getvalue())["features"] if f["stage"] == "Beta")


@pytest.fixture(scope="module")
def filtered(browser, server_url, tmp_path_factory):
    """(caption "N of M gates match the filters", label -> (file name, text)) of the filtered view's table exports."""
    from e2e_support import PageWatch, new_context, page_url, wait_idle

    ctx = new_context(browser, accept_downloads=True)
    try:
        page = ctx.new_page()
        watch = PageWatch(page, server_url)
        page.goto(page_url(server_url, "gates", FILTERED), wait_until="domcontentloaded")
        wait_idle(page)
        caption = page.get_by_text("gates match the filters").first.inner_text()
        page.get_by_role("button", name="Download…").click()
        dialog = page.get_by_role("dialog")
        dialog.wait_for()
        wait_idle(page)
        out: dict[str, tuple[str, str]] = {}
        folder = tmp_path_factory.mktemp("filtered")
        for label in ("CSV", "Markdown"):
            with page.expect_download(timeout=30_000) as info:
                dialog.get_by_role("button", name=label, exact=True).click()
            download = info.value
            target = folder / download.suggested_filename
            download.save_as(target)
            out[label] = (download.suggested_filename, target.read_text(encoding="utf-8"))
        assert watch.console_errors == []
        yield caption, out
    finally:
        ctx.close()


def test_filtered_csv_is_the_rows_shown(filtered):
    caption, files = filtered
    name, text = files["CSV"]
    assert name == "gates-1.36-emulating-1.33-shown.csv"
    shown = int(caption.split(" of ")[0])
    assert not text.startswith("#")  # a spreadsheet reads every line as data: the view is named in the Markdown and JSON files
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == shown and sorted(r["gate"] for r in rows) == expected_rows()
    assert all(r["stage"] == "Beta" for r in rows)
    assert list(rows[0]) == [
        "gate", "enabled", "stage", "default", "locked", "binary_stage", "changed", "origin", "history_from", "matched",
    ]
    _, markdown = files["Markdown"]
    assert markdown.splitlines()[0].startswith(
        "kcompat Gates · selection: binary 1.36; emulated 1.33; min compat 1.33 (default); feature gates AllBeta=false · "
        f"view: gates\\_quick=Beta; gates\\_text=Job · {shown} rows · data: bundled data of kcompat "
    )


def test_filtered_markdown_is_the_rows_shown(filtered):
    caption, files = filtered
    name, text = files["Markdown"]
    assert name == "gates-1.36-emulating-1.33-shown.md"
    lines = text.splitlines()
    assert lines[0].startswith("kcompat Gates · selection: binary 1.36; emulated 1.33;") and lines[1] == ""
    assert lines[2].startswith("| gate | enabled | stage |")
    names = [line.strip("|").split(" | ")[0].strip() for line in lines[4:]]
    assert len(names) == int(caption.split(" of ")[0]) and sorted(names) == expected_rows()
