"""``kcompat changes``: what differs between a binary at an emulated version and another side.

Prints the document of :mod:`kcompat.documents.changes` (the What changes page shows the same).
Exit status OK when both sides accept the input, REFUSED when the input is rejected or a side
refuses the ``--feature-gates`` value (the document still lists the differences, that side at its
defaults).
"""

from __future__ import annotations

import argparse
import sys

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats

#: what --against means (kept here so building the parser imports nothing heavy)
AGAINST_HELP = (
    "the other side: 'native' (the same binary at its own version), 'release' (the real release E: release E's "
    "binary at its own version) or a bundled release VERSION (that release's real binary at its own version; "
    "VERSION@E2 for that binary emulating E2). Default: release. Gates a side does not register show what its code "
    "does: removed after GA locked on = on, removed while off = off, not introduced = off"
)


def register(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Gates whose state differs between 'here' (the binary at --emulated, --min-compat) and 'there' (--against), "
        "with the same --feature-gates applied to both; 'behaviour' says whether the feature really behaves differently."
    )
    options.add(parser, options.BINARY, options.EMULATED, options.MIN_COMPAT.but(more="the 'here' side's; 'there' uses its binary's default"),
                options.FEATURE_GATES.but(more="applied to both sides"))
    parser.add_argument("--against", default="release", metavar="native|release|VERSION[@E]", help=AGAINST_HELP)
    options.add(parser, options.FORMAT.but(choices=formats.FORMATS, default="table"), options.COMPONENT)


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.changes import compare
    from kcompat.documents.changes import changes_document, render, summary

    result = compare(catalog, options.request_from(args), args.against)
    document = changes_document(result)
    sys.stdout.write(render(document, args.format))
    if args.format != "json":
        formats.report_problems(summary(document), formats.listed(document, "warnings"), formats.listed(document, "errors"), sys.stderr)
    return ExitStatus.of(not document["errors"])
