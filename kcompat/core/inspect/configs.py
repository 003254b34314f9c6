"""YAML inputs: static pod manifests, kubeadm ``ClusterConfiguration`` (v1beta3, v1beta4),
kind ``Cluster`` configs and kubeadm static pod JSON patches (``kube-apiserver0+json.yaml``).

Every document is parsed with the project's safe YAML reader (no anchors or aliases, bounded
size). Shapes follow the real types: kubeadm ``cmd/kubeadm/app/apis/kubeadm/v1beta3``
(``ControlPlaneComponent.ExtraArgs map[string]string``) and ``v1beta4`` (``ExtraArgs []Arg``
with ``name``/``value``); kind ``pkg/apis/config/v1alpha4`` (``FeatureGates map[string]bool``,
``RuntimeConfig map[string]string``, ``KubeadmConfigPatches []string``, ``Node.Image``);
kubeadm ``--patches`` files (``<component>[suffix]+json.yaml``: RFC 6902 operations).

Scalars are typed as Go's YAML reader types them (:class:`~kcompat.core.safe_yaml.GoScalar`): a
string field written ``1.30`` or ``true`` is refused with the decoder's own error, as kubeadm
and the kubelet refuse the file, never read as "1.3". A static pod's ``$(VAR)`` references are
expanded from the container's ``env`` as the kubelet does, and a shell script in its ``command``
is read (:func:`.cmdline.find_invocation`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import KcompatError, cut
from ..safe_yaml import GoScalar, read_yaml_text
from . import messages
from .cmdline import component_of, find_invocation, flags_from_args
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
    UnusableVersion,
    Where,
)
from .shell import Undefined, Unknown, Value, kubelet_expand, kubelet_left_as_written

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
        return read_yaml_text("\n" * (start - 1) + text, source, MAX_DOCUMENT_BYTES + start, go_scalars=True)
    except InspectError:
        raise
    except KcompatError as exc:
        raise InspectError(str(exc)) from None


def read_yaml_inputs(text: str, source: str) -> Reading:
    """Every document of a YAML file: what each says about the control plane, merged."""
    binary: list[Fact] = []
    unusable: list[UnusableVersion] = []
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
            pod = read_static_pod(doc, lines, where)
            binary += pod.binary
            unusable += pod.unusable
            sets += pod.sets
            notes += pod.notes
            kinds.append("static pod manifest")
        elif kind == "ClusterConfiguration" and isinstance(api, str) and api.startswith(KUBEADM_GROUP):
            config = read_cluster_configuration(doc, lines, where)
            binary += config.binary
            unusable += config.unusable
            sets += config.sets
            notes += config.notes
            kinds.append(f"kubeadm ClusterConfiguration {api.removeprefix(KUBEADM_GROUP)}")
        elif kind == "Cluster" and api == KIND_API:
            cluster = read_kind_cluster(doc, lines, where)
            binary += cluster.binary
            unusable += cluster.unusable
            sets += cluster.sets
            notes += cluster.notes
            kinds.append("kind Cluster")
        elif (kind in KUBEADM_OTHER_KINDS and isinstance(api, str) and api.startswith(KUBEADM_GROUP)) or kind in OTHER_CONFIG_KINDS:
            notes.append(f"{where}: {kind} says nothing about the control-plane flags kcompat reads; skipped")
        else:
            raise InspectError(
                f"{where}: unsupported document (apiVersion {api!r}, kind {kind!r}); expected a static Pod (v1), "
                f"a kubeadm ClusterConfiguration ({', '.join(KUBEADM_GROUP + v for v in KUBEADM_VERSIONS)}) "
                f"or a kind Cluster ({KIND_API})"
            )
    if not sets and not binary and not unusable:
        raise InspectError(f"{source}: no control-plane component described (only {', '.join(notes) or 'other documents'})")
    return Reading(
        source, " + ".join(dict.fromkeys(kinds)) or "YAML", binary=tuple(binary), flag_sets=tuple(sets), notes=tuple(notes),
        unusable_binary=tuple(unusable),
    )


@dataclass
class _Found:
    """What one document says: binary versions, those that name no release, flag sets, notes."""

    binary: list[Fact] = field(default_factory=list)
    unusable: list[UnusableVersion] = field(default_factory=list)
    sets: list[FlagSet] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _kind_of(value: object) -> str:
    if isinstance(value, GoScalar):
        return f"a {'number' if value.kind == 'number' else 'boolean'} ({cut(value.text)})"
    return {dict: "a mapping", list: "a list", str: "a string", type(None): "nothing"}.get(type(value), type(value).__name__)


def _json_kind(value: object) -> str:
    """What Go's encoding/json calls a YAML value that is not a string (the start of its type error)."""
    if isinstance(value, GoScalar):
        return value.kind
    return "object" if isinstance(value, dict) else "array" if isinstance(value, list) else "string"


def _go_string(value: object, at: Where, decoder: str, struct: str, field_path: str, key: str, line_offset: int = 0) -> str:
    """A value a Kubernetes type decodes as a Go string: a YAML string, or null (""). Anything
    else is refused with the decoder's own error (``decoder``: "kubeadm" or "kubelet"), at the
    value's own line when the YAML reader knows it."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    line = value.line + line_offset if isinstance(value, GoScalar) else at.line
    shown = value if isinstance(value, GoScalar) else GoScalar(_json_kind(value), value, _kind_of(value), line or 0)
    render = messages.kubeadm_type_error if decoder == "kubeadm" else messages.kubelet_type_error
    raise InspectError(render(Where(at.file, line), shown, struct, field_path, f"{key}: {cut(shown.text)}"))


def _str_list(value: object, where: Where, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InspectError(f"{where}: {what} must be a list of strings, found {_kind_of(value)}")
    return value


def _container_strings(value: object, where: Where, field_name: str) -> list[str]:
    """A container's ``command`` or ``args`` as the kubelet decodes it ([]string)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise InspectError(f"{where}: container {field_name} must be a list of strings, found {_kind_of(value)}")
    return [_go_string(item, where, "kubelet", "Container", f"spec.containers.{field_name}", f"{field_name} item") for item in value]


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


def image_binary(image: str, at: Where, what: str) -> Fact | UnusableVersion:
    """The binary an image names: its tag, or why it names none (a digest alone, no tag)."""
    tag = image_version(image)
    if tag:
        return Fact(tag, at, f"{what} {image}")
    if "@" in image:
        return UnusableVersion(at, f"{what} {image}", messages.IMAGE_BY_DIGEST)
    return UnusableVersion(at, f"{what} {image}", messages.IMAGE_WITHOUT_TAG)


def _value_from(source: object) -> str:
    """A ``valueFrom`` as one phrase: ``configMapKeyRef kube-flags/emu``, ``fieldRef status.podIP``."""
    if not isinstance(source, dict) or not source:
        return "valueFrom"
    kind, ref = next(iter(source.items()))
    if isinstance(ref, dict):
        named = "/".join(str(ref[k]) for k in ("name", "volumeName", "path", "key", "fieldPath", "resource") if isinstance(ref.get(k), str))
        return f"{kind} {cut(named)}".strip()
    return str(kind)


def container_environment(container: dict[str, Any], where: Where) -> tuple[dict[str, Value], Undefined, Undefined]:
    """The container's environment as the kubelet builds it (``makeEnvironmentVariables``):
    ``env`` in order, each ``value`` expanded with the variables before it; a ``valueFrom`` or an
    ``envFrom`` is not in the inputs. Returns the variables, what an undefined ``$(NAME)`` is to
    the kubelet (as written, unless an envFrom may define it) and to a shell (unknown)."""
    sources = []
    env_from = container.get("envFrom")
    if isinstance(env_from, list):
        for item in env_from:
            if isinstance(item, dict):
                ref = next((k for k in ("configMapRef", "secretRef") if isinstance(item.get(k), dict)), None)
                if ref is not None:
                    sources.append(f"{ref} {cut(item[ref].get('name', ''))}")
    from_env = ", ".join(sources)

    def kubelet_undefined(name: str) -> Unknown | None:
        return Unknown(name, messages.from_env_from(name, from_env)) if from_env else None

    def shell_undefined(name: str) -> Unknown | None:
        return Unknown(name, messages.from_env_from(name, from_env) if from_env else messages.unset_in_container(name))

    variables: dict[str, Value] = {}
    env = container.get("env")
    if env is not None and not isinstance(env, list):
        raise InspectError(f"{where}: container env must be a list of name/value, found {_kind_of(env)}")
    for item in env or []:
        if not isinstance(item, dict):
            continue
        name = _go_string(item.get("name"), where, "kubelet", "EnvVar", "spec.containers.env.name", "name")
        value = _go_string(item.get("value"), where, "kubelet", "EnvVar", "spec.containers.env.value", "value")
        if value:
            word = kubelet_expand(value, variables, kubelet_undefined)
            variables[name] = word.text if word.is_known else Unknown(name, word.unknown[0].why)
        elif item.get("valueFrom") is not None:
            variables[name] = Unknown(name, messages.from_value_from(name, _value_from(item.get("valueFrom"))))
        else:
            variables[name] = ""
    return variables, kubelet_undefined, shell_undefined


def read_static_pod(doc: dict[str, Any], lines: Lines, where: Where) -> _Found:
    """A kubeadm static pod (``/etc/kubernetes/manifests/kube-apiserver.yaml``): the container
    running a control-plane binary, its image tag and the flags of what its ``command`` +
    ``args`` run once the kubelet has expanded ``$(VAR)`` (a shell script included)."""
    spec = doc.get("spec")
    containers = spec.get("containers") if isinstance(spec, dict) else None
    if not isinstance(containers, list):
        raise InspectError(f"{where}: Pod has no spec.containers list")
    start = lines.find("containers:", where.line) or where.line
    for container in containers:
        if not isinstance(container, dict):
            continue
        command = _container_strings(container.get("command"), where, "command")
        args = _container_strings(container.get("args"), where, "args")
        image = _go_string(container.get("image"), where, "kubelet", "Container", "spec.containers.image", "image")
        names = [command[0] if command else "", str(container.get("name", "")), image.split("@")[0].split(":")[0]]
        named = next((c for c in map(component_of, names) if c), None)
        raw = command + args
        if named is None and not any(component_of(w) for w in raw[1:]) and not any(c in " ".join(raw) for c in CONTROL_PLANE):
            continue
        variables, kubelet_undefined, shell_undefined = container_environment(container, where)
        word_lines = _word_lines(lines, raw, start)
        words = [kubelet_expand(w, variables, kubelet_undefined, line) for w, line in zip(raw, word_lines, strict=False)]
        found = find_invocation(words, where, variables, shell_undefined)
        component = found.component or named
        if component is None:
            continue
        program = lines.find(f"- {command[0]}", start) if command else None
        at = Where(where.file, program or lines.find(f"name: {container.get('name')}", start) or where.line)
        result = _Found(notes=list(found.notes))
        for word in words:
            for name in kubelet_left_as_written(word.written, variables):
                if kubelet_undefined(name) is None:
                    result.notes.append(messages.kubelet_left_as_written(Where(where.file, word.line), name))
        if found.component is not None:
            flag_set = flags_from_args(list(found.args), component, found.where or at)
        elif found.unread:
            flag_set = FlagSet(component, (), at, unread=found.unread)
        else:  # the image's own entrypoint, or a program kcompat does not know: the flags among the words
            flag_set = flags_from_args(words, component, at)
        result.sets.append(flag_set)
        if image:
            version = image_binary(image, Where(where.file, lines.find(image, where.line)), "image")
            (result.binary if isinstance(version, Fact) else result.unusable).append(version)  # type: ignore[arg-type]
        return result
    raise InspectError(f"{where}: no container runs {', '.join(CONTROL_PLANE)} (by command, name or image)")


#: The Go struct and JSON path of each component's ``extraArgs`` (APIServer embeds
#: ControlPlaneComponent inline, so the embedded struct's name is in the path: encoding/json's
#: error context).
_EXTRA_ARGS_PATHS = {
    "apiServer": ("APIServer", "apiServer.ControlPlaneComponent.extraArgs"),
    "controllerManager": ("ControlPlaneComponent", "controllerManager.extraArgs"),
    "scheduler": ("ControlPlaneComponent", "scheduler.extraArgs"),
}
#: kubeadm's version labels (``kubeReleaseLabelRegex`` in cmd/kubeadm/app/util/version.go, with
#: the ``ci/`` and ``release/`` prefixes): resolved from dl.k8s.io when kubeadm runs.
_KUBEADM_LABEL = re.compile(r"^(?:(?:ci|release)/)?(?:latest|stable)(?:-([1-9])(?:\.([0-9]{1,2}))?)?$")


def _extra_args(value: object, api_version: str, where: Where, field_name: str, line_offset: int = 0) -> list[tuple[str, str, int | None]]:
    """``extraArgs`` as (name, value, line) triples: a map in v1beta3, a list of name/value in
    v1beta4; every value typed as kubeadm decodes it (a string, or null for "")."""
    if value is None:
        return []
    struct, path = _EXTRA_ARGS_PATHS.get(field_name, ("ControlPlaneComponent", f"{field_name}.extraArgs"))
    if api_version == "v1beta3" or (api_version == "" and isinstance(value, dict)):
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise InspectError(f"{where}: {field_name}.extraArgs must be a map of flag name to value in kubeadm v1beta3, found {_kind_of(value)}")
        return [
            (k, _go_string(v, where, "kubeadm", struct, path, k, line_offset), v.line + line_offset if isinstance(v, GoScalar) else None)
            for k, v in value.items()
        ]
    if not isinstance(value, list):
        raise InspectError(f"{where}: {field_name}.extraArgs must be a list of name/value in kubeadm v1beta4, found {_kind_of(value)}")
    pairs: list[tuple[str, str, int | None]] = []
    for item in value:
        if not isinstance(item, dict) or "name" not in item:
            raise InspectError(f"{where}: each {field_name}.extraArgs item must have a name and a value (kubeadm v1beta4)")
        name = _go_string(item["name"], where, "kubeadm", "Arg", f"{path}.name", "name", line_offset)
        arg = _go_string(item.get("value"), where, "kubeadm", "Arg", f"{path}.value", "value", line_offset)
        pairs.append((name, arg, None))
    return pairs


def _kind_string(value: object, where: Where, what: str) -> str:
    """A value kind reads into a Go string: sigs.k8s.io/yaml's Unmarshal with the target type
    turns a YAML number or boolean into its text (``convertToJSONableObject``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, GoScalar):
        if value.kind == "bool":
            return "true" if value.value else "false"
        return str(value.value) if not isinstance(value.value, float) or not value.value.is_integer() else str(int(value.value))
    raise InspectError(f"{where}: {what} must be a string, found {_kind_of(value)}")


def _pairs_to_flags(pairs: list[tuple[str, str, int | None]], component: str, lines: Lines, where: Where, complete: bool = True) -> FlagSet:
    found = []
    for name, value, line in pairs:
        name = name.removeprefix("--")
        if name in FLAGS:
            line = line or lines.find(name, where.line) or where.line
            found.append((name, Fact(value, Where(where.file, line), f"{name}: {value}")))
    return FlagSet(component, tuple(found), where, complete)


def read_cluster_configuration(doc: dict[str, Any], lines: Lines, where: Where, patch: bool = False, line_offset: int = 0) -> _Found:
    """kubeadm ``ClusterConfiguration``: ``kubernetesVersion`` and each component's ``extraArgs``.
    ``line_offset`` is added to the lines the YAML reader gives (a kind patch is its own text)."""
    api = str(doc.get("apiVersion", "")).removeprefix(KUBEADM_GROUP)
    if api and api not in KUBEADM_VERSIONS:
        raise InspectError(f"{where}: kubeadm {api} is not read (kubeadm releases with --emulated-version use {' or '.join(KUBEADM_VERSIONS)})")
    found = _Found()
    version = _go_string(doc.get("kubernetesVersion"), where, "kubeadm", "ClusterConfiguration", "kubernetesVersion", "kubernetesVersion", line_offset)
    if version:
        at = Where(where.file, lines.find("kubernetesVersion", where.line))
        label = _KUBEADM_LABEL.match(version)
        if label is None:
            found.binary.append(Fact(version, at, f"kubernetesVersion: {version}"))
        elif label.group(2) is not None:
            release = f"{label.group(1)}.{int(label.group(2))}"
            found.binary.append(Fact(release, at, messages.kubeadm_label_release(version, release)))
        else:
            found.unusable.append(UnusableVersion(at, f"kubernetesVersion: {version}", messages.kubeadm_label(version)))
    if doc.get("featureGates"):
        found.notes.append(f"{where}: ClusterConfiguration featureGates are kubeadm's own gates, not the components'; skipped")
    for field_name, component in KUBEADM_COMPONENTS.items():
        section = doc.get(field_name)
        if section is None:
            continue
        if not isinstance(section, dict):
            raise InspectError(f"{where}: {field_name} must be a mapping, found {_kind_of(section)}")
        pairs = _extra_args(section.get("extraArgs"), api, where, field_name, line_offset)
        found.sets.append(_pairs_to_flags(pairs, component, lines, where, complete=not patch))
    if not patch:
        # a component without a section runs with no extra flags
        named = {s.component for s in found.sets}
        found.sets += [FlagSet(c, (), where) for c in KUBEADM_COMPONENTS.values() if c not in named]
    return found


def read_kind_cluster(doc: dict[str, Any], lines: Lines, where: Where) -> _Found:  # noqa: C901 - the checks in the order the real code runs them, kept in one place
    """kind ``Cluster``: ``featureGates`` (every component), ``runtimeConfig`` (kube-apiserver),
    ``kubeadmConfigPatches`` (ClusterConfiguration extraArgs) and the control-plane node image."""
    found = _Found()
    gates_line = lines.find("featureGates", where.line) or where.line
    gates = doc.get("featureGates") or {}
    if not isinstance(gates, dict):
        raise InspectError(f"{Where(where.file, gates_line)}: featureGates must map gate names to true or false, found {_kind_of(gates)}")
    states = []
    for gate, state in gates.items():
        if not (isinstance(state, GoScalar) and state.kind == "bool"):
            line = state.line if isinstance(state, GoScalar) else lines.find(str(gate), gates_line) or gates_line
            raise InspectError(
                f"{Where(where.file, line)}: featureGates must map gate names to true or false, "
                f"found {cut(str(gate))}: {_kind_of(state)}"
            )
        states.append(f"{gate}={'true' if state.value else 'false'}")
    runtime = doc.get("runtimeConfig") or {}
    if not isinstance(runtime, dict):
        raise InspectError(f"{where}: runtimeConfig must map API names to values")
    base: dict[str, list[tuple[str, Fact]]] = {c: [] for c in CONTROL_PLANE}
    if states:
        value = ",".join(states)
        fact = Fact(value, Where(where.file, gates_line), f"featureGates: {value}")
        for c in CONTROL_PLANE:
            base[c].append((FEATURE_GATES, fact))
    if runtime:
        value = ",".join(f"{k}={_kind_string(v, where, 'runtimeConfig.' + str(k))}" for k, v in runtime.items())
        base["kube-apiserver"].append((RUNTIME_CONFIG, Fact(value, Where(where.file, lines.find("runtimeConfig", where.line)), f"runtimeConfig: {value}")))
    nodes = doc.get("nodes") or []
    if not isinstance(nodes, list):
        raise InspectError(f"{where}: nodes must be a list")
    lines.start_at(lines.find("nodes", where.line) or where.line)
    for node in nodes:
        if isinstance(node, dict) and node.get("role", "control-plane") == "control-plane" and isinstance(node.get("image"), str):
            version = image_binary(node["image"], Where(where.file, lines.next(node["image"]) or where.line), "node image")
            (found.binary if isinstance(version, Fact) else found.unusable).append(version)  # type: ignore[arg-type]
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
        offset = (start or 1) - 1 - next((i for i, line in enumerate(patch.splitlines()) if line.strip()), 0)
        patched = read_cluster_configuration(pdoc, lines, Where(where.file, start), patch=True, line_offset=offset)
        found.notes += patched.notes
        for pset in patched.sets:
            replaced = {name for name, _ in pset.flags}
            # a merge patch replaces the keys (v1beta3) or the whole list (v1beta4) it names
            kept = [] if pset.flags and isinstance((pdoc.get(_field_of(pset.component)) or {}).get("extraArgs"), list) else [
                (n, f) for n, f in base[pset.component] if n not in replaced
            ]
            base[pset.component] = kept + list(pset.flags)
    if doc.get("kubeadmConfigPatchesJSON6902"):
        found.notes.append(f"{where}: kubeadmConfigPatchesJSON6902 is not read")
    found.sets = [FlagSet(c, tuple((n, f) for n, f in flags if c == "kube-apiserver" or n not in APISERVER_ONLY), where) for c, flags in base.items()]
    return found


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
