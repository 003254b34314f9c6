"""The ``kcompat inspect`` document, written from :class:`~kcompat.answers.inspect.Inspection`:
what the inputs say, the engine's answer for it, and how ``/metrics`` compares. The CLI prints it
and the Check a cluster page shows it.

A refusal is reported with the binary's own lines (``errors``), "this <component> would exit at
start-up" (``startup``) and the remedies (``hints``). Every error, warning and source is cut to
MESSAGE_LIMIT characters with control and bidirectional characters written as escapes: input
text never makes a message long, multi-line or styled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kcompat.answers.inspect import Inspection
from kcompat.core.errors import MESSAGE_LIMIT, echo
from kcompat.core.inspect import Comparison
from kcompat.documents.gates import gates_document, hint_dict, starts_line

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import NotRequired, TypedDict

    from kcompat.documents.gates import GatesDocument, HintDict

    class DisagreementDict(TypedDict):
        name: str
        predicted: bool
        observed: bool
        stage: str
        predictedStage: str
        likely: str
        where: str

    class ObservedDocument(TypedDict):
        """How ``/metrics`` compares with the prediction."""

        gates: int
        agree: int
        disagree: list[DisagreementDict]
        unknown: list[str]
        missing: list[str]

    class InputDict(TypedDict):
        file: str
        #: what the input was read as; None when it could not be read
        kind: str | None

    class InspectDocument(TypedDict):
        """The ``kcompat inspect --format json`` document (docs/cli.md says what it holds)."""

        component: str | None
        binary: str | None
        emulated: str | None
        minCompatibility: str | None
        #: where each part of the selection came from
        sources: dict[str, str]
        featureGates: str
        runtimeConfig: str
        emulationForwardCompatible: NotRequired[str]
        runtimeConfigEmulationForwardCompatible: NotRequired[str]
        valid: bool
        startup: str | None
        errors: list[str]
        notReady: list[str]
        apiserverFlags: list[list[str]]
        hints: list[HintDict]
        warnings: list[str]
        versionDisagreements: list[str]
        inputs: list[InputDict]
        gates: GatesDocument | None
        observed: ObservedDocument | None
        #: a good start in words (kcompat.documents.gates.starts_line); None when refused, not
        #: ready or unusable
        verdictText: str | None


#: What the selection shows for a version the binary refuses (no version is the answer).
REFUSED_VERSION = "none (the binary refuses the version flags)"
#: The keys of a disagreement in the JSON document (a contract: unchanged) ...
DISAGREE_COLUMNS = ("name", "predicted", "observed", "stage", "predictedStage", "likely")
#: ... and the headers of its table (``kcompat inspect``'s text formats, the Check a cluster page
#: and its downloads): words, not JSON keys; the stage on /metrics and the predicted one side by side.
DISAGREE_HEADERS = ("name", "predicted", "observed", "observed stage", "predicted stage", "likely")


def disagree_rows(disagree: Sequence[Mapping[str, object]]) -> list[dict[str, object]]:
    """The disagreements as table rows with :data:`DISAGREE_HEADERS` (``stage`` is the observed one)."""
    return [{header: d[key] for header, key in zip(DISAGREE_HEADERS, DISAGREE_COLUMNS, strict=True)} for d in disagree]


def observed_document(comparison: Comparison) -> ObservedDocument:
    return {
        "gates": comparison.gates,
        "agree": comparison.agree,
        "disagree": [
            {
                "name": d.name,
                "predicted": d.predicted,
                "observed": d.observed,
                "stage": d.stage,
                "predictedStage": d.predicted_stage,
                "likely": d.likely,
                "where": d.where,
            }
            for d in comparison.disagree
        ],
        "unknown": list(comparison.unknown),
        "missing": list(comparison.missing),
    }


def inspect_document(inspection: Inspection) -> InspectDocument:
    """The JSON contract of ``kcompat inspect`` for an inspection."""
    combined, gates = inspection.combined, inspection.gates
    flags = combined if gates is not None else None  # the flags read, once the gates were evaluated
    document: InspectDocument = {
        "component": inspection.component,
        "binary": inspection.binary,
        # version flags the binary refuses give no versions: the ones the gate keeps are no answer
        "emulated": gates.emulated if gates is not None and not gates.versions_refused else None,
        "minCompatibility": gates.min_compat if gates is not None and not gates.versions_refused else None,
        "sources": {k: echo(v, MESSAGE_LIMIT) for k, v in combined.sources.items()} if combined is not None else {},
        "featureGates": ",".join(flags.feature_gates) if flags is not None else "",
        "runtimeConfig": ",".join(flags.runtime_config) if flags is not None else "",
        "emulationForwardCompatible": ",".join(flags.emulation_forward_compatible) if flags is not None else "",
        "runtimeConfigEmulationForwardCompatible": ",".join(flags.runtime_config_emulation_forward_compatible) if flags is not None else "",
        "valid": inspection.valid,
        "startup": inspection.startup,
        "errors": [echo(m, MESSAGE_LIMIT) for m in inspection.errors],
        "notReady": [echo(m, MESSAGE_LIMIT) for m in inspection.not_ready],
        "apiserverFlags": [[name, echo(value, MESSAGE_LIMIT)] for name, value in flags.apiserver_flags] if flags is not None else [],
        "hints": [hint_dict(h) for h in inspection.hints],
        "warnings": [echo(m, MESSAGE_LIMIT) for m in inspection.warnings],
        "versionDisagreements": list(flags.disagreements) if flags is not None else [],
        "inputs": [{"file": i.file, "kind": i.kind} for i in inspection.inputs],
        "gates": gates_document(gates) if gates is not None else None,
        "observed": observed_document(inspection.comparison) if inspection.comparison is not None else None,
        "verdictText": verdict_text(inspection),
    }
    if flags is None:  # no flag was read: the document has no forward-compatibility keys
        del document["emulationForwardCompatible"], document["runtimeConfigEmulationForwardCompatible"]
    return document


def summary_lines(document: InspectDocument) -> list[str]:
    """The selection found and where each part came from, one line each."""
    lines = []
    fields: dict[str, object] = dict(document)
    for key, label in (("component", "component"), ("binary", "binary"), ("emulated", "emulated"),
                       ("minCompatibility", "min compatibility"), ("featureGates", "--feature-gates"),
                       ("runtimeConfig", "--runtime-config"), ("emulationForwardCompatible", "--emulation-forward-compatible"),
                       ("runtimeConfigEmulationForwardCompatible", "--runtime-config-emulation-forward-compatible")):
        value = fields.get(key)
        if value in (None, "") and key not in document["sources"]:
            continue
        if value is None and key in ("emulated", "minCompatibility"):
            value = REFUSED_VERSION
        source = document["sources"].get(key)
        lines.append(f"{label}: {value}" + (f"  ({source})" if source else ""))
    for name, value in document.get("apiserverFlags") or []:
        source = document["sources"].get(name)
        lines.append(f"--{name}: {value}" + (f"  ({source})" if source else ""))
    observed = document.get("observed")
    if observed:
        lines.append(
            f"/metrics: {observed['gates']} gates, {observed['agree']} agree, {len(observed['disagree'])} disagree, "
            f"{len(observed['unknown'])} unknown to kcompat"
        )
    return lines


def verdict_text(inspection: Inspection) -> str | None:
    """The inspected component's start in words when it starts (:func:`kcompat.documents.gates.starts_line`):
    the first line of ``kcompat inspect``'s text, the Check a cluster page's success. None when
    the input is refused or unusable, or the start does not become ready."""
    gates = inspection.gates
    if gates is None or not inspection.valid or inspection.not_ready:
        return None
    component = inspection.component or gates.component
    return starts_line(component, gates.binary, gates.emulated, gates.verdict, gates.readiness_recorded,
                       component == "kube-apiserver", gates.readiness_unknown)


def verdict_line(document: Mapping[str, object]) -> str | None:
    """A document's ``verdictText`` (None in a document of input that could not be read)."""
    text = document.get("verdictText")
    return text if isinstance(text, str) else None
