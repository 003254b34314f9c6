"""``data/rehearsals/v1.N.json``: the rollback rehearsals recorded on the real binaries of the
release pair (1.N-1 -> 1.N), each a recording in the shape :mod:`kcompat.core.rehearsal`
describes (written by ``oracle/rehearse.py`` through :mod:`kcompat.refresh.rehearsal`). A pair
without a file was not rehearsed, and the plan says so."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kcompat.core.errors import KcompatError, cut

REHEARSALS_DIR = "rehearsals"
#: A recording is some tens of kB; a larger file is refused, not read.
MAX_REHEARSAL_BYTES = 4 * 1024 * 1024


def rehearsal_path(data_dir: Path | str, to_minor: str) -> Path:
    return Path(data_dir) / REHEARSALS_DIR / f"v{to_minor}.json"


@functools.lru_cache(maxsize=8)
def rehearsals(data_dir: Path | str) -> Mapping[tuple[str, str], Mapping[str, Any]]:
    """Every recorded rehearsal of ``data_dir``: (from minor, to minor) -> the recording. A file
    that is there but cannot be read is an error, never silently "not rehearsed"."""
    folder = Path(data_dir) / REHEARSALS_DIR
    out: dict[tuple[str, str], Mapping[str, Any]] = {}
    for path in sorted(folder.glob("v*.json")) if folder.is_dir() else ():
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_REHEARSAL_BYTES + 1)
        except OSError as exc:
            raise KcompatError(f"cannot read the rehearsal {cut(path, 200)}: {exc.strerror or exc}") from None
        if len(raw) > MAX_REHEARSAL_BYTES:
            raise KcompatError(f"{cut(path, 200)}: larger than {MAX_REHEARSAL_BYTES:,} bytes, not a rehearsal")
        try:
            doc = json.loads(raw)
            key = (str(doc["fromMinor"]), str(doc["toMinor"]))
            if not isinstance(doc.get("phases"), list):
                raise TypeError("phases is not a list")
        except (ValueError, KeyError, TypeError) as exc:
            raise KcompatError(f"{cut(path, 200)}: malformed rehearsal ({type(exc).__name__}: {cut(exc, 200)})") from None
        if path.name != f"v{key[1]}.json":
            raise KcompatError(f"{cut(path, 200)}: holds the rehearsal {key[0]} -> {key[1]}, not one to {path.stem[1:]}")
        out[key] = doc
    return MappingProxyType(out)
