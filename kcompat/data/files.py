"""Reading files: every read of a data file, a feature manifest or a user's file goes through here.

:func:`read_regular_file` is the bounded read of a file someone names (``--manifest``, the files
``kcompat inspect`` is given); :func:`read_data_file` reads one YAML file of a data directory and
parses it with the bounded YAML reader (:mod:`kcompat.core.safe_yaml`); :func:`load_manifest_files`
reads one binary's feature manifests. Parsing and validation are the core's; this module only
reads.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from kcompat.core.errors import KcompatError, cut
from kcompat.core.manifest import Feature, Manifest
from kcompat.core.registration import (
    DEFAULT_MAX_BYTES,
    FULL,
    check_manifest_dependencies,
    load_manifest_bytes,
    merge_features,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # for checkers only: ``typing`` is not loaded on the CLI's start-up path
    from typing import TypeAlias, TypeVar

    T = TypeVar("T")
    #: a path as the callers give it: a Path, or text
    PathLike: TypeAlias = str | os.PathLike[str]


def read_regular_file(path: PathLike, max_bytes: int, source: str | None = None) -> bytes:
    """At most ``max_bytes + 1`` bytes of a regular file. A FIFO, device, socket or directory is
    refused before it is opened (``os.stat``), and the open itself cannot block (``O_NONBLOCK``,
    then ``fstat`` again in case the path was swapped in between)."""
    source = source or cut(str(path), 200)
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise KcompatError(f"{source}: {_file_kind(mode)}, not a regular file")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise KcompatError(f"{source}: not a regular file")
            chunks, left = [], max_bytes + 1
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            return b"".join(chunks)
        finally:
            os.close(fd)
    except OSError as exc:
        raise KcompatError(f"{source}: cannot read: {exc.strerror or cut(exc)}") from None
    except KcompatError:
        raise
    except ValueError as exc:  # e.g. a NUL character in the path
        raise KcompatError(f"{source}: cannot read: {cut(exc)}") from None


def _file_kind(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


def read_data_file(
    path: Path,
    what: str,
    parse: Callable[[object, str], T],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    missing: Callable[[], T] | None = None,
) -> T:
    """``parse(document, source)`` of the YAML file ``path`` of a data directory.

    A file that cannot be read is a KcompatError naming the file and ``what`` it holds; a file
    that does not exist gives ``missing()`` instead when ``missing`` is given (a default, or a
    KcompatError worded for that file)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        if missing is not None and isinstance(exc, FileNotFoundError):
            return missing()
        raise KcompatError(f"{path}: cannot read {what}: {exc.strerror or exc}") from None
    # (the YAML reader is not imported when the bundled data is used)
    from kcompat.core.safe_yaml import read_yaml_text

    return parse(read_yaml_text(raw, str(path), max_bytes), str(path))


def load_manifest_files(
    paths: Iterable[PathLike], max_bytes: int = DEFAULT_MAX_BYTES, registration: str = FULL, client_go_paths: Iterable[PathLike] = ()
) -> Manifest:
    """Load one binary's manifest from one or more files (versioned + unversioned), plus the
    files of k8s.io/client-go's features (``origin`` "client-go"), which every kube binary adds
    to its gate (``pkg/features/kube_features.go`` ``init()``: ``clientAdapter``). Dependencies
    are checked on the merged set, as ``AddDependencies`` sees every registered gate."""
    features: list[Feature] = []
    sources: list[str] = []
    for path, origin in [(p, "kube") for p in paths] + [(p, "client-go") for p in client_go_paths]:
        source = cut(str(path), 200)
        data = read_regular_file(path, max_bytes, source)
        parsed = load_manifest_bytes(data, source, max_bytes, registration, check_dependencies=False)
        features.extend(parsed if origin == "kube" else (f.replace(origin=origin) for f in parsed))
        sources.append(source)
    manifest = merge_features(features, sources)
    check_manifest_dependencies(manifest.features, " + ".join(sources))
    return manifest
