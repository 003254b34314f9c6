"""``kcompat data``: ``refresh`` rebuilds data/ from the recordings of the real releases (data/oracle/) (:mod:`kcompat.refresh`)
and ``compile`` rebuilds the compiled bundle; and ``kcompat --version`` (the bundled releases and
the bundle's state)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kcompat import DATA_DIR
from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import KcompatError, cut
from kcompat.data.bundle import BUNDLE_NAME
from kcompat.data.catalog import Catalog


def register(parser: argparse.ArgumentParser) -> None:
    data_sub = parser.add_subparsers(dest="data_command", required=True, parser_class=type(parser))
    from kcompat.refresh import add_refresh_arguments

    add_refresh_arguments(data_sub.add_parser("refresh", help="rebuild data/ from the recordings of the real releases (data/oracle/)"))
    compile_parser = data_sub.add_parser("compile", help="rebuild data/bundle.json, the precomputed form of the YAML data")
    compile_parser.add_argument("--data", metavar="DIR", type=Path, default=DATA_DIR, help=f"data folder to compile (default: {DATA_DIR})")
    compile_parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the bundle is missing or stale")


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    """The data commands write data/ (or ``--out``, ``--data``): the catalog of the answers is not theirs."""
    if args.data_command == "compile":
        return _compile(args)
    from kcompat.cli.signals import SIGINT, signals_as_interrupts
    from kcompat.refresh import run_refresh

    # Ctrl-C (or ``kill -INT``) stops a refresh even when its shell started it with SIGINT ignored
    # (a background job): nothing is written before the commit, so stopping is always safe
    with signals_as_interrupts((SIGINT,)):
        return ExitStatus(run_refresh(args))


def _compile(args: argparse.Namespace) -> ExitStatus:
    from kcompat.refresh.compile import bundle_text, compile_bundle, write_bundle

    data_dir = Path(args.data)
    try:
        text = bundle_text(compile_bundle(data_dir))
    except KcompatError as exc:
        print(f"kcompat data compile: {cut(exc, 2000)}", file=sys.stderr)
        return ExitStatus.REFUSED
    path = data_dir / BUNDLE_NAME
    if args.check:
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != text:
            print(f"{path}: missing or stale; run `kcompat data compile`", file=sys.stderr)
            return ExitStatus.DIFFERS
        print(f"{path}: up to date")
        return ExitStatus.OK
    try:
        write_bundle(data_dir, text)  # the file keeps its mode; a full disk is named (refresh.staging)
    except KcompatError as exc:
        print(f"kcompat data compile: {cut(exc, 2000)}", file=sys.stderr)
        return ExitStatus.REFUSED
    print(f"wrote {path}")
    return ExitStatus.OK


def version_text(catalog: Catalog) -> str:
    """``kcompat --version``: the package version, then the catalog's releases and the bundle's state."""
    from kcompat import __version__

    lines = [f"kcompat {__version__}"]
    try:
        releases = catalog.releases
        lines.append("bundled releases: " + ", ".join(f"{r.release} ({f'v{r.patch}' if r.patch else r.status})" for r in releases))
        bundle = catalog.bundle
        fresh = bundle is not None and bundle.fresh(*bundle.hashes)
        lines.append(f"data: {catalog.data_dir} ({'compiled bundle up to date' if fresh else 'YAML read directly: bundle missing or stale'})")
    except KcompatError as exc:
        lines.append(f"bundled releases: cannot be read ({cut(exc, 300)})")
    return "\n".join(lines) + "\n"
