"""``kcompat timeline``: every gate of a binary's manifest and its stages across releases, the rows
of the Timeline page (:func:`kcompat.answers.timeline.timeline`, written by
:mod:`kcompat.documents.timeline`). A selection kube-apiserver would refuse to start with is
refused with its errors, as ``kcompat gates`` refuses it (exit status 2)."""

from __future__ import annotations

import argparse
import sys

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats

#: The row orders and stages (kcompat.answers.timeline.SORTS, STAGE_NAMES: here so the parser loads nothing).
SORTS = ("introduced", "name", "stage at emulated")
STAGES = ("PreAlpha", "Alpha", "Beta", "GA", "Deprecated")


def register(parser: argparse.ArgumentParser) -> None:
    options.add(parser, options.BINARY, options.EMULATED, options.MIN_COMPAT, repeat=True)
    parser.add_argument("--stage", action="append", choices=STAGES, help="only gates at this stage at the emulated version (repeatable)")
    options.add(parser, options.SEARCH)
    parser.add_argument("--sort", choices=SORTS, default=SORTS[0], help="row order (default: by first version)")
    options.add(parser, options.FORMAT.but(choices=formats.FORMATS, default="table"))


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.startup import SelectionRefused
    from kcompat.answers.timeline import TimelineQuery, timeline
    from kcompat.documents.timeline import match_counts, timeline_text

    try:
        query = TimelineQuery(tuple(args.stage or ()), args.search, args.sort, refuse=True)
        answer = timeline(catalog, options.request_from(args), query)
    except SelectionRefused as refusal:
        from kcompat.cli.cmdline import report_refused

        return report_refused(refusal, args.format)
    sys.stdout.write(timeline_text(answer, args.format))
    if args.format != "json":
        found = f" ({match_counts(answer)})" if answer.search else ""
        print(f"# binary {answer.binary}, emulated {answer.emulated}: {len(answer.rows)} of {answer.total} gates{found}", file=sys.stderr)
    return ExitStatus.OK
