"""``kcompat storage``: the storage version of every built-in REST resource at (binary, emulated,
min compatibility). The document is built by :mod:`kcompat.documents.storage` (its docstring
gives the JSON keys). Exit status 0 when the versions are valid, 2 otherwise.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kcompat.documents import formats
from kcompat.core.errors import KcompatError


def add_storage_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--binary", required=True, help="kube-apiserver binary version, e.g. 1.36")
    parser.add_argument("--emulated", "--emulated-version", help="--emulated-version value (default: the binary's own release)")
    parser.add_argument("--min-compat", "--min-compatibility-version", help="--min-compatibility-version value (default: derived from the emulated version)")
    parser.add_argument("--format", choices=formats.FORMATS, default="table")
    from kcompat.cli.components import add_component_argument

    add_component_argument(parser, apiserver_only=True)


def run_storage(args: argparse.Namespace, *, data_dir: Path | str | None = None) -> int:
    # imported here: building the parser for another subcommand does not load the engine
    from kcompat.answers.apis import storage
    from kcompat.data.catalog import catalog_for
    from kcompat.documents.storage import TABLE_COLUMNS, rejected_storage_document, storage_document, storage_rows

    from kcompat.core.components import apiserver_only

    try:
        apiserver_only(getattr(args, "component", None) or "kube-apiserver", "storage versions")
        result = storage(catalog_for(data_dir), args.binary, args.emulated, args.min_compat)
    except KcompatError as exc:
        if args.format != "json":
            print(f"kcompat: error: {exc}", file=sys.stderr)
            return 2
        sys.stdout.write(formats.to_json(rejected_storage_document(args.binary, str(exc))))
        return 2
    if args.format == "json":
        sys.stdout.write(formats.to_json(storage_document(result)))
    else:
        if not result.versions_refused:  # no table of versions the binary would not run at
            sys.stdout.write(formats.render_rows(args.format, storage_rows(result), TABLE_COLUMNS))
        summary = formats.selection_summary(result.binary, result.emulated, result.min_compat, result.versions_refused)
        summary += " (refused: no storage table)" if result.versions_refused else f": {result.rule}"
        formats.report_problems(summary, result.warnings, result.errors, sys.stderr)
    return 0 if result.valid else 2
