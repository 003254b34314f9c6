"""What emulation changes, gate by gate, and why.

Three comparisons, all pure (no I/O, no UI), all on the gates' defaults (no ``--feature-gates``):

* :func:`emulation_step` — the same binary at two emulated versions (``E1 -> E2``): what the
  bump turns on or off. :func:`emulation_vs_binary` is the step from the emulated version to the
  binary's own release (``B at E`` against ``B at B``).
* :func:`emulation_vs_release` — ``B at E`` against the real release ``E`` (the bundled
  manifest of release E at its own version), including gates present on one side only.

Every difference carries :class:`Reason` objects naming what happened and in which release
(introduced, promoted, graduated, deprecated, default flipped, locked, held back by min
compatibility, removed from the binary, history rewritten...).

:func:`gate_table_rows` builds the effective table of the Gates page from the same pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

from .compat import VersionSelection, select_versions
from .gates import GateEvaluation, GateState, evaluate_gates, spec_at
from .manifest import Feature, FeatureSpec, Manifest
from .stages import Stage
from .versions import Version, mm

#: The gate properties a comparison looks at, in display order.
FIELDS = ("enabled", "stage", "default", "locked")


@dataclass(frozen=True)
class Reason:
    """One cause of a difference. ``version`` is the release it happened in, when there is one."""

    kind: str
    version: Version | None
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class GateDiff:
    """One gate that differs between the two sides. A side is None when that side's manifest does
    not list the gate at all (only in :func:`emulation_vs_release`)."""

    name: str
    left: GateState | None
    right: GateState | None
    fields: tuple[str, ...]
    reasons: tuple[Reason, ...]

    @property
    def turned_on(self) -> bool:
        return not _enabled(self.left) and _enabled(self.right)

    @property
    def turned_off(self) -> bool:
        return _enabled(self.left) and not _enabled(self.right)

    @property
    def effect(self) -> str:
        """``turns on`` / ``turns off`` / ``value unchanged`` (only stage, default or lock differ) going from left to right."""
        if self.turned_on:
            return "turns on"
        if self.turned_off:
            return "turns off"
        return "value unchanged"

    @property
    def why(self) -> str:
        return "; ".join(r.text for r in self.reasons)


def _enabled(state: GateState | None) -> bool:
    return state is not None and state.enabled


@dataclass(frozen=True)
class Comparison:
    """``left`` and ``right`` name the two sides, e.g. ``1.36 binary at 1.33``."""

    left: str
    right: str
    diffs: tuple[GateDiff, ...]

    def __len__(self) -> int:
        return len(self.diffs)

    def names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.diffs)

    def get(self, name: str) -> GateDiff | None:
        return next((d for d in self.diffs if d.name == name), None)

    @property
    def turned_on(self) -> tuple[GateDiff, ...]:
        return tuple(d for d in self.diffs if d.turned_on)

    @property
    def turned_off(self) -> tuple[GateDiff, ...]:
        return tuple(d for d in self.diffs if d.turned_off)

    def rows(self) -> list[dict]:
        """Flat rows for tables and downloads (``left_*``/``right_*`` are empty when absent)."""
        out = []
        for d in self.diffs:
            row: dict = {"gate": d.name, "effect": d.effect, "changed": ", ".join(d.fields)}
            for side, state in (("left", d.left), ("right", d.right)):
                row[f"{side}_present"] = state is not None
                row[f"{side}_enabled"] = state.enabled if state is not None else None
                row[f"{side}_stage"] = state.stage.value if state is not None else None
                row[f"{side}_default"] = state.default if state is not None else None
                row[f"{side}_locked"] = state.locked if state is not None else None
            row["why"] = d.why
            out.append(row)
        return out


# ---------------------------------------------------------------------------------------------
# What a spec sequence says happened between two releases.


def _word(value: bool) -> str:
    return "on" if value else "off"


def _status(spec: FeatureSpec) -> str:
    text = f"{spec.stage.value}, default {_word(spec.default)}"
    return text + ", locked" if spec.lock_to_default else text


def spec_events(feature: Feature, after: Version, up_to: Version) -> tuple[Reason, ...]:
    """The spec changes of a gate with a version in (``after``, ``up_to``], oldest first."""
    lo, hi = (after.major, after.minor), (up_to.major, up_to.minor)
    events: list[Reason] = []
    for i, spec in enumerate(feature.specs):
        v = (spec.version.major, spec.version.minor)
        if not lo < v <= hi:
            continue
        prev = feature.specs[i - 1] if i > 0 else None
        needs = f" (with min compatibility >= {spec.min_compatibility_version})" if spec.min_compatibility_version else ""
        if prev is None:
            events.append(Reason("introduced", spec.version, f"introduced in {spec.version} as {_status(spec)}{needs}"))
            continue
        if spec.stage is not prev.stage:
            kind, verb = {
                Stage.BETA: ("promoted", "promoted to Beta"),
                Stage.GA: ("graduated", "graduated to GA"),
                Stage.DEPRECATED: ("deprecated", "deprecated"),
            }.get(spec.stage, ("stage", f"moved to {spec.stage.value}"))
            events.append(Reason(kind, spec.version, f"{verb} in {spec.version} (default {_word(spec.default)}){needs}"))
        elif spec.default != prev.default:
            events.append(
                Reason(f"default-{_word(spec.default)}", spec.version, f"default turned {_word(spec.default)} in {spec.version}{needs}")
            )
        if spec.lock_to_default and not prev.lock_to_default:
            events.append(Reason("locked", spec.version, f"locked to its default ({_word(spec.default)}) in {spec.version}"))
    return tuple(events)


def _min_compat_reason(feature: Feature, selection: VersionSelection) -> Reason | None:
    """Set when min compatibility keeps an older spec in effect at the selection's versions."""
    if not selection.rules.gates_use_min_compat:
        return None
    held = spec_at(feature, selection.emulated, selection.min_compat, True)
    free = spec_at(feature, selection.emulated, None, False)
    if held == free:
        return None
    return Reason(
        "min-compat",
        free.version,
        f"held back by min compatibility {selection.min_compat}: the {free.version} spec ({_status(free)}) "
        f"needs >= {free.effective_min_compatibility}",
    )


def _changed_fields(a: GateState | None, b: GateState | None) -> tuple[str, ...]:
    if a is None or b is None:
        return ("present",)
    return tuple(f for f in FIELDS if getattr(a, f) != getattr(b, f))


def _defaults(manifest: Manifest, selection: VersionSelection) -> GateEvaluation:
    return evaluate_gates(manifest, selection, None)


def _label(selection: VersionSelection) -> str:
    binary = selection.binary
    if binary is None:
        return f"manifest at {selection.emulated}"
    if mm(binary) == selection.emulated:
        return f"{mm(binary)} binary (not emulating)"
    return f"{mm(binary)} binary at {selection.emulated}"


# ---------------------------------------------------------------------------------------------
# The three comparisons.


def emulation_step(manifest: Manifest, left: VersionSelection, right: VersionSelection) -> Comparison:
    """The same binary (manifest) at two selections: every gate whose enabled/stage/default/lock
    differs, with the spec changes between the two emulated versions (either direction)."""
    a, b = _defaults(manifest, left).by_name(), _defaults(manifest, right).by_name()
    lo, hi = sorted((left.emulated, right.emulated))
    downward = right.emulated < left.emulated
    diffs = []
    for feature in manifest.features:
        sa, sb = a[feature.name], b[feature.name]
        fields = _changed_fields(sa, sb)
        if not fields:
            continue
        reasons = list(spec_events(feature, lo, hi))
        if downward:
            reasons = [Reason(r.kind, r.version, f"{r.text} (not yet at {right.emulated})") for r in reasons]
        for sel in (left, right):
            held = _min_compat_reason(feature, sel)
            if held is not None:
                reasons.append(held)
        diffs.append(GateDiff(feature.name, sa, sb, fields, tuple(reasons)))
    return Comparison(_label(left), _label(right), tuple(diffs))


def emulation_vs_binary(manifest: Manifest, selection: VersionSelection) -> Comparison:
    """``B at E`` (left) against ``B at B`` (right): what emulating E holds back or brings back.
    Read left to right it is the upgrade of the emulated version to the binary's own release."""
    native = select_versions(selection.binary)
    return emulation_step(manifest, selection, native)


def emulation_vs_release(
    binary_manifest: Manifest,
    selection: VersionSelection,
    release_manifest: Manifest,
    release_selection: VersionSelection | None = None,
) -> Comparison:
    """``B at E`` (left) against the real release E (right): the release's own manifest at its own
    version. Gates PreAlpha at E in the binary count as absent on the left (neither side offers
    them); gates missing from one manifest are listed with that side None."""
    if release_selection is None:
        release_selection = select_versions(selection.emulated)
    left = _defaults(binary_manifest, selection).by_name()
    right = _defaults(release_manifest, release_selection).by_name()
    b_label, e = mm(selection.binary) if selection.binary is not None else "custom", selection.emulated
    diffs = []
    for name in sorted(set(left) | set(right)):
        sl = left.get(name)
        sr = right.get(name)
        feature = binary_manifest.by_name.get(name)
        available_left = sl is not None and sl.stage is not Stage.PRE_ALPHA
        if not available_left and sr is None:
            continue
        reasons: list[Reason] = []
        if sr is None:
            since = spec_at(feature, e, None, False).version
            reasons.append(
                Reason(
                    "not-in-release",
                    since,
                    f"release {e} does not list it; the {b_label} manifest dates it to {since} (added or back-dated later)",
                )
            )
            diffs.append(GateDiff(name, sl, None, ("present",), tuple(reasons)))
            continue
        if feature is None:
            reasons.append(
                Reason(
                    "removed-from-binary",
                    None,
                    f"release {e} had it ({_state_text(sr)}); the {b_label} binary no longer registers it, so emulating {e} cannot bring it back",
                )
            )
            diffs.append(GateDiff(name, None, sr, ("present",), tuple(reasons)))
            continue
        fields = _changed_fields(sl, sr)
        if not fields:
            continue
        if not available_left:
            first = feature.first_version
            reasons.append(
                Reason(
                    "introduced-later-in-binary",
                    first,
                    f"the {b_label} manifest starts it in {first}, but release {e} already shipped it ({_state_text(sr)})",
                )
            )
        else:
            reasons.append(
                Reason(
                    "history-differs",
                    None,
                    f"the {b_label} manifest says {_state_text(sl)} at {e}; release {e} shipped {_state_text(sr)}",
                )
            )
            held = _min_compat_reason(feature, selection)
            if held is not None:
                reasons.append(held)
        diffs.append(GateDiff(name, sl, sr, fields, tuple(reasons)))
    return Comparison(_label(selection), f"release {e} (its own data)", tuple(diffs))


def _state_text(state: GateState) -> str:
    text = f"{state.stage.value}, default {_word(state.default)}"
    return text + ", locked" if state.locked else text


# ---------------------------------------------------------------------------------------------
# The Gates page table.

TABLE_COLUMNS = ("gate", "enabled", "stage", "default", "locked", "binary_stage", "changed")


def gate_table_rows(evaluation: GateEvaluation, native: GateEvaluation) -> list[dict]:
    """One row per gate of ``evaluation`` (the binary at the selection, flags applied):
    ``binary_stage`` is the stage in the binary's own release (``native``: the binary without
    emulation or flags) and ``changed`` says whether stage, default or lock differ from it."""
    by_name = native.by_name()
    rows = []
    for g in evaluation.gates:
        n = by_name.get(g.name)
        rows.append(
            {
                "gate": g.name,
                "enabled": g.enabled,
                "stage": g.stage.value,
                "default": g.default,
                "locked": g.locked,
                "binary_stage": n.stage.value if n is not None else None,
                "changed": n is None or (g.stage, g.default, g.locked) != (n.stage, n.default, n.locked),
            }
        )
    return rows
