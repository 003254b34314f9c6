"""The ``kcompat config`` document: the flags that give a selection, for every control-plane
component that takes them, as a command line, a kubeadm v1beta4 ``ClusterConfiguration``
patch, a kind config and kubeadm static pod patches. The inspect readers read each back.

``--emulated-version`` and ``--feature-gates`` are registered by kube-apiserver,
kube-controller-manager and kube-scheduler through component-base ``compatibility/registry.go``
(``AddFlags``); ``--min-compatibility-version`` from 1.35 (SPEC §2.6); ``--runtime-config`` is
kube-apiserver's only (apiserver ``APIEnablementOptions``). The kubelet takes no emulation flags.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

import yaml

from kcompat.data.catalog import Catalog
from ..core.runtime_config import parse_runtime_config
from ..core.compat import parse_binary_version
from ..core.components import KUBE_APISERVER
from ..core.errors import KcompatError
from ..core.hints import api_hints, hints_for
from ..core.inspect.model import (
    CONTROL_PLANE,
    EMULATED,
    FEATURE_GATES,
    FORWARD_COMPAT,
    MIN_COMPAT,
    RUNTIME_CONFIG,
    RUNTIME_FORWARD_COMPAT,
)
from kcompat.documents.gates import hint_dict
from ..core.versions import Version, mm
from kcompat.answers.gates import gate_evaluation
from kcompat.answers.queries import gate_lineage

if TYPE_CHECKING:  # (answers.inspect imports the API engine; the document types exist for the type checker only)
    from kcompat.answers.inspect import InspectDocument
    from kcompat.documents.gates import HintDict

KUBEADM_FIELDS = {"kube-apiserver": "apiServer", "kube-controller-manager": "controllerManager", "kube-scheduler": "scheduler"}
SNIPPETS = ("cmdline", "kubeadm", "kind", "static-pod")

#: The snippets of a config document: three texts and the static pod patches by file name.
ConfigSnippets = TypedDict("ConfigSnippets", {"cmdline": str, "kubeadm": str, "kind": str, "static-pod": dict[str, str]})


class ConfigDocument(TypedDict):
    """The ``kcompat config --format json`` document: the flags and snippets of a selection the
    binary accepts (``components``, ``snippets``), else its refusal (``hints``, no ``features``)."""

    binary: str | None
    #: the component asked for, or None: every control-plane component
    component: str | None
    emulated: str | None
    minCompatibility: str | None
    valid: bool
    errors: list[str]
    warnings: list[str]
    hints: NotRequired[list[HintDict]]
    features: NotRequired[list[object]]
    components: NotRequired[dict[str, list[str]]]
    snippets: NotRequired[ConfigSnippets]


def component_flags(
    component: str, emulated: str | None, min_compat: str | None, feature_gates: str, runtime_config: str,
    forward_compatible: tuple[str, ...] = (),
) -> list[tuple[str, str]]:
    """(flag, value) pairs one component needs, in the order the flags are applied (SPEC §2.6);
    ``forward_compatible``: the kube-apiserver forward-compatibility flags set to true."""
    pairs = []
    if emulated:
        pairs.append((EMULATED, emulated))
    if min_compat:
        pairs.append((MIN_COMPAT, min_compat))
    if feature_gates:
        pairs.append((FEATURE_GATES, feature_gates))
    if runtime_config and component == "kube-apiserver":
        pairs.append((RUNTIME_CONFIG, runtime_config))
    if component == "kube-apiserver":
        pairs.extend((flag, "true") for flag in forward_compatible)
    return pairs


class _Dumper(yaml.SafeDumper):  # type: ignore[misc]  # PyYAML ships no types
    """Multi-line strings (kind's kubeadmConfigPatches) as ``|`` blocks, as people write them."""


def _str(dumper: Any, value: str) -> Any:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


_Dumper.add_representer(str, _str)


def _dump(document: object) -> str:
    text: str = yaml.dump(document, Dumper=_Dumper, sort_keys=False, default_flow_style=False, width=10_000)
    return text


def kubeadm_patch(flags: dict[str, list[tuple[str, str]]], kubernetes_version: str | None) -> str:
    doc: dict[str, object] = {"apiVersion": "kubeadm.k8s.io/v1beta4", "kind": "ClusterConfiguration"}
    if kubernetes_version:
        doc["kubernetesVersion"] = kubernetes_version
    for component, pairs in flags.items():
        if pairs:
            doc[KUBEADM_FIELDS[component]] = {"extraArgs": [{"name": n, "value": v} for n, v in pairs]}
    return _dump(doc)


def kind_config(flags: dict[str, list[tuple[str, str]]], gate_values: dict[str, bool], runtime_items: dict[str, str], kubernetes_version: str | None) -> str:
    doc: dict[str, object] = {"kind": "Cluster", "apiVersion": "kind.x-k8s.io/v1alpha4"}
    if gate_values:
        doc["featureGates"] = dict(gate_values)
    if runtime_items:
        doc["runtimeConfig"] = dict(runtime_items)
    node: dict[str, str] = {"role": "control-plane"}
    if kubernetes_version:
        node["image"] = f"kindest/node:{kubernetes_version}"
    doc["nodes"] = [node]
    patch: dict[str, object] = {"kind": "ClusterConfiguration"}
    for component, pairs in flags.items():
        if pairs:
            patch[KUBEADM_FIELDS[component]] = {"extraArgs": [{"name": n, "value": v} for n, v in pairs]}
    if len(patch) > 1:
        doc["kubeadmConfigPatches"] = [_dump(patch)]
    header = (
        "# kind applies kubeadmConfigPatches as merge patches: an extraArgs list replaces kind's own,\n"
        "# so the patch repeats every flag (featureGates above also reach the kubelet).\n"
    )
    return header + _dump(doc)


def static_pod_patch(component: str, pairs: list[tuple[str, str]]) -> str:
    ops = [{"op": "add", "path": "/spec/containers/0/command/-", "value": f"--{n}={v}"} for n, v in pairs]
    header = (
        f"# target: {component}0+json.yaml\n"
        f"# kubeadm --patches file for /etc/kubernetes/manifests/{component}.yaml; it appends the flags,\n"
        "# so use it on a manifest that does not set them already.\n"
    )
    return header + _dump(ops)


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


def config_document(
    catalog: Catalog,
    binary: str,
    emulated: str | None = None,
    min_compat: str | None = None,
    feature_gates: str | None = None,
    runtime_config: str | None = None,
    emulation_forward_compatible: bool = False,
    runtime_config_emulation_forward_compatible: bool = False,
    component: str | None = None,
) -> ConfigDocument:
    """Flags and config snippets for a selection the binary accepts; otherwise the rejection (with
    the remedies in ``hints``). Each component the flags go to (``component``, or every
    control-plane component) checks them as it does at start-up, with its own gate set: the
    kube-apiserver flags also with its --runtime-config check."""
    components = CONTROL_PLANE if component is None else (component,)
    if KUBE_APISERVER not in components:
        given = [flag for flag, on in ((RUNTIME_CONFIG, bool(runtime_config)), (FORWARD_COMPAT, emulation_forward_compatible),
                                       (RUNTIME_FORWARD_COMPAT, runtime_config_emulation_forward_compatible)) if on]
        if given:
            return _rejected(binary, [f"--{flag} is kube-apiserver's only: {component} takes no such flag" for flag in given], component=component)
    warnings: list[str] = []
    try:
        evaluation = None
        for c in components:
            try:
                checked = gate_evaluation(catalog, binary, emulated, min_compat, feature_gates, component=c)
            except KcompatError as exc:
                if c == components[0] or "is not recorded" not in str(exc):
                    raise
                warnings.append(f"{exc}: {c}'s flags were checked with kube-apiserver's gate set")
                continue
            prefix = "" if c == components[0] else f"{c}: "
            if evaluation is None:
                evaluation = checked
            elif not checked.valid:
                evaluation = replace(evaluation, errors=evaluation.errors + tuple(prefix + e for e in checked.errors))
        runtime = parse_runtime_config(runtime_config) if runtime_config else None
    except KcompatError as exc:
        return _rejected(binary, [str(exc)], component=component)
    if evaluation is None:  # never: the first component's evaluation raises or is kept
        return _rejected(binary, ["no component was checked"], component=component)
    sel = evaluation.selection
    if not evaluation.valid:
        hints = [hint_dict(h) for h in hints_for(evaluation, lambda: gate_lineage(catalog))]
        return _rejected(binary, list(evaluation.errors), str(sel.emulated), str(sel.min_compat), hints, component)
    forward = tuple(
        flag for flag, on in ((FORWARD_COMPAT, emulation_forward_compatible), (RUNTIME_FORWARD_COMPAT, runtime_config_emulation_forward_compatible)) if on
    )
    if runtime_config or forward:
        # kube-apiserver's start-up check of --runtime-config and the forward-compatibility flags
        # (as kcompat apis and inspect run it): no snippet for flags it would refuse
        from ..core.apis import evaluate_api_availability

        try:
            apis = evaluate_api_availability(
                binary, emulated, runtime_config, emulation_forward_compatible, runtime_config_emulation_forward_compatible,
                min_compat=min_compat, api_data=catalog.api_data, compare_with_release=False,
            )
        except KcompatError:
            apis = None  # no API data for this release: the value was parsed above, nothing more to check
        if apis is not None and apis.errors:
            return _rejected(binary, list(apis.errors), str(sel.emulated), str(sel.min_compat), [hint_dict(h) for h in api_hints(apis)], component)
    gate_values = dict(evaluation.flags.values)
    gates_text = ",".join(f"{k}={'true' if v else 'false'}" for k, v in gate_values.items())
    runtime_items = {}
    for item in (runtime_config or "").split(","):
        if item.strip():
            key, _, value = item.partition("=")
            runtime_items[key.strip()] = value.strip()
    runtime_text = ",".join(f"{k}={v}" if v else k for k, v in runtime_items.items())
    emu_text = str(sel.emulated) if emulated else None
    mc_text = str(sel.min_compat) if min_compat else None
    flags = {c: component_flags(c, emu_text, mc_text, gates_text, runtime_text, forward) for c in components}
    version = parse_binary_version(binary)
    exact = release_tag(version)
    return {
        "binary": str(mm(version)),
        "component": component,
        "emulated": str(sel.emulated),
        "minCompatibility": str(sel.min_compat),
        "valid": True,
        "errors": [],
        "warnings": list(evaluation.warnings) + warnings + (list(runtime.notes) if runtime is not None else []),
        "components": {c: [f"--{n}={v}" for n, v in pairs] for c, pairs in flags.items()},
        "snippets": {
            "cmdline": "\n".join(shlex.join([c] + [f"--{n}={v}" for n, v in pairs]) for c, pairs in flags.items()) + "\n",
            "kubeadm": kubeadm_patch(flags, exact),
            "kind": kind_config(flags, gate_values, runtime_items, exact),
            "static-pod": {f"{c}0+json.yaml": static_pod_patch(c, pairs) for c, pairs in flags.items() if pairs},
        },
    }


def _rejected(
    binary: str | None, errors: list[str], emulated: str | None = None, min_compat: str | None = None, hints: list[HintDict] | None = None,
    component: str | None = None,
) -> ConfigDocument:
    """The refusal: the binary's errors and their remedies (the keys of ``kcompat gates``' refusal)."""
    return {
        "binary": binary, "component": component, "emulated": emulated, "minCompatibility": min_compat, "valid": False,
        "errors": errors, "warnings": [], "hints": hints or [], "features": [],
    }


def config_for_inspection(catalog: Catalog, document: InspectDocument) -> ConfigDocument:
    """The config document for the selection a ``kcompat inspect`` document found: the flags
    that were set (emulated when emulating, min compatibility when not the default)."""
    sources = document["sources"]
    gates = document["gates"]
    binary = gates["binary"] if gates is not None else None
    if binary is None:
        return _rejected(None, ["the inspect document names no binary"])
    emulating = document["emulated"] != document["binary"]
    min_compat = None if sources.get("minCompatibility", "default").startswith("default") else document["minCompatibility"]
    return config_document(
        catalog,
        binary,
        document["emulated"] if emulating else None,
        min_compat,
        document["featureGates"] or None,
        document["runtimeConfig"] or None,
        _last_bool(document.get("emulationForwardCompatible")),
        _last_bool(document.get("runtimeConfigEmulationForwardCompatible")),
    )


def _last_bool(values: str | None) -> bool:
    """A pflag boolean read from an inspect document's comma-joined values: the last one wins."""
    from ..core.flags import parse_go_bool

    if not values:
        return False
    return bool(parse_go_bool(values.split(",")[-1]))
