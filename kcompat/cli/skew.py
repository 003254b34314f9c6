"""``kcompat skew``: the versions other components may run against a kube-apiserver binary at an
emulated version and min compatibility, by the classic policy and by KEP-4330's rules
(:func:`kcompat.answers.skew.skew`, written by :mod:`kcompat.documents.skew`; the APIs page's
"Version skew" tab). The rules need no data: any binary version is answered. The version flags
are read and checked as the binary reads them (as ``kcompat gates`` does): one it refuses is
refused with its error (exit status 2)."""

from __future__ import annotations

import argparse
import sys

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats


def register(parser: argparse.ArgumentParser) -> None:
    options.add(parser, options.BINARY.but(required=True), options.EMULATED, options.MIN_COMPAT, options.FORMAT.but(choices=formats.FORMATS, default="table"))


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.skew import skew
    from kcompat.answers.startup import SelectionRefused
    from kcompat.documents.skew import skew_text

    try:
        policy = skew(args.binary, args.emulated, args.min_compat, refuse=True)
    except SelectionRefused as refusal:
        from kcompat.cli.cmdline import report_refused

        return report_refused(refusal, args.format)
    sys.stdout.write(skew_text(policy, args.format))
    return ExitStatus.OK
