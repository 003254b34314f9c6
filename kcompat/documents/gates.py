"""The ``kcompat gates`` document, table rows and texts (the Gates page downloads the same texts),
written from the typed :class:`~kcompat.answers.gates.GatesAnswer`.

``documents`` builds on the core only: the answer is read through the :class:`GatesResult`
protocol it satisfies."""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.core.errors import MESSAGE_LIMIT, cut
from kcompat.core.hints import Hint

GATE_COLUMNS = ("name", "enabled", "stage", "default", "locked", "explicit")


#: The types below are for the type checker only (``typing`` is not imported on the CLI's path);
#: at run time the documents are plain dicts.
TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Protocol, TypedDict

    class GateResultRow(Protocol):
        """One gate of an answer (:class:`kcompat.answers.gates.GateRow`)."""

        @property
        def name(self) -> str: ...
        @property
        def enabled(self) -> bool: ...
        @property
        def stage(self) -> str: ...
        @property
        def default(self) -> bool: ...
        @property
        def locked(self) -> bool: ...
        @property
        def explicit(self) -> bool: ...
        @property
        def origin(self) -> str: ...
        @property
        def history_from(self) -> str | None: ...


    class GatesResult(Protocol):
        """What the document is written from (:class:`kcompat.answers.gates.GatesAnswer`)."""

        @property
        def binary(self) -> str | None: ...
        @property
        def component(self) -> str: ...
        @property
        def emulated(self) -> str: ...
        @property
        def min_compat(self) -> str: ...
        @property
        def valid(self) -> bool: ...
        @property
        def errors(self) -> tuple[str, ...]: ...
        @property
        def warnings(self) -> tuple[str, ...]: ...
        @property
        def hints(self) -> tuple[Hint, ...]: ...
        @property
        def rows(self) -> Sequence[GateResultRow]: ...
        @property
        def components(self) -> Sequence[ComponentResult]: ...


    class GateDifferenceResult(Protocol):
        @property
        def name(self) -> str: ...
        @property
        def here(self) -> tuple[bool, bool, str, bool]: ...
        @property
        def there(self) -> tuple[bool, bool, str, bool]: ...


    class ComponentResult(Protocol):
        """How another component answers (:class:`kcompat.answers.gates.ComponentComparison`)."""

        @property
        def component(self) -> str: ...
        @property
        def recorded(self) -> bool: ...
        @property
        def differences(self) -> Sequence[GateDifferenceResult]: ...
        @property
        def errors(self) -> tuple[str, ...]: ...
        @property
        def note(self) -> str | None: ...


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


    class GateStateDict(TypedDict):
        registered: bool
        enabled: bool
        stage: str
        locked: bool


    class GateDifferenceDict(TypedDict):
        name: str
        here: GateStateDict
        there: GateStateDict


    class ComponentDict(TypedDict):
        component: str
        recorded: bool
        differences: list[GateDifferenceDict]
        errors: list[str]
        note: str | None


    class GatesDocument(TypedDict):
        binary: str | None
        component: str
        emulated: str | None
        minCompatibility: str | None
        valid: bool
        errors: list[str]
        warnings: list[str]
        hints: list[HintDict]
        features: list[FeatureDict]
        components: list[ComponentDict]


def gate_rows(answer: GatesResult) -> list[GateRowDict]:
    """The table rows (``GATE_COLUMNS``) of ``kcompat gates``."""
    return [
        {"name": r.name, "enabled": r.enabled, "stage": r.stage, "default": r.default, "locked": r.locked, "explicit": r.explicit}
        for r in answer.rows
    ]


def hint_dict(hint: Hint) -> HintDict:
    return {"kind": hint.kind, "error": hint.error, "gate": hint.gate, "text": hint.text, "names": list(hint.names)}


def gates_document(answer: GatesResult) -> GatesDocument:
    """``{"binary", "component", "emulated", "minCompatibility", "valid", "errors", "warnings", "hints", "features",
    "components"}``.

    ``hints`` (see :mod:`kcompat.core.hints`) explain some errors; ``errors`` keep the binary's
    text, each cut to MESSAGE_LIMIT characters (a flag value is echoed in them at any length).
    Each feature row carries ``origin``: "kube" or "client-go" (where the binary registers it
    from), and ``historyFrom``: where its specs start. ``components``: how each other control-plane
    component answers the same selection (``recorded``: whether its gate set is; ``differences``:
    the gates whose registration, on/off, stage or lock differ, ``here`` being the component
    answered; ``errors``: what only it refuses); empty for a manifest of one's own."""
    return {
        "binary": answer.binary,
        "component": answer.component,
        "emulated": answer.emulated,
        "minCompatibility": answer.min_compat,
        "valid": answer.valid,
        "errors": [cut(e, MESSAGE_LIMIT) for e in answer.errors],
        "warnings": [cut(w, MESSAGE_LIMIT) for w in answer.warnings],
        "hints": [hint_dict(h) for h in answer.hints],
        "features": [
            {
                "name": r.name, "enabled": r.enabled, "stage": r.stage, "default": r.default, "locked": r.locked,
                "explicit": r.explicit, "origin": r.origin, "historyFrom": r.history_from,
            }
            for r in answer.rows
        ],
        "components": [component_dict(c) for c in answer.components],
    }


def _state_dict(state: tuple[bool, bool, str, bool]) -> GateStateDict:
    registered, enabled, stage, locked = state
    return {"registered": registered, "enabled": enabled, "stage": stage, "locked": locked}


def component_dict(comparison: ComponentResult) -> ComponentDict:
    return {
        "component": comparison.component,
        "recorded": comparison.recorded,
        "differences": [{"name": d.name, "here": _state_dict(d.here), "there": _state_dict(d.there)} for d in comparison.differences],
        "errors": [cut(e, MESSAGE_LIMIT) for e in comparison.errors],
        "note": comparison.note,
    }


def gates_text(answer: GatesResult, fmt: str) -> str:
    """What ``kcompat gates --format <fmt>`` prints on stdout for ``answer`` (json, csv, markdown
    or table; the table formats only print the rows, the summary goes to stderr)."""
    from kcompat.documents import formats

    if fmt == "json":
        return formats.to_json(gates_document(answer))
    if fmt not in formats.FORMATS:
        raise ValueError(f"unknown gates format {fmt!r}")
    return formats.render_rows(fmt, gate_rows(answer), GATE_COLUMNS)


def rejected_document(binary: str | None, errors: list[str], component: str = "kube-apiserver") -> GatesDocument:
    """The document for input rejected before any gate could be evaluated (e.g. a bad binary)."""
    return {
        "binary": binary,
        "component": component,
        "emulated": None,
        "minCompatibility": None,
        "valid": False,
        "errors": errors,
        "warnings": [],
        "hints": [],
        "features": [],
        "components": [],
    }
