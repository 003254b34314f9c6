"""``kcompat plan``: the stepwise upgrade with emulation (:func:`kcompat.answers.plan.plan_for`,
what the Upgrade plan page asks), as Markdown or JSON (:mod:`kcompat.documents.plan`)."""

from __future__ import annotations

import argparse
import sys

from kcompat.answers.plan import plan_for
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats
from kcompat.documents.plan import plan_document, plan_markdown


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="start", required=True, metavar="B[@E]", help="current binary, optionally @ its emulated version, e.g. 1.33@1.32")
    parser.add_argument("--to", dest="target", required=True, metavar="B", help="target binary release, e.g. 1.36")
    parser.add_argument(
        "--allow-multi-minor",
        action="store_true",
        help="let a binary step skip minor releases (outside the Version Skew Policy: such steps are marked unsupported)",
    )
    parser.add_argument("--format", choices=("markdown", "json"), default="markdown")


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    plan = plan_for(catalog, args.start, args.target, args.allow_multi_minor)
    sys.stdout.write(formats.to_json(plan_document(plan)) if args.format == "json" else plan_markdown(plan))
    return ExitStatus.OK
