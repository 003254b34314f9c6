"""Benchmark: rerun latency of the Gates page with 20 browser sessions at once.

Starts the real server and Debian's chromium, opens 20 sessions on different selections, then,
for several rounds, changes the emulated version in all 20 at once (through the URL-backed
selectbox) and records each session's time from the change until its script run finished.
Prints p50/p95/max, and the same figures for ONE session alone measured in the same run (the
baseline), with the ratio.

Two times per rerun: the browser's (the change until the page is idle again: the script run, the
websocket messages and the browser's rendering) and the server's (the script run alone, from its
first line to its last, written by ``dashboard/server/run_timing.py`` when ``KCOMPAT_RUN_TIMES`` is set).
The goal is a server-side p95 with 20 sessions within 3x the p95 of one session alone.

    python bench/bench_many_users.py [--sessions 20] [--rounds 5] [--check]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kcompat.cli.screenshots import (
    launch_browser,
    new_context,
    page_url,
    start_server,
    stop_server,
    wait_idle,
)

GOAL = 3.0
BINARIES = ["1.36", "1.35", "1.34", "1.33", "1.37"]
IDLE = (
    "() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
    " return a && a.getAttribute('data-test-script-state') === 'notRunning'; }"
)


def _emulated_options(binary: str) -> list[str]:
    from kcompat.core.compat import allowed_versions
    from kcompat.core.versions import parse_version

    return [e.emulated for e in allowed_versions(parse_version(binary)).emulated]


def _choose(page, option: str) -> None:
    page.locator('input[aria-label="Emulated version"]').click()
    # option labels may carry a note ("1.36 (not emulating)")
    page.get_by_role("listbox").get_by_role("option", name=re.compile("^" + re.escape(option) + r"\b")).first.click()


def _round(pages, targets) -> list[float]:
    started = []
    for page, target in zip(pages, targets, strict=True):
        _choose(page, target)
        started.append(time.perf_counter())
    done = [None] * len(pages)
    while any(d is None for d in done):
        for i, page in enumerate(pages):
            if done[i] is None and page.evaluate(IDLE) and f"emulated={targets[i]}" in page.url:
                done[i] = time.perf_counter()
        time.sleep(0.005)
    return [(d - s) * 1000 for d, s in zip(done, started, strict=True)]


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


class ServerTimes:
    """The server's run times file: ``take()`` returns the runs written since the last call (every
    outcome: a run Streamlit stopped to start another one cost server time too)."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = 0

    def take(self) -> list[dict]:
        time.sleep(0.2)  # the last run's line is written when its script ends, just before idle shows
        with open(self.path, encoding="utf-8") as f:
            f.seek(self.offset)
            text = f.read()
            self.offset = f.tell()
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def _count(runs: list[dict]) -> dict:
    counts: dict = {}
    for run in runs:
        counts[run["outcome"]] = counts.get(run["outcome"], 0) + 1
    return counts


def _line(name: str, values: list[float]) -> str:
    return f"{name:<34} p50 {statistics.median(values):7.1f} ms  p95 {_pct(values, 95):7.1f} ms  max {max(values):7.1f} ms  ({len(values)} runs)"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--alone-rounds", type=int, default=20, help="reruns of the one session alone (the baseline)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the server-side p95 ratio is over {GOAL}")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    times_dir = tempfile.TemporaryDirectory(prefix="kcompat-run-times-")
    times_path = Path(times_dir.name) / "runs.jsonl"
    times_path.touch()
    server = ServerTimes(times_path)
    proc, url = start_server(extra_env={"KCOMPAT_RUN_TIMES": str(times_path)})
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
            server.take()  # the first loads
            alone = []
            for r in range(args.alone_rounds):
                alone += _round(pages[:1], [options[0][r % len(options[0])]])
            server_alone_runs = server.take()
            server_alone = [run["ms"] for run in server_alone_runs]
            loaded = []
            for r in range(args.rounds):
                loaded += _round(pages, [o[(r + 1) % len(o)] for o in options])
            server_runs = server.take()
            server_loaded = [run["ms"] for run in server_runs]
            cpu_loaded = [run["cpu_ms"] for run in server_runs]
            for ctx, _, _ in sessions:
                ctx.close()
            browser.close()
    finally:
        stop_server(proc)
        times_dir.cleanup()
    print("browser (change -> page idle: script run + websocket + rendering):")
    print(_line("  one session alone", alone))
    print(_line(f"  {args.sessions} sessions at once", loaded))
    print(f"  ratio p50 {statistics.median(loaded) / statistics.median(alone):.2f}, p95 {_pct(loaded, 95) / _pct(alone, 95):.2f}")
    print("server (script run, first line to last):")
    print(_line("  one session alone", server_alone))
    print(_line(f"  {args.sessions} sessions at once", server_loaded))
    print(_line(f"  {args.sessions} sessions, thread CPU only", cpu_loaded))
    for name, runs in (("alone", server_alone_runs), ("loaded", server_runs)):
        outcomes = _count(runs)
        print(f"  runs {name}: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    ratio = _pct(server_loaded, 95) / _pct(server_alone, 95)
    print(f"  ratio p50 {statistics.median(server_loaded) / statistics.median(server_alone):.2f}, p95 {ratio:.2f} (goal p95 <= {GOAL:g})")
    return 1 if args.check and ratio > GOAL else 0


if __name__ == "__main__":
    raise SystemExit(main())
