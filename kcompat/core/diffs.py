"""What differs between two gate sets, gate by gate, and why.

:func:`compare_sides` compares two binaries at their emulated versions, each with the same
``--feature-gates`` applied (:class:`Side`): "here" is the binary the user runs (``B`` at ``E``),
"there" the other side: the same binary without emulation, the real release ``E`` (release E's own
binary at its own version), or any other bundled binary at an emulated version. A gate one side
does not register is described by what that side's code does (:mod:`kcompat.core.removals`):
removed after GA locked on = always on, removed while off = always off, not introduced = off, a
later back-dated spec describes the older release's own behaviour.

Every difference carries :class:`Cause` objects naming what happened and in which release
(introduced, promoted, graduated, deprecated, default flipped, locked, held back by min
compatibility, removed from the binary, history rewritten, a patch release's spec, set by a flag).
"""

from __future__ import annotations

from dataclasses import dataclass

from .compat import VersionSelection
from .errors import KcompatError
from .gates import GateEvaluation, compared_state
from .manifest import Feature, FeatureSpec, GateState, Manifest, spec_at
from .removals import GateLineage
from .stages import Stage
from .versions import Version, mm

#: The gate properties a comparison looks at, in display order (for a registered gate, those of
#: :func:`kcompat.core.gates.compared_state`).
FIELDS = ("exists", "enabled", "stage", "locked")


@dataclass(frozen=True)
class Cause:
    """One cause of a difference. ``version`` is the release it happened in, when there is one."""

    kind: str
    version: Version | None
    text: str

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------------------------------------
# What a spec sequence says happened between two releases.


def _word(value: bool) -> str:
    return "on" if value else "off"


def _status(spec: FeatureSpec) -> str:
    text = f"{spec.stage.value}, default {_word(spec.default)}"
    return text + ", locked" if spec.lock_to_default else text


def spec_events(feature: Feature, after: Version, up_to: Version) -> tuple[Cause, ...]:
    """The spec changes of a gate with a version in (``after``, ``up_to``], oldest first."""
    lo, hi = (after.major, after.minor), (up_to.major, up_to.minor)
    events: list[Cause] = []
    for i, spec in enumerate(feature.specs):
        v = (spec.version.major, spec.version.minor)
        if not lo < v <= hi:
            continue
        prev = feature.specs[i - 1] if i > 0 else None
        needs = f" (with min compatibility >= {spec.min_compatibility_version})" if spec.min_compatibility_version else ""
        if prev is None:
            events.append(Cause("introduced", spec.version, f"introduced in {spec.version} as {_status(spec)}{needs}"))
            continue
        if spec.stage is not prev.stage:
            kind, verb = {
                Stage.BETA: ("promoted", "promoted to Beta"),
                Stage.GA: ("graduated", "graduated to GA"),
                Stage.DEPRECATED: ("deprecated", "deprecated"),
            }.get(spec.stage, ("stage", f"moved to {spec.stage.value}"))
            events.append(Cause(kind, spec.version, f"{verb} in {spec.version} (default {_word(spec.default)}){needs}"))
        elif spec.default != prev.default:
            events.append(
                Cause(f"default-{_word(spec.default)}", spec.version, f"default turned {_word(spec.default)} in {spec.version}{needs}")
            )
        if spec.lock_to_default and not prev.lock_to_default:
            events.append(Cause("locked", spec.version, f"locked to its default ({_word(spec.default)}) in {spec.version}"))
    return tuple(events)


def _min_compat_reason(feature: Feature, selection: VersionSelection) -> Cause | None:
    """Set when min compatibility keeps an older spec in effect at the selection's versions."""
    if not selection.rules.gates_use_min_compat:
        return None
    held = spec_at(feature, selection.emulated, selection.min_compat, True)
    free = spec_at(feature, selection.emulated, None, False)
    if held == free:
        return None
    return Cause(
        "min-compat",
        free.version,
        f"held back by min compatibility {selection.min_compat}: the {free.version} spec ({_status(free)}) "
        f"needs >= {free.effective_min_compatibility}",
    )


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a binary's manifest evaluated at a selection (flags applied)."""

    label: str
    manifest: Manifest
    evaluation: GateEvaluation
    #: a release's own binary at its own version ("a real 1.31"), as opposed to the binary the user runs
    real: bool = False

    @property
    def selection(self) -> VersionSelection:
        return self.evaluation.selection

    @property
    def version(self) -> Version:
        """The binary's version as given, with its patch when one was (``1.35.0``)."""
        binary = self.selection.binary
        if binary is None:  # every side is a bundled binary's
            raise KcompatError(f"{self.label}: a side of a comparison needs a binary version")
        return binary

    @property
    def binary(self) -> Version:
        """The binary's release (``1.35``): what the release rules and the lineage ask about."""
        return mm(self.version)

    @property
    def emulated(self) -> Version:
        return self.selection.emulated


@dataclass(frozen=True)
class SideState:
    """A gate on one side. ``exists``: the binary registers the gate (PreAlpha included, as
    ``kcompat gates`` lists it). ``enabled`` of a gate that does not exist is what that code does;
    it has no ``stage`` and no ``locked`` (None)."""

    exists: bool
    enabled: bool
    stage: Stage | None
    locked: bool | None
    #: "default", "flag", "AllAlpha", "AllBeta" (registered) or "removed", "back-dated", "not-introduced"
    source: str
    text: str

    def key(self) -> tuple[bool, bool, Stage | None, bool | None]:
        return (self.exists, self.enabled, self.stage, self.locked)

    def document(self) -> dict[str, bool | str | None]:
        return {
            "exists": self.exists,
            "enabled": self.enabled,
            "stage": self.stage.value if self.stage is not None else None,
            "locked": self.locked,
        }


@dataclass(frozen=True)
class Change:
    """One gate whose state differs between here and there (in any of :data:`FIELDS`)."""

    name: str
    origin: str
    here: SideState
    there: SideState
    reasons: tuple[Cause, ...]

    @property
    def behaviour(self) -> str:
        """Whether the feature actually behaves differently: ``same``, ``on-here-only``, ``on-there-only``."""
        if self.here.enabled == self.there.enabled:
            return "same"
        return "on-here-only" if self.here.enabled else "on-there-only"

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(f for f, a, b in zip(FIELDS, self.here.key(), self.there.key(), strict=True) if a != b)

    @property
    def why(self) -> str:
        return "; ".join(r.text for r in self.reasons)


@dataclass(frozen=True)
class SideComparison:
    here: str
    there: str
    changes: tuple[Change, ...]

    def get(self, name: str) -> Change | None:
        return next((c for c in self.changes if c.name == name), None)

    def behaving(self, behaviour: str) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.behaviour == behaviour)


def binary_name(binary: Version) -> str:
    """A binary as a side names it: ``1.35`` for a release, ``1.35.0`` for a patch given."""
    return str(binary) if len(binary.components) > 2 else str(mm(binary))


def side_label(
    binary: Version, emulated: Version, real: bool = False, data_patch: str | None = None, answered_as: str | None = None
) -> str:
    """``1.33 emulating 1.31``, ``1.33 (not emulating)``, or ``a real 1.31`` for a release's own
    binary. A binary given with its patch is named with it (``a real 1.35.0``); ``data_patch``
    names the patch a release given without one answers as (``a real 1.35 (v1.35.8)``);
    ``answered_as`` the recorded patch answering for one given that is not recorded (``a real
    1.35.99 (answered as v1.35.8)``)."""
    name = binary_name(binary)
    patch = f"v{data_patch}" if data_patch and len(binary.components) < 3 else None
    if answered_as and len(binary.components) >= 3:
        patch = f"answered as v{answered_as}"
    if mm(binary) == emulated:
        if real:
            return f"a real {name} ({patch})" if patch else f"a real {name}"
        return f"{name} ({patch}, not emulating)" if patch else f"{name} (not emulating)"
    return f"{name} ({patch}) emulating {emulated}" if patch else f"{name} emulating {emulated}"


def _registered_text(g: GateState) -> str:
    text = f"{g.stage.value}, {_word(g.enabled)}"
    if g.locked:
        text += ", locked"
    if g.source != "default":
        text += f" (set by {'--feature-gates' if g.source == 'flag' else g.source})"
    return text


def side_state(states: dict[str, GateState], side: Side, name: str, lineage: GateLineage) -> SideState:
    """``name`` on ``side`` (``states``: the side's evaluation by name)."""
    g = states.get(name)
    if g is not None:
        enabled, stage, locked = compared_state(g)
        return SideState(True, enabled, stage, locked, g.source, _registered_text(g))
    absent = lineage.absent(name, side.binary, side.emulated)
    return SideState(False, absent.enabled, None, None, absent.kind, absent.text)


def _reasons(name: str, here: Side, there: Side, hs: SideState, ts: SideState) -> list[Cause]:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    reasons: list[Cause] = []
    for side, state in ((here, hs), (there, ts)):
        if not state.exists:
            reasons.append(Cause(state.source, None, f"{side.label}: {state.text}"))
        elif state.source != "default":
            reasons.append(Cause("flag", None, f"{side.label}: {state.text}"))
    fh, ft = here.manifest.by_name.get(name), there.manifest.by_name.get(name)
    if fh is not None and ft is not None:
        newer, older = (here, there) if here.binary >= there.binary else (there, here)
        feature = newer.manifest.by_name[name]
        lo, hi = sorted((here.emulated, there.emulated))
        reasons.extend(spec_events(feature, lo, hi))
        if newer.binary != older.binary:
            old_feature = older.manifest.by_name[name]
            a = spec_at(feature, older.emulated, None, False)
            b = spec_at(old_feature, older.emulated, None, False)
            if (a.stage, a.default, a.lock_to_default) != (b.stage, b.default, b.lock_to_default):
                reasons.append(
                    Cause(
                        "history-differs",
                        None,
                        f"the {newer.binary} manifest says {_status(a)} at {older.emulated}; {older.label} has {_status(b)}",
                    )
                )
        elif here.manifest is not there.manifest:  # two patch releases of one release
            for at in sorted({here.emulated, there.emulated}):
                a, b = spec_at(fh, at, None, False), spec_at(ft, at, None, False)
                if (a.stage, a.default, a.lock_to_default) != (b.stage, b.default, b.lock_to_default):
                    reasons.append(
                        Cause(
                            "patch-differs",
                            None,
                            f"the patch releases register different specs at {at}: {here.label} has {_status(a)}; "
                            f"{there.label} has {_status(b)}",
                        )
                    )
        for side, feature_ in ((here, fh), (there, ft)):
            held = _min_compat_reason(feature_, side.selection)
            if held is not None:
                reasons.append(Cause(held.kind, held.version, f"{side.label}: {held.text}"))
    if not reasons:
        reasons.append(Cause("state", None, f"{here.label}: {hs.text}; {there.label}: {ts.text}"))
    return reasons


def compare_sides(here: Side, there: Side, lineage: GateLineage) -> SideComparison:
    """Every gate either binary registers whose (exists, enabled, stage) differ between the sides."""
    names = sorted(set(here.manifest.by_name) | set(there.manifest.by_name))
    here_states, there_states = here.evaluation.by_name(), there.evaluation.by_name()
    changes = []
    for name in names:
        hs = side_state(here_states, here, name, lineage)
        ts = side_state(there_states, there, name, lineage)
        if hs.key() == ts.key():
            continue
        feature = here.manifest.by_name.get(name) or there.manifest.by_name[name]
        changes.append(Change(name, feature.origin, hs, ts, tuple(_reasons(name, here, there, hs, ts))))
    return SideComparison(here.label, there.label, tuple(changes))


@dataclass(frozen=True)
class ChangesResult:
    """The comparison and the sides' problems (the document is built from it)."""

    binary: str | None
    emulated: str | None
    #: the other side: {"kind", "binary", "emulated", "label"}
    against: dict[str, str] | None
    feature_gates: str
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    comparison: SideComparison | None
    #: the component whose gate sets are compared on both sides
    component: str = "kube-apiserver"
