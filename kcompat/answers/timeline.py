"""The timeline question: every gate of a binary's manifest and its stages across releases, asked
the same way by ``kcompat timeline`` and the Timeline page (written by
:mod:`kcompat.documents.timeline`).

Each row is one gate: its stage at the emulated version and the stretches of its history (one per
distinct stage, default and lock, from the binary's manifest up to its release). Rows are filtered
by stage at the emulated version and by the gate search, and ordered by first version, name or
stage.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kcompat.answers.gates import gate_texts, gates, require_accepted
from kcompat.answers.matrix import bundled_matrix
from kcompat.answers.queries import newest_release
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.errors import KcompatError, quote_cut
from kcompat.core.gate_history import Segment, timeline_segments
from kcompat.core.matrix import listed_since
from kcompat.core.placeholders import GateStart, gate_starts
from kcompat.core.request import Request
from kcompat.core.stages import STAGE_ORDER
from kcompat.core.versions import offset_minor, parse_version
from kcompat.data.catalog import Catalog

#: The row orders: by first version (then name), by name, by stage at the emulated version.
SORTS = ("introduced", "name", "stage at emulated")
#: The stages a row can have at the emulated version, in display order.
STAGE_NAMES = tuple(s.value for s in STAGE_ORDER)


@dataclass(frozen=True)
class TimelineRow:
    gate: str
    #: the stage at the emulated version ("PreAlpha": not yet introduced)
    stage: str
    #: the stretches of its history, oldest first
    segments: tuple[Segment, ...]
    #: where its own history starts when the data dates its first spec to a placeholder
    start: GateStart | None
    #: after a search: where the query found the gate (name, KEP, abbreviation, description)
    matched: str | None = None


@dataclass(frozen=True)
class TimelineAnswer:
    binary: str
    emulated: str
    min_compat: str
    #: the gates shown (filters applied), in order
    rows: tuple[TimelineRow, ...]
    #: gates of the binary's manifest, before the filters
    total: int
    #: the oldest bundled release (the axis starts there at the earliest)
    oldest: str
    sort: str
    stages: tuple[str, ...] = ()
    search: str = ""

    @property
    def segments(self) -> tuple[Segment, ...]:
        """Every row's stretches, rows in order."""
        return tuple(s for r in self.rows for s in r.segments)

    @property
    def starts(self) -> dict[str, GateStart]:
        """Gate -> where its own history starts, for the rows dated to a placeholder."""
        return {r.gate: r.start for r in self.rows if r.start is not None}


def order(segments: Iterable[Segment], sort: str = "introduced", stage_at: dict[str, str] | None = None) -> list[str]:
    """Gate order of the rows: by first version (then name), by name, or by the stage at the
    emulated version (``stage_at``: gate -> stage name) in stage order (then name). Gates without
    a stretch (PreAlpha in every spec up to the binary) have no row."""
    first: dict[str, tuple[int, int]] = {}
    for s in segments:
        key = (s.start.major, s.start.minor)
        if s.gate not in first or key < first[s.gate]:
            first[s.gate] = key
    names = sorted(first)
    if sort == "name":
        return names
    if sort == "stage at emulated" and stage_at is not None:
        rank = {name: i for i, name in enumerate(STAGE_NAMES)}
        return sorted(names, key=lambda n: (rank.get(stage_at.get(n, ""), len(rank)), n))
    return sorted(names, key=lambda n: (first[n], n))


def _choices(values: Sequence[str], allowed: Sequence[str], option: str) -> tuple[str, ...]:
    for value in values:
        if value not in allowed:
            raise KcompatError(f"{option} {quote_cut(value)} is not one of {', '.join(allowed)}")
    return tuple(values)


@dataclass(frozen=True, slots=True)
class TimelineQuery:
    """What the timeline shows of a selection: the rows at ``stages`` at the emulated version
    (none: every stage) found by ``search``, in ``sort`` order; ``refuse``: a selection the
    binary refuses raises :class:`~kcompat.answers.startup.SelectionRefused` (``kcompat timeline``)."""

    stages: tuple[str, ...] = ()
    search: str | None = None
    sort: str = "introduced"
    refuse: bool = False


def timeline(catalog: Catalog, request: Request, query: TimelineQuery | None = None) -> TimelineAnswer:
    """The history of every gate of the request's binary's manifest (the newest bundled release
    without one), the rows :class:`TimelineQuery` keeps, in its order."""
    query = query or TimelineQuery()
    search, sort = query.search, query.sort
    stages = _choices(query.stages, STAGE_NAMES, "--stage")
    _choices((sort,), SORTS, "--sort")
    answer = gates(catalog, Request(request.binary or newest_release(catalog), request.emulated, request.min_compat))
    if query.refuse:
        require_accepted(answer)
    version = parse_binary_version(answer.binary or "")
    release = f"{version.major}.{version.minor}"
    manifest = catalog.manifest_for(version)[0]  # at its patch: 1.35.0 as v1.35.0 registers its gates
    segments = timeline_segments(manifest, offset_minor(version, 1), select_versions(version).rules.gates_use_min_compat)
    stage_at = {r.name: r.stage for r in answer.rows}
    text = (search or "").strip()
    found = set(stage_at)
    matched: dict[str, str] = {}
    if text:
        from kcompat.core.search import search_matches

        matched = search_matches(text, stage_at, gate_texts(catalog))
        found = set(matched)
    keep = {name for name, stage in stage_at.items() if (not stages or stage in stages) and name in found}
    shown = tuple(s for s in segments if s.gate in keep)
    usable = catalog.usable_releases()
    oldest = parse_version(usable[0]) if usable else None
    starts = gate_starts(manifest.features, version, listed_since(bundled_matrix(catalog)), oldest)
    by_gate: dict[str, list[Segment]] = {}
    for s in shown:
        by_gate.setdefault(s.gate, []).append(s)
    rows = tuple(
        TimelineRow(name, stage_at[name], tuple(by_gate[name]), starts.get(name), matched.get(name))
        for name in order(shown, sort, stage_at)
    )
    return TimelineAnswer(
        release, answer.emulated, answer.min_compat, rows, len(stage_at), usable[0] if usable else release, sort, stages, text,
    )
