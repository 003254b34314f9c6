"""What a rollback rehearsal of a release pair must cover (the recorded ones the plan cites: kcompat.answers.plan)."""

from __future__ import annotations

from kcompat.data.catalog import Catalog


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
