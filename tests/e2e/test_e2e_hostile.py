"""Hostile and broken input in a real browser: uploads are validated and stay in their session,
and data carrying HTML, Markdown or formulas renders as text."""

from __future__ import annotations

import shutil

import pytest
import yaml
from e2e_support import (
    ROOT,
    new_context,
    page_url,
    start_server,
    stop_server,
    wait_idle,
)

pytestmark = pytest.mark.e2e

SEL = {"binary": "1.36", "emulated": "1.33"}
HOSTILE_NAME = "<script>alert(1)</script><b>Bold</b>"

#: Script elements in the page's main area other than the app's own (the Copy link button's).
FOREIGN_SCRIPTS_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] script')]
  .filter(s => !s.closest('.st-key-kc-copy-link')).length"""
CUSTOM = [
    {"name": "WidgetFeature", "versionedSpecs": [
        {"default": False, "lockToDefault": False, "preRelease": "Alpha", "version": "1.30"},
        {"default": True, "lockToDefault": False, "preRelease": "Beta", "version": "1.34"}]},
    {"name": HOSTILE_NAME, "versionedSpecs": [{"default": True, "lockToDefault": False, "preRelease": "GA", "version": "1.20"}]},
]


def _upload(page, path):
    page.get_by_role("button", name="Custom manifest…").click()
    page.locator('[role="dialog"] input[type="file"]').set_input_files(str(path))
    page.wait_for_function("() => !document.querySelector('[role=\"dialog\"]')", timeout=30_000)
    wait_idle(page)


def _metrics(page):
    return page.locator('[data-testid="stMetricValue"]').all_inner_texts()


def test_upload_is_used_by_its_session_only(browser, server_url, tmp_path):
    path = tmp_path / "fork.yaml"
    path.write_text(yaml.safe_dump(CUSTOM))
    mine, other = new_context(browser), new_context(browser)
    try:
        page = mine.new_page()
        page.goto(page_url(server_url, "gates", SEL))
        wait_idle(page)
        bundled = _metrics(page)
        _upload(page, path)
        assert "Using the uploaded manifest fork.yaml (2 gates)" in page.locator('[data-testid="stMain"]').inner_text()
        assert _metrics(page)[0] == "1"  # only the GA gate is on at 1.33
        # the hostile gate name is shown as text: no element was created from it
        assert page.evaluate(FOREIGN_SCRIPTS_JS) == 0 and page.locator('[data-testid="stMain"] b').count() == 0
        second = other.new_page()
        second.goto(page_url(server_url, "gates", SEL))
        wait_idle(second)
        assert _metrics(second) == bundled
    finally:
        mine.close()
        other.close()


@pytest.mark.parametrize(
    "content, message",
    [
        (b"a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n", "anchors and aliases are not allowed"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "a PNG image, not text"),
        (yaml.safe_dump([{"name": "G", "versionedSpecs": [{"default": False, "preRelease": "Omega", "version": "1.30.1"}]}]).encode(), "gate G, field versionedSpecs[0].version"),
    ],
)
def test_bad_uploads_are_refused_with_the_problem_named(browser, server_url, tmp_path, content, message):
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        page.goto(page_url(server_url, "gates", SEL))
        wait_idle(page)
        _upload(page, path)
        text = page.locator('[data-testid="stMain"]').inner_text()
        assert "bad.yaml cannot be used" in text and message in text
        assert page.locator('[data-testid="stException"]').count() == 0
        assert _metrics(page)[0] != "0"  # the bundled table is still shown
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory):
    """A server on a copy of data/ whose descriptions carry HTML, Markdown and formulas."""
    data = tmp_path_factory.mktemp("hostile") / "data"
    shutil.copytree(ROOT / "data", data)
    path = data / "features" / "descriptions.yaml"
    items = yaml.safe_load(path.read_text())
    for item in items:
        if item["name"] == "JobManagedBy":
            item["description"] = "<script>window.pwned=1</script> **bold** [click](javascript:alert(1)) =HYPERLINK(\"x\")"
            item["owners"] = ["<b>@owner</b>"]
    path.write_text(yaml.safe_dump(items))
    proc, url = start_server(extra_env={"KCOMPAT_DATA_DIR": str(data)})
    yield url
    stop_server(proc)


def test_descriptions_render_as_text(browser, hostile_server):
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        page.goto(page_url(hostile_server, "gate", {**SEL, "gate": "JobManagedBy"}))
        wait_idle(page)
        main = page.locator('[data-testid="stMain"]')
        assert "<script>window.pwned=1</script>" in main.inner_text()
        assert page.evaluate("() => window.pwned") is None
        assert page.evaluate(FOREIGN_SCRIPTS_JS) == 0 and main.locator('a[href^="javascript"]').count() == 0
        assert main.locator("b", has_text="@owner").count() == 0
    finally:
        ctx.close()
