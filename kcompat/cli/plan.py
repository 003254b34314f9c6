"""``kcompat plan``: the stepwise upgrade with emulation (:func:`kcompat.answers.plan.plan_report`,
what the Upgrade plan page asks), as Markdown or JSON (:mod:`kcompat.documents.plan`), with
kube-apiserver's start-up at each step with the flags kept through the upgrade: exit status
REFUSED when a step would refuse them, NOT_READY when one would not become ready, else OK."""

from __future__ import annotations

import argparse
import sys

from kcompat.answers.plan import PlanQuery, plan_report
from kcompat.cli import options
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
    options.add(parser, options.FEATURE_GATES.but(more=options.KEPT_THROUGH_UPGRADE), options.RUNTIME_CONFIG.but(more=options.KEPT_THROUGH_UPGRADE),
                options.FORMAT.but(choices=("markdown", "json"), default="markdown"), repeat=True)
    from kcompat.cli.cmdline import add_apiserver_option_arguments

    add_apiserver_option_arguments(parser)


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    report = plan_report(catalog, PlanQuery(args.start, args.target, args.allow_multi_minor), options.request_from(args))
    plan, startups = report.plan, report.startups
    sys.stdout.write(formats.to_json(plan_document(plan, startups)) if args.format == "json" else plan_markdown(plan, startups=startups))
    verdicts = {s.verdict for s in startups}
    return ExitStatus.REFUSED if "refuses" in verdicts else ExitStatus.NOT_READY if "not-ready" in verdicts else ExitStatus.OK
