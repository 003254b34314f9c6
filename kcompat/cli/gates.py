"""``kcompat gates``: the effective feature gates of a binary at an emulated version.

Asks :func:`kcompat.answers.gates.gates` (what the Gates page asks with the same selection) and
prints :mod:`kcompat.documents.gates`' texts. Exit status OK when the binary accepts the input,
REFUSED when it would refuse it (the errors say why) or the input is not usable at all, NOT_READY
when kube-apiserver would start but not become ready (the reasons say why). Unless a pasted
command line names another component, the answer is kube-apiserver's whole start-up
(:func:`kcompat.answers.startup.apiserver_startup`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kcompat.answers.gates import GatesQuery, gates_report
from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.core.components import KUBE_APISERVER
from kcompat.core.errors import MESSAGE_LIMIT, KcompatError, cut, shown
from kcompat.data.catalog import Catalog
from kcompat.documents import formats
from kcompat.documents.gates import (
    gates_document,
    gates_text,
    rejected_document,
    verdict_line,
)


def register(parser: argparse.ArgumentParser) -> None:
    options.add(parser, options.BINARY, options.EMULATED, options.MIN_COMPAT, options.FEATURE_GATES,
                options.RUNTIME_CONFIG.but(more="its start-up checks"), *options.FORWARD_COMPATIBLE, repeat=True)
    parser.add_argument("--manifest", type=Path, help="a versioned_feature_list.yaml replacing the bundled data")
    options.add(parser, options.FORMAT.but(choices=formats.FORMATS, default="table"), options.SEARCH, options.SHOW_DEFAULTS)
    parser.add_argument("--columns", metavar="COLUMNS", type=_columns,
                        help="add columns, comma-separated: description, since, until (the stage at the emulated version "
                        "holds since / until which version of the binary's specs); JSON: description, stageSince, stageUntil, nextStage")
    from kcompat.cli.cmdline import (
        add_apiserver_option_arguments,
        add_command_line_argument,
    )
    options.add(parser, options.COMPONENT.but(default=None, default_help=options.PASTED_COMPONENT))

    add_apiserver_option_arguments(parser)
    add_command_line_argument(parser)


#: what --columns may name (kcompat.documents.gates.DESCRIBE_COLUMNS, kept here so that the parser
#: does not import the documents)
COLUMNS = ("description", "since", "until")


def _columns(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    bad = [n for n in names if n not in COLUMNS]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"{cut(', '.join(bad) or text)!r}: expected some of {', '.join(COLUMNS)}")
    return names


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    component = getattr(args, "component", None) or KUBE_APISERVER
    binary = args.binary
    from kcompat.cli.cmdline import exit_status

    extra = getattr(args, "columns", None) or ()
    try:
        request = options.request_from(args).with_(component=component)
        answer = gates_report(catalog, request, GatesQuery(manifest_file=args.manifest, search=args.search, describe=bool(extra)))
    except KcompatError as exc:
        if args.format != "json":
            raise
        if binary is None and args.manifest is None:  # (the answer's default: the newest bundled release)
            from kcompat.answers.queries import newest_release

            binary = newest_release(catalog)
        sys.stdout.write(formats.to_json(rejected_document(cut(binary) if binary else binary, [cut(str(exc), MESSAGE_LIMIT)], component)))
        return ExitStatus.REFUSED
    every = answer.gate_count
    status = exit_status(answer.valid, bool(answer.not_ready))
    if args.format == "json":  # the first 20 errors, warnings and hints, each cut, and how many more
        sys.stdout.write(formats.to_json(gates_document(answer)))
        return status
    if answer.valid or args.show_defaults:
        sys.stdout.write(gates_text(answer, args.format, extra))
    named = "" if answer.component == KUBE_APISERVER else f" ({answer.component})"
    summary = formats.selection_summary(f"{answer.binary or '-'}{named}", answer.emulated, answer.min_compat, answer.versions_refused)
    if not answer.valid and not args.show_defaults:
        summary += f" (refused: no gate table; --show-defaults prints the {every} gates it keeps)"
    elif answer.not_ready:
        summary += f" ({answer.component} starts but does not become ready)"
    elif answer.startup_checked and answer.readiness_recorded is None:
        summary += f" ({answer.component}: no start of this release is recorded, its readiness is not checked)"
    hints = shown(h.line for h in answer.hints)
    formats.report_problems(summary, shown(answer.warnings), shown(answer.errors), sys.stderr, hints, shown(answer.not_ready))
    for comparison in answer.components if answer.valid else ():
        if comparison.differs:
            print(f"note: {comparison.line(answer.component)}", file=sys.stderr)
    formats.report_verdict(verdict_line(answer), sys.stderr)  # a good start in words, last
    return status
