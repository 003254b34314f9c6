"""``--runtime-config`` and the resource configuration it builds (SPEC §6.3): parsing like
``ConfigurationMap.Set`` with kube-apiserver's legacy core rewrite, validation like
``APIEnablementOptions.Validate`` against the binary's scheme, the merge with the binary's
default lists (``MergeAPIResourceConfigs``) and the forward-compatible widening
(``EmulationForwardCompatibleResourceConfig``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from .api_versions import is_alpha_version, versions_by_priority
from .apis_data import (
    ApiRelease,
    DefaultEnablement,
    group_version_text,
)
from .errors import KcompatError
from .flags import go_trim_space, parse_go_bool
from .problems import (
    GroupVersionNotRegistered,
    OnlyApiAllFalse,
    Problem,
    RuntimeConfigInvalidBool,
    RuntimeConfigInvalidKey,
    RuntimeConfigInvalidLevel,
    RuntimeConfigResourceNotLowercase,
    UnknownApiGroups,
)

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
    raw = _read_items(flag_values)
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
        notes += _legacy_notes(items, legacy)
        items["/v1"] = legacy[-1][1]
    return RuntimeConfig(tuple(items.items()), tuple(notes))


def _read_items(flag_values: str | Sequence[str] | None) -> dict[str, str]:
    """``ConfigurationMap.Set`` over every value: comma-separated items, trimmed; the last of a
    repeated key wins."""
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
    return raw


def _legacy_notes(items: dict[str, str], legacy: list[tuple[str, str]]) -> list[str]:
    """What the rewrite of the legacy core keys to ``/v1`` means for these items."""
    notes = []
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
    return notes


def _parse_group_version(text: str) -> GV:
    """``schema.ParseGroupVersion`` for ``tokens[0] + "/" + tokens[1]`` (always one slash)."""
    if text == "/":
        return "", ""
    group, _, version = text.partition("/")
    return group, version


def validate_runtime_config(
    config: RuntimeConfig, registry: ApiRegistry, group_versions: bool = True, noun: str = "runtime-config"
) -> list[Problem]:
    """``APIEnablementOptions.Validate`` (startup): only ``api/all=false`` ("invalid ``noun`` with
    only ..."); keys with other than two or three path segments; groups no registry knows, named
    as sorted unique group/versions (1.36+, ``group_versions``) or as bare groups in the order
    given (before)."""
    if config.get(API_ALL) == "false" and len(config.items) == 1:
        return [OnlyApiAllFalse(API_ALL, noun)]
    groups: list[tuple[str, str]] = []
    for key, _ in config.items:
        if key in LEVEL_KEYS:
            continue
        tokens = key.split("/")
        if len(tokens) not in (2, 3):
            return [RuntimeConfigInvalidKey(key)]
        group, version = _parse_group_version(tokens[0] + "/" + tokens[1])
        groups.append((group, version))
    unknown = [(g, v) for g, v in groups if not registry.is_group_registered(g) and g not in DELEGATED_GROUPS]
    if unknown:
        names = sorted({f"{g}/{v}" if g else v for g, v in unknown}) if group_versions else [g for g, _ in unknown]
        return [UnknownApiGroups(tuple(names))]
    return []


# ---------------------------------------------------------------------------------------------
# The resource configuration (apiserver ``pkg/server/storage/resource_config.go``).


class Origin(StrEnum):
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


class ResourceConfig:
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

    def version_explicitly_enabled(self, gv: GV) -> bool:
        return self.explicit_versions.get(gv) is True

    def resource_explicitly_enabled(self, gvr: GVR) -> bool:
        return self.explicit_resources.get(gvr) is True


def split_group_version(text: str) -> GV:
    """A default-list entry (``v1`` for core, else ``group/version``) as (group, version)."""
    group, sep, version = text.rpartition("/")
    return (group, version) if sep else ("", text)


def default_config(enablement: DefaultEnablement) -> ResourceConfig:
    """``DefaultAPIResourceConfigSource``: stable on, beta and alpha off, legacy beta resources on."""
    config = ResourceConfig()
    config.set_versions([split_group_version(gv) for gv in enablement.stable], Setting(True, Origin.DEFAULT_STABLE))
    config.set_versions([split_group_version(gv) for gv in enablement.beta], Setting(False, Origin.DEFAULT_BETA))
    config.set_versions([split_group_version(gv) for gv in enablement.alpha], Setting(False, Origin.DEFAULT_ALPHA))
    for gv, resource in enablement.legacy_beta_resources:
        config.set_resource((*split_group_version(gv), resource), Setting(True, Origin.DEFAULT_LEGACY_BETA_RESOURCE))
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
    config: RuntimeConfig, registry: ApiRegistry, errors: list[Problem], notes: list[str] | None
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
        if not _registered(key, gv, registry, errors, notes):
            continue
        enabled = parse_go_bool(value) if value != "" else True
        if enabled is None:
            errors.append(RuntimeConfigInvalidBool(key, value))
            continue
        resource = tokens[2] if len(tokens) == 3 else None
        if resource is not None and resource.lower() != resource:
            errors.append(RuntimeConfigResourceNotLowercase(key, resource))
            continue
        prefs.append(_Preference(key, _item_text(key, value), enabled, gv, resource))
    return prefs


def _registered(key: str, gv: GV, registry: ApiRegistry, errors: list[Problem], notes: list[str] | None) -> bool:
    """Whether the item's group/version is the binary's own to set; a group another server of the
    control plane serves (apiextensions, kube-aggregator) is noted, an unknown version refused."""
    group, version = gv
    if registry.is_group_registered(group):
        if registry.is_version_registered(group, version):
            return True
        errors.append(GroupVersionNotRegistered(group_version_text(group, version)))
        return False
    if group in DELEGATED_GROUPS:
        if version not in DELEGATED_GROUPS[group]:
            errors.append(GroupVersionNotRegistered(group_version_text(group, version)))
        elif notes is not None:
            server = "apiextensions-apiserver" if group.startswith("apiextensions") else "kube-aggregator"
            notes.append(f"--runtime-config {key} is applied by the {server}; not modelled here")
    return False


def _apply_preferences(target: ResourceConfig, prefs: list[_Preference]) -> None:
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
    base: ResourceConfig, config: RuntimeConfig, registry: ApiRegistry
) -> tuple[ResourceConfig, list[Problem], list[str]]:
    """``MergeAPIResourceConfigs``: the level keys in the order all, ga, beta, alpha (values must
    be exactly ``true``/``false``), then group/version, then group/version/resource items.
    Returns (config, errors, notes); a bad item is reported and skipped (Go stops at the first)."""
    errors: list[Problem] = []
    notes: list[str] = []
    for key in LEVEL_KEYS:
        value = config.get(key)
        if value is None:
            continue
        if value not in ("true", "false"):
            errors.append(RuntimeConfigInvalidLevel(key, value))
            continue
        base.set_matching_versions(_LEVEL_PATTERNS[key], Setting(value == "true", Origin.RUNTIME_CONFIG, f"{key}={value}"))
    prefs = _version_and_resource_preferences(config, registry, errors, notes)
    _apply_preferences(base, prefs)
    return base, errors, notes


def widen_for_forward_compatibility(
    merged: ResourceConfig, config: RuntimeConfig, registry: ApiRegistry
) -> tuple[ResourceConfig, list[str]]:
    """``EmulationForwardCompatibleResourceConfig`` (SPEC §6.5a): every higher-priority version
    of an enabled non-alpha group/version is enabled, likewise each enabled non-alpha resource
    in higher versions; then the explicit runtime-config items are applied again.

    Where kube-apiserver's outcome depends on Go map order (a higher version the defaults list
    as disabled), the widened value (enabled) is used and a note says so."""
    notes: list[str] = []
    ret = ResourceConfig()
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
            if current is not None and not current.enabled and target not in explicit_group_versions(config, registry):
                notes.append(
                    f"--emulation-forward-compatible: {group_version_text(*target)} is disabled by {origin_text(current)} and widened "
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
            target_resource = (gvr[0], higher, gvr[2])
            if target_resource in merged.resources and merged.resources[target_resource].enabled:
                continue
            ret.resources[target_resource] = Setting(True, Origin.FORWARD_COMPAT_WIDENING, f"{group_version_text(gvr[0], gvr[1])} {gvr[2]}")
    _apply_preferences(ret, _version_and_resource_preferences(config, registry, [], None))
    return ret, notes


def explicit_group_versions(config: RuntimeConfig, registry: ApiRegistry) -> set[GV]:
    return {p.gv for p in _version_and_resource_preferences(config, registry, [], None) if p.resource is None}


def origin_text(setting: Setting) -> str:
    if setting.origin is Origin.RUNTIME_CONFIG:
        return f"--runtime-config {setting.source}"
    return "the default lists"
