"""The ``kcompat plan`` document (JSON and Markdown), shown by the Upgrade plan page as well.

:func:`kcompat.answers.plan.plan_for` refuses, before any planning, a start or target without bundled data (e.g.
``--to 2.0``): every binary of the path needs its release's gates, APIs and storage data.

JSON::

    {"from": {"binary", "emulated", "minCompatibility"}, "to", "allowJumps", "supported", "notes",
     "steps": [{"number", "kind", "title", "supported", "why", "after": {...}, "order",
                "rollback": {"to": {...}, "supported", "text", "rehearsal", "rehearsalHeld"},
                "gateChanges": [{"name", "before", "after", "beforeOn", "afterOn"}],
                "apiChanges": [{"api", "servedAfter"}], "storageChanges": [{"resource", "before", "after"}],
                "skewChecks": [{"component", "binary", "version", "allowed", "ok", "classicAllowed", "classicOk"}]}]}
"""

from __future__ import annotations

from kcompat.core.plan import Point, UpgradePlan

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any

    from kcompat.answers.plan import StepStartup


def startup_line(startup: StepStartup) -> list[str]:
    """kube-apiserver's start-up at a point of the plan, as Markdown lines (a verdict, the reasons, the fixes)."""
    from kcompat.core.errors import shown
    from kcompat.documents.formats import md_escape

    head = f"kube-apiserver {startup.binary} emulating {startup.emulated} with these flags"
    # the first 20 of each, then "… and N more"; they echo the flags given: shown, never styled
    if startup.verdict == "refuses":
        return [f"**REFUSES TO START**: {head} exits at start-up:", *[f"- error: {md_escape(e)}" for e in shown(startup.errors)],
                *[f"- fix: {md_escape(h)}" for h in shown(startup.hints)]]
    if startup.verdict == "not-ready":
        return [f"**STARTS BUT DOES NOT BECOME READY**: {head}:", *[f"- not ready: {md_escape(e)}" for e in shown(startup.not_ready)],
                *[f"- fix: {md_escape(h)}" for h in shown(startup.hints)]]
    return [f"Start-up: {head} starts and becomes ready."]


def plan_markdown(plan: UpgradePlan, limit: int = 40, startups: tuple[StepStartup, ...] = ()) -> str:
    """The plan as a Markdown document (what the page exports); ``startups`` (kcompat.answers.plan.plan_startups)
    flag the points kube-apiserver would refuse or not become ready at with the flags kept through the upgrade."""
    by_step = {s.number: s for s in startups}
    lines = [
        f"# Upgrade plan: {plan.start.binary} (emulating {plan.start.emulated}) -> {plan.target}",
        "",
        *[f"> {n}" for n in plan.notes],
        *(["", *startup_line(by_step[0])] if 0 in by_step and by_step[0].verdict != "starts" else []),
    ]
    for step in plan.steps:
        lines += [
            "",
            f"## Step {step.number}: {step.title}",
            "",
            f"{'Supported' if step.supported else 'NOT SUPPORTED'}: {step.why}",
            "",
            *([*startup_line(by_step[step.number]), ""] if step.number in by_step else []),
            f"Flags after this step: binary {step.after.binary}, {step.after.flags()}, min compatibility {step.after.min_compat}",
            "",
            "Order:",
            *[f"{i}. {o}" for i, o in enumerate(step.order, 1)],
            "",
            *([f"Rollback: {step.rollback.text}", "", f"Rehearsal: {step.rollback.rehearsal}", ""] if step.rollback is not None else []),
            f"Feature gates that change ({len(step.gate_changes)}):",
            *[f"- {c.name}: {c.before} -> {c.after}" for c in step.gate_changes[:limit]],
            *([f"- ... and {len(step.gate_changes) - limit} more"] if len(step.gate_changes) > limit else []),
            "",
            f"APIs that change ({len(step.api_changes)}):",
            *[f"- {'now served' if c.served_after else 'no longer served'}: {c.group_version_kind}" for c in step.api_changes[:limit]],
            *([f"- ... and {len(step.api_changes) - limit} more"] if len(step.api_changes) > limit else []),
            "",
            f"Storage versions that change, of the resources served after this step ({len(step.storage_changes)}; - = not served before):",
            *[f"- {c.group_kind}: {c.before} -> {c.after}" for c in step.storage_changes],
            "",
            "Skew checks during this step:",
            *[
                f"- {c.component} at {c.version} (binary {c.binary}): allowed {c.allowed} by emulation "
                f"({'ok' if c.ok else 'OUT OF RANGE'}), {c.classic_allowed} by the Version Skew Policy "
                f"({'ok' if c.classic_ok else 'OUT OF RANGE'})"
                for c in step.skew_checks
            ],
        ]
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"


def _point_document(p: Point) -> dict[str, Any]:
    return {"binary": str(p.binary), "emulated": str(p.emulated), "minCompatibility": str(p.min_compat)}


def _startup_document(startup: StepStartup | None) -> dict[str, Any] | None:
    if startup is None:
        return None
    from kcompat.documents.formats import bound_lists

    return bound_lists(
        {"verdict": startup.verdict, "errors": list(startup.errors), "notReady": list(startup.not_ready), "hints": list(startup.hints)}
    )


def plan_document(plan: UpgradePlan, startups: tuple[StepStartup, ...] = ()) -> dict[str, Any]:
    """The JSON contract of ``kcompat plan --format json``; with ``startups``, ``startup`` (where it
    starts) and each control-plane step's ``startup``: kube-apiserver's verdict with the flags kept
    through the upgrade ({"verdict", "errors", "notReady", "hints"}, each the first 20 then
    ``<key>Omitted``; null for a kubelet step)."""
    by_step = {s.number: s for s in startups}
    return {
        "from": _point_document(plan.start),
        "to": str(plan.target),
        "allowJumps": plan.allow_jumps,
        "supported": plan.supported,
        "startup": _startup_document(by_step.get(0)),
        "notes": list(plan.notes),
        "steps": [
            {
                "number": s.number,
                "kind": s.kind,
                "title": s.title,
                "supported": s.supported,
                "why": s.why,
                "after": _point_document(s.after),
                "order": list(s.order),
                "rollback": (
                    {"to": _point_document(s.rollback.to), "supported": s.rollback.supported, "text": s.rollback.text,
                     "rehearsal": s.rollback.rehearsal, "rehearsalHeld": s.rollback.rehearsal_held}
                    if s.rollback is not None else None
                ),
                "gateChanges": [
                    {"name": c.name, "before": c.before, "after": c.after, "beforeOn": c.before_on, "afterOn": c.after_on}
                    for c in s.gate_changes
                ],
                "apiChanges": [{"api": c.group_version_kind, "servedAfter": c.served_after} for c in s.api_changes],
                "storageChanges": [{"resource": c.group_kind, "before": c.before, "after": c.after} for c in s.storage_changes],
                "skewChecks": [
                    {"component": c.component, "binary": c.binary, "version": c.version, "allowed": c.allowed, "ok": c.ok,
                     "classicAllowed": c.classic_allowed, "classicOk": c.classic_ok}
                    for c in s.skew_checks
                ],
                "startup": _startup_document(by_step.get(s.number)),
            }
            for s in plan.steps
        ],
    }
