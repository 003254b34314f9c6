"""The bundled releases (``data/releases.yaml``): what exists, how faithful it is, and loading.

A release whose files are missing or broken does not take the others down: ``Catalog``
records the problem for that release and every other release stays usable.
"""

from __future__ import annotations

import _thread  # the lock type without importing threading on the CLI's start-up path
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

from kcompat import DATA_DIR  # data/ of the checkout, or of the installed package
from kcompat.core.components import KUBE_APISERVER, OTHER_COMPONENTS
from kcompat.core.errors import ComponentNotRecorded, KcompatError
from kcompat.core.keps import kep_link
from kcompat.core.manifest import Manifest
from kcompat.core.record import Record, set_field
from kcompat.core.registration import registration_for
from kcompat.core.versions import Version, parse_version

from .files import load_manifest_files, read_data_file

TYPE_CHECKING = False
if TYPE_CHECKING:  # the API data is imported when first asked for, not on the gates' path
    from typing import Any, TypeVar

    from kcompat.core.apis_data import ApiData
    from kcompat.core.problems import PatchNotRecorded

    from .bundle import Bundle

    T = TypeVar("T")

#: statuses of data that is the release itself: verified at x.y.0, or read from the release's running code
EXACT_STATUSES = frozenset({"exact", "release"})

STATUS_TEXT = {
    "release": "release: read from the running code of the patch release",
    "development": "pre-release: read from the running code of a pre-release, not a release",
    # statuses of data made otherwise (another data directory): said as they are
    "exact": "exact: verified gate by gate against the release source at x.y.0",
    "regenerated": "reconstructed: regenerated from a later patch release's source",
}


#: the largest of the per-release list files (patch levels, gate descriptions) read
MAX_LIST_BYTES = 16 * 1024 * 1024

#: the ReleaseInfo fields that are tuples (lists in the compiled bundle's JSON)
_INFO_TUPLES = ("feature_files", "client_go_files")


class ReleaseInfo(Record):
    """One entry of ``releases.yaml``: a bundled release, its data files and where they come from."""

    __slots__ = ("api_basis", "api_file", "api_status", "basis", "client_go_basis", "client_go_files", "client_go_status", "components_file", "dependencies_basis", "dependencies_status", "feature_files", "patch", "patches_file", "release", "status")
    release: str
    feature_files: tuple[str, ...]
    status: str
    basis: str
    api_file: str | None
    api_status: str | None
    api_basis: str | None
    #: how faithful the gate dependencies are (1.35+): reconstructed, development, or None (none apply)
    dependencies_status: str | None
    dependencies_basis: str | None
    #: k8s.io/client-go's features, which the release's kube binaries add to their gate (origin "client-go")
    client_go_files: tuple[str, ...]
    client_go_status: str | None
    client_go_basis: str | None
    #: the patch release the data was read from ("1.35.8"): a plain "1.35" means this patch
    patch: str | None
    #: how every other recorded patch's gates differ from ``patch`` (features/patches-v1.N.yaml)
    patches_file: str | None
    #: how the other components' gate sets differ from kube-apiserver's (features/components-v1.N.yaml)
    components_file: str | None

    def __init__(self, release: str, feature_files: tuple[str, ...], status: str, basis: str, api_file: str | None = None, api_status: str | None = None, api_basis: str | None = None, dependencies_status: str | None = None, dependencies_basis: str | None = None, client_go_files: tuple[str, ...] = (), client_go_status: str | None = None, client_go_basis: str | None = None, patch: str | None = None, patches_file: str | None = None, components_file: str | None = None) -> None:
        set_field(self, "release", release)
        set_field(self, "feature_files", feature_files)
        set_field(self, "status", status)
        set_field(self, "basis", basis)
        set_field(self, "api_file", api_file)
        set_field(self, "api_status", api_status)
        set_field(self, "api_basis", api_basis)
        set_field(self, "dependencies_status", dependencies_status)
        set_field(self, "dependencies_basis", dependencies_basis)
        set_field(self, "client_go_files", client_go_files)
        set_field(self, "client_go_status", client_go_status)
        set_field(self, "client_go_basis", client_go_basis)
        set_field(self, "patch", patch)
        set_field(self, "patches_file", patches_file)
        set_field(self, "components_file", components_file)

    @property
    def version(self) -> Version:
        return parse_version(self.release)

    @property
    def pre_release(self) -> bool:
        """Read from a pre-release (its patch has a suffix: ``1.38.0-beta.0``), not a release."""
        return "-" in (self.patch or "") or self.status == "development"

    @property
    def exact(self) -> bool:
        return self.status in EXACT_STATUSES and not self.pre_release

    @property
    def status_text(self) -> str:
        text = STATUS_TEXT["development"] if self.pre_release else STATUS_TEXT.get(self.status, self.status)
        return f"{text} (v{self.patch})" if self.patch else text

    @property
    def source_text(self) -> str:
        """Where the data is from, in a few words: the patch release ("v1.36.5"), a pre-release
        ("v1.38.0-beta.0, pre-release"), else "exact" or "reconstructed"."""
        if self.patch and self.pre_release:
            return f"v{self.patch}, pre-release"
        if self.patch and self.status == "release":
            return f"v{self.patch}"
        return "exact" if self.exact else "reconstructed"

    @property
    def named(self) -> str:
        """The release with the patch its data is: "1.35 (v1.35.8)", "1.38 (v1.38.0-beta.0, pre-release)",
        or "1.35" when no patch is known."""
        return f"{self.release} ({self.source_text})" if self.patch else self.release


class GateInfo(Record):
    """What the data says of a gate besides its specs: its description, owners and KEP."""

    __slots__ = ("description", "kep", "name", "owners", "source")
    name: str
    description: str | None
    owners: tuple[str, ...]
    #: the KEP link to show: https://kep.k8s.io/N however the comment wrote it (:func:`kcompat.core.keps.kep_link`)
    kep: str | None
    source: str | None

    def __init__(self, name: str, description: str | None, owners: tuple[str, ...], kep: str | None, source: str | None) -> None:
        set_field(self, "name", name)
        set_field(self, "description", description)
        set_field(self, "owners", owners)
        set_field(self, "kep", kep)
        set_field(self, "source", source)


class ReleaseData(Record):
    """One release, loaded: its manifest, or the reason it could not be loaded."""

    __slots__ = ("info", "manifest", "problem")
    info: ReleaseInfo
    manifest: Manifest | None
    problem: str | None

    def __init__(self, info: ReleaseInfo, manifest: Manifest | None, problem: str | None = None) -> None:
        set_field(self, "info", info)
        set_field(self, "manifest", manifest)
        set_field(self, "problem", problem)

    @property
    def usable(self) -> bool:
        return self.manifest is not None


def _read_releases(data_dir: Path) -> tuple[ReleaseInfo, ...]:
    return read_data_file(data_dir / "releases.yaml", "the release list", _parse_releases)


def _parse_releases(doc: object, path: str) -> tuple[ReleaseInfo, ...]:
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
                    patch=str(feats["patch"]) if feats.get("patch") is not None else None,
                    patches_file=str(feats["patches"]) if feats.get("patches") is not None else None,
                    components_file=str(feats["components"]) if feats.get("components") is not None else None,
                )
            )
            parse_version(out[-1].release)
        except (KeyError, TypeError, AttributeError, KcompatError) as exc:
            raise KcompatError(f"{path}: releases[{i}] is malformed ({exc})") from None
    return tuple(sorted(out, key=lambda r: r.version))


class PatchLevel(Record):
    """One recorded patch release: the gates that differ from the base patch, and those it lacks."""

    __slots__ = ("absent", "gates", "kubernetes", "name")
    name: str  # "1.35.2"
    kubernetes: str  # the module it was read from, "v1.35.2"
    gates: tuple[Mapping[str, Any], ...]  # manifest items (whole entries with origin), read-only
    absent: tuple[str, ...]

    def __init__(self, name: str, kubernetes: str, gates: tuple[Mapping[str, Any], ...], absent: tuple[str, ...]) -> None:
        set_field(self, "name", name)
        set_field(self, "kubernetes", kubernetes)
        set_field(self, "gates", gates)
        set_field(self, "absent", absent)

    @property
    def number(self) -> int:
        return int(self.name.split(".")[2].partition("-")[0])

    @property
    def pre_release(self) -> str:
        """"beta.0" for a recorded pre-release (1.38.0-beta.0), else empty."""
        return self.name.partition("-")[2]


class PatchLevels(Record):
    """The recorded patches of one release, oldest first: the base (the release's own data, no
    differences) among them. Empty when no patch is known."""

    __slots__ = ("levels",)
    levels: tuple[PatchLevel, ...]

    def __init__(self, levels: tuple[PatchLevel, ...] = ()) -> None:
        set_field(self, "levels", levels)

    def names(self) -> tuple[str, ...]:
        return tuple(lv.name for lv in self.levels)

    def nearest(self, patch: int) -> PatchLevel | None:
        """The recorded patch ``patch``, else the newest recorded one before it, else None."""
        earlier = [lv for lv in self.levels if lv.number <= patch]
        return earlier[-1] if earlier else None


def _read_patch_levels(data_dir: Path, info: ReleaseInfo, bundle: Bundle | None = None) -> PatchLevels:
    base = (PatchLevel(info.patch, "v" + info.patch, (), ()),) if info.patch else ()
    if not info.patches_file:
        return PatchLevels(base)
    compiled = bundle.document(info.patches_file) if bundle is not None else None
    if compiled is not None:  # as parsed when the bundle was compiled: the same file, unchanged since
        return _parse_patch_levels(compiled, str(data_dir / info.patches_file), info, base)
    return read_data_file(
        data_dir / info.patches_file, "the patch levels", lambda doc, path: _parse_patch_levels(doc, path, info, base), max_bytes=MAX_LIST_BYTES
    )


def _parse_patch_levels(doc: object, path: str, info: ReleaseInfo, base: tuple[PatchLevel, ...]) -> PatchLevels:
    if not isinstance(doc, dict):
        raise KcompatError(f"{path}: malformed patch levels (expected a mapping with base and patches)")
    try:
        levels = tuple(
            PatchLevel(str(item["patch"]), str(item.get("kubernetes", "")), _frozen(item.get("gates") or ()), tuple(item.get("absent") or ()))
            for item in doc["patches"]
        )
        if not base or str(doc["base"]) != base[0].name:
            raise KcompatError(f"{path}: base {doc['base']} is not the release's patch {info.patch}")
        return PatchLevels(tuple(sorted(levels + base, key=lambda lv: lv.number)))
    except (KeyError, TypeError) as exc:
        raise KcompatError(f"{path}: malformed patch levels ({exc})") from None


class ComponentGates(Record):
    """How each other component's gate set differs from kube-apiserver's at the patch ``base``
    where both were recorded (features/components-v1.N.yaml): per component, the gates whose
    entry differs or that only it registers, and kube-apiserver's gates it does not register."""

    __slots__ = ("base", "differences")
    base: str  # "1.34.12"
    differences: Mapping[str, PatchLevel]

    def __init__(self, base: str, differences: Mapping[str, PatchLevel]) -> None:
        set_field(self, "base", base)
        set_field(self, "differences", differences)


def _read_component_gates(data_dir: Path, info: ReleaseInfo, bundle: Bundle | None = None) -> ComponentGates | None:
    if not info.components_file:
        return None
    compiled = bundle.document(info.components_file) if bundle is not None else None
    if compiled is not None:  # as parsed when the bundle was compiled: the same file, unchanged since
        return _parse_component_gates(compiled, str(data_dir / info.components_file))
    return read_data_file(data_dir / info.components_file, "the component gate sets", _parse_component_gates, max_bytes=MAX_LIST_BYTES)


def _parse_component_gates(doc: object, path: str) -> ComponentGates:
    try:
        if not isinstance(doc, dict):
            raise TypeError("expected a mapping with base and components")
        base = str(doc["base"])
        found = {}
        for item in doc["components"]:
            component = str(item["component"])
            if component not in OTHER_COMPONENTS:
                raise KcompatError(f"{path}: unknown component {component!r} (expected {', '.join(OTHER_COMPONENTS)})")
            found[component] = PatchLevel(base, str(doc.get("kubernetes", "")), _frozen(item.get("gates") or ()), tuple(item.get("absent") or ()))
        return ComponentGates(base, MappingProxyType(found))
    except (KeyError, TypeError, AttributeError) as exc:
        raise KcompatError(f"{path}: malformed component gate sets ({exc})") from None


def _apply_patch(base: Manifest, level: PatchLevel, registration: str, what: str = "patch") -> Manifest:
    """``base`` with the gates of ``level`` replaced, added or removed, checked as the binary would."""
    from kcompat.core.registration import (
        check_manifest_dependencies,
        merge_features,
        parse_manifest,
    )

    source = f"{what} {level.name} ({level.kubernetes})"
    items = [{k: _thawed(v) for k, v in g.items() if k != "origin"} for g in level.gates]
    parsed = parse_manifest(items, source, registration, check_dependencies=False)
    origins = {g["name"]: g.get("origin", "kube") for g in level.gates}
    changed = {f.name: f.replace(origin=origins[f.name]) for f in parsed}
    drop = set(level.absent)
    features = [changed.pop(f.name, f) for f in base.features if f.name not in drop]
    features += changed.values()
    manifest = merge_features(features, (*base.sources, source))
    check_manifest_dependencies(manifest.features, source)
    return manifest


def _release_info(compiled: dict[str, Any]) -> ReleaseInfo:
    """A release list entry as the compiled bundle holds it (lists where ReleaseInfo has tuples)."""
    fields: dict[str, Any] = {k: tuple(v) if k in _INFO_TUPLES else v for k, v in compiled.items()}
    return ReleaseInfo(**fields)


def _file_list(value: object) -> tuple[str, ...]:
    """A ``files:`` list of releases.yaml (empty when absent)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(f, str) for f in value):
        raise TypeError(f"files must be a list of paths, got {type(value).__name__}")
    return tuple(value)


_MISSING = object()


def _frozen(value: Any) -> Any:
    """``value`` (parsed YAML) made read-only all the way down: mappings as ``MappingProxyType``,
    lists as tuples. What the catalog keeps is shared by every session's thread: nothing in it
    can be changed by one of them."""
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def _thawed(value: Any) -> Any:
    """A plain copy of a :func:`_frozen` value (dicts and lists), for the parsers."""
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    return value


class Catalog(Record):
    """The bundled data of every release. Immutable, and safe to share between threads: every
    value it loads (the release list, each release, its patch levels and patched manifests, the
    API data, the gate descriptions) is built once, under the catalog's lock, and the same
    object is then handed to every caller; threads asking at the same time wait for the one
    building it instead of building it again, and none of them can change it."""

    __slots__ = ("_built", "_lock", "data_dir", "use_bundle")
    _uncompared = _derived = ("_built", "_lock")
    data_dir: Path
    #: read ``data_dir/bundle.json`` where it matches the YAML files (see :mod:`kcompat.data.bundle`)
    use_bundle: bool
    #: (kind, key) -> the value built once: "bundle", "releases", ("load", release), ("patches",
    #: release), ("patched", patch), ("components", release), ("component", component, patch),
    #: "api_data", "gate_info"
    _built: dict[object, Any]
    _lock: _thread.RLock

    def __init__(self, data_dir: Path = DATA_DIR, use_bundle: bool = True) -> None:
        set_field(self, "data_dir", data_dir)
        set_field(self, "use_bundle", use_bundle)
        set_field(self, "_built", {})
        set_field(self, "_lock", _thread.RLock())

    def _once(self, key: object, build: Callable[[], T]) -> T:
        """The value of ``key``, built by ``build`` the first time (one thread builds, the others
        wait for it; a build that raises is not kept)."""
        found = self._built.get(key, _MISSING)
        if found is _MISSING:
            with self._lock:
                found = self._built.get(key, _MISSING)
                if found is _MISSING:
                    found = build()
                    self._built[key] = found
        return found  # type: ignore[no-any-return]

    @property
    def bundle(self) -> Bundle | None:
        """The compiled bundle of ``data_dir``, or None (none, unreadable, or not wanted)."""
        return self._once("bundle", self._read_bundle)

    def _read_bundle(self) -> Bundle | None:
        if not self.use_bundle:
            return None
        from .bundle import read_bundle

        return read_bundle(self.data_dir)

    @property
    def releases(self) -> tuple[ReleaseInfo, ...]:
        return self._once("releases", self._read_releases)

    def _read_releases(self) -> tuple[ReleaseInfo, ...]:
        compiled = self.bundle.releases() if self.bundle is not None else None
        if compiled is None:
            return _read_releases(self.data_dir)
        return tuple(_release_info(item) for item in compiled)

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
        return self._once(("load", info.release), lambda: self._load(info))

    def _load(self, info: ReleaseInfo) -> ReleaseData:
        try:
            manifest = self.bundle.manifest(info) if self.bundle is not None else None
            if manifest is None:
                manifest = load_manifest_files(
                    [self.data_dir / f for f in info.feature_files],
                    registration=registration_for(info.version),
                    client_go_paths=[self.data_dir / f for f in info.client_go_files],
                )
            return ReleaseData(info, manifest)
        except KcompatError as exc:
            return ReleaseData(info, None, str(exc))

    def manifest(self, release: str) -> Manifest:
        data = self.load(release)
        if data.manifest is None:
            raise KcompatError(f"the bundled data for {data.info.release} cannot be used: {data.problem}")
        return data.manifest

    def patches(self, release: str) -> PatchLevels:
        """The recorded patch levels of ``release`` and how each differs from its base patch."""
        info = self.info(release)
        return self._once(("patches", info.release), lambda: _read_patch_levels(self.data_dir, info, self.bundle))

    def component_gates(self, release: str) -> ComponentGates | None:
        """How the other components' gate sets of ``release`` differ from kube-apiserver's, or None
        when they were not recorded."""
        info = self.info(release)
        return self._once(("components", info.release), lambda: _read_component_gates(self.data_dir, info, self.bundle))

    def component_releases(self) -> tuple[str, ...]:
        """The releases whose other components' gate sets are recorded."""
        return tuple(r.release for r in self.releases if r.components_file)

    def manifest_for(self, binary: Version, component: str = KUBE_APISERVER) -> tuple[Manifest, PatchNotRecorded | None]:
        """The gates ``component`` registers in a binary of version ``binary``, at its patch level
        where the data knows patches: ``1.35.2`` answers as v1.35.2 registered its gates, ``1.35``
        as the release's base patch. The second value says so when the patch is not recorded (the
        nearest earlier recorded patch answers), else None. Another component than kube-apiserver
        answers with that patch's gates and the component's recorded difference; a release without
        its recording raises :class:`~kcompat.core.errors.ComponentNotRecorded`."""
        manifest, note, level = self._apiserver_manifest_for(binary)
        if component == KUBE_APISERVER:
            return manifest, note
        release = f"{binary.major}.{binary.minor}"
        recorded = self.component_gates(release)
        difference = recorded.differences.get(component) if recorded is not None else None
        if difference is None:
            raise ComponentNotRecorded(component, release, self.component_releases())
        if not (difference.gates or difference.absent):
            return manifest, note
        registration = registration_for(self.info(release).version)
        return self._once(("component", component, level), lambda: _apply_patch(manifest, difference, registration, component)), note

    def _apiserver_manifest_for(self, binary: Version) -> tuple[Manifest, PatchNotRecorded | None, str]:
        """kube-apiserver's gates for :meth:`manifest_for`, its note, and the patch (or release) answered as."""
        release = f"{binary.major}.{binary.minor}"
        base = self.manifest(release)
        info = self.info(release)
        if len(binary.components) < 3:  # a plain release: its data, no patch file read
            return base, None, info.patch or release
        levels = self.patches(release)
        if not levels.levels:
            return base, None, release
        patch = binary.components[2]
        chosen = levels.nearest(patch)
        note = None
        # a pre-release is recorded only for a development release (v1.38.0-beta.0): then the binary's must be the same
        if chosen is None or chosen.number != patch or (chosen.pre_release and chosen.pre_release != binary.pre_release):
            # imported only here: not on the CLI's start-up path
            from kcompat.core.problems import PatchNotRecorded

            used = chosen.name if chosen is not None else info.patch or release
            pre = chosen is not None and bool(chosen.pre_release)
            asked = f"{release}.{patch}" + (f"-{binary.pre_release}" if pre and binary.pre_release else "")
            note = PatchNotRecorded(asked, levels.names(), used, pre)
        if chosen is None or not (chosen.gates or chosen.absent):
            return base, note, chosen.name if chosen is not None else info.patch or release
        registration = registration_for(info.version)
        return self._once(("patched", chosen.name), lambda: _apply_patch(base, chosen, registration)), note, chosen.name

    def all(self) -> tuple[ReleaseData, ...]:
        return tuple(self.load(r.release) for r in self.releases)

    def usable_releases(self) -> tuple[str, ...]:
        return tuple(d.info.release for d in self.all() if d.usable)

    def problems(self) -> tuple[tuple[str, str], ...]:
        return tuple((d.info.release, d.problem) for d in self.all() if d.problem)

    @property
    def api_data(self) -> ApiData:
        """The built-in API data of ``data_dir`` (:mod:`kcompat.data.apis`)."""
        from .apis import api_files

        return self._once("api_data", lambda: api_files(self.data_dir))

    @property
    def gate_info(self) -> Mapping[str, GateInfo]:
        return self._once("gate_info", lambda: MappingProxyType(load_gate_info(self.data_dir / "features" / "descriptions.yaml")))


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
    return read_data_file(path, "the gate descriptions", _parse_gate_info, max_bytes=MAX_LIST_BYTES, missing=dict)


def _parse_gate_info(doc: object, path: str) -> dict[str, GateInfo]:
    out: dict[str, GateInfo] = {}
    for item in doc if isinstance(doc, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        owners = item.get("owners") or []
        out[item["name"]] = GateInfo(
            name=item["name"],
            description=item.get("description") if isinstance(item.get("description"), str) else None,
            owners=tuple(str(o) for o in owners) if isinstance(owners, list) else (),
            kep=kep_link(item.get("kep")) if isinstance(item.get("kep"), str) else None,
            source=item.get("source") if isinstance(item.get("source"), str) else None,
        )
    return out


DEFAULT_CATALOG = Catalog()


def catalog_for(data_dir: Path | str | None) -> Catalog:
    """The catalog of ``data_dir``, the bundled one for None."""
    return DEFAULT_CATALOG if data_dir is None else Catalog(Path(data_dir))
