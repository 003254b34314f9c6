"""``kcompat gate NAME``: one feature gate for a selection, as the Gate detail page shows it: its
state, its specs in the binary's manifest, its state in every bundled release and what each
release changed (:func:`kcompat.answers.gate.gate_detail`, written by
:mod:`kcompat.documents.gate`). A name no bundled release lists is refused with the closest names;
a selection kube-apiserver would refuse to start with is refused with its errors, as ``kcompat
gates`` refuses it (exit status 2)."""

from __future__ import annotations

import argparse
import sys

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats

#: The tables of the text formats (kcompat.documents.gate.TABLES; here so the parser loads nothing).
TABLES = ("specs", "releases", "changes")


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the feature gate, e.g. JobManagedBy (case-sensitive; a removed gate too)")
    options.add(parser, options.BINARY, options.EMULATED, options.MIN_COMPAT, options.FEATURE_GATES,
                options.FORMAT.but(choices=formats.FORMATS, default="table"), repeat=True)
    parser.add_argument(
        "--table", choices=TABLES,
        help="print this table alone (table, markdown); CSV holds one table: this one, the releases when none is named",
    )


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.gate import gate_detail
    from kcompat.answers.startup import SelectionRefused
    from kcompat.documents.gate import gate_document, gate_text

    try:
        detail = gate_detail(catalog, args.name, options.request_from(args), refuse=True)
    except SelectionRefused as refusal:
        from kcompat.cli.cmdline import report_refused

        return report_refused(refusal, args.format)
    sys.stdout.write(gate_text(gate_document(detail), args.format, args.table))
    return ExitStatus.OK
