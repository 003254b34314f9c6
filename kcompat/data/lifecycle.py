"""``apis/lifecycle.csv``: the prerelease lifecycle of every built-in kind in every bundled release,
read once per data directory (the checks of ``kcompat scan`` look up kinds a binary's own API
data no longer has: ``autoscaling/v2beta1`` in a 1.36 binary)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from kcompat import DATA_DIR
from kcompat.core.errors import KcompatError
from kcompat.core.scan import KindLifecycle, parse_lifecycle_csv

from .files import read_regular_file

LIFECYCLE_FILE = Path("apis") / "lifecycle.csv"
#: the file is about 200 kB
MAX_LIFECYCLE_BYTES = 8 * 1024 * 1024


@functools.lru_cache(maxsize=8)
def _lifecycle(data_dir: str) -> Mapping[tuple[str, str, str], KindLifecycle]:
    path = Path(data_dir) / LIFECYCLE_FILE
    if not path.exists():
        return MappingProxyType({})
    raw = read_regular_file(path, MAX_LIFECYCLE_BYTES)
    if len(raw) > MAX_LIFECYCLE_BYTES:
        raise KcompatError(f"{path}: larger than {MAX_LIFECYCLE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KcompatError(f"{path}: not UTF-8 (byte {exc.start})") from None
    return MappingProxyType(parse_lifecycle_csv(text, str(path)))


def api_lifecycle(data_dir: Path | str | None = None) -> Mapping[tuple[str, str, str], KindLifecycle]:
    """(group, version, kind) -> its lifecycle in the newest bundled release that lists it; empty
    when the data directory has no lifecycle file."""
    return _lifecycle(str(Path(data_dir) if data_dir is not None else DATA_DIR))
