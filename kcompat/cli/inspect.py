"""``kcompat inspect``: what a cluster says, the prediction, the disagreements.

Exit status OK when everything agrees, DIFFERS when the cluster disagrees with the prediction, NOT_READY when kube-apiserver would
start but not become ready,
REFUSED when the binary would refuse the input or the input is unusable. ``--live`` reads ``/version`` and ``/metrics`` from the API server
of a kubeconfig context (:mod:`kcompat.data.live`: bounded in size and time).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import MAX_SHOWN, echo, printable, shown
from kcompat.data.catalog import Catalog
from kcompat.documents import formats

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:

    from kcompat.core.inspect import GivenBinary
    from kcompat.documents.gates import HintDict
    from kcompat.documents.inspect import InspectDocument


# The documents (and YAML, the API data) are imported when a command runs, not when the parser
# is built: ``kcompat gates`` does not pay for them.
MAX_FILE_BYTES = 32 * 1024 * 1024  # kcompat.core.inspect.model.MAX_INPUT_BYTES


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE",
                        help="ps line / command line, static pod manifest, kubeadm or kind config, /version JSON, /metrics text")
    options.add(parser, options.BINARY.but(default_help="", more="for inputs that name none (a command line alone); a version the inputs name "
                                           "(/version, an image tag) is used over it, with a warning when they differ"))
    parser.add_argument("--live", action="store_true", help="also read /version and /metrics from the API server of a kubeconfig context")
    options.add(parser, options.CONTEXT, options.KUBECONFIG)
    parser.add_argument("--request-timeout", type=_seconds, default=60.0, metavar="SECONDS",
                        help="--live: seconds each answer may take in all (default 60; 20 s at most without data, 10 s to connect)")
    options.add(parser, options.FORMAT.but(choices=("json", "table", "markdown"), default="table"), options.SHOW_DEFAULTS)
    options.add(parser, options.COMPONENT.but(default=None, default_help="the one the inputs name, else kube-apiserver", more=(
        "the component inspected, its flags picked out of inputs that list several; its own gate set predicts /metrics")))


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"expected seconds between 0 and 3600, got {echo(text)}")
    return value


class _Unusable(Exception):
    pass


def _inputs(args: argparse.Namespace) -> list[tuple[str, bytes] | tuple[str, bytes, str]]:
    from kcompat.core.errors import KcompatError
    from kcompat.data.files import read_regular_file

    inputs: list[tuple[str, bytes] | tuple[str, bytes, str]] = []
    for path in args.files:
        source = echo(path, 200)
        try:
            # a FIFO, device or directory is refused without being opened for reading (it could
            # block or never end); a regular file is read up to the limit + 1 byte, never whole
            data = read_regular_file(path, MAX_FILE_BYTES, source)
        except KcompatError as exc:
            raise _Unusable(str(exc)) from None
        if len(data) > MAX_FILE_BYTES:
            raise _Unusable(f"{source}: larger than the limit of {MAX_FILE_BYTES:,} bytes")
        inputs.append((source, data))
    if args.live:
        inputs += _live_inputs(args)
    if not inputs:
        raise _Unusable("give at least one FILE, or --live")
    return inputs


def _given_binary(args: argparse.Namespace, catalog: Catalog) -> GivenBinary | None:
    """``--binary``, checked as the other subcommands check theirs: a version (a patch allowed)
    of a bundled release."""
    from kcompat.core.compat import parse_binary_version
    from kcompat.core.errors import KcompatError
    from kcompat.core.inspect import GivenBinary

    binary = getattr(args, "binary", None)
    if binary is None:
        return None
    try:
        catalog.manifest_for(parse_binary_version(binary))
    except KcompatError as exc:
        raise _Unusable(f"--binary: {exc}") from None
    return GivenBinary(binary, f"--binary {echo(binary)}")


def _live_inputs(args: argparse.Namespace) -> list[tuple[str, bytes, str]]:
    """/version and /metrics of the context's API server, each read within the limits of
    :mod:`kcompat.data.live` (kcompat connects itself; kubectl proxy where it must)."""
    from kcompat.core.errors import KcompatError
    from kcompat.data.live import open_cluster, stderr_progress

    try:
        with open_cluster(args.kubeconfig, args.context, timeout=getattr(args, "request_timeout", 60.0)) as cluster:
            stderr_progress(f"reading /version and /metrics of context {echo(cluster.target.context)} {cluster.how}")
            # each answer must be what its endpoint serves (a /metrics answering JSON is named, not read as /version)
            return [(cluster.label(path), cluster.get(path, MAX_FILE_BYTES), path) for path in ("/version", "/metrics")]
    except KcompatError as exc:
        raise _Unusable(str(exc)) from None


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.inspect import InspectQuery, inspect
    from kcompat.documents.inspect import inspect_document

    try:
        given = _given_binary(args, catalog)
        inputs = _inputs(args)
    except _Unusable as exc:
        if args.format == "json":
            sys.stdout.write(formats.to_json({"valid": False, "errors": [str(exc)]}))
        print(f"kcompat: error: {printable(exc)}", file=sys.stderr)
        return ExitStatus.REFUSED
    inspection = inspect(catalog, inputs, InspectQuery(args.component, given))
    document = inspect_document(inspection)
    status = (
        ExitStatus.REFUSED if not inspection.valid
        else ExitStatus.NOT_READY if inspection.not_ready
        else ExitStatus.DIFFERS if inspection.disagrees
        else ExitStatus.OK
    )
    if args.format == "json":  # its lists of problems bounded as every command's: the first 20, then <key>Omitted
        sys.stdout.write(formats.to_json(formats.bound_lists(document, (*formats.PROBLEM_KEYS, "versionDisagreements"))))
    else:
        sys.stdout.write(render_inspect(document, args.format, getattr(args, "show_defaults", False)))
    if args.format != "json" or status is ExitStatus.REFUSED:
        for error in shown(document["errors"]):  # at most 20, then "… and N more" (JSON keeps them all)
            print(f"error: {printable(error)}", file=sys.stderr)
        for hint in document.get("hints", [])[:MAX_SHOWN]:
            print(f"hint: {printable(hint_line(hint))}", file=sys.stderr)
    return status


def hint_line(hint: HintDict) -> str:
    """A hint of a JSON document as one line (an unknown gate's suggestion names the gate)."""
    return f"{hint['gate']}: {hint['text']}" if hint["kind"] == "unknown-gate" else hint["text"]


def render_inspect(document: InspectDocument, fmt: str, show_defaults: bool = False) -> str:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    """The inspect document as text: a refusal with its remedies first (or the verdict of a good
    start: "starts and becomes ready, as recorded starts of v1.36.5 show"), the selection read and
    where from, the disagreements, then every gate (not for a refused input, unless
    ``show_defaults``)."""
    from kcompat.documents.gates import GATE_COLUMNS
    from kcompat.documents.inspect import (
        DISAGREE_HEADERS,
        disagree_rows,
        summary_lines,
        verdict_line,
    )

    markdown = fmt == "markdown"
    heading = "## " if markdown else "# "
    out = []
    if document["errors"]:
        startup = document.get("startup")
        out.append(f"{heading}Refused: {startup}\n" if startup else f"{heading}Cannot use the input\n")
        for error in shown(document["errors"]):
            out.append(f"- error: {formats.md_escape(error)}" if markdown else f"error: {printable(error)}")
        for hint in document.get("hints", [])[:MAX_SHOWN]:
            out.append(f"- fix: {formats.md_escape(hint_line(hint))}" if markdown else f"fix: {printable(hint_line(hint))}")
        out.append("")
    elif document.get("notReady"):
        out.append(f"{heading}Not ready: {document.get('startup')}\n")
        for reason in shown(document["notReady"]):
            out.append(f"- not ready: {formats.md_escape(reason)}" if markdown else f"not ready: {printable(reason)}")
        for hint in document.get("hints", [])[:MAX_SHOWN]:
            out.append(f"- fix: {formats.md_escape(hint_line(hint))}" if markdown else f"fix: {printable(hint_line(hint))}")
        out.append("")
    elif (verdict := verdict_line(document)) is not None:  # a good start in words, first
        out.append(f"{heading}Verdict: {formats.md_escape(verdict) if markdown else printable(verdict)}\n")
    out.append(f"{heading}Selection (what was read, and from where)\n")
    for item in document.get("inputs", []):
        line = f"input {item['file']}: {item['kind'] or 'not read'}"
        out.append(f"- {formats.md_escape(line)}" if markdown else line)
    for line in summary_lines(document):
        out.append(f"- {formats.md_escape(line)}" if markdown else printable(line))
    for warning in shown(document["warnings"]):
        out.append(f"- warning: {formats.md_escape(warning)}" if markdown else f"warning: {printable(warning)}")
    disagreements = document.get("versionDisagreements") or []
    if disagreements:
        out.append(f"\n{heading}Disagreements with /version ({len(disagreements)})\n")
        out.extend(f"- {formats.md_escape(d)}" if markdown else printable(d) for d in shown(disagreements))
    observed = document.get("observed")
    if observed is not None:
        out.append(f"\n{heading}Disagreements with /metrics ({len(observed['disagree'])})\n")
        if observed["disagree"]:
            out.append(formats.render_rows(fmt, disagree_rows(observed["disagree"]), DISAGREE_HEADERS).rstrip("\n"))
        else:
            out.append("none: every gate kcompat knows agrees with the prediction")
        if observed["unknown"]:
            unknown = ", ".join(observed["unknown"])
            out.append(f"\nunknown to kcompat ({len(observed['unknown'])}): {formats.md_escape(unknown) if markdown else printable(unknown)}")
    gates = document.get("gates")
    if gates and (document["valid"] or show_defaults):
        out.append(f"\n{heading}Predicted gates\n")
        out.append(formats.render_rows(fmt, gates["features"], GATE_COLUMNS).rstrip("\n"))
    return "\n".join(out) + "\n"
