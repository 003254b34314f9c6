"""Upgrade planning with emulation (KEP-4330 "Motivation" and user stories).

From (binary B1, emulated E1) to binary B2: upgrade the binaries while holding the emulated
version (skipping binary releases where the held version stays in the new binary's allowed
range), then raise the emulated version one minor at a time until it equals B2. Where the held
version would fall below a binary's floor, emulation is raised first. Every step lists what
changes (gates, APIs, storage versions), the order components take it in, and skew checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .apis import evaluate_api_availability
from .compat import rules_for, select_versions
from .errors import KcompatError, repr_cut
from .gates import GateState, evaluate_gates
from .manifest import Manifest
from .stages import Stage
from .skew import CONTROLLER_MANAGER, KUBE_APISERVER, KUBELET, skew_policy
from .storage import storage_versions
from .versions import Version, major_minor, mm, parse_version

BINARY_ORDER = (
    "kube-apiserver (every instance, one at a time)",
    "kube-controller-manager, kube-scheduler, cloud-controller-manager",
    "kubelet and kube-proxy (optional in this step; they may stay up to 3 minors behind)",
)
NODE_ORDER = ("kubelet and kube-proxy, node by node (drain, upgrade, uncordon)",)
EMULATION_ORDER = (
    "kube-apiserver (every instance) with the new --emulated-version",
    "kube-controller-manager, kube-scheduler with the same --emulated-version",
)


@dataclass(frozen=True)
class Point:
    """Where the control plane stands: binary release, emulated and min compatibility versions."""

    binary: Version
    emulated: Version
    min_compat: Version

    def flags(self) -> str:
        text = f"--emulated-version={self.emulated}" if self.emulated != self.binary else "(no --emulated-version)"
        return text


@dataclass(frozen=True)
class GateChange:
    name: str
    before: str  # e.g. "Beta on", "absent"
    after: str


@dataclass(frozen=True)
class ApiChange:
    group_version_kind: str
    served_after: bool


@dataclass(frozen=True)
class StorageChange:
    group_kind: str
    before: str
    after: str


@dataclass(frozen=True)
class SkewCheck:
    """A component version against the apiserver after the step. ``ok`` is the KEP's rule (skew
    measured against the emulated and min compatibility versions); ``classic_ok`` the binary-based policy."""

    component: str
    version: str
    allowed: str
    ok: bool
    classic_allowed: str = ""
    classic_ok: bool = True


@dataclass(frozen=True)
class PlanStep:
    number: int
    kind: str  # "binary", "emulation" or "nodes"
    title: str
    before: Point
    after: Point
    order: tuple[str, ...]
    gate_changes: tuple[GateChange, ...]
    api_changes: tuple[ApiChange, ...]
    storage_changes: tuple[StorageChange, ...]
    skew_checks: tuple[SkewCheck, ...]
    errors: tuple[str, ...] = ()

    @property
    def gates_turned_on(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.gate_changes if c.after.endswith(" on") and not c.before.endswith(" on"))

    @property
    def gates_turned_off(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.gate_changes if c.before.endswith(" on") and not c.after.endswith(" on"))


@dataclass(frozen=True)
class UpgradePlan:
    start: Point
    target: Version
    steps: tuple[PlanStep, ...]
    notes: tuple[str, ...] = ()


def parse_plan_endpoint(text: str) -> tuple[Version, Version | None]:
    """``B`` or ``B@E`` as ``kcompat plan --from`` takes it."""
    binary_text, _, emulated_text = text.partition("@")
    try:
        binary = mm(parse_version(binary_text))
        emulated = mm(parse_version(emulated_text)) if emulated_text else None
    except KcompatError as exc:
        raise KcompatError(f"invalid plan endpoint {repr_cut(text)} (expected B or B@E, e.g. 1.33@1.32): {exc}") from None
    return binary, emulated


def _next_minor(v: Version) -> Version:
    return major_minor(v.major, v.minor + 1)


def _point(binary: Version, emulated: Version) -> Point:
    sel = select_versions(binary, str(emulated))
    if not sel.valid:
        raise KcompatError(f"binary {binary} cannot emulate {emulated}: {'; '.join(sel.errors)}")
    return Point(binary, sel.emulated, sel.min_compat)


def _path(start: Point, target: Version) -> list[tuple[str, Point]]:
    steps: list[tuple[str, Point]] = []
    b, e = start.binary, start.emulated
    while b < target:
        reachable = []
        v = _next_minor(b)
        while v <= target:
            low, high = rules_for(v).emulation_range()
            if low <= e <= high:
                reachable.append(v)
            v = _next_minor(v)
        if reachable:
            b = reachable[-1]
            steps.append(("binary", _point(b, e)))
        elif e < b:
            e = _next_minor(e)
            steps.append(("emulation", _point(b, e)))
        else:  # pragma: no cover - every binary from 1.32 accepts binary-1
            raise KcompatError(f"no allowed step from binary {b} at {e} towards {target}")
    while e < target:
        e = _next_minor(e)
        steps.append(("emulation", _point(b, e)))
    return steps


def _gate_label(g: GateState | None) -> str:
    # a PreAlpha gate cannot be used at this version: for the plan it is as absent as a missing one
    if g is None or g.stage is Stage.PRE_ALPHA:
        return "absent"
    return f"{g.stage.value}{' locked' if g.locked else ''} {'on' if g.enabled else 'off'}"


def _gate_changes(before: dict[str, GateState], after: dict[str, GateState]) -> tuple[GateChange, ...]:
    out = []
    for name in sorted(set(before) | set(after)):
        a, b = _gate_label(before.get(name)), _gate_label(after.get(name))
        if a != b:
            out.append(GateChange(name, a, b))
    return tuple(out)


def _skew_checks(after: Point, components: dict[str, Version]) -> tuple[SkewCheck, ...]:
    policy = skew_policy(after.binary, after.emulated, after.min_compat)
    checks = []
    for component, version in components.items():
        allowed = policy.emulation_aware_for(component)
        classic = policy.classic_for(component)
        checks.append(SkewCheck(component, str(version), str(allowed), allowed.allows(version), str(classic), classic.allows(version)))
    return tuple(checks)


def plan_upgrade(
    start_binary: Version,
    start_emulated: Version | None,
    target_binary: Version,
    manifest_for: Callable[[str], Manifest],
    data_dir: Path | str | None = None,
) -> UpgradePlan:
    """The stepwise path and what each step changes. ``manifest_for(release)`` gives a release's gates."""
    start_binary, target_binary = mm(start_binary), mm(target_binary)
    if target_binary < start_binary:
        raise KcompatError(f"the target binary {target_binary} is older than the current binary {start_binary}")
    start = _point(start_binary, start_emulated or start_binary)
    notes = []
    if start.emulated < start.binary:
        notes.append(f"The control plane already emulates {start.emulated} on {start.binary} binaries.")

    def gates_at(p: Point) -> dict[str, GateState]:
        release = f"{p.binary.major}.{p.binary.minor}"
        ev = evaluate_gates(manifest_for(release), select_versions(p.binary, str(p.emulated)))
        return ev.by_name()

    def apis_at(p: Point) -> set[str]:
        av = evaluate_api_availability(p.binary, p.emulated, data_dir=data_dir)
        return {f"{e.group_version}/{e.kind}" for e in av.served()}

    def storage_at(p: Point) -> dict[str, str]:
        sv = storage_versions(p.binary, p.emulated, p.min_compat, data_dir=data_dir)
        return {f"{c.group or 'core'}/{c.kind}": c.group_version for c in sv.choices}

    steps = []
    prev = start
    prev_gates, prev_apis, prev_storage = gates_at(start), apis_at(start), storage_at(start)
    # kubelets are upgraded last; until then they are assumed at the start's emulated version
    nodes = start.emulated
    notes.append(
        f"Skew checks assume kubelets at {nodes} (the starting emulated version); the plan upgrades them only when a "
        "control-plane step would leave them out of range, and once more at the end if needed."
    )
    for kind, point in _path(start, target_binary):
        gates, apis, storage = gates_at(point), apis_at(point), storage_at(point)
        if kind == "binary":
            title = f"Upgrade the control-plane binaries {prev.binary} -> {point.binary}, keep --emulated-version={point.emulated}"
            order = BINARY_ORDER
            # while the apiservers roll, the others still run the old binary at the held emulated version
            components = {KUBE_APISERVER: prev.emulated, CONTROLLER_MANAGER: prev.emulated, KUBELET: nodes}
        else:
            title = f"Raise --emulated-version {prev.emulated} -> {point.emulated} on {point.binary} binaries"
            order = EMULATION_ORDER
            components = {KUBE_APISERVER: prev.emulated, CONTROLLER_MANAGER: prev.emulated, KUBELET: nodes}
        checks = _skew_checks(point, components)
        if any(c.component == KUBELET and not c.ok for c in checks) and nodes < prev.emulated:
            # the step would leave kubelets too far behind: upgrade them first, to what the control plane serves now
            steps.append(
                PlanStep(
                    len(steps) + 1, "nodes",
                    f"Upgrade kubelet and kube-proxy {nodes} -> {prev.emulated} (not newer than the emulated version)",
                    prev, prev, NODE_ORDER, (), (), (),
                    _skew_checks(prev, {KUBELET: prev.emulated}),
                )
            )
            nodes = prev.emulated
            components[KUBELET] = nodes
            checks = _skew_checks(point, components)
        api_changes = tuple(ApiChange(k, True) for k in sorted(apis - prev_apis)) + tuple(
            ApiChange(k, False) for k in sorted(prev_apis - apis)
        )
        storage_changes = tuple(
            StorageChange(k, prev_storage.get(k, "-"), storage.get(k, "-"))
            for k in sorted(set(prev_storage) | set(storage))
            if prev_storage.get(k) != storage.get(k)
        )
        steps.append(
            PlanStep(
                len(steps) + 1, kind, title, prev, point, order,
                _gate_changes(prev_gates, gates), api_changes, storage_changes, checks,
            )
        )
        prev, prev_gates, prev_apis, prev_storage = point, gates, apis, storage
    if steps and nodes < prev.emulated:
        steps.append(
            PlanStep(
                len(steps) + 1, "nodes", f"Upgrade kubelet and kube-proxy {nodes} -> {prev.emulated}",
                prev, prev, NODE_ORDER, (), (), (), _skew_checks(prev, {KUBELET: prev.emulated}),
            )
        )
    if not steps:
        notes.append("Nothing to do: the control plane already runs the target binary at its own version.")
    return UpgradePlan(start, target_binary, tuple(steps), tuple(notes))


def plan_markdown(plan: UpgradePlan, limit: int = 40) -> str:
    """The plan as a Markdown document (what the page exports)."""
    lines = [
        f"# Upgrade plan: {plan.start.binary} (emulating {plan.start.emulated}) -> {plan.target}",
        "",
        *[f"> {n}" for n in plan.notes],
    ]
    for step in plan.steps:
        lines += [
            "",
            f"## Step {step.number}: {step.title}",
            "",
            f"Flags after this step: binary {step.after.binary}, {step.after.flags()}, min compatibility {step.after.min_compat}",
            "",
            "Order:",
            *[f"{i}. {o}" for i, o in enumerate(step.order, 1)],
            "",
            f"Feature gates that change ({len(step.gate_changes)}):",
            *[f"- {c.name}: {c.before} -> {c.after}" for c in step.gate_changes[:limit]],
            *([f"- ... and {len(step.gate_changes) - limit} more"] if len(step.gate_changes) > limit else []),
            "",
            f"APIs that change ({len(step.api_changes)}):",
            *[f"- {'now served' if c.served_after else 'no longer served'}: {c.group_version_kind}" for c in step.api_changes[:limit]],
            *([f"- ... and {len(step.api_changes) - limit} more"] if len(step.api_changes) > limit else []),
            "",
            f"Storage versions that change ({len(step.storage_changes)}):",
            *[f"- {c.group_kind}: {c.before} -> {c.after}" for c in step.storage_changes],
            "",
            "Skew checks during this step:",
            *[
                f"- {c.component} at {c.version}: allowed {c.allowed} by emulation ({'ok' if c.ok else 'OUT OF RANGE'}), "
                f"{c.classic_allowed} by the classic policy ({'ok' if c.classic_ok else 'out of range'})"
                for c in step.skew_checks
            ],
        ]
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"


def _point_document(p: Point) -> dict:
    return {"binary": str(p.binary), "emulated": str(p.emulated), "minCompatibility": str(p.min_compat)}


def plan_document(plan: UpgradePlan) -> dict:
    """The plan as plain JSON-ready data."""
    return {
        "from": _point_document(plan.start),
        "to": str(plan.target),
        "notes": list(plan.notes),
        "steps": [
            {
                "number": s.number,
                "kind": s.kind,
                "title": s.title,
                "after": _point_document(s.after),
                "order": list(s.order),
                "gateChanges": [{"name": c.name, "before": c.before, "after": c.after} for c in s.gate_changes],
                "apiChanges": [{"api": c.group_version_kind, "servedAfter": c.served_after} for c in s.api_changes],
                "storageChanges": [{"resource": c.group_kind, "before": c.before, "after": c.after} for c in s.storage_changes],
                "skewChecks": [
                    {"component": c.component, "version": c.version, "allowed": c.allowed, "ok": c.ok,
                     "classicAllowed": c.classic_allowed, "classicOk": c.classic_ok}
                    for c in s.skew_checks
                ],
            }
            for s in plan.steps
        ],
    }
