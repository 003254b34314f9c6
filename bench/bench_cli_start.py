"""Start-up of one CLI call against a bare Python, side by side.

    .venv/bin/python bench/bench_cli_start.py [--runs 21] [--check] [--no-bytecode-cache]

Measures the wall time of whole processes: ``kcompat gates --binary 1.36 --emulated 1.33
--format json`` (the ``kcompat`` script beside this Python) and ``python -c pass`` (this Python,
the same venv, so the same ``site`` start-up). The two alternate, so machine noise hits both
alike; one untimed run of each comes first. Prints the median (and min/max) of each, and the
ratio kcompat/bare; the goal is <= 2. ``--check`` exits 1 when the ratio is over the goal.

Bytecode: an installed package has its ``.pyc`` files (pip compiles them), and a plain Python
writes them on the first run. ``PYTHONDONTWRITEBYTECODE=1`` in the environment would make every
run compile the whole package again, which no installed copy does; so the measured processes get
``PYTHONPYCACHEPREFIX`` set to a temporary folder (nothing is written into the source tree) and
``PYTHONDONTWRITEBYTECODE`` removed (the untimed first run writes the bytecode). ``--no-bytecode-cache``
measures the environment as it is.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = 2.0
ARGS = ["gates", "--binary", "1.36", "--emulated", "1.33", "--format", "json"]


def kcompat_command() -> list[str]:
    script = Path(sys.executable).with_name("kcompat")
    if script.exists():
        return [str(script)]
    found = shutil.which("kcompat")
    return [found] if found else [sys.executable, "-m", "kcompat"]


def run_once(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the ratio is over {GOAL}")
    parser.add_argument("--no-bytecode-cache", action="store_true", help="keep the environment's bytecode settings")
    args = parser.parse_args(argv)

    env = dict(os.environ)
    cache = None
    if not args.no_bytecode_cache:
        cache = tempfile.TemporaryDirectory(prefix="kcompat-pyc-")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache.name
    bare = [sys.executable, "-c", "pass"]
    cli = kcompat_command() + ARGS
    try:
        run_once(bare, env)
        run_once(cli, env)  # warm-up: writes the bytecode, fills the OS file cache
        bare_times, cli_times = [], []
        for _ in range(args.runs):
            bare_times.append(run_once(bare, env))
            cli_times.append(run_once(cli, env))
    finally:
        if cache is not None:
            cache.cleanup()

    def line(name, times):
        return f"{name:<10} median {statistics.median(times) * 1000:7.1f} ms  (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}, {len(times)} runs)"

    ratio = statistics.median(cli_times) / statistics.median(bare_times)
    print(line("bare", bare_times) + "   " + " ".join(bare))
    print(line("kcompat", cli_times) + "   kcompat " + " ".join(ARGS))
    print(f"ratio kcompat/bare: {ratio:.2f} (goal <= {GOAL:g}){'' if args.no_bytecode_cache else '; bytecode cached'}")
    return 1 if args.check and ratio > GOAL else 0


if __name__ == "__main__":
    raise SystemExit(main())
