"""``kcompat matrix``: every gate in every bundled release and what each release changed.

Prints the document of :mod:`kcompat.documents.matrix` (the Release matrix page shows the same).
"""

from __future__ import annotations

import argparse
import sys

from kcompat.documents import formats


def add_matrix_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=formats.FORMATS,
        default="table",
        help="json: releases, gates (stage/default/locked per release), transitions and removed gates; "
        "table/csv/markdown: one row per gate, one column per release",
    )


def run_matrix(args: argparse.Namespace, catalog) -> int:
    from kcompat.answers.matrix import matrix
    from kcompat.documents.matrix import matrix_document, render

    sys.stdout.write(render(matrix_document(*matrix(catalog)), args.format))
    return 0
