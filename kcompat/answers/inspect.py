"""The inspect question: what the inputs say about one control-plane component, the engine's answer
for it, and how ``/metrics`` compares. ``kcompat inspect`` and the Check a cluster page ask
:func:`inspect`; :mod:`kcompat.documents.inspect` writes the answer as the JSON document and text.

Every check the binary runs at start-up is applied to what was read: the version ranges, the
``--feature-gates`` value (gates, locks, dependencies) and, for kube-apiserver, its whole
start-up as ``kcompat gates`` answers it (:mod:`kcompat.answers.startup`: ``--runtime-config``
with the forward-compatibility flags, the options its checks read, and whether it becomes
ready). A refusal is reported with the binary's own lines (``refusals``) and the remedies
(``hints``); a start that would not become ready with its reasons (``not_ready``); input that
cannot be used at all is ``unusable``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.answers.gates import (
    GatesAnswer,
    answer_of,
    compare_components,
    gate_evaluation,
)
from kcompat.answers.queries import gate_lineage
from kcompat.core.compat import parse_binary_version
from kcompat.core.components import KUBE_APISERVER
from kcompat.core.errors import ComponentNotRecorded, KcompatError, echo
from kcompat.core.flags import parse_go_bool
from kcompat.core.gates import GateEvaluation
from kcompat.core.inspect import (
    Combined,
    Comparison,
    GivenBinary,
    InspectError,
    combine_readings,
    compare_observed,
    read_input,
)
from kcompat.core.inspect.messages import pflag_error, pflag_remedy
from kcompat.core.inspect.model import FLAGS, MAX_INPUT_BYTES, FlagParseError, Reading
from kcompat.core.problems import FlagSyntaxRefused, Remedy, RemedyKind
from kcompat.core.request import Request, flag, values
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
    #: why this kube-apiserver would start but not become ready (kcompat.answers.startup)
    not_ready: tuple[str, ...] = ()

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
        """What the refusals (or the readiness problems) mean, when there are any."""
        if self.refusals and self.gates is not None:
            return f"this {self.component} would exit at start-up"
        if self.not_ready:
            return f"this {self.component} would start but not become ready"
        return None

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


def _apiserver_startup(
    catalog: Catalog, request: Request, combined: Combined, evaluation: GateEvaluation, gates: GatesAnswer,
) -> tuple[GatesAnswer, list[str]]:
    """kube-apiserver's whole start-up with what was read (the answer of ``kcompat gates`` with the
    same flags): the gates answer with its refusals, readiness, warnings and remedies, and the
    flags kcompat could not read (they refuse start-up as they are)."""
    from kcompat.answers.gates import with_startup
    from kcompat.answers.startup import apiserver_startup
    from kcompat.core.startup import read_options

    unreadable: list[str] = []
    efc = _bool_flag("emulation-forward-compatible", combined.emulation_forward_compatible, unreadable)
    rcefc = _bool_flag("runtime-config-emulation-forward-compatible", combined.runtime_config_emulation_forward_compatible, unreadable)
    try:
        options = read_options(combined.apiserver_flags)
    except KcompatError as exc:
        unreadable.append(str(exc))
        options = None
    try:
        request = request.with_(runtime_config=flag(combined.runtime_config), emulation_forward_compatible=efc,
                          runtime_config_emulation_forward_compatible=rcefc, options=options)
        startup = apiserver_startup(catalog, evaluation, request)
    except KcompatError as exc:  # a --runtime-config value no binary could take (too long...)
        return gates, [*unreadable, f"--runtime-config: {exc}"]
    return with_startup(gates, startup), unreadable


#: One input: its name and content, and optionally the endpoint it was given as ("/version" or
#: "/metrics": a paste box of the page, an answer read with --live), which its content must be.
Input = tuple[str, bytes | str] | tuple[str, bytes | str, str | None]


def _read(inputs: Sequence[Input], max_bytes: int) -> tuple[list[Reading], list[str], tuple[InputRead, ...]]:
    """(readings, problems, what each input was read as): every input is read, all problems kept."""
    readings: list[Reading] = []
    problems: list[str] = []
    described: list[InputRead] = []
    for given in inputs:
        name, data = given[0], given[1]
        expected = given[2] if len(given) > 2 else None
        try:
            reading = read_input(data, name, max_bytes, expected)
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


@dataclass(frozen=True, slots=True)
class InspectQuery:
    """How inputs are inspected: the component (None: the one the inputs name, else
    kube-apiserver), the binary when the inputs name none (``--binary``, the page's Binary
    picker), and the most bytes one input may have."""

    component: str | None = None
    binary: GivenBinary | None = None
    max_bytes: int = MAX_INPUT_BYTES


def inspect(catalog: Catalog, inputs: Sequence[Input], query: InspectQuery | None = None) -> Inspection:
    """Read every input (all problems are collected), combine, answer, compare. The component is
    the one the inputs name (``component`` when given, kube-apiserver when none is named); its own
    gate set answers where it is recorded, else kube-apiserver's, with a warning saying so. The
    binary is the one the inputs name, else ``binary`` (``--binary``, the page's Binary picker):
    a command line alone is answered for it as ``kcompat gates -- <the command line>`` answers."""
    query = query or InspectQuery()
    readings, problems, described = _read(inputs, query.max_bytes)
    if problems:
        return Inspection(described, unusable=tuple(problems))
    try:
        combined = combine_readings(readings, query.component, query.binary)
    except KcompatError as exc:
        return Inspection(described, unusable=tuple(getattr(exc, "problems", (str(exc),))))
    gate_set, gate_set_note = _gate_set(catalog, combined)
    try:
        request = Request.of(combined.binary, combined.emulated, combined.min_compat, combined.feature_gates, component=gate_set)
        evaluation = gate_evaluation(catalog, request)
    except KcompatError as exc:
        return Inspection(
            described, combined, str(mm(parse_binary_version(combined.binary))),
            unusable=(f"{combined.sources['binary']}: {exc}",), warnings=combined.warnings,
        )
    gates = answer_of(evaluation, lambda: gate_lineage(catalog), values(request.feature_gates), gate_set)
    # how the other components answer the same selection: the gates answer of `kcompat gates`
    gates = compare_components(catalog, gates, request)
    unreadable: list[str] = []
    if combined.component == KUBE_APISERVER:
        gates, unreadable = _apiserver_startup(catalog, request, combined, evaluation, gates)
    # the flag parser runs first: a word it refuses stops the binary before any other check
    errors = [pflag_error(e) for e in combined.refused] + unreadable + list(gates.errors)
    hints = [flag_syntax_remedy(e) for e in combined.refused] + list(gates.hints)
    warnings = list(combined.warnings) + ([gate_set_note] if gate_set_note else []) + list(gates.warnings)
    release = mm(parse_binary_version(combined.binary))
    unusable: list[str] = []
    comparison = None
    if combined.observed is not None and not errors:
        comparison = compare_observed(evaluation, combined.observed)
        warnings += _metrics_warnings(catalog, combined, release, comparison, gate_set)
        if comparison.gates and not comparison.agree and not comparison.disagree:
            # not "all 0 agree": nothing was compared (exit 2, not a green 0)
            unusable.append(
                f"nothing to compare: none of the {comparison.gates:,} gates on /metrics is one kcompat knows for "
                f"{release} (first: {echo(comparison.unknown[0])}): not this binary's /metrics?"
            )
    return Inspection(described, combined, str(release), gates, tuple(errors), tuple(unusable), tuple(hints), tuple(warnings), comparison,
                      not_ready=gates.not_ready if not errors else ())


def _metrics_warnings(catalog: Catalog, combined: Combined, binary: Version, comparison: Comparison, component: str = KUBE_APISERVER) -> list[str]:
    """What /metrics suggests beyond the disagreements: the emulated version it agrees with when no
    input names one, and the gates it lacks."""
    out = []
    if comparison.disagree and combined.sources["emulated"].startswith("default"):
        better = emulation_that_agrees(catalog, combined, binary, component)
        if better is not None:
            out.append(
                f"/metrics agrees exactly with --emulated-version={better}: the binary likely runs with that flag, "
                "which the inputs do not show (a 1.32 /version does not report it; add the command line or manifest)"
            )
    if comparison.missing:
        missing = len(comparison.missing)
        lacking = f"{missing:,} gate{'' if missing == 1 else 's'}"
        out.append(
            f"the /metrics given lacks {lacking} the prediction puts there (first: {', '.join(comparison.missing[:5])}): "
            "a partial /metrics, or a build without them"
        )
    return out


def flag_syntax_remedy(error: FlagParseError) -> Remedy:
    """The remedy beside the flag parser's error: where the word is, and what to write."""
    return Remedy(RemedyKind.FLAG_SYNTAX, FlagSyntaxRefused(error.word, pflag_error(error)), pflag_remedy(error, FLAGS), (error.word,))


def _gate_set(catalog: Catalog, combined: Combined) -> tuple[str, str | None]:
    """The component whose gate set predicts ``combined``'s: its own where it is recorded for the
    binary's release, else kube-apiserver's with a note saying so."""
    if combined.component == KUBE_APISERVER:
        return KUBE_APISERVER, None
    try:
        catalog.manifest_for(parse_binary_version(combined.binary), combined.component)
    except ComponentNotRecorded as exc:
        return KUBE_APISERVER, f"{exc}: {combined.component} is predicted with kube-apiserver's gate set"
    except KcompatError:
        return combined.component, None  # the evaluation reports the problem itself
    return combined.component, None


def emulation_that_agrees(catalog: Catalog, combined: Combined, binary: Version, component: str = KUBE_APISERVER) -> str | None:
    """The other emulated version, if any, whose prediction agrees with every known gate on /metrics."""
    from kcompat.core.compat import allowed_versions

    for option in reversed(allowed_versions(binary).emulated):
        emulated = option.emulated
        try:
            evaluation = gate_evaluation(catalog, Request.of(combined.binary, emulated, None, combined.feature_gates, component=component))
        except KcompatError:
            continue
        if evaluation.valid and combined.observed is not None and not compare_observed(evaluation, combined.observed).disagree:
            return emulated
    return None
