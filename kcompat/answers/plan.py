"""The upgrade plan, asked the same way by ``kcompat plan`` and the Upgrade plan page (serialised
by :mod:`kcompat.documents.plan`)."""

from __future__ import annotations

from kcompat.answers.queries import bundled_release, gate_lineage
from kcompat.core.errors import KcompatError
from kcompat.core.plan import UpgradePlan, parse_plan_endpoint, plan_upgrade
from kcompat.data.catalog import Catalog


def plan_for(catalog: Catalog, start: str, target: str, allow_jumps: bool = False) -> UpgradePlan:
    """``kcompat plan --from <start> --to <target>``: endpoints parsed, both checked against the
    bundled releases, then planned."""
    binary, emulated = parse_plan_endpoint(start)
    target_binary, target_emulated = parse_plan_endpoint(target)
    if target_emulated is not None:
        raise KcompatError("--to takes a binary release only; the plan ends emulating the target's own version")
    bundled_release(catalog, binary, "the current binary")
    bundled_release(catalog, target_binary, "the target binary")
    return plan_upgrade(
        binary, emulated, target_binary, catalog.manifest, catalog.api_data,
        allow_jumps=allow_jumps, lineage=gate_lineage(catalog),
    )
