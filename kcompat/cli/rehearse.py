"""``kcompat rehearse``: the rollback rehearsal (:mod:`kcompat.core.rehearsal`) on binaries the
user provides: kube-apiserver of both releases and etcd, started on 127.0.0.1 only in a private
temporary folder, removed on every way out. Exit status OK when every promise held, DIFFERS when
one broke, REFUSED when the rehearsal could not run (no binaries, a server that never started
at the first phase, the time limit)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.data.catalog import Catalog


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--binaries", type=Path, metavar="DIR",
                        help="folder holding kube-apiserver-<release> or <release>/kube-apiserver for both releases, and etcd")
    parser.add_argument("--from", dest="start", required=True, metavar="B[@E]", help="the release rolled back to, optionally @ its emulated version, e.g. 1.35")
    parser.add_argument("--to", dest="target", required=True, metavar="B", help="the release upgraded to, e.g. 1.36 (one minor above --from)")
    parser.add_argument("--from-apiserver", type=Path, metavar="PATH", help="kube-apiserver of --from (instead of finding it in --binaries)")
    parser.add_argument("--to-apiserver", type=Path, metavar="PATH", help="kube-apiserver of --to (instead of finding it in --binaries)")
    parser.add_argument("--etcd", type=Path, metavar="PATH", help="etcd (instead of finding it in --binaries)")
    every = "given to every kube-apiserver of the rehearsal"
    options.add(parser, options.FEATURE_GATES.but(more=every), options.RUNTIME_CONFIG.but(more=every), repeat=True)
    parser.add_argument("--time-limit", type=float, default=1800.0, metavar="SECONDS", help="stop (exit 2) after this many seconds (default 1800)")
    options.add(parser, options.FORMAT.but(choices=("markdown", "json"), default="markdown"))


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.rehearsal import storage_changing
    from kcompat.core.errors import KcompatError, printable
    from kcompat.core.plan import minors_between, parse_plan_endpoint
    from kcompat.core.rehearsal import judge
    from kcompat.data.rehearsal_run import find_binaries, rehearse
    from kcompat.documents import formats
    from kcompat.documents.rehearsal import rehearsal_document, rehearsal_markdown

    binary, emulated = parse_plan_endpoint(args.start)
    target, target_emulated = parse_plan_endpoint(args.target)
    if target_emulated is not None:
        raise KcompatError("--to takes a binary release only (the rehearsal's new binary emulates --from's version, then its own)")
    if minors_between(binary, target) != 1:
        raise KcompatError(f"--from {binary} and --to {target} are not adjacent minors: a rollback is rehearsed one minor at a time")
    if emulated is not None and emulated >= binary:
        emulated = None
    if not (args.time_limit > 0):
        raise KcompatError(f"--time-limit must be a positive number of seconds, not {args.time_limit}")
    if args.binaries is None and None in (args.from_apiserver, args.to_apiserver, args.etcd):
        raise KcompatError("give --binaries DIR, or all of --from-apiserver, --to-apiserver and --etcd")
    found = find_binaries(args.binaries, str(binary), str(target), from_apiserver=args.from_apiserver,
                          to_apiserver=args.to_apiserver, etcd=args.etcd)
    flags = [f"--feature-gates={','.join(args.feature_gates)}"] if args.feature_gates else []
    flags += [f"--runtime-config={','.join(args.runtime_config)}"] if args.runtime_config else []

    def progress(line: str) -> None:
        print(f"kcompat rehearse: {printable(line)}", file=sys.stderr, flush=True)

    recording = rehearse(found, str(binary), str(target), from_emulated=str(emulated) if emulated else None, flags=flags,
                         required=storage_changing(catalog, str(binary), str(target)), time_limit=args.time_limit, progress=progress)
    judgement = judge(recording)
    first = (recording.get("phases") or [{}])[0]
    if not first.get("started"):
        raise KcompatError(f"kube-apiserver {recording.get('from')} did not start: {first.get('error')}")
    sys.stdout.write(formats.to_json(rehearsal_document(recording, judgement)) if args.format == "json"
                     else rehearsal_markdown(recording, judgement))
    return ExitStatus.OK if judgement.held else ExitStatus.DIFFERS
