"""Feature stages (component-base ``featuregate`` prerelease constants, SPEC §3.4)."""

from __future__ import annotations

from enum import StrEnum


class Stage(StrEnum):
    PRE_ALPHA = "PreAlpha"
    ALPHA = "Alpha"
    BETA = "Beta"
    GA = "GA"
    DEPRECATED = "Deprecated"

    def __str__(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        """The help/metric label Kubernetes prints (``ALPHA``, ``BETA``, ``''`` for GA...)."""
        return _LABELS[self]


_LABELS = {
    Stage.PRE_ALPHA: "PRE-ALPHA",
    Stage.ALPHA: "ALPHA",
    Stage.BETA: "BETA",
    Stage.GA: "",
    Stage.DEPRECATED: "DEPRECATED",
}

#: Stages a manifest may name (PreAlpha is synthetic: "not introduced yet").
MANIFEST_STAGES = (Stage.ALPHA, Stage.BETA, Stage.GA, Stage.DEPRECATED)

#: Stability order used by gate dependencies (SPEC §5.6): Deprecated < Alpha = PreAlpha < Beta < GA.
STABILITY_RANK = {Stage.DEPRECATED: 0, Stage.ALPHA: 1, Stage.PRE_ALPHA: 1, Stage.BETA: 2, Stage.GA: 3}

#: Display order, earliest first.
STAGE_ORDER = (Stage.PRE_ALPHA, Stage.ALPHA, Stage.BETA, Stage.GA, Stage.DEPRECATED)
