"""``kcompat apis``: built-in REST resources a kube-apiserver binary serves at an emulated version.

The document is built by :mod:`kcompat.documents.apis` (its docstring gives the JSON keys).
Exit status 0 when the flags are valid, 2 when kube-apiserver would refuse to start (the
errors say why) or the input is not usable at all.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kcompat.documents import formats
from kcompat.core.errors import KcompatError


def add_apis_arguments(parser: argparse.ArgumentParser) -> None:
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
    from kcompat.cli.components import add_component_argument

    add_component_argument(parser, apiserver_only=True, pasted=True)
    add_command_line_argument(parser)


def run_apis(args: argparse.Namespace, *, data_dir: Path | str | None = None) -> int:
    # imported here: building the parser for another subcommand does not load the engine
    from kcompat.answers.apis import apis
    from kcompat.data.catalog import catalog_for
    from kcompat.documents.apis import TABLE_COLUMNS, api_rows, apis_document, rejected_apis_document

    from kcompat.core.components import apiserver_only

    try:
        apiserver_only(getattr(args, "component", None) or "kube-apiserver", "built-in APIs")
        result = apis(
            catalog_for(data_dir),
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
            print(f"kcompat: error: {exc}", file=sys.stderr)
            return 2
        sys.stdout.write(formats.to_json(rejected_apis_document(args.binary, str(exc))))
        return 2
    if args.format == "json":
        sys.stdout.write(formats.to_json(apis_document(result)))
    else:
        if result.valid or getattr(args, "show_defaults", False):
            sys.stdout.write(formats.render_rows(args.format, api_rows(result), TABLE_COLUMNS))
        differing = len(result.differences_from_release())
        refused = result.selection is not None and result.selection.flags_rejected
        summary = formats.selection_summary(result.binary, result.emulated, refused=refused) + (
            "" if refused else
            f": {len(result.served())} of {len(result.entries)} resources served; {differing} differ from a real {result.emulated} binary; "
            f"default lists of {result.default_enablement_release} ({result.default_enablement_source})"
        )
        from kcompat.core.hints import api_hints

        hints = [h.line for h in api_hints(result)]
        formats.report_problems(summary, result.warnings, result.errors, sys.stderr, hints)
    return 0 if result.valid else 2
