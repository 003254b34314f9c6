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


ALL_TRANSITION_KINDS = TRANSITION_KINDS + FLAG_TRANSITION_KINDS


#: transition kind -> the key that names it in a filter (``1.35:toGA``) and in the JSON document
TRANSITION_KEYS = {
    "new alpha": "newAlpha",
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
    * to beta / to GA / deprecated: now at that stage, at another stage (or absent) before; "to GA"
      in 1.35 is exactly the gates GA in release 1.35 and not GA in release 1.34;
    * removed: listed before, absent now (the KEP's "Removed" stage does not exist in code; what the
      feature does from then on is :class:`~kcompat.core.removals.RemovedGate`);
    * default flipped: listed in both, with another default now (on -> off or off -> on);
    * locked: locked to its default now, not locked (or absent) before.
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

    def gates(self, kind: str) -> tuple[str, ...]:
        return {
            "new alpha": self.new_alpha,
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
        return ReleaseTransitions(
            self.release, self.previous, *(tuple(g for g in self.gates(k) if g in keep) for k in ALL_TRANSITION_KINDS)
        )


def _changes(before: GateStatus | None, now: GateStatus | None) -> list[str]:
    """The transition kinds of one gate from one release (``before``) to the next (``now``)."""
    had = before is not None and before.available
    has = now is not None and now.available
    if had and not has:
        return ["removed"]
    if now is None or not has:
        return []
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
            for kind in _changes(row.cells[i - 1], row.cells[i]):
                found[kind].append(row.gate)
        out.append(
            ReleaseTransitions(
                matrix.releases[i],
                matrix.releases[i - 1],
                *(tuple(found[kind]) for kind in ALL_TRANSITION_KINDS),
            )
        )
    return tuple(out)
