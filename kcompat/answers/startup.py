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

from kcompat.core.errors import KcompatError
from kcompat.core.gates import GateEvaluation
from kcompat.core.judged import Judged
from kcompat.core.record import Record, set_field
from kcompat.core.request import Request, values
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from kcompat.core.apis import ApiAvailability
    from kcompat.core.compat import VersionSelection
    from kcompat.core.problems import Problem, Remedy
    from kcompat.core.readiness import ReadinessRules, ServedApis
    from kcompat.core.runtime_config import RuntimeConfig

#: The three verdicts, as the documents write them.
STARTS, REFUSES, NOT_READY = "starts", "refuses", "not-ready"
COMPONENT = "kube-apiserver"


class StartupAnswer(Record, Judged):
    """What a kube-apiserver does with these flags. Plain values (pickled to the upload worker)."""

    __slots__ = ("apis", "hints", "problems", "readiness_recorded", "readiness_unknown")
    _uncompared = ("apis",)
    #: every problem, refusals (of the phase the binary stops at) first, then the readiness
    #: problems (none when it refuses), then warnings and notes
    problems: tuple[Problem, ...]
    hints: tuple[Remedy, ...]
    #: the patch release whose recorded starts gave the readiness rules ("v1.34.12"); None: no
    #: start of this release was recorded, its readiness is not known
    readiness_recorded: str | None
    #: the API evaluation of the flags, when one was made (kcompat apis shows it)
    apis: ApiAvailability | None
    #: it starts, but whether it becomes ready is not known although readiness is recorded: a
    #: stage the recorded starts could not search is on, or the APIs it needs could not be checked
    readiness_unknown: bool

    def __init__(self, problems: tuple[Problem, ...] = (), hints: tuple[Remedy, ...] = (), readiness_recorded: str | None = None,
                 apis: ApiAvailability | None = None, readiness_unknown: bool = False) -> None:
        set_field(self, "problems", problems)
        set_field(self, "hints", hints)
        set_field(self, "readiness_recorded", readiness_recorded)
        set_field(self, "apis", apis)
        set_field(self, "readiness_unknown", readiness_unknown)

    @property
    def not_ready(self) -> tuple[str, ...]:
        return tuple(p.message for p in self.problems if p.not_ready)

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(p.message for p in self.problems if p.warns)

    @property
    def verdict(self) -> str:
        return REFUSES if self.errors else NOT_READY if self.not_ready else STARTS


class SelectionRefused(KcompatError):
    """The binary would refuse the selection: its own lines (``errors``), with the remedies
    (``hints``, one line each) and what it warns of. Every command that takes a selection and
    answers something else than the verdict (``kcompat scan``, ``gate``, ``timeline``, ``skew``)
    stops with it where ``kcompat gates`` and ``apis`` answer "refuses" (exit status 2); the
    message is the first error and how many more there are."""

    def __init__(
        self, binary: str, emulated: str | None, min_compat: str | None, errors: tuple[str, ...],
        hints: tuple[str, ...] = (), warnings: tuple[str, ...] = (), versions_refused: bool = False,
    ) -> None:
        self.binary, self.emulated, self.min_compat = binary, emulated, min_compat
        self.errors, self.hints, self.warnings, self.versions_refused = errors, hints, warnings, versions_refused
        first = errors[0] if errors else "the binary refuses this selection"
        more = f" (and {len(errors) - 1:,} more)" if len(errors) > 1 else ""
        super().__init__(f"{first}{more}")

    def __reduce__(self) -> tuple[type[SelectionRefused], tuple[object, ...]]:
        return type(self), (self.binary, self.emulated, self.min_compat, self.errors, self.hints, self.warnings, self.versions_refused)


#: The --runtime-config value that turns every API on (a readiness rule's recorded fix).
ALL_APIS = "api/all=true"


class _Apis:
    """The API evaluations a start-up needs, each made once and only when asked for: with the
    flags (the caller's own, when it has one) and a default start at the same versions."""

    def __init__(self, catalog: Catalog, binary: str, flags: _Flags, given: ApiAvailability | None) -> None:
        self.catalog, self.binary, self.flags = catalog, binary, flags
        self.notes: list[Problem] = []
        self._done: dict[bool, ApiAvailability | None] = {} if given is None else {True: given}
        self._all: ServedApis | None = None

    def evaluation(self, with_flags: bool) -> ApiAvailability | None:
        if with_flags not in self._done:
            self._done[with_flags] = self._evaluate(with_flags)
        return self._done[with_flags]

    def _evaluate(self, with_flags: bool, runtime_config: list[str] | None = None) -> ApiAvailability | None:
        """The API evaluation (with ``runtime_config`` instead of the given one, when given); None
        (with a note) when the release has no API data."""
        from kcompat.answers.queries import api_gate_states
        from kcompat.core.apis import evaluate_api_availability

        f = self.flags
        try:
            return evaluate_api_availability(
                self.binary, f.emulated, runtime_config if runtime_config is not None else f.runtime_config if with_flags else None,
                f.emulation_forward_compatible and with_flags, f.runtime_config_emulation_forward_compatible and with_flags,
                min_compat=f.min_compat, api_data=self.catalog.api_data, compare_with_release=False,
                gate_states=api_gate_states(self.catalog, f.feature_gates if with_flags else None),
            )
        except KcompatError as exc:
            from kcompat.core.problems import Note

            note = Note(f"--runtime-config and the APIs kube-apiserver needs are not checked: {exc}")
            if note not in self.notes:
                self.notes.append(note)
            return None

    def served(self, with_flags: bool) -> ServedApis:
        """What it serves, with kube-aggregator's and apiextensions-apiserver's own groups (not in
        the evaluation) as their merged resource configs give them."""
        return _served(self.evaluation(with_flags), self.flags.config if with_flags else None)

    def served_with_all_apis(self) -> ServedApis:
        """What it serves with ``--runtime-config=api/all=true`` in place of the given one (the
        gates and the other flags as given)."""
        if self._all is None:
            from kcompat.core.runtime_config import parse_runtime_config

            self._all = _served(self._evaluate(True, [ALL_APIS]), parse_runtime_config([ALL_APIS]))
        return self._all

    def kinds(self, group_version: str) -> tuple[str, ...]:
        """The kinds of a group/version at the emulated version (those not removed by then)."""
        availability = self.evaluation(False)
        if availability is None:
            return ()
        return tuple(dict.fromkeys(e.kind for e in availability.entries
                                   if e.group_version == group_version and e.reason.value != "removed-at-or-before-emulated-version"))


def _served(availability: ApiAvailability | None, config: RuntimeConfig | None) -> ServedApis:
    """The served (group/version, resource) pairs of an evaluation and the delegated servers'
    groups under ``config``; nothing when the release has no API data."""
    from kcompat.core.readiness import served_apis
    from kcompat.core.startup import delegated_served

    if availability is None:
        return served_apis(())
    pairs = [(e.group_version, e.resource) for e in availability.served()]
    return served_apis([*pairs, *delegated_served(config)])


class _Flags(Record):
    """The version, gate and API flags of one start-up, as given."""

    __slots__ = ("config", "emulated", "emulation_forward_compatible", "feature_gates", "min_compat", "runtime_config", "runtime_config_emulation_forward_compatible")
    emulated: str | list[str] | None
    min_compat: str | list[str] | None
    feature_gates: str | list[str] | None
    runtime_config: list[str] | None
    config: RuntimeConfig | None
    emulation_forward_compatible: bool
    runtime_config_emulation_forward_compatible: bool

    def __init__(self, emulated: str | list[str] | None, min_compat: str | list[str] | None, feature_gates: str | list[str] | None, runtime_config: list[str] | None, config: RuntimeConfig | None, emulation_forward_compatible: bool, runtime_config_emulation_forward_compatible: bool) -> None:
        set_field(self, "emulated", emulated)
        set_field(self, "min_compat", min_compat)
        set_field(self, "feature_gates", feature_gates)
        set_field(self, "runtime_config", runtime_config)
        set_field(self, "config", config)
        set_field(self, "emulation_forward_compatible", emulation_forward_compatible)
        set_field(self, "runtime_config_emulation_forward_compatible", runtime_config_emulation_forward_compatible)


def apiserver_startup(catalog: Catalog, evaluation: GateEvaluation, request: Request, apis: ApiAvailability | None = None) -> StartupAnswer:
    """kube-apiserver's start-up with the flags of ``request``, on the gate ``evaluation`` of the
    same flags. ``apis`` is the API evaluation of the same flags when the caller has one (kcompat apis)."""
    from kcompat.core.startup import DEFAULT_OPTIONS, startup_problems

    options = request.options or DEFAULT_OPTIONS
    binary = request.binary
    if binary is None:
        raise KcompatError("kube-apiserver's start-up is checked for a binary version")
    feature_gates = values(request.feature_gates)
    emulation_forward_compatible = request.emulation_forward_compatible
    runtime_config_emulation_forward_compatible = request.runtime_config_emulation_forward_compatible
    selection = evaluation.selection
    states = evaluation.by_name()

    def gate_on(name: str) -> bool:
        state = states.get(name)
        return bool(state is not None and state.enabled)

    rc_values = values(request.runtime_config)
    config = None
    if rc_values:
        from kcompat.core.runtime_config import parse_runtime_config

        config = parse_runtime_config(rc_values)
    flags = _Flags(values(request.emulated), values(request.min_compat), feature_gates, rc_values, config, emulation_forward_compatible,
                   runtime_config_emulation_forward_compatible)
    api = _Apis(catalog, binary, flags, apis)
    checked = apis
    if checked is None and (rc_values or emulation_forward_compatible or runtime_config_emulation_forward_compatible):
        checked = api.evaluation(True)
    problems = startup_problems(
        selection, evaluation.problems, evaluation.flags_applied, gate_on,
        checked.problems if checked is not None else None, config, options,
        api.served(True) if checked is not None and config is not None else None,
    )
    rules = _rules(catalog, selection)
    if not any(p.refuses for p in problems) and rules is not None:
        from kcompat.core.readiness import readiness_problems

        changed = config is not None or bool(feature_gates)
        found = readiness_problems(
            rules, selection.emulated, gate_on, (lambda: api.served(True)) if changed else None, lambda: api.served(False),
            api.kinds, frozenset(options.flags), api.served_with_all_apis,
            lambda stage: tuple(g.name for g in evaluation.gates if g.enabled and g.stage.value == stage and not g.default and not g.locked),
        )
        # after the refusals (there are none), before the warnings; kcompat's own notes after the binary's lines
        problems = (*(p for p in found if p.not_ready), *problems, *(p for p in found if not p.not_ready))
    problems = (*problems, *api.notes)
    hints = _hints(problems, evaluation, config, rules, checked)
    unknown = bool(api.notes)
    if problems and not unknown:  # (no problem: the kinds are not imported, see kcompat.core.problems)
        from kcompat.core.problems import ReadinessNotSearched

        unknown = any(isinstance(p, ReadinessNotSearched) for p in problems)
    return StartupAnswer(problems, hints, rules.recorded if rules is not None else None, checked, readiness_unknown=unknown)


def _rules(catalog: Catalog, selection: VersionSelection) -> ReadinessRules | None:
    from kcompat.data.startup import readiness_rules

    release = selection.rules.release
    return readiness_rules(catalog.data_dir, f"{release.major}.{release.minor}") if release is not None else None


def _hints(problems: tuple[Problem, ...], evaluation: GateEvaluation, config: RuntimeConfig | None, rules: ReadinessRules | None,
           apis: ApiAvailability | None) -> tuple[Remedy, ...]:
    """The remedies of the option refusals, the readiness problems and the API refusals (the gate
    refusals' remedies are the gates answer's)."""
    if not any(p.refuses or p.not_ready for p in problems):
        return ()
    from kcompat.core.remedies.startup import StartupContext, startup_remedies

    context = StartupContext(evaluation.by_name(), evaluation.selection.emulated, config, rules)
    out = list(startup_remedies(problems, context))
    if apis is not None and any(p.refuses for p in apis.problems):
        from kcompat.core.remedies import api_remedies

        shown = {p.message for p in problems}
        out += [r for r in api_remedies(apis) if r.error in shown and r.error not in {h.error for h in out}]
    return tuple(out)
