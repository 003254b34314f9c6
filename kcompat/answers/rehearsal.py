"""The rollback rehearsal of a release pair: what it must cover (the recorded ones the plan cites:
kcompat.answers.plan), and the rehearsal itself on binaries a user provides (``kcompat rehearse``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcompat.core.request import Request
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kcompat.core.rehearsal import Judgement


def storage_changing(catalog: Catalog, from_minor: str, to_minor: str) -> tuple[str, ...]:
    """The group/kinds whose storage version changes anywhere on the plan from ``from_minor`` to
    ``to_minor`` (both bundled): what a rehearsal of the pair must write. Empty when either
    release has no bundled data (a user's binaries of a release kcompat does not know)."""
    from kcompat.answers.plan import PlanQuery, plan_for
    from kcompat.core.errors import KcompatError

    try:
        plan = plan_for(catalog, PlanQuery(from_minor, to_minor))
    except KcompatError:
        return ()
    return tuple(sorted({c.group_kind for s in plan.steps for c in s.storage_changes if c.before != "-"}))


@dataclass(frozen=True)
class RehearsalQuery:
    """What ``kcompat rehearse`` asks beside the flags (the request's ``--feature-gates`` and
    ``--runtime-config``, given to every kube-apiserver): the pair (``start`` as ``B[@E]``,
    ``target`` as ``B``), where the binaries are (a folder, or each one), and the time limit."""

    start: str
    target: str
    binaries: Path | None = None
    from_apiserver: Path | None = None
    to_apiserver: Path | None = None
    etcd: Path | None = None
    time_limit: float = 1800.0


@dataclass(frozen=True)
class RehearsalAnswer:
    """The recording (each phase, each object: read, decoded, updated, the exact error) and its
    judgement (:func:`kcompat.core.rehearsal.judge`)."""

    recording: dict[str, Any]
    judgement: Judgement


def rehearse_binaries(catalog: Catalog, request: Request, query: RehearsalQuery,
                      progress: Callable[[str], None] = lambda _: None) -> RehearsalAnswer:
    """The rehearsal of ``query``'s pair on the binaries it names (found with
    :func:`kcompat.data.rehearsal_run.find_binaries`), with ``request``'s flags, run by
    :func:`kcompat.data.rehearsal_run.rehearse`. Raises :class:`KcompatError` for a pair that is
    not one minor apart, missing binaries, a bad time limit, or a first server that never started."""
    from kcompat.core.errors import KcompatError
    from kcompat.core.plan import minors_between, parse_plan_endpoint
    from kcompat.core.rehearsal import judge
    from kcompat.data.rehearsal_run import find_binaries, rehearse

    binary, emulated = parse_plan_endpoint(query.start)
    target, target_emulated = parse_plan_endpoint(query.target)
    if target_emulated is not None:
        raise KcompatError("--to takes a binary release only (the rehearsal's new binary emulates --from's version, then its own)")
    if minors_between(binary, target) != 1:
        raise KcompatError(f"--from {binary} and --to {target} are not adjacent minors: a rollback is rehearsed one minor at a time")
    if emulated is not None and emulated >= binary:
        emulated = None
    if not (query.time_limit > 0):
        raise KcompatError(f"--time-limit must be a positive number of seconds, not {query.time_limit}")
    if query.binaries is None and None in (query.from_apiserver, query.to_apiserver, query.etcd):
        raise KcompatError("give --binaries DIR, or all of --from-apiserver, --to-apiserver and --etcd")
    found = find_binaries(query.binaries, str(binary), str(target), from_apiserver=query.from_apiserver,
                          to_apiserver=query.to_apiserver, etcd=query.etcd)
    flags = [f"--feature-gates={','.join(request.feature_gates)}"] if request.feature_gates else []
    flags += [f"--runtime-config={','.join(request.runtime_config)}"] if request.runtime_config else []
    recording = rehearse(found, str(binary), str(target), from_emulated=str(emulated) if emulated else None, flags=flags,
                         required=storage_changing(catalog, str(binary), str(target)), time_limit=query.time_limit, progress=progress)
    first = (recording.get("phases") or [{}])[0]
    if not first.get("started"):
        raise KcompatError(f"kube-apiserver {recording.get('from')} did not start: {first.get('error')}")
    return RehearsalAnswer(recording, judge(recording))
