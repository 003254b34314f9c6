"""The one stage -> colour mapping used by every chart and table.

Okabe-Ito colours: distinguishable with the common colour-vision deficiencies and readable on
both the light and the dark theme. ``STAGE_TEXT`` is the text colour to put on a filled cell."""

from __future__ import annotations

from kcompat.core.stages import STAGE_ORDER, Stage

STAGE_COLORS: dict[Stage, str] = {
    Stage.PRE_ALPHA: "#999999",
    Stage.ALPHA: "#E69F00",
    Stage.BETA: "#0072B2",
    Stage.GA: "#009E73",
    Stage.DEPRECATED: "#CC79A7",
}

STAGE_TEXT: dict[Stage, str] = {
    Stage.PRE_ALPHA: "#000000",
    Stage.ALPHA: "#000000",
    Stage.BETA: "#FFFFFF",
    Stage.GA: "#000000",
    Stage.DEPRECATED: "#000000",
}

#: Stage names in display order, and their colours in the same order (for Altair scales).
STAGE_NAMES: tuple[str, ...] = tuple(s.value for s in STAGE_ORDER)
STAGE_RANGE: tuple[str, ...] = tuple(STAGE_COLORS[s] for s in STAGE_ORDER)

#: Colours of the per-release transition counts (the stage each transition leads to).
TRANSITION_COLORS: dict[str, str] = {
    "new alpha": STAGE_COLORS[Stage.ALPHA],
    "new": "#56B4E9",  # a gate that came in at Beta, GA or Deprecated (Okabe-Ito sky blue)
    "to beta": STAGE_COLORS[Stage.BETA],
    "to GA": STAGE_COLORS[Stage.GA],
    "deprecated": STAGE_COLORS[Stage.DEPRECATED],
    "removed": "#D55E00",
}
