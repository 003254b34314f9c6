"""The inspect question: what the inputs say about one control-plane component, the engine's answer
for it, and how ``/metrics`` compares. ``kcompat inspect`` and the Check a cluster page ask
:func:`inspect`; :mod:`kcompat.documents.inspect` writes the answer as the JSON document and text.

Every check the binary runs at start-up is applied to what was read: the version ranges, the
``--feature-gates`` value (gates, locks, dependencies) and, for kube-apiserver, the
``--runtime-config`` value with the forward-compatibility flags (the same evaluation as
``kcompat apis``). A refusal is reported with the binary's own lines (``refusals``) and the
remedies (``hints``); input that cannot be used at all is ``unusable``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.answers.gates import GatesAnswer, answer_of, gate_evaluation
from kcompat.answers.queries import api_gate_states, gate_lineage
from kcompat.core.compat import parse_binary_version
from kcompat.core.errors import KcompatError, echo
from kcompat.core.flags import parse_go_bool
from kcompat.core.inspect import (
    Combined,
    Comparison,
    InspectError,
    combine_readings,
    compare_observed,
    read_input,
)
from kcompat.core.inspect.model import MAX_INPUT_BYTES, Reading
from kcompat.core.problems import AlphaApiWhileEmulating, Remedy
from kcompat.core.remedies import api_remedies
from kcompat.core.runtime_config import parse_runtime_config
from kcompat.core.versions import Version, mm
from kcompat.data.catalog import Catalog


@dataclass(frozen=True)
class InputRead:
    """One input and what it was read as (None: it could not be read)."""

    file: str
    kind: str | None


@dataclass(frozen=True)
class Inspection:
    """The answer for a set of inputs. Plain values (it is sent from the upload worker to the page)."""

    inputs: tuple[InputRead, ...]
    #: what the inputs say together; None when they could not be combined
    combined: Combined | None = None
    #: the binary's release ("1.36"); None when the inputs name none that can be used
    binary: str | None = None
    #: the gates with the selection read; None when no gate could be evaluated
    gates: GatesAnswer | None = None
    #: the binary's own lines: it would exit at start-up with them
    refusals: tuple[str, ...] = ()
    #: why the input cannot be used (unreadable, contradictory, nothing to compare)
    unusable: tuple[str, ...] = ()
    hints: tuple[Remedy, ...] = ()
    warnings: tuple[str, ...] = ()
    #: /metrics against the prediction; None without /metrics (or when the binary refuses the input)
    comparison: Comparison | None = None

    @property
    def component(self) -> str | None:
        return self.combined.component if self.combined is not None else None

    @property
    def errors(self) -> tuple[str, ...]:
        return self.refusals + self.unusable

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def startup(self) -> str | None:
        """What the refusals mean, when there are any."""
        return f"this {self.component} would exit at start-up" if self.refusals and self.gates is not None else None

    @property
    def disagrees(self) -> bool:
        """The cluster differs from the prediction (``/metrics``, or ``/version`` against the flags)."""
        disagreements = self.combined.disagreements if self.combined is not None else ()
        return bool((self.comparison is not None and self.comparison.disagree) or disagreements)


def _bool_flag(name: str, values: Sequence[str], errors: list[str]) -> bool:
    """A pflag boolean as the binary reads it: the last value wins; a bad one refuses start-up."""
    if not values:
        return False
    value = parse_go_bool(values[-1])
    if value is None:
        errors.append(f'invalid argument "{values[-1]}" for "--{name}" flag: strconv.ParseBool: parsing "{values[-1]}": invalid syntax')
        return False
    return value


def _apiserver_checks(catalog: Catalog, combined: Combined, errors: list[str], warnings: list[str], hints: list[Remedy]) -> None:
    """kube-apiserver's start-up checks of --runtime-config and the forward-compatibility flags
    (the evaluation of ``kcompat apis``): refusals join ``errors``, with their remedies."""
    from kcompat.core.apis import evaluate_api_availability

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
    seen = {h.error for h in hints}
    for hint in api_remedies(result):
        if hint.error not in seen:
            hints.append(hint)
            seen.add(hint.error)
    for problem in result.problems:
        if isinstance(problem, AlphaApiWhileEmulating) and problem.message not in warnings:
            warnings.append(problem.message)


def _read(inputs: Sequence[tuple[str, bytes | str]], max_bytes: int) -> tuple[list[Reading], list[str], tuple[InputRead, ...]]:
    """(readings, problems, what each input was read as): every input is read, all problems kept."""
    readings: list[Reading] = []
    problems: list[str] = []
    described: list[InputRead] = []
    for name, data in inputs:
        try:
            reading = read_input(data, name, max_bytes)
        except InspectError as exc:
            problems += exc.problems
            described.append(InputRead(name, None))
            continue
        except KcompatError as exc:  # the YAML reader's messages already name the file
            problems.append(str(exc))
            described.append(InputRead(name, None))
            continue
        readings.append(reading)
        described.append(InputRead(name, reading.kind))
    if not inputs:
        problems.append("no input given")
    return readings, problems, tuple(described)


def inspect(catalog: Catalog, inputs: Sequence[tuple[str, bytes | str]], max_bytes: int = MAX_INPUT_BYTES) -> Inspection:
    """Read every input (all problems are collected), combine, answer, compare."""
    readings, problems, described = _read(inputs, max_bytes)
    if problems:
        return Inspection(described, unusable=tuple(problems))
    try:
        combined = combine_readings(readings)
    except KcompatError as exc:
        return Inspection(described, unusable=tuple(getattr(exc, "problems", (str(exc),))))
    try:
        evaluation = gate_evaluation(catalog, combined.binary, list(combined.emulated) or None,
                                     list(combined.min_compat) or None, list(combined.feature_gates) or None)
    except KcompatError as exc:
        return Inspection(
            described, combined, str(mm(parse_binary_version(combined.binary))),
            unusable=(f"{combined.sources['binary']}: {exc}",), warnings=combined.warnings,
        )
    gates = answer_of(evaluation, lambda: gate_lineage(catalog))
    errors = list(evaluation.errors)
    hints = list(gates.hints)
    warnings = list(combined.warnings) + list(evaluation.warnings)
    if combined.component == "kube-apiserver":
        _apiserver_checks(catalog, combined, errors, warnings, hints)
    binary = mm(parse_binary_version(combined.binary))
    unusable: list[str] = []
    comparison = None
    if combined.observed is not None and not errors:
        comparison = compare_observed(evaluation, combined.observed)
        warnings += _metrics_warnings(catalog, combined, binary, comparison)
        if comparison.gates and not comparison.agree and not comparison.disagree:
            # not "all 0 agree": nothing was compared (exit 2, not a green 0)
            unusable.append(
                f"nothing to compare: none of the {comparison.gates:,} gates on /metrics is one kcompat knows for "
                f"{binary} (first: {echo(comparison.unknown[0])}): not this binary's /metrics?"
            )
    return Inspection(described, combined, str(binary), gates, tuple(errors), tuple(unusable), tuple(hints), tuple(warnings), comparison)


def _metrics_warnings(catalog: Catalog, combined: Combined, binary: Version, comparison: Comparison) -> list[str]:
    """What /metrics suggests beyond the disagreements: the emulated version it agrees with when no
    input names one, and the gates it lacks."""
    out = []
    if comparison.disagree and combined.sources["emulated"].startswith("default"):
        better = emulation_that_agrees(catalog, combined, binary)
        if better is not None:
            out.append(
                f"/metrics agrees exactly with --emulated-version={better}: the binary likely runs with that flag, "
                "which the inputs do not show (a 1.32 /version does not report it; add the command line or manifest)"
            )
    if comparison.missing:
        out.append(
            f"{len(comparison.missing)} gate(s) the binary lists on /metrics are not in the input "
            f"(first: {', '.join(comparison.missing[:5])}): a partial /metrics, or a build without them"
        )
    return out


def emulation_that_agrees(catalog: Catalog, combined: Combined, binary: Version) -> str | None:
    """The other emulated version, if any, whose prediction agrees with every known gate on /metrics."""
    from kcompat.core.compat import allowed_versions

    for option in reversed(allowed_versions(binary).emulated):
        emulated = option.emulated
        try:
            evaluation = gate_evaluation(catalog, combined.binary, emulated, None, list(combined.feature_gates) or None)
        except KcompatError:
            continue
        if evaluation.valid and combined.observed is not None and not compare_observed(evaluation, combined.observed).disagree:
            return emulated
    return None
