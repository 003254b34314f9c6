"""``kcompat apis``: built-in REST resources a kube-apiserver binary serves at an emulated version.

The document is built by :mod:`kcompat.documents.apis` (its docstring gives the JSON keys).
Exit status OK when the flags are valid, REFUSED when kube-apiserver would refuse to start (the
errors say why: its option checks beside the API ones) or the input is not usable at all,
NOT_READY when it would start but not become ready.
"""

from __future__ import annotations

import argparse
import sys

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import KcompatError, shown
from kcompat.data.catalog import Catalog
from kcompat.documents import formats


def register(parser: argparse.ArgumentParser) -> None:
    options.add(parser, options.BINARY, options.EMULATED, options.RUNTIME_CONFIG, options.FEATURE_GATES.but(more=options.REST_STORAGE_GATES),
                *options.FORWARD_COMPATIBLE, options.MIN_COMPAT, options.FORMAT.but(choices=formats.FORMATS, default="table"), repeat=True)
    parser.add_argument(
        "--against", choices=("release", "native"), default="release",
        help="compare with a real binary of the emulated release (release, the servedByRelease column) or with the "
        "same binary at its own version (native, the servedByBinary column)",
    )
    parser.add_argument(
        "--only-differences", action="store_true",
        help="only the resources whose answer differs from the side --against names (the APIs page's differences)",
    )
    options.add(parser, options.SHOW_DEFAULTS)
    from kcompat.cli.cmdline import (
        add_apiserver_option_arguments,
        add_command_line_argument,
    )

    add_apiserver_option_arguments(parser)
    options.add(parser, options.COMPONENT.but(default=None, default_help=options.PASTED_COMPONENT, more=options.APISERVER_ONLY))
    add_command_line_argument(parser)


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    # imported here: building the parser for another subcommand does not load the engine
    from kcompat.answers.apis import apis_report
    from kcompat.answers.queries import newest_release
    from kcompat.cli.cmdline import exit_status
    from kcompat.core.components import apiserver_only
    from kcompat.documents.apis import (
        api_rows,
        apis_document,
        rejected_apis_document,
        table_columns,
    )
    from kcompat.documents.gates import startup_verdict_line

    against, only = getattr(args, "against", "release"), bool(getattr(args, "only_differences", False))
    binary = args.binary
    default_binary = binary is None
    try:
        apiserver_only(getattr(args, "component", None) or "kube-apiserver", "built-in APIs")
        if default_binary:
            binary = newest_release(catalog)
        report = apis_report(catalog, options.request_from(args).with_(binary=binary), against)
        result, comparison, startup = report.result, report.comparison, report.startup
    except KcompatError as exc:
        if args.format != "json":
            raise
        sys.stdout.write(formats.to_json(rejected_apis_document(binary, str(exc), against, only)))
        return ExitStatus.REFUSED
    document = apis_document(result, comparison, only, startup=startup)
    if args.format == "json":
        sys.stdout.write(formats.to_json(document))
    else:
        if document["valid"] or getattr(args, "show_defaults", False):
            sys.stdout.write(formats.render_rows(args.format, api_rows(result, comparison, only), table_columns(comparison)))
        differing = sum(comparison.differs(e) for e in result.entries)
        which = " (the newest bundled release: --binary picks another)" if default_binary else ""
        refused = result.selection is not None and result.selection.flags_rejected
        answer = (
            f": {len(result.served())} of {len(result.entries)} resources served; "
            f"{differing} differ from {comparison.label}" + (", only those shown" if only else "") + "; "
            f"default lists of {result.default_enablement_release} ({result.default_enablement_source})"
        )
        summary = formats.selection_summary(f"{result.binary}{which}", result.emulated, refused=refused) + ("" if refused else answer)
        if startup.not_ready:
            summary += "; kube-apiserver starts but does not become ready"
        hints = [f"{h['gate']}: {h['text']}" if h["kind"] == "unknown-gate" else h["text"] for h in document["hints"]]
        if document.get("hintsOmitted"):
            hints.append(f"… and {document['hintsOmitted']:,} more")
        formats.report_problems(summary, shown(startup.warnings), shown(startup.errors), sys.stderr, hints, shown(startup.not_ready))
        formats.report_verdict(startup_verdict_line(str(result.binary), str(result.emulated), startup), sys.stderr)  # a good start in words, last
    return exit_status(not startup.errors, bool(startup.not_ready))
