"""``kcompat gates``: the effective feature gates of a binary at an emulated version.

Asks :func:`kcompat.answers.gates.gates` (what the Gates page asks with the same selection) and
prints :mod:`kcompat.documents.gates`' texts. Exit status 0 when the binary accepts the input,
2 when it would refuse it (the errors say why) or the input is not usable at all.
"""

from __future__ import annotations

import argparse
import sys

from kcompat.answers.gates import compare_components, gates, search
from kcompat.answers.queries import newest_release
from kcompat.core.compat import parse_binary_version
from kcompat.core.components import KUBE_APISERVER
from kcompat.core.errors import MESSAGE_LIMIT, KcompatError, cut, shown
from kcompat.core.manifest import registration_for
from kcompat.data.files import load_manifest_files
from kcompat.core.versions import mm
from kcompat.data.catalog import Catalog
from kcompat.documents import formats
from kcompat.documents.gates import gates_document, gates_text, rejected_document


def run_gates(args: argparse.Namespace, catalog: Catalog) -> int:
    component = getattr(args, "component", None) or KUBE_APISERVER
    manifest = None
    binary = args.binary
    if args.manifest is not None:
        # the binary's own registration rules, the newest ones for a component without a binary
        release = mm(parse_binary_version(binary)) if binary else None
        manifest = load_manifest_files([args.manifest], registration=registration_for(release))
    if binary is None and manifest is None:
        binary = newest_release(catalog)
    try:
        answer = gates(catalog, binary, args.emulated, args.min_compat, args.feature_gates, manifest, component)
    except KcompatError as exc:
        if args.format != "json":
            raise
        sys.stdout.write(formats.to_json(rejected_document(cut(binary) if binary else binary, [cut(str(exc), MESSAGE_LIMIT)], component)))
        return 2
    if manifest is None:
        answer = compare_components(catalog, answer, args.emulated, args.min_compat, args.feature_gates)
    every = len(answer.rows)
    if args.search is not None:
        answer = search(catalog, answer, args.search)
    if args.format == "json":  # every error and warning, each cut (text output shows the first 20)
        sys.stdout.write(formats.to_json(gates_document(answer)))
        return 0 if answer.valid else 2
    if answer.valid or args.show_defaults:
        sys.stdout.write(gates_text(answer, args.format))
    named = "" if answer.component == KUBE_APISERVER else f" ({answer.component})"
    summary = formats.selection_summary(f"{answer.binary or '-'}{named}", answer.emulated, answer.min_compat, answer.versions_refused)
    if not answer.valid and not args.show_defaults:
        summary += f" (refused: no gate table; --show-defaults prints the {every} gates it keeps)"
    hints = [h.line for h in answer.hints]
    formats.report_problems(summary, shown(answer.warnings), shown(answer.errors), sys.stderr, hints)
    for comparison in answer.components if answer.valid else ():
        if comparison.differs:
            print(f"note: {comparison.line(answer.component)}", file=sys.stderr)
    return 0 if answer.valid else 2
