"""The ``kcompat matrix`` document, shown by the Release matrix page as well.

Every bundled release's own manifest at its own version (emulated = release, default min
compatibility), the transitions from one bundled release to the next and the removed gates, for
the gates and releases a :class:`~kcompat.core.matrix_filter.MatrixFilter` keeps (everything without
one)::

    {"releases": ["1.31", ...], "releaseData": {"1.31": "exact", "1.34": "reconstructed", "1.38": "pre-release"},
     "gates": [{"name", "origin", "releases": {"1.31": {"stage", "default", "locked"} | null, ...},
                "matched" (with a search only: name, KEP, abbreviation or description)}],
     "transitions": {"1.35": {"newAlpha": [], "new": [], "toBeta": [], "toGA": [], "deprecated": [], "removed": [],
                              "defaultFlipped": [], "locked": []}},
     "removedGates": [{"name", "origin", "lastRelease", "removedIn",
                       "lastSpec": {"version", "stage", "default", "locked"}, "behaviour"}],
     "filter": {"changed", "stages", "inRelease", "origins", "search", "changedOnly", "releases", "removableIn"},
     "removable": null | {"release", "base", "floor", "rule", "sources", "note", "lockedGates",
                          "gates": [{"name", "origin", "state", "lockedSince", "lastSettable", "removedInRelease"}]},
     "patchTransitions": {"1.35": {"1.35.1": {"newAlpha": [], ..., "defaultFlipped": ["SchedulerAsyncAPICalls"]}}}}

``null``: the release does not list the gate. ``releaseData`` says how faithful each release's
data is (``exact``: the release itself; ``reconstructed``; ``pre-release``: read from a pre-release); the
table, CSV and Markdown headers carry it (``1.34 (reconstructed)``). ``behaviour`` of a removed gate is what every
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

from ..core.gate_history import GateStatus
from ..core.matrix import (
    ALL_TRANSITION_KINDS,
    PATCH_NOT_RECORDED,
    TRANSITION_KEYS,
    ReleaseMatrix,
    ReleaseTransitions,
    unrecorded_patches,
)
from ..core.matrix_filter import FilteredMatrix
from ..core.removable import RULE, SOURCES, RemovableGates
from ..core.removals import GateLineage, RemovedGate

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "TRANSITION_KEYS", "TRANSITION_LABELS", "matrix_columns", "matrix_document", "matrix_rows", "patches_document", "release_header",
    "removable_rule_text", "render", "render_patches",
]
#: JSON key -> what the page says ("graduated to GA in 1.35")
TRANSITION_LABELS = {
    "newAlpha": "new as Alpha in",
    "new": "new (at Beta, GA or Deprecated) in",
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


def matrix_document(
    answer: FilteredMatrix, lineage: GateLineage, provenance: Mapping[str, str] | None = None,
    patch_changes: Mapping[str, tuple[ReleaseTransitions, ...]] | None = None,
) -> dict[str, Any]:
    """The JSON contract of ``kcompat matrix``, from :func:`kcompat.answers.matrix.matrix`'s answer;
    ``provenance``: release -> how faithful its data is (``exact``, ``reconstructed``, ``pre-release``;
    :func:`kcompat.answers.matrix.release_provenance`), for the releases shown; ``patch_changes``:
    :func:`kcompat.answers.patches.patch_changes`."""
    matrix = answer.matrix
    shown = {r.gate for r in matrix.rows}
    matched = answer.matched
    return {
        "releases": list(matrix.releases),
        "releaseData": {r: provenance.get(r, "exact") for r in matrix.releases} if provenance is not None else None,
        "gates": [
            {
                "name": r.gate, "origin": r.origin, "releases": {rel: _cell(c) for rel, c in zip(matrix.releases, r.cells, strict=False)},
                **({"matched": matched[r.gate]} if matched is not None else {}),
            }
            for r in matrix.rows
        ],
        "transitions": transitions_document(answer.transitions),
        "removedGates": [removed_document(g) for g in lineage.removals if g.name in shown],
        "filter": answer.filter.document(),
        "removable": removable_document(answer.removable, shown) if answer.removable is not None else None,
        "patchTransitions": _patch_transitions(matrix, shown, patch_changes or {}),
    }


def _patch_transitions(matrix: ReleaseMatrix, shown: set[str], patch_changes: Mapping[str, tuple[ReleaseTransitions, ...]]) -> dict[str, Any]:
    """Release -> patch -> what that patch changed among the gates shown (patches that changed none left out)."""
    patches = {}
    for release in matrix.releases:
        changed = {}
        for t in patch_changes.get(release, ()):
            kinds = {TRANSITION_KEYS[k]: [g for g in t.gates(k) if g in shown] for k in ALL_TRANSITION_KINDS}
            if any(kinds.values()):
                changed[t.release] = kinds
        if changed:
            patches[release] = changed
    return patches


def removable_document(removable: RemovableGates, shown: set[str]) -> dict[str, Any]:
    """``kcompat matrix --removable-in R``: the rule, its sources and the gates shown. ``lockedSince``:
    the release since which the gate is locked; ``lastSettable``: the release before it (null for a
    lock the data dates to a placeholder); ``removedInRelease``: whether R's own bundled manifest
    no longer lists it (null when R is not bundled)."""
    return {
        "release": str(removable.release),
        "base": str(removable.base),
        "floor": str(removable.floor),
        "rule": RULE,
        "sources": list(SOURCES),
        "note": removable.note,
        "lockedGates": len(removable.gates),
        "gates": [
            {
                "name": g.name,
                "origin": g.origin,
                "state": g.state,
                "lockedSince": str(g.locked_since),
                "lastSettable": str(g.last_settable) if g.last_settable is not None else None,
                "removedInRelease": (g.name in removable.removed) if removable.removed is not None else None,
            }
            for g in removable.removable()
            if g.name in shown
        ],
    }


#: The table columns ``--removable-in`` adds (``removed in R`` only when R is bundled).
REMOVABLE_COLUMNS = ("locked", "locked since", "last settable")


def removable_rule_text(document: dict[str, Any]) -> str:
    """The rule and its sources, as the text formats print them beside the table."""
    removable = document["removable"]
    lines = [
        f"removable in {removable['release']} (gates of {removable['base']}; a {removable['release']} binary emulates down to "
        f"{removable['floor']}): {removable['rule']}",
        *(f"source: {s}" for s in removable["sources"]),
    ]
    if removable["note"]:
        lines.append(f"note: {removable['note']}")
    return "\n".join(lines)


def patch_change_lines(document: dict[str, Any]) -> list[str]:
    """One line per release with a patch that changed a gate shown: ``1.35: 1.35.1 default flipped:
    SchedulerAsyncAPICalls; 1.35.4 default flipped: MaxUnavailableStatefulSet``."""
    lines = []
    for release, patches in document.get("patchTransitions", {}).items():
        parts = [f"{patch} {TRANSITION_LABELS[key].removesuffix(' in')}: {', '.join(names)}"
                 for patch, kinds in patches.items() for key, names in kinds.items() if names]
        lines.append(f"{release}: " + "; ".join(parts))
    return lines


def patches_document(release: str, patches: tuple[str, ...], base: str | None, matrix: ReleaseMatrix,
                     transitions: tuple[ReleaseTransitions, ...], specs_only: tuple[str, ...]) -> dict[str, Any]:
    """The JSON contract of ``kcompat matrix --patches 1.N`` (:class:`kcompat.answers.patches.PatchMatrix`)::

        {"release": "1.35", "patches": ["1.35.0", ..., "1.35.8"], "base": "1.35.8",
         "notRecorded": ["1.35.7"], "notRecordedWhy": "not recorded (...)",
         "gates": [{"name", "origin", "patches": {"1.35.0": {"stage", "default", "locked"} | null, ...},
                    "specsOnly": false}],
         "transitions": {"1.35.1": {"newAlpha": [], ..., "defaultFlipped": [...], "locked": []}}}

    Each cell is the gate at the release's own version in that patch (null: the patch does not
    register it); ``gates`` are the gates whose registration, specs or dependencies differ between
    two recorded patches (``specsOnly``: the same state at the release's own version in every patch,
    the specs differ at other versions); ``transitions``: what each patch changed from the recorded
    patch before it; ``notRecorded``: the patches between the first and the last recorded one that
    the data has no recording of (1.35.7), ``notRecordedWhy`` what the data says of them (no reason:
    "not recorded"), null when none is missing."""
    missing = unrecorded_patches(patches)
    return {
        "release": release,
        "patches": list(patches),
        "base": base,
        "notRecorded": list(missing),
        "notRecordedWhy": PATCH_NOT_RECORDED if missing else None,
        "gates": [
            {"name": r.gate, "origin": r.origin, "patches": {p: _cell(c) for p, c in zip(matrix.releases, r.cells, strict=False)},
             "specsOnly": r.gate in specs_only}
            for r in matrix.rows
        ],
        "transitions": transitions_document(transitions),
    }


def unrecorded_text(document: dict[str, Any]) -> str:
    """``; 1.35.7 not recorded (...)`` for a patches document with a gap, else ""."""
    missing = document.get("notRecorded") or []
    return f"; {', '.join(missing)} {document['notRecordedWhy']}" if missing else ""


def render_patches(document: dict[str, Any], fmt: str) -> str:
    """``kcompat matrix --patches 1.N --format <fmt>`` output: one row per gate, one column per patch."""
    if fmt == "json":
        return formats.to_json(document)
    rows = [{"gate": g["name"], "origin": g["origin"], **{p: cell_text(c) for p, c in g["patches"].items()}} for g in document["gates"]]
    return formats.render_rows(fmt, rows, ["gate", "origin", *document["patches"]])


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


def release_header(document: dict[str, Any], release: str) -> str:
    """A release column's header: the release, and how faithful its data is when it is not the
    release itself (``1.34 (reconstructed)``, ``1.38 (pre-release)``): the page shows it, and
    every export and text output keeps it."""
    kind = (document.get("releaseData") or {}).get(release, "exact")
    return release if kind == "exact" else f"{release} ({kind})"


def matrix_columns(document: dict[str, Any]) -> list[str]:
    """The table columns: ``gate``, ``origin``, one per release, then ``matched`` after a search
    and :data:`REMOVABLE_COLUMNS` (and ``removed in R`` when R is bundled) with ``--removable-in``."""
    removable = document.get("removable")
    extra: list[str] = []
    if removable is not None:
        extra = [*REMOVABLE_COLUMNS, *([f"removed in {removable['release']}"] if _removal_known(removable) else [])]
    releases = [release_header(document, r) for r in document["releases"]]
    return ["gate", "origin", *releases, *(["matched"] if document["filter"]["search"] else []), *extra]


def _removal_known(removable: dict[str, Any]) -> bool:
    """Whether R is bundled (each gate then says whether R's manifest dropped it)."""
    return any(g["removedInRelease"] is not None for g in removable["gates"])


def matrix_rows(document: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per gate: ``gate``, ``origin``, a :func:`cell_text` per release and, after a
    search, ``matched`` (where the query found the gate)."""
    removed = {g["name"] for g in document["removedGates"]}
    rows = []
    for g in document["gates"]:
        cells = {}
        for rel in document["releases"]:
            cell = g["releases"][rel]
            gone = removal_at(document, g["name"], rel) if cell is None and g["name"] in removed else None
            cells[release_header(document, rel)] = cell_text(cell, gone)
        rows.append({"gate": g["name"], "origin": g["origin"], **cells, **({"matched": g["matched"]} if "matched" in g else {})})
    removable = document.get("removable")
    if removable is not None:
        by_name = {g["name"]: g for g in removable["gates"]}
        for row in rows:
            g = by_name[row["gate"]]
            row.update({"locked": g["state"], "locked since": g["lockedSince"], "last settable": g["lastSettable"] or "—"})
            if g["removedInRelease"] is not None:
                row[f"removed in {removable['release']}"] = "yes" if g["removedInRelease"] else "no"
    return rows


def render(document: dict[str, Any], fmt: str) -> str:
    """``kcompat matrix --format <fmt>`` output."""
    if fmt == "json":
        return formats.to_json(document)
    table = formats.render_rows(fmt, matrix_rows(document), matrix_columns(document))
    if fmt == "markdown" and document.get("removable") is not None:  # the rule above the table (the text formats print it on stderr)
        # the project's own text (versions, the rule, the sources' links), no input: written as Markdown
        rule = "\n".join(f"{'' if i == 0 else '- '}{line}" for i, line in enumerate(removable_rule_text(document).splitlines()))
        return f"{rule}\n\n{table}"
    return table
