"""Effective feature gates at an emulated version (SPEC §3.3, §4, §5.3-§5.9).

``spec_at`` answers "which spec applies at (emulated, min compat)"; ``evaluate_gates``
applies a ``--feature-gates`` value the way component-base ``unsafeSetFromMap`` does and
returns every gate's state, with the errors and warnings the binary would print (typed
:mod:`.problems`, each kind imported where it is found: an evaluation the binary accepts
without a word, ``kcompat gates`` on valid flags, imports none of them).
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Mapping

from .compat import VersionSelection
from .errors import KcompatError
from .flags import FeatureGateFlags, parse_feature_gates
from .judged import Judged
from .manifest import GateState, Manifest, PickIndex, spec_at  # noqa: F401 - spec_at is part of this module's API
from .record import Record, set_field
from .stages import Stage
from .versions import Version

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from .problems import Problem


class GateEvaluation(Record, Judged):
    """Every gate of a binary at the selected versions after ``--feature-gates``, with what the
    binary would say about its flags (``problems``: its errors and warnings, typed)."""

    # (``__dict__`` holds the cached properties below)
    __slots__ = ("__dict__", "client_go", "flags", "gates", "manifest", "meta", "problems", "selection")
    _uncompared = ("manifest",)
    selection: VersionSelection
    gates: tuple[GateState, ...]
    meta: tuple[GateState, ...]
    problems: tuple[Problem, ...]
    flags: FeatureGateFlags
    #: gates registered from k8s.io/client-go (``Feature.origin``); the others are the binary's own
    client_go: frozenset[str]
    #: the manifest evaluated (the remedies beside the errors read its specs)
    manifest: Manifest | None

    def __init__(self, selection: VersionSelection, gates: tuple[GateState, ...], meta: tuple[GateState, ...],
                 problems: tuple[Problem, ...], flags: FeatureGateFlags, client_go: frozenset[str] = frozenset(),
                 manifest: Manifest | None = None) -> None:
        set_field(self, "selection", selection)
        set_field(self, "gates", gates)
        set_field(self, "meta", meta)
        set_field(self, "problems", problems)
        set_field(self, "flags", flags)
        set_field(self, "client_go", client_go)
        set_field(self, "manifest", manifest)

    def origin(self, name: str) -> str:
        """Where the binary registers ``name`` from: "client-go" or "kube"."""
        return "client-go" if name in self.client_go else "kube"

    @functools.cached_property
    def errors(self) -> tuple[str, ...]:
        """The binary's refusals, as it prints them (computed once: a plan asks for them at every step)."""
        return tuple(p.message for p in self.problems if p.refuses)

    @property
    def flags_applied(self) -> bool:
        """False when the binary would refuse the --feature-gates value (nothing applied)."""
        return not self.flag_problems

    @property
    def flag_problems(self) -> tuple[Problem, ...]:
        """The refusals of the --feature-gates value (not of the version flags)."""
        return tuple(p for p in self.problems if p.refuses and p not in self.selection.problems)

    @property
    def flag_errors(self) -> tuple[str, ...]:
        return tuple(p.message for p in self.flag_problems)

    def by_name(self) -> dict[str, GateState]:
        return {g.name: g for g in self.gates}


_META_STATES = {
    "AllAlpha": GateState("AllAlpha", False, Stage.ALPHA, False, False, False, "default"),
    "AllBeta": GateState("AllBeta", False, Stage.BETA, False, False, False, "default"),
}
#: the meta-gates when --feature-gates names nothing
_META_UNSET = tuple(_META_STATES.values())
_NO_FLAGS = FeatureGateFlags.empty()


def compared_state(gate: GateState) -> tuple[bool, Stage, bool]:
    """What a comparison of two evaluations looks at for a registered gate: on/off, stage and lock
    (whether --feature-gates may set it). ``kcompat changes`` lists a gate whose compared state
    differs (or that one side does not register); the Gates page's "changed" is the same test
    against the same binary without emulation, with the same --feature-gates."""
    return (gate.enabled, gate.stage, gate.locked)


def warns_alpha(selection: VersionSelection, build: Version | None = None) -> bool:
    """Whether the binary warns about the Alpha gates it has on (1.34+ component-base
    ``compatibility/registry.go`` ``componentGlobalsRegistry.Validate``): when its version is
    ``GreaterThan`` the emulation version (major.minor.0). So a patch release warns at its own
    minor too (v1.34.12 > 1.34.0), a x.y.0 or a pre-release (v1.38.0-beta.0 < 1.38.0) does not.
    ``build`` is the binary's own version when the selection names only its release (the patch
    the data is read from); without one, a plain release is taken as x.y.0."""
    rules = selection.rules
    binary = build if build is not None else selection.binary
    if not rules.warns_alpha_while_emulating or binary is None:
        return False
    if selection.is_emulating:
        return True
    emulated = Version((selection.emulated.major, selection.emulated.minor, 0), True)
    parts = (*binary.components, 0, 0)[:3]
    return Version(parts, True, binary.pre_release) > emulated


def evaluate_gates(
    manifest: Manifest, selection: VersionSelection, feature_gates: str | list[str] | None = None, *, build: Version | None = None
) -> GateEvaluation:
    """Every gate of the binary's manifest at the selected versions, after ``--feature-gates``
    (``build``: the binary's own version when the selection names a release, see :func:`warns_alpha`)."""
    rules = selection.rules
    emulated = selection.emulated
    emu = (emulated.major, emulated.minor)
    mc: tuple[int, int] | None = None
    if rules.gates_use_min_compat:
        min_compat = selection.min_compat
        mc = (min_compat.major, min_compat.minor)
    errors: list[Problem] = list(selection.problems)
    warnings: list[Problem] = []

    flags = _NO_FLAGS
    if feature_gates and not selection.flags_rejected:
        try:
            flags = parse_feature_gates(feature_gates)
        except KcompatError as exc:
            # a malformed value aborts flag processing: startup validation never runs
            from .problems import FlagValueRejected

            errors = [FlagValueRejected("feature-gates", str(exc))]

    # the unset state of every gate at (emu, mc): prebuilt per spec, so this is one pick per gate
    index = manifest.pick_index
    gates = _unset_states(index, emu, mc if manifest.uses_min_compatibility else None)
    named = flags.values
    if not named:
        # nothing to apply: the unset table is the answer (the meta-gates off, as registered)
        flag_errors: list[Problem] = []
        if rules.has_dependencies and manifest.has_dependencies:
            flag_errors = _dependency_errors(manifest, gates, {})
        if flag_errors:
            errors = list(_unique(flag_errors))
        elif index.alpha_on and warns_alpha(selection, build):
            # unset, a gate is enabled in Alpha only in a spec that is Alpha and on by default
            _warn_alpha(sorted(g.name for g in (gates[i] for i in index.alpha_on) if g.stage is Stage.ALPHA and g.enabled), warnings)
        return GateEvaluation(selection, tuple(gates), _META_UNSET, (*errors, *warnings), flags, manifest.client_go_names, manifest)

    resolved: dict[str, bool] = {}
    sources: dict[str, str] = {}
    flag_errors = _apply_flags(named, gates, selection, resolved, sources, warnings)
    if not flag_errors and rules.has_dependencies and manifest.has_dependencies:
        flag_errors = _dependency_errors(manifest, gates, resolved)
    if flag_errors:
        # Set() fails before startup validation runs: only the --feature-gates errors are printed
        resolved, sources = {}, {}
        errors = list(_unique(flag_errors))
    final = tuple(
        g._replace(enabled=resolved.get(g.name, g.default), explicit=g.name in named, source=sources.get(g.name, "default"))
        if (g.name in named or g.name in sources) else g
        for g in gates
    )
    meta = tuple(
        m._replace(enabled=resolved.get(name, False), explicit=name in named, source=sources.get(name, "default"))
        for name, m in _META_STATES.items()
    )
    if not flag_errors and warns_alpha(selection, build):
        _warn_alpha(sorted(g.name for g in final + meta if g.stage is Stage.ALPHA and g.enabled), warnings)
    return GateEvaluation(selection, final, meta, (*errors, *warnings), flags, manifest.client_go_names, manifest)


def _unique(problems: list[Problem]) -> tuple[Problem, ...]:
    from .problems import unique

    return unique(problems)


def _warn_alpha(alpha_on: list[str], warnings: list[Problem]) -> None:
    """1.34+ warns when a binary newer than its emulation version has Alpha gates on (:func:`warns_alpha`)."""
    if alpha_on:
        from .problems import AlphaGatesWhileEmulating

        warnings.append(AlphaGatesWhileEmulating(tuple(alpha_on)))


def _unset_states(index: PickIndex, emu: tuple[int, int], mc: tuple[int, int] | None) -> list[GateState]:
    """The unset state of every gate at (emu, mc) (``Feature.spec_index_at`` over prebuilt states).

    Every gate starts in its newest spec. A gate whose newest spec does not apply (its version is
    above emu, or its min-compat need above mc) takes the first of its older specs, newest first,
    whose version is <= emu and whose need, if any, mc meets; PreAlpha when none does. No need is
    checked when ``mc`` is None."""
    out = list(index.newest)
    older, pre_alpha = index.older, index.pre_alpha
    late = index.late_order[bisect_right(index.late_keys, emu):]
    if mc is None:
        for i in late:
            for key, _, state in older[i]:
                if key <= emu:
                    out[i] = state
                    break
            else:
                out[i] = pre_alpha[i]
        return out
    for i in late + index.need_order[bisect_right(index.need_keys, mc):]:
        for key, need, state in older[i]:
            if key <= emu and (need is None or mc >= need):
                out[i] = state
                break
        else:
            out[i] = pre_alpha[i]
    return out


def _apply_flags(
    values: Mapping[str, bool],
    gates: list[GateState],
    selection: VersionSelection,
    resolved: dict[str, bool],
    sources: dict[str, str],
    warnings: list[Problem],
) -> list[Problem]:
    """``unsafeSetFromMap``: every problem is reported (Go stops at the first unknown gate)."""
    if not values:
        return []
    from .problems import LockedGate, PreAlphaGate, RetiringGateSet, UnknownGate

    errors: list[Problem] = []
    spec_by_name = {g.name: g for g in gates}
    meta_values: dict[str, bool] = {}
    min_compat = selection.min_compat if selection.rules.prealpha_error_names_min_compat else None
    for key, value in values.items():
        spec = _META_STATES.get(key) or spec_by_name.get(key)
        if spec is None:
            errors.append(UnknownGate(key))
            continue
        if spec.locked and spec.default != value:
            errors.append(LockedGate(key, value, spec.default))
            continue
        if key in _META_STATES:
            meta_values[key] = value
            continue
        if spec.stage is Stage.PRE_ALPHA:
            errors.append(PreAlphaGate(key, value, selection.emulated_display, min_compat))
            continue
        resolved[key] = value
        sources[key] = "flag"
        if spec.stage in (Stage.DEPRECATED, Stage.GA):
            warnings.append(RetiringGateSet(key, value, spec.stage, selection.rules.structured_gate_warnings))
    for meta_name, value in meta_values.items():
        target = Stage.ALPHA if meta_name == "AllAlpha" else Stage.BETA
        for g in gates:
            if g.stage is target and g.name not in resolved:
                resolved[g.name] = value
                sources[g.name] = meta_name
        resolved[meta_name] = value
        sources[meta_name] = "flag"
    return errors


def _dependency_errors(manifest: Manifest, gates: list[GateState], resolved: dict[str, bool]) -> list[Problem]:
    """Runtime dependency check (1.35+, SPEC §5.6): every enabled gate needs its dependencies on."""
    errors: list[Problem] = []
    if not resolved:  # nothing set: every gate has its default
        for i, name, deps in manifest.dependents:
            if gates[i].default:
                off = tuple(gates[d].name for d in deps if not gates[d].default)
                if off:
                    errors.append(_dependency_disabled(name, off))
        return errors

    def enabled(i: int) -> bool:
        g = gates[i]
        value: bool = resolved.get(g.name, g.default)
        return value

    for i, name, deps in manifest.dependents:
        if enabled(i):
            off = tuple(gates[d].name for d in deps if not enabled(d))
            if off:
                errors.append(_dependency_disabled(name, off))
    return errors


def _dependency_disabled(name: str, off: tuple[str, ...]) -> Problem:
    from .problems import DependencyDisabled

    return DependencyDisabled(name, off)
