"""``kcompat versions``: the ``--emulated-version`` and ``--min-compatibility-version`` values a
binary accepts (:func:`kcompat.answers.versions.versions`; the pages' version pickers use the
same ranges)."""

from __future__ import annotations

import argparse
import sys

from kcompat.answers.versions import versions
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats
from kcompat.documents.versions import versions_document


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--binary", required=True)
    parser.add_argument("--format", choices=("table", "json"), default="table")


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    answer = versions(catalog, args.binary)
    if args.format == "json":
        sys.stdout.write(formats.to_json(versions_document(answer.allowed, answer.bundled, answer.warnings)))
        return ExitStatus.OK
    allowed = answer.allowed
    low, high = allowed.emulated_range
    for warning in answer.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"binary {allowed.binary} (release {allowed.release}{'' if answer.bundled else ', no bundled data'})")
    print(f"--emulated-version: {low}..{high} (default {allowed.default_emulated})")
    print(f"--min-compatibility-version flag: {'yes' if allowed.min_compat_flag else 'no (fixed to the default)'}")
    rows = [
        {"emulated": e.emulated, "default min compat": e.default_min_compat, "allowed min compat": ", ".join(e.min_compat)}
        for e in allowed.emulated
    ]
    sys.stdout.write(formats.rows_to_table(rows, ["emulated", "default min compat", "allowed min compat"]))
    return ExitStatus.OK
