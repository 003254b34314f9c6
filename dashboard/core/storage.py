"""Storage version per group/kind at (emulated, min compatibility) (SPEC §7.2).

kube-apiserver writes a resource to etcd in the version ``emulatedStorageVersion``
(apiserver ``pkg/server/storage/resource_encoding_config.go``) picks when no explicit
storage override exists. The rule depends on the binary's own release:

* 1.31, 1.35, 1.36 (:data:`StorageRule.FIRST_AT_MIN_COMPAT`): the highest-priority version
  of the kind (alpha included) introduced at or before min compat; else the group's
  preferred (highest-priority) version.
* 1.32-1.34 (:data:`StorageRule.SKIP_REPLACED`): the same, but versions declaring a
  replacement (``APILifecycleReplacement``) are skipped too (reverted for 1.35).
* 1.37, i.e. HEAD (:data:`StorageRule.NON_ALPHA_AT_MIN_COMPAT`): pass 1, the first non-alpha
  version introduced at or before min compat; pass 2, the first version introduced at or
  before the emulated version; else the kind's highest-priority version.

A min compat of 0.0 disables the lifecycle checks; a type without lifecycle data always
qualifies. The versions considered are those of k8s.io/api of the binary's release
(removed versions stay registered in the scheme and count).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from .apis import NON_REST_GROUPS, versions_by_priority
from .apis_data import ApiKind, default_enablement_for, group_version_text, load_api_release
from .compat import rules_for
from .errors import KcompatError
from .versions import Version, major_minor, mm, parse_version

ZERO = major_minor(0, 0)


class StorageRule(str, Enum):
    FIRST_AT_MIN_COMPAT = "first version introduced at or before min compatibility (1.31, 1.35, 1.36)"
    SKIP_REPLACED = "first version introduced at or before min compatibility, skipping replaced versions (1.32-1.34)"
    NON_ALPHA_AT_MIN_COMPAT = "first non-alpha version introduced at or before min compatibility, else first introduced at or before emulated (1.37 / HEAD)"

    def __str__(self) -> str:
        return self.value


def storage_rule_for(binary: Version) -> StorageRule:
    """The rule of the binary's own release."""
    release = mm(binary)
    if release >= major_minor(1, 37):
        return StorageRule.NON_ALPHA_AT_MIN_COMPAT
    if major_minor(1, 32) <= release <= major_minor(1, 34):
        return StorageRule.SKIP_REPLACED
    return StorageRule.FIRST_AT_MIN_COMPAT


@dataclass(frozen=True)
class StorageChoice:
    """The storage version of one group/kind and how it was picked."""

    group: str
    kind: str
    resource: str
    version: str
    #: the kind's versions, highest priority first
    candidates: tuple[str, ...]
    explanation: str

    @property
    def group_version(self) -> str:
        return group_version_text(self.group, self.version)


@dataclass(frozen=True)
class StorageVersions:
    binary: Version
    emulated: Version
    min_compat: Version
    rule: StorageRule
    choices: tuple[StorageChoice, ...]
    errors: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors

    def choice(self, group: str, kind: str) -> StorageChoice | None:
        for c in self.choices:
            if (c.group, c.kind) == (group, kind):
                return c
        return None


def _introduced_after(kind: ApiKind, limit: Version, min_compat: Version) -> bool:
    """True when the lifecycle check rejects ``kind`` against ``limit`` (never with mc 0.0 or without data)."""
    if kind.introduced is None or min_compat == ZERO:
        return False
    return mm(kind.introduced) > mm(limit)


def pick_storage_version(
    versions: list[ApiKind], group_preferred: str, rule: StorageRule, emulated: Version, min_compat: Version
) -> tuple[str, str]:
    """(version, explanation) for one kind; ``versions`` highest priority first."""
    if rule is StorageRule.NON_ALPHA_AT_MIN_COMPAT:
        for k in versions:
            if "alpha" not in k.version and not _introduced_after(k, min_compat, min_compat):
                return k.version, f"first non-alpha version introduced at or before min compatibility {min_compat}"
        for k in versions:
            if not _introduced_after(k, emulated, min_compat):
                return k.version, f"no non-alpha version introduced by {min_compat}; first version introduced at or before emulated {emulated}"
        return versions[0].version, "no version introduced early enough; the kind's highest-priority version"
    for k in versions:
        if k.introduced is not None and min_compat != ZERO:
            if rule is StorageRule.SKIP_REPLACED and k.replacement:
                continue
            if mm(k.introduced) > mm(min_compat):
                continue
        return k.version, f"first version introduced at or before min compatibility {min_compat}"
    return group_preferred, "no version introduced early enough; the group's preferred version"


def _storage_groups(binary: Version, data_dir: Path | str | None) -> set[str]:
    """Groups that have REST storage in the binary (any group/version in its default lists)."""
    enablement = default_enablement_for(mm(binary), data_dir).enablement
    return {gv.rpartition("/")[0] if "/" in gv else "" for gv in enablement.listed_group_versions()}


def storage_versions(
    binary: Version | str,
    emulated: Version | str | None = None,
    min_compat: Version | str | None = None,
    *,
    data_dir: Path | str | None = None,
) -> StorageVersions:
    """Storage version of every resource kind of the groups the binary serves, at (emulated,
    min compat). ``emulated`` defaults to the binary's release, ``min_compat`` to the value
    the binary derives from it (SPEC §2.2). Min compat is taken as given even for releases
    without the flag (programmatic use); range problems come back as ``errors``."""
    binary_version = parse_version(binary) if isinstance(binary, str) else binary
    rules = rules_for(binary_version)
    emu = mm(_version(emulated)) if emulated is not None else mm(binary_version)
    if min_compat is not None:
        mc = mm(_version(min_compat))
    else:
        mc = rules.default_min_compat(emu if emulated is not None else None)
    rule = storage_rule_for(binary_version)
    api = load_api_release(mm(binary_version), data_dir)
    groups = _storage_groups(binary_version, data_dir)
    choices = []
    for group in sorted(groups, key=lambda g: (g != "", g)):
        if group in NON_REST_GROUPS or not api.versions_of(group):
            continue
        priority = versions_by_priority(gv.version for gv in api.versions_of(group))
        by_kind: dict[str, list[ApiKind]] = {}
        for version in priority:
            gv = api.find(group, version)
            for k in gv.kinds if gv else ():
                if k.is_rest_resource:
                    by_kind.setdefault(k.kind, []).append(k)
        for kind_name, kinds in by_kind.items():
            version, why = pick_storage_version(kinds, priority[0], rule, emu, mc)
            choices.append(StorageChoice(group, kind_name, kinds[0].resource, version, tuple(k.version for k in kinds), why))
    return StorageVersions(binary_version, emu, mc, rule, tuple(choices), tuple(rules.validate(emu, mc)))


def storage_version_for(
    group: str,
    kind: str,
    binary: Version | str,
    emulated: Version | str | None = None,
    min_compat: Version | str | None = None,
    *,
    data_dir: Path | str | None = None,
) -> StorageChoice:
    """The storage version of one group/kind (see :func:`storage_versions`)."""
    result = storage_versions(binary, emulated, min_compat, data_dir=data_dir)
    choice = result.choice(group, kind)
    if choice is None:
        raise KcompatError(f"no stored resource kind {kind} in group {group or 'core'} for Kubernetes {mm(result.binary)}")
    return choice


def _version(value: Version | str) -> Version:
    if isinstance(value, Version):
        return value
    if not isinstance(value, str):
        raise KcompatError(f"a version must be a string, got {type(value).__name__}")
    return parse_version(value)
