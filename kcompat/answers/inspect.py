"""The ``kcompat inspect`` document: what the inputs say, the engine's answer for it, and how
``/metrics`` compares. The CLI prints it and the Check a cluster page shows it.

Every check the binary runs at start-up is applied to what was read: the version ranges, the
``--feature-gates`` value (gates, locks, dependencies) and, for kube-apiserver, the
``--runtime-config`` value with the forward-compatibility flags (the same evaluation as
``kcompat apis``). A refusal is reported with the binary's own line (``errors``), "this
<component> would exit at start-up" (``startup``) and the remedies (``hints``).

Exit status (:func:`exit_status`): 0 when everything agrees, 1 when the cluster disagrees with
the prediction (``/metrics``, or a ``/version`` emulation or min compatibility other than the
flags give: ``versionDisagreements``), 2 when the input is unusable or the binary would refuse it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NotRequired, TypedDict

from kcompat.data.catalog import Catalog
from ..core.compat import parse_binary_version
from ..core.components import KUBE_APISERVER
from ..core.errors import MESSAGE_LIMIT, KcompatError, echo
from ..core.flags import parse_go_bool
from ..core.hints import api_hints
from ..core.runtime_config import parse_runtime_config
from ..core.inspect import Combined, Comparison, InspectError, combine_readings, compare_observed, read_input
from ..core.inspect.messages import pflag_error, pflag_remedy
from ..core.inspect.model import FLAGS, MAX_INPUT_BYTES, FlagParseError
from kcompat.documents.gates import gates_document, hint_dict
from ..core.versions import Version, mm
from kcompat.answers.gates import answer_of, compare_components, gate_evaluation
from kcompat.answers.queries import api_gate_states, gate_lineage

if TYPE_CHECKING:  # the document types of kcompat.documents exist for the type checker only
    from kcompat.documents.gates import GatesDocument, HintDict

#: What the selection shows for a version the binary refuses (no version is the answer).
REFUSED_VERSION = "none (the binary refuses the version flags)"
DISAGREE_COLUMNS = ("name", "predicted", "observed", "stage", "predictedStage", "likely")


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
    """The ``kcompat inspect --format json`` document (the module docstring says what it holds)."""

    component: str | None
    binary: str | None
    #: None when no input gives them, or when the binary refuses the version flags
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
    hints: list[HintDict]
    warnings: list[str]
    versionDisagreements: list[str]
    inputs: list[InputDict]
    gates: GatesDocument | None
    observed: ObservedDocument | None


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


def _empty(inputs: list[InputDict], errors: list[str], warnings: list[str] | None = None) -> InspectDocument:
    return _echoed({
        "component": None, "binary": None, "emulated": None, "minCompatibility": None, "sources": {},
        "featureGates": "", "runtimeConfig": "", "valid": False, "startup": None, "errors": errors, "hints": [],
        "warnings": warnings or [], "versionDisagreements": [], "inputs": inputs, "gates": None, "observed": None,
    })


def _echoed(document: InspectDocument) -> InspectDocument:
    """Every error and warning cut to MESSAGE_LIMIT characters with control and bidirectional
    characters written as escapes: input text never makes a message long, multi-line or styled."""
    document["errors"] = [echo(m, MESSAGE_LIMIT) for m in document["errors"]]
    document["warnings"] = [echo(m, MESSAGE_LIMIT) for m in document["warnings"]]
    document["sources"] = {k: echo(v, MESSAGE_LIMIT) for k, v in document["sources"].items()}
    return document


def _bool_flag(name: str, values: Sequence[str], errors: list[str]) -> bool:
    """A pflag boolean as the binary reads it: the last value wins; a bad one refuses start-up."""
    if not values:
        return False
    value = parse_go_bool(values[-1])
    if value is None:
        errors.append(f'invalid argument "{values[-1]}" for "--{name}" flag: strconv.ParseBool: parsing "{values[-1]}": invalid syntax')
        return False
    return value


def _apiserver_checks(catalog: Catalog, combined: Combined, errors: list[str], warnings: list[str], hints: list[HintDict]) -> None:
    """kube-apiserver's start-up checks of --runtime-config and the forward-compatibility flags
    (the evaluation of ``kcompat apis``): refusals join ``errors``, with their remedies."""
    from ..core.apis import evaluate_api_availability

    efc = _bool_flag("emulation-forward-compatible", combined.emulation_forward_compatible, errors)
    rcefc = _bool_flag("runtime-config-emulation-forward-compatible", combined.runtime_config_emulation_forward_compatible, errors)
    try:
        result = evaluate_api_availability(
            combined.binary, list(combined.emulated) or None, list(combined.runtime_config), efc, rcefc,
            min_compat=list(combined.min_compat) or None, api_data=catalog.api_data, compare_with_release=False,
            gate_states=api_gate_states(catalog, list(combined.feature_gates) or None),
        )
    except KcompatError as exc:
        if not combined.runtime_config:
            return  # nothing of the API data is needed for flags that were not given
        try:
            parse_runtime_config(list(combined.runtime_config))
        except KcompatError as bad:
            errors.append(f"--runtime-config: {bad}")
        else:
            warnings.append(f"--runtime-config not checked against the served APIs: {exc}")
        return
    for error in result.errors:
        if error not in errors:
            errors.append(error)
    seen = {h["error"] for h in hints}
    for hint in api_hints(result):
        if hint.error not in seen:
            hints.append(hint_dict(hint))
            seen.add(hint.error)
    for warning in result.warnings:
        if warning.startswith("alpha api enabled") and warning not in warnings:
            warnings.append(warning)


#: One input: its name and content, and optionally the endpoint it was given as ("/version" or
#: "/metrics": a paste box of the page, an answer of kubectl get --raw), which its content must be.
Input = tuple[str, bytes | str] | tuple[str, bytes | str, str | None]


def inspect_document(
    catalog: Catalog, inputs: Sequence[Input], max_bytes: int = MAX_INPUT_BYTES, component: str | None = None
) -> InspectDocument:
    """Read every input (all problems are collected), combine, answer, compare. The component is
    the one the inputs name (``component`` when given, kube-apiserver when none is named); its own
    gate set answers where it is recorded, else kube-apiserver's, with a warning saying so."""
    readings = []
    problems: list[str] = []
    described: list[InputDict] = []
    for given in inputs:
        name, data = given[0], given[1]
        expected = given[2] if len(given) > 2 else None
        try:
            reading = read_input(data, name, max_bytes, expected)
        except InspectError as exc:
            problems += exc.problems
            described.append({"file": name, "kind": None})
            continue
        except KcompatError as exc:  # the YAML reader's messages already name the file
            problems.append(str(exc))
            described.append({"file": name, "kind": None})
            continue
        readings.append(reading)
        described.append({"file": name, "kind": reading.kind})
    if not inputs:
        problems.append("no input given")
    if problems:
        return _empty(described, problems)
    try:
        combined = combine_readings(readings, component)
    except KcompatError as exc:
        return _empty(described, list(getattr(exc, "problems", (str(exc),))))
    gate_set, gate_set_note = _gate_set(catalog, combined)
    try:
        evaluation = gate_evaluation(catalog, combined.binary, list(combined.emulated) or None,
                                     list(combined.min_compat) or None, list(combined.feature_gates) or None, component=gate_set)
    except KcompatError as exc:
        doc = _empty(described, [f"{combined.sources['binary']}: {exc}"], list(combined.warnings))
        doc["component"], doc["binary"] = combined.component, str(mm(parse_binary_version(combined.binary)))
        doc["sources"] = {k: echo(v, MESSAGE_LIMIT) for k, v in combined.sources.items()}
        return doc
    feature_gates = list(combined.feature_gates) or None
    answer = answer_of(evaluation, lambda: gate_lineage(catalog), feature_gates, gate_set)
    # how the other components answer the same selection: the gates document of `kcompat gates`
    answer = compare_components(catalog, answer, list(combined.emulated) or None, list(combined.min_compat) or None, feature_gates)
    gates = gates_document(answer)
    # the flag parser runs first: a word it refuses stops the binary before any other check
    errors = [pflag_error(e) for e in combined.refused] + list(evaluation.errors)
    hints = [flag_syntax_hint(e) for e in combined.refused] + list(gates["hints"])
    warnings = list(combined.warnings) + ([gate_set_note] if gate_set_note else []) + list(evaluation.warnings)
    if combined.component == KUBE_APISERVER:
        _apiserver_checks(catalog, combined, errors, warnings, hints)
    sel = evaluation.selection
    binary = parse_binary_version(combined.binary)
    document: InspectDocument = {
        "component": combined.component,
        "binary": str(mm(binary)),
        # version flags the binary refuses give no versions: the ones the gate keeps are no answer
        "emulated": None if sel.flags_rejected else str(sel.emulated),
        "minCompatibility": None if sel.flags_rejected else str(sel.min_compat),
        "sources": dict(combined.sources),
        "featureGates": ",".join(combined.feature_gates),
        "runtimeConfig": ",".join(combined.runtime_config),
        "emulationForwardCompatible": ",".join(combined.emulation_forward_compatible),
        "runtimeConfigEmulationForwardCompatible": ",".join(combined.runtime_config_emulation_forward_compatible),
        "valid": not errors,
        "startup": f"this {combined.component} would exit at start-up" if errors else None,
        "errors": errors,
        "hints": hints,
        "warnings": warnings,
        "versionDisagreements": list(combined.disagreements),
        "inputs": described,
        "gates": gates,
        "observed": None,
    }
    if combined.observed is not None and not errors:
        comparison = compare_observed(evaluation, combined.observed)
        document["observed"] = observed_document(comparison)
        if comparison.disagree and combined.sources["emulated"].startswith("default"):
            better = emulation_that_agrees(catalog, combined, binary, gate_set)
            if better is not None:
                document["warnings"].append(
                    f"/metrics agrees exactly with --emulated-version={better}: the binary likely runs with that flag, "
                    "which the inputs do not show (a 1.32 /version does not report it; add the command line or manifest)"
                )
        if comparison.missing:
            document["warnings"].append(
                f"{len(comparison.missing)} gate(s) the binary lists on /metrics are not in the input "
                f"(first: {', '.join(comparison.missing[:5])}): a partial /metrics, or a build without them"
            )
        if comparison.gates and not comparison.agree and not comparison.disagree:
            # not "all 0 agree": nothing was compared (exit 2, not a green 0)
            document["errors"].append(
                f"nothing to compare: none of the {comparison.gates:,} gates on /metrics is one kcompat knows for "
                f"{document['binary']} (first: {echo(comparison.unknown[0])}): not this binary's /metrics?"
            )
            document["valid"] = False
    return _echoed(document)


def _gate_set(catalog: Catalog, combined: Combined) -> tuple[str, str | None]:
    """The component whose gate set predicts ``combined``'s: its own where it is recorded for the
    binary's release, else kube-apiserver's with a note saying so."""
    if combined.component == KUBE_APISERVER:
        return KUBE_APISERVER, None
    try:
        catalog.manifest_for(parse_binary_version(combined.binary), combined.component)
    except KcompatError as exc:
        if "is not recorded" not in str(exc):
            return combined.component, None  # the evaluation reports the problem itself
        return KUBE_APISERVER, f"{exc}: {combined.component} is predicted with kube-apiserver's gate set"
    return combined.component, None


def flag_syntax_hint(error: FlagParseError) -> HintDict:
    """The remedy beside the flag parser's error: where the word is, and what to write."""
    return {"kind": "flag-syntax", "error": pflag_error(error), "gate": None, "text": pflag_remedy(error, FLAGS), "names": [error.word]}


def emulation_that_agrees(catalog: Catalog, combined: Combined, binary: Version, component: str = KUBE_APISERVER) -> str | None:
    """The other emulated version, if any, whose prediction agrees with every known gate on /metrics."""
    from ..core.compat import allowed_versions

    for option in reversed(allowed_versions(binary).emulated):
        emulated = option.emulated
        try:
            evaluation = gate_evaluation(catalog, combined.binary, emulated, None, list(combined.feature_gates) or None, component=component)
        except KcompatError:
            continue
        if evaluation.valid and combined.observed is not None and not compare_observed(evaluation, combined.observed).disagree:
            return emulated
    return None


def exit_status(document: InspectDocument) -> int:
    if not document["valid"]:
        return 2
    observed = document.get("observed")
    return 1 if (observed and observed["disagree"]) or document.get("versionDisagreements") else 0


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
    observed = document.get("observed")
    if observed:
        lines.append(
            f"/metrics: {observed['gates']} gates, {observed['agree']} agree, {len(observed['disagree'])} disagree, "
            f"{len(observed['unknown'])} unknown to kcompat"
        )
    return lines
