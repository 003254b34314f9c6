"""The ``kcompat gate NAME`` document, written from :class:`~kcompat.answers.gate.GateDetail` (the
Gate detail page shows the same: its tables are :func:`spec_rows`, :func:`release_rows` and
:func:`change_rows` of this document)::

    {"name", "binary", "emulated", "minCompatibility", "origin", "description", "owners", "kep",
     "dependencies", "placeholder",
     "state": {"enabled", "stage", "binaryStage", "default", "locked", "explicit"} | null,
     "specs": [{"version", "stage", "default", "locked", "minCompatibility"}] | null,
     "history": [{"stage", "default", "locked", "since", "until"}],
     "historyStart": {"placeholder", "start", "why"} | null,
     "releases": [{"release", "listed", "stage", "default", "locked", "data", "provenance"}],
     "changes": [{"release", "placeholder", "change", "before", "after", "what", "source"}], "changesFrom",
     "changesLaterFrom"}

``state`` is the gate with the selection (null: the binary does not register it); ``specs`` its
specs in the binary's manifest and ``history`` the stretches they draw up to the binary's release;
``releases`` the gate in every bundled release at that release's own version (``listed`` false:
that release does not list it); ``changes`` what each release changed, from the ``changesFrom``
manifest, then, after that release, from the newest bundled release's manifest that lists the gate
(``changesLaterFrom``, null when none is newer: a 1.33 binary's JobManagedBy goes Beta in 1.32, GA
and locked in 1.35 from the 1.37 manifest, removed in 1.38), and the bundled releases' lineage for a
removal; ``source`` names the manifest of each change ("" for the removal).
"""

from __future__ import annotations

from kcompat.answers.gate import GateDetail
from kcompat.core.errors import printable
from kcompat.documents import formats
from kcompat.documents.formats import MISSING
from kcompat.documents.history import history_items, start_item

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypedDict

    from kcompat.documents.history import StartDict, StretchDict

    class StateDict(TypedDict):
        enabled: bool
        stage: str
        binaryStage: str | None
        default: bool
        locked: bool
        explicit: bool

    class SpecDict(TypedDict):
        version: str
        stage: str
        default: bool
        locked: bool
        minCompatibility: str | None

    class ReleaseDict(TypedDict):
        release: str
        listed: bool
        stage: str | None
        default: bool | None
        locked: bool | None
        data: str
        provenance: str

    class ChangeDict(TypedDict):
        release: str
        placeholder: bool
        change: str
        before: str
        after: str
        what: str
        source: str

    class GateDocument(TypedDict):
        name: str
        binary: str
        emulated: str
        minCompatibility: str
        origin: str
        description: str | None
        owners: list[str]
        kep: str | None
        dependencies: list[str]
        placeholder: str | None
        state: StateDict | None
        specs: list[SpecDict] | None
        history: list[StretchDict]
        historyStart: StartDict | None
        releases: list[ReleaseDict]
        changes: list[ChangeDict]
        changesFrom: str
        changesLaterFrom: str | None

#: The tables of the document, in the page's order, with their columns and titles.
TABLES = {
    "specs": (("version", "stage", "default", "locked", "min compatibility"), "Spec history in the binary's manifest"),
    "releases": (("release", "data", "listed", "stage", "default", "locked", "provenance"), "State in every bundled release"),
    "changes": (("release", "change", "before", "after", "what"), "What changed, release by release"),
}


def gate_document(detail: GateDetail) -> GateDocument:
    """The JSON contract of ``kcompat gate NAME``."""
    info, state = detail.info, detail.state
    return {
        "name": detail.name,
        "binary": detail.binary,
        "emulated": detail.emulated,
        "minCompatibility": detail.min_compat,
        "origin": detail.origin,
        "description": info.description if info is not None else None,
        "owners": list(info.owners) if info is not None else [],
        "kep": info.kep if info is not None else None,
        "dependencies": list(detail.dependencies),
        "placeholder": detail.placeholder,
        "state": None if state is None else {
            "enabled": state.enabled, "stage": state.stage, "binaryStage": state.binary_stage,
            "default": state.default, "locked": state.locked, "explicit": state.explicit,
        },
        "specs": None if detail.specs is None else [
            {
                "version": str(s.version), "stage": s.stage.value, "default": s.default, "locked": s.lock_to_default,
                "minCompatibility": str(s.min_compatibility_version) if s.min_compatibility_version else None,
            }
            for s in detail.specs
        ],
        "history": history_items(detail.segments, detail.start),
        "historyStart": start_item(detail.start),
        "releases": [
            {
                "release": r.release.release,
                "listed": r.status is not None,
                "stage": r.status.stage.value if r.status is not None else None,
                "default": r.status.default if r.status is not None else None,
                "locked": r.status.locked if r.status is not None else None,
                "data": r.release.source_text,
                "provenance": r.release.status_text,
            }
            for r in detail.releases
        ],
        "changes": [
            {"release": str(c.release), "placeholder": c.placeholder, "change": c.kind, "before": c.before, "after": c.after, "what": c.text(),
             "source": c.source}
            for c in detail.changes
        ],
        "changesFrom": detail.changes_from,
        "changesLaterFrom": detail.changes_later_from or None,
    }


def _word(value: object, yes: str, no: str) -> object:
    return MISSING if value is None else (yes if value else no)


def spec_rows(document: GateDocument) -> list[dict[str, object]]:
    """The spec history table (empty when the binary's manifest does not list the gate)."""
    return [
        {"version": s["version"], "stage": s["stage"], "default": s["default"], "locked": s["locked"],
         "min compatibility": s["minCompatibility"] or MISSING}
        for s in document["specs"] or []
    ]


def release_rows(document: GateDocument) -> list[dict[str, object]]:
    """The gate in every bundled release."""
    return [
        {
            "release": r["release"], "data": r["data"], "listed": r["listed"], "stage": r["stage"] or MISSING,
            "default": _word(r["default"], "on", "off"), "locked": _word(r["locked"], "yes", "no"), "provenance": r["provenance"],
        }
        for r in document["releases"]
    ]


def change_rows(document: GateDocument) -> list[dict[str, object]]:
    """What changed, release by release."""
    return [
        {"release": c["release"] + (" (placeholder)" if c["placeholder"] else ""), "change": c["change"],
         "before": c["before"], "after": c["after"], "what": c["what"]}
        for c in document["changes"]
    ]


ROWS: dict[str, Callable[[GateDocument], list[dict[str, object]]]] = {"specs": spec_rows, "releases": release_rows, "changes": change_rows}


def flowed(text: str | None) -> str | None:
    """A description as one line: the data keeps the Go comment's line breaks (soft wraps, e.g.
    "Aggregated\\ndiscovery implements"), so each run of white space becomes one space; any other
    control character is still escaped where the line is printed."""
    return " ".join(text.split()) if text is not None else None


def _summary(document: GateDocument) -> list[str]:
    state = document["state"]
    lines = [
        f"{document['name']} ({document['origin']} gate), binary {document['binary']} emulating {document['emulated']} "
        f"(min compatibility {document['minCompatibility']})",
    ]
    if state is not None:
        lines.append(
            f"enabled: {'on' if state['enabled'] else 'off'}; stage at {document['emulated']}: {state['stage']}; "
            f"stage in {document['binary']}: {state['binaryStage']}; locked: {'yes' if state['locked'] else 'no'}"
        )
    else:
        lines.append(f"the {document['binary']} binary does not register it")
    for label, text in (
        ("description", flowed(document["description"])),
        ("owners", ", ".join(document["owners"])),
        ("KEP", document["kep"]),
        ("depends on", ", ".join(document["dependencies"])),
        ("dated to the placeholder", document["placeholder"]),
    ):
        if text:
            lines.append(f"{label}: {text}")
    return lines


def changes_source(document: GateDocument) -> str:
    """``1.33`` or ``1.33, later releases from 1.37``: the manifests the changes come from."""
    later = document["changesLaterFrom"]
    return document["changesFrom"] + (f", later releases from {later}" if later else "")


def gate_text(document: GateDocument, fmt: str, table: str | None = None) -> str:
    """What ``kcompat gate NAME --format <fmt>`` prints on stdout: the JSON document; or in the
    text formats the summary and the three tables (``table``: that table alone, without the
    summary; CSV holds one table, ``releases`` when none is named)."""
    if fmt == "json":
        return formats.to_json(document)
    if fmt == "csv" or table is not None:
        name = table or "releases"
        return formats.render_rows(fmt, ROWS[name](document), TABLES[name][0])
    markdown = fmt == "markdown"
    out = [(f"- {formats.md_escape(line)}" if markdown else printable(line)) for line in _summary(document)]
    for name, (columns, title) in TABLES.items():
        rows = ROWS[name](document)
        heading = f"{title} ({changes_source(document) if name == 'changes' else document['binary']})" if name != "releases" else title
        out.append(f"\n{'## ' if markdown else '# '}{heading}\n")
        out.append(formats.render_rows(fmt, rows, columns).rstrip("\n") if rows else "none")
    return "\n".join(out) + "\n"
