"""The ``kcompat config`` document, written from :class:`~kcompat.answers.config.ConfigAnswer`:
the flags of a selection for kube-apiserver, kube-controller-manager and kube-scheduler as
command lines, a kubeadm v1beta4 ``ClusterConfiguration`` patch, a kind config (top-level
``featureGates``/``runtimeConfig`` plus a ``kubeadmConfigPatches`` entry that repeats every flag)
and kubeadm static pod JSON patches (``<component>0+json.yaml``). The inspect readers read each
one back (tests/cli/test_cli_inspect.py)."""

from __future__ import annotations

import shlex

import yaml

from kcompat.answers.config import ConfigAnswer, Flags
from kcompat.documents.gates import hint_dict

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any, NotRequired, TypedDict

    from kcompat.documents.gates import HintDict

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
        verdict: str
        errors: list[str]
        notReady: list[str]
        warnings: list[str]
        hints: NotRequired[list[HintDict]]
        features: NotRequired[list[object]]
        components: NotRequired[dict[str, list[str]]]
        snippets: NotRequired[ConfigSnippets]


KUBEADM_FIELDS = {"kube-apiserver": "apiServer", "kube-controller-manager": "controllerManager", "kube-scheduler": "scheduler"}
SNIPPETS = ("cmdline", "kubeadm", "kind", "static-pod")


class _Dumper(yaml.SafeDumper):  # type: ignore[misc]  # PyYAML ships no types
    """Multi-line strings (kind's kubeadmConfigPatches) as ``|`` blocks, as people write them."""


def _str(dumper: Any, value: str) -> Any:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


_Dumper.add_representer(str, _str)


def _dump(document: object) -> str:
    text: str = yaml.dump(document, Dumper=_Dumper, sort_keys=False, default_flow_style=False, width=10_000)
    return text


def kubeadm_patch(flags: dict[str, Flags], kubernetes_version: str | None) -> str:
    doc: dict[str, object] = {"apiVersion": "kubeadm.k8s.io/v1beta4", "kind": "ClusterConfiguration"}
    if kubernetes_version:
        doc["kubernetesVersion"] = kubernetes_version
    for component, pairs in flags.items():
        if pairs:
            doc[KUBEADM_FIELDS[component]] = {"extraArgs": [{"name": n, "value": v} for n, v in pairs]}
    return _dump(doc)


def kind_config(flags: dict[str, Flags], gate_values: dict[str, bool], runtime_items: dict[str, str], kubernetes_version: str | None) -> str:
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


def static_pod_patch(component: str, pairs: Flags) -> str:
    ops = [{"op": "add", "path": "/spec/containers/0/command/-", "value": f"--{n}={v}"} for n, v in pairs]
    header = (
        f"# target: {component}0+json.yaml\n"
        f"# kubeadm --patches file for /etc/kubernetes/manifests/{component}.yaml; it appends the flags,\n"
        "# so use it on a manifest that does not set them already.\n"
    )
    return header + _dump(ops)


def config_document(answer: ConfigAnswer) -> ConfigDocument:
    """The JSON contract of ``kcompat config``: the snippets of a selection the binary accepts and
    kube-apiserver gets ready with, else the refusal (the keys of ``kcompat gates``' refusal) or
    why it would not become ready (``verdict`` "not-ready", ``notReady``, the remedies in ``hints``,
    no snippet). Each list of problems is bounded (``<key>Omitted``: how many more)."""
    from kcompat.documents.formats import bound_lists

    if not answer.valid or answer.not_ready:
        refused: ConfigDocument = {
            "binary": answer.binary, "component": answer.component, "emulated": answer.emulated, "minCompatibility": answer.min_compat,
            "valid": answer.valid,
            "verdict": answer.verdict, "errors": list(answer.errors), "notReady": list(answer.not_ready),
            "warnings": list(answer.warnings) if answer.valid else [], "hints": [hint_dict(h) for h in answer.hints], "features": [],
        }
        return bound_lists(refused)
    flags = dict(answer.flags)
    document: ConfigDocument = {
        "binary": answer.binary,
        "component": answer.component,
        "emulated": answer.emulated,
        "minCompatibility": answer.min_compat,
        "valid": True,
        "verdict": "starts",
        "errors": [],
        "notReady": [],
        "warnings": list(answer.warnings),
        "components": {c: [f"--{n}={v}" for n, v in pairs] for c, pairs in flags.items()},
        "snippets": {
            "cmdline": "\n".join(shlex.join([c] + [f"--{n}={v}" for n, v in pairs]) for c, pairs in flags.items()) + "\n",
            "kubeadm": kubeadm_patch(flags, answer.tag),
            "kind": kind_config(flags, dict(answer.gate_values), dict(answer.runtime_items), answer.tag),
            "static-pod": {f"{c}0+json.yaml": static_pod_patch(c, pairs) for c, pairs in flags.items() if pairs},
        },
    }
    return bound_lists(document)
