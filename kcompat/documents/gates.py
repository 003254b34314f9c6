"""The ``kcompat gates`` document and table rows, which the Gates page downloads as well."""

from __future__ import annotations

from kcompat.core.gates import GateEvaluation
from kcompat.core.hints import hint_dicts
from kcompat.core.placeholders import introduced_text

GATE_COLUMNS = ("name", "enabled", "stage", "default", "locked", "explicit")


def gate_rows(evaluation: GateEvaluation) -> list[dict]:
    """The table rows (``GATE_COLUMNS``) of ``kcompat gates``."""
    return [
        {
            "name": g.name,
            "enabled": g.enabled,
            "stage": g.stage.value,
            "default": g.default,
            "locked": g.locked,
            "explicit": g.explicit,
        }
        for g in evaluation.gates
    ]


def gates_document(evaluation: GateEvaluation, lineage=None) -> dict:
    """``{"binary", "emulated", "minCompatibility", "valid", "errors", "warnings", "hints", "features"}``.

    ``hints`` (see :mod:`kcompat.core.hints`) explain some errors; ``errors`` keep the binary's text.
    ``lineage`` (a callable giving the bundled releases' :class:`~kcompat.core.removals.GateLineage`)
    lets the hints name a removed gate's release. Each feature row carries ``origin``: "kube" or "client-go" (where the binary registers it from)."""
    sel = evaluation.selection
    return {
        "binary": str(sel.binary) if sel.binary is not None else None,
        "emulated": str(sel.emulated),
        "minCompatibility": str(sel.min_compat),
        "valid": evaluation.valid,
        "errors": list(evaluation.errors),
        "warnings": list(evaluation.warnings),
        "hints": hint_dicts(evaluation, lineage),
        "features": [
            dict(row, origin=evaluation.origin(row["name"]), historyFrom=_history_from(evaluation, row["name"])) for row in gate_rows(evaluation)
        ],
    }


def _history_from(evaluation: GateEvaluation, name: str) -> str | None:
    """Where the gate's specs start: "1.33", or "placeholder 1.0 (older than the gate)" for the
    0.0 / 1.0 versions the lists use for behaviour older than the gate."""
    feature = evaluation.manifest.by_name.get(name) if evaluation.manifest is not None else None
    return introduced_text(feature) if feature is not None else None


def rejected_document(binary: str | None, errors: list[str]) -> dict:
    """The document for input rejected before any gate could be evaluated (e.g. a bad binary)."""
    return {
        "binary": binary,
        "emulated": None,
        "minCompatibility": None,
        "valid": False,
        "errors": errors,
        "warnings": [],
        "hints": [],
        "features": [],
    }
