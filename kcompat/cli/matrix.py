"""``kcompat matrix``: every gate in every bundled release and what each release changed,
filtered like the Release matrix page filters it.

Prints the document of :mod:`kcompat.documents.matrix` (the Release matrix page shows the same);
the filter is built by :func:`kcompat.answers.matrix.matrix_filter`, as the page builds its own.
"""

from __future__ import annotations

import argparse
import sys

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats


def register(parser: argparse.ArgumentParser) -> None:
    options.add(parser, options.FORMAT.but(
        choices=formats.FORMATS, default="table",
        more="json: releases, gates (stage/default/locked per release), transitions, removed gates and the filter; "
        "table/csv/markdown: one row per gate, one column per release",
    ))
    rows = parser.add_argument_group("rows (every option given must hold; a list holds when one of its values does)")
    rows.add_argument(
        "--changed",
        action="append",
        metavar="RELEASE:KIND",
        help="gates that changed this way in RELEASE, from the previous bundled release; KIND: newAlpha, new (first listed at Beta, GA or Deprecated), toBeta, toGA, "
        "deprecated, removed, defaultFlipped, locked (e.g. 1.35:toGA; repeat or comma-separate)",
    )
    rows.add_argument(
        "--stage", action="append", metavar="STAGE", help="gates at this stage (Alpha, Beta, GA, Deprecated) in --in-release"
    )
    rows.add_argument("--in-release", metavar="RELEASE", help="the release --stage looks at (default: the newest bundled one)")
    rows.add_argument("--origin", action="append", metavar="ORIGIN", help="kube or client-go")
    options.add(rows, options.SEARCH)
    rows.add_argument("--changed-only", action="store_true", help="gates whose state differs between two of the releases shown")
    rows.add_argument(
        "--removable-in", metavar="RELEASE",
        help="gates release RELEASE can remove: locked to their default since a release its binaries can no longer emulate "
        "a release before (KEP-4330: max(RELEASE-3, 1.31) is the lock's release or later); the rule is printed with the table",
    )
    columns = parser.add_argument_group("columns (one of these; every bundled release without them)")
    columns.add_argument(
        "--releases", action="append", metavar="R1,R2", help="show only these release columns (e.g. 1.33,1.35)"
    )
    columns.add_argument("--since", metavar="RELEASE", help="show this release and the newer ones (e.g. 1.35)")
    parser.add_argument(
        "--patches", metavar="RELEASE",
        help="instead: one release's recorded patch releases side by side (1.35.0 ... 1.35.8), each at the release's own "
        "version, for the gates whose specs differ between two of them, and what each patch changed",
    )


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.matrix import MatrixQuery, matrix_report
    from kcompat.documents.matrix import (
        matrix_document,
        patch_change_lines,
        removable_rule_text,
        render,
    )

    if getattr(args, "patches", None) is not None:
        return _run_patches(args, catalog)
    query = MatrixQuery(
        changed=_given(args.changed),
        stages=_given(args.stage),
        in_release=args.in_release,
        origins=_given(args.origin),
        search=args.search,
        changed_only=args.changed_only,
        columns=_given(args.releases),
        since=args.since,
        removable_in=args.removable_in,
    )
    report = matrix_report(catalog, query)
    document = matrix_document(report.answer, report.lineage, report.provenance, report.patch_changes)
    sys.stdout.write(render(document, args.format))
    if document["removable"] is not None and args.format in ("table", "csv"):  # the rule beside the table, not in it
        removable = document["removable"]
        print(f"# {len(removable['gates'])} gates removable in {removable['release']}", file=sys.stderr)
        print(removable_rule_text(document), file=sys.stderr)
    if args.format != "json":
        for line in patch_change_lines(document):
            print(f"# patch releases: {line}", file=sys.stderr)
    return ExitStatus.OK


_FILTERS = ("changed", "stage", "in_release", "origin", "search", "changed_only", "releases", "since", "removable_in")


def _run_patches(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.patches import patch_matrix
    from kcompat.core.errors import KcompatError
    from kcompat.documents.matrix import (
        patches_document,
        render_patches,
        unrecorded_text,
    )

    given = [f"--{name.replace('_', '-')}" for name in _FILTERS if getattr(args, name, None)]
    if given:
        raise KcompatError(f"--patches shows one release's patches whole: drop {', '.join(given)} (it filters the release matrix)")
    pm = patch_matrix(catalog, args.patches)
    document = patches_document(pm.release, pm.patches, pm.base, pm.matrix, pm.transitions, pm.specs_only)
    sys.stdout.write(render_patches(document, args.format))
    if args.format != "json":
        print(f"# {pm.release}: {len(pm.patches)} recorded patch release(s) ({', '.join(pm.patches)}){unrecorded_text(document)}; "
              f"{len(document['gates'])} gate(s) differ between two of them", file=sys.stderr)
    return ExitStatus.OK


def _given(values: list[str] | None) -> tuple[str, ...] | None:
    """A repeatable option's values (None: not given)."""
    return tuple(values) if values is not None else None
