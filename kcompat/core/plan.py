"""Upgrade planning with emulation (KEP-4330 "Motivation" and user stories).

From (binary B1, emulated E1) to binary B2: upgrade the binaries one minor at a time while
holding the emulated version, then raise the emulated version one minor at a time until it
equals B2. One minor per binary step is what the Version Skew Policy supports
(kubernetes.io/releases/version-skew-policy: "kube-apiserver instances ... must be within one
minor version"; "Upgrading from 1.x to 1.x+2 is not supported" in the upgrade docs): during a
rolling upgrade the old and new apiservers serve side by side. Where the held version would fall
below the next binary's floor (SPEC §2.4), emulation is raised first. A multi-minor binary jump is
planned only when asked for (``allow_jumps``), and every such step says it is unsupported and why.

Every step lists what changes (gates, APIs, storage versions), the order components take it in,
skew checks under both policies, and how to roll it back: KEP-4330 "Rollback" — the control plane
keeps compatibility with its min compatibility version, so lowering ``--emulated-version`` (or
reinstalling the previous binaries, which emulate the same version) is safe while the target
emulated version is at or above the min compatibility version in force.

A gate the new binary no longer registers is described by its last spec
(:mod:`kcompat.core.removals`): "removed in 1.33, always on" is not a gate turning off.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .apis import evaluate_api_availability, gate_resolver
from .apis_data import ApiData
from .compat import rules_for, select_versions
from .errors import KcompatError, repr_cut
from .gates import evaluate_gates
from .manifest import GateState, Manifest
from .rehearsal import Judgement
from .removals import GateLineage
from .skew import CONTROLLER_MANAGER, KUBE_APISERVER, KUBELET, skew_policy
from .stages import Stage
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
    before: str  # e.g. "Beta on", "absent", "removed in 1.33, always on"
    after: str
    #: whether the feature is on before and after the step (a removed gate: its last spec's default)
    before_on: bool = False
    after_on: bool = False


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
    #: the component's binary release during the step (what the classic policy measures)
    binary: str = ""

    @property
    def both_ok(self) -> bool:
        return self.ok and self.classic_ok


@dataclass(frozen=True)
class Rollback:
    """How to undo a step: back to ``to``, and whether min compatibility allows it."""

    to: Point
    supported: bool
    text: str
    #: the recorded rehearsal of this rollback on the real binaries (kcompat.core.rehearsal), or "not rehearsed"
    rehearsal: str = "not rehearsed"
    #: None when not rehearsed, else whether the rehearsal kept the promise
    rehearsal_held: bool | None = None


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
    #: False for a multi-minor binary jump or a skew check out of range; ``why`` says which
    supported: bool = True
    why: str = ""
    rollback: Rollback | None = None

    @property
    def gates_turned_on(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.gate_changes if c.after_on and not c.before_on)

    @property
    def gates_turned_off(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.gate_changes if c.before_on and not c.after_on)

    @property
    def binary_minors(self) -> int:
        """How many minors the control-plane binaries move in this step."""
        return minors_between(self.before.binary, self.after.binary)


@dataclass(frozen=True)
class UpgradePlan:
    start: Point
    target: Version
    steps: tuple[PlanStep, ...]
    notes: tuple[str, ...] = ()
    allow_jumps: bool = False

    @property
    def supported(self) -> bool:
        return all(s.supported for s in self.steps)


#: One version of a plan endpoint, whole: ``1.36``, ``v1.36.2``, ``1.37.0-alpha.1`` (no text after it).
_ENDPOINT_VERSION = re.compile(r"v?[0-9]+\.[0-9]+(?:\.[0-9]+)?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?")
#: The start of a version, to name what follows it.
_VERSION_START = re.compile(r"v?[0-9]+(?:\.[0-9]+)*")


def parse_plan_endpoint(text: str) -> tuple[Version, Version | None]:
    """``B`` or ``B@E`` as ``kcompat plan --from`` takes it: each side one whole version. Go's
    ``version.ParseGeneric`` ignores text after the numbers; an endpoint is kcompat's own syntax,
    and ``1.33@1.32@1.31`` or ``1.36 lol`` is a mistake to name, not to cut."""
    parts = text.split("@") if isinstance(text, str) else [text]
    problem = None
    if len(parts) > 2:
        problem = f"{len(parts) - 1} '@' (one at most: B@E)"
    else:
        for part, where in zip(parts, ("before", "after"), strict=False):
            if part == "":
                problem = f"nothing {where} '@'"
            elif not _ENDPOINT_VERSION.fullmatch(part):
                start = _VERSION_START.match(part)
                problem = (
                    f"{repr_cut(part[start.end():])} after the version {repr_cut(start.group())}" if start
                    else f"{repr_cut(part)} is not a version"
                )
            if problem:
                break
    if problem:
        raise KcompatError(f"invalid plan endpoint {repr_cut(text)}: {problem} (expected B or B@E, e.g. 1.33@1.32)")
    try:
        binary = mm(parse_version(parts[0]))
        emulated = mm(parse_version(parts[1])) if len(parts) > 1 else None
    except KcompatError as exc:
        raise KcompatError(f"invalid plan endpoint {repr_cut(text)} (expected B or B@E, e.g. 1.33@1.32): {exc}") from None
    return binary, emulated


def _next_minor(v: Version) -> Version:
    return major_minor(v.major, v.minor + 1)


def minors_between(a: Version, b: Version) -> int:
    """``b - a`` in minors (same major)."""
    return b.minor - a.minor if a.major == b.major else 10**6


#: More steps than any path between two real releases needs; a guard, not a rule.
MAX_STEPS = 200


def _point(binary: Version, emulated: Version) -> Point:
    sel = select_versions(binary, str(emulated))
    if not sel.valid:
        raise KcompatError(f"binary {binary} cannot emulate {emulated}: {'; '.join(sel.errors)}")
    return Point(binary, sel.emulated, sel.min_compat)


def _in_range(binary: Version, emulated: Version) -> bool:
    emulation_range = rules_for(binary).emulation_range()
    if emulation_range is None:  # rules without a binary: no range (never asked for here)
        return False
    low, high = emulation_range
    return low <= emulated <= high


def _path(start: Point, target: Version, allow_jumps: bool = False) -> list[tuple[str, Point]]:
    """Binary steps of one minor holding the emulated version (raised first where the next binary's
    floor requires it), then emulation steps of one minor. With ``allow_jumps`` each binary step
    goes to the newest binary that still accepts the held version."""
    if target.major != start.binary.major:
        raise KcompatError(f"no upgrade path from {start.binary} to {target}: releases never cross a major version")
    steps: list[tuple[str, Point]] = []
    b, e = start.binary, start.emulated
    while b < target:
        if len(steps) > MAX_STEPS:  # pragma: no cover - a guard against a rule that would not advance
            raise KcompatError(f"no upgrade path from {start.binary} to {target} within {MAX_STEPS} steps")
        candidates = [_next_minor(b)]
        if allow_jumps:
            v = _next_minor(_next_minor(b))
            while v <= target:
                candidates.append(v)
                v = _next_minor(v)
        reachable = [v for v in candidates if _in_range(v, e)]
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


def _gate_label(name: str, g: GateState | None, binary: Version, lineage: GateLineage | None) -> tuple[str, bool]:
    """(label, on): a PreAlpha gate cannot be used at this version, for the plan it is as absent
    as a missing one; a gate the binary no longer registers keeps its last spec's state."""
    if g is not None and g.stage is not Stage.PRE_ALPHA:
        return f"{g.stage.value}{' locked' if g.locked else ''} {'on' if g.enabled else 'off'}", g.enabled
    if g is None and lineage is not None:
        removal = lineage.removal_before(name, binary)
        if removal is not None:
            return f"removed in {removal.removed_in}, {removal.behaviour}", removal.enabled
    return "absent", False


def _gate_changes(
    before: dict[str, GateState], after: dict[str, GateState], b_before: Version, b_after: Version, lineage: GateLineage | None
) -> tuple[GateChange, ...]:
    out = []
    for name in sorted(set(before) | set(after)):
        (a, a_on), (b, b_on) = _gate_label(name, before.get(name), b_before, lineage), _gate_label(name, after.get(name), b_after, lineage)
        if a != b:
            out.append(GateChange(name, a, b, a_on, b_on))
    return tuple(out)


def _skew_checks(after: Point, components: dict[str, tuple[Version, Version]]) -> tuple[SkewCheck, ...]:
    """``components``: name -> (its binary release, the version it presents: emulated, or the binary for kubelets)."""
    policy = skew_policy(after.binary, after.emulated, after.min_compat)
    checks = []
    for component, (binary, version) in components.items():
        allowed = policy.emulation_aware_for(component)
        classic = policy.classic_for(component)
        checks.append(
            SkewCheck(component, str(version), str(allowed), allowed.allows(version), str(classic), classic.allows(binary), str(binary))
        )
    return tuple(checks)


def _support(kind: str, before: Point, after: Point, checks: tuple[SkewCheck, ...]) -> tuple[bool, str]:
    problems = []
    jump = minors_between(before.binary, after.binary)
    if kind == "binary" and jump > 1:
        problems.append(
            f"the binaries jump {jump} minors ({before.binary} -> {after.binary}); the Version Skew Policy supports one minor "
            f"at a time: while the apiservers roll, {before.binary} and {after.binary} peers serve side by side, more than one "
            "minor apart"
        )
    for c in checks:
        if not c.ok:
            problems.append(f"{c.component} at {c.version} is outside the emulation-aware range {c.allowed}")
        if not c.classic_ok:
            problems.append(f"{c.component} binary {c.binary} is outside the Version Skew Policy range {c.classic_allowed}")
    if problems:
        return False, "; ".join(problems)
    if kind == "binary":
        return True, "one minor, within the Version Skew Policy"
    if kind == "emulation":
        return True, "one emulated minor on the same binaries"
    return True, "kubelets within the skew policies"


def _rollback(kind: str, before: Point, after: Point, nodes_before: Version | None = None) -> Rollback:
    """KEP-4330 "Rollback": going back is safe while the version gone back to is at or above the
    min compatibility version in force after the step (the control plane kept compatibility with it)."""
    mc = after.min_compat
    if kind == "nodes":
        return Rollback(
            before, True,
            f"drain and reinstall kubelet and kube-proxy {nodes_before} node by node; the control plane at "
            f"{after.binary} emulating {after.emulated} still accepts them",
        )
    if kind == "binary":
        jump = minors_between(before.binary, after.binary)
        ok = mc <= before.emulated and before.binary >= mc and jump <= 1
        why = (
            f"min compatibility {mc} <= {before.emulated}: the {after.binary} binaries keep what they serve and store "
            f"compatible with {mc} and later"
            if mc <= before.emulated
            else f"min compatibility {mc} is above {before.emulated}"
        )
        if jump > 1:
            why += f"; going back {jump} minors at once is itself outside the Version Skew Policy"
        return Rollback(
            before, ok,
            f"reinstall the {before.binary} binaries with {before.flags()} (apiservers last): "
            f"{'supported' if ok else 'not supported'}: {why}",
        )
    ok = mc <= before.emulated
    why = (
        f"min compatibility {mc} <= {before.emulated}; setting --min-compatibility-version above {before.emulated} "
        "would give this rollback up"
        if ok
        else f"min compatibility {mc} is above {before.emulated}"
    )
    return Rollback(
        before, ok,
        f"set --emulated-version={before.emulated} again on the {after.binary} binaries (kube-apiserver last): "
        f"{'supported' if ok else 'not supported'}: {why}",
    )


def cite_rehearsals(plan: UpgradePlan, judgements: Mapping[tuple[str, str], Judgement]) -> UpgradePlan:
    """``plan`` with each rollback citing its recorded rehearsal: a binary step from B-1 (at the
    emulated version the rehearsal held) to B whose pair was rehearsed. Where the rehearsal broke
    a rollback the rule calls supported, the rehearsal wins: the rollback is not supported and
    says why. Every other rollback says "not rehearsed"."""
    from dataclasses import replace

    steps = []
    for step in plan.steps:
        rollback = step.rollback
        judgement = None
        if rollback is not None and step.kind == "binary" and minors_between(step.before.binary, step.after.binary) == 1:
            found = judgements.get((str(step.before.binary), str(step.after.binary)))
            if found is not None and found.from_emulated == str(step.before.emulated):
                judgement = found
        if rollback is not None and judgement is not None:
            text = rollback.text
            supported = rollback.supported
            if rollback.supported and not judgement.held:
                supported = False
                text = text.replace(": supported: ", ": NOT SUPPORTED (the rehearsal on the real binaries wins over the rule): ", 1)
            rollback = replace(rollback, supported=supported, text=text, rehearsal=judgement.summary, rehearsal_held=judgement.held)
        steps.append(replace(step, rollback=rollback) if rollback is not step.rollback else step)
    return replace(plan, steps=tuple(steps))


def _title_and_order(kind: str, prev: Point, point: Point) -> tuple[str, tuple[str, ...]]:
    """A control-plane step's title and the order its components roll in."""
    if kind == "binary":
        return f"Upgrade the control-plane binaries {prev.binary} -> {point.binary}, keep --emulated-version={point.emulated}", BINARY_ORDER
    return f"Raise --emulated-version {prev.emulated} -> {point.emulated} on {point.binary} binaries", EMULATION_ORDER


def plan_upgrade(  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    start_binary: Version,
    start_emulated: Version | None,
    target_binary: Version,
    manifest_for: Callable[[str], Manifest],
    api_data: ApiData,
    *,
    allow_jumps: bool = False,
    lineage: GateLineage | None = None,
    feature_gates: str | list[str] | None = None,
) -> UpgradePlan:
    """The stepwise path and what each step changes. ``manifest_for(release)`` gives a release's
    gates, ``api_data`` the releases' built-in APIs; ``lineage`` (the bundled releases' gate lineage) describes gates a binary removed;
    ``feature_gates`` the --feature-gates value kept through the upgrade (a point whose binary refuses it shows its defaults)."""
    start_binary, target_binary = mm(start_binary), mm(target_binary)
    if target_binary < start_binary:
        raise KcompatError(f"the target binary {target_binary} is older than the current binary {start_binary}")
    start = _point(start_binary, start_emulated or start_binary)
    path = _path(start, target_binary, allow_jumps)
    notes = []
    if start.emulated < start.binary:
        notes.append(f"The control plane already emulates {start.emulated} on {start.binary} binaries.")

    def gates_at(p: Point) -> dict[str, GateState]:
        release = f"{p.binary.major}.{p.binary.minor}"
        ev = evaluate_gates(manifest_for(release), select_versions(p.binary, str(p.emulated)), feature_gates)
        return ev.by_name()

    base_resolver = gate_resolver(lambda b: manifest_for(f"{b.major}.{b.minor}"), feature_gates)

    def resolver(binary: Version, emulated: Version, min_compat: Version) -> Mapping[str, bool]:
        """The gate states with the flags, or the defaults where this binary refuses them."""
        try:
            return base_resolver(binary, emulated, min_compat)
        except KcompatError:
            return gate_resolver(lambda b: manifest_for(f"{b.major}.{b.minor}"))(binary, emulated, min_compat)

    def apis_at(p: Point) -> set[str]:
        av = evaluate_api_availability(p.binary, p.emulated, api_data=api_data, compare_with_release=False, gate_states=resolver)
        return {f"{e.group_version}/{e.kind}" for e in av.served()}

    def storage_at(p: Point) -> dict[str, str]:
        """The storage version of each resource served at ``p`` (one not served stores nothing:
        its storage version does not change anything)."""
        sv = storage_versions(p.binary, p.emulated, p.min_compat, api_data=api_data, gate_states=resolver)
        return {f"{c.group or 'core'}/{c.kind}": c.group_version for c in sv.choices if c.served and c.group_version is not None}

    steps: list[PlanStep] = []
    prev = start
    prev_gates, prev_apis, prev_storage = gates_at(start), apis_at(start), storage_at(start)
    # kubelets are upgraded last; until then they are assumed at the start's emulated version
    nodes = start.emulated
    notes.append(
        f"Skew checks assume kubelets at {nodes} (the starting emulated version); the plan upgrades them only when a "
        "control-plane step would leave them out of range, and once more at the end if needed."
    )
    if allow_jumps:
        notes.append(
            "Multi-minor binary jumps were asked for: such steps are outside the Version Skew Policy and marked unsupported."
        )

    def nodes_step(at: Point, old: Version, title: str) -> PlanStep:
        checks = _skew_checks(at, {KUBELET: (at.emulated, at.emulated)})
        supported, why = _support("nodes", at, at, checks)
        return PlanStep(
            len(steps) + 1, "nodes", title, at, at, NODE_ORDER, (), (), (), checks,
            supported=supported, why=why, rollback=_rollback("nodes", at, at, old),
        )

    for kind, point in path:
        gates, apis, storage = gates_at(point), apis_at(point), storage_at(point)
        title, order = _title_and_order(kind, prev, point)
        # while the step rolls, peers and controllers still run the previous binary at the previous emulated version
        components = {KUBE_APISERVER: (prev.binary, prev.emulated), CONTROLLER_MANAGER: (prev.binary, prev.emulated), KUBELET: (nodes, nodes)}
        checks = _skew_checks(point, components)
        if any(c.component == KUBELET and not c.both_ok for c in checks) and nodes < prev.emulated:
            # the step would leave kubelets too far behind: upgrade them first, to what the control plane serves now
            steps.append(
                nodes_step(prev, nodes, f"Upgrade kubelet and kube-proxy {nodes} -> {prev.emulated} (not newer than the emulated version)")
            )
            nodes = prev.emulated
            components[KUBELET] = (nodes, nodes)
            checks = _skew_checks(point, components)
        api_changes = tuple(ApiChange(k, True) for k in sorted(apis - prev_apis)) + tuple(
            ApiChange(k, False) for k in sorted(prev_apis - apis)
        )
        # only resources served after the step: "-" before it means newly served (written from now on)
        storage_changes = tuple(
            StorageChange(k, prev_storage.get(k, "-"), storage[k]) for k in sorted(storage) if prev_storage.get(k) != storage[k]
        )
        supported, why = _support(kind, prev, point, checks)
        steps.append(
            PlanStep(
                len(steps) + 1, kind, title, prev, point, order,
                _gate_changes(prev_gates, gates, prev.binary, point.binary, lineage), api_changes, storage_changes, checks,
                supported=supported, why=why, rollback=_rollback(kind, prev, point),
            )
        )
        prev, prev_gates, prev_apis, prev_storage = point, gates, apis, storage
    if steps and nodes < prev.emulated:
        steps.append(nodes_step(prev, nodes, f"Upgrade kubelet and kube-proxy {nodes} -> {prev.emulated}"))
    if not steps:
        notes.append("Nothing to do: the control plane already runs the target binary at its own version.")
    return UpgradePlan(start, target_binary, tuple(steps), tuple(notes), allow_jumps)
