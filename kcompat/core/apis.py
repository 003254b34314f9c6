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

The version priority is in :mod:`.api_versions`, steps 1-2 in :mod:`.runtime_config`.

REST storage: a resource of a listed group/version has storage unless the binary has none for it
(``ApiKind.storage_code``: no recorded run of the real binary ever served it) or kube-apiserver
installs it only while a feature gate is on (``ApiKind.storage_gate``, pkg/registry) and that gate
is off at the emulated version with the ``--feature-gates`` given: the caller passes the gate
states as ``gate_states`` (a resolver, since the gates live in the catalog, not here); without it,
feature-gated storage is not checked and a warning says so. The ``KUBE_APISERVER_*``
environment variables are taken as unset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .api_versions import (
    compare_kube_aware_versions,
    is_alpha_version,
    versions_by_priority,
)
from .apis_data import (
    ApiData,
    ApiKind,
    ApiRelease,
    DefaultEnablement,
    Lifecycle,
    group_version_text,
)
from .compat import (
    ReleaseRules,
    VersionSelection,
    parse_binary_version,
    select_versions,
)
from .errors import KcompatError
from .gates import evaluate_gates
from .judged import Judged
from .manifest import Manifest
from .problems import (
    AlphaApiWhileEmulating,
    ApiResourceIntroducedLater,
    ApiVersionIntroducedLater,
    ForwardCompatSameVersion,
    Note,
    Problem,
    UnknownFlag,
    unique,
)
from .runtime_config import (
    GV,
    GVR,
    NON_REST_GROUPS,
    ApiRegistry,
    Origin,
    ResourceConfig,
    RuntimeConfig,
    Setting,
    default_config,
    merge_runtime_config,
    parse_runtime_config,
    registry_for,
    split_group_version,
    validate_runtime_config,
    widen_for_forward_compatibility,
)
from .versions import Version, major_minor, mm

#: The release that adds ``--emulation-forward-compatible`` and ``--runtime-config-emulation-forward-compatible``.
FORWARD_COMPAT_FLAGS_SINCE = major_minor(1, 33)

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


class Reason(StrEnum):
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
    FEATURE_GATE_OFF = "storage-feature-gate-off"
    NO_STORAGE_IN_BINARY = "no-storage-in-binary"

    def __str__(self) -> str:
        return self.value


#: the deprecation facts of an entry built without its kind's data
_NOT_RECORDED = Lifecycle(None, None, None, recorded=False)


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
    #: deprecated in, removed in and the replacement, from the binary's release data
    lifecycle: Lifecycle = _NOT_RECORDED

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
class ApiAvailability(Judged):
    """Every group/version/kind of the binary's release data at the emulated version."""

    binary: Version
    emulated: Version
    #: what kube-apiserver says about the flags (errors and warnings, typed, in order) and the notes
    problems: tuple[Problem, ...]
    entries: tuple[ApiEntry, ...]
    default_enablement_release: Version
    default_enablement_source: str
    #: the API data it was computed from (the hints and the comparison with the binary read it)
    api_data: ApiData = field(compare=False, repr=False)
    runtime_config: tuple[str, ...] = ()
    emulation_forward_compatible: bool = False
    runtime_config_emulation_forward_compatible: bool = False
    gate_states: GateResolver | None = field(default=None, compare=False, repr=False)
    #: the version selection the flags gave (the remedies beside range errors read it)
    selection: VersionSelection | None = field(default=None, compare=False, repr=False)

    @property
    def default_enablement_exact(self) -> bool:
        """Whether the default lists used are the binary release's own."""
        return self.default_enablement_release == mm(self.binary)

    def served(self) -> tuple[ApiEntry, ...]:
        return tuple(e for e in self.entries if e.served)

    def served_keys(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(e.key for e in self.entries if e.served)

    def entry(self, group: str, version: str, kind: str) -> ApiEntry | None:
        for e in self.entries:
            if e.key == (group, version, kind):
                return e
        return None

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
    #: why there is no storage although the group/version is listed (gate off, none in the binary)
    storage_reason: Reason | None = None
    #: the subresources installed (those behind a gate that is off dropped)
    subresources: tuple[str, ...] = ()


def evaluate_api_availability(
    binary: Version | str,
    emulated: str | Version | Sequence[str] | None = None,
    runtime_config: str | Sequence[str] | None = None,
    emulation_forward_compatible: bool = False,
    runtime_config_emulation_forward_compatible: bool = False,
    *,
    min_compat: str | Version | Sequence[str] | None = None,
    api_data: ApiData,
    compare_with_release: bool = True,
    gate_states: GateResolver | None = None,
) -> ApiAvailability:
    """Which built-in APIs a kube-apiserver ``binary`` serves with ``--emulated-version``,
    ``--runtime-config`` and the forward-compatibility flags (SPEC §6.2-§6.7).

    Bad flag values come back as ``errors`` (the messages kube-apiserver prints); only input
    that is not a flag value at all (a binary that is no version, a binary without bundled
    data, a non-string) raises :class:`KcompatError`."""
    binary_version = parse_binary_version(binary) if isinstance(binary, str) else binary
    if not isinstance(binary_version, Version):
        raise KcompatError(f"binary must be a version, got {type(binary).__name__}")
    selection = select_versions(binary_version, _flag_value(emulated, "--emulated-version"), _flag_value(min_compat, "--min-compatibility-version"))
    rules = selection.rules
    release = mm(binary_version)
    api = api_data.api_release(release)
    choice = api_data.default_enablement_for(release)
    registry = registry_for(api)
    rc_values = [runtime_config] if isinstance(runtime_config, str) else list(runtime_config or [])
    config = parse_runtime_config(rc_values)
    emu = selection.emulated

    errors: list[Problem] = list(selection.problems)
    warnings: list[Problem] = []
    if choice.warning:
        warnings.append(Note(choice.warning))
        warnings.extend(_new_group_versions_note(api, choice.enablement, api_data))
    warnings.extend(Note(n) for n in config.notes)
    efc, rcefc = _forward_compat_flags(rules, selection, emulation_forward_compatible, runtime_config_emulation_forward_compatible, errors)
    errors.extend(validate_runtime_config(config, registry, rules.unknown_api_groups_as_group_versions, rules.api_all_false_noun))

    merged, merge_errors, merge_notes = merge_runtime_config(default_config(choice.enablement), config, registry)
    errors.extend(merge_errors)
    warnings.extend(Note(n) for n in merge_notes)
    if efc:
        merged, widen_notes = widen_for_forward_compatibility(merged, config, registry)
        warnings.extend(Note(n) for n in widen_notes)

    listed = {split_group_version(gv) for gv in choice.enablement.listed_group_versions()}
    gate_on = _gate_lookup(gate_states, binary_version, selection, api, warnings)
    states = _filter_kinds(api, registry, merged, listed, binary_version, emu, rules, efc, rcefc, errors, gate_on)
    warnings.extend(_alpha_while_emulating_warnings(api, merged, binary_version, emu, rules))
    entries = tuple(_entry_for(s, emu, binary_version, choice.enablement) for s in states)
    if compare_with_release:
        release_served, release_warnings = _served_by_release(binary_version, emu, rc_values, entries, api_data, gate_states)
        warnings.extend(Note(w) for w in release_warnings)
        entries = tuple(replace(e, served_by_release=release_served(e)) for e in entries)
    return ApiAvailability(
        binary=binary_version,
        emulated=emu,
        problems=(*unique(errors), *unique(warnings)),
        entries=entries,
        default_enablement_release=choice.enablement.release,
        default_enablement_source=choice.enablement.source_id,
        runtime_config=tuple(rc_values),
        emulation_forward_compatible=emulation_forward_compatible,
        runtime_config_emulation_forward_compatible=runtime_config_emulation_forward_compatible,
        api_data=api_data,
        gate_states=gate_states,
        selection=selection,
    )


def _flag_value(value: object, flag: str) -> str | Version | list[str] | None:
    """A version flag as given: text, a Version, the values of a repeated flag, or None."""
    if value is None or isinstance(value, (str, Version)):
        return value
    if isinstance(value, (list, tuple)):
        return list(value)
    raise KcompatError(f"{flag} must be text or a list of values, got {type(value).__name__}")


#: (binary, emulated, min compatibility) -> every gate's state with the caller's --feature-gates;
#: raises KcompatError when that binary would refuse those flags
GateResolver = Callable[[Version, Version, Version], Mapping[str, bool]]


def gate_resolver(manifest_for: Callable[[Version], Manifest], feature_gates: str | Sequence[str] | None = None) -> GateResolver:
    """A :data:`GateResolver` from the binary's gates (``manifest_for(binary)``) and one
    ``--feature-gates`` value; refused flags raise :class:`KcompatError` with the binary's errors."""

    flag = feature_gates if feature_gates is None or isinstance(feature_gates, str) else list(feature_gates)

    def resolve(binary: Version, emulated: Version, min_compat: Version) -> Mapping[str, bool]:
        rules = select_versions(binary).rules
        selection = select_versions(binary, str(emulated), str(min_compat) if rules.has_min_compat_flag else None)
        evaluation = evaluate_gates(manifest_for(binary), selection, flag)
        if evaluation.errors:
            more = f"; and {len(evaluation.errors) - 3:,} more" if len(evaluation.errors) > 3 else ""
            raise KcompatError("; ".join(evaluation.errors[:3]) + more)
        return {g.name: g.enabled for g in evaluation.gates}

    return resolve


def _gate_lookup(
    resolver: GateResolver | None, binary: Version, selection: VersionSelection, api: ApiRelease, warnings: list[Problem]
) -> Callable[[str], bool] | None:
    """Whether each storage gate is on, or None when unknown (no resolver, or refused flags)."""
    gated = sorted({k.storage_gate for k in api.kinds() if k.storage_gate})
    if not gated:
        return None
    if resolver is None:
        warnings.append(Note(f"feature-gated REST storage not checked (gates {', '.join(gated)}): no gate states given"))
        return None
    try:
        states = resolver(binary, selection.emulated, selection.min_compat)
    except KcompatError as exc:
        warnings.append(Note(f"feature-gated REST storage not checked: the gates cannot be evaluated ({exc})"))
        return None
    return lambda gate: bool(states.get(gate, False))


def _served_by_release(
    binary: Version, emu: Version, runtime_config: list[str], entries: Sequence[ApiEntry], api_data: ApiData,
    gate_states: GateResolver | None = None,
) -> tuple[Callable[[ApiEntry], bool | None], list[str]]:
    """What a real binary of the emulated release serves with the same ``--runtime-config``
    (``servedByRelease``). The same binary release answers for itself; a release without
    bundled data answers None; a release that would refuse the ``--runtime-config`` serves
    nothing (False, and a warning says why)."""
    if mm(binary) == mm(emu):
        return (lambda e: e.served), []
    if mm(emu) not in api_data.api_releases():
        return (lambda e: None), [f"no bundled API data for Kubernetes {mm(emu)}: servedByRelease is null"]
    try:
        release = evaluate_api_availability(mm(emu), None, runtime_config, api_data=api_data, compare_with_release=False,
                                            gate_states=gate_states)
    except KcompatError as exc:
        return (lambda e: None), [f"cannot evaluate a real {mm(emu)} binary with this --runtime-config ({exc}): servedByRelease is null"]
    if release.errors:
        # the comparison's binary refuses, not the one asked about: the message says which is which
        return (lambda e: False), [
            f"servedByRelease is false for every resource: release {mm(emu)}'s own binary (the comparison, not this "
            f"{mm(binary)} binary emulating {mm(emu)}) would refuse this --runtime-config ({'; '.join(release.errors)})"
        ]
    served = release.served_keys()
    return (lambda e: e.key in served), []


def compare_with_binary(availability: ApiAvailability) -> ApiDiff:
    """What emulation changes: the same binary and ``--runtime-config`` at the binary's own
    version (forward-compatibility flags dropped: they are rejected there) against the result."""
    baseline = evaluate_api_availability(
        availability.binary, None, list(availability.runtime_config), api_data=availability.api_data, compare_with_release=False,
        gate_states=availability.gate_states,
    )
    at_emu, at_bin = availability.served_keys(), baseline.served_keys()
    enabled = tuple(e for e in availability.entries if e.served and e.key not in at_bin)
    removed = tuple(e for e in baseline.entries if e.served and e.key not in at_emu)
    return ApiDiff(baseline, enabled, removed)


def _forward_compat_flags(
    rules: ReleaseRules, selection: VersionSelection, efc: bool, rcefc: bool, errors: list[Problem]
) -> tuple[bool, bool]:
    """Which forward-compatibility flags take effect; rejections go to ``errors``."""
    flags = (("emulation-forward-compatible", "EmulationForwardCompatible", efc), ("runtime-config-emulation-forward-compatible", "RuntimeConfigEmulationForwardCompatible", rcefc))
    if not rules.has_forward_compat_flags:
        for flag, _, on in flags:
            if on:
                errors.append(UnknownFlag(flag, rules.release, FORWARD_COMPAT_FLAGS_SINCE))
        return False, False
    if selection.binary is not None and selection.emulated == mm(selection.binary):
        for flag, name, on in flags:
            if on:
                errors.append(ForwardCompatSameVersion(flag, name))
        return False, False
    return efc, rcefc


def _filter_kinds(
    api: ApiRelease,
    registry: ApiRegistry,
    config: ResourceConfig,
    listed: set[GV],
    binary: Version,
    emu: Version,
    rules: ReleaseRules,
    efc: bool,
    rcefc: bool,
    errors: list[Problem],
    gate_on: Callable[[str], bool] | None = None,
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
                storage_reason = None
                if storage and not kind.storage_code:
                    storage, storage_reason = False, Reason.NO_STORAGE_IN_BINARY
                elif storage and kind.storage_gate and gate_on is not None and not gate_on(kind.storage_gate):
                    storage, storage_reason = False, Reason.FEATURE_GATE_OFF
                off = {sub for sub, gate in kind.subresource_gates if gate_on is not None and not gate_on(gate)}
                subs = tuple(sub for sub in kind.subresources if sub not in off)
                state = _KindState(kind, storage, config.resource_setting(gvr), storage_reason=storage_reason, subresources=subs)
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
    config: ResourceConfig,
    emu: Version,
    rules: ReleaseRules,
    efc: bool,
    rcefc: bool,
    errors: list[Problem],
) -> None:
    """``removeUnintroducedKinds`` (1.33+; 1.31/1.32 simply drop later kinds)."""
    lower_enabled: dict[str, str] = {}
    for version in reversed(priority):
        present = [s for s in group_states[version] if _in_storage(s) and s.removed_ok]
        if not present:
            continue
        kept_any = False
        for state in present:
            resource = state.kind.resource
            if resource is None:  # never: only REST resources have a state (see _filter_kinds)
                continue
            state.introduced_ok = _introduced_or_kept(state, (group, version, resource), lower_enabled, config, emu, rules, efc, rcefc, errors)
            if state.introduced_ok:
                kept_any = True
                if not is_alpha_version(version):
                    lower_enabled[resource] = group_version_text(group, version)
        if not kept_any and rules.has_forward_compat_flags and config.version_explicitly_enabled((group, version)):
            errors.append(ApiVersionIntroducedLater(group_version_text(group, version), mm(emu)))


def _introduced_or_kept(
    state: _KindState,
    gvr: GVR,
    lower_enabled: dict[str, str],
    config: ResourceConfig,
    emu: Version,
    rules: ReleaseRules,
    efc: bool,
    rcefc: bool,
    errors: list[Problem],
) -> bool:
    """Whether one resource introduced after the emulated version stays served: kept by a
    forward-compatibility flag (which one is noted on ``state``), else dropped, and refused when
    ``--runtime-config`` names it explicitly."""
    group, version, resource = gvr
    introduced = state.kind.introduced_or_zero
    if mm(emu) >= mm(introduced):
        return True
    if not rules.has_forward_compat_flags:
        return False
    if efc and resource in lower_enabled:
        state.kept_by = Reason.KEPT_BY_EMULATION_FORWARD_COMPATIBLE
        state.kept_note = lower_enabled[resource]
        return True
    if rcefc and (config.resource_explicitly_enabled(gvr) or config.version_explicitly_enabled((group, version))):
        state.kept_by = Reason.KEPT_BY_RUNTIME_CONFIG_FORWARD_COMPATIBLE
        state.kept_note = state.setting.source if state.setting else ""
        return True
    if config.resource_explicitly_enabled(gvr):
        errors.append(ApiResourceIntroducedLater(group, version, resource, mm(introduced), mm(emu)))
    return False


def _alpha_while_emulating_warnings(
    api: ApiRelease, config: ResourceConfig, binary: Version, emu: Version, rules: ReleaseRules
) -> list[Problem]:
    """1.34+ ``ApplyTo``: an explicitly enabled alpha group/version or resource while binary != emu."""
    if not rules.warns_alpha_while_emulating or mm(binary) == mm(emu):
        return []
    out: list[Problem] = []
    binary_text = _binary_text(binary)
    for gv in api.group_versions:
        if gv.group in NON_REST_GROUPS or "alpha" not in gv.version:
            continue
        key = (gv.group, gv.version)
        resource_on = any(on and r[:2] == key for r, on in config.explicit_resources.items())
        if config.version_explicitly_enabled(key) or resource_on:
            out.append(AlphaApiWhileEmulating(gv.name, mm(emu), binary_text))
    return out


def _binary_text(binary: Version) -> str:
    """The binary as ``version.Version.String()`` prints a build version (always x.y.z)."""
    if len(binary.components) >= 3:
        return str(binary)
    return str(Version((binary.major, binary.minor, 0), binary.semver, binary.pre_release, binary.build_metadata))


def _new_group_versions_note(api: ApiRelease, used: DefaultEnablement, api_data: ApiData) -> list[Problem]:
    try:
        previous = api_data.api_release(used.release)
    except KcompatError:
        return []
    old = {(gv.group, gv.version) for gv in previous.group_versions}
    new = [gv.name for gv in api.group_versions if (gv.group, gv.version) not in old and gv.group not in NON_REST_GROUPS]
    if not new:
        return []
    return [Note(f"group/versions new in {api.release} without a default in the {used.release} list (shown as not served): {', '.join(new)}")]


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
        subresources=state.subresources,
        lifecycle=kind.lifecycle,
    )


def _decide(state: _KindState, emu: Version, binary: Version, enablement: DefaultEnablement) -> tuple[bool, Reason, str]:
    kind = state.kind
    gv = kind.group_version
    if state.storage_reason is Reason.NO_STORAGE_IN_BINARY:
        return False, Reason.NO_STORAGE_IN_BINARY, f"the binary has no REST storage for {kind.resource} in {gv}: never served by it"
    if state.storage_reason is Reason.FEATURE_GATE_OFF:
        return False, Reason.FEATURE_GATE_OFF, (
            f"REST storage is installed only while feature gate {kind.storage_gate} is on, and it is off at emulated version {mm(emu)}"
            f" (enable it with --feature-gates={kind.storage_gate}=true where the binary allows)"
        )
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
    "gate_resolver",
    "is_alpha_binary",
    "merge_runtime_config",
    "parse_runtime_config",
    "registry_for",
    "should_serve_removed",
    "validate_runtime_config",
    "versions_by_priority",
]
