"""Remedies beside the binary's refusals of ``--feature-gates`` (component-base ``featuregate``):

* :class:`~kcompat.core.problems.UnknownGate`: a gate the bundled releases show removed (the
  behaviour it kept, and "drop the flag"; kind "removed-gate"), one first registered by a later
  release (the release to use; "later-gate"), else the closest known names of the binary's gate
  set, AllAlpha/AllBeta included ("unknown-gate").
* :class:`~kcompat.core.problems.DependencyDisabled` (1.35+, SPEC §5.6): "enable <deps> or leave
  <gate> off", adjusted when a dependency is locked off or not yet introduced at the emulated
  version, or when the gate was turned on by AllAlpha/AllBeta or by its default ("dependency").
* :class:`~kcompat.core.problems.PreAlphaGate`: the release where the gate appears (its first spec
  that is not PreAlpha), "emulate it or later, or drop the flag"; or the min compatibility it
  needs (1.35+) ("not-introduced").
* :class:`~kcompat.core.problems.LockedGate`: since when it is locked, and the emulated version
  where it can still be set when the range allows one ("locked").

The version flags' refusals come first (:mod:`.versions`).
"""

from __future__ import annotations

from ..gates import GateEvaluation
from ..manifest import META_GATES, Feature, FeatureSpec, GateState
from ..placeholders import is_placeholder
from ..problems import (
    MAX_REMEDIES,
    DependencyDisabled,
    LockedGate,
    PreAlphaGate,
    Problem,
    Remedy,
    RemedyKind,
    UnknownGate,
)
from ..stages import Stage
from ..versions import Version, mm, subtract_minor
from .versions import version_remedies

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from ..removals import GateLineage


class _Context:
    """What the remedies of one evaluation read, each part computed once and only when needed."""

    def __init__(self, evaluation: GateEvaluation, lineage: Callable[[], GateLineage] | None) -> None:
        self.evaluation = evaluation
        self.selection = evaluation.selection
        self._lineage = lineage
        self._history: GateLineage | None = None
        self._known: tuple[str, ...] | None = None
        self._states: dict[str, GateState] | None = None
        self._sources: dict[str, str] | None = None

    def history(self) -> GateLineage | None:
        """The bundled releases' gate lineage (loaded on the first unknown gate), if given."""
        if self._history is None and self._lineage is not None:
            self._history = self._lineage()
        return self._history

    def known(self) -> tuple[str, ...]:
        if self._known is None:
            self._known = tuple(g.name for g in self.evaluation.gates) + META_GATES
        return self._known

    def states(self) -> dict[str, GateState]:
        if self._states is None:
            self._states = {g.name: g for g in self.evaluation.gates}
        return self._states

    def sources(self) -> dict[str, str]:
        if self._sources is None:
            self._sources = _enabling_sources(self.evaluation)
        return self._sources

    def feature(self, name: str) -> Feature | None:
        manifest = self.evaluation.manifest
        return manifest.by_name.get(name) if manifest is not None else None


def _joined(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _flag_item(gate: str, value: bool) -> str:
    return f"drop {gate}={'true' if value else 'false'} from --feature-gates"


def since_text(version: Version) -> str:
    """``since 1.30``, or the placeholder said as such."""
    if is_placeholder(version):
        return f"since before the gate existed (the data dates it to {mm(version)}, a placeholder)"
    return f"since {mm(version)}"


# ---------------------------------------------------------------------------------------------
# Unknown gates: removed, registered later, or mistyped.


def _unknown(problem: UnknownGate, context: _Context) -> Remedy | None:
    history = context.history()
    remedy = _lineage_remedy(problem, context, history) if history is not None else None
    if remedy is not None:
        return remedy
    from ..search import closest_names

    names = closest_names(problem.name, context.known())
    if not names:
        return None
    return Remedy(RemedyKind.UNKNOWN_GATE, problem, f"did you mean {' or '.join(names)}?", names)


def _lineage_remedy(problem: UnknownGate, context: _Context, lineage: GateLineage) -> Remedy | None:
    name, binary = problem.name, context.selection.binary
    if binary is None:
        return None
    removal = lineage.removal_before(name, binary)
    if removal is not None:
        text = (
            f"{name} was removed in {removal.removed_in} after {removal.last_status} (last listed by {removal.last_release}): "
            f"{removal.behaviour} in a {mm(binary)} binary, drop it from --feature-gates"
        )
        return Remedy(RemedyKind.REMOVED_GATE, problem, text, (str(removal.removed_in),))
    for release, manifest in zip(lineage.releases, lineage.manifests, strict=True):
        if release > mm(binary) and name in manifest.by_name:
            text = (
                f"{name} is first registered by {release} binaries (a {mm(binary)} binary does not know it): "
                f"use a {release} or later binary, or drop it from --feature-gates"
            )
            return Remedy(RemedyKind.LATER_GATE, problem, text, (str(release),))
    return None


# ---------------------------------------------------------------------------------------------
# Dependencies (1.35+).


def _dependency(problem: DependencyDisabled, context: _Context) -> Remedy:
    gate, deps = problem.name, problem.disabled
    states, emulated = context.states(), str(context.selection.emulated)
    blocked = [d for d in deps if d in states and (states[d].stage is Stage.PRE_ALPHA or (states[d].locked and not states[d].default))]
    enable = [d for d in deps if d not in blocked]
    source = context.sources().get(gate, "")
    if source in ("AllAlpha", "AllBeta"):
        leave_off = f"set {gate}=false (turned on by {source}=true)"
    elif source == "default":
        leave_off = f"set {gate}=false (it is on by default at {emulated})"
    else:
        leave_off = f"leave {gate} off"
    if blocked:
        why = "; ".join(
            f"{d} is not yet introduced at {emulated}" if states[d].stage is Stage.PRE_ALPHA else f"{d} is locked off at {emulated}"
            for d in blocked
        )
        text = f"{gate} depends on {_joined(deps)}; {why}, so {leave_off}"
    else:
        text = f"{gate} depends on {_joined(deps)}: enable {_joined(enable)} or {leave_off}"
    return Remedy(RemedyKind.DEPENDENCY, problem, text, deps)


def _enabling_sources(evaluation: GateEvaluation) -> dict[str, str]:
    """Why each gate would be on with the flags: "flag", "AllAlpha", "AllBeta" or "default".

    A dependency refusal means the flags were not applied (the binary refuses to start), so the
    sources are recomputed from the flag values the way ``unsafeSetFromMap`` resolves them."""
    values = dict(evaluation.flags.values) if evaluation.flags is not None else {}
    out: dict[str, str] = {}
    for g in evaluation.gates:
        if g.name in values:
            out[g.name] = "flag"
        elif g.stage is Stage.ALPHA and "AllAlpha" in values:
            out[g.name] = "AllAlpha"
        elif g.stage is Stage.BETA and "AllBeta" in values:
            out[g.name] = "AllBeta"
        else:
            out[g.name] = "default"
    return out


# ---------------------------------------------------------------------------------------------
# Gates not introduced yet, locked gates.


def _not_introduced(problem: PreAlphaGate, context: _Context) -> Remedy | None:
    feature = context.feature(problem.name)
    if feature is None:
        return None
    gate, value, sel = problem.name, problem.value, context.selection
    emu = mm(sel.emulated)
    first = next((s for s in feature.specs if s.stage is not Stage.PRE_ALPHA), None)
    if first is None:
        return Remedy(RemedyKind.NOT_INTRODUCED, problem, f"{gate} is PreAlpha in every release of the data: {_flag_item(gate, value)}")
    appears = mm(first.version)
    if appears > emu:
        top = mm(sel.binary) if sel.binary is not None else None
        if top is not None and appears > top:
            text = f"{gate} appears in {appears} ({first.stage.value}), after this {top} binary: {_flag_item(gate, value)}"
        else:
            text = f"{gate} appears in {appears} ({first.stage.value}): emulate {appears} or later, or {_flag_item(gate, value)}"
        return Remedy(RemedyKind.NOT_INTRODUCED, problem, text, (str(appears),))
    # introduced at or before the emulated version: its specs need a higher min compatibility (1.35+)
    need = [s.effective_min_compatibility for s in feature.specs if mm(s.version) <= emu and s.effective_min_compatibility is not None]
    low = min(need) if need else None
    if low is not None and mm(low) <= emu:
        text = (
            f"{gate} is introduced in {appears} but needs min compatibility {mm(low)} or later "
            f"(now {sel.min_compat}): set --min-compatibility-version={mm(low)}, or {_flag_item(gate, value)}"
        )
        return Remedy(RemedyKind.NOT_INTRODUCED, problem, text, (str(mm(low)),))
    return Remedy(RemedyKind.NOT_INTRODUCED, problem, f"{gate} cannot be set at {emu}: {_flag_item(gate, value)}")


def _locked(problem: LockedGate, context: _Context) -> Remedy | None:
    gate = problem.name
    if gate in META_GATES:
        return None
    feature, sel = context.feature(gate), context.selection
    emu = mm(sel.emulated)
    current = [s for s in (feature.specs if feature else ()) if mm(s.version) <= emu]
    if not current:
        return None
    # walk back over the specs locked to the same value: the lock started at the oldest of them
    since: FeatureSpec = current[-1]
    before: FeatureSpec | None = None
    for spec in reversed(current):
        if spec.lock_to_default and spec.default == since.default:
            since = spec
        else:
            before = spec
            break
    state = "on" if problem.locked_to else "off"
    text = f"{gate} is locked {state} ({current[-1].stage.value}) {since_text(since.version)}: {_flag_item(gate, problem.value)}"
    if before is not None and not is_placeholder(since.version):
        unlocked = subtract_minor(mm(since.version), 1)
        span = sel.rules.emulation_range()
        if span is not None and span[0] <= unlocked <= span[1]:
            text += f", or emulate {unlocked}, the last release where it can still be set"
    return Remedy(RemedyKind.LOCKED, problem, text, (str(mm(since.version)),))


#: problem type -> its remedy, from the problem and the evaluation it belongs to
REMEDIES: dict[type[Problem], Callable[[Any, _Context], Remedy | None]] = {
    UnknownGate: _unknown,
    DependencyDisabled: _dependency,
    PreAlphaGate: _not_introduced,
    LockedGate: _locked,
}


def gate_remedies(evaluation: GateEvaluation, lineage: Callable[[], GateLineage] | None = None) -> tuple[Remedy, ...]:
    """The remedies of an evaluation's refusals, in their order (at most ``MAX_REMEDIES``): the
    version flags' first, then the ``--feature-gates`` value's.

    ``lineage`` (called only when an unknown gate needs it) gives the bundled releases' gate
    lineage: an unrecognized gate that an older release registered is named as removed, one a
    newer release registers as "use that release"."""
    refusals = [p for p in evaluation.problems if p.refuses]
    if not refusals:
        return ()
    out = list(version_remedies(evaluation.selection))
    context = _Context(evaluation, lineage)
    for problem in refusals[:MAX_REMEDIES]:  # the refusals shown
        if len(out) >= MAX_REMEDIES:
            break
        remedy = REMEDIES.get(type(problem))
        found = remedy(problem, context) if remedy is not None else None
        if found is not None:
            out.append(found)
    return tuple(out[:MAX_REMEDIES])
