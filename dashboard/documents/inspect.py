"""The ``kcompat inspect`` document: what the inputs say, the engine's answer for it, and how
``/metrics`` compares. The CLI prints it and the Check a cluster page shows it.

Exit status (:func:`exit_status`): 0 when everything agrees, 1 when the cluster disagrees with
the prediction, 2 when the input is unusable.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..catalog import Catalog
from ..core.runtime_config import parse_runtime_config
from ..core.compat import parse_binary_version
from ..core.errors import MESSAGE_LIMIT, KcompatError, echo
from ..core.inspect import Comparison, InspectError, combine_readings, compare_observed, read_input
from ..core.inspect.model import MAX_INPUT_BYTES
from ..core.reports import gates_document
from ..core.versions import mm
from ..queries import gates_for

DISAGREE_COLUMNS = ("name", "predicted", "observed", "stage", "predictedStage", "likely")


def observed_document(comparison: Comparison) -> dict:
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


def _empty(inputs: list[dict], errors: list[str], warnings: list[str] | None = None) -> dict:
    return _echoed({
        "component": None, "binary": None, "emulated": None, "minCompatibility": None, "sources": {},
        "featureGates": "", "runtimeConfig": "", "valid": False, "errors": errors, "warnings": warnings or [],
        "inputs": inputs, "gates": None, "observed": None,
    })


def _echoed(document: dict) -> dict:
    """Every error and warning cut to MESSAGE_LIMIT characters with control and bidirectional
    characters written as escapes: input text never makes a message long, multi-line or styled."""
    document["errors"] = [echo(m, MESSAGE_LIMIT) for m in document["errors"]]
    document["warnings"] = [echo(m, MESSAGE_LIMIT) for m in document["warnings"]]
    document["sources"] = {k: echo(v, MESSAGE_LIMIT) for k, v in document["sources"].items()}
    return document


def inspect_document(catalog: Catalog, inputs: Sequence[tuple[str, bytes | str]], max_bytes: int = MAX_INPUT_BYTES) -> dict:
    """Read every input (all problems are collected), combine, answer, compare."""
    readings, problems, described = [], [], []
    for name, data in inputs:
        try:
            reading = read_input(data, name, max_bytes)
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
        combined = combine_readings(readings)
    except KcompatError as exc:
        return _empty(described, list(getattr(exc, "problems", (str(exc),))))
    try:
        evaluation = gates_for(catalog, combined.binary, list(combined.emulated) or None,
                               list(combined.min_compat) or None, list(combined.feature_gates) or None)
    except KcompatError as exc:
        doc = _empty(described, [f"{combined.sources['binary']}: {exc}"], list(combined.warnings))
        doc.update(component=combined.component, binary=str(mm(parse_binary_version(combined.binary))), sources=dict(combined.sources))
        return doc
    gates = gates_document(evaluation)
    errors = list(evaluation.errors)
    warnings = list(combined.warnings) + list(evaluation.warnings)
    if combined.runtime_config:
        try:
            parse_runtime_config(list(combined.runtime_config))
        except KcompatError as exc:
            errors.append(f"--runtime-config: {exc}")
    sel = evaluation.selection
    document = {
        "component": combined.component,
        "binary": str(mm(sel.binary)),
        "emulated": str(sel.emulated),
        "minCompatibility": str(sel.min_compat),
        "sources": dict(combined.sources),
        "featureGates": ",".join(combined.feature_gates),
        "runtimeConfig": ",".join(combined.runtime_config),
        "valid": not errors,
        "errors": errors,
        "warnings": warnings,
        "inputs": described,
        "gates": gates,
        "observed": None,
    }
    if combined.observed is not None and not errors:
        comparison = compare_observed(evaluation, combined.observed)
        document["observed"] = observed_document(comparison)
        if comparison.disagree and combined.sources["emulated"].startswith("default"):
            better = emulation_that_agrees(catalog, combined, sel.binary)
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


def emulation_that_agrees(catalog: Catalog, combined, binary) -> str | None:
    """The other emulated version, if any, whose prediction agrees with every known gate on /metrics."""
    from ..core.compat import allowed_versions

    for option in reversed(allowed_versions(binary)["emulated"]):
        emulated = option["emulated"]
        try:
            evaluation = gates_for(catalog, combined.binary, emulated, None, list(combined.feature_gates) or None)
        except KcompatError:
            continue
        if evaluation.valid and not compare_observed(evaluation, combined.observed).disagree:
            return emulated
    return None


def exit_status(document: dict) -> int:
    if not document["valid"]:
        return 2
    observed = document.get("observed")
    return 1 if observed and observed["disagree"] else 0


def summary_lines(document: dict) -> list[str]:
    """The selection found and where each part came from, one line each."""
    lines = []
    for key, label in (("component", "component"), ("binary", "binary"), ("emulated", "emulated"),
                       ("minCompatibility", "min compatibility"), ("featureGates", "--feature-gates"),
                       ("runtimeConfig", "--runtime-config")):
        value = document.get(key)
        if value in (None, "") and key not in document["sources"]:
            continue
        source = document["sources"].get(key)
        lines.append(f"{label}: {value}" + (f"  ({source})" if source else ""))
    observed = document.get("observed")
    if observed:
        lines.append(
            f"/metrics: {observed['gates']} gates, {observed['agree']} agree, {len(observed['disagree'])} disagree, "
            f"{len(observed['unknown'])} unknown to kcompat"
        )
    return lines
