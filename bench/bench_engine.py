"""Benchmark: the effective gate table for every valid (binary, emulated) pair of every bundled
release, against a floor measured in the same run.

Floor: a bare loop that only picks each gate's last spec <= emulated from pre-parsed lists of
(major, minor) tuples. Engine: version selection + spec in effect + gate states, exactly what
``kcompat gates`` computes (no caching between calls). The two alternate, one run of each per
round, so a busy machine slows both alike. Prints the median of each and their ratio; the goal is
<= 1.5, and ``--check`` exits 1 above it.

    python bench/bench_engine.py [--repeat N] [--check]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kcompat.core.compat import allowed_versions, select_versions
from kcompat.core.gates import evaluate_gates
from kcompat.core.versions import parse_version
from kcompat.data.catalog import Catalog


def pairs(catalog: Catalog):
    out = []
    for release in catalog.usable_releases():
        binary = parse_version(release)
        for item in allowed_versions(binary).emulated:
            out.append((release, binary, item.emulated))
    return out


def engine_run(catalog, work):
    for release, binary, emulated in work:
        evaluate_gates(catalog.manifest(release), select_versions(binary, emulated))


def floor_run(parsed, work):
    for release, _, emulated in work:
        emu = tuple(int(x) for x in emulated.split("."))
        for specs in parsed[release]:
            _chosen = None
            for version, spec in reversed(specs):
                if version <= emu:
                    _chosen = spec
                    break


GOAL = 1.5


def timed(fns, repeat):
    """The median time of each function, run in turn ``repeat`` times."""
    samples = [[] for _ in fns]
    for _ in range(repeat):
        for fn, times in zip(fns, samples, strict=True):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return [statistics.median(times) for times in samples]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the ratio is over {GOAL}")
    args = parser.parse_args()
    catalog = Catalog()
    work = pairs(catalog)
    parsed = {
        r: [[((s.version.major, s.version.minor), s) for s in f.specs] for f in catalog.manifest(r).features]
        for r in catalog.usable_releases()
    }
    gates = sum(len(catalog.manifest(r)) for r, _, _ in work)
    engine_run(catalog, work), floor_run(parsed, work)  # warm-up
    floor, engine = timed([lambda: floor_run(parsed, work), lambda: engine_run(catalog, work)], args.repeat)
    print(f"pairs: {len(work)}, gate rows per run: {gates}")
    print(f"floor  (pick last spec <= emulated): {floor * 1e3:8.3f} ms")
    print(f"engine (full effective table):       {engine * 1e3:8.3f} ms")
    print(f"ratio engine/floor: {engine / floor:.2f}  (goal <= {GOAL:g})")
    return 1 if args.check and engine / floor > GOAL else 0


if __name__ == "__main__":
    raise SystemExit(main())
