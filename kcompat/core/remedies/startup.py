"""Remedies beside kube-apiserver's refusals of its options (:mod:`kcompat.core.startup`, kind
"option") and beside a start that does not become ready (:mod:`kcompat.core.readiness`, kind
"readiness"), computed from the gate states of the selection and the recorded readiness rules."""

from __future__ import annotations

from dataclasses import dataclass

from ..problems import (
    MAX_REMEDIES,
    ApiGroupVersionMustBeEnabled,
    ApiOffNotReady,
    CloudProviderNeedsFeature,
    CoreSecretsOffPanic,
    FeatureRequiresFeature,
    FlagRequiresFeature,
    GatesNotReady,
    PriorityAndFairnessConflict,
    Problem,
    Remedy,
    RemedyKind,
    ServiceClusterIPRangeTooLarge,
    SigningEndpointInvalid,
    SigningEndpointWithKeyFiles,
    SigningKeyAndEndpoint,
    UidHeadersProblem,
)
from ..stages import Stage
from ..versions import Version

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from ..manifest import GateState
    from ..readiness import ReadinessRules
    from ..runtime_config import RuntimeConfig

APF_GROUP_VERSION = "flowcontrol.apiserver.k8s.io/v1"


@dataclass(frozen=True)
class StartupContext:
    """What the remedies read: every gate's state at the selection (after --feature-gates), the
    emulated version, --runtime-config and the readiness rules of the release (None: none)."""

    gates: Mapping[str, GateState]
    emulated: Version
    runtime_config: RuntimeConfig | None = None
    rules: ReadinessRules | None = None


def _option(problem: Problem, text: str, names: tuple[str, ...]) -> Remedy:
    return Remedy(RemedyKind.OPTION, problem, text, names)


def _turn_off(gate: str, context: StartupContext) -> str:
    """How to turn ``gate`` off, from why it is on."""
    state = context.gates.get(gate)
    source = state.source if state is not None else "flag"
    if source == "flag":
        return f"drop {gate}=true from --feature-gates"
    if source in ("AllAlpha", "AllBeta"):
        return f"add {gate}=false to --feature-gates (turned on by {source}=true)"
    return f"add {gate}=false to --feature-gates (on by default at {context.emulated})"


def _cannot_turn_on(gate: str, context: StartupContext) -> str | None:
    """Why ``gate`` cannot be on at the emulated version, or None when --feature-gates can turn it on."""
    state = context.gates.get(gate)
    if state is None:
        return f"a binary of this release has no {gate} gate"
    if state.stage is Stage.PRE_ALPHA:
        return f"{gate} is not yet introduced at emulated version {context.emulated}"
    if state.locked and not state.default:
        return f"{gate} is locked off at emulated version {context.emulated}"
    return None


def _turn_on(gate: str, context: StartupContext) -> str:
    state = context.gates.get(gate)
    if state is not None and state.explicit:
        return f"drop {gate}=false from --feature-gates"
    return f"add {gate}=true to --feature-gates"


def _priority_and_fairness(problem: PriorityAndFairnessConflict, context: StartupContext) -> Remedy:
    if problem.key == APF_GROUP_VERSION:
        text = (f"API Priority and Fairness (--enable-priority-and-fairness, on by default) needs {APF_GROUP_VERSION}: drop "
                f"{APF_GROUP_VERSION}=false from --runtime-config, or set --enable-priority-and-fairness=false")
    else:
        text = (f"{problem.key}=false also turns off {APF_GROUP_VERSION}, which API Priority and Fairness "
                f"(--enable-priority-and-fairness, on by default) needs: add {APF_GROUP_VERSION}=true to --runtime-config, "
                "or set --enable-priority-and-fairness=false")
    return _option(problem, text, (APF_GROUP_VERSION, "--enable-priority-and-fairness"))


def _explicitly_off(context: StartupContext, group_version: str, resource: str | None = None) -> str | None:
    """The --runtime-config item that turns this group/version (or resource) off by name, if any."""
    config = context.runtime_config
    if config is None:
        return None
    keys = [f"{group_version}/{resource}"] if resource else []
    keys.append(group_version)
    if group_version == "v1":
        keys += ["/v1"]
    for key in keys:
        value = config.get(key)
        if value is not None and value.lower() in ("false", "f", "0"):
            return f"{key}={value}"
    return None


def _aggregator(problem: ApiGroupVersionMustBeEnabled, context: StartupContext) -> Remedy:
    gv = problem.group_version
    item = _explicitly_off(context, gv, "apiservices")
    if item is not None:
        text = f"kube-aggregator cannot run without {gv} apiservices: drop {item} from --runtime-config"
    else:
        text = f"kube-aggregator cannot run without {gv} apiservices, which --runtime-config turns off: add {gv}=true to --runtime-config"
    return _option(problem, text, (gv,))


def _core_secrets(problem: CoreSecretsOffPanic, context: StartupContext) -> Remedy:
    item = _explicitly_off(context, "v1", "secrets")
    if item is not None:
        text = f"kube-apiserver cannot build its service-account storage without core v1 secrets: drop {item} from --runtime-config"
    else:
        text = ("kube-apiserver cannot build its service-account storage without core v1 secrets, which --runtime-config turns "
                "off: add api/v1=true to --runtime-config")
    return _option(problem, text, ("v1",))


def _feature_feature(problem: FeatureRequiresFeature, context: StartupContext) -> Remedy:
    gate, required = problem.name, problem.required
    blocked = _cannot_turn_on(required, context)
    if blocked is not None:
        text = f"{gate} needs {required} on, and {blocked}: {_turn_off(gate, context)}"
    else:
        text = f"{gate} needs {required} on: {_turn_on(required, context)}, or {_turn_off(gate, context)}"
    return _option(problem, text, (required,))


def _flag_feature(problem: FlagRequiresFeature, context: StartupContext) -> Remedy:
    flag, gate = f"--{problem.flag}", problem.name
    blocked = _cannot_turn_on(gate, context)
    if blocked is not None:
        text = f"{flag} needs {gate} on, and {blocked}: drop {flag}"
    else:
        text = f"{flag} needs {gate} on: {_turn_on(gate, context)}, or drop {flag}"
    return _option(problem, text, (gate,))


def _cloud_provider(problem: CloudProviderNeedsFeature, context: StartupContext) -> Remedy:
    gate, wanted = problem.name, problem.wanted
    state = context.gates.get(gate)
    if state is not None and state.locked and state.default != wanted:
        text = f"{gate} is locked {'on' if state.default else 'off'} at emulated version {context.emulated}: drop --cloud-provider={problem.value}"
    else:
        text = f"--cloud-provider={problem.value} needs {gate}={'true' if wanted else 'false'} in --feature-gates"
    return _option(problem, text, (gate,))


def _uid_headers(problem: UidHeadersProblem, context: StartupContext) -> Remedy:
    if problem.empty:
        return _option(problem, "drop the empty item from --requestheader-uid-headers", ("--requestheader-uid-headers",))
    return _option(problem, "add X-Remote-Uid to --requestheader-uid-headers (API aggregation sends it)", ("--requestheader-uid-headers",))


def _signing(problem: Problem, context: StartupContext) -> Remedy:
    if isinstance(problem, SigningEndpointWithKeyFiles):
        text = ("an external signer replaces the key files: drop --service-account-key-file and --service-account-signing-key-file, "
                "or drop --service-account-signing-endpoint")
    elif isinstance(problem, SigningKeyAndEndpoint):
        text = "keep one of --service-account-signing-key-file and --service-account-signing-endpoint"
    elif isinstance(problem, SigningEndpointInvalid) and problem.path:
        text = "give the signer's socket as an absolute file path (/run/signer.sock) or an abstract socket name (@signer)"
    else:
        text = "an abstract socket name is @ followed by dot-separated words of letters, digits, - and _ (@signer.sock)"
    return _option(problem, text, ("--service-account-signing-endpoint",))


def _cidr(problem: ServiceClusterIPRangeTooLarge, context: StartupContext) -> Remedy:
    needed = ("MultiCIDRServiceAllocator", "DisableAllocatorDualWrite")
    blocked = [b for b in (_cannot_turn_on(g, context) for g in needed) if b is not None]
    text = f"use a range with a mask of at least /{problem.minimum} in {problem.label}"
    if blocked:
        text += f" ({'; '.join(blocked)})"
    else:
        off = [g for g in needed if not (context.gates.get(g) and context.gates[g].enabled)]
        text += f", or turn on {' and '.join(needed)} ({', '.join(_turn_on(g, context) for g in off)}), which allocate IPs without that limit"
    return _option(problem, text, (problem.label,))


# ---------------------------------------------------------------------------------------------
# Readiness.


def _gates_not_ready(problem: GatesNotReady, context: StartupContext) -> Remedy:
    gates = problem.gates
    off = " and ".join(_turn_off(g, context) for g in gates)
    if problem.missing:
        items = ",".join(f"{gv}=true" for gv in problem.missing)
        text = f"add {items} to --runtime-config (the recorded start got ready with it), or {off}"
        names = problem.missing
    elif problem.fixed_by_all_apis:
        text = f"add api/all=true to --runtime-config (the recorded start got ready with it), or {off}"
        names = ("api/all",)
    else:
        lowest = context.rules.lowest_ready(gates) if context.rules is not None else None
        emulate = f", or emulate {lowest} or later (where the recorded start with it on got ready)" if lowest is not None else ""
        first = "" if problem.unsearched else "no --runtime-config made the recorded start ready: "
        text = f"{first}{off}{emulate}"
        names = gates
    return Remedy(RemedyKind.READINESS, problem, text, names)


def _api_off_not_ready(problem: ApiOffNotReady, context: StartupContext) -> Remedy:
    item = _explicitly_off(context, problem.group_version, problem.resource)
    if item is not None:
        text = f"drop {item} from --runtime-config"
    else:
        text = f"add {problem.api}=true to --runtime-config (a level key such as api/all=false or api/ga=false turns it off)"
    return Remedy(RemedyKind.READINESS, problem, text, (problem.api,))


#: problem type -> its remedy, from the problem and the selection's gates, flags and rules
REMEDIES: dict[type[Problem], Callable[[Any, StartupContext], Remedy | None]] = {
    PriorityAndFairnessConflict: _priority_and_fairness,
    ApiGroupVersionMustBeEnabled: _aggregator,
    CoreSecretsOffPanic: _core_secrets,
    FeatureRequiresFeature: _feature_feature,
    FlagRequiresFeature: _flag_feature,
    CloudProviderNeedsFeature: _cloud_provider,
    UidHeadersProblem: _uid_headers,
    SigningEndpointWithKeyFiles: _signing,
    SigningEndpointInvalid: _signing,
    SigningKeyAndEndpoint: _signing,
    ServiceClusterIPRangeTooLarge: _cidr,
    GatesNotReady: _gates_not_ready,
    ApiOffNotReady: _api_off_not_ready,
}


def startup_remedies(problems: tuple[Problem, ...], context: StartupContext) -> tuple[Remedy, ...]:
    """The remedies of the option refusals and the readiness problems among ``problems``, in
    their order (at most ``MAX_REMEDIES``)."""
    out: list[Remedy] = []
    for problem in problems:
        if len(out) >= MAX_REMEDIES:
            break
        remedy = REMEDIES.get(type(problem))
        found = remedy(problem, context) if remedy is not None else None
        if found is not None:
            out.append(found)
    return tuple(out)
