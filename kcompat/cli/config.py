"""``kcompat config``: the flags of a selection for every control-plane component, as a command
line, a kubeadm or kind config, static pod patches or the JSON document
(:func:`kcompat.answers.config.config`, written by :mod:`kcompat.documents.config`). Exit status
OK when the binary accepts the selection, REFUSED with its errors and remedies when not,
NOT_READY (no snippet, the reasons and remedies) when kube-apiserver would start with it but never
become ready: a config that leaves the control plane unready is not handed out."""

from __future__ import annotations

import argparse
import sys

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog
from kcompat.documents import formats

#: The --format choices: documents.config.SNIPPETS + json (here: building the parser loads no YAML).
FORMATS = ("cmdline", "kubeadm", "kind", "static-pod", "json")


def register(parser: argparse.ArgumentParser) -> None:
    options.add(parser, options.BINARY.but(required=True), options.EMULATED, options.MIN_COMPAT, options.FEATURE_GATES, options.RUNTIME_CONFIG,
                *options.FORWARD_COMPATIBLE, options.FORMAT.but(choices=FORMATS, default="cmdline"))
    from kcompat.cli.cmdline import (
        add_apiserver_option_arguments,
        add_command_line_argument,
    )
    options.add(parser, options.COMPONENT.but(default=None, default_help=options.EVERY_COMPONENT, more="only this component's flags"))

    add_apiserver_option_arguments(parser)
    add_command_line_argument(parser)


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.config import config
    from kcompat.cli.cmdline import exit_status
    from kcompat.documents.config import config_document

    answer = config(catalog, options.request_from(args), every_component=args.component is None)
    document = config_document(answer)
    status = exit_status(answer.valid, bool(answer.not_ready))
    if args.format == "json":
        sys.stdout.write(formats.to_json(document))
        return status
    from kcompat.core.errors import printable, shown

    if status is not ExitStatus.OK:  # refused, or kube-apiserver would never become ready: no snippet is handed out
        # each is one line: a line break in a value given is shown, not obeyed
        for error in shown(answer.errors):
            print(f"kcompat: error: {printable(error)}", file=sys.stderr)
        for reason in shown(answer.not_ready):
            print(f"kcompat: not ready: {printable(reason)} (no config is written for it)", file=sys.stderr)
        for hint in shown(h.line for h in answer.hints):
            print(f"hint: {printable(hint)}", file=sys.stderr)
        return status
    snippet = document["snippets"][args.format]  # type: ignore[literal-required]  # one of SNIPPETS: --format's choices
    if isinstance(snippet, dict):
        snippet = "".join(f"--- # {name}\n{text}" for name, text in snippet.items())
    sys.stdout.write(snippet)
    for warning in shown(answer.warnings):
        print(f"warning: {printable(warning)}", file=sys.stderr)
    return ExitStatus.OK
