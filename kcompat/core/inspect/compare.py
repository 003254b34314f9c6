"""Observed against predicted: each ``kubernetes_feature_enabled`` sample on ``/metrics``
compared with the engine's answer for the same selection.

A real binary records one sample per gate that is not PreAlpha at its emulated version, plus
``AllAlpha`` and ``AllBeta`` (component-base ``featuregate/feature_gate.go`` ``AddMetrics`` over
``GetAll``), with the stage label of the spec in effect (:attr:`Stage.label`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..gates import GateEvaluation
from ..manifest import GateState
from ..stages import Stage
from .model import ObservedGate


@dataclass(frozen=True)
class Disagreement:
    name: str
    predicted: bool
    observed: bool
    stage: str
    predicted_stage: str
    likely: str
    where: str


@dataclass(frozen=True)
class Comparison:
    gates: int
    agree: int
    disagree: tuple[Disagreement, ...]
    #: names on /metrics the engine does not know (client-go gates, a fork's own gates...)
    unknown: tuple[str, ...]
    #: gates the engine predicts on /metrics that the input does not show
    missing: tuple[str, ...]


def predicted_on_metrics(evaluation: GateEvaluation) -> dict[str, GateState]:
    """The gates a binary with this selection lists on /metrics: every gate not PreAlpha, and
    AllAlpha/AllBeta."""
    shown = {g.name: g for g in evaluation.gates if g.stage is not Stage.PRE_ALPHA}
    shown.update({m.name: m for m in evaluation.meta})
    return shown


def likely_cause(gate: GateState | None, seen: ObservedGate, explicit: bool, emulated: str) -> str:
    """A suggestion for why the cluster differs from the prediction."""
    if gate is None or gate.stage is Stage.PRE_ALPHA:
        return (
            f"the engine has {seen.name} not yet introduced at emulated {emulated}: the binary is not the "
            "release it reports, or a fork's build registers the gate earlier"
        )
    if gate.stage.label != seen.stage:
        return (
            f"stage {seen.stage or 'GA'} on the cluster but {gate.stage.label or 'GA'} at emulated {emulated}: "
            "a fork's or patched build with its own gate list, or a different emulated version"
        )
    if explicit:
        return (
            f"the inputs set {seen.name}={'true' if gate.enabled else 'false'} but the binary does not have it: "
            "the inputs are not the running configuration (an older manifest or config)"
        )
    value = "true" if seen.enabled else "false"
    return (
        f"--feature-gates={seen.name}={value} set outside the inputs (a flag not shown, a --config file), "
        "or a distribution that changes the default"
    )


def compare_observed(evaluation: GateEvaluation, observed: tuple[ObservedGate, ...]) -> Comparison:
    """Agreements, disagreements (value or stage), names the engine does not know, and
    predicted gates the input does not show."""
    predicted = predicted_on_metrics(evaluation)
    known = {g.name: g for g in evaluation.gates}
    known.update({m.name: m for m in evaluation.meta})
    explicit = set(evaluation.flags.values)
    emulated = str(evaluation.selection.emulated)
    agree, disagree, unknown = 0, [], []
    for seen in observed:
        gate = known.get(seen.name)
        if gate is None:
            unknown.append(seen.name)
            continue
        shown = predicted.get(seen.name)
        if shown is not None and shown.enabled == seen.enabled and shown.stage.label == seen.stage:
            agree += 1
            continue
        disagree.append(
            Disagreement(
                name=seen.name,
                predicted=bool(shown.enabled) if shown is not None else False,
                observed=seen.enabled,
                stage=seen.stage,
                predicted_stage=gate.stage.label,
                likely=likely_cause(shown, seen, seen.name in explicit, emulated),
                where=str(seen.where),
            )
        )
    names = {g.name for g in observed}
    missing = tuple(sorted(n for n in predicted if n not in names))
    return Comparison(len(observed), agree, tuple(disagree), tuple(sorted(unknown)), missing)
