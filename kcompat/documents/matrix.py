"""The ``kcompat matrix`` document, shown by the Release matrix page as well.

Every bundled release's own manifest at its own version (emulated = release, default min
compatibility), the transitions from one bundled release to the next and the removed gates, for
the gates and releases a :class:`~kcompat.core.history.MatrixFilter` keeps (everything without
one)::

    {"releases": ["1.31", ...],
     "gates": [{"name", "origin", "releases": {"1.31": {"stage", "default", "locked"} | null, ...}}],
     "transitions": {"1.35": {"newAlpha": [], "toBeta": [], "toGA": [], "deprecated": [], "removed": [],
                              "defaultFlipped": [], "locked": []}},
     "removedGates": [{"name", "origin", "lastRelease", "removedIn",
                       "lastSpec": {"version", "stage", "default", "locked"}, "behaviour"}],
     "filter": {"changed", "stages", "inRelease", "origins", "search", "changedOnly", "releases"},
     "patchTransitions": {"1.35": {"1.35.1": {"newAlpha": [], ..., "defaultFlipped": ["SchedulerAsyncAPICalls"]}}}}

``null``: the release does not list the gate. ``behaviour`` of a removed gate is what every
later binary does for that feature: ``always on`` or ``always off`` (its last spec's default).
``transitions`` and ``removedGates`` name only the gates shown; each release shown (but the
oldest bundled one) is compared with its previous bundled release, shown or not.
``patchTransitions``: for each release shown, the recorded patches that changed a gate shown (at
the release's own version, from the recorded patch before it); the release's column is its newest
recorded patch. ``kcompat matrix --patches 1.N`` shows one release's patches side by side
(:func:`patches_document`).
"""

from __future__ import annotations

from collections.abc import Mapping

from kcompat.documents import formats
from ..core.history import ALL_TRANSITION_KINDS, TRANSITION_KEYS, FilteredMatrix, GateStatus, ReleaseMatrix, ReleaseTransitions
from ..core.removals import GateLineage, RemovedGate

__all__ = ["TRANSITION_KEYS", "TRANSITION_LABELS", "matrix_document", "matrix_rows", "patches_document", "render", "render_patches"]
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


def _cell(status: GateStatus | None) -> dict | None:
    if status is None:
        return None
    return {"stage": status.stage.value, "default": status.default, "locked": status.locked}


def transitions_document(transitions: tuple[ReleaseTransitions, ...]) -> dict:
    return {t.release: {TRANSITION_KEYS[k]: list(t.gates(k)) for k in ALL_TRANSITION_KINDS} for t in transitions}


def removed_document(removal: RemovedGate) -> dict:
    spec = removal.last_spec
    return {
        "name": removal.name,
        "origin": removal.origin,
        "lastRelease": str(removal.last_release),
        "removedIn": str(removal.removed_in),
        "lastSpec": {"version": str(spec.version), "stage": spec.stage.value, "default": spec.default, "locked": spec.lock_to_default},
        "behaviour": removal.behaviour,
    }


def matrix_document(
    answer: FilteredMatrix, lineage: GateLineage, patch_changes: Mapping[str, tuple[ReleaseTransitions, ...]] | None = None
) -> dict:
    """The JSON contract of ``kcompat matrix``, from :func:`kcompat.answers.matrix.matrix`'s answer
    (``patch_changes``: :func:`kcompat.answers.patches.patch_changes`)."""
    matrix = answer.matrix
    shown = {r.gate for r in matrix.rows}
    patches = {}
    for release in matrix.releases:
        changed = {}
        for t in (patch_changes or {}).get(release, ()):
            kinds = {TRANSITION_KEYS[k]: [g for g in t.gates(k) if g in shown] for k in ALL_TRANSITION_KINDS}
            if any(kinds.values()):
                changed[t.release] = kinds
        if changed:
            patches[release] = changed
    return {
        "releases": list(matrix.releases),
        "gates": [
            {"name": r.gate, "origin": r.origin, "releases": {rel: _cell(c) for rel, c in zip(matrix.releases, r.cells)}}
            for r in matrix.rows
        ],
        "transitions": transitions_document(answer.transitions),
        "removedGates": [removed_document(g) for g in lineage.removals if g.name in shown],
        "filter": answer.filter.document(),
        "patchTransitions": patches,
    }


def patch_change_lines(document: dict) -> list[str]:
    """One line per release with a patch that changed a gate shown: ``1.35: 1.35.1 default flipped:
    SchedulerAsyncAPICalls; 1.35.4 default flipped: MaxUnavailableStatefulSet``."""
    lines = []
    for release, patches in document.get("patchTransitions", {}).items():
        parts = [f"{patch} {TRANSITION_LABELS[key].removesuffix(' in')}: {', '.join(names)}"
                 for patch, kinds in patches.items() for key, names in kinds.items() if names]
        lines.append(f"{release}: " + "; ".join(parts))
    return lines


def patches_document(release: str, patches: tuple[str, ...], base: str | None, matrix: ReleaseMatrix,
                     transitions: tuple[ReleaseTransitions, ...], specs_only: tuple[str, ...]) -> dict:
    """The JSON contract of ``kcompat matrix --patches 1.N`` (:class:`kcompat.answers.patches.PatchMatrix`)::

        {"release": "1.35", "patches": ["1.35.0", ..., "1.35.8"], "base": "1.35.8",
         "gates": [{"name", "origin", "patches": {"1.35.0": {"stage", "default", "locked"} | null, ...},
                    "specsOnly": false}],
         "transitions": {"1.35.1": {"newAlpha": [], ..., "defaultFlipped": [...], "locked": []}}}

    Each cell is the gate at the release's own version in that patch (null: the patch does not
    register it); ``gates`` are the gates whose registration, specs or dependencies differ between
    two recorded patches (``specsOnly``: the same state at the release's own version in every patch,
    the specs differ at other versions); ``transitions``: what each patch changed from the recorded
    patch before it."""
    return {
        "release": release,
        "patches": list(patches),
        "base": base,
        "gates": [
            {"name": r.gate, "origin": r.origin, "patches": {p: _cell(c) for p, c in zip(matrix.releases, r.cells)},
             "specsOnly": r.gate in specs_only}
            for r in matrix.rows
        ],
        "transitions": transitions_document(transitions),
    }


def render_patches(document: dict, fmt: str) -> str:
    """``kcompat matrix --patches 1.N --format <fmt>`` output: one row per gate, one column per patch."""
    if fmt == "json":
        return formats.to_json(document)
    rows = [{"gate": g["name"], "origin": g["origin"], **{p: cell_text(c) for p, c in g["patches"].items()}} for g in document["gates"]]
    return formats.render_rows(fmt, rows, ["gate", "origin", *document["patches"]])


def cell_text(cell: dict | None, removed: str | None = None) -> str:
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


def removal_at(document: dict, name: str, release: str) -> str | None:
    """The behaviour of ``name`` in ``release`` when the newest removal at or before it applies."""
    found = None
    for g in document["removedGates"]:
        if g["name"] == name and _key(g["removedIn"]) <= _key(release):
            if found is None or _key(g["removedIn"]) > _key(found["removedIn"]):
                found = g
    return found["behaviour"] if found is not None else None


def matrix_rows(document: dict) -> list[dict]:
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


def render(document: dict, fmt: str) -> str:
    """``kcompat matrix --format <fmt>`` output."""
    if fmt == "json":
        return formats.to_json(document)
    return formats.render_rows(fmt, matrix_rows(document), ["gate", "origin", *document["releases"]])
