"""Benchmark: rerun latency of the Gates page with 20 browser sessions at once.

Starts the real server and Debian's chromium, opens 20 sessions on different selections, then,
for several rounds, changes the emulated version in all 20 at once (through the URL-backed
selectbox) and records each session's time from the change until its script run finished.
Prints p50/p95/max, and the same figures for ONE session alone measured in the same run (the
baseline), with the ratio.

    python bench/bench_many_users.py [--sessions 20] [--rounds 5]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dashboard.screenshots import launch_browser, new_context, page_url, start_server, stop_server, wait_idle  # noqa: E402

BINARIES = ["1.36", "1.35", "1.34", "1.33", "1.37"]
IDLE = (
    "() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
    " return a && a.getAttribute('data-test-script-state') === 'notRunning'; }"
)


def _emulated_options(binary: str) -> list[str]:
    from dashboard.core.compat import allowed_versions
    from dashboard.core.versions import parse_version

    return [e["emulated"] for e in allowed_versions(parse_version(binary))["emulated"]]


def _choose(page, option: str) -> None:
    page.locator('input[aria-label="Emulated version"]').click()
    # option labels may carry a note ("1.36 (not emulating)")
    page.get_by_role("listbox").get_by_role("option", name=re.compile("^" + re.escape(option) + r"\b")).first.click()


def _round(pages, targets) -> list[float]:
    started = []
    for page, target in zip(pages, targets):
        _choose(page, target)
        started.append(time.perf_counter())
    done = [None] * len(pages)
    while any(d is None for d in done):
        for i, page in enumerate(pages):
            if done[i] is None and page.evaluate(IDLE) and f"emulated={targets[i]}" in page.url:
                done[i] = time.perf_counter()
        time.sleep(0.005)
    return [(d - s) * 1000 for d, s in zip(done, started)]


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    proc, url = start_server()
    try:
        with sync_playwright() as p:
            browser = launch_browser(p)
            sessions = []
            for i in range(args.sessions):
                binary = BINARIES[i % len(BINARIES)]
                ctx = new_context(browser)
                page = ctx.new_page()
                page.goto(page_url(url, "gates", {"binary": binary}), wait_until="commit")
                sessions.append((ctx, page, binary))
            for _, page, _ in sessions:
                wait_idle(page, timeout=180_000)
            pages = [s[1] for s in sessions]
            options = [_emulated_options(s[2]) for s in sessions]
            # one session alone first (baseline), then all at once
            alone = []
            for r in range(args.rounds):
                alone += _round(pages[:1], [options[0][r % len(options[0])]])
            loaded = []
            for r in range(args.rounds):
                loaded += _round(pages, [o[(r + 1) % len(o)] for o in options])
            for ctx, _, _ in sessions:
                ctx.close()
            browser.close()
    finally:
        stop_server(proc)
    print(f"one session alone:  p50 {statistics.median(alone):7.1f} ms  p95 {_pct(alone, 95):7.1f} ms  ({len(alone)} reruns)")
    print(
        f"{args.sessions} sessions at once: p50 {statistics.median(loaded):7.1f} ms  p95 {_pct(loaded, 95):7.1f} ms  "
        f"max {max(loaded):7.1f} ms  ({len(loaded)} reruns)"
    )
    print(f"ratio p50 loaded/alone: {statistics.median(loaded) / statistics.median(alone):.2f}")


if __name__ == "__main__":
    main()
