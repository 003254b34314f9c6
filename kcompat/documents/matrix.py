"""The ``kcompat matrix`` document, shown by the Release matrix page as well.

Every bundled release's own manifest at its own version (emulated = release, default min
compatibility), the transitions from one bundled release to the next and the removed gates, for
the gates and releases a :class:`~kcompat.core.matrix_filter.MatrixFilter` keeps (everything without
one)::

    {"releases": ["1.31", ...],
     "gates": [{"name", "origin", "releases": {"1.31": {"stage", "default", "locked"} | null, ...}}],
     "transitions": {"1.35": {"newAlpha": [], "toBeta": [], "toGA": [], "deprecated": [], "removed": [],
                              "defaultFlipped": [], "locked": []}},
     "removedGates": [{"name", "origin", "lastRelease", "removedIn",
                       "lastSpec": {"version", "stage", "default", "locked"}, "behaviour"}],
     "filter": {"changed", "stages", "inRelease", "origins", "search", "changedOnly", "releases"}}

``null``: the release does not list the gate. ``behaviour`` of a removed gate is what every
later binary does for that feature: ``always on`` or ``always off`` (its last spec's default).
``transitions`` and ``removedGates`` name only the gates shown; each release shown (but the
oldest bundled one) is compared with its previous bundled release, shown or not.
"""

from __future__ import annotations

from kcompat.documents import formats

from ..core.gate_history import GateStatus
from ..core.matrix import ALL_TRANSITION_KINDS, TRANSITION_KEYS, ReleaseTransitions
from ..core.matrix_filter import FilteredMatrix
from ..core.removals import GateLineage, RemovedGate

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


__all__ = ["TRANSITION_KEYS", "TRANSITION_LABELS", "matrix_document", "matrix_rows", "render"]
#: JSON key -> what the page says ("graduated to GA in 1.35")
TRANSITION_LABELS = {
    "newAlpha": "new as Alpha in",
    "toBeta": "promoted to Beta in",
    "toGA": "graduated to GA in",
    "deprecated": "deprecated in",
    "removed": "removed in",
    "defaultFlipped": "default flipped in",
    "locked": "locked to its default in",
}


def _cell(status: GateStatus | None) -> dict[str, Any] | None:
    if status is None:
        return None
    return {"stage": status.stage.value, "default": status.default, "locked": status.locked}


def transitions_document(transitions: tuple[ReleaseTransitions, ...]) -> dict[str, Any]:
    return {t.release: {TRANSITION_KEYS[k]: list(t.gates(k)) for k in ALL_TRANSITION_KINDS} for t in transitions}


def removed_document(removal: RemovedGate) -> dict[str, Any]:
    spec = removal.last_spec
    return {
        "name": removal.name,
        "origin": removal.origin,
        "lastRelease": str(removal.last_release),
        "removedIn": str(removal.removed_in),
        "lastSpec": {"version": str(spec.version), "stage": spec.stage.value, "default": spec.default, "locked": spec.lock_to_default},
        "behaviour": removal.behaviour,
    }


def matrix_document(answer: FilteredMatrix, lineage: GateLineage) -> dict[str, Any]:
    """The JSON contract of ``kcompat matrix``, from :func:`kcompat.answers.matrix.matrix`'s answer."""
    matrix = answer.matrix
    shown = {r.gate for r in matrix.rows}
    return {
        "releases": list(matrix.releases),
        "gates": [
            {"name": r.gate, "origin": r.origin, "releases": {rel: _cell(c) for rel, c in zip(matrix.releases, r.cells, strict=True)}}
            for r in matrix.rows
        ],
        "transitions": transitions_document(answer.transitions),
        "removedGates": [removed_document(g) for g in lineage.removals if g.name in shown],
        "filter": answer.filter.document(),
    }


def cell_text(cell: dict[str, Any] | None, removed: str | None = None) -> str:
    """``Beta (on)``, ``GA (on, locked)``, ``PreAlpha``, ``removed (always on)`` (not listed any more:
    ``removed`` is the removal's behaviour), ``—`` (not listed yet)."""
    if cell is None:
        return f"removed ({removed})" if removed else "—"
    if cell["stage"] == "PreAlpha":
        return "PreAlpha"
    extra = "on" if cell["default"] else "off"
    if cell["locked"]:
        extra += ", locked"
    return f"{cell['stage']} ({extra})"


def _key(release: str) -> tuple[int, ...]:
    return tuple(int(p) for p in release.split("."))


def removal_at(document: dict[str, Any], name: str, release: str) -> str | None:
    """The behaviour of ``name`` in ``release`` when the newest removal at or before it applies."""
    found = None
    for g in document["removedGates"]:
        if g["name"] == name and _key(g["removedIn"]) <= _key(release) and (found is None or _key(g["removedIn"]) > _key(found["removedIn"])):
            found = g
    return found["behaviour"] if found is not None else None


def matrix_rows(document: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per gate: ``gate``, ``origin`` and a :func:`cell_text` per release."""
    removed = {g["name"] for g in document["removedGates"]}
    rows = []
    for g in document["gates"]:
        cells = {}
        for rel in document["releases"]:
            cell = g["releases"][rel]
            gone = removal_at(document, g["name"], rel) if cell is None and g["name"] in removed else None
            cells[rel] = cell_text(cell, gone)
        rows.append({"gate": g["name"], "origin": g["origin"], **cells})
    return rows


def render(document: dict[str, Any], fmt: str) -> str:
    """``kcompat matrix --format <fmt>`` output."""
    if fmt == "json":
        return formats.to_json(document)
    return formats.render_rows(fmt, matrix_rows(document), ["gate", "origin", *document["releases"]])
