"""The upgrade plan, asked the same way by ``kcompat plan`` and the Upgrade plan page (serialised
by :mod:`kcompat.documents.plan`)."""

from __future__ import annotations

from dataclasses import dataclass

from kcompat.answers.queries import bundled_release, gate_lineage
from kcompat.core.errors import KcompatError
from kcompat.core.plan import Point, UpgradePlan, parse_plan_endpoint, plan_upgrade
from kcompat.core.request import Request, values
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Mapping

    from kcompat.core.rehearsal import Judgement


@dataclass(frozen=True, slots=True)
class PlanQuery:
    """``kcompat plan --from <start> --to <target>``: where the plan starts (``1.35`` or
    ``1.35@1.34``), the target binary release, and whether it may skip a minor."""

    start: str
    target: str
    allow_jumps: bool = False


def plan_for(catalog: Catalog, query: PlanQuery, request: Request | None = None) -> UpgradePlan:
    """The plan of ``query``: endpoints parsed, both checked against the bundled releases, then
    planned (the gates of each point with the request's ``--feature-gates``, the flag the control
    plane keeps through the upgrade; its binary and versions are the plan's own)."""
    binary, emulated = parse_plan_endpoint(query.start)
    target_binary, target_emulated = parse_plan_endpoint(query.target)
    if target_emulated is not None:
        raise KcompatError("--to takes a binary release only; the plan ends emulating the target's own version")
    bundled_release(catalog, binary, "the current binary")
    bundled_release(catalog, target_binary, "the target binary")
    from kcompat.core.plan import cite_rehearsals

    plan = plan_upgrade(
        binary, emulated, target_binary, catalog.manifest, catalog.api_data,
        allow_jumps=query.allow_jumps, lineage=gate_lineage(catalog), feature_gates=values(request.feature_gates) if request else None,
    )
    return cite_rehearsals(plan, recorded_judgements(catalog))


def recorded_judgements(catalog: Catalog) -> Mapping[tuple[str, str], Judgement]:
    """(from minor, to minor) -> the judgement of the pair's recorded rollback rehearsal (data/rehearsals/)."""
    from kcompat.core.rehearsal import judge
    from kcompat.data.rehearsals import rehearsals

    return {key: judge(doc) for key, doc in rehearsals(catalog.data_dir).items()}


@dataclass(frozen=True)
class StepStartup:
    """kube-apiserver's start-up at one point of a plan with the flags kept through it: step
    ``number`` (0: where the plan starts), its verdict ("starts", "refuses", "not-ready"), the
    binary's refusals, why it would not become ready, and the remedies (lines)."""

    number: int
    binary: str
    emulated: str
    verdict: str
    errors: tuple[str, ...] = ()
    not_ready: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()


def plan_startups(catalog: Catalog, plan: UpgradePlan, request: Request) -> tuple[StepStartup, ...]:
    """kube-apiserver's start-up at the start of ``plan`` and after each control-plane step, with
    the request's ``--feature-gates``, ``--runtime-config`` and options throughout (its binary and
    versions are each point's; its other flags are not read): a step it would
    refuse, or start but never get ready with, is flagged (kcompat.answers.startup)."""
    from kcompat.answers.gates import gate_evaluation
    from kcompat.answers.startup import apiserver_startup

    seen: dict[tuple[str, str], StepStartup] = {}

    def at(number: int, point: Point) -> StepStartup:
        key = (str(point.binary), str(point.emulated))
        if key not in seen:
            binary, emulated = key
            at_point = Request(binary, (emulated,), None, request.feature_gates, request.runtime_config, options=request.options)
            startup = apiserver_startup(catalog, gate_evaluation(catalog, at_point), at_point)
            seen[key] = StepStartup(number, binary, emulated, startup.verdict, startup.errors, startup.not_ready,
                                    tuple(h.line for h in startup.hints))
        found = seen[key]
        return found if found.number == number else StepStartup(number, *key, found.verdict, found.errors, found.not_ready, found.hints)

    return (at(0, plan.start), *(at(step.number, step.after) for step in plan.steps if step.kind != "nodes"))


@dataclass(frozen=True)
class PlanReport:
    """What ``kcompat plan`` and the Upgrade plan page show: the plan and kube-apiserver's start-up
    at its start and after each control-plane step."""

    plan: UpgradePlan
    startups: tuple[StepStartup, ...]


def plan_report(catalog: Catalog, query: PlanQuery, request: Request | None = None) -> PlanReport:
    """:func:`plan_for` and :func:`plan_startups` with the flags of ``request`` (none: no flag)."""
    request = request or Request()
    plan = plan_for(catalog, query, request)
    return PlanReport(plan, plan_startups(catalog, plan, request))
