"""``kcompat scan FILE|DIR|-...``: will these manifests' objects be served by a kube-apiserver with
this selection? Reads YAML and JSON manifests (files, the ``.yaml``/``.yml``/``.json`` files of a
directory, or stdin), asks :func:`kcompat.answers.scan.scan` (what the Check manifests page asks)
and prints :mod:`kcompat.documents.scan`' texts.

Exit status: 0 every built-in object is served, 1 some are not, 2 an input is not a manifest or
cannot be read, or the binary would refuse the selection (CI can gate on it).
"""

from __future__ import annotations

import argparse
import functools
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from kcompat.cli import options
from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import MAX_SHOWN, KcompatError, cut, shown
from kcompat.data.catalog import Catalog
from kcompat.documents import formats

#: Files read from the directories given (sorted, depth first), and bytes of all inputs together.
MAX_SCAN_FILES = 500
MAX_SCAN_TOTAL_BYTES = 32 * 1024 * 1024
#: Directory levels walked below a directory given.
MAX_SCAN_DEPTH = 16
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="FILE|DIR|-",
        help="manifests: YAML (any number of documents, rendered Helm output, kind: List) or JSON files; a directory's "
        ".yaml, .yml and .json files (symbolic links inside it are skipped); - for stdin. With --live: none, or a pasted "
        "command line after -- (-- kube-apiserver --emulated-version=1.33)",
    )
    parser.add_argument("--live", action="store_true", help="check what the cluster of a kubeconfig context holds instead of manifests: "
                        "resources holding objects, last-applied apiVersions, Helm 3 releases (exit 1 when the selection would not serve one)")
    options.add(parser, options.KUBECONFIG, options.CONTEXT)
    parser.add_argument("--live-timeout", type=float, default=None, metavar="SECONDS",
                        help="--live: seconds the whole read may take (default 900; each answer 60)")
    options.add(parser, options.BINARY, options.EMULATED, options.MIN_COMPAT, options.RUNTIME_CONFIG, options.FEATURE_GATES.but(more=options.REST_STORAGE_GATES),
                *options.FORWARD_COMPATIBLE, options.FORMAT.but(choices=formats.FORMATS, default="table"), repeat=True)
    parser.add_argument("--all", action="store_true", help="list the served objects too (JSON always lists every object)")


def collect(paths: list[str], stdin: BinaryIO | None = None) -> tuple[list[tuple[str, bytes]], list[tuple[str, str]]]:
    """The inputs named on the command line, each read with its bound; (name, problem) of those
    that cannot be read (a missing file, a device, a link inside a directory, too many files or bytes)."""
    from kcompat.core.scan import MAX_SCAN_BYTES
    from kcompat.data.files import read_regular_file

    inputs: list[tuple[str, bytes]] = []
    problems = _Problems()
    total = 0
    for path in paths:
        files: list[tuple[str, Callable[[], bytes]]]
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer if sys.stdin is not None else None
            if stream is None:  # started with descriptor 0 closed (`kcompat scan - <&-`)
                raise KcompatError("- reads the manifests from stdin, which is closed: pipe them in, or give a FILE or DIRECTORY")
            files = [("stdin", functools.partial(stream.read, MAX_SCAN_BYTES + 1))]
        elif _is_directory(path):
            found = _walk(Path(path), problems)
            files = [(cut(str(f), 200), functools.partial(read_regular_file, f, MAX_SCAN_BYTES)) for f in found]
        else:
            files = [(cut(path, 200), functools.partial(read_regular_file, path, MAX_SCAN_BYTES))]
        for name, read in files:
            if len(inputs) >= MAX_SCAN_FILES:
                return inputs, problems.listed((name, f"more than {MAX_SCAN_FILES} files, the limit for one scan: {name} and the rest were not read"))
            try:
                data = read()
            except KcompatError as exc:
                problems.append((name, str(exc)))
                continue
            total += len(data)
            if total > MAX_SCAN_TOTAL_BYTES:
                return inputs, problems.listed((name, f"the inputs are more than {MAX_SCAN_TOTAL_BYTES:,} bytes together, the limit "
                                                      f"for one scan: {name} and the rest were not read"))
            inputs.append((name, data))
    return inputs, problems.listed()


def _is_directory(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


class _Problems:
    """The inputs that cannot be read, bounded: the first :data:`NAMED` named with their problem,
    the others counted in one more (a folder of 50,000 links is 11 problems, not 50,000: with the
    selection's errors they fit in the 20 lines text output shows)."""

    #: inputs named with their problem
    NAMED = MAX_SHOWN // 2

    def __init__(self) -> None:
        self.named: list[tuple[str, str]] = []
        self.more = 0

    def append(self, problem: tuple[str, str]) -> None:
        if len(self.named) < self.NAMED:
            self.named.append(problem)
        else:
            self.more += 1

    def listed(self, last: tuple[str, str] | None = None) -> list[tuple[str, str]]:
        """The problems named, the count of the others, then ``last`` (the limit that stopped the reading)."""
        more = [("…", f"… and {self.more:,} more inputs that cannot be read (links, folders too deep, unreadable files)")] if self.more else []
        return [*self.named, *more, *([last] if last is not None else [])]


def _walk(root: Path, notes: _Problems) -> list[Path]:
    """The manifest files below ``root``, sorted, without following symbolic links (a link could
    lead anywhere: it is skipped and said so in ``notes``) and at most :data:`MAX_SCAN_DEPTH` levels deep."""
    found: list[Path] = []
    stack = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name, reverse=True)
        except OSError as exc:
            notes.append((cut(str(folder), 200), f"{cut(str(folder), 200)}: cannot list: {exc.strerror or exc}"))
            continue
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink():
                if entry.name.endswith(MANIFEST_SUFFIXES) or entry.is_dir():
                    notes.append((cut(str(path), 200), f"{cut(str(path), 200)}: a symbolic link inside a directory, not followed "
                                                       "(name it on the command line to read it)"))
                continue
            if entry.is_dir(follow_symlinks=False):
                if depth + 1 > MAX_SCAN_DEPTH:
                    notes.append((cut(str(path), 200), f"{cut(str(path), 200)}: more than {MAX_SCAN_DEPTH} directory levels below "
                                                       f"{cut(str(root), 200)}, not read"))
                else:
                    stack.append((path, depth + 1))
            elif entry.name.endswith(MANIFEST_SUFFIXES) and entry.is_file(follow_symlinks=False):
                found.append(path)
        if len(found) > MAX_SCAN_FILES:
            break
    return sorted(found, key=lambda p: str(p))


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.scan import scan
    from kcompat.core.scan import ScanInput
    from kcompat.documents.scan import scan_text, summary_line

    if args.live:
        return _run_live(args, catalog)
    if not args.paths:
        raise KcompatError("give at least one FILE, DIR or - (stdin), or --live to check a cluster")
    inputs, problems = collect(args.paths)
    unread = [ScanInput(name, None, 0, 0, problem) for name, problem in problems]
    answer = scan(catalog, options.request_from(args), inputs, unread)
    sys.stdout.write(scan_text(answer, args.format, args.all))
    if args.format != "json":
        hints = shown(h.line for h in answer.hints)
        errors = shown([*answer.errors, *answer.problems])
        formats.report_problems(summary_line(answer), shown(answer.warnings), errors, sys.stderr, hints)
    return ExitStatus(answer.exit_status)


def _run_live(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    """``scan --live``: the cluster of a kubeconfig context (:func:`kcompat.answers.scan_live.scan_cluster`)."""
    from kcompat.answers.scan_live import LiveTarget, live_reader, scan_cluster
    from kcompat.cli.cmdline import apply_command_line
    from kcompat.core.errors import printable
    from kcompat.core.inspect.cmdline import component_of
    from kcompat.data.live import stderr_progress
    from kcompat.documents.scan import live_scan_text, live_summary_line

    if args.paths:
        if component_of(args.paths[0]) is None and not args.paths[0].startswith("-"):
            raise KcompatError(f"--live checks the cluster, not files ({cut(args.paths[0], 200)}): scan files without --live, "
                               "or paste a command line after --: kcompat scan --live -- kube-apiserver --emulated-version=1.33")
        args.command_line = args.paths
        apply_command_line(args, "scan")
    if args.live_timeout is not None and not 0 < args.live_timeout <= 86400:
        raise KcompatError(f"--live-timeout: expected seconds between 0 and 86400, got {args.live_timeout:g}")
    reader = live_reader(LiveTarget(args.kubeconfig, args.context, max_seconds=args.live_timeout), stderr_progress)
    answer = scan_cluster(catalog, options.request_from(args), reader)
    sys.stdout.write(live_scan_text(answer, args.format))
    if args.format != "json":
        errors = shown([*answer.errors, *([answer.unreadable] if answer.unreadable else [])])
        formats.report_problems(live_summary_line(answer), shown(answer.warnings), errors, sys.stderr, [h.line for h in answer.hints])
        for line in shown(answer.not_read):
            print(f"not read: {printable(line)}", file=sys.stderr)
    return ExitStatus(answer.exit_status)
