"""The ``kcompat gates`` document, table rows and texts (the Gates page downloads the same texts),
written from the typed :class:`~kcompat.answers.gates.GatesAnswer`."""

from __future__ import annotations

from kcompat.answers.gates import GatesAnswer
from kcompat.core.errors import MESSAGE_LIMIT, cut

GATE_COLUMNS = ("name", "enabled", "stage", "default", "locked", "explicit")


#: The document types are for the type checker only (``typing`` is not imported on the CLI's
#: path); at run time the documents are plain dicts.
TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import TypedDict

    from kcompat.core.problems import Remedy

    class GateRowDict(TypedDict):
        name: str
        enabled: bool
        stage: str
        default: bool
        locked: bool
        explicit: bool

    class FeatureDict(GateRowDict):
        origin: str
        historyFrom: str | None

    class HintDict(TypedDict):
        kind: str
        error: str
        gate: str | None
        text: str
        names: list[str]

    class GatesDocument(TypedDict):
        binary: str | None
        emulated: str | None
        minCompatibility: str | None
        valid: bool
        verdict: str
        component: str | None
        errors: list[str]
        notReady: list[str]
        readinessRecorded: str | None
        warnings: list[str]
        hints: list[HintDict]
        features: list[FeatureDict]


def gate_rows(answer: GatesAnswer) -> list[GateRowDict]:
    """The table rows (``GATE_COLUMNS``) of ``kcompat gates``."""
    return [
        {"name": r.name, "enabled": r.enabled, "stage": r.stage, "default": r.default, "locked": r.locked, "explicit": r.explicit}
        for r in answer.rows
    ]


def hint_dict(hint: Remedy) -> HintDict:
    return {"kind": str(hint.kind), "error": hint.error, "gate": hint.gate, "text": hint.text, "names": list(hint.names)}


def gates_document(answer: GatesAnswer) -> GatesDocument:
    """``{"binary", "emulated", "minCompatibility", "valid", "verdict", "component", "errors",
    "notReady", "readinessRecorded", "warnings", "hints", "features"}``.

    ``hints`` (see :mod:`kcompat.core.remedies`) explain some errors; ``errors`` keep the binary's
    text, each cut to MESSAGE_LIMIT characters (a flag value is echoed in them at any length).
    ``verdict`` is "starts", "refuses" or "not-ready" (starts but does not become ready: the
    reasons in ``notReady``); ``component`` the component whose start-up was checked beyond its
    gates (kube-apiserver), ``readinessRecorded`` the release whose recorded starts gave the
    readiness rules (null: not recorded). Each feature row carries ``origin``: "kube" or
    "client-go" (where the binary registers it from), and ``historyFrom``: where its specs start."""
    return {
        "binary": answer.binary,
        "emulated": answer.emulated,
        "minCompatibility": answer.min_compat,
        "valid": answer.valid,
        "verdict": answer.verdict,
        "component": answer.component,
        "errors": [cut(e, MESSAGE_LIMIT) for e in answer.errors],
        "notReady": [cut(e, MESSAGE_LIMIT) for e in answer.not_ready],
        "readinessRecorded": answer.readiness_recorded,
        "warnings": [cut(w, MESSAGE_LIMIT) for w in answer.warnings],
        "hints": [hint_dict(h) for h in answer.hints],
        "features": [
            {
                "name": r.name, "enabled": r.enabled, "stage": r.stage, "default": r.default, "locked": r.locked,
                "explicit": r.explicit, "origin": r.origin, "historyFrom": r.history_from,
            }
            for r in answer.rows
        ],
    }


def gates_text(answer: GatesAnswer, fmt: str) -> str:
    """What ``kcompat gates --format <fmt>`` prints on stdout for ``answer`` (json, csv, markdown
    or table; the table formats only print the rows, the summary goes to stderr)."""
    from kcompat.documents import formats

    if fmt == "json":
        return formats.to_json(gates_document(answer))
    if fmt not in formats.FORMATS:
        raise ValueError(f"unknown gates format {fmt!r}")
    return formats.render_rows(fmt, gate_rows(answer), GATE_COLUMNS)


def rejected_document(binary: str | None, errors: list[str]) -> GatesDocument:
    """The document for input rejected before any gate could be evaluated (e.g. a bad binary)."""
    return {
        "binary": binary,
        "emulated": None,
        "minCompatibility": None,
        "valid": False,
        "verdict": "refuses",
        "component": None,
        "errors": errors,
        "notReady": [],
        "readinessRecorded": None,
        "warnings": [],
        "hints": [],
        "features": [],
    }
