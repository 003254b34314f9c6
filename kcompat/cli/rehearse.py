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
    from kcompat.answers.rehearsal import RehearsalQuery, rehearse_binaries
    from kcompat.core.errors import printable
    from kcompat.documents import formats
    from kcompat.documents.rehearsal import rehearsal_document, rehearsal_markdown

    def progress(line: str) -> None:
        print(f"kcompat rehearse: {printable(line)}", file=sys.stderr, flush=True)

    query = RehearsalQuery(args.start, args.target, args.binaries, args.from_apiserver, args.to_apiserver, args.etcd, args.time_limit)
    answer = rehearse_binaries(catalog, options.request_from(args), query, progress)
    sys.stdout.write(formats.to_json(rehearsal_document(answer.recording, answer.judgement)) if args.format == "json"
                     else rehearsal_markdown(answer.recording, answer.judgement))
    return ExitStatus.OK if answer.judgement.held else ExitStatus.DIFFERS
