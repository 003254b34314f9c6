"""``kcompat apis``: built-in REST resources a kube-apiserver binary serves at an emulated version.

The document is built by :mod:`kcompat.documents.apis` (its docstring gives the JSON keys).
Exit status OK when the flags are valid, REFUSED when kube-apiserver would refuse to start (the
errors say why) or the input is not usable at all.
"""

from __future__ import annotations

import argparse
import sys

from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import KcompatError
from kcompat.data.catalog import Catalog
from kcompat.documents import formats


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--binary", required=True, help="kube-apiserver binary version, e.g. 1.33 or v1.33.2")
    parser.add_argument("--emulated", "--emulated-version", action="append", help="--emulated-version value (default: the binary's own release)")
    parser.add_argument("--runtime-config", action="append", help="--runtime-config value, e.g. 'networking.k8s.io/v1beta1=true' (repeatable)")
    parser.add_argument(
        "--feature-gates", action="append",
        help="--feature-gates value: decides the REST storage kube-apiserver installs only while a gate is on (repeatable)",
    )
    parser.add_argument("--emulation-forward-compatible", action="store_true", help="set --emulation-forward-compatible=true (1.33+)")
    parser.add_argument(
        "--runtime-config-emulation-forward-compatible",
        action="store_true",
        help="set --runtime-config-emulation-forward-compatible=true (1.33+)",
    )
    parser.add_argument("--min-compat", "--min-compatibility-version", action="append", help="--min-compatibility-version value (binaries 1.35+)")
    parser.add_argument("--format", choices=formats.FORMATS, default="table")
    parser.add_argument("--show-defaults", action="store_true",
                        help="print the API table even when kube-apiserver would refuse the flags (JSON always has it)")
    from kcompat.cli.cmdline import add_command_line_argument

    add_command_line_argument(parser)


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    # imported here: building the parser for another subcommand does not load the engine
    from kcompat.answers.apis import apis
    from kcompat.documents.apis import (
        TABLE_COLUMNS,
        api_rows,
        apis_document,
        rejected_apis_document,
    )

    try:
        result = apis(
            catalog,
            args.binary,
            args.emulated,
            args.min_compat,
            args.feature_gates,
            args.runtime_config,
            emulation_forward_compatible=bool(args.emulation_forward_compatible),
            runtime_config_emulation_forward_compatible=bool(args.runtime_config_emulation_forward_compatible),
        )
    except KcompatError as exc:
        if args.format != "json":
            raise
        sys.stdout.write(formats.to_json(rejected_apis_document(args.binary, str(exc))))
        return ExitStatus.REFUSED
    if args.format == "json":
        sys.stdout.write(formats.to_json(apis_document(result)))
    else:
        if result.valid or getattr(args, "show_defaults", False):
            sys.stdout.write(formats.render_rows(args.format, api_rows(result), TABLE_COLUMNS))
        differing = len(result.differences_from_release())
        summary = (
            f"binary {result.binary}, emulated {result.emulated}: {len(result.served())} of {len(result.entries)} resources served; "
            f"{differing} differ from a real {result.emulated} binary; "
            f"default lists of {result.default_enablement_release} ({result.default_enablement_source})"
        )
        from kcompat.core.remedies import api_remedies

        hints = [h.line for h in api_remedies(result)]
        formats.report_problems(summary, result.warnings, result.errors, sys.stderr, hints)
    return ExitStatus.of(result.valid)
