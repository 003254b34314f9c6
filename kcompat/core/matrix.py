"""The release matrix: every bundled release's own manifest at its own version (the state each
release actually shipped, :func:`release_matrix`), and what changed from one release to the next
(:func:`release_transitions`: stage moves, removals, default flips, locks). Filtering it is
:mod:`.matrix_filter`'s. Pure functions over manifests (no I/O, no UI).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from .compat import select_versions
from .gate_history import GateStatus
from .manifest import Manifest, spec_at
from .stages import Stage
from .versions import Version, mm, parse_version


@dataclass(frozen=True)
class MatrixRow:
    gate: str
    #: One entry per release of the matrix: the status that release shipped, None when the
    #: release's manifest does not list the gate.
    cells: tuple[GateStatus | None, ...]
    #: "kube" or "client-go", from the newest release that lists the gate
    origin: str = "kube"

    def present(self) -> tuple[bool, ...]:
        return tuple(c is not None and c.available for c in self.cells)


@dataclass(frozen=True)
class ReleaseMatrix:
    releases: tuple[str, ...]
    rows: tuple[MatrixRow, ...]

    def row(self, gate: str) -> MatrixRow | None:
        for r in self.rows:
            if r.gate == gate:
                return r
        return None

    def column(self, release: str) -> dict[str, GateStatus]:
        i = self.releases.index(release)
        return {r.gate: cell for r in self.rows if (cell := r.cells[i]) is not None}


def release_matrix(manifests: Sequence[tuple[str, Manifest]] | Mapping[str, Manifest]) -> ReleaseMatrix:
    """Gates x releases: the state each release's own manifest gives at its own version.

    ``manifests`` are (release, manifest) pairs, oldest first; the rows are the union of all gate
    names, sorted."""
    pairs = list(manifests.items()) if isinstance(manifests, Mapping) else list(manifests)
    columns = []
    for release, manifest in pairs:
        selection = select_versions(mm(parse_version(release)))
        use_mc = selection.rules.gates_use_min_compat
        columns.append(
            {
                f.name: GateStatus.of(spec_at(f, selection.emulated, selection.min_compat, use_mc))
                for f in manifest.features
            }
        )
    names = sorted({name for column in columns for name in column})
    origins = {f.name: f.origin for _, manifest in pairs for f in manifest.features}
    rows = tuple(MatrixRow(name, tuple(column.get(name) for column in columns), origins[name]) for name in names)
    return ReleaseMatrix(tuple(r for r, _ in pairs), rows)


def listed_since(matrix: ReleaseMatrix) -> dict[str, Version]:
    """Gate -> the first release of ``matrix`` whose own manifest lists it."""
    out = {}
    for row in matrix.rows:
        for release, cell in zip(matrix.releases, row.cells, strict=True):
            if cell is not None:
                out[row.gate] = mm(parse_version(release))
                break
    return out


#: Stage moves from one release to the next (the kinds the "changes per release" chart draws).
TRANSITION_KINDS = ("new alpha", "to beta", "to GA", "deprecated", "removed")


#: Changes of a gate that stays listed at its stage or not: its default, its lock.
FLAG_TRANSITION_KINDS = ("default flipped", "locked")


#: A gate first listed in a release (absent from every earlier release of the matrix) at a stage
#: after Alpha: it did not move to that stage, it came in with it (a new Alpha gate is "new alpha").
NEW_KIND = "new"


#: Every kind, in display order: the new gates first, then the moves and the flag changes.
ALL_TRANSITION_KINDS = ("new alpha", NEW_KIND, *TRANSITION_KINDS[1:], *FLAG_TRANSITION_KINDS)

#: What the "changes per release" chart draws: the gates that came in (at Alpha, or at a later
#: stage) and the stage moves.
STAGE_TRANSITION_KINDS = ("new alpha", NEW_KIND, *TRANSITION_KINDS[1:])


#: transition kind -> the key that names it in a filter (``1.35:toGA``) and in the JSON document
TRANSITION_KEYS = {
    "new alpha": "newAlpha",
    "new": "new",
    "to beta": "toBeta",
    "to GA": "toGA",
    "deprecated": "deprecated",
    "removed": "removed",
    "default flipped": "defaultFlipped",
    "locked": "locked",
}


@dataclass(frozen=True)
class ReleaseTransitions:
    """What changed from ``previous`` to ``release`` (both bundled releases' own manifests).

    * new alpha: listed as Alpha, absent (or PreAlpha) in the previous release;
    * new: first listed in ``release`` (absent from every earlier release of the matrix) at Beta, GA
      or Deprecated: a new gate at the stage it came in with, not a move (none of the kinds below);
    * to beta / to GA / deprecated: now at that stage, at another stage (or not available) before,
      listed in an earlier release; "to GA" in 1.35 is exactly the gates GA in release 1.35, not GA
      in release 1.34 and not new in 1.35;
    * removed: listed before, absent now (the KEP's "Removed" stage does not exist in code; what the
      feature does from then on is :class:`~kcompat.core.removals.RemovedGate`);
    * default flipped: listed in both, with another default now (on -> off or off -> on);
    * locked: locked to its default now, not locked (or not listed) before, not new.
    """

    release: str
    previous: str
    new_alpha: tuple[str, ...]
    to_beta: tuple[str, ...]
    to_ga: tuple[str, ...]
    deprecated: tuple[str, ...]
    removed: tuple[str, ...]
    default_flipped: tuple[str, ...] = ()
    locked: tuple[str, ...] = ()
    new: tuple[str, ...] = ()

    def gates(self, kind: str) -> tuple[str, ...]:
        return {
            "new alpha": self.new_alpha,
            "new": self.new,
            "to beta": self.to_beta,
            "to GA": self.to_ga,
            "deprecated": self.deprecated,
            "removed": self.removed,
            "default flipped": self.default_flipped,
            "locked": self.locked,
        }[kind]

    def counts(self, kinds: Sequence[str] = TRANSITION_KINDS) -> dict[str, int]:
        """How many gates each kind names (the stage moves unless ``kinds`` says otherwise)."""
        return {kind: len(self.gates(kind)) for kind in kinds}

    def only(self, gates: Collection[str]) -> ReleaseTransitions:
        """The same transitions, naming only ``gates``."""
        keep = set(gates)
        return _transitions(self.release, self.previous, {k: [g for g in self.gates(k) if g in keep] for k in ALL_TRANSITION_KINDS})


def _transitions(release: str, previous: str, found: Mapping[str, Sequence[str]]) -> ReleaseTransitions:
    return ReleaseTransitions(
        release, previous, tuple(found["new alpha"]), tuple(found["to beta"]), tuple(found["to GA"]),
        tuple(found["deprecated"]), tuple(found["removed"]), tuple(found["default flipped"]), tuple(found["locked"]),
        tuple(found[NEW_KIND]),
    )


def _changes(before: GateStatus | None, now: GateStatus | None, listed_earlier: bool = True) -> list[str]:
    """The transition kinds of one gate from one release (``before``) to the next (``now``);
    ``listed_earlier``: some release before ``now``'s lists the gate (else it is new in ``now``'s)."""
    had = before is not None and before.available
    has = now is not None and now.available
    if had and not has:
        return ["removed"]
    if now is None or not has:
        return []
    if not listed_earlier and now.stage is not Stage.ALPHA:
        return [NEW_KIND]
    kinds = []
    if now.stage is Stage.ALPHA and not had:
        kinds.append("new alpha")
    for stage, kind in ((Stage.BETA, "to beta"), (Stage.GA, "to GA"), (Stage.DEPRECATED, "deprecated")):
        if now.stage is stage and (before is None or not had or before.stage is not stage):
            kinds.append(kind)
    if had and before is not None and before.default != now.default:
        kinds.append("default flipped")
    if now.locked and (before is None or not had or not before.locked):
        kinds.append("locked")
    return kinds


def release_transitions(matrix: ReleaseMatrix) -> tuple[ReleaseTransitions, ...]:
    """One entry per release that has a predecessor in the matrix (the oldest has no baseline)."""
    out = []
    for i in range(1, len(matrix.releases)):
        found: dict[str, list[str]] = {kind: [] for kind in ALL_TRANSITION_KINDS}
        for row in matrix.rows:
            listed_earlier = any(c is not None for c in row.cells[:i])
            for kind in _changes(row.cells[i - 1], row.cells[i], listed_earlier):
                found[kind].append(row.gate)
        out.append(_transitions(matrix.releases[i], matrix.releases[i - 1], found))
    return tuple(out)


#: What the patch lists say of a patch between two recorded ones that the data has no recording of
#: (and no reason for: the data records what was recorded, not why another patch was not).
PATCH_NOT_RECORDED = "not recorded (no recording in the bundled data, and no reason given)"


def unrecorded_patches(patches: Sequence[str]) -> tuple[str, ...]:
    """The patch releases between the first and the last of ``patches`` (``1.35.6``, ``1.35.8``)
    that are not among them (``1.35.7``); pre-releases and other names are not counted."""
    numbers: dict[tuple[int, int], set[int]] = {}
    for name in patches:
        parts = name.split(".")
        if len(parts) == 3 and all(p.isdigit() for p in parts):
            numbers.setdefault((int(parts[0]), int(parts[1])), set()).add(int(parts[2]))
    return tuple(
        f"{major}.{minor}.{p}"
        for (major, minor), found in sorted(numbers.items())
        for p in range(min(found), max(found) + 1)
        if p not in found
    )
