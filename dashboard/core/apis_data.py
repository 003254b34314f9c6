"""The bundled built-in API data: loading and validating ``data/apis`` (SPEC §6.1, SOURCES §4, §8).

Two kinds of files:

* ``v1.3x.yaml``: every group/version/kind of k8s.io/api at one release tag with its
  prerelease-lifecycle data (introduced, deprecated, removed, replacement). List kinds
  (``isList: true``) are not resources of their own and are skipped when loading.
* ``default-enablement.yaml``: kube-apiserver's ``DefaultAPIResourceConfigSource`` lists
  (stable on, beta off, alpha off, legacy beta resources on). Only snapshots whose
  ``release`` is a plain ``major.minor`` belong to a release; the free-text snapshots are
  kept in the file for provenance and are not used for a release.

Everything loaded is frozen; loaders are cached per (release, data directory).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import KcompatError
from .manifest import read_yaml_text
from .versions import Version, major_minor, mm, parse_version

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "data"
DEFAULT_ENABLEMENT_FILE = "default-enablement.yaml"
STAGES = ("GA", "beta", "alpha")
_RELEASE_RE = re.compile(r"[0-9]+\.[0-9]+")
_API_FILE_RE = re.compile(r"v([0-9]+\.[0-9]+)\.yaml")
MAX_API_FILE_BYTES = 8 * 1024 * 1024

#: Kinds of core/v1 that are request/response options or internal types, not REST resources.
_CORE_NON_RESOURCE_KINDS = frozenset(
    {
        "List",
        "NodeProxyOptions",
        "PodAttachOptions",
        "PodExecOptions",
        "PodLogOptions",
        "PodPortForwardOptions",
        "PodProxyOptions",
        "PodStatusResult",
        "RangeAllocation",
        "SerializedReference",
        "ServiceProxyOptions",
    }
)
#: Kinds that are the body of a subresource of another resource (any group they appear in).
_SUBRESOURCE_BODY_KINDS = {
    "Scale": "<workload>/scale",
    "Eviction": "pods/eviction",
    "TokenRequest": "serviceaccounts/token",
    "DeploymentRollback": "deployments/rollback",
}


def guess_resource(kind: str) -> str:
    """The plural resource name of a kind, DERIVED with Kubernetes' own
    ``meta.UnsafeGuessKindToResource`` rule (k8s.io/api has no plural names): lowercase the
    kind; a name ending in "endpoints" stays as is; ending in "s" gets "es"; ending in "y"
    becomes "ies"; anything else gets "s". (``Ingress`` -> ``ingresses``, ``NetworkPolicy``
    -> ``networkpolicies``, ``Endpoints`` -> ``endpoints``, ``ServiceCIDR`` -> ``servicecidrs``.)"""
    if not kind:
        return ""
    singular = kind.lower()
    if singular.endswith("endpoints"):
        return singular
    if singular.endswith("s"):
        return singular + "es"
    if singular.endswith("y"):
        return singular[:-1] + "ies"
    return singular + "s"


def group_version_text(group: str, version: str) -> str:
    """``schema.GroupVersion.String()``: ``v1`` for the core group, else ``group/version``."""
    return f"{group}/{version}" if group else version


@dataclass(frozen=True)
class ApiKind:
    """One kind of one group/version with its prerelease lifecycle (None where the type has
    no such function). ``resource`` is derived (see :func:`guess_resource`)."""

    group: str
    version: str
    kind: str
    stage: str
    introduced: Version | None
    deprecated: Version | None
    removed: Version | None
    replacement: str | None

    @property
    def group_version(self) -> str:
        return group_version_text(self.group, self.version)

    @property
    def resource(self) -> str:
        """Plural resource name, derived with ``UnsafeGuessKindToResource`` (not from k8s.io/api)."""
        return guess_resource(self.kind)

    @property
    def introduced_or_zero(self) -> Version:
        """What the apiserver compares: a type without ``introduced`` counts as 0.0."""
        return self.introduced if self.introduced is not None else major_minor(0, 0)

    @property
    def is_rest_resource(self) -> bool:
        return not_a_resource_note(self.group, self.kind) is None


def not_a_resource_note(group: str, kind: str) -> str | None:
    """Why a registered kind is not a REST resource of its group/version (None if it is one)."""
    if group == "" and kind in _CORE_NON_RESOURCE_KINDS:
        return f"{kind} is an options/internal type of core v1, not a REST resource"
    if kind in _SUBRESOURCE_BODY_KINDS:
        return f"{kind} is the body of the {_SUBRESOURCE_BODY_KINDS[kind]} subresource, not a resource of its own"
    return None


@dataclass(frozen=True)
class GroupVersion:
    group: str
    version: str
    stage: str
    kinds: tuple[ApiKind, ...]
    has_lifecycle_file: bool = True

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


def resolve_data_dir(data_dir: Path | str | None) -> Path:
    return Path(data_dir) if data_dir is not None else DATA_DIR


def available_api_releases(data_dir: Path | str | None = None) -> tuple[Version, ...]:
    """Releases with a bundled ``apis/v1.3x.yaml``, oldest first."""
    folder = resolve_data_dir(data_dir) / "apis"
    found = []
    try:
        names = [p.name for p in folder.iterdir()]
    except OSError as exc:
        raise KcompatError(f"{folder}: cannot list the API data: {exc.strerror or exc}") from None
    for name in names:
        match = _API_FILE_RE.fullmatch(name)
        if match:
            found.append(parse_version(match.group(1)))
    return tuple(sorted(found))


def load_api_release(release: Version | str, data_dir: Path | str | None = None) -> ApiRelease:
    """k8s.io/api of one release (major.minor of the given version)."""
    version = mm(parse_version(release) if isinstance(release, str) else release)
    return _load_api_release_cached(f"{version.major}.{version.minor}", str(resolve_data_dir(data_dir)))


@functools.lru_cache(maxsize=32)
def _load_api_release_cached(release: str, data_dir: str) -> ApiRelease:
    path = Path(data_dir) / "apis" / f"v{release}.yaml"
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        have = ", ".join(str(v) for v in available_api_releases(data_dir)) or "none"
        raise KcompatError(f"no bundled API data for Kubernetes {release} (available: {have})") from None
    except OSError as exc:
        raise KcompatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return parse_api_release(read_yaml_text(raw, str(path), MAX_API_FILE_BYTES), str(path), release)


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


def _parse_group_version(item: dict, where: str) -> GroupVersion:
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
            )
        )
    return GroupVersion(group, version, stage, tuple(kinds), bool(item.get("lifecycleFile", True)))


def load_default_enablements(data_dir: Path | str | None = None) -> tuple[DefaultEnablement, ...]:
    """The per-release default-enablement snapshots (``release: '1.3x'``), oldest first."""
    return _load_enablements_cached(str(resolve_data_dir(data_dir)))


@functools.lru_cache(maxsize=8)
def _load_enablements_cached(data_dir: str) -> tuple[DefaultEnablement, ...]:
    path = Path(data_dir) / "apis" / DEFAULT_ENABLEMENT_FILE
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise KcompatError(f"{path}: cannot read the default API enablement: {exc.strerror or exc}") from None
    return parse_default_enablements(read_yaml_text(raw, str(path)), str(path))


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


def default_enablement_for(release: Version | str, data_dir: Path | str | None = None) -> EnablementChoice:
    """The default lists of a binary's release; without an entry for that release, the nearest
    earlier release's lists together with a warning saying so (never silently)."""
    wanted = mm(parse_version(release) if isinstance(release, str) else release)
    entries = load_default_enablements(data_dir)
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


# ---------------------------------------------------------------------------------------------
# Field helpers.


def _mapping(value: object, where: str) -> dict:
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
