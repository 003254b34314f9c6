"""Will kube-apiserver become ready? The rules found by starting the real binary (oracle/
readiness.py), per release, and their evaluation for any selection.

A kube-apiserver that passes every start-up check (:mod:`.startup`) may still never get ready:
a post-start hook gives up and it exits (``F hooks.go] PostStartHook "..." failed``), or
``/readyz`` keeps failing (an informer waits for an API that is not served). Which flags do
that is not read from the code: the oracle started each release with ``AllAlpha``/``AllBeta`` at
every emulated version and narrowed the gates down to the smallest sets that keep it from
getting ready (then the group/versions that fix each set, among those
``--runtime-config=api/all=true`` adds), and turned off each API a default start serves. The
refresh step (kcompat/refresh/startup.py) writes what was found as :class:`ReadinessRules`
(``data/startup/v1.N.json``); :func:`readiness_problems` applies them:

* a **gate rule** holds at the emulated version it was recorded at, when every gate of its set
  is on (after ``--feature-gates``, AllAlpha/AllBeta and the emulated version's defaults): the
  binary does not get ready unless every group/version of ``needs`` is served (after
  ``--runtime-config``); with no ``needs``, no API fixes it;
* an **API rule** (recorded at the binary's own version, the default ``--runtime-config``): the
  group/version, or one resource of it, that a default start needs. It holds at any emulated
  version where a default start serves that API and ``--runtime-config`` turns it off (a
  default start serves nothing it does not need to get ready: the recordings of every emulated
  version got ready).
"""

from __future__ import annotations

from collections.abc import Iterable

from .record import Record, set_field
from .versions import Version, mm

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from .problems import Problem


class StartOutcome(Record):
    """How a recorded start of the real kube-apiserver ended without getting ready (oracle/
    readiness.py): ``exited`` after ``seconds`` with its fatal ``line`` (klog header dropped), or
    ``not-ready`` at the time limit with the ``failing`` /readyz checks; ``recorded`` is the release
    (``v1.34.12``)."""

    __slots__ = ("failing", "line", "recorded", "seconds", "verdict", "waits_for")
    verdict: str
    seconds: int
    recorded: str
    line: str
    failing: tuple[str, ...]
    #: the kinds its informers kept failing to list (``*v1beta1.LeaseCandidate``)
    waits_for: tuple[str, ...]

    def __init__(self, verdict: str, seconds: int, recorded: str, line: str = "", failing: tuple[str, ...] = (), waits_for: tuple[str, ...] = ()) -> None:
        set_field(self, "verdict", verdict)
        set_field(self, "seconds", seconds)
        set_field(self, "recorded", recorded)
        set_field(self, "line", line)
        set_field(self, "failing", failing)
        set_field(self, "waits_for", waits_for)

    def fields(self) -> tuple[str, str, int, str, tuple[str, ...], tuple[str, ...]]:
        """(recorded, ended, seconds, line, failing, waits for): the fields a readiness problem keeps."""
        return (self.recorded, self.verdict, self.seconds, self.line, self.failing, self.waits_for)


class GateRule(Record):
    """Gates that, all on at ``emulated``, keep the binary from getting ready without ``needs``
    (None: no API fixes it; ``fixed_by_all_apis``: api/all=true does but no smaller set was
    confirmed; ``unsearched``: a recorded case of these gates alone, whose fix was not searched
    for). ``evidence``: the recorded runs."""

    __slots__ = ("emulated", "evidence", "fixed_by_all_apis", "gates", "needs", "outcome", "unsearched")
    gates: tuple[str, ...]
    emulated: Version
    needs: tuple[str, ...] | None
    outcome: StartOutcome
    evidence: tuple[str, ...]
    fixed_by_all_apis: bool
    unsearched: bool

    def __init__(self, gates: tuple[str, ...], emulated: Version, needs: tuple[str, ...] | None, outcome: StartOutcome, evidence: tuple[str, ...] = (), fixed_by_all_apis: bool = False, unsearched: bool = False) -> None:
        set_field(self, "gates", gates)
        set_field(self, "emulated", emulated)
        set_field(self, "needs", needs)
        set_field(self, "outcome", outcome)
        set_field(self, "evidence", evidence)
        set_field(self, "fixed_by_all_apis", fixed_by_all_apis)
        set_field(self, "unsearched", unsearched)


class ApiRule(Record):
    """An API a default start needs: ``group_version``, or only its ``resource`` when given."""

    __slots__ = ("evidence", "group_version", "outcome", "resource", "unless")
    group_version: str
    resource: str | None
    outcome: StartOutcome
    evidence: tuple[str, ...]
    #: option flag sets (``(flag, value)`` pairs as ``ApiserverOptions.flags`` writes them) with
    #: which a recorded start got ready with this API off: the rule does not hold with them
    unless: tuple[frozenset[tuple[str, str]], ...]

    def __init__(self, group_version: str, resource: str | None, outcome: StartOutcome, evidence: tuple[str, ...] = (), unless: tuple[frozenset[tuple[str, str]], ...] = ()) -> None:
        set_field(self, "group_version", group_version)
        set_field(self, "resource", resource)
        set_field(self, "outcome", outcome)
        set_field(self, "evidence", evidence)
        set_field(self, "unless", unless)

    def holds_with(self, options: frozenset[tuple[str, str]]) -> bool:
        return not any(flags <= options for flags in self.unless)

    @property
    def api(self) -> str:
        return f"{self.group_version}/{self.resource}" if self.resource else self.group_version


class ReadinessRules(Record):
    """What the recorded starts of one release found (``recorded``: the patch release started)."""

    __slots__ = ("apis", "gates", "probed", "recorded", "release", "unsearched")
    release: Version
    recorded: str
    gates: tuple[GateRule, ...]
    apis: tuple[ApiRule, ...]
    #: the emulated versions the gates were probed at (AllAlpha and AllBeta at each)
    probed: tuple[Version, ...]
    #: (emulated version, stage) where that stage's gates could not be narrowed down (its
    #: meta-gate was refused, and its gates turned on together too)
    unsearched: tuple[tuple[Version, str], ...]

    def __init__(self, release: Version, recorded: str, gates: tuple[GateRule, ...], apis: tuple[ApiRule, ...], probed: tuple[Version, ...] = (), unsearched: tuple[tuple[Version, str], ...] = ()) -> None:
        set_field(self, "release", release)
        set_field(self, "recorded", recorded)
        set_field(self, "gates", gates)
        set_field(self, "apis", apis)
        set_field(self, "probed", probed)
        set_field(self, "unsearched", unsearched)

    def gate_rules_at(self, emulated: Version) -> tuple[GateRule, ...]:
        emu = mm(emulated)
        return tuple(r for r in self.gates if r.emulated == emu)

    def lowest_ready(self, gates: tuple[str, ...]) -> Version | None:
        """The lowest probed emulated version above every one where ``gates`` keep it from getting
        ready, when the set was probed there (None when there is none)."""
        failing = [r.emulated for r in self.gates if r.gates == gates]
        if not failing:
            return None
        above = [v for v in self.probed if v > max(failing)]
        return min(above) if above else None


class ServedApis(Record):
    """What a kube-apiserver serves: group/versions with at least one resource served, and every
    (group/version, resource) served."""

    __slots__ = ("group_versions", "resources")
    group_versions: frozenset[str]
    resources: frozenset[tuple[str, str]]

    def __init__(self, group_versions: frozenset[str], resources: frozenset[tuple[str, str]]) -> None:
        set_field(self, "group_versions", group_versions)
        set_field(self, "resources", resources)

    def serves(self, group_version: str, resource: str | None = None) -> bool:
        if resource is None:
            return group_version in self.group_versions
        return (group_version, resource) in self.resources


def served_apis(entries: Iterable[tuple[str, str]]) -> ServedApis:
    """:class:`ServedApis` of ``(group/version, resource)`` pairs."""
    pairs = frozenset(entries)
    return ServedApis(frozenset(gv for gv, _ in pairs), pairs)


def readiness_problems(
    rules: ReadinessRules,
    emulated: Version,
    gate_on: Callable[[str], bool],
    served: Callable[[], ServedApis] | None,
    default_served: Callable[[], ServedApis] | None,
    kinds: Callable[[str], tuple[str, ...]] | None = None,
    options: frozenset[tuple[str, str]] = frozenset(),
    all_served: Callable[[], ServedApis] | None = None,
    meta_gates_on: Callable[[str], tuple[str, ...]] | None = None,
) -> list[Problem]:
    """The readiness problems of a selection the binary starts with (see the module docstring).

    ``served`` gives what the selection serves (its --runtime-config and gates applied) and
    ``default_served`` what a default start at the same emulated version serves; None when no
    --runtime-config (nor gate) changes what is served: the API rules then cannot hold, and a
    gate rule's needs are looked up in ``default_served`` when given. Both are called only when
    a rule needs them. ``kinds`` names the kinds of a group/version (for the message);
    ``options`` the option flags given (an API rule does not hold with those of its ``unless``);
    ``all_served`` what the selection would serve with ``--runtime-config=api/all=true`` instead: a
    gate rule that api/all=true fixes does not hold when the selection serves all of that.
    ``meta_gates_on`` names the gates on at the selection that the meta-gate of a stage ("Alpha",
    "Beta") would turn on: where the recording could not search that stage, they get a note
    that their readiness is not known (unless a rule names them)."""
    out: list[Problem] = []
    out += _not_searched(rules, emulated, meta_gates_on)
    for rule in rules.gate_rules_at(emulated):
        if not all(gate_on(g) for g in rule.gates):
            continue
        if rule.needs is None:
            if rule.fixed_by_all_apis and served is not None and all_served is not None:
                every = all_served().resources
                if every and every <= served().resources:
                    continue  # every API the recorded fix turned on is served (known: the release has API data)
            # (the problem kinds are imported only when there is one to report)
            from .problems import GatesNotReady

            out.append(GatesNotReady(rule.gates, mm(emulated), (), (), *rule.outcome.fields(), fixed_by_all_apis=rule.fixed_by_all_apis,
                                     unsearched=rule.unsearched))
            continue
        apis = served() if served is not None else default_served() if default_served is not None else None
        missing = tuple(gv for gv in rule.needs if apis is None or not apis.serves(gv))
        if missing:
            from .problems import GatesNotReady

            named = tuple(k for gv in missing for k in (kinds(gv) if kinds is not None else ()))
            out.append(GatesNotReady(rule.gates, mm(emulated), missing, named, *rule.outcome.fields()))
    if rules.apis and served is not None and default_served is not None:
        now, default = served(), default_served()
        for api in rules.apis:
            if (default.serves(api.group_version, api.resource) and not now.serves(api.group_version, api.resource)
                    and api.holds_with(options)):
                from .problems import ApiOffNotReady

                out.append(ApiOffNotReady(api.group_version, api.resource, *api.outcome.fields()))
    return out


def _not_searched(rules: ReadinessRules, emulated: Version, meta_gates_on: Callable[[str], tuple[str, ...]] | None) -> list[Problem]:
    """The notes of :func:`readiness_problems` for the stages the recording could not search."""
    emu = mm(emulated)
    stages = [stage for at, stage in rules.unsearched if at == emu]
    if not stages or meta_gates_on is None:
        return []
    named = {g for rule in rules.gate_rules_at(emulated) for g in rule.gates}
    out: list[Problem] = []
    for stage in stages:
        gates = tuple(g for g in meta_gates_on(stage) if g not in named)
        if gates:
            from .problems import ReadinessNotSearched

            out.append(ReadinessNotSearched(gates, emu, stage, rules.recorded))
    return out


def rules_from_document(document: Mapping[str, object]) -> ReadinessRules:
    """The rules of a ``data/startup/v1.N.json`` document (:mod:`kcompat.refresh.startup` writes it)."""
    from .versions import parse_version

    def outcome(raw: Mapping[str, object]) -> StartOutcome:
        return StartOutcome(str(raw["verdict"]), int(raw["seconds"]), str(document["recorded"]),  # type: ignore[call-overload]
                            str(raw.get("line") or ""), tuple(raw.get("failing") or ()), tuple(raw.get("waitsFor") or ()))  # type: ignore[arg-type]

    gates = tuple(
        GateRule(tuple(g["gates"]), parse_version(g["emulated"]), tuple(g["needs"]) if g.get("needs") is not None else None,
                 outcome(g["outcome"]), tuple(g.get("evidence") or ()), bool(g.get("fixedByAllApis")), bool(g.get("unsearched")))
        for g in document.get("gates") or ()  # type: ignore[attr-defined]
    )
    apis = tuple(
        ApiRule(a["groupVersion"], a.get("resource"), outcome(a["outcome"]), tuple(a.get("evidence") or ()),
                tuple(frozenset((str(n), str(v)) for n, v in flags) for flags in a.get("unless") or ()))
        for a in document.get("apis") or ()  # type: ignore[attr-defined]
    )
    probed = tuple(parse_version(v) for v in document.get("probed") or ())  # type: ignore[attr-defined]
    unsearched = tuple((mm(parse_version(str(u["emulated"]))), str(u["stage"])) for u in document.get("unsearched") or ())  # type: ignore[attr-defined]
    return ReadinessRules(parse_version(str(document["release"])), str(document["recorded"]), gates, apis, probed, unsearched)
