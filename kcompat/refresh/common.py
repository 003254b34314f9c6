"""What the refresh modules share: the error, release numbers and atomic writes."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from ..core.errors import KcompatError

FIRST_MINOR = 31  # the oldest release the data covers (the first with compatibility versions)
_RELEASE = re.compile(r"1\.(\d{1,4})")


class RefreshError(KcompatError):
    """Bad input to a refresh: a missing or malformed recording, a malformed release, ..."""


def minor_of_release(release: str) -> int:
    """``"1.33"`` -> 33; RefreshError for anything that is not ``1.N``."""
    match = _RELEASE.fullmatch(release.strip())
    if match is None:
        raise RefreshError(f'release "{release}": expected 1.N (for example 1.33)')
    return int(match.group(1))


def release_of_minor(minor: int) -> str:
    return f"1.{minor}"


def write_file_atomically(path: Path, text: str) -> None:
    """``text`` in ``path``, replaced in one step: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def checked_out_dir(out_dir: Path | str) -> Path:
    out = Path(out_dir).expanduser()
    if out.exists() and not out.is_dir():
        raise RefreshError(f"--out {out}: not a directory")
    return out.resolve()
