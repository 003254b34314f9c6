"""``kcompat matrix``: every gate in every bundled release and what each release changed,
filtered like the Release matrix page filters it.

Prints the document of :mod:`kcompat.documents.matrix` (the Release matrix page shows the same);
the filter is built by :func:`kcompat.answers.matrix.matrix_filter`, as the page builds its own.
"""

from __future__ import annotations

import argparse
import sys

from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=formats.FORMATS,
        default="table",
        help="json: releases, gates (stage/default/locked per release), transitions, removed gates and the filter; "
        "table/csv/markdown: one row per gate, one column per release",
    )
    rows = parser.add_argument_group("rows (every option given must hold; a list holds when one of its values does)")
    rows.add_argument(
        "--changed",
        action="append",
        metavar="RELEASE:KIND",
        help="gates that changed this way in RELEASE, from the previous bundled release; KIND: newAlpha, toBeta, toGA, "
        "deprecated, removed, defaultFlipped, locked (e.g. 1.35:toGA; repeat or comma-separate)",
    )
    rows.add_argument(
        "--stage", action="append", metavar="STAGE", help="gates at this stage (Alpha, Beta, GA, Deprecated) in --in-release"
    )
    rows.add_argument("--in-release", metavar="RELEASE", help="the release --stage looks at (default: the newest bundled one)")
    rows.add_argument("--origin", action="append", metavar="ORIGIN", help="kube or client-go")
    rows.add_argument("--search", metavar="TEXT", help="part of the name, an abbreviation (DRA), a KEP number or description words")
    rows.add_argument("--changed-only", action="store_true", help="gates whose state differs between two of the releases shown")
    columns = parser.add_argument_group("columns (one of these; every bundled release without them)")
    columns.add_argument(
        "--releases", action="append", metavar="R1,R2", help="show only these release columns (e.g. 1.33,1.35)"
    )
    columns.add_argument("--since", metavar="RELEASE", help="show this release and the newer ones (e.g. 1.35)")


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.matrix import (
        bundled_matrix,
        filtered,
        gate_texts,
        matrix_filter,
    )
    from kcompat.answers.queries import gate_lineage
    from kcompat.documents.matrix import matrix_document, render

    full = bundled_matrix(catalog)
    flt = matrix_filter(
        full.releases,
        changed=args.changed,
        stages=args.stage,
        in_release=args.in_release,
        origins=args.origin,
        search=args.search,
        changed_only=args.changed_only,
        columns=args.releases,
        since=args.since,
    )
    answer = filtered(full, gate_lineage(catalog), flt, gate_texts(catalog) if flt.search else None)
    sys.stdout.write(render(matrix_document(*answer), args.format))
    return ExitStatus.OK
