"""Effective feature gates at an emulated version (SPEC §3.3, §4, §5.3-§5.9).

``spec_at`` answers "which spec applies at (emulated, min compat)"; ``evaluate_gates``
applies a ``--feature-gates`` value the way component-base ``unsafeSetFromMap`` does and
returns every gate's state, with the errors and warnings the binary would print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .compat import VersionSelection
from .errors import KcompatError
from .flags import FeatureGateFlags, parse_feature_gates
from .manifest import META_GATES, PRE_ALPHA_SPEC, Feature, FeatureSpec, Manifest
from .stages import Stage
from .versions import Version


def spec_at(feature: Feature, emulated: Version, min_compat: Version | None, use_min_compat: bool) -> FeatureSpec:
    """The spec in effect at (emulated, min compat): the last spec whose version is <= emulated
    and (1.35+) whose min-compat requirement is met; PreAlpha when none applies."""
    emu = (emulated.major, emulated.minor)
    mc = (min_compat.major, min_compat.minor) if (use_min_compat and min_compat is not None) else None
    return _spec_at_keys(feature.specs, emu, mc)


def _spec_at_keys(specs: tuple[FeatureSpec, ...], emu: tuple[int, int], mc: tuple[int, int] | None) -> FeatureSpec:
    for spec in reversed(specs):
        v = spec.version
        if (v.major, v.minor) > emu:
            continue
        need = spec.effective_min_compatibility
        if mc is not None and need is not None and mc < (need.major, need.minor):
            continue
        return spec
    return PRE_ALPHA_SPEC


class GateState(NamedTuple):
    """One gate at the selected versions after the flags (SPEC §4)."""

    name: str
    enabled: bool
    stage: Stage
    default: bool
    locked: bool
    explicit: bool
    #: why it has its value: "default", "flag", "AllAlpha" or "AllBeta"
    source: str


@dataclass(frozen=True)
class GateEvaluation:
    selection: VersionSelection
    gates: tuple[GateState, ...]
    meta: tuple[GateState, ...]
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    flags: FeatureGateFlags

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def flags_applied(self) -> bool:
        """False when the binary would refuse the --feature-gates value (nothing applied)."""
        return not self.flag_errors

    @property
    def flag_errors(self) -> tuple[str, ...]:
        return tuple(e for e in self.errors if e not in self.selection.errors)

    def by_name(self) -> dict[str, GateState]:
        return {g.name: g for g in self.gates}


_META_SPECS = {
    "AllAlpha": FeatureSpec(PRE_ALPHA_SPEC.version, False, False, Stage.ALPHA),
    "AllBeta": FeatureSpec(PRE_ALPHA_SPEC.version, False, False, Stage.BETA),
}


def evaluate_gates(manifest: Manifest, selection: VersionSelection, feature_gates: str | list[str] | None = None) -> GateEvaluation:
    """Every gate of the binary's manifest at the selected versions, after ``--feature-gates``."""
    rules = selection.rules
    emu = (selection.emulated.major, selection.emulated.minor)
    mc = (selection.min_compat.major, selection.min_compat.minor) if rules.gates_use_min_compat else None
    errors: list[str] = list(selection.errors)
    warnings: list[str] = []

    flags = FeatureGateFlags.empty()
    if feature_gates and not selection.flags_rejected:
        try:
            flags = parse_feature_gates(feature_gates)
        except KcompatError as exc:
            errors.append(str(exc))

    specs = [(f, _spec_at_keys(f.specs, emu, mc)) for f in manifest.features]
    resolved: dict[str, bool] = {}
    sources: dict[str, str] = {}
    flag_errors = _apply_flags(flags.values, specs, manifest, selection, resolved, sources, warnings)
    if not flag_errors and rules.has_dependencies:
        flag_errors = _dependency_errors(specs, resolved)
    if flag_errors:
        resolved, sources = {}, {}
        errors.extend(e for e in flag_errors if e not in errors)

    named = flags.values
    gates = tuple(
        GateState(
            f.name,
            resolved.get(f.name, s.default),
            s.stage,
            s.default,
            s.lock_to_default,
            f.name in named,
            sources.get(f.name, "default"),
        )
        for f, s in specs
    )
    meta = tuple(
        GateState(name, resolved.get(name, False), spec.stage, False, False, name in named, sources.get(name, "default"))
        for name, spec in _META_SPECS.items()
    )
    if not flag_errors and rules.warns_alpha_while_emulating and selection.is_emulating:
        alpha_on = sorted(g.name for g in gates + meta if g.stage is Stage.ALPHA and g.enabled)
        if alpha_on:
            warnings.append(
                "component has alpha features enabled in emulated version, this is unsupported: "
                f"features=[{' '.join(alpha_on)}]"
            )
    return GateEvaluation(selection, gates, meta, tuple(errors), tuple(warnings), flags)


def _apply_flags(values, specs, manifest: Manifest, selection: VersionSelection, resolved, sources, warnings) -> list[str]:
    """``unsafeSetFromMap``: every problem is reported (Go stops at the first unknown gate)."""
    if not values:
        return []
    errors: list[str] = []
    spec_by_name = {f.name: s for f, s in specs}
    meta_values: dict[str, bool] = {}
    mc_suffix = (
        f", min compatibility version {selection.min_compat}" if selection.rules.prealpha_error_names_min_compat else ""
    )
    for key, value in values.items():
        spec = _META_SPECS.get(key) or spec_by_name.get(key)
        if spec is None:
            errors.append(f"unrecognized feature gate: {key}")
            continue
        word = "true" if value else "false"
        if spec.lock_to_default and spec.default != value:
            errors.append(
                f"cannot set feature gate {key} to {word}, feature is locked to {'true' if spec.default else 'false'}"
            )
            continue
        if key in _META_SPECS:
            meta_values[key] = value
            continue
        if spec.stage is Stage.PRE_ALPHA:
            errors.append(
                f"cannot set feature gate {key} to {word}, feature is PreAlpha at emulated version {selection.emulated}{mc_suffix}"
            )
            continue
        resolved[key] = value
        sources[key] = "flag"
        if spec.stage is Stage.DEPRECATED:
            warnings.append(f"Setting deprecated feature gate {key}={word}. It will be removed in a future release.")
        elif spec.stage is Stage.GA:
            warnings.append(f"Setting GA feature gate {key}={word}. It will be removed in a future release.")
    for meta_name, value in meta_values.items():
        target = Stage.ALPHA if meta_name == "AllAlpha" else Stage.BETA
        for f, s in specs:
            if s.stage is target and f.name not in resolved:
                resolved[f.name] = value
                sources[f.name] = meta_name
        resolved[meta_name] = value
        sources[meta_name] = "flag"
    return errors


def _dependency_errors(specs, resolved: dict[str, bool]) -> list[str]:
    """Runtime dependency check (1.35+, SPEC §5.6): every enabled gate needs its dependencies on."""
    enabled = {f.name: resolved.get(f.name, s.default) for f, s in specs}
    errors = []
    for f, _ in specs:
        if f.dependencies and enabled[f.name]:
            off = [d for d in f.dependencies if not enabled.get(d, False)]
            if off:
                errors.append(f"{f.name} is enabled, but depends on features that are disabled: [{' '.join(off)}]")
    return errors


def gate_names(manifest: Manifest) -> tuple[str, ...]:
    return tuple(f.name for f in manifest.features) + META_GATES
