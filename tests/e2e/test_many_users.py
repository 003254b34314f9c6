"""Many users at once: 20 browser sessions with different selections each see their own table."""

from __future__ import annotations

from e2e_support import new_context, page_url, wait_idle

from kcompat.answers.gates import gate_evaluation
from kcompat.core.request import Request
from kcompat.data.catalog import Catalog

#: 20 selections: every release pair the sessions spread over, some with --feature-gates.
SELECTIONS = [
    {"binary": b, "emulated": e, **({"feature_gates": f} if f else {})}
    for b, e, f in [
        ("1.36", "1.33", ""), ("1.36", "1.34", "AllBeta=false"), ("1.36", "1.35", ""), ("1.36", "1.36", "AllAlpha=true"),
        ("1.35", "1.32", ""), ("1.35", "1.33", "AllAlpha=true"), ("1.35", "1.34", ""), ("1.35", "1.35", "AllBeta=false"),
        ("1.34", "1.31", ""), ("1.34", "1.32", ""), ("1.34", "1.33", "AllAlpha=true"), ("1.34", "1.34", ""),
        ("1.33", "1.31", "AllAlpha=true"), ("1.33", "1.32", ""), ("1.33", "1.33", ""), ("1.32", "1.31", ""),
        ("1.32", "1.32", "AllBeta=false"), ("1.31", "1.31", ""), ("1.37", "1.34", ""), ("1.37", "1.37", "AllAlpha=true"),
    ]
]


def expected_enabled(sel: dict[str, str]) -> int:
    ev = gate_evaluation(Catalog(), Request(sel["binary"], sel["emulated"], None, sel.get("feature_gates")))
    return sum(g.enabled for g in ev.gates)


def test_twenty_sessions_at_once_each_see_their_own_table(browser, server_url):
    contexts = [new_context(browser) for _ in SELECTIONS]
    try:
        pages = [ctx.new_page() for ctx in contexts]
        for page, sel in zip(pages, SELECTIONS, strict=True):  # all 20 load concurrently in the browser
            page.goto(page_url(server_url, "gates", sel), wait_until="commit")
        for page, sel in zip(pages, SELECTIONS, strict=True):
            wait_idle(page, timeout=120_000)
            assert page.locator('input[aria-label="Binary release"]').input_value().startswith(sel["binary"])
            assert page.locator('input[aria-label="Emulated version"]').input_value().startswith(sel["emulated"])
            enabled = page.locator('[data-testid="stMetric"]').filter(has_text="Enabled").locator('[data-testid="stMetricValue"]')
            assert int(enabled.inner_text()) == expected_enabled(sel), sel
            assert f"binary={sel['binary']}" in page.url and f"emulated={sel['emulated']}" in page.url
    finally:
        for ctx in contexts:
            ctx.close()
