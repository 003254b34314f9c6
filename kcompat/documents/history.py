"""A gate's history as the timeline and gate detail documents write it: each stretch as a JSON item
and as one phrase of text ("Beta, default on, 1.28–1.30"; "locked" when locked to its default)."""

from __future__ import annotations

from collections.abc import Iterable

from kcompat.core.gate_history import Segment
from kcompat.core.placeholders import GateStart
from kcompat.core.versions import subtract_minor

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import TypedDict

    class StretchDict(TypedDict):
        stage: str
        default: bool
        locked: bool
        #: the first release of the stretch, as the spec gives it (a placeholder 0.0 / 1.0 included)
        since: str
        #: the last release of the stretch
        until: str

    class StartDict(TypedDict):
        placeholder: str
        start: str
        why: str


def stretch_item(segment: Segment) -> StretchDict:
    last = subtract_minor(segment.end, 1)
    return {
        "stage": segment.stage.value,
        "default": segment.default,
        "locked": segment.locked,
        "since": str(segment.start),
        "until": str(last if last > segment.start else segment.start),
    }


def stretch_text(segment: Segment) -> str:
    """``Beta, default on, 1.28–1.30``; ``GA, default on, locked, 1.33``."""
    last = subtract_minor(segment.end, 1)
    span = f"{segment.start}" if last <= segment.start else f"{segment.start}–{last}"
    lock = ", locked" if segment.locked else ""
    return f"{segment.stage.value}, default {'on' if segment.default else 'off'}{lock}, {span}"


def history_text(segments: Iterable[Segment]) -> str:
    """Every stretch, in order, as one line."""
    return "; ".join(stretch_text(s) for s in segments)


def start_item(start: GateStart | None) -> StartDict | None:
    """Where the gate's own history starts when the data dates its first spec to a placeholder."""
    if start is None:
        return None
    return {"placeholder": str(start.placeholder), "start": str(start.start), "why": start.reason}
