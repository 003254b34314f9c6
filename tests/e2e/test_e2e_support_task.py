"""The support task of issue 19 in a real browser, end to end: paste a kube-apiserver static pod
manifest (1.33 image, --emulated-version=1.31, --runtime-config=resource.k8s.io/v1beta1=true),
read the apiserver's refusal and the remedy, follow the remedy (emulate 1.32), see the cluster
accepted, with the selection bar following the inspected cluster each time."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "inspect"
PASTE_LABEL = "Command line, static pod manifest, kubeadm or kind config"
REFUSAL = "cannot enable version resource.k8s.io/v1beta1 in runtime-config because all the resources have been introduced"
REMEDY = "resource.k8s.io/v1beta1 appears in 1.32: emulate 1.32 or later"


def manifest(emulated: str) -> str:
    text = (SAMPLES / "kube-apiserver.yaml").read_text()
    text = text.replace("kube-apiserver:v1.36.2", "kube-apiserver:v1.33.0").replace("--emulated-version=1.34", f"--emulated-version={emulated}")
    return text.replace("--feature-gates=ImageVolume=true", "--runtime-config=resource.k8s.io/v1beta1=true")


def check(page, text: str) -> None:
    from e2e_support import wait_idle

    page.get_by_role("textbox", name=PASTE_LABEL).fill(text)
    page.get_by_role("button", name="Check").click()
    wait_idle(page)


def bar(page) -> tuple[str, str]:
    """The selection bar's binary and emulated version, as the browser shows them (the labels may
    carry a note, "1.33 (not emulating)"): the first word of each."""
    return tuple(
        page.locator(f'input[aria-label="{label}"]').input_value().split()[0] for label in ("Binary release", "Emulated version")
    )


def test_paste_read_the_refusal_follow_the_remedy(browser, server_url):
    from e2e_support import (
        PageWatch,
        new_context,
        page_url,
        streamlit_problems,
        wait_idle,
    )

    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        watch = PageWatch(page, server_url)
        page.goto(page_url(server_url, "cluster", {"binary": "1.36", "emulated": "1.36"}), wait_until="domcontentloaded")
        wait_idle(page)

        check(page, manifest("1.31"))
        page.get_by_text("would exit at start-up").first.wait_for(timeout=30_000)
        wait_idle(page)
        [error] = streamlit_problems(page, ("Error",))
        assert "This kube-apiserver would exit at start-up with" in error and REFUSAL in error
        infos = streamlit_problems(page, ("Info",))
        assert any(REMEDY in i for i in infos), infos
        assert "Read: pasted input: static pod manifest" in page.locator('[data-testid="stMain"]').inner_text()
        assert page.locator('[data-testid="stCode"]').count() == 0  # no snippet repeating the refused flag
        assert bar(page) == ("1.33", "1.31")
        assert "binary=1.33" in page.url and "emulated=1.31" in page.url

        # follow the remedy: emulate 1.32
        check(page, manifest("1.32"))
        page.get_by_text("Config for this selection").wait_for(timeout=30_000)
        wait_idle(page)
        assert [p for p in streamlit_problems(page, ("Error",)) if "would exit" in p] == []
        snippet = page.locator('[data-testid="stCode"]').first.inner_text()
        assert "kube-apiserver --emulated-version=1.32 --runtime-config=resource.k8s.io/v1beta1=true" in snippet
        assert bar(page) == ("1.33", "1.32")
        assert "emulated=1.32" in page.url
        assert watch.console_errors == [] and watch.external_requests() == []
    finally:
        ctx.close()
