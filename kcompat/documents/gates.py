"""The ``kcompat gates`` document, table rows and texts (the Gates page downloads the same texts),
written from the typed :class:`~kcompat.answers.gates.GatesAnswer`."""

from __future__ import annotations

from kcompat.answers.gates import ComponentComparison, GateFacts, GateRow, GatesAnswer
from kcompat.core.errors import MESSAGE_LIMIT, cut

GATE_COLUMNS = ("name", "enabled", "stage", "default", "locked", "explicit")
#: The columns added while emulating: the stage in the binary's own release and whether stage,
#: default or lock differ from it (the Gates page's "stage in 1.36" and "changed vs 1.36").
EMULATION_COLUMNS = ("stage in binary", "changed")
#: The column added by a search: where the query found the gate (name, KEP, abbreviation, description).
MATCH_COLUMN = "matched"
#: The columns ``--columns`` can add (the kubernetes.io feature-gates table's): the description, and
#: since / until the gate's stage at the emulated version holds in the binary's specs.
DESCRIBE_COLUMNS = ("description", "since", "until")


#: The document types are for the type checker only (``typing`` is not imported on the CLI's
#: path); at run time the documents are plain dicts.
TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import NotRequired, TypedDict

    from kcompat.answers.startup import StartupAnswer
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
        binaryStage: str | None
        changed: bool
        matched: NotRequired[str]
        description: NotRequired[str | None]
        stageSince: NotRequired[str | None]
        stageUntil: NotRequired[str | None]
        nextStage: NotRequired[str | None]

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
        emulated: str | None
        minCompatibility: str | None
        valid: bool
        verdict: str
        component: str
        errors: list[str]
        notReady: list[str]
        readinessRecorded: str | None
        warnings: list[str]
        hints: list[HintDict]
        features: list[FeatureDict]
        components: list[ComponentDict]


def gate_columns(answer: GatesAnswer, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The table columns of ``kcompat gates`` for ``answer``: :data:`GATE_COLUMNS`, then
    :data:`EMULATION_COLUMNS` while emulating, :data:`MATCH_COLUMN` after a search and the
    :data:`DESCRIBE_COLUMNS` asked for (``extra``, in their order)."""
    return (
        GATE_COLUMNS + (EMULATION_COLUMNS if answer.is_emulating else ()) + ((MATCH_COLUMN,) if answer.matched is not None else ())
        + tuple(c for c in DESCRIBE_COLUMNS if c in extra)
    )


def since_text(since: str | None, stage: str = "") -> str:
    """``1.32``; "not introduced" for a gate PreAlpha at the emulated version; else "not recorded"
    (the data dates the stage to a placeholder 0.0 / 1.0)."""
    if since is not None:
        return since
    return "not introduced" if stage == "PreAlpha" else "not recorded"


def until_text(until: str | None, next_stage: str | None) -> str:
    return f"{until} ({next_stage})" if until is not None else "no later stage in the specs"


def description_text(description: str | None) -> str:
    """One line (the data keeps the Go comments' line breaks), or what the data lacks."""
    return " ".join(description.split()) if description else "no description in the data"


def gate_rows(answer: GatesAnswer) -> list[dict[str, object]]:
    """The table rows of ``kcompat gates`` (:func:`gate_columns`; the JSON's features carry every
    key); after :func:`kcompat.answers.gates.describe`, the :data:`DESCRIBE_COLUMNS` in words."""
    matched = dict(answer.matched or ())
    described = dict(answer.described or ())
    rows: list[dict[str, object]] = []
    for r in answer.rows:
        row: dict[str, object] = {
            "name": r.name, "enabled": r.enabled, "stage": r.stage, "default": r.default, "locked": r.locked, "explicit": r.explicit,
            "stage in binary": r.binary_stage, "changed": r.changed, MATCH_COLUMN: matched.get(r.name),
        }
        facts = described.get(r.name)
        if facts is not None:
            row.update(description=description_text(facts.description), since=since_text(facts.since, r.stage),
                       until=until_text(facts.until, facts.next_stage))
        rows.append(row)
    return rows


def hint_dict(hint: Remedy) -> HintDict:
    return {"kind": str(hint.kind), "error": hint.error, "gate": hint.gate, "text": hint.text, "names": list(hint.names)}


def gates_document(answer: GatesAnswer) -> GatesDocument:
    """``{"binary", "emulated", "minCompatibility", "valid", "verdict", "component", "errors",
    "notReady", "readinessRecorded", "warnings", "hints", "features", "components"}``.

    ``hints`` (see :mod:`kcompat.core.remedies`) explain some errors; ``errors`` keep the binary's
    text, each cut to MESSAGE_LIMIT characters (a flag value is echoed in them at any length).
    Every list of problems holds the first MAX_SHOWN, then ``<key>Omitted`` counts the rest
    (:func:`kcompat.documents.formats.bound_lists`).
    ``verdict`` is "starts", "refuses" or "not-ready" (starts but does not become ready: the
    reasons in ``notReady``); ``component`` the control-plane component whose gate set answered
    (kube-apiserver's whole start-up is checked beyond its gates), ``readinessRecorded`` the release whose recorded starts gave the
    readiness rules (null: not recorded). Each feature row carries ``origin``: "kube" or
    "client-go" (where the binary registers it from), ``historyFrom``: where its specs start,
    ``binaryStage``: its stage in the binary's own release (null without a binary), ``changed``:
    whether its stage, default or lock differ from that release, and after ``--search``
    ``matched``: where the query found it; with ``--columns`` (:func:`kcompat.answers.gates.describe`)
``description`` (as the data writes it, null: none), ``stageSince`` (the version its stage at the
emulated version starts in the binary's specs; null: dated to a placeholder, not recorded),
``stageUntil`` and ``nextStage`` (the next spec at another stage; null: none). ``components``: how each other control-plane component
    answers the same selection (``recorded``: whether its gate set is; ``differences``: the gates
    whose registration, on/off, stage or lock differ, ``here`` being the component answered;
    ``errors``: what only it refuses); empty for a manifest of one's own."""
    matched = dict(answer.matched) if answer.matched is not None else None
    from kcompat.documents.formats import bound_lists

    document: GatesDocument = {
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
        "features": [_feature(r, matched, dict(answer.described) if answer.described is not None else None) for r in answer.rows],
        "components": [component_dict(c) for c in answer.components],
    }
    return bound_lists(document)


def _state_dict(state: tuple[bool, bool, str, bool]) -> GateStateDict:
    registered, enabled, stage, locked = state
    return {"registered": registered, "enabled": enabled, "stage": stage, "locked": locked}


def component_dict(comparison: ComponentComparison) -> ComponentDict:
    from kcompat.documents.formats import bound_lists

    document: ComponentDict = {
        "component": comparison.component,
        "recorded": comparison.recorded,
        "differences": [{"name": d.name, "here": _state_dict(d.here), "there": _state_dict(d.there)} for d in comparison.differences],
        "errors": [cut(e, MESSAGE_LIMIT) for e in comparison.errors],
        "note": comparison.note,
    }
    return bound_lists(document)


def _feature(r: GateRow, matched: dict[str, str] | None, described: dict[str, GateFacts] | None = None) -> FeatureDict:
    feature: FeatureDict = {
        "name": r.name, "enabled": r.enabled, "stage": r.stage, "default": r.default, "locked": r.locked,
        "explicit": r.explicit, "origin": r.origin, "historyFrom": r.history_from, "binaryStage": r.binary_stage,
        "changed": r.changed,
    }
    if matched is not None:
        feature["matched"] = matched.get(r.name, "")
    facts = described.get(r.name) if described is not None else None
    if facts is not None:
        feature["description"] = facts.description
        feature["stageSince"] = facts.since
        feature["stageUntil"] = facts.until
        feature["nextStage"] = facts.next_stage
    return feature


def gates_text(answer: GatesAnswer, fmt: str, extra: tuple[str, ...] = ()) -> str:
    """What ``kcompat gates --format <fmt>`` prints on stdout for ``answer`` (json, csv, markdown
    or table; the table formats only print the rows, the summary goes to stderr)."""
    from kcompat.documents import formats

    if fmt == "json":
        return formats.to_json(gates_document(answer))
    if fmt not in formats.FORMATS:
        raise ValueError(f"unknown gates format {fmt!r}")
    return formats.render_rows(fmt, gate_rows(answer), gate_columns(answer, extra))


def starts_line(component: str, binary: str | None, emulated: str | None, verdict: str, readiness_recorded: str | None,
                startup_checked: bool = True, readiness_unknown: bool = False) -> str | None:
    """A start's verdict in words when it starts ("kube-apiserver 1.36 emulating 1.33 starts and
    becomes ready, as recorded starts of v1.36.5 show"), saying what the evidence is: the recorded
    starts of a release, or that readiness is not recorded, or not checked (another component, a
    custom manifest), or not known for these flags (``readiness_unknown``). None when it refuses or
    does not become ready: their own lines say so."""
    if verdict != "starts":
        return None
    who = f"{component} {binary}" if binary else f"{component} of the given manifest"
    if emulated and (binary is None or _emulating(binary, emulated)):
        who += f" emulating {emulated}"
    if component != "kube-apiserver":
        return (f"{who} starts: it accepts these version flags and --feature-gates; "
                "its readiness is not recorded (the recorded starts are kube-apiserver's)")
    if not startup_checked:
        return f"{who} starts as far as its feature gates tell; its other start-up checks and its readiness are not checked with a custom manifest"
    if readiness_recorded is None:
        return f"{who} starts; readiness not recorded for this release"
    if readiness_unknown:
        return f"{who} starts; whether it becomes ready is not known with these flags (the warnings say why)"
    return f"{who} starts and becomes ready, as recorded starts of {readiness_recorded} show"


def _emulating(binary: str, emulated: str) -> bool:
    from kcompat.core.errors import KcompatError
    from kcompat.core.versions import mm, parse_version

    try:
        return mm(parse_version(emulated)) != mm(parse_version(binary.lstrip("v")))
    except KcompatError:
        return emulated != binary


def verdict_line(answer: GatesAnswer) -> str | None:
    """:func:`starts_line` of a gates answer (``kcompat gates``' last line, the Gates page's success)."""
    return starts_line(answer.component, answer.binary, answer.emulated, answer.verdict, answer.readiness_recorded,
                       answer.startup_checked, answer.readiness_unknown)


def startup_verdict_line(binary: str, emulated: str, startup: StartupAnswer) -> str | None:
    """:func:`starts_line` of kube-apiserver's start-up answer (``kcompat apis``' last line, the
    APIs page's success)."""
    return starts_line("kube-apiserver", binary, emulated, startup.verdict, startup.readiness_recorded, True, startup.readiness_unknown)


def rejected_document(binary: str | None, errors: list[str], component: str = "kube-apiserver") -> GatesDocument:
    """The document for input rejected before any gate could be evaluated (e.g. a bad binary)."""
    return {
        "binary": binary,
        "emulated": None,
        "minCompatibility": None,
        "valid": False,
        "verdict": "refuses",
        "component": component,
        "errors": errors,
        "notReady": [],
        "readinessRecorded": None,
        "warnings": [],
        "hints": [],
        "features": [],
        "components": [],
    }
