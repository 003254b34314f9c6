"""``kcompat storage``: the storage version of every built-in REST resource at (binary, emulated,
min compatibility). The document is built by :mod:`kcompat.documents.storage` (its docstring
gives the JSON keys). Exit status OK when the versions are valid, REFUSED otherwise.
"""

from __future__ import annotations

import argparse
import sys

from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import KcompatError
from kcompat.data.catalog import Catalog
from kcompat.documents import formats


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--binary", required=True, help="kube-apiserver binary version, e.g. 1.36")
    parser.add_argument("--emulated", "--emulated-version", help="--emulated-version value (default: the binary's own release)")
    parser.add_argument("--min-compat", "--min-compatibility-version", help="--min-compatibility-version value (default: derived from the emulated version)")
    parser.add_argument("--format", choices=formats.FORMATS, default="table")


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    # imported here: building the parser for another subcommand does not load the engine
    from kcompat.answers.apis import storage
    from kcompat.documents.storage import (
        TABLE_COLUMNS,
        rejected_storage_document,
        storage_document,
        storage_rows,
    )

    try:
        result = storage(catalog, args.binary, args.emulated, args.min_compat)
    except KcompatError as exc:
        if args.format != "json":
            raise
        sys.stdout.write(formats.to_json(rejected_storage_document(args.binary, str(exc))))
        return ExitStatus.REFUSED
    if args.format == "json":
        sys.stdout.write(formats.to_json(storage_document(result)))
    else:
        sys.stdout.write(formats.render_rows(args.format, storage_rows(result), TABLE_COLUMNS))
        summary = f"binary {result.binary}, emulated {result.emulated}, min compatibility {result.min_compat}: {result.rule}"
        formats.report_problems(summary, result.warnings, result.errors, sys.stderr)
    return ExitStatus.of(result.valid)
