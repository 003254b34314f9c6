"""YAML inputs: static pod manifests, kubeadm ``ClusterConfiguration`` (v1beta3, v1beta4),
kind ``Cluster`` configs and kubeadm static pod JSON patches (``kube-apiserver0+json.yaml``).

Every document is parsed with the project's safe YAML reader (no anchors or aliases, bounded
size). Shapes follow the real types: kubeadm ``cmd/kubeadm/app/apis/kubeadm/v1beta3``
(``ControlPlaneComponent.ExtraArgs map[string]string``) and ``v1beta4`` (``ExtraArgs []Arg``
with ``name``/``value``); kind ``pkg/apis/config/v1alpha4`` (``FeatureGates map[string]bool``,
``RuntimeConfig map[string]string``, ``KubeadmConfigPatches []string``, ``Node.Image``);
kubeadm ``--patches`` files (``<component>[suffix]+json.yaml``: RFC 6902 operations).
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..errors import KcompatError
from ..safe_yaml import read_yaml_text
from .cmdline import component_of, flags_from_args
from .model import (
    APISERVER_ONLY,
    CONTROL_PLANE,
    FEATURE_GATES,
    FLAGS,
    MAX_DOCUMENT_BYTES,
    MAX_DOCUMENTS,
    MAX_YAML_BYTES,
    RUNTIME_CONFIG,
    Fact,
    FlagSet,
    InspectError,
    Lines,
    Reading,
    Where,
)

KUBEADM_GROUP = "kubeadm.k8s.io/"
KUBEADM_VERSIONS = ("v1beta3", "v1beta4")
KIND_API = "kind.x-k8s.io/v1alpha4"
#: ClusterConfiguration field -> component.
KUBEADM_COMPONENTS = {"apiServer": "kube-apiserver", "controllerManager": "kube-controller-manager", "scheduler": "kube-scheduler"}
#: kubeadm kinds that say nothing about the control-plane flags kcompat reads.
KUBEADM_OTHER_KINDS = ("InitConfiguration", "JoinConfiguration", "UpgradeConfiguration", "ResetConfiguration")
OTHER_CONFIG_KINDS = ("KubeletConfiguration", "KubeProxyConfiguration")
_DOC_START = re.compile(r"^---(\s.*)?$")
_PATCH_FILE = re.compile(r"^(kube-apiserver|kube-controller-manager|kube-scheduler)[^+]*\+json\.(ya?ml|json)$")
_PATCH_PATH = re.compile(r"^/spec/containers/(\d+)/(command|args)/(-|\d+)$")


def split_documents(text: str) -> list[tuple[int, str]]:
    """The YAML documents of a stream with the line each starts on (``---`` separators)."""
    docs: list[tuple[int, str]] = []
    start, content = 1, False
    lines: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("---") and _DOC_START.match(line):
            if content:
                docs.append((start, "\n".join(lines)))
            start, lines = number + 1, [line[3:]] if line[3:].strip() else []
            content = bool(lines) and not lines[0].lstrip().startswith("#")
            continue
        lines.append(line)
        content = content or bool(line.strip() and not line.lstrip().startswith("#"))
    if content:
        docs.append((start, "\n".join(lines)))
    return docs


def load_document(text: str, start: int, source: str) -> object:
    """One YAML document, parsed safely, with error lines counted from the file's first line."""
    try:
        return read_yaml_text("\n" * (start - 1) + text, source, MAX_DOCUMENT_BYTES + start)
    except InspectError:
        raise
    except KcompatError as exc:
        raise InspectError(str(exc)) from None


def read_yaml_inputs(text: str, source: str) -> Reading:
    """Every document of a YAML file: what each says about the control plane, merged."""
    binary: list[Fact] = []
    sets: list[FlagSet] = []
    notes: list[str] = []
    kinds: list[str] = []
    size = len(text.encode())
    if size > MAX_YAML_BYTES:
        raise InspectError(f"{source}: {size:,} bytes of YAML, larger than the limit of {MAX_YAML_BYTES:,} bytes (a static pod manifest or a config is a few kB)")
    docs = split_documents(text)
    if not docs:
        raise InspectError(f"{source}: empty YAML file")
    if len(docs) > MAX_DOCUMENTS:
        raise InspectError(f"{source}: {len(docs):,} YAML documents, more than the limit of {MAX_DOCUMENTS}")
    lines = Lines(text)
    for start, doc_text in docs:
        doc = load_document(doc_text, start, source)
        where = Where(source, start)
        if isinstance(doc, list) and doc and all(isinstance(op, dict) and "op" in op for op in doc):
            sets.append(read_static_pod_patch(doc, lines, where, doc_text))
            kinds.append("static pod patch")
            continue
        if not isinstance(doc, dict):
            raise InspectError(f"{where}: expected a YAML mapping with apiVersion and kind, found {_kind_of(doc)}")
        api, kind = doc.get("apiVersion"), doc.get("kind")
        if kind == "Pod" and api == "v1":
            found_binary, flag_set = read_static_pod(doc, lines, where)
            binary += found_binary
            sets.append(flag_set)
            kinds.append("static pod manifest")
        elif kind == "ClusterConfiguration" and isinstance(api, str) and api.startswith(KUBEADM_GROUP):
            found_binary, found_sets, found_notes = read_cluster_configuration(doc, lines, where)
            binary += found_binary
            sets += found_sets
            notes += found_notes
            kinds.append(f"kubeadm ClusterConfiguration {api.removeprefix(KUBEADM_GROUP)}")
        elif kind == "Cluster" and api == KIND_API:
            found_binary, found_sets, found_notes = read_kind_cluster(doc, lines, where)
            binary += found_binary
            sets += found_sets
            notes += found_notes
            kinds.append("kind Cluster")
        elif (kind in KUBEADM_OTHER_KINDS and isinstance(api, str) and api.startswith(KUBEADM_GROUP)) or kind in OTHER_CONFIG_KINDS:
            notes.append(f"{where}: {kind} says nothing about the control-plane flags kcompat reads; skipped")
        else:
            raise InspectError(
                f"{where}: unsupported document (apiVersion {api!r}, kind {kind!r}); expected a static Pod (v1), "
                f"a kubeadm ClusterConfiguration ({', '.join(KUBEADM_GROUP + v for v in KUBEADM_VERSIONS)}) "
                f"or a kind Cluster ({KIND_API})"
            )
    if not sets and not binary:
        raise InspectError(f"{source}: no control-plane component described (only {', '.join(notes) or 'other documents'})")
    return Reading(source, " + ".join(dict.fromkeys(kinds)) or "YAML", binary=tuple(binary), flag_sets=tuple(sets), notes=tuple(notes))


def _kind_of(value: object) -> str:
    return {dict: "a mapping", list: "a list", str: "a string", type(None): "nothing"}.get(type(value), type(value).__name__)


def _str_list(value: object, where: Where, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InspectError(f"{where}: {what} must be a list of strings, found {_kind_of(value)}")
    return value


def _word_lines(lines: Lines, words: list[str], start: int | None) -> list[int | None]:
    """The line of each word of a YAML list, searched in order from ``start`` (each search
    bounded: a word written differently, escaped or folded, keeps the line before it)."""
    found_lines: list[int | None] = []
    at = start
    lines.start_at(start)
    for word in words:
        found = lines.next(word)
        if found is not None:
            at = found
        found_lines.append(at)
    return found_lines


def image_version(image: str) -> str | None:
    """The tag of an image reference (``registry.k8s.io/kube-apiserver:v1.36.2`` -> v1.36.2)."""
    ref = image.split("@", 1)[0]
    last = ref.rsplit("/", 1)[-1]
    return last.split(":", 1)[1] if ":" in last else None


def read_static_pod(doc: dict[str, Any], lines: Lines, where: Where) -> tuple[list[Fact], FlagSet]:
    """A kubeadm static pod (``/etc/kubernetes/manifests/kube-apiserver.yaml``): the container
    running a control-plane binary, its image tag and its ``command`` + ``args`` flags."""
    spec = doc.get("spec")
    containers = spec.get("containers") if isinstance(spec, dict) else None
    if not isinstance(containers, list):
        raise InspectError(f"{where}: Pod has no spec.containers list")
    for container in containers:
        if not isinstance(container, dict):
            continue
        command = _str_list(container.get("command"), where, "container command")
        args = _str_list(container.get("args"), where, "container args")
        raw_image = container.get("image")
        image = raw_image if isinstance(raw_image, str) else ""
        names = [command[0] if command else "", str(container.get("name", "")), image.split("@")[0].split(":")[0]]
        component = next((c for c in map(component_of, names) if c), None)
        if component is None:
            continue
        words = (command[1:] if command and component_of(command[0]) else command) + args
        start = lines.find("containers:", where.line) or where.line
        program = lines.find(f"- {command[0]}", start) if command else None
        at = Where(where.file, program or lines.find(f"name: {container.get('name')}", start) or where.line)
        flag_set = flags_from_args(words, component, at, _word_lines(lines, words, start))
        binary = []
        tag = image_version(image) if image else None
        if tag:
            binary.append(Fact(tag, Where(where.file, lines.find(image, where.line)), f"image {image}"))
        return binary, flag_set
    raise InspectError(f"{where}: no container runs {', '.join(CONTROL_PLANE)} (by command, name or image)")


def _extra_args(value: object, api_version: str, where: Where, field: str) -> list[tuple[str, str]]:
    """``extraArgs`` as (name, value) pairs: a map in v1beta3, a list of name/value in v1beta4."""
    if value is None:
        return []
    if api_version == "v1beta3" or (api_version == "" and isinstance(value, dict)):
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise InspectError(f"{where}: {field}.extraArgs must be a map of flag name to value in kubeadm v1beta3, found {_kind_of(value)}")
        return [(k, _arg_value(v, where, f"{field}.extraArgs.{k}")) for k, v in value.items()]
    if not isinstance(value, list):
        raise InspectError(f"{where}: {field}.extraArgs must be a list of name/value in kubeadm v1beta4, found {_kind_of(value)}")
    pairs = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise InspectError(f"{where}: each {field}.extraArgs item must have a name and a value (kubeadm v1beta4)")
        pairs.append((item["name"], _arg_value(item.get("value", ""), where, f"{field}.extraArgs {item['name']}")))
    return pairs


def _arg_value(value: object, where: Where, what: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    raise InspectError(f"{where}: {what} must be a string, found {_kind_of(value)}")


def _pairs_to_flags(pairs: list[tuple[str, str]], component: str, lines: Lines, where: Where, complete: bool = True) -> FlagSet:
    found = []
    for name, value in pairs:
        name = name.removeprefix("--")
        if name in FLAGS:
            line = lines.find(name, where.line) or where.line
            found.append((name, Fact(value, Where(where.file, line), f"{name}: {value}")))
    return FlagSet(component, tuple(found), where, complete)


def read_cluster_configuration(doc: dict[str, Any], lines: Lines, where: Where, patch: bool = False) -> tuple[list[Fact], list[FlagSet], list[str]]:
    """kubeadm ``ClusterConfiguration``: ``kubernetesVersion`` and each component's ``extraArgs``."""
    api = str(doc.get("apiVersion", "")).removeprefix(KUBEADM_GROUP)
    if api and api not in KUBEADM_VERSIONS:
        raise InspectError(f"{where}: kubeadm {api} is not read (kubeadm releases with --emulated-version use {' or '.join(KUBEADM_VERSIONS)})")
    binary, sets, notes = [], [], []
    version = doc.get("kubernetesVersion")
    if isinstance(version, str) and version:
        binary.append(Fact(version, Where(where.file, lines.find("kubernetesVersion", where.line)), f"kubernetesVersion: {version}"))
    if doc.get("featureGates"):
        notes.append(f"{where}: ClusterConfiguration featureGates are kubeadm's own gates, not the components'; skipped")
    for field, component in KUBEADM_COMPONENTS.items():
        section = doc.get(field)
        if section is None:
            continue
        if not isinstance(section, dict):
            raise InspectError(f"{where}: {field} must be a mapping, found {_kind_of(section)}")
        pairs = _extra_args(section.get("extraArgs"), api, where, field)
        sets.append(_pairs_to_flags(pairs, component, lines, where, complete=not patch))
    if not patch:
        # a component without a section runs with no extra flags
        named = {s.component for s in sets}
        sets += [FlagSet(c, (), where) for c in KUBEADM_COMPONENTS.values() if c not in named]
    return binary, sets, notes


def read_kind_cluster(doc: dict[str, Any], lines: Lines, where: Where) -> tuple[list[Fact], list[FlagSet], list[str]]:  # noqa: C901 - one pass over the kind config's fields, each read where it stands
    """kind ``Cluster``: ``featureGates`` (every component), ``runtimeConfig`` (kube-apiserver),
    ``kubeadmConfigPatches`` (ClusterConfiguration extraArgs) and the control-plane node image."""
    notes: list[str] = []
    gates = doc.get("featureGates") or {}
    if not isinstance(gates, dict) or not all(isinstance(v, bool) for v in gates.values()):
        raise InspectError(f"{where}: featureGates must map gate names to true or false")
    runtime = doc.get("runtimeConfig") or {}
    if not isinstance(runtime, dict):
        raise InspectError(f"{where}: runtimeConfig must map API names to values")
    base: dict[str, list[tuple[str, Fact]]] = {c: [] for c in CONTROL_PLANE}
    if gates:
        value = ",".join(f"{k}={'true' if v else 'false'}" for k, v in gates.items())
        fact = Fact(value, Where(where.file, lines.find("featureGates", where.line)), f"featureGates: {value}")
        for c in CONTROL_PLANE:
            base[c].append((FEATURE_GATES, fact))
    if runtime:
        value = ",".join(f"{k}={_arg_value(v, where, 'runtimeConfig.' + str(k))}" for k, v in runtime.items())
        base["kube-apiserver"].append((RUNTIME_CONFIG, Fact(value, Where(where.file, lines.find("runtimeConfig", where.line)), f"runtimeConfig: {value}")))
    binary: list[Fact] = []
    nodes = doc.get("nodes") or []
    if not isinstance(nodes, list):
        raise InspectError(f"{where}: nodes must be a list")
    lines.start_at(lines.find("nodes", where.line) or where.line)
    for node in nodes:
        if isinstance(node, dict) and node.get("role", "control-plane") == "control-plane" and isinstance(node.get("image"), str):
            tag = image_version(node["image"])
            if tag:
                binary.append(Fact(tag, Where(where.file, lines.next(node["image"]) or where.line), f"node image {node['image']}"))
    patches = _str_list(doc.get("kubeadmConfigPatches"), where, "kubeadmConfigPatches")
    if len(patches) > MAX_DOCUMENTS:
        raise InspectError(f"{where}: {len(patches):,} kubeadmConfigPatches, more than the limit of {MAX_DOCUMENTS}")
    lines.start_at(lines.find("kubeadmConfigPatches", where.line) or where.line)
    for patch in patches:
        first = patch.strip().splitlines()[0] if patch.strip() else ""
        start = lines.next(first) or lines.find("kubeadmConfigPatches", where.line) or where.line
        pdoc = load_document(patch, 1, f"{where.file} kubeadmConfigPatches (line {start})")
        if not isinstance(pdoc, dict):
            raise InspectError(f"{where.file} line {start}: a kubeadmConfigPatches entry must be a YAML mapping")
        if pdoc.get("kind") != "ClusterConfiguration":
            continue
        _, psets, pnotes = read_cluster_configuration(pdoc, lines, Where(where.file, start), patch=True)
        notes += pnotes
        for pset in psets:
            replaced = {name for name, _ in pset.flags}
            # a merge patch replaces the keys (v1beta3) or the whole list (v1beta4) it names
            kept = [] if pset.flags and isinstance((pdoc.get(_field_of(pset.component)) or {}).get("extraArgs"), list) else [
                (n, f) for n, f in base[pset.component] if n not in replaced
            ]
            base[pset.component] = kept + list(pset.flags)
    if doc.get("kubeadmConfigPatchesJSON6902"):
        notes.append(f"{where}: kubeadmConfigPatchesJSON6902 is not read")
    sets = [FlagSet(c, tuple((n, f) for n, f in flags if c == "kube-apiserver" or n not in APISERVER_ONLY), where) for c, flags in base.items()]
    return binary, sets, notes


def _field_of(component: str) -> str:
    return next(k for k, v in KUBEADM_COMPONENTS.items() if v == component)


def patch_component(source: str) -> str | None:
    """The component a kubeadm patch file name targets (``kube-apiserver0+json.yaml``)."""
    match = _PATCH_FILE.match(os.path.basename(source))
    return match.group(1) if match else None


def read_static_pod_patch(ops: list[Any], lines: Lines, where: Where, doc_text: str = "") -> FlagSet:
    """A kubeadm ``--patches`` JSON patch adding flags to a static pod's command, e.g.
    ``- op: add / path: /spec/containers/0/command/- / value: --emulated-version=1.31``. The
    component comes from the file name (``kube-apiserver0+json.yaml``) or a ``# target:`` line."""
    component = patch_component(where.file)
    for line in (doc_text or lines.text).splitlines():
        if line.strip().startswith("# target:"):
            target = (line.split(":", 1)[1].split() or [""])[0]
            component = patch_component(target) or component_of(target) or component
    if component is None:
        raise InspectError(
            f"{where}: a JSON patch, but for which component? Name the file like kubeadm does "
            "(kube-apiserver0+json.yaml) or add a '# target: kube-apiserver' line"
        )
    words = []
    for op in ops:
        path = op.get("path")
        if op.get("op") != "add" or not isinstance(path, str) or not _PATCH_PATH.match(path):
            raise InspectError(f"{where}: only 'add' operations on /spec/containers/N/command/- are read, found {op.get('op')!r} {path!r}")
        if not isinstance(op.get("value"), str):
            raise InspectError(f"{where}: the value of a patch operation must be a flag string")
        words.append(op["value"])
    return FlagSet(component, flags_from_args(words, component, where, _word_lines(lines, words, where.line)).flags, where, complete=False)
