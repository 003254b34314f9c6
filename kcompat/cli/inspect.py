"""``kcompat inspect``: what a cluster says, the prediction, the disagreements.

Exit status OK when everything agrees, DIFFERS when the cluster disagrees with the prediction,
REFUSED when the binary would refuse the input or the input is unusable. ``--live`` asks the
current kubectl context for ``/version`` and ``/metrics`` through ``kubectl get --raw``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import MAX_SHOWN, echo, printable, shown
from kcompat.data.catalog import Catalog
from kcompat.documents import formats

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any

    from kcompat.documents.gates import HintDict
    from kcompat.documents.inspect import InspectDocument


# The documents (and YAML, the API data) are imported when a command runs, not when the parser
# is built: ``kcompat gates`` does not pay for them.
MAX_FILE_BYTES = 32 * 1024 * 1024  # kcompat.core.inspect.model.MAX_INPUT_BYTES
KUBECTL_TIMEOUT = 60


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE",
                        help="ps line / command line, static pod manifest, kubeadm or kind config, /version JSON, /metrics text")
    parser.add_argument("--live", action="store_true", help="also read /version and /metrics through kubectl get --raw")
    parser.add_argument("--context", help="kubectl context for --live (default: the current one)")
    parser.add_argument("--kubeconfig", help="kubeconfig file for --live (default: kubectl's)")
    parser.add_argument("--format", choices=("json", "table", "markdown"), default="table")
    parser.add_argument("--show-defaults", action="store_true",
                        help="print the predicted gates even when the binary would refuse the input (JSON always has them)")


#: Bytes of kubectl's stderr kept for the message (the rest is not read: kubectl is stopped).
KUBECTL_STDERR_BYTES = 64 * 1024


def run_bounded(command: list[str], limit: int, timeout: float, err_limit: int = KUBECTL_STDERR_BYTES) -> tuple[int, bytes, bytes, str]:
    """Run ``command`` reading at most ``limit`` bytes of its stdout and ``err_limit`` of its
    stderr, for at most ``timeout`` seconds: (exit status, stdout, stderr, why it was stopped or
    ""). A program that writes more, or takes longer, is killed; nothing past a limit is read."""
    import selectors
    import time

    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None  # both PIPE
    out, err = bytearray(), bytearray()
    bounds: dict[Any, tuple[bytearray, int, str]] = {process.stdout: (out, limit, "stdout"), process.stderr: (err, err_limit, "stderr")}
    deadline = time.monotonic() + timeout
    stopped = ""
    with selectors.DefaultSelector() as selector:
        for stream in bounds:
            selector.register(stream, selectors.EVENT_READ)
        try:
            while selector.get_map() and not stopped:
                left = deadline - time.monotonic()
                if left <= 0:
                    stopped = f"did not answer within {timeout:g} s"
                    break
                for key, _ in selector.select(min(left, 1.0)):
                    buffer, most, name = bounds[key.fileobj]
                    chunk = os.read(key.fd, min(1 << 16, most + 1 - len(buffer)))
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    buffer += chunk
                    if len(buffer) > most:
                        stopped = f"wrote more than the limit of {most:,} bytes on {name}"
                        break
        finally:
            if stopped:
                process.kill()
            for stream in bounds:
                stream.close()
            try:
                status = process.wait(timeout=None if stopped else max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                status = process.wait()
                stopped = stopped or f"did not exit within {timeout:g} s"
    return status, bytes(out), bytes(err), stopped


def _kubectl_raw(path: str, args: argparse.Namespace) -> bytes:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        raise _Unusable("--live needs kubectl on PATH")
    command = [kubectl, "get", "--raw", path]
    if args.context:
        command[1:1] = ["--context", args.context]
    if args.kubeconfig:
        command[1:1] = ["--kubeconfig", args.kubeconfig]
    try:
        status, out, err, stopped = run_bounded(command, MAX_FILE_BYTES, KUBECTL_TIMEOUT)
    except OSError as exc:
        raise _Unusable(f"kubectl could not be run: {echo(exc.strerror or exc)}") from None
    if stopped:
        raise _Unusable(f"kubectl get --raw {path} {stopped}; stopped")
    if status != 0:
        message = err.decode("utf-8", "replace").strip().splitlines()
        raise _Unusable(f"kubectl get --raw {path} failed: {echo((message or [f'exit status {status}'])[-1], 500)}")
    return out


class _Unusable(Exception):
    pass


def _inputs(args: argparse.Namespace) -> list[tuple[str, bytes]]:
    from kcompat.core.errors import KcompatError
    from kcompat.data.files import read_regular_file

    inputs = []
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
        where = f" (context {args.context})" if args.context else ""
        inputs.append((f"kubectl get --raw /version{where}", _kubectl_raw("/version", args)))
        inputs.append((f"kubectl get --raw /metrics{where}", _kubectl_raw("/metrics", args)))
    if not inputs:
        raise _Unusable("give at least one FILE, or --live")
    return inputs


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.inspect import inspect
    from kcompat.documents.inspect import inspect_document

    try:
        inputs = _inputs(args)
    except _Unusable as exc:
        if args.format == "json":
            sys.stdout.write(formats.to_json({"valid": False, "errors": [str(exc)]}))
        print(f"kcompat: error: {printable(exc)}", file=sys.stderr)
        return ExitStatus.REFUSED
    inspection = inspect(catalog, inputs)
    document = inspect_document(inspection)
    status = ExitStatus.REFUSED if not inspection.valid else ExitStatus.DIFFERS if inspection.disagrees else ExitStatus.OK
    if args.format == "json":
        sys.stdout.write(formats.to_json(document))
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


def render_inspect(document: InspectDocument, fmt: str, show_defaults: bool = False) -> str:
    """The inspect document as text: a refusal with its remedies first, the selection read and
    where from, the disagreements, then every gate (not for a refused input, unless
    ``show_defaults``)."""
    from kcompat.documents.gates import GATE_COLUMNS
    from kcompat.documents.inspect import DISAGREE_COLUMNS, summary_lines

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
            out.append(formats.render_rows(fmt, observed["disagree"], DISAGREE_COLUMNS).rstrip("\n"))
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
