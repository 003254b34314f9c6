"""``kcompat data compile`` and ``kcompat --version`` (the bundled releases and the bundle's state)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kcompat import DATA_DIR
from kcompat.core.errors import KcompatError, cut
from kcompat.data.bundle import BUNDLE_NAME


def add_compile_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", metavar="DIR", type=Path, default=DATA_DIR, help=f"data folder to compile (default: {DATA_DIR})")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the bundle is missing or stale")


def run_compile(args: argparse.Namespace) -> int:
    from kcompat.refresh.compile import bundle_text, compile_bundle, write_bundle

    data_dir = Path(args.data)
    try:
        text = bundle_text(compile_bundle(data_dir))
    except KcompatError as exc:
        print(f"kcompat data compile: {cut(exc, 2000)}", file=sys.stderr)
        return 2
    path = data_dir / BUNDLE_NAME
    if args.check:
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != text:
            print(f"{path}: missing or stale; run `kcompat data compile`", file=sys.stderr)
            return 1
        print(f"{path}: up to date")
        return 0
    try:
        write_bundle(data_dir, text)  # the file keeps its mode; a full disk is named (refresh.staging)
    except KcompatError as exc:
        print(f"kcompat data compile: {cut(exc, 2000)}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


def version_text() -> str:
    """``kcompat --version``: the package version, then the bundled releases and the bundle's state."""
    from kcompat import __version__
    from kcompat.data.catalog import DEFAULT_CATALOG

    lines = [f"kcompat {__version__}"]
    try:
        releases = DEFAULT_CATALOG.releases
        lines.append("bundled releases: " + ", ".join(f"{r.release} ({f'v{r.patch}' if r.patch else r.status})" for r in releases))
        bundle = DEFAULT_CATALOG.bundle
        fresh = bundle is not None and bundle.fresh(*bundle.hashes)
        lines.append(f"data: {DEFAULT_CATALOG.data_dir} ({'compiled bundle up to date' if fresh else 'YAML read directly: bundle missing or stale'})")
    except KcompatError as exc:
        lines.append(f"bundled releases: cannot be read ({cut(exc, 300)})")
    return "\n".join(lines) + "\n"
