"""What the refresh modules share: the error and release numbers; writing is
:mod:`kcompat.refresh.staging`'s (re-exported here for the writers)."""

from __future__ import annotations

import re
from pathlib import Path

from ..core.errors import KcompatError
from .staging import current_text, remove_file, write_file_atomically

__all__ = ["FIRST_MINOR", "RefreshError", "checked_out_dir", "current_text", "minor_of_release", "release_of_minor",
           "remove_file", "write_file_atomically"]

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


def checked_out_dir(out_dir: Path | str) -> Path:
    out = Path(out_dir).expanduser()
    if out.exists() and not out.is_dir():
        raise RefreshError(f"--out {out}: not a directory")
    return out.resolve()
