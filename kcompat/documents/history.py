"""A gate's history as the timeline and gate detail documents write it: each stretch as a JSON item
and as one phrase of text ("Beta, default on, 1.28–1.30"; "locked" when locked to its default).

A placeholder version (0.0, 1.0: behaviour older than the gate) is never written as history: when
the data dates a gate's first spec to one, its history starts where its own history starts (the
``historyStart`` of the documents, :class:`~kcompat.core.placeholders.GateStart`), and the text
says that nothing before it is recorded ("before 1.36: not recorded; GA, default on, 1.36–1.37")."""

from __future__ import annotations

from collections.abc import Iterable

from kcompat.core.gate_history import Segment, recorded_segments
from kcompat.core.placeholders import GateStart
from kcompat.core.versions import subtract_minor

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import TypedDict

    class StretchDict(TypedDict):
        stage: str
        default: bool
        locked: bool
        #: the first release of the stretch (never a placeholder 0.0 / 1.0: the history start then)
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


def history_items(segments: tuple[Segment, ...], start: GateStart | None) -> list[StretchDict]:
    """The stretches from where the gate's own history starts, as JSON items."""
    return [stretch_item(s) for s in recorded_segments(segments, start.start if start is not None else None)]


def history_text(segments: Iterable[Segment], start: GateStart | None = None) -> str:
    """Every stretch from where the gate's own history starts, in order, as one line; after
    ``before 1.36: not recorded`` when the data dates its first spec to a placeholder."""
    if start is None:
        return "; ".join(stretch_text(s) for s in segments)
    shown = recorded_segments(tuple(segments), start.start)
    return "; ".join([f"before {start.start}: not recorded", *(stretch_text(s) for s in shown)])


def start_item(start: GateStart | None) -> StartDict | None:
    """Where the gate's own history starts when the data dates its first spec to a placeholder."""
    if start is None:
        return None
    return {"placeholder": str(start.placeholder), "start": str(start.start), "why": start.reason}
