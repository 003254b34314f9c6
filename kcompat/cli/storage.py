"""``kcompat storage``: the storage version of every built-in REST resource at (binary, emulated,
min compatibility). The document is built by :mod:`kcompat.documents.storage` (its docstring
gives the JSON keys). Exit status OK when the versions are valid, REFUSED otherwise.
"""

from __future__ import annotations

import argparse
import sys

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import KcompatError
from kcompat.data.catalog import Catalog
from kcompat.documents import formats


def register(parser: argparse.ArgumentParser) -> None:
    options.add(parser, options.BINARY.but(required=True), options.EMULATED, options.MIN_COMPAT, options.FORMAT.but(choices=formats.FORMATS, default="table"),
                options.COMPONENT.but(more=options.APISERVER_ONLY))


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    # imported here: building the parser for another subcommand does not load the engine
    from kcompat.answers.apis import storage
    from kcompat.core.components import apiserver_only
    from kcompat.documents.storage import (
        TABLE_COLUMNS,
        rejected_storage_document,
        storage_document,
        storage_rows,
    )

    try:
        apiserver_only(getattr(args, "component", None) or "kube-apiserver", "storage versions")
        result = storage(catalog, args.binary, args.emulated, args.min_compat)
    except KcompatError as exc:
        if args.format != "json":
            raise
        sys.stdout.write(formats.to_json(rejected_storage_document(args.binary, str(exc))))
        return ExitStatus.REFUSED
    if args.format == "json":
        sys.stdout.write(formats.to_json(storage_document(result)))
    else:
        if not result.versions_refused:  # no table of versions the binary would not run at
            sys.stdout.write(formats.render_rows(args.format, storage_rows(result), TABLE_COLUMNS))
        summary = formats.selection_summary(result.binary, result.emulated, result.min_compat, result.versions_refused)
        summary += " (refused: no storage table)" if result.versions_refused else f": {result.rule}"
        formats.report_problems(summary, result.warnings, result.errors, sys.stderr)
    return ExitStatus.of(result.valid)
