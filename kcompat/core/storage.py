"""Storage version per REST resource at (binary, emulated, min compatibility) (SPEC §7.2).

kube-apiserver picks the version a resource is written to etcd in with
``DefaultResourceEncodingConfig.BackwardCompatibileStorageEncodingFor`` (k8s.io/apiserver
``pkg/server/storage/resource_encoding_config.go``, identical in v0.31.0 .. v0.37.0-beta.0):

1. a per-resource override wins always ("Always respect overrides"); the overrides are the
   ``ResourceEncodingOverrides`` of kubernetes ``pkg/kubeapiserver/default_storage_factory_builder.go``
   of the binary's release (``data/apis/storage-overrides.yaml``, read verbatim: an override that
   names no real resource, such as 1.31-1.36's ``storagemigration.k8s.io storagemigrations``,
   overrides nothing);
2. otherwise ``emulatedStorageVersion`` walks the versions of the group that hold the kind
   (``scheme.VersionsForGroupKind``), highest priority first, and takes the first that passes
   the rule of the binary's release (:class:`StorageRule`);
3. when none passes, ``binaryVersionOfResource``: the group's highest-priority version
   (``scheme.PrioritizedVersionsForGroup(group)[0]``).

Cohabiting resources (kubernetes ``default_storage_factory_builder.go`` ``AddCohabitatingResources``
and apiserver ``storage_factory.go`` ``getStorageGroupResource``): events.k8s.io ``events`` is
stored as the core ``events`` resource, so in the core group's storage version.

The rule of ``emulatedStorageVersion``, by the binary's release (read at each k8s.io/apiserver tag):

* v0.31.0, v0.35.0, v0.36.0 (:data:`StorageRule.FIRST_AT_MIN_COMPAT`): the first version
  introduced at or before min compatibility.
* v0.32.0 - v0.34.0 (:data:`StorageRule.SKIP_REPLACED`): the same, skipping versions that
  declare a replacement (``APILifecycleReplacement``).
* v0.37.0-beta.0 (:data:`StorageRule.NON_ALPHA_AT_MIN_COMPAT`): pass 1, the first non-alpha
  version introduced at or before min compatibility; pass 2, the first version introduced at
  or before the emulated version.

A min compatibility of 0.0 disables the lifecycle checks; a type without lifecycle data always
qualifies. Version priority is the scheme's (``SetVersionPriority`` in kubernetes
``pkg/apis/<group>/install/install.go`` of the binary's release, ``data/apis/scheme-priority.yaml``),
which is not always the kube-aware order (resource.k8s.io in 1.33: v1beta1 before v1beta2); only
the versions listed there are registered. Without that list for a release (1.37) the kube-aware
order of the group's versions in k8s.io/api is used and a warning says so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from .api_versions import versions_by_priority
from .apis import GateResolver, evaluate_api_availability
from .apis_data import ApiData, ApiKind, ApiRelease, SchemePriority, group_version_text
from .compat import rules_for
from .errors import KcompatError
from .judged import Judged
from .problems import Note, Problem
from .runtime_config import NON_REST_GROUPS
from .versions import Version, major_minor, mm, parse_version

ZERO = major_minor(0, 0)
#: (group, resource) stored as another group's resource: ``AddCohabitatingResources`` pairs whose
#: first member (the one chosen while its group has any resource enabled) is another group.
COHABITING = {("events.k8s.io", "events"): ("", "events")}


class StorageRule(StrEnum):
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
    """The storage version of one REST resource and how it was picked."""

    group: str
    kind: str
    resource: str
    #: the group the object is stored under (another group for cohabiting resources)
    storage_group: str
    #: None when the version the apiserver would fall back to does not hold the kind
    #: (the resource is then not served, so no storage is created for it)
    version: str | None
    #: the versions of the group that hold the kind, highest priority first
    candidates: tuple[str, ...]
    explanation: str
    served: bool = False

    @property
    def group_version(self) -> str | None:
        """The storage version as ``group/version`` (``v1`` for the core group), None when there is none."""
        return group_version_text(self.storage_group, self.version) if self.version is not None else None


@dataclass(frozen=True)
class StorageVersions(Judged):
    binary: Version
    emulated: Version
    min_compat: Version
    rule: StorageRule
    choices: tuple[StorageChoice, ...]
    #: the binary's refusals of the versions, and the notes on the data used
    problems: tuple[Problem, ...] = ()
    #: the binary refuses the version flags: ``emulated``/``min_compat`` are its defaults, not an answer
    versions_refused: bool = False

    def with_refusals(self, refusals: tuple[Problem, ...]) -> StorageVersions:
        """The same answer with ``refusals`` instead of its own (the version flags as the binary
        read them), its notes kept."""
        return replace(self, problems=(*refusals, *(p for p in self.problems if not p.refuses)))

    def choice(self, group: str, kind: str) -> StorageChoice | None:
        for c in self.choices:
            if (c.group, c.kind) == (group, kind):
                return c
        return None

    def for_resource(self, group: str, resource: str) -> StorageChoice | None:
        for c in self.choices:
            if (c.group, c.resource) == (group, resource):
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
    """``emulatedStorageVersion``: (version, explanation) for one kind; ``versions`` are the
    group's versions holding the kind, highest priority first; ``group_preferred`` is
    ``binaryVersionOfResource`` (used when no version qualifies)."""
    fallback = f"no version of the kind qualifies; the group's preferred version {group_preferred} (binaryVersionOfResource)"
    if rule is StorageRule.NON_ALPHA_AT_MIN_COMPAT:
        for k in versions:
            if "alpha" not in k.version and not _introduced_after(k, min_compat, min_compat):
                return k.version, f"highest-priority non-alpha version introduced at or before min compatibility {min_compat}"
        for k in versions:
            if not _introduced_after(k, emulated, min_compat):
                return k.version, f"no non-alpha version introduced by {min_compat}; highest-priority version introduced at or before emulated {emulated}"
        return group_preferred, fallback
    for k in versions:
        if k.introduced is not None and min_compat != ZERO:
            if rule is StorageRule.SKIP_REPLACED and k.replacement:
                continue
            if mm(k.introduced) > mm(min_compat):
                continue
        if min_compat == ZERO:
            return k.version, "highest-priority version (min compatibility 0.0 disables the lifecycle checks)"
        skip = ", without a replacement," if rule is StorageRule.SKIP_REPLACED else ""
        return k.version, f"highest-priority version{skip} introduced at or before min compatibility {min_compat}"
    return group_preferred, fallback


def _storage_groups(binary: Version, api_data: ApiData) -> set[str]:
    """Groups that have REST storage in the binary (any group/version in its default lists)."""
    enablement = api_data.default_enablement_for(mm(binary)).enablement
    return {gv.rpartition("/")[0] if "/" in gv else "" for gv in enablement.listed_group_versions()}


def storage_versions(
    binary: Version | str,
    emulated: Version | str | None = None,
    min_compat: Version | str | None = None,
    *,
    api_data: ApiData,
    gate_states: GateResolver | None = None,
) -> StorageVersions:
    """Storage version of every REST resource of the groups the binary has storage for, at
    (emulated, min compat). ``emulated`` defaults to the binary's release, ``min_compat`` to
    the value the binary derives from it (SPEC §2.2). Range problems come back in ``problems``;
    ``served`` says whether the resource is served at (binary, emulated) with the default
    ``--runtime-config``."""
    binary_version = parse_version(binary) if isinstance(binary, str) else binary
    if not isinstance(binary_version, Version):
        raise KcompatError(f"binary must be a version, got {type(binary).__name__}")
    rules = rules_for(binary_version)
    emu = mm(_version(emulated)) if emulated is not None else mm(binary_version)
    if min_compat is not None:
        mc = mm(_version(min_compat))
    else:
        mc = rules.default_min_compat(emu if emulated is not None else None)
    rule = storage_rule_for(binary_version)
    api = api_data.api_release(mm(binary_version))
    overrides = api_data.storage_overrides_for(mm(binary_version))
    scheme = api_data.scheme_priority_for(mm(binary_version))
    warnings: list[str] = []
    if scheme is None:
        warnings.append(
            f"no scheme version priority for Kubernetes {mm(binary_version)} is bundled; the kube-aware order of the "
            "group's versions in k8s.io/api is used"
        )
    if overrides is None:
        warnings.append(f"no storage-version override list for Kubernetes {mm(binary_version)} is bundled; overrides are not applied")
    served = _served_resources(binary_version, emu, api_data, warnings, gate_states)
    groups = _storage_groups(binary_version, api_data)
    picked: dict[tuple[str, str], tuple[str, str]] = {}
    choices = []
    for group in sorted(groups, key=lambda g: (g != "", g)):
        if group in NON_REST_GROUPS or not api.versions_of(group):
            continue
        priority = _group_priority(group, api, scheme, warnings)
        for kind_name, kinds in _kinds_by_name(group, priority, api).items():
            resource = next(k.resource for k in kinds if k.resource is not None) or ""
            override = overrides.version_for(group, resource) if overrides else None
            if override is not None and overrides is not None:
                version, why = override, f"per-resource override of the {mm(binary_version)} storage factory ({overrides.provenance})"
            else:
                version, why = pick_storage_version(kinds, priority[0], rule, emu, mc)
            picked[(group, resource)] = (version, why)
            choices.append(
                StorageChoice(group, kind_name, resource, group, version, tuple(k.version for k in kinds), why, (group, resource) in served)
            )
    final = [_without_foreign_version(_cohabiting(c, picked), api, emu) for c in choices]
    return StorageVersions(binary_version, emu, mc, rule, tuple(final), (*rules.validate(emu, mc), *(Note(w) for w in warnings)))


def _group_priority(group: str, api: ApiRelease, scheme: SchemePriority | None, warnings: list[str]) -> list[str]:
    """The group's versions in the scheme's priority order (the kube-aware order when the scheme
    lists none), those the release's API data holds."""
    if scheme is not None and group in scheme.groups:
        return [v for v in scheme.groups[group] if api.find(group, v) is not None]
    if scheme is not None:
        warnings.append(f"the {api.release} scheme lists no versions of {group}; the kube-aware order is used")
    return versions_by_priority(gv.version for gv in api.versions_of(group))


def _kinds_by_name(group: str, priority: list[str], api: ApiRelease) -> dict[str, list[ApiKind]]:
    """Each kind of the group with its versions, highest priority first; kinds that are no REST
    resource in any version left out."""
    by_kind: dict[str, list[ApiKind]] = {}
    for version in priority:
        gv = api.find(group, version)
        for k in gv.kinds if gv else ():
            by_kind.setdefault(k.kind, []).append(k)
    return {name: kinds for name, kinds in by_kind.items() if any(k.resource is not None for k in kinds)}


def _cohabiting(choice: StorageChoice, picked: dict[tuple[str, str], tuple[str, str]]) -> StorageChoice:
    """A resource stored as another group's resource (events.k8s.io ``events`` as core ``v1``)."""
    target = COHABITING.get((choice.group, choice.resource))
    if target is None or target not in picked:
        return choice
    version, why = picked[target]
    return StorageChoice(
        choice.group, choice.kind, choice.resource, target[0], version, choice.candidates,
        f"stored as the {target[0] or 'core'} {target[1]} resource (cohabiting resources): {why}", choice.served,
    )


def _without_foreign_version(choice: StorageChoice, api: ApiRelease, emu: Version) -> StorageChoice:
    """A storage version always holds the kind: when the apiserver's fallback
    (``binaryVersionOfResource``) does not, ``emulatedStorageVersion`` is answering for a resource
    that is not served at this emulated version ("the resource should not be served at this
    emulation version at all"), so no storage is created and there is no storage version."""
    gv = api.find(choice.storage_group, choice.version or "")
    if gv is not None and any(k.kind == choice.kind for k in gv.kinds):
        return choice
    why = (
        f"{choice.explanation}, which does not hold {choice.kind}; "
        + (f"not served at emulated {emu}, so no storage is created" if not choice.served else "kcompat cannot tell the storage version")
    )
    return replace(choice, version=None, explanation=why)


def _served_resources(
    binary: Version, emu: Version, api_data: ApiData, warnings: list[str], gate_states: GateResolver | None = None
) -> set[tuple[str, str]]:
    """(group, resource) served in any version at (binary, emulated), default ``--runtime-config``."""
    try:
        availability = evaluate_api_availability(binary, str(emu), api_data=api_data, compare_with_release=False, gate_states=gate_states)
    except KcompatError as exc:
        warnings.append(f"cannot tell which resources are served: {exc}")
        return set()
    return {(e.group, e.resource) for e in availability.entries if e.served}


def storage_version_for(
    group: str,
    kind: str,
    binary: Version | str,
    emulated: Version | str | None = None,
    min_compat: Version | str | None = None,
    *,
    api_data: ApiData,
    gate_states: GateResolver | None = None,
) -> StorageChoice:
    """The storage version of one group/kind (see :func:`storage_versions`)."""
    result = storage_versions(binary, emulated, min_compat, api_data=api_data, gate_states=gate_states)
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
