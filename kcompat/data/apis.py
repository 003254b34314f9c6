"""The built-in API data of a data directory: the files of ``data/apis``, read and parsed once.

:class:`ApiFiles` is the :class:`~kcompat.core.apis_data.ApiData` the evaluators read: each file
is read by :func:`kcompat.data.files.read_data_file`, parsed and validated by the core's
``parse_*`` functions, and kept (a file that could not be used is read again when asked again).
:func:`api_files` gives one reader per directory, so every caller shares its cache.
"""

from __future__ import annotations

import functools
import re
from functools import cached_property
from pathlib import Path

from kcompat import DATA_DIR  # data/ of the checkout, or of the installed package
from kcompat.core.apis_data import (
    ApiData,
    ApiRelease,
    DefaultEnablement,
    SchemePriority,
    StorageOverrides,
    parse_api_release,
    parse_api_resources,
    parse_default_enablements,
    parse_scheme_priority,
    parse_storage_overrides,
    release_of,
    with_resources,
)
from kcompat.core.errors import KcompatError
from kcompat.core.versions import Version, parse_version

from .files import read_data_file

API_DIR = "apis"
RESOURCES_DIR = "resources"
DEFAULT_ENABLEMENT_FILE = "default-enablement.yaml"
STORAGE_OVERRIDES_FILE = "storage-overrides.yaml"
SCHEME_PRIORITY_FILE = "scheme-priority.yaml"
MAX_API_FILE_BYTES = 8 * 1024 * 1024
_API_FILE_RE = re.compile(r"v([0-9]+\.[0-9]+)\.yaml")


class ApiFiles(ApiData):
    """The API data in ``data_dir/apis``."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.folder = data_dir / API_DIR
        self._releases: dict[str, ApiRelease] = {}

    def __repr__(self) -> str:
        return f"ApiFiles({str(self.data_dir)!r})"

    def api_releases(self) -> tuple[Version, ...]:
        """Releases with an ``apis/v1.N.yaml``, oldest first."""
        try:
            names = [p.name for p in self.folder.iterdir()]
        except OSError as exc:
            raise KcompatError(f"{self.folder}: cannot list the API data: {exc.strerror or exc}") from None
        matches = (_API_FILE_RE.fullmatch(name) for name in names)
        return tuple(sorted(parse_version(m.group(1)) for m in matches if m))

    def api_release(self, release: Version | str) -> ApiRelease:
        version = release_of(release)
        key = f"{version.major}.{version.minor}"
        if key not in self._releases:
            self._releases[key] = self._read_api_release(key)
        return self._releases[key]

    def _read_api_release(self, release: str) -> ApiRelease:
        def absent() -> ApiRelease:
            have = ", ".join(str(v) for v in self.api_releases()) or "none"
            raise KcompatError(f"no bundled API data for Kubernetes {release} (available: {have})")

        def resources_absent() -> ApiRelease:
            raise KcompatError(f"no bundled REST resource names for Kubernetes {release} ({path} is missing)")

        api = read_data_file(
            self.folder / f"v{release}.yaml", "the API data", lambda doc, source: parse_api_release(doc, source, release),
            max_bytes=MAX_API_FILE_BYTES, missing=absent,
        )
        path = self.folder / RESOURCES_DIR / f"v{release}.yaml"
        return read_data_file(
            path, "the REST resource names", lambda doc, source: with_resources(api, parse_api_resources(doc, source, release)),
            max_bytes=MAX_API_FILE_BYTES, missing=resources_absent,
        )

    def default_enablements(self) -> tuple[DefaultEnablement, ...]:
        return self._default_enablements

    def storage_overrides(self) -> tuple[StorageOverrides, ...]:
        return self._storage_overrides

    def scheme_priorities(self) -> tuple[SchemePriority, ...]:
        return self._scheme_priorities

    @cached_property
    def _default_enablements(self) -> tuple[DefaultEnablement, ...]:
        return read_data_file(self.folder / DEFAULT_ENABLEMENT_FILE, "the default API enablement", parse_default_enablements)

    @cached_property
    def _storage_overrides(self) -> tuple[StorageOverrides, ...]:
        return read_data_file(self.folder / STORAGE_OVERRIDES_FILE, "the storage overrides", parse_storage_overrides, missing=tuple)

    @cached_property
    def _scheme_priorities(self) -> tuple[SchemePriority, ...]:
        return read_data_file(self.folder / SCHEME_PRIORITY_FILE, "the scheme version priority", parse_scheme_priority, missing=tuple)


@functools.lru_cache(maxsize=8)
def _files_of(data_dir: str) -> ApiFiles:
    return ApiFiles(Path(data_dir))


def api_files(data_dir: Path | str | None = None) -> ApiFiles:
    """The API data of ``data_dir`` (the bundled data for None), one reader per directory."""
    return _files_of(str(Path(data_dir) if data_dir is not None else DATA_DIR))
