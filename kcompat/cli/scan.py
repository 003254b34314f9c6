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

from kcompat.cli.contract import ExitStatus
from kcompat.core.errors import KcompatError, cut, shown
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
        "paths", nargs="+", metavar="FILE|DIR|-",
        help="manifests: YAML (any number of documents, rendered Helm output, kind: List) or JSON files; a directory's "
        ".yaml, .yml and .json files (symbolic links inside it are skipped); - for stdin",
    )
    parser.add_argument("--binary", help="kube-apiserver binary version, e.g. 1.36 or v1.36.2 (default: the newest bundled release)")
    parser.add_argument("--emulated", "--emulated-version", action="append", help="--emulated-version value (default: the binary's own release)")
    parser.add_argument("--min-compat", "--min-compatibility-version", action="append", help="--min-compatibility-version value (binaries 1.35+)")
    parser.add_argument("--runtime-config", action="append", help="--runtime-config value, e.g. 'networking.k8s.io/v1beta1=true' (repeatable)")
    parser.add_argument(
        "--feature-gates", action="append",
        help="--feature-gates value: decides the REST storage kube-apiserver installs only while a gate is on (repeatable)",
    )
    parser.add_argument("--emulation-forward-compatible", action="store_true", help="set --emulation-forward-compatible=true (1.33+)")
    parser.add_argument(
        "--runtime-config-emulation-forward-compatible", action="store_true", help="set --runtime-config-emulation-forward-compatible=true (1.33+)",
    )
    parser.add_argument("--format", choices=formats.FORMATS, default="table")
    parser.add_argument("--all", action="store_true", help="list the served objects too (JSON always lists every object)")


def collect(paths: list[str], stdin: BinaryIO | None = None) -> tuple[list[tuple[str, bytes]], list[tuple[str, str]]]:
    """The inputs named on the command line, each read with its bound; (name, problem) of those
    that cannot be read (a missing file, a device, a link inside a directory, too many files or bytes)."""
    from kcompat.core.scan import MAX_SCAN_BYTES
    from kcompat.data.files import read_regular_file

    inputs: list[tuple[str, bytes]] = []
    problems: list[tuple[str, str]] = []
    total = 0
    for path in paths:
        files: list[tuple[str, Callable[[], bytes]]]
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer if sys.stdin is not None else None
            if stream is None:  # started with descriptor 0 closed (`kcompat scan - <&-`)
                raise KcompatError("- reads the manifests from stdin, which is closed: pipe them in, or give a FILE or DIRECTORY")
            files = [("stdin", functools.partial(stream.read, MAX_SCAN_BYTES + 1))]
        elif _is_directory(path):
            found, notes = _walk(Path(path))
            problems += notes
            files = [(cut(str(f), 200), functools.partial(read_regular_file, f, MAX_SCAN_BYTES)) for f in found]
        else:
            files = [(cut(path, 200), functools.partial(read_regular_file, path, MAX_SCAN_BYTES))]
        for name, read in files:
            if len(inputs) >= MAX_SCAN_FILES:
                problems.append((name, f"more than {MAX_SCAN_FILES} files, the limit for one scan: {name} and the rest were not read"))
                return inputs, problems
            try:
                data = read()
            except KcompatError as exc:
                problems.append((name, str(exc)))
                continue
            total += len(data)
            if total > MAX_SCAN_TOTAL_BYTES:
                problems.append((name, f"the inputs are more than {MAX_SCAN_TOTAL_BYTES:,} bytes together, the limit for one scan: "
                                       f"{name} and the rest were not read"))
                return inputs, problems
            inputs.append((name, data))
    return inputs, problems


def _is_directory(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _walk(root: Path) -> tuple[list[Path], list[tuple[str, str]]]:
    """The manifest files below ``root``, sorted, without following symbolic links (a link could
    lead anywhere: it is skipped and said so) and at most :data:`MAX_SCAN_DEPTH` levels deep."""
    found: list[Path] = []
    notes: list[tuple[str, str]] = []
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
    return sorted(found, key=lambda p: str(p)), notes


def run(args: argparse.Namespace, catalog: Catalog) -> ExitStatus:
    from kcompat.answers.scan import scan
    from kcompat.core.scan import ScanInput
    from kcompat.documents.scan import scan_text, summary_line

    inputs, problems = collect(args.paths)
    unread = [ScanInput(name, None, 0, 0, problem) for name, problem in problems]
    answer = scan(
        catalog, inputs, args.binary, args.emulated, args.min_compat, args.feature_gates, args.runtime_config,
        emulation_forward_compatible=args.emulation_forward_compatible,
        runtime_config_emulation_forward_compatible=args.runtime_config_emulation_forward_compatible,
        unread=unread,
    )
    sys.stdout.write(scan_text(answer, args.format, args.all))
    if args.format != "json":
        hints = [h.line for h in answer.hints]
        errors = shown([*answer.errors, *answer.problems])
        formats.report_problems(summary_line(answer), shown(answer.warnings), errors, sys.stderr, hints)
    return ExitStatus(answer.exit_status)
