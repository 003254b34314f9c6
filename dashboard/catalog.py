"""The bundled releases (``data/releases.yaml``): what exists, how faithful it is, and loading.

A release whose files are missing or broken does not take the others down: ``Catalog``
records the problem for that release and every other release stays usable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType

from . import DATA_DIR  # data/ of the checkout, or of the installed package
from .core.errors import KcompatError
from .core.manifest import Manifest, load_manifest_files, read_yaml_text, registration_for
from .core.versions import Version, parse_version

STATUS_TEXT = {
    "exact": "exact: verified gate by gate against the release source at x.y.0",
    "regenerated": "reconstructed: regenerated from a later patch release's source",
    "development": "reconstructed: a development snapshot, not a release",
}


@dataclass(frozen=True)
class ReleaseInfo:
    release: str
    feature_files: tuple[str, ...]
    status: str
    basis: str
    api_file: str | None = None
    api_status: str | None = None
    api_basis: str | None = None
    #: how faithful the gate dependencies are (1.35+): reconstructed, development, or None (none apply)
    dependencies_status: str | None = None
    dependencies_basis: str | None = None
    #: k8s.io/client-go's features, which the release's kube binaries add to their gate (origin "client-go")
    client_go_files: tuple[str, ...] = ()
    client_go_status: str | None = None
    client_go_basis: str | None = None

    @property
    def version(self) -> Version:
        return parse_version(self.release)

    @property
    def exact(self) -> bool:
        return self.status == "exact"

    @property
    def status_text(self) -> str:
        return STATUS_TEXT.get(self.status, self.status)


@dataclass(frozen=True)
class GateInfo:
    name: str
    description: str | None
    owners: tuple[str, ...]
    kep: str | None
    source: str | None


@dataclass(frozen=True)
class ReleaseData:
    """One release, loaded: its manifest, or the reason it could not be loaded."""

    info: ReleaseInfo
    manifest: Manifest | None
    problem: str | None = None

    @property
    def usable(self) -> bool:
        return self.manifest is not None


def _read_releases(data_dir: Path) -> tuple[ReleaseInfo, ...]:
    path = data_dir / "releases.yaml"
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise KcompatError(f"{path}: cannot read the release list: {exc.strerror or exc}") from None
    doc = read_yaml_text(raw, str(path))
    items = doc.get("releases") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise KcompatError(f"{path}: expected a mapping with a 'releases' list")
    out = []
    for i, item in enumerate(items):
        try:
            feats = item["features"]
            apis = item.get("apis") or {}
            out.append(
                ReleaseInfo(
                    release=str(item["release"]),
                    feature_files=tuple(str(f) for f in feats["files"]),
                    status=str(feats["status"]),
                    basis=str(feats.get("basis", "")),
                    api_file=apis.get("file"),
                    api_status=apis.get("status"),
                    api_basis=apis.get("basis"),
                    dependencies_status=(feats.get("dependencies") or {}).get("status"),
                    dependencies_basis=(feats.get("dependencies") or {}).get("basis"),
                    client_go_files=_file_list((feats.get("clientGo") or {}).get("files")),
                    client_go_status=(feats.get("clientGo") or {}).get("status"),
                    client_go_basis=(feats.get("clientGo") or {}).get("basis"),
                )
            )
            parse_version(out[-1].release)
        except (KeyError, TypeError, AttributeError, KcompatError) as exc:
            raise KcompatError(f"{path}: releases[{i}] is malformed ({exc})") from None
    return tuple(sorted(out, key=lambda r: r.version))


def _file_list(value: object) -> tuple[str, ...]:
    """A ``files:`` list of releases.yaml (empty when absent)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(f, str) for f in value):
        raise TypeError(f"files must be a list of paths, got {type(value).__name__}")
    return tuple(value)


@dataclass(frozen=True)
class Catalog:
    """The bundled data of every release. Immutable; loads each release once."""

    data_dir: Path = DATA_DIR
    #: read ``data_dir/bundle.json`` where it matches the YAML files (see :mod:`dashboard.bundle`)
    use_bundle: bool = True
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @cached_property
    def bundle(self):
        """The compiled bundle of ``data_dir``, or None (none, unreadable, or not wanted)."""
        if not self.use_bundle:
            return None
        from .bundle import read_bundle

        return read_bundle(self.data_dir)

    @cached_property
    def releases(self) -> tuple[ReleaseInfo, ...]:
        compiled = self.bundle.releases() if self.bundle is not None else None
        return compiled if compiled is not None else _read_releases(self.data_dir)

    @property
    def release_names(self) -> tuple[str, ...]:
        return tuple(r.release for r in self.releases)

    def info(self, release: str) -> ReleaseInfo:
        key = _release_key(release)
        for r in self.releases:
            if r.release == key:
                return r
        raise KcompatError(f"no bundled data for release {release!r}; bundled: {', '.join(self.release_names)}")

    def load(self, release: str) -> ReleaseData:
        info = self.info(release)
        if info.release not in self._cache:
            try:
                manifest = self.bundle.manifest(info) if self.bundle is not None else None
                if manifest is None:
                    manifest = load_manifest_files(
                        [self.data_dir / f for f in info.feature_files],
                        registration=registration_for(info.version),
                        client_go_paths=[self.data_dir / f for f in info.client_go_files],
                    )
                self._cache[info.release] = ReleaseData(info, manifest)
            except KcompatError as exc:
                self._cache[info.release] = ReleaseData(info, None, str(exc))
        return self._cache[info.release]

    def manifest(self, release: str) -> Manifest:
        data = self.load(release)
        if data.manifest is None:
            raise KcompatError(f"the bundled data for {data.info.release} cannot be used: {data.problem}")
        return data.manifest

    def all(self) -> tuple[ReleaseData, ...]:
        return tuple(self.load(r.release) for r in self.releases)

    def usable_releases(self) -> tuple[str, ...]:
        return tuple(d.info.release for d in self.all() if d.usable)

    def problems(self) -> tuple[tuple[str, str], ...]:
        return tuple((d.info.release, d.problem) for d in self.all() if d.problem)

    @cached_property
    def gate_info(self) -> Mapping[str, GateInfo]:
        return MappingProxyType(load_gate_info(self.data_dir / "features" / "descriptions.yaml"))


#: Environment variable naming another data directory (same layout as data/) to read.
DATA_DIR_ENV = "KCOMPAT_DATA_DIR"


def catalog_from_environment() -> Catalog:
    """The catalog of ``$KCOMPAT_DATA_DIR`` if set, else of the bundled data (what the app and its
    upload worker read)."""
    import os

    data_dir = os.environ.get(DATA_DIR_ENV)
    return Catalog(Path(data_dir)) if data_dir else Catalog()


def _release_key(release: str) -> str:
    try:
        v = parse_version(release)
    except KcompatError:
        return release
    return f"{v.major}.{v.minor}"


def load_gate_info(path: Path) -> dict[str, GateInfo]:
    """Descriptions, owners and KEP links per gate; an empty mapping when the file is missing."""
    try:
        raw = path.read_bytes()
    except OSError:
        return {}
    doc = read_yaml_text(raw, str(path), max_bytes=16 * 1024 * 1024)
    out: dict[str, GateInfo] = {}
    for item in doc if isinstance(doc, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        owners = item.get("owners") or []
        out[item["name"]] = GateInfo(
            name=item["name"],
            description=item.get("description") if isinstance(item.get("description"), str) else None,
            owners=tuple(str(o) for o in owners) if isinstance(owners, list) else (),
            kep=item.get("kep") if isinstance(item.get("kep"), str) else None,
            source=item.get("source") if isinstance(item.get("source"), str) else None,
        )
    return out


DEFAULT_CATALOG = Catalog()
