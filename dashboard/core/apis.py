"""Built-in API availability under emulation (SPEC §6).

:func:`evaluate_api_availability` answers, for a kube-apiserver binary emulating a version
with a ``--runtime-config`` value and the two forward-compatibility flags, which
group/version/kind of the binary's release is served and why. The pipeline is the
apiserver's (SPEC §6.2):

1. ``--runtime-config`` is read like ``ConfigurationMap.Set`` and the legacy core keys are
   rewritten (:func:`parse_runtime_config`), then checked like ``APIEnablementOptions.Validate``
   (:func:`validate_runtime_config`).
2. The binary's default lists are merged with it (``MergeAPIResourceConfigs``,
   :func:`merge_runtime_config`) and, with ``--emulation-forward-compatible``, widened
   (``EmulationForwardCompatibleResourceConfig``).
3. Storage exists for every resource of a listed group/version whose enablement is true;
   kinds removed at or before the emulated version are dropped (:func:`should_serve_removed`),
   then kinds introduced after it (SPEC §6.5), group by group from the lowest to the highest
   version priority (:func:`compare_kube_aware_versions`).

Entries are the REST resources of the binary's release: the kinds that the release's
k8s.io/client-go typed clients serve, with the plural and subresources those clients name
(``data/apis/resources``); List, options and subresource-body kinds are no entries. Each
entry also says whether a real binary of the emulated release (its own version, the same
``--runtime-config``) serves it (:attr:`ApiEntry.served_by_release`).

Modelling limits: every resource of a listed group/version is taken as having REST storage
in that binary (feature-gated storage is not modelled); the ``KUBE_APISERVER_*`` environment
variables are taken as unset.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from types import MappingProxyType

from .apis_data import (
    ApiKind,
    ApiRelease,
    DefaultEnablement,
    default_enablement_for,
    group_version_text,
    available_api_releases,
    load_api_release,
)
from .compat import ReleaseRules, VersionSelection, parse_binary_version, select_versions
from .errors import KcompatError, cut, quote_cut
from .flags import go_trim_space, parse_go_bool
from .versions import Version, mm

MAX_RUNTIME_CONFIG_LENGTH = 100_000
API_ALL, API_GA, API_BETA, API_ALPHA = "api/all", "api/ga", "api/beta", "api/alpha"
#: Processed in this order by ``MergeAPIResourceConfigs``; none of them is "explicit".
LEVEL_KEYS = (API_ALL, API_GA, API_BETA, API_ALPHA)
_LEVEL_PATTERNS = {
    API_ALL: re.compile(r".*", re.S),
    API_GA: re.compile(r"v[0-9]+"),
    API_BETA: re.compile(r"v[0-9]+beta[0-9]+"),
    API_ALPHA: re.compile(r"v[0-9]+alpha[0-9]+"),
}
_ALPHA_VERSION = re.compile(r"v[0-9]+alpha[0-9]+")
_KUBE_VERSION = re.compile(r"v([0-9]+)(?:(alpha|beta)([0-9]+))?")
_INT64_MAX = 2**63 - 1

#: Groups that k8s.io/api has but kube-apiserver does not register as REST APIs.
NON_REST_GROUPS = frozenset({"apidiscovery.k8s.io"})
#: Groups served by the delegated apiextensions-apiserver and kube-aggregator: known to
#: ``--runtime-config`` validation, not modelled here.
DELEGATED_GROUPS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"apiextensions.k8s.io": ("v1", "v1beta1"), "apiregistration.k8s.io": ("v1", "v1beta1")}
)

GV = tuple[str, str]
GVR = tuple[str, str, str]


# ---------------------------------------------------------------------------------------------
# Version priority (apimachinery ``pkg/version/helpers.go``, SPEC §6.6).


def _parse_kube_version(name: str) -> tuple[int, int, int] | None:
    """(type, major, minor) with type alpha=0, beta=1, GA=2; None if the name is not kube-like."""
    match = _KUBE_VERSION.fullmatch(name)
    if match is None:
        return None
    # digits bounded before int(): anything past int64's 19 digits is out of range anyway
    digits = match.group(1).lstrip("0") or "0"
    if len(digits) > 19 or int(digits) > _INT64_MAX:
        return None
    major = int(digits)
    kind = {"alpha": 0, "beta": 1, None: 2}[match.group(2)]
    minor = 0
    if kind != 2:
        digits = match.group(3).lstrip("0") or "0"
        if len(digits) > 19 or int(digits) > _INT64_MAX:
            return None
        minor = int(digits)
    return kind, major, minor


def compare_kube_aware_versions(a: str, b: str) -> int:
    """``CompareKubeAwareVersionStrings``: > 0 when ``a`` has the higher priority. GA above beta
    above alpha; within a class higher major, then higher minor; names that are not kube
    versions rank below all that are, and among themselves the alphabetically earlier wins."""
    if a == b:
        return 0
    pa, pb = _parse_kube_version(a), _parse_kube_version(b)
    if pa is None and pb is None:
        return (b > a) - (b < a)
    if pa is None:
        return -1
    if pb is None:
        return 1
    for x, y in zip(pa, pb):
        if x != y:
            return x - y
    return 0


def versions_by_priority(versions: Iterable[str]) -> list[str]:
    """Highest priority first."""
    return sorted(versions, key=functools.cmp_to_key(compare_kube_aware_versions), reverse=True)


def is_alpha_version(version: str) -> bool:
    return _ALPHA_VERSION.fullmatch(version) is not None


# ---------------------------------------------------------------------------------------------
# The registry: which groups/versions the binary's scheme knows.


@dataclass(frozen=True)
class ApiRegistry:
    """Group/versions registered in kube-apiserver's scheme (all of k8s.io/api of the release
    except :data:`NON_REST_GROUPS`), each group's versions highest priority first."""

    versions: Mapping[str, tuple[str, ...]]

    def is_group_registered(self, group: str) -> bool:
        return group in self.versions

    def is_version_registered(self, group: str, version: str) -> bool:
        return version in self.versions.get(group, ())

    def prioritized_versions(self, group: str) -> tuple[str, ...]:
        return self.versions.get(group, ())


def registry_for(api: ApiRelease) -> ApiRegistry:
    by_group: dict[str, list[str]] = {}
    for gv in api.group_versions:
        if gv.group in NON_REST_GROUPS:
            continue
        by_group.setdefault(gv.group, []).append(gv.version)
    return ApiRegistry(MappingProxyType({g: tuple(versions_by_priority(v)) for g, v in by_group.items()}))


# ---------------------------------------------------------------------------------------------
# --runtime-config (SPEC §6.3).


@dataclass(frozen=True)
class RuntimeConfig:
    """``--runtime-config`` after ``ConfigurationMap.Set`` (trimmed, last value of a key wins,
    first-mention order) and kube-apiserver's legacy core rewrite (``Complete``)."""

    items: tuple[tuple[str, str], ...]
    notes: tuple[str, ...] = ()

    def get(self, key: str) -> str | None:
        for k, v in self.items:
            if k == key:
                return v
        return None

    def keys(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)


def _is_legacy_core_key(key: str) -> bool:
    return key == "v1" or key.startswith("v1/") or key == "api/v1" or key.startswith("api/v1/")


def parse_runtime_config(flag_values: str | Sequence[str] | None) -> RuntimeConfig:
    """Read one or more ``--runtime-config`` values as kube-apiserver does.

    Items are comma-separated ``key=value`` or bare ``key`` (value ""), both trimmed; empty
    items are skipped; a repeated key keeps its last value. Then (kube-apiserver ``Complete``,
    pkg/controlplane/apiserver/options/options.go) ``api/legacy`` is dropped and every legacy
    core key -- ``v1``, ``v1/<anything>``, ``api/v1``, ``api/v1/<anything>`` -- becomes ``/v1``
    with its value, overriding an explicit ``/v1``. (So ``v1/pods=false`` switches the whole
    core group version; the notes say so.)"""
    if flag_values is None:
        flag_values = []
    elif isinstance(flag_values, str):
        flag_values = [flag_values]
    if not all(isinstance(v, str) for v in flag_values):
        raise KcompatError("--runtime-config values must be strings")
    total = sum(len(v) for v in flag_values)
    if total > MAX_RUNTIME_CONFIG_LENGTH:
        raise KcompatError(f"--runtime-config value is {total:,} characters, more than the limit of {MAX_RUNTIME_CONFIG_LENGTH:,}")
    raw: dict[str, str] = {}
    for value in flag_values:
        for item in value.split(","):
            if not item:
                continue
            key, sep, val = item.partition("=")
            raw[go_trim_space(key)] = go_trim_space(val) if sep else ""
    items: dict[str, str] = {}
    legacy: list[tuple[str, str]] = []
    notes: list[str] = []
    for key, val in raw.items():
        if key == "api/legacy":
            notes.append("--runtime-config api/legacy is ignored (kube-apiserver drops it)")
        elif _is_legacy_core_key(key):
            legacy.append((key, val))
        else:
            items[key] = val
    if legacy:
        if "/v1" in items and any(v != items["/v1"] for _, v in legacy):
            notes.append(f"--runtime-config /v1={items['/v1']} is overridden by the legacy core key {legacy[-1][0]}")
        if len({v for _, v in legacy}) > 1:
            spelled = ", ".join(f"{k}={v}" for k, v in legacy)
            notes.append(
                f"--runtime-config legacy core keys {spelled} all set /v1; kube-apiserver picks one in random map order, the last one is shown"
            )
        for key, val in legacy:
            if key not in ("v1", "api/v1"):
                notes.append(f"--runtime-config {key}: kube-apiserver rewrites it to /v1={val}, which switches the whole core group version, not one resource")
        items.setdefault("/v1", "")
        items["/v1"] = legacy[-1][1]
    return RuntimeConfig(tuple(items.items()), tuple(notes))


def _parse_group_version(text: str) -> GV:
    """``schema.ParseGroupVersion`` for ``tokens[0] + "/" + tokens[1]`` (always one slash)."""
    if text == "/":
        return "", ""
    group, _, version = text.partition("/")
    return group, version


def validate_runtime_config(config: RuntimeConfig, registry: ApiRegistry) -> list[str]:
    """``APIEnablementOptions.Validate`` (startup): only ``api/all=false``; keys with other than
    two or three path segments; groups no registry knows."""
    if config.get(API_ALL) == "false" and len(config.items) == 1:
        return [f"invalid runtime-config with only {API_ALL}=false"]
    groups: list[str] = []
    for key in config.keys():
        if key in LEVEL_KEYS:
            continue
        tokens = key.split("/")
        if len(tokens) not in (2, 3):
            return [f"runtime-config invalid key {cut(key)}"]
        groups.append(_parse_group_version(tokens[0] + "/" + tokens[1])[0])
    unknown = [g for g in groups if not registry.is_group_registered(g) and g not in DELEGATED_GROUPS]
    if unknown:
        return [f"unknown api groups {cut(','.join(unknown), 200)}"]
    return []


# ---------------------------------------------------------------------------------------------
# The resource configuration (apiserver ``pkg/server/storage/resource_config.go``).


class Origin(str, Enum):
    """Where an enablement setting came from."""

    DEFAULT_STABLE = "default-stable"
    DEFAULT_BETA = "default-beta"
    DEFAULT_ALPHA = "default-alpha"
    DEFAULT_LEGACY_BETA_RESOURCE = "default-legacy-beta-resource"
    RUNTIME_CONFIG = "runtime-config"
    FORWARD_COMPAT_WIDENING = "forward-compat-widening"


@dataclass(frozen=True)
class Setting:
    enabled: bool
    origin: Origin
    #: The runtime-config item (``key=value`` as given) or the group/version that widened it.
    source: str = ""


class _ResourceConfig:
    """A mutable mirror of ``ResourceConfig`` (private: built and read inside this module)."""

    def __init__(self) -> None:
        self.versions: dict[GV, Setting] = {}
        self.resources: dict[GVR, Setting] = {}
        self.explicit_versions: dict[GV, bool] = {}
        self.explicit_resources: dict[GVR, bool] = {}

    def set_versions(self, gvs: Iterable[GV], setting: Setting) -> None:
        """``EnableVersions``/``DisableVersions``: also drops resource settings under them."""
        for gv in gvs:
            self.versions[gv] = setting
            for gvr in [r for r in self.resources if r[:2] == gv]:
                del self.resources[gvr]

    def set_matching_versions(self, pattern: re.Pattern[str], setting: Setting) -> None:
        """``EnableMatchingVersions``/``DisableMatchingVersions`` over the group/versions present."""
        self.set_versions([gv for gv in self.versions if pattern.fullmatch(gv[1])], setting)

    def set_resource(self, gvr: GVR, setting: Setting) -> None:
        self.resources[gvr] = setting

    def resource_setting(self, gvr: GVR) -> Setting | None:
        """``ResourceEnabled``: an explicit resource setting wins, else its group/version's
        (None: the group/version is absent, which counts as disabled)."""
        if gvr in self.resources:
            return self.resources[gvr]
        return self.versions.get(gvr[:2])

    def resource_enabled(self, gvr: GVR) -> bool:
        setting = self.resource_setting(gvr)
        return setting is not None and setting.enabled

    def version_explicitly_enabled(self, gv: GV) -> bool:
        return self.explicit_versions.get(gv) is True

    def resource_explicitly_enabled(self, gvr: GVR) -> bool:
        return self.explicit_resources.get(gvr) is True


def _split_gv(text: str) -> GV:
    """A default-list entry (``v1`` for core, else ``group/version``) as (group, version)."""
    group, sep, version = text.rpartition("/")
    return (group, version) if sep else ("", text)


def default_config(enablement: DefaultEnablement) -> _ResourceConfig:
    """``DefaultAPIResourceConfigSource``: stable on, beta and alpha off, legacy beta resources on."""
    config = _ResourceConfig()
    config.set_versions([_split_gv(gv) for gv in enablement.stable], Setting(True, Origin.DEFAULT_STABLE))
    config.set_versions([_split_gv(gv) for gv in enablement.beta], Setting(False, Origin.DEFAULT_BETA))
    config.set_versions([_split_gv(gv) for gv in enablement.alpha], Setting(False, Origin.DEFAULT_ALPHA))
    for gv, resource in enablement.legacy_beta_resources:
        config.set_resource((*_split_gv(gv), resource), Setting(True, Origin.DEFAULT_LEGACY_BETA_RESOURCE))
    return config


@dataclass(frozen=True)
class _Preference:
    key: str
    item: str
    enabled: bool
    gv: GV
    resource: str | None


def _item_text(key: str, value: str) -> str:
    return f"{key}={value}" if value else key


def _version_and_resource_preferences(
    config: RuntimeConfig, registry: ApiRegistry, errors: list[str], notes: list[str] | None
) -> list[_Preference]:
    """The group/version and group/version/resource items of ``applyVersionAndResourcePreferences``."""
    prefs = []
    for key, value in config.items:
        if key in LEVEL_KEYS:
            continue
        tokens = key.split("/")
        if len(tokens) < 2 or len(tokens) > 3:
            continue
        gv = _parse_group_version(tokens[0] + "/" + tokens[1])
        group, version = gv
        if not registry.is_group_registered(group):
            if group in DELEGATED_GROUPS:
                if version not in DELEGATED_GROUPS[group]:
                    errors.append(f"group version {cut(group_version_text(group, version))} that has not been registered")
                elif notes is not None:
                    notes.append(f"--runtime-config {key} is applied by the {'apiextensions-apiserver' if group.startswith('apiextensions') else 'kube-aggregator'}; not modelled here")
            continue
        if not registry.is_version_registered(group, version):
            errors.append(f"group version {cut(group_version_text(group, version))} that has not been registered")
            continue
        if value == "":
            enabled = True
        else:
            parsed = parse_go_bool(value)
            if parsed is None:
                errors.append(f"invalid value of {cut(key)}: {cut(value)}, err: strconv.ParseBool: parsing {quote_cut(value)}: invalid syntax")
                continue
            enabled = parsed
        resource = None
        if len(tokens) == 3:
            resource = tokens[2]
            if resource.lower() != resource:
                errors.append(
                    f"invalid key {cut(key)}: group/version/resource and resource is always lowercase plural, not {quote_cut(resource)}"
                )
                continue
        prefs.append(_Preference(key, _item_text(key, value), enabled, gv, resource))
    return prefs


def _apply_preferences(target: _ResourceConfig, prefs: list[_Preference]) -> None:
    """Version settings first (they clear resource settings under them), then resources."""
    for p in prefs:
        if p.resource is None:
            target.set_versions([p.gv], Setting(p.enabled, Origin.RUNTIME_CONFIG, p.item))
            target.explicit_versions[p.gv] = p.enabled
    for p in prefs:
        if p.resource is not None:
            gvr = (*p.gv, p.resource)
            target.set_resource(gvr, Setting(p.enabled, Origin.RUNTIME_CONFIG, p.item))
            target.explicit_resources[gvr] = p.enabled


def merge_runtime_config(
    base: _ResourceConfig, config: RuntimeConfig, registry: ApiRegistry
) -> tuple[_ResourceConfig, list[str], list[str]]:
    """``MergeAPIResourceConfigs``: the level keys in the order all, ga, beta, alpha (values must
    be exactly ``true``/``false``), then group/version, then group/version/resource items.
    Returns (config, errors, notes); a bad item is reported and skipped (Go stops at the first)."""
    errors: list[str] = []
    notes: list[str] = []
    for key in LEVEL_KEYS:
        value = config.get(key)
        if value is None:
            continue
        if value not in ("true", "false"):
            errors.append(f"invalid value {key}={cut(value)}")
            continue
        base.set_matching_versions(_LEVEL_PATTERNS[key], Setting(value == "true", Origin.RUNTIME_CONFIG, f"{key}={value}"))
    prefs = _version_and_resource_preferences(config, registry, errors, notes)
    _apply_preferences(base, prefs)
    return base, errors, notes


def widen_for_forward_compatibility(
    merged: _ResourceConfig, config: RuntimeConfig, registry: ApiRegistry
) -> tuple[_ResourceConfig, list[str]]:
    """``EmulationForwardCompatibleResourceConfig`` (SPEC §6.5a): every higher-priority version
    of an enabled non-alpha group/version is enabled, likewise each enabled non-alpha resource
    in higher versions; then the explicit runtime-config items are applied again.

    Where kube-apiserver's outcome depends on Go map order (a higher version the defaults list
    as disabled), the widened value (enabled) is used and a note says so."""
    notes: list[str] = []
    ret = _ResourceConfig()
    ret.versions = dict(merged.versions)
    for gv, setting in merged.versions.items():
        if not setting.enabled or is_alpha_version(gv[1]):
            continue
        for higher in registry.prioritized_versions(gv[0]):
            if higher == gv[1]:
                break
            target = (gv[0], higher)
            current = merged.versions.get(target)
            if current is not None and current.enabled:
                continue
            if current is not None and not current.enabled and target not in _explicit_gvs(config, registry):
                notes.append(
                    f"--emulation-forward-compatible: {group_version_text(*target)} is disabled by {_origin_text(current)} and widened "
                    f"from {group_version_text(*gv)}; kube-apiserver applies the two in random map order, shown as enabled"
                )
            ret.versions[target] = Setting(True, Origin.FORWARD_COMPAT_WIDENING, group_version_text(*gv))
    ret.resources = dict(merged.resources)
    for gvr, setting in merged.resources.items():
        if not setting.enabled or is_alpha_version(gvr[1]):
            continue
        for higher in registry.prioritized_versions(gvr[0]):
            if higher == gvr[1]:
                break
            target = (gvr[0], higher, gvr[2])
            if target in merged.resources and merged.resources[target].enabled:
                continue
            ret.resources[target] = Setting(True, Origin.FORWARD_COMPAT_WIDENING, f"{group_version_text(gvr[0], gvr[1])} {gvr[2]}")
    _apply_preferences(ret, _version_and_resource_preferences(config, registry, [], None))
    return ret, notes


def _explicit_gvs(config: RuntimeConfig, registry: ApiRegistry) -> set[GV]:
    return {p.gv for p in _version_and_resource_preferences(config, registry, [], None) if p.resource is None}


def _origin_text(setting: Setting) -> str:
    if setting.origin is Origin.RUNTIME_CONFIG:
        return f"--runtime-config {setting.source}"
    return "the default lists"


# ---------------------------------------------------------------------------------------------
# Removal and introduced rules (apiserver ``pkg/server/deleted_kinds.go``, SPEC §6.4-§6.5).


def is_alpha_binary(binary: Version) -> bool:
    """The evaluator's ``isAlpha``: the binary's pre-release mentions "alpha"."""
    return "alpha" in binary.pre_release


def should_serve_removed(removed: Version | None, emulated: Version, binary: Version) -> bool:
    """``ShouldServeForVersion`` with current = emulated and pre-release flags from the binary
    (environment variables unset): removed after emu -> served; before -> not; equal -> only
    on an alpha pre-release binary."""
    if removed is None:
        return True
    removed_mm, current = mm(removed), mm(emulated)
    if removed_mm > current:
        return True
    if removed_mm < current:
        return False
    return is_alpha_binary(binary)


# ---------------------------------------------------------------------------------------------
# Results.


class Reason(str, Enum):
    """Why an API kind is served or not."""

    GA_ENABLED_BY_DEFAULT = "ga-enabled-by-default"
    LEGACY_BETA_ENABLED_BY_DEFAULT = "legacy-beta-enabled-by-default"
    BETA_OFF_BY_DEFAULT = "beta-off-by-default"
    ALPHA_OFF_BY_DEFAULT = "alpha-off-by-default"
    ENABLED_BY_RUNTIME_CONFIG = "enabled-by-runtime-config"
    DISABLED_BY_RUNTIME_CONFIG = "disabled-by-runtime-config"
    PULLED_IN_BY_FORWARD_COMPATIBILITY = "pulled-in-by-forward-compatibility"
    INTRODUCED_AFTER_EMULATED = "introduced-after-emulated-version"
    REMOVED_AT_OR_BEFORE_EMULATED = "removed-at-or-before-emulated-version"
    SERVED_UNTIL_REMOVAL = "served-removed-only-after-emulated-version"
    SERVED_REMOVED_ALPHA_BINARY = "served-removed-at-emulated-version-alpha-binary"
    KEPT_BY_EMULATION_FORWARD_COMPATIBLE = "kept-by-emulation-forward-compatible"
    KEPT_BY_RUNTIME_CONFIG_FORWARD_COMPATIBLE = "kept-by-runtime-config-emulation-forward-compatible"
    NOT_IN_DEFAULT_LISTS = "not-in-default-lists"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ApiEntry:
    group: str
    version: str
    kind: str
    resource: str
    stage: str
    served: bool
    reason: Reason
    detail: str
    introduced: Version | None = None
    removed: Version | None = None
    subresources: tuple[str, ...] = ()
    #: whether a real binary of the emulated release (its own version, the same
    #: ``--runtime-config``) serves this entry; None when that release has no bundled data
    served_by_release: bool | None = None

    @property
    def group_version(self) -> str:
        return group_version_text(self.group, self.version)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.group, self.version, self.kind)

    @property
    def differs_from_release(self) -> bool:
        """Served here but not by the real release, or the other way round."""
        return self.served_by_release is not None and self.served_by_release != self.served


@dataclass(frozen=True)
class ApiAvailability:
    """Every group/version/kind of the binary's release data at the emulated version."""

    binary: Version
    emulated: Version
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    entries: tuple[ApiEntry, ...]
    default_enablement_release: Version
    default_enablement_source: str
    runtime_config: tuple[str, ...] = ()
    emulation_forward_compatible: bool = False
    runtime_config_emulation_forward_compatible: bool = False
    data_dir: str | None = field(default=None, compare=False)

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def default_enablement_exact(self) -> bool:
        """Whether the default lists used are the binary release's own."""
        return self.default_enablement_release == mm(self.binary)

    def served(self) -> tuple[ApiEntry, ...]:
        return tuple(e for e in self.entries if e.served)

    def served_keys(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(e.key for e in self.entries if e.served)

    def served_group_versions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.group_version for e in self.entries if e.served))

    def entry(self, group: str, version: str, kind: str) -> ApiEntry | None:
        for e in self.entries:
            if e.key == (group, version, kind):
                return e
        return None

    def resource_served(self, group: str, version: str, resource: str) -> bool:
        return any(e.served and (e.group, e.version, e.resource) == (group, version, resource) for e in self.entries)

    def differences_from_release(self) -> tuple[ApiEntry, ...]:
        """Entries whose answer differs from what a real binary of the emulated release serves."""
        return tuple(e for e in self.entries if e.differs_from_release)

    def compared_with_binary(self) -> ApiDiff:
        """See :func:`compare_with_binary`."""
        return compare_with_binary(self)


@dataclass(frozen=True)
class ApiDiff:
    """Served sets at the emulated version against the same binary at its own version (same
    ``--runtime-config``, no forward-compatibility flags)."""

    baseline: ApiAvailability
    #: served while emulating, not served by the binary at its own version
    enabled: tuple[ApiEntry, ...]
    #: served by the binary at its own version, not while emulating
    removed: tuple[ApiEntry, ...]


# ---------------------------------------------------------------------------------------------
# The evaluation.


@dataclass
class _KindState:
    kind: ApiKind
    has_storage: bool
    setting: Setting | None
    removed_ok: bool = True
    introduced_ok: bool = True
    kept_by: Reason | None = None
    kept_note: str = ""


def evaluate_api_availability(
    binary: Version | str,
    emulated: str | Sequence[str] | None = None,
    runtime_config: str | Sequence[str] | None = None,
    emulation_forward_compatible: bool = False,
    runtime_config_emulation_forward_compatible: bool = False,
    *,
    min_compat: str | Sequence[str] | None = None,
    data_dir: Path | str | None = None,
    compare_with_release: bool = True,
) -> ApiAvailability:
    """Which built-in APIs a kube-apiserver ``binary`` serves with ``--emulated-version``,
    ``--runtime-config`` and the forward-compatibility flags (SPEC §6.2-§6.7).

    Bad flag values come back as ``errors`` (the messages kube-apiserver prints); only input
    that is not a flag value at all (a binary that is no version, a binary without bundled
    data, a non-string) raises :class:`KcompatError`."""
    binary_version = parse_binary_version(binary) if isinstance(binary, str) else binary
    if not isinstance(binary_version, Version):
        raise KcompatError(f"binary must be a version, got {type(binary).__name__}")
    selection = select_versions(binary_version, list(emulated) if isinstance(emulated, (list, tuple)) else emulated, min_compat)
    rules = selection.rules
    release = mm(binary_version)
    api = load_api_release(release, data_dir)
    choice = default_enablement_for(release, data_dir)
    registry = registry_for(api)
    rc_values = [runtime_config] if isinstance(runtime_config, str) else list(runtime_config or [])
    config = parse_runtime_config(rc_values)
    emu = selection.emulated

    errors: list[str] = list(selection.errors)
    warnings: list[str] = []
    if choice.warning:
        warnings.append(choice.warning)
        warnings.extend(_new_group_versions_note(api, choice.enablement, data_dir))
    warnings.extend(config.notes)
    efc, rcefc = _forward_compat_flags(rules, selection, emulation_forward_compatible, runtime_config_emulation_forward_compatible, errors)
    errors.extend(validate_runtime_config(config, registry))

    merged, merge_errors, merge_notes = merge_runtime_config(default_config(choice.enablement), config, registry)
    errors.extend(merge_errors)
    warnings.extend(merge_notes)
    if efc:
        merged, widen_notes = widen_for_forward_compatibility(merged, config, registry)
        warnings.extend(widen_notes)

    listed = {_split_gv(gv) for gv in choice.enablement.listed_group_versions()}
    states = _filter_kinds(api, registry, merged, listed, binary_version, emu, rules, efc, rcefc, errors)
    warnings.extend(_alpha_while_emulating_warnings(api, merged, binary_version, emu, rules))
    entries = tuple(_entry_for(s, emu, binary_version, choice.enablement) for s in states)
    if compare_with_release:
        release_served, release_warnings = _served_by_release(binary_version, emu, rc_values, entries, data_dir)
        warnings.extend(release_warnings)
        entries = tuple(replace(e, served_by_release=release_served(e)) for e in entries)
    return ApiAvailability(
        binary=binary_version,
        emulated=emu,
        errors=tuple(dict.fromkeys(errors)),
        warnings=tuple(dict.fromkeys(warnings)),
        entries=entries,
        default_enablement_release=choice.enablement.release,
        default_enablement_source=choice.enablement.source_id,
        runtime_config=tuple(rc_values),
        emulation_forward_compatible=emulation_forward_compatible,
        runtime_config_emulation_forward_compatible=runtime_config_emulation_forward_compatible,
        data_dir=str(data_dir) if data_dir is not None else None,
    )


def _served_by_release(
    binary: Version, emu: Version, runtime_config: list[str], entries: Sequence[ApiEntry], data_dir: Path | str | None
) -> tuple[Callable[[ApiEntry], bool | None], list[str]]:
    """What a real binary of the emulated release serves with the same ``--runtime-config``
    (``servedByRelease``). The same binary release answers for itself; a release without
    bundled data answers None; a release that would refuse the ``--runtime-config`` serves
    nothing (False, and a warning says why)."""
    if mm(binary) == mm(emu):
        return (lambda e: e.served), []
    if mm(emu) not in available_api_releases(data_dir):
        return (lambda e: None), [f"no bundled API data for Kubernetes {mm(emu)}: servedByRelease is null"]
    try:
        release = evaluate_api_availability(mm(emu), None, runtime_config, data_dir=data_dir, compare_with_release=False)
    except KcompatError as exc:
        return (lambda e: None), [f"cannot evaluate a real {mm(emu)} binary with this --runtime-config ({exc}): servedByRelease is null"]
    if release.errors:
        return (lambda e: False), [
            f"a real {mm(emu)} binary would refuse this --runtime-config ({'; '.join(release.errors)}): it serves nothing"
        ]
    served = release.served_keys()
    return (lambda e: e.key in served), []


def compare_with_binary(availability: ApiAvailability) -> ApiDiff:
    """What emulation changes: the same binary and ``--runtime-config`` at the binary's own
    version (forward-compatibility flags dropped: they are rejected there) against the result."""
    baseline = evaluate_api_availability(
        availability.binary, None, list(availability.runtime_config), data_dir=availability.data_dir, compare_with_release=False
    )
    at_emu, at_bin = availability.served_keys(), baseline.served_keys()
    enabled = tuple(e for e in availability.entries if e.served and e.key not in at_bin)
    removed = tuple(e for e in baseline.entries if e.served and e.key not in at_emu)
    return ApiDiff(baseline, enabled, removed)


def _forward_compat_flags(
    rules: ReleaseRules, selection: VersionSelection, efc: bool, rcefc: bool, errors: list[str]
) -> tuple[bool, bool]:
    """Which forward-compatibility flags take effect; rejections go to ``errors``."""
    flags = (("emulation-forward-compatible", "EmulationForwardCompatible", efc), ("runtime-config-emulation-forward-compatible", "RuntimeConfigEmulationForwardCompatible", rcefc))
    if not rules.has_forward_compat_flags:
        for flag, _, on in flags:
            if on:
                errors.append(f"unknown flag: --{flag} (a {rules.release} binary has no such flag; it exists from 1.33)")
        return False, False
    if selection.binary is not None and selection.emulated == mm(selection.binary):
        for _, name, on in flags:
            if on:
                errors.append(f"ServerRunOptions.{name} cannot be set to true if the emulation version is the same as the binary version")
        return False, False
    return efc, rcefc


def _filter_kinds(
    api: ApiRelease,
    registry: ApiRegistry,
    config: _ResourceConfig,
    listed: set[GV],
    binary: Version,
    emu: Version,
    rules: ReleaseRules,
    efc: bool,
    rcefc: bool,
    errors: list[str],
) -> list[_KindState]:
    """Storage, removal filter, then introduced filter per group (lowest priority first)."""
    ordered: list[_KindState] = []
    for group in sorted(api.groups(), key=lambda g: (g != "", g)):
        by_version = {gv.version: gv for gv in api.versions_of(group)}
        priority = versions_by_priority(by_version)
        group_states: dict[str, list[_KindState]] = {}
        for version in priority:
            gv = by_version[version]
            states = []
            for kind in gv.kinds:
                if kind.resource is None:
                    continue  # not a REST resource of its own (List, options, subresource bodies)
                gvr = (group, version, kind.resource)
                storage = (group, version) in listed and group not in NON_REST_GROUPS
                state = _KindState(kind, storage, config.resource_setting(gvr))
                state.removed_ok = should_serve_removed(kind.removed, emu, binary)
                states.append(state)
            group_states[version] = states
        _apply_introduced_rule(group, priority, group_states, config, emu, rules, efc, rcefc, errors)
        for version in priority:
            ordered.extend(group_states[version])
    return ordered


def _in_storage(state: _KindState) -> bool:
    return state.has_storage and state.setting is not None and state.setting.enabled


def _apply_introduced_rule(
    group: str,
    priority: list[str],
    group_states: dict[str, list[_KindState]],
    config: _ResourceConfig,
    emu: Version,
    rules: ReleaseRules,
    efc: bool,
    rcefc: bool,
    errors: list[str],
) -> None:
    """``removeUnintroducedKinds`` (1.33+; 1.31/1.32 simply drop later kinds)."""
    lower_enabled: dict[str, str] = {}
    for version in reversed(priority):
        present = [s for s in group_states[version] if _in_storage(s) and s.removed_ok]
        if not present:
            continue
        kept_any = False
        for state in present:
            kind = state.kind
            gvr = (group, version, kind.resource)
            introduced = kind.introduced_or_zero
            if mm(emu) >= mm(introduced):
                keep = True
            elif not rules.has_forward_compat_flags:
                keep = False
            elif efc and kind.resource in lower_enabled:
                keep = True
                state.kept_by = Reason.KEPT_BY_EMULATION_FORWARD_COMPATIBLE
                state.kept_note = lower_enabled[kind.resource]
            elif rcefc and (config.resource_explicitly_enabled(gvr) or config.version_explicitly_enabled((group, version))):
                keep = True
                state.kept_by = Reason.KEPT_BY_RUNTIME_CONFIG_FORWARD_COMPATIBLE
                state.kept_note = state.setting.source if state.setting else ""
            else:
                keep = False
                if config.resource_explicitly_enabled(gvr):
                    errors.append(
                        f"cannot enable resource {group}/{version}, Resource={kind.resource} in runtime-config because it is introduced at "
                        f"{mm(introduced)} after the current version {mm(emu)}. Consider setting --runtime-config-emulation-forward-compatible=true"
                    )
            state.introduced_ok = keep
            if keep:
                kept_any = True
                if not is_alpha_version(version):
                    lower_enabled[kind.resource] = group_version_text(group, version)
        if not kept_any and rules.has_forward_compat_flags and config.version_explicitly_enabled((group, version)):
            errors.append(
                f"cannot enable version {group_version_text(group, version)} in runtime-config because all the resources have been "
                f"introduced after the current version {mm(emu)}. Consider setting --runtime-config-emulation-forward-compatible=true"
            )


def _alpha_while_emulating_warnings(
    api: ApiRelease, config: _ResourceConfig, binary: Version, emu: Version, rules: ReleaseRules
) -> list[str]:
    """1.34+ ``ApplyTo``: an explicitly enabled alpha group/version or resource while binary != emu."""
    if not rules.warns_alpha_while_emulating or mm(binary) == mm(emu):
        return []
    out = []
    binary_text = _binary_text(binary)
    for gv in api.group_versions:
        if gv.group in NON_REST_GROUPS or "alpha" not in gv.version:
            continue
        key = (gv.group, gv.version)
        resource_on = any(on and r[:2] == key for r, on in config.explicit_resources.items())
        if config.version_explicitly_enabled(key) or resource_on:
            out.append(
                f"alpha api enabled with emulated version {mm(emu)} instead of the binary's version {binary_text}, "
                f"this is unsupported, proceed at your own risk: api={gv.name}"
            )
    return out


def _binary_text(binary: Version) -> str:
    """The binary as ``version.Version.String()`` prints a build version (always x.y.z)."""
    if len(binary.components) >= 3:
        return str(binary)
    return str(Version((binary.major, binary.minor, 0), binary.semver, binary.pre_release, binary.build_metadata))


def _new_group_versions_note(api: ApiRelease, used: DefaultEnablement, data_dir: Path | str | None) -> list[str]:
    try:
        previous = load_api_release(used.release, data_dir)
    except KcompatError:
        return []
    old = {(gv.group, gv.version) for gv in previous.group_versions}
    new = [gv.name for gv in api.group_versions if (gv.group, gv.version) not in old and gv.group not in NON_REST_GROUPS]
    if not new:
        return []
    return [f"group/versions new in {api.release} without a default in the {used.release} list (shown as not served): {', '.join(new)}"]


# ---------------------------------------------------------------------------------------------
# Reasons.


def _entry_for(state: _KindState, emu: Version, binary: Version, enablement: DefaultEnablement) -> ApiEntry:
    kind = state.kind
    served, reason, detail = _decide(state, emu, binary, enablement)
    return ApiEntry(
        group=kind.group,
        version=kind.version,
        kind=kind.kind,
        resource=kind.resource or "",
        stage=kind.stage,
        served=served,
        reason=reason,
        detail=detail,
        introduced=kind.introduced,
        removed=kind.removed,
        subresources=kind.subresources,
    )


def _decide(state: _KindState, emu: Version, binary: Version, enablement: DefaultEnablement) -> tuple[bool, Reason, str]:
    kind = state.kind
    gv = kind.group_version
    if not state.has_storage:
        return False, Reason.NOT_IN_DEFAULT_LISTS, (
            f"{gv} is in none of the {enablement.release} kube-apiserver API lists: no REST storage, not served"
        )
    if not state.removed_ok:
        return False, Reason.REMOVED_AT_OR_BEFORE_EMULATED, f"removed in {kind.removed}, at or before the emulated version {mm(emu)}"
    setting = state.setting
    if setting is None or not setting.enabled:
        reason, detail = _disabled_reason(kind, setting)
        if mm(kind.introduced_or_zero) > mm(emu):
            detail += f"; introduced in {kind.introduced}, after the emulated version {mm(emu)}"
        return False, reason, detail
    if not state.introduced_ok:
        return False, Reason.INTRODUCED_AFTER_EMULATED, f"introduced in {kind.introduced}, after the emulated version {mm(emu)}"
    if state.kept_by is Reason.KEPT_BY_EMULATION_FORWARD_COMPATIBLE:
        return True, state.kept_by, (
            f"introduced in {kind.introduced}, after the emulated version {mm(emu)}; served by --emulation-forward-compatible "
            f"because {kind.resource} is served in the lower-priority {state.kept_note}"
        )
    if state.kept_by is Reason.KEPT_BY_RUNTIME_CONFIG_FORWARD_COMPATIBLE:
        return True, state.kept_by, (
            f"introduced in {kind.introduced}, after the emulated version {mm(emu)}; served by "
            f"--runtime-config-emulation-forward-compatible because --runtime-config {state.kept_note} enables it explicitly"
        )
    enabled_reason, enabled_detail = _enabled_reason(setting)
    if kind.removed is not None and mm(kind.removed) == mm(emu):
        return True, Reason.SERVED_REMOVED_ALPHA_BINARY, (
            f"removed in {kind.removed}, the emulated version, but still served because the binary {binary} is an alpha pre-release; {enabled_detail}"
        )
    if kind.removed is not None and mm(kind.removed) <= mm(binary):
        return True, Reason.SERVED_UNTIL_REMOVAL, (
            f"still served: removed only in {kind.removed}, after the emulated version {mm(emu)} "
            f"(not served by this binary at its own version); {enabled_detail}"
        )
    return True, enabled_reason, enabled_detail


def _enabled_reason(setting: Setting) -> tuple[Reason, str]:
    if setting.origin is Origin.DEFAULT_STABLE:
        return Reason.GA_ENABLED_BY_DEFAULT, "enabled by default (GA group/version in the default list)"
    if setting.origin is Origin.DEFAULT_LEGACY_BETA_RESOURCE:
        return Reason.LEGACY_BETA_ENABLED_BY_DEFAULT, "enabled by default (legacy beta resource list)"
    if setting.origin is Origin.FORWARD_COMPAT_WIDENING:
        return Reason.PULLED_IN_BY_FORWARD_COMPATIBILITY, (
            f"enabled by --emulation-forward-compatible because the lower-priority {setting.source} is enabled"
        )
    return Reason.ENABLED_BY_RUNTIME_CONFIG, f"enabled by --runtime-config {setting.source}"


def _disabled_reason(kind: ApiKind, setting: Setting | None) -> tuple[Reason, str]:
    if setting is not None and setting.origin is Origin.RUNTIME_CONFIG:
        return Reason.DISABLED_BY_RUNTIME_CONFIG, f"disabled by --runtime-config {setting.source}"
    key = f"{kind.group}/{kind.version}" if kind.group else f"/{kind.version}"
    if kind.stage == "alpha" or (setting is not None and setting.origin is Origin.DEFAULT_ALPHA):
        return Reason.ALPHA_OFF_BY_DEFAULT, f"alpha, off by default (enable with --runtime-config={key}=true)"
    return Reason.BETA_OFF_BY_DEFAULT, f"{kind.stage}, off by default (enable with --runtime-config={key}=true)"


__all__ = [
    "ApiAvailability",
    "ApiDiff",
    "ApiEntry",
    "ApiRegistry",
    "Reason",
    "RuntimeConfig",
    "compare_kube_aware_versions",
    "compare_with_binary",
    "evaluate_api_availability",
    "is_alpha_binary",
    "merge_runtime_config",
    "parse_runtime_config",
    "registry_for",
    "should_serve_removed",
    "validate_runtime_config",
    "versions_by_priority",
]
