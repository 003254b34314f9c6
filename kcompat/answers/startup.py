"""Will this kube-apiserver start, and will it become ready? One answer for ``kcompat gates``,
``apis``, ``inspect``, ``config``, ``plan`` and the dashboard's selection.

:func:`apiserver_startup` puts together the gate evaluation (:mod:`kcompat.answers.gates`), the
API evaluation of ``--runtime-config`` (:mod:`kcompat.core.apis`), the option checks
(:mod:`kcompat.core.startup`) and the recorded readiness rules (:mod:`kcompat.core.readiness`,
``data/startup``). Its verdict is one of three: it **starts**, it **refuses** to start (the
binary's own lines), or it **starts but does not become ready** (kcompat's line with what the
recorded start of the real binary did), each with remedies.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kcompat.core.errors import KcompatError
from kcompat.core.gates import GateEvaluation
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from kcompat.core.apis import ApiAvailability
    from kcompat.core.problems import Problem, Remedy
    from kcompat.core.readiness import ReadinessRules, ServedApis
    from kcompat.core.startup import ApiserverOptions

#: The three verdicts, as the documents write them.
STARTS, REFUSES, NOT_READY = "starts", "refuses", "not-ready"
COMPONENT = "kube-apiserver"


@dataclass(frozen=True)
class StartupAnswer:
    """What a kube-apiserver does with these flags. Plain values (pickled to the upload worker)."""

    #: every problem, refusals (of the phase the binary stops at) first, then the readiness
    #: problems (none when it refuses), then warnings and notes
    problems: tuple[Problem, ...] = ()
    hints: tuple[Remedy, ...] = ()
    #: the patch release whose recorded starts gave the readiness rules ("v1.34.12"); None: no
    #: start of this release was recorded, its readiness is not known
    readiness_recorded: str | None = None
    #: the API evaluation of the flags, when one was made (kcompat apis shows it)
    apis: ApiAvailability | None = field(default=None, compare=False, repr=False)

    @property
    def errors(self) -> tuple[str, ...]:
        return tuple(p.message for p in self.problems if p.refuses)

    @property
    def not_ready(self) -> tuple[str, ...]:
        return tuple(p.message for p in self.problems if p.not_ready)

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(p.message for p in self.problems if p.warns)

    @property
    def verdict(self) -> str:
        return REFUSES if self.errors else NOT_READY if self.not_ready else STARTS


def _flag_list(value: str | list[str] | tuple[str, ...] | None) -> list[str] | None:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value) or None


def apiserver_startup(
    catalog: Catalog,
    evaluation: GateEvaluation,
    binary: str,
    *,
    emulated: str | list[str] | None = None,
    min_compat: str | list[str] | None = None,
    feature_gates: str | list[str] | None = None,
    runtime_config: str | list[str] | None = None,
    emulation_forward_compatible: bool = False,
    runtime_config_emulation_forward_compatible: bool = False,
    options: ApiserverOptions | None = None,
    apis: ApiAvailability | None = None,
) -> StartupAnswer:
    """kube-apiserver's start-up with these flags, on the gate ``evaluation`` of the same flags.
    ``apis`` is the API evaluation of the same flags when the caller has one (kcompat apis)."""
    from kcompat.core.startup import DEFAULT_OPTIONS, startup_problems

    options = options or DEFAULT_OPTIONS
    selection = evaluation.selection
    states = evaluation.by_name()

    def gate_on(name: str) -> bool:
        state = states.get(name)
        return bool(state is not None and state.enabled)

    rc_values = _flag_list(runtime_config)
    config = None
    if rc_values:
        from kcompat.core.runtime_config import parse_runtime_config

        config = parse_runtime_config(rc_values)
    notes: list[Problem] = []
    evaluations: dict[str, ApiAvailability | None] = {}

    def evaluate(with_flags: bool) -> ApiAvailability | None:
        key = "flags" if with_flags else "default"
        if key not in evaluations:
            if with_flags and apis is not None:
                evaluations[key] = apis
            else:
                evaluations[key] = _api_evaluation(
                    catalog, binary, emulated, min_compat, feature_gates if with_flags else None,
                    rc_values if with_flags else None, emulation_forward_compatible and with_flags,
                    runtime_config_emulation_forward_compatible and with_flags, notes,
                )
        return evaluations[key]

    checked = apis
    if checked is None and (rc_values or emulation_forward_compatible or runtime_config_emulation_forward_compatible):
        checked = evaluate(True)
    served_now = _served(checked, config) if checked is not None and config is not None else None
    problems = startup_problems(
        selection, evaluation.problems, evaluation.flags_applied, gate_on,
        checked.problems if checked is not None else None, config, options, served_now,
    )
    rules = _rules(catalog, selection)
    if not any(p.refuses for p in problems) and rules is not None:
        problems = _with_readiness(problems, rules, selection.emulated, gate_on, config, feature_gates, evaluate, frozenset(options.flags))
    if notes:
        problems = (*problems, *notes)
    hints = _hints(problems, evaluation, config, rules, checked)
    return StartupAnswer(problems, hints, rules.recorded if rules is not None else None, checked)


def _api_evaluation(
    catalog: Catalog, binary: str, emulated: object, min_compat: object, feature_gates: str | list[str] | None,
    runtime_config: list[str] | None, efc: bool, rcefc: bool, notes: list[Problem],
) -> ApiAvailability | None:
    """The API evaluation of the flags; None (with a note) when the release has no API data."""
    from kcompat.answers.queries import api_gate_states
    from kcompat.core.apis import evaluate_api_availability

    try:
        return evaluate_api_availability(
            binary, emulated, runtime_config, efc, rcefc, min_compat=min_compat, api_data=catalog.api_data,  # type: ignore[arg-type]
            compare_with_release=False, gate_states=api_gate_states(catalog, feature_gates),
        )
    except KcompatError as exc:
        from kcompat.core.problems import Note

        note = Note(f"--runtime-config and the APIs kube-apiserver needs are not checked: {exc}")
        if note not in notes:
            notes.append(note)
        return None


def _served(availability: ApiAvailability, config: object) -> ServedApis:
    """What an API evaluation serves, with kube-aggregator's and apiextensions-apiserver's own
    groups (not in the evaluation) as their merged resource configs give them."""
    from kcompat.core.readiness import served_apis
    from kcompat.core.startup import delegated_served

    pairs = [(e.group_version, e.resource) for e in availability.served()]
    return served_apis([*pairs, *delegated_served(config)])  # type: ignore[arg-type]


def _rules(catalog: Catalog, selection: object) -> ReadinessRules | None:
    from kcompat.data.startup import readiness_rules

    release = selection.rules.release  # type: ignore[attr-defined]
    return readiness_rules(catalog.data_dir, f"{release.major}.{release.minor}") if release is not None else None


def _with_readiness(problems: tuple[Problem, ...], rules: ReadinessRules, emulated: object, gate_on: object,
                    config: object, feature_gates: object, evaluate: object, options: frozenset[tuple[str, str]]) -> tuple[Problem, ...]:
    """``problems`` with the readiness problems after the refusals (there are none) and before
    the warnings."""
    from kcompat.core.readiness import readiness_problems

    changed = config is not None or bool(feature_gates)

    def served() -> ServedApis:
        availability = evaluate(True)  # type: ignore[operator]
        return _served(availability, config) if availability is not None else _nothing()

    def default_served() -> ServedApis:
        availability = evaluate(False)  # type: ignore[operator]
        return _served(availability, None) if availability is not None else _nothing()

    def kinds(group_version: str) -> tuple[str, ...]:
        availability = evaluate(False)  # type: ignore[operator]
        if availability is None:
            return ()
        return tuple(dict.fromkeys(e.kind for e in availability.entries if e.group_version == group_version
                                   and e.reason.value != "removed-at-or-before-emulated-version"))

    found = readiness_problems(rules, emulated, gate_on, served if changed else None, default_served, kinds, options)  # type: ignore[arg-type]
    if not found:
        return problems
    return (*found, *problems)


def _nothing() -> ServedApis:
    from kcompat.core.readiness import served_apis

    return served_apis(())


def _hints(problems: tuple[Problem, ...], evaluation: GateEvaluation, config: object, rules: ReadinessRules | None,
           apis: ApiAvailability | None) -> tuple[Remedy, ...]:
    """The remedies of the option refusals, the readiness problems and the API refusals (the gate
    refusals' remedies are the gates answer's)."""
    if not any(p.refuses or p.not_ready for p in problems):
        return ()
    from kcompat.core.remedies.startup import StartupContext, startup_remedies

    context = StartupContext(evaluation.by_name(), evaluation.selection.emulated, config, rules)  # type: ignore[arg-type]
    out = list(startup_remedies(problems, context))
    if apis is not None and any(p.refuses for p in apis.problems):
        from kcompat.core.remedies import api_remedies

        shown = {p.message for p in problems}
        out += [r for r in api_remedies(apis) if r.error in shown and r.error not in {h.error for h in out}]
    return tuple(out)
