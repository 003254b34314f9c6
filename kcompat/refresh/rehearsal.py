"""The rollback rehearsals carried into the data the plan reads.

``oracle/rehearse.py`` keeps each pair's full recording in ``data/oracle/<vX.Y.Z>/rehearsal.json``
(the newer release's folder); :func:`write_rehearsal` copies it, checked, to
``data/rehearsals/v1.N.json`` (read by :mod:`kcompat.data.rehearsals`). Nothing is written by
hand: a pair without a recording has no file, and the plan says "not rehearsed"."""

from __future__ import annotations

import json
from pathlib import Path

from ..core.errors import echo
from .common import RefreshError
from .staging import write_file_atomically

RECORDING = "rehearsal.json"
REHEARSALS_DIR = "rehearsals"


def write_rehearsal(data_dir: Path, recording: Path) -> Path:
    """``recording`` (a rehearsal.json) written as ``data_dir/rehearsals/v<toMinor>.json``; its path."""
    from .verify import (
        read_recording,  # bounded, and inside a refresh the bytes its verification saw
    )

    doc = read_recording(recording)
    try:
        to_minor = str(doc["toMinor"])
        if not isinstance(doc["phases"], list) or not doc["phases"]:
            raise ValueError("no phases")
    except (ValueError, KeyError, TypeError) as exc:
        raise RefreshError(f"{echo(recording, 300)}: not a rehearsal recording ({type(exc).__name__}: {echo(exc, 200)})") from None
    target = data_dir / REHEARSALS_DIR / f"v{to_minor}.json"
    write_file_atomically(target, json.dumps(doc, sort_keys=True, separators=(",", ":")) + "\n")
    return target


def refresh_rehearsals(data_dir: Path, minors: list[int] | None = None) -> list[str]:
    """Every ``data/oracle/*/rehearsal.json`` of ``data_dir`` (of a pair to one of ``minors``)
    carried over (part of ``kcompat data refresh``); the files written, relative to ``data_dir``."""
    written = []
    for path in sorted((data_dir / "oracle").glob(f"*/{RECORDING}")):
        minor = int(path.parent.name.lstrip("v").split(".")[1])
        if minors is None or minor in minors:
            written.append(str(write_rehearsal(data_dir, path).relative_to(data_dir)))
    return written
