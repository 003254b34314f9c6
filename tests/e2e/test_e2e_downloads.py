"""The Gates page's downloads in a real browser: the files arrive with the documented content,
byte for byte what ``kcompat gates --format …`` prints for the same selection."""

from __future__ import annotations

import contextlib
import csv
import io
import json

import pytest

pytestmark = pytest.mark.e2e

PARAMS = {"binary": "1.36", "emulated": "1.33", "feature_gates": "AllBeta=false"}
DOCUMENTED_KEYS = {"binary", "emulated", "minCompatibility", "valid", "errors", "warnings", "hints", "features"}
FEATURE_KEYS = {"name", "enabled", "stage", "default", "locked", "explicit", "origin", "historyFrom"}


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
                dialog.get_by_role("button", name=label, exact=True).click()
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
    assert text.splitlines()[0] == "name,enabled,stage,default,locked,explicit"
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
    assert lines[0] == "| name | enabled | stage | default | locked | explicit |"
    assert set(lines[1].replace("|", "").replace(" ", "")) == {"-"}
    assert len(lines) > 100 and all(line.startswith("| ") and line.endswith(" |") and line.count(" | ") == 5 for line in lines[2:])
    assert text == kcompat_output("markdown")
