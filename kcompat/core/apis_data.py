"""The built-in API data: its model and the validation of ``data/apis`` documents (SPEC §6.1,
SOURCES §4, §8). Nothing here reads a file: :class:`ApiData` is what the evaluators ask for a
release's data, and :mod:`kcompat.data.apis` answers it from the files.

The files:

* ``v1.3x.yaml``: every group/version/kind of k8s.io/api at one release tag with its
  prerelease-lifecycle data (introduced, deprecated, removed, replacement). List kinds
  (``isList: true``) are not resources of their own and are skipped when loading.
* ``resources/v1.3x.yaml``: the REST resources of each release (plural and subresources) as
  the generated typed clients of k8s.io/client-go at the release tag name them; a kind
  without an entry there is no resource of its own.
* ``storage-overrides.yaml``: kube-apiserver's per-resource storage-version overrides.
* ``default-enablement.yaml``: kube-apiserver's ``DefaultAPIResourceConfigSource`` lists
  (stable on, beta off, alpha off, legacy beta resources on). Only snapshots whose
  ``release`` is a plain ``major.minor`` belong to a release; the free-text snapshots are
  kept in the file for provenance and are not used for a release.

* ``scheme-priority.yaml``: each group's versions in kube-apiserver's scheme, highest priority first.

Everything parsed is frozen.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from .errors import KcompatError
from .versions import Version, major_minor, mm, parse_version

_RESOURCE_RE = re.compile(r"[a-z0-9]+")
STAGES = ("GA", "beta", "alpha")
_RELEASE_RE = re.compile(r"[0-9]+\.[0-9]+")

def group_version_text(group: str, version: str) -> str:
    """``schema.GroupVersion.String()``: ``v1`` for the core group, else ``group/version``."""
    return f"{group}/{version}" if group else version


#: What an API answer says where the release data has no lifecycle for a kind (its package has no
#: prerelease-lifecycle file): never a guess.
NOT_RECORDED = "not recorded"


def replacement_text(replacement: str | None) -> str | None:
    """``flowcontrol.apiserver.k8s.io/v1/FlowSchema`` (the data's form) as ``flowcontrol.apiserver.k8s.io/v1 FlowSchema``."""
    if not replacement:
        return None
    group_version, _, kind = replacement.rpartition("/")
    return f"{group_version} {kind}" if group_version else kind


@dataclass(frozen=True)
class Lifecycle:
    """A kind's deprecation facts as the release data gives them (``APILifecycleDeprecated``,
    ``APILifecycleRemoved``, ``APILifecycleReplacement`` of k8s.io/api's generated
    prerelease-lifecycle code). ``recorded`` False: the kind's package has no such file, and each
    fact is "not recorded"; recorded, a None is a fact of the data: not deprecated, no removal set,
    no replacement named."""

    deprecated: Version | None
    removed: Version | None
    #: ``group/version/Kind`` as the data writes it
    replacement: str | None
    recorded: bool = True

    def deprecated_text(self) -> str:
        if not self.recorded:
            return NOT_RECORDED
        return str(self.deprecated) if self.deprecated is not None else "not deprecated"

    def removed_text(self) -> str:
        if not self.recorded:
            return NOT_RECORDED
        return str(self.removed) if self.removed is not None else "no removal set"

    def replacement_text(self) -> str:
        if not self.recorded:
            return NOT_RECORDED
        return replacement_text(self.replacement) or "none named"

    def text(self, emulated: Version | None = None) -> str:
        """``deprecated in 1.29 (deprecated at the emulated 1.31), removed in 1.32, replaced by
        flowcontrol.apiserver.k8s.io/v1 FlowSchema``; ``lifecycle not recorded``; ``not deprecated``."""
        if not self.recorded:
            return f"lifecycle {NOT_RECORDED}"
        if self.deprecated is None and self.removed is None and self.replacement is None:
            return "not deprecated"
        parts = []
        if self.deprecated is not None:
            at = ""
            if emulated is not None:
                already = (self.deprecated.major, self.deprecated.minor) <= (emulated.major, emulated.minor)
                at = f" ({'deprecated' if already else 'not yet deprecated'} at the emulated {mm(emulated)})"
            parts.append(f"deprecated in {self.deprecated}{at}")
        else:
            parts.append("not deprecated")
        parts.append(f"removed in {self.removed}" if self.removed is not None else "no removal set")
        if self.replacement:
            parts.append(f"replaced by {replacement_text(self.replacement)}")
        return ", ".join(parts)

    def document(self) -> dict[str, str | None]:
        """The JSON fields: ``deprecatedIn``, ``removedIn``, ``replacement`` (null: not deprecated,
        no removal set, none named; or not recorded, as ``lifecycleRecorded`` says)."""
        return {
            "deprecatedIn": str(self.deprecated) if self.deprecated is not None else None,
            "removedIn": str(self.removed) if self.removed is not None else None,
            "replacement": replacement_text(self.replacement),
        }


@dataclass(frozen=True)
class ApiKind:
    """One kind of one group/version with its prerelease lifecycle (None where the type has
    no such function) and, for a REST resource, its plural ``resource`` and ``subresources``
    as the release's k8s.io/client-go typed client names them (``apis/resources/v1.N.yaml``);
    ``resource`` is None for kinds that are no resource of their own (List, options types,
    subresource bodies such as Scale or Eviction)."""

    group: str
    version: str
    kind: str
    stage: str
    introduced: Version | None
    deprecated: Version | None
    removed: Version | None
    replacement: str | None
    resource: str | None = None
    subresources: tuple[str, ...] = ()
    #: the feature gate without which kube-apiserver installs no REST storage for it (pkg/registry)
    storage_gate: str | None = None
    #: False when the binary has no REST storage for it at all (no recorded run ever served it)
    storage_code: bool = True
    #: (subresource, gate): subresources installed only while that gate is on
    subresource_gates: tuple[tuple[str, str], ...] = ()
    #: a List kind (``FooList``): written to the files by ``kcompat data refresh``, dropped when
    #: they are read (no resource of its own)
    is_list: bool = False
    #: False when its package has no prerelease-lifecycle file (``lifecycleFile: false``): its
    #: deprecation facts are not recorded
    lifecycle_recorded: bool = True

    @property
    def lifecycle(self) -> Lifecycle:
        return Lifecycle(self.deprecated, self.removed, self.replacement, self.lifecycle_recorded)

    @property
    def group_version(self) -> str:
        return group_version_text(self.group, self.version)

    @property
    def introduced_or_zero(self) -> Version:
        """What the apiserver compares: a type without ``introduced`` counts as 0.0."""
        return self.introduced if self.introduced is not None else major_minor(0, 0)

    @property
    def is_rest_resource(self) -> bool:
        return self.resource is not None


@dataclass(frozen=True)
class GroupVersion:
    group: str
    version: str
    stage: str
    kinds: tuple[ApiKind, ...]
    has_lifecycle_file: bool = True
    #: the package of k8s.io/api that defines it (``apps/v1``, ``core/v1``)
    directory: str = ""

    @property
    def name(self) -> str:
        return group_version_text(self.group, self.version)


@dataclass(frozen=True)
class ApiRelease:
    """k8s.io/api at one release: its group/versions (list kinds dropped)."""

    release: Version
    status: str
    source: str
    group_versions: tuple[GroupVersion, ...]

    def groups(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for gv in self.group_versions:
            seen.setdefault(gv.group, None)
        return tuple(seen)

    def versions_of(self, group: str) -> tuple[GroupVersion, ...]:
        return tuple(gv for gv in self.group_versions if gv.group == group)

    def find(self, group: str, version: str) -> GroupVersion | None:
        for gv in self.group_versions:
            if gv.group == group and gv.version == version:
                return gv
        return None

    def kinds(self) -> tuple[ApiKind, ...]:
        return tuple(k for gv in self.group_versions for k in gv.kinds)


@dataclass(frozen=True)
class DefaultEnablement:
    """``DefaultAPIResourceConfigSource`` of one release (group/versions as ``group/version``,
    the core group written ``v1``; legacy beta resources as (group/version, resource))."""

    release: Version
    source_id: str
    repository: str
    commit: str
    stable: tuple[str, ...]
    beta: tuple[str, ...]
    alpha: tuple[str, ...]
    legacy_beta_resources: tuple[tuple[str, str], ...]
    note: str = ""

    def listed_group_versions(self) -> frozenset[str]:
        return frozenset(self.stable) | frozenset(self.beta) | frozenset(self.alpha) | frozenset(gv for gv, _ in self.legacy_beta_resources)


@dataclass(frozen=True)
class EnablementChoice:
    """The default-enablement list used for a binary release, and whether it is that release's own."""

    requested: Version
    enablement: DefaultEnablement
    warning: str | None

    @property
    def exact(self) -> bool:
        return self.warning is None


@dataclass(frozen=True)
class ResourceNames:
    """The REST resources of one release: (group, version, kind) -> (plural, subresources)."""

    release: str
    source: str
    names: Mapping[tuple[str, str, str], tuple[str, tuple[str, ...], str | None, bool, tuple[tuple[str, str], ...]]]


def parse_api_resources(document: object, source: str, expected_release: str | None = None) -> ResourceNames:
    """Validate one ``apis/resources/v1.N.yaml`` document; every problem names the file and the entry."""
    doc = _mapping(document, source)
    release = _release_field(doc.get("release"), f"{source}: release")
    if expected_release is not None and f"{release.major}.{release.minor}" != expected_release:
        raise KcompatError(f"{source}: release is {release}, but the file name says {expected_release}")
    items = doc.get("groupVersions")
    if not isinstance(items, list):
        raise KcompatError(f"{source}: groupVersions must be a list")
    names: dict[tuple[str, str, str], tuple[str, tuple[str, ...], str | None, bool, tuple[tuple[str, str], ...]]] = {}
    for index, item in enumerate(items):
        where = f"{source}: groupVersions[{index}]"
        gv = _mapping(item, where)
        group, version = gv.get("group"), gv.get("version")
        if not isinstance(group, str) or not isinstance(version, str) or not version:
            raise KcompatError(f"{where}: group must be a string and version a non-empty string")
        resources = gv.get("resources")
        if not isinstance(resources, list):
            raise KcompatError(f"{where}: resources must be a list")
        for r_index, r_item in enumerate(resources):
            r_where = f"{where} ({group_version_text(group, version)}) resources[{r_index}]"
            r = _mapping(r_item, r_where)
            kind, plural, subs = r.get("kind"), r.get("resource"), r.get("subresources", [])
            gate, storage, sub_gates = r.get("gate"), r.get("storage", True), r.get("subresourceGates") or {}
            if (gate is not None and (not isinstance(gate, str) or not gate)) or not isinstance(storage, bool):
                raise KcompatError(f"{r_where}: gate must be a gate name and storage true or false")
            if not isinstance(kind, str) or not kind or not isinstance(plural, str) or not _RESOURCE_RE.fullmatch(plural):
                raise KcompatError(f"{r_where}: kind must be a non-empty string and resource a lowercase plural")
            if not isinstance(subs, list) or not all(isinstance(x, str) and _RESOURCE_RE.fullmatch(x) for x in subs):
                raise KcompatError(f"{r_where} ({kind}): subresources must be a list of lowercase names")
            if not isinstance(sub_gates, dict) or not all(isinstance(k, str) and isinstance(v, str) and k in subs for k, v in sub_gates.items()):
                raise KcompatError(f"{r_where}: subresourceGates must map listed subresources to gate names")
            names[(group, version, kind)] = (plural, tuple(subs), gate, storage, tuple(sorted(sub_gates.items())))
    src = doc.get("source")
    source_text = ""
    if isinstance(src, dict):
        source_text = " ".join(str(src.get(k)) for k in ("repository", "tag", "commit") if src.get(k))
    return ResourceNames(f"{release.major}.{release.minor}", source_text, MappingProxyType(names))


def with_resources(api: ApiRelease, names: ResourceNames) -> ApiRelease:
    """``api`` with each kind's REST resource name and subresources filled in from ``names``."""
    group_versions = []
    for gv in api.group_versions:
        kinds = []
        for k in gv.kinds:
            found = names.names.get((k.group, k.version, k.kind))
            kinds.append(
                replace(k, resource=found[0], subresources=found[1], storage_gate=found[2], storage_code=found[3], subresource_gates=found[4])
                if found else k
            )
        group_versions.append(replace(gv, kinds=tuple(kinds)))
    return replace(api, group_versions=tuple(group_versions))


def parse_api_release(document: object, source: str, expected_release: str | None = None) -> ApiRelease:
    """Validate one ``apis/v1.3x.yaml`` document; every problem names the file and the entry."""
    doc = _mapping(document, source)
    release = _release_field(doc.get("release"), f"{source}: release")
    if expected_release is not None and f"{release.major}.{release.minor}" != expected_release:
        raise KcompatError(f"{source}: release is {release}, but the file name says {expected_release}")
    items = doc.get("groupVersions")
    if not isinstance(items, list):
        raise KcompatError(f"{source}: groupVersions must be a list")
    group_versions = []
    seen: set[tuple[str, str]] = set()
    for index, item in enumerate(items):
        where = f"{source}: groupVersions[{index}]"
        gv = _parse_group_version(_mapping(item, where), where)
        if (gv.group, gv.version) in seen:
            raise KcompatError(f"{where}: {gv.name} is listed twice")
        seen.add((gv.group, gv.version))
        group_versions.append(gv)
    src = doc.get("source")
    source_text = ""
    if isinstance(src, dict):
        source_text = " ".join(str(src.get(k)) for k in ("repository", "tag", "commit") if src.get(k))
    return ApiRelease(release, str(doc.get("status") or ""), source_text, tuple(group_versions))


def _parse_group_version(item: dict[object, object], where: str) -> GroupVersion:
    group = item.get("group")
    version = item.get("version")
    if not isinstance(group, str) or not isinstance(version, str) or not version:
        raise KcompatError(f"{where}: group must be a string and version a non-empty string")
    stage = item.get("stage")
    if stage not in STAGES:
        raise KcompatError(f"{where} ({group_version_text(group, version)}): stage must be one of {', '.join(STAGES)}, got {stage!r}")
    kinds_raw = item.get("kinds")
    if not isinstance(kinds_raw, list):
        raise KcompatError(f"{where} ({group_version_text(group, version)}): kinds must be a list")
    kinds = []
    recorded = bool(item.get("lifecycleFile", True))
    for k_index, k_item in enumerate(kinds_raw):
        k_where = f"{where} ({group_version_text(group, version)}) kinds[{k_index}]"
        k = _mapping(k_item, k_where)
        name = k.get("kind")
        if not isinstance(name, str) or not name:
            raise KcompatError(f"{k_where}: kind must be a non-empty string")
        is_list = k.get("isList", False)
        if not isinstance(is_list, bool):
            raise KcompatError(f"{k_where} ({name}): isList must be true or false")
        if is_list:
            continue  # List kinds are not separate resources.
        replacement = k.get("replacement")
        if replacement is not None and not isinstance(replacement, str):
            raise KcompatError(f"{k_where} ({name}): replacement must be a string or null")
        kinds.append(
            ApiKind(
                group=group,
                version=version,
                kind=name,
                stage=stage,
                introduced=_optional_release(k.get("introduced"), f"{k_where} ({name}): introduced"),
                deprecated=_optional_release(k.get("deprecated"), f"{k_where} ({name}): deprecated"),
                removed=_optional_release(k.get("removed"), f"{k_where} ({name}): removed"),
                replacement=replacement,
                lifecycle_recorded=recorded,
            )
        )
    return GroupVersion(group, version, stage, tuple(kinds), recorded, str(item.get("directory") or ""))


def parse_default_enablements(document: object, source: str) -> tuple[DefaultEnablement, ...]:
    doc = _mapping(document, source)
    items = doc.get("snapshots")
    if not isinstance(items, list):
        raise KcompatError(f"{source}: snapshots must be a list")
    found: dict[Version, DefaultEnablement] = {}
    for index, item in enumerate(items):
        where = f"{source}: snapshots[{index}]"
        snap = _mapping(item, where)
        release_text = snap.get("release")
        if not isinstance(release_text, str) or not _RELEASE_RE.fullmatch(release_text.strip()):
            continue  # a provenance-only snapshot (free-text release): not a release's list
        release = parse_version(release_text.strip())
        ident = snap.get("id")
        if not isinstance(ident, str) or not ident:
            raise KcompatError(f"{where}: id must be a non-empty string")
        where = f"{source}: snapshot {ident}"
        if release in found:
            raise KcompatError(f"{where}: a second list for release {release} (also {found[release].source_id})")
        found[release] = DefaultEnablement(
            release=release,
            source_id=ident,
            repository=str(snap.get("repository") or ""),
            commit=str(snap.get("commit") or ""),
            stable=_gv_list(snap.get("stableEnabledByDefault"), f"{where}: stableEnabledByDefault"),
            beta=_gv_list(snap.get("betaDisabledByDefault"), f"{where}: betaDisabledByDefault"),
            alpha=_gv_list(snap.get("alphaDisabledByDefault"), f"{where}: alphaDisabledByDefault"),
            legacy_beta_resources=_legacy_resources(snap.get("legacyBetaResourcesEnabledByDefault"), f"{where}: legacyBetaResourcesEnabledByDefault"),
            note=str(snap.get("note") or ""),
        )
    return tuple(found[r] for r in sorted(found))


# ---------------------------------------------------------------------------------------------
# Field helpers.


def _mapping(value: object, where: str) -> dict[object, object]:
    if not isinstance(value, dict):
        raise KcompatError(f"{where}: expected a mapping, got {type(value).__name__}")
    return value


def _release_field(value: object, where: str) -> Version:
    if not isinstance(value, str) or not _RELEASE_RE.fullmatch(value):
        raise KcompatError(f"{where}: must be a 'major.minor' string, got {value!r}")
    return parse_version(value)


def _optional_release(value: object, where: str) -> Version | None:
    if value is None:
        return None
    return _release_field(value, where)


def _gv_list(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise KcompatError(f"{where}: must be a list of group/version strings")
    return tuple(dict.fromkeys(v.strip() for v in value))


def _legacy_resources(value: object, where: str) -> tuple[tuple[str, str], ...]:
    """Entries are ``group/version resource`` optionally followed by a comment in parentheses."""
    out = []
    for text in _gv_list(value, where):
        parts = text.split()
        if len(parts) < 2 or "/" not in parts[0] or not re.fullmatch(r"[a-z0-9.-]+", parts[1]):
            raise KcompatError(f"{where}: {text!r} is not 'group/version resource'")
        out.append((parts[0], parts[1]))
    return tuple(out)


@dataclass(frozen=True)
class StorageOverrides:
    """kube-apiserver's per-resource storage versions of one release
    (kubernetes ``pkg/kubeapiserver/default_storage_factory_builder.go``, the
    ``ResourceEncodingOverrides`` list), and where the list was read."""

    release: Version
    #: (group, version, resource) exactly as the Go source names them
    entries: tuple[tuple[str, str, str], ...]
    provenance: str

    def version_for(self, group: str, resource: str) -> str | None:
        for g, v, r in self.entries:
            if (g, r) == (group, resource):
                return v
        return None


def _release_entries(document: object, source: str) -> Iterator[tuple[str, dict[object, object], Version, str]]:
    """Each entry of a ``releases:`` list as (where, entry, release, provenance)."""
    items = _mapping(document, source).get("releases")
    if not isinstance(items, list):
        raise KcompatError(f"{source}: releases must be a list")
    for index, item in enumerate(items):
        where = f"{source}: releases[{index}]"
        entry = _mapping(item, where)
        release = _release_field(entry.get("release"), f"{where}: release")
        provenance = " ".join(str(entry.get(k)) for k in ("repository", "commit", "path") if entry.get(k))
        yield where, entry, release, provenance


def parse_storage_overrides(document: object, source: str) -> tuple[StorageOverrides, ...]:
    out = []
    for where, entry, release, provenance in _release_entries(document, source):
        entries = []
        for text in _gv_list(entry.get("overrides"), f"{where}: overrides"):
            parts = text.split()
            if len(parts) != 2 or not _RESOURCE_RE.fullmatch(parts[1]):
                raise KcompatError(f"{where}: {text!r} is not 'group/version resource'")
            group, version = parts[0].rpartition("/")[0], parts[0].rpartition("/")[2]
            entries.append((group, version, parts[1]))
        out.append(StorageOverrides(release, tuple(entries), provenance))
    return tuple(out)


@dataclass(frozen=True)
class SchemePriority:
    """Each group's registered versions in kube-apiserver's scheme, highest priority first
    (kubernetes ``pkg/apis/<group>/install/install.go`` ``SetVersionPriority``), and where read."""

    release: Version
    groups: Mapping[str, tuple[str, ...]]
    provenance: str


def parse_scheme_priority(document: object, source: str) -> tuple[SchemePriority, ...]:
    out = []
    for where, entry, release, provenance in _release_entries(document, source):
        groups = _mapping(entry.get("groups"), f"{where}: groups")
        parsed: dict[str, tuple[str, ...]] = {}
        for group, versions in groups.items():
            if not isinstance(group, str) or not isinstance(versions, list) or not versions or not all(
                isinstance(v, str) and _RESOURCE_RE.fullmatch(v) for v in versions
            ):
                raise KcompatError(f"{where}: group {group!r} must map to a non-empty list of versions")
            parsed[group] = tuple(versions)
        out.append(SchemePriority(release, MappingProxyType(parsed), provenance))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# What the evaluators read.


def release_of(release: Version | str) -> Version:
    """The major.minor release of a version or version text ("1.33.2" -> 1.33)."""
    return mm(parse_version(release) if isinstance(release, str) else release)


class ApiData:
    """The API data of every release, as the evaluators ask for it (:mod:`kcompat.core.apis`,
    :mod:`kcompat.core.storage`, the hints). A reader supplies the five methods that raise
    ``NotImplementedError`` here (:class:`kcompat.data.apis.ApiFiles` reads ``data/apis``); the
    choice of a release's entry is made here, the same for every reader."""

    def api_releases(self) -> tuple[Version, ...]:
        """The releases with API data, oldest first."""
        raise NotImplementedError

    def api_release(self, release: Version | str) -> ApiRelease:
        """k8s.io/api of one release (the major.minor of ``release``), with its REST resources;
        KcompatError when there is none."""
        raise NotImplementedError

    def default_enablements(self) -> tuple[DefaultEnablement, ...]:
        """The per-release default-enablement lists, oldest first."""
        raise NotImplementedError

    def storage_overrides(self) -> tuple[StorageOverrides, ...]:
        """The per-release storage-version overrides (empty when there are none)."""
        raise NotImplementedError

    def scheme_priorities(self) -> tuple[SchemePriority, ...]:
        """The per-release scheme version priorities (empty when there are none)."""
        raise NotImplementedError

    def default_enablement_for(self, release: Version | str) -> EnablementChoice:
        """The default lists of a binary's release; without an entry for that release, the nearest
        earlier release's lists together with a warning saying so (never silently)."""
        wanted = release_of(release)
        entries = self.default_enablements()
        for entry in entries:
            if entry.release == wanted:
                return EnablementChoice(wanted, entry, None)
        earlier = [e for e in entries if e.release < wanted]
        if not earlier:
            have = ", ".join(str(e.release) for e in entries) or "none"
            raise KcompatError(f"no default API enablement list for Kubernetes {wanted} or any earlier release (available: {have})")
        used = earlier[-1]
        warning = (
            f"no default API enablement list for Kubernetes {wanted} is bundled; using the {used.release} list "
            f"({used.source_id}) instead, so defaults of group/versions new in {wanted} are unknown"
        )
        return EnablementChoice(wanted, used, warning)

    def storage_overrides_for(self, release: Version | str) -> StorageOverrides | None:
        """The overrides of one release, or None when there is no entry for it."""
        wanted = release_of(release)
        return next((entry for entry in self.storage_overrides() if entry.release == wanted), None)

    def scheme_priority_for(self, release: Version | str) -> SchemePriority | None:
        """The scheme's version priority of one release, or None when there is none for it."""
        wanted = release_of(release)
        return next((entry for entry in self.scheme_priorities() if entry.release == wanted), None)
