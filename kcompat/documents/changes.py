"""The ``kcompat changes`` document, shown by the What changes page as well (the answer is
:func:`kcompat.answers.changes.compare`'s).

``here`` is the binary the user runs (``B`` at ``E``, min compatibility ``M``); ``there`` is one of

* ``native``: the same binary at its own version (what emulating E holds back or brings back);
* ``release``: the real release E: release E's own binary at its own version (E must be bundled);
* ``VERSION``: the real binary of release VERSION at its own version, or ``B2@E2``: that binary
  emulating E2 (B2 must be bundled; its default min compatibility applies).

A binary given with its patch (``1.35.0``) answers as that patch release on either side, and
``binary`` keeps it. ``label`` names each side as every message does (``1.35.8 (not emulating)``,
``a real 1.35.0``, ``a real 1.33 (v1.33.4)``); null when the input was refused.

The same ``--feature-gates`` value applies to both sides; a side that refuses it says so in
``errors`` (prefixed with the side) and shows its defaults, as that binary would not start::

    {"binary", "component", "emulated", "label", "against": {"kind", "binary", "emulated", "label"}, "featureGates",
     "errors", "warnings",
     "changes": [{"name", "origin", "here": {"exists", "enabled", "stage", "locked"},
                  "there": {"exists", "enabled", "stage", "locked"}, "behaviour", "why"}]}
"""

from __future__ import annotations

from kcompat.core.diffs import Change, ChangesResult
from kcompat.documents import formats

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any


ROW_COLUMNS = (
    "name", "origin", "behaviour",
    "here_exists", "here_enabled", "here_stage", "here_locked",
    "there_exists", "there_enabled", "there_stage", "there_locked",
    "why",
)


def change_document(change: Change) -> dict[str, Any]:
    return {
        "name": change.name,
        "origin": change.origin,
        "here": change.here.document(),
        "there": change.there.document(),
        "behaviour": change.behaviour,
        "why": change.why,
    }


def changes_document(result: ChangesResult) -> dict[str, Any]:
    """The JSON contract of ``kcompat changes`` (the first 20 errors and warnings, then
    ``errorsOmitted`` / ``warningsOmitted``; the --feature-gates value echoed cut)."""
    from kcompat.core.errors import MESSAGE_LIMIT, cut
    from kcompat.documents.formats import bound_lists

    return bound_lists({
        "binary": result.binary,
        "component": result.component,
        "emulated": result.emulated,
        "label": result.comparison.here if result.comparison is not None else None,
        "against": result.against,
        "featureGates": cut(result.feature_gates, MESSAGE_LIMIT) if result.feature_gates is not None else None,
        "errors": list(result.errors),
        "warnings": list(result.warnings),
        "changes": [change_document(c) for c in result.comparison.changes] if result.comparison is not None else [],
    })


def changes_rows(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Flat rows (table, CSV, Markdown) of a changes document."""
    rows = []
    for c in document["changes"]:
        row = {"name": c["name"], "origin": c["origin"], "behaviour": c["behaviour"]}
        for side in ("here", "there"):
            for key in ("exists", "enabled", "stage", "locked"):
                row[f"{side}_{key}"] = c[side][key]
        row["why"] = c["why"]
        rows.append(row)
    return rows


def side_labels(document: dict[str, Any]) -> tuple[str, str]:
    """(here, there) as the page and the CLI name them, from a document with an ``against``."""
    return document["label"], document["against"]["label"]


def summary(document: dict[str, Any]) -> str:
    """The line ``kcompat changes`` writes to stderr: both sides by their labels and the count;
    a refused input has no sides, and the line says so rather than naming a side by a stand-in."""
    if document["against"] is None:
        return f"no comparison: the input was refused ({len(document['errors']) + document.get('errorsOmitted', 0):,} error(s))"
    here, there = side_labels(document)
    component = document.get("component", "kube-apiserver")
    named = "" if component == "kube-apiserver" else f"{component}: "
    return f"{named}here: {here}; there: {there}; {len(document['changes'])} gate(s) differ"


def behaviour_text(behaviour: str, here: str, there: str) -> str:
    """``on in 1.33 emulating 1.31, off in a real 1.31`` (or ``same in both``)."""
    if behaviour == "on-here-only":
        return f"on in {here}, off in {there}"
    if behaviour == "on-there-only":
        return f"off in {here}, on in {there}"
    return "behaves the same"


def render(document: dict[str, Any], fmt: str) -> str:
    """``kcompat changes --format <fmt>`` output."""
    if fmt == "json":
        return formats.to_json(document)
    return formats.render_rows(fmt, changes_rows(document), ROW_COLUMNS)
