"""The config question, the reverse of inspect: the flags that give a selection, for every
control-plane component that takes them. ``kcompat config`` and the Check a cluster page ask
:func:`config`; :mod:`kcompat.documents.config` writes the answer as command lines, a kubeadm
v1beta4 ``ClusterConfiguration`` patch, a kind config and kubeadm static pod patches.

``--emulated-version`` and ``--feature-gates`` are registered by kube-apiserver,
kube-controller-manager and kube-scheduler through component-base ``compatibility/registry.go``
(``AddFlags``); ``--min-compatibility-version`` from 1.35 (SPEC §2.6); ``--runtime-config`` is
kube-apiserver's only (apiserver ``APIEnablementOptions``). The kubelet takes no emulation flags.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kcompat.answers.gates import gate_evaluation
from kcompat.answers.inspect import Inspection
from kcompat.answers.queries import gate_lineage
from kcompat.core.compat import parse_binary_version
from kcompat.core.components import KUBE_APISERVER
from kcompat.core.errors import ComponentNotRecorded, KcompatError
from kcompat.core.flags import parse_go_bool
from kcompat.core.gates import GateEvaluation
from kcompat.core.inspect.model import (
    CONTROL_PLANE,
    EMULATED,
    FEATURE_GATES,
    FORWARD_COMPAT,
    MIN_COMPAT,
    RUNTIME_CONFIG,
    RUNTIME_FORWARD_COMPAT,
)
from kcompat.core.problems import Remedy
from kcompat.core.remedies import gate_remedies
from kcompat.core.request import Request, joined
from kcompat.core.runtime_config import parse_runtime_config
from kcompat.core.versions import Version, mm
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from kcompat.core.startup import ApiserverOptions

#: (flag, value) pairs of one component, in the order the flags are applied
Flags = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ConfigAnswer:
    """The flags of a selection the binary accepts (``flags``), else its refusal (``errors`` and
    the remedies in ``hints``)."""

    #: the binary as given (refused) or its release ("1.36")
    binary: str | None
    emulated: str | None = None
    min_compat: str | None = None
    errors: tuple[str, ...] = ()
    hints: tuple[Remedy, ...] = ()
    warnings: tuple[str, ...] = ()
    #: (component, its flags) for every control-plane component, in CONTROL_PLANE order
    flags: tuple[tuple[str, Flags], ...] = ()
    #: the --feature-gates values and the --runtime-config items, as kind's config lists them
    gate_values: tuple[tuple[str, bool], ...] = ()
    runtime_items: tuple[tuple[str, str], ...] = ()
    #: the release tag a snippet may pin (``kubernetesVersion``, the kind node image), if any
    tag: str | None = None
    #: why kube-apiserver would start with these flags but never become ready: then no flags are
    #: given (a config that leaves the control plane unready is not handed out), the remedies are
    not_ready: tuple[str, ...] = ()
    #: the component asked for, or None: every control-plane component
    component: str | None = None

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def verdict(self) -> str:
        return "refuses" if self.errors else "not-ready" if self.not_ready else "starts"


@dataclass(frozen=True, slots=True)
class ComponentFlags:
    """The flag values one component is given: ``forward_compatible`` the kube-apiserver
    forward-compatibility flags set to true, ``apiserver_flags`` the options of
    :data:`EMITTED_OPTIONS` given (--enable-priority-and-fairness)."""

    emulated: str | None
    min_compat: str | None
    feature_gates: str
    runtime_config: str
    forward_compatible: tuple[str, ...] = ()
    apiserver_flags: Flags = ()


def component_flags(component: str, given: ComponentFlags) -> Flags:
    """(flag, value) pairs ``component`` needs of ``given``, in the order the flags are applied (SPEC §2.6)."""
    pairs = []
    if given.emulated:
        pairs.append((EMULATED, given.emulated))
    if given.min_compat:
        pairs.append((MIN_COMPAT, given.min_compat))
    if given.feature_gates:
        pairs.append((FEATURE_GATES, given.feature_gates))
    if given.runtime_config and component == "kube-apiserver":
        pairs.append((RUNTIME_CONFIG, given.runtime_config))
    if component == "kube-apiserver":
        pairs.extend((flag, "true") for flag in given.forward_compatible)
        pairs.extend(given.apiserver_flags)
    return tuple(pairs)


#: The pre-releases Kubernetes tags (and kind publishes node images for).
_RELEASE_PRE = re.compile(r"(alpha|beta|rc)\.[0-9]{1,9}")


def release_tag(version: Version) -> str | None:
    """The release tag a snippet may pin (``kubernetesVersion``, the kind node image): ``vX.Y.Z``
    or ``vX.Y.Z-rc.N`` (alpha, beta, rc). Anything else a binary may report -- build metadata
    (``+abc``), a vendor suffix (``-eks-a737599``), more than three numbers -- is no tag: the
    snippet then pins no version rather than an invalid one."""
    if len(version.components) != 3:
        return None
    tag = "v" + ".".join(str(c) for c in version.components)
    if version.pre_release:
        if not _RELEASE_PRE.fullmatch(version.pre_release):
            return None
        tag += "-" + version.pre_release
    return tag


def config(catalog: Catalog, request: Request, every_component: bool = False) -> ConfigAnswer:
    """The flags of a selection the binary accepts; otherwise the refusal (with the remedies). Each
    component the flags go to (``component``, or every control-plane component) checks them as it
    does at start-up, with its own gate set; the kube-apiserver flags also as it checks them at
    start-up, and whether it becomes ready (:func:`kcompat.answers.startup.apiserver_startup`): a
    selection it would start with but never get ready is answered with the reasons and the
    remedies, and no flags. ``every_component``: every control-plane component, not ``request.component`` alone."""
    binary = request.binary
    if binary is None:
        return ConfigAnswer(None, errors=("a binary version is required",))
    component = None if every_component else request.component
    emulated, min_compat = joined(request.emulated), joined(request.min_compat)
    runtime_config = joined(request.runtime_config)
    options = request.options
    emulation_forward_compatible = request.emulation_forward_compatible
    runtime_config_emulation_forward_compatible = request.runtime_config_emulation_forward_compatible
    components = CONTROL_PLANE if component is None else (component,)
    if KUBE_APISERVER not in components:
        given = [flag for flag, on in ((RUNTIME_CONFIG, bool(runtime_config)), (FORWARD_COMPAT, emulation_forward_compatible),
                                       (RUNTIME_FORWARD_COMPAT, runtime_config_emulation_forward_compatible)) if on]
        if given:
            return ConfigAnswer(binary, errors=tuple(f"--{flag} is kube-apiserver's only: {component} takes no such flag" for flag in given),
                                component=component)
    try:
        evaluation, notes = _component_evaluations(catalog, components, request)
        runtime = parse_runtime_config(runtime_config) if runtime_config else None
    except KcompatError as exc:
        return ConfigAnswer(binary, errors=(str(exc),), component=component)
    sel = evaluation.selection
    if not evaluation.valid:
        hints = gate_remedies(evaluation, lambda: gate_lineage(catalog))
        return ConfigAnswer(binary, str(sel.emulated), str(sel.min_compat), evaluation.errors, hints, component=component)
    forward = tuple(
        flag for flag, on in ((FORWARD_COMPAT, emulation_forward_compatible), (RUNTIME_FORWARD_COMPAT, runtime_config_emulation_forward_compatible)) if on
    )
    if KUBE_APISERVER in components:
        from kcompat.answers.startup import apiserver_startup

        startup = apiserver_startup(catalog, evaluation, request.with_(component=KUBE_APISERVER))
        if startup.errors or startup.not_ready:
            return ConfigAnswer(binary, str(sel.emulated), str(sel.min_compat), startup.errors, startup.hints,
                                startup.warnings, not_ready=startup.not_ready, component=component)
    gate_values = tuple(evaluation.flags.values.items())
    gates_text = ",".join(f"{k}={'true' if v else 'false'}" for k, v in gate_values)
    runtime_items: dict[str, str] = {}
    for item in (runtime_config or "").split(","):
        if item.strip():
            key, _, value = item.partition("=")
            runtime_items[key.strip()] = value.strip()
    runtime_text = ",".join(f"{k}={v}" if v else k for k, v in runtime_items.items())
    emu_text = str(sel.emulated) if emulated else None
    mc_text = str(sel.min_compat) if min_compat else None
    version = parse_binary_version(binary)
    return ConfigAnswer(
        binary=str(mm(version)),
        emulated=str(sel.emulated),
        min_compat=str(sel.min_compat),
        warnings=evaluation.warnings + notes + (runtime.notes if runtime is not None else ()),
        flags=tuple(
            (c, component_flags(c, ComponentFlags(emu_text, mc_text, gates_text, runtime_text, forward, _emitted(options))))
            for c in components
        ),
        gate_values=gate_values,
        runtime_items=tuple(runtime_items.items()),
        tag=release_tag(version),
        component=component,
    )


def _component_evaluations(catalog: Catalog, components: tuple[str, ...], request: Request) -> tuple[GateEvaluation, tuple[str, ...]]:
    """The first component's gate evaluation with the refusals only the others give (``component:
    ...``), and the notes on components whose gate set is not recorded (checked with
    kube-apiserver's)."""
    evaluation: GateEvaluation | None = None
    notes: list[str] = []
    for c in components:
        try:
            checked = gate_evaluation(catalog, request.with_(component=c))
        except ComponentNotRecorded as exc:
            if c == components[0]:
                raise
            notes.append(f"{exc}: {c}'s flags were checked with kube-apiserver's gate set")
            continue
        if evaluation is None:
            evaluation = checked
        elif not checked.valid:
            from kcompat.core.problems import OtherComponentRefuses

            # what only it refuses: the refusals every component shares are said once
            said = set(evaluation.errors)
            theirs = tuple(OtherComponentRefuses(c, p) for p in checked.problems if p.refuses and p.message not in said)
            evaluation = evaluation.replace(problems=evaluation.problems + theirs)
    if evaluation is None:  # never: the first component's evaluation raises or is kept
        raise KcompatError("no component was checked")
    return evaluation, tuple(notes)


def config_for_inspection(catalog: Catalog, inspection: Inspection) -> ConfigAnswer:
    """The config for the selection an inspection found: the flags that were set (emulated when
    emulating, min compatibility when not the default)."""
    combined, gates = inspection.combined, inspection.gates
    if combined is None or gates is None or gates.binary is None:
        return ConfigAnswer(None, errors=("the inspection names no binary",))
    emulating = gates.emulated != inspection.binary
    min_compat = None if combined.sources.get("minCompatibility", "default").startswith("default") else gates.min_compat
    request = Request.of(
        gates.binary,
        gates.emulated if emulating else None,
        min_compat,
        ",".join(combined.feature_gates) or None,
        ",".join(combined.runtime_config) or None,
        emulation_forward_compatible=_last_bool(combined.emulation_forward_compatible),
        runtime_config_emulation_forward_compatible=_last_bool(combined.runtime_config_emulation_forward_compatible),
        options=_options(combined.apiserver_flags),
    )
    return config(catalog, request, every_component=True)


#: The option flags a config writes (the others are read by the start-up checks only: the files
#: and addresses of a cluster are not a compatibility setting).
EMITTED_OPTIONS = ("enable-priority-and-fairness",)


def _emitted(options: ApiserverOptions | None) -> Flags:
    return tuple((n, v) for n, v in (options.flags if options is not None else ()) if n in EMITTED_OPTIONS)


def _options(pairs: tuple[tuple[str, str], ...]) -> ApiserverOptions | None:
    """The options an inspection read (None when one cannot be read: its refusal is the inspection's)."""
    from kcompat.core.startup import read_options

    try:
        return read_options(pairs)
    except KcompatError:
        return None


def _last_bool(values: tuple[str, ...]) -> bool:
    """A pflag boolean read from an inspection's values: the last one wins."""
    return bool(values) and bool(parse_go_bool(values[-1]))
