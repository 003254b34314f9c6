"""``kcompat versions``: the ``--emulated-version`` and ``--min-compatibility-version`` values a
binary accepts (:func:`kcompat.answers.versions.versions`; the pages' version pickers use the
same ranges)."""

from __future__ import annotations

import argparse
import sys

from kcompat.answers.versions import versions
from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats
from kcompat.documents.versions import versions_document


def register(parser: argparse.ArgumentParser) -> None:
    options.add(parser, options.BINARY.but(required=True), options.FORMAT.but(choices=("table", "json"), default="table"), options.COMPONENT)


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    answer = versions(catalog, args.binary, args.component)
    info = versions_document(answer.allowed, answer.bundled, answer.warnings, answer.component)
    if args.format == "json":
        sys.stdout.write(formats.to_json(info))
        return ExitStatus.OK
    allowed = answer.allowed
    low, high = allowed.emulated_range
    for warning in answer.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    named = "" if info["component"] == "kube-apiserver" else f"{info['component']}, "
    print(f"binary {info['binary']} ({named}release {info['release']}{'' if info['bundled'] else ', no bundled data'})")
    print(f"--emulated-version: {low}..{high} (default {info['defaultEmulated']})")
    flag = "yes" if info["minCompatibilityFlag"] else "no (fixed to the default)"
    print(f"--min-compatibility-version flag: {flag}")
    rows = [
        {"emulated": e.emulated, "default min compat": e.default_min_compat, "allowed min compat": ", ".join(e.min_compat)}
        for e in allowed.emulated
    ]
    sys.stdout.write(formats.rows_to_table(rows, ["emulated", "default min compat", "allowed min compat"]))
    return ExitStatus.OK
