"""The rollback rehearsal: which objects to write, and what a rehearsal's results say about the plan.

KEP-4330 "Rollback": a binary N started with ``--emulated-version=N-1`` keeps what it stores
readable by binary N-1. ``kcompat plan`` derives each step's rollback from that rule
(:func:`kcompat.core.plan._rollback`); a rehearsal runs it on the real binaries, one etcd, in phases:

1. ``create``: binary N-1 at its own version creates the corpus (one object per resource);
2. ``emulated``: binary N with ``--emulated-version=N-1`` reads, updates every object and creates
   a second set;
3. ``rollback``: binary N-1 again reads, decodes and updates every object (the promise);
4. ``raised``: binary N at its own version with ``--min-compatibility-version=N`` (where the binary
   has the flag) updates every object and creates a third set;
5. ``unsupported-rollback``: binary N-1 reads and updates every object: a rollback the plan calls
   unsupported, recorded as the real binaries answer it (no promise to keep).

This module is pure: the corpus (:func:`build_corpus`, a hand-checked template per group/kind,
each tested against a real server by the live tests) and the judgement of a recording
(:func:`judge`). Running the servers is :mod:`kcompat.data.rehearsal_run`.

The recording (``data/oracle/<release>/rehearsal.json``, ``data/rehearsals/v1.N.json``,
``kcompat rehearse --format json``)::

    {"from": "v1.35.8", "to": "v1.36.5", "fromMinor": "1.35", "toMinor": "1.36",
     "phases": [{"name", "binary", "flags", "started", "error"?, "seconds", "noTemplate"? (the phases that create),
                 "results": [{"resource", "object", "created"?, "read", "decoded", "updated", "error"?}]}],
     "corpus": {"resources": [...], "noTemplate": [...], "notStored": [...], "required": [...]},
     "seconds"}
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: the namespace the namespaced objects of a rehearsal live in (created first, never deleted)
NAMESPACE = "kcompat-rehearse"
#: the label each update sets (its value: the phase that wrote it), read back by the next phase
LABEL = "rehearse.kcompat.example/phase"

#: the phases, in order: (name, which binary, whether the plan promises what it reads back)
PHASES: tuple[tuple[str, str, bool], ...] = (
    ("create", "from", False),
    ("emulated", "to", False),
    ("rollback", "from", True),
    ("raised", "to", False),
    ("unsupported-rollback", "from", False),
)

# A certificate request (ECDSA P-256, CN=kcompat-rehearse), base64 as CertificateSigningRequest.spec.request wants it.
_CSR = (
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIVk1IMENBUUF3R3pFWk1CY0dBMVVFQXd3UWEyTnZiWEJoZEMxeVpXaGxZWEp6WlRCWk1CTUdCeXFHU000OQpB"
    "Z0VHQ0NxR1NNNDlBd0VIQTBJQUJKMzQzOW5PMWxhZi8yRnBNaVd5bmVIOE1hS3F1SHNDSXNQNmhJa1Nrb0U2CkF2dUhsRVJhVU4vUTBaSEhWVmlNMEEvVW1veFNmUlptL3l3U1d5"
    "aWUvUzJnQURBS0JnZ3Foa2pPUFFRREFnTkkKQURCRkFpQXhDK1JyWEMxUlFoRnJQNitYWnkzNWdTOHBpVlNRdk1pcExmR0UrUVE2NkFJaEFOT0pRY2RoVG50MwpQWUFqcWM2"
    "VlB4OEVmeFlWakM2NXZIYXA5c3FTTTJveAotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K"
)

# A self-signed certificate (the same key, CN=kcompat-rehearse), as ClusterTrustBundle.spec.trustBundle wants it.
_CERTIFICATE = (
    "-----BEGIN CERTIFICATE-----\n"
    "MIIBjTCCATOgAwIBAgIUXW+FOiOfnOaVjvgQlBZ7YqSs3u8wCgYIKoZIzj0EAwIw\n"
    "GzEZMBcGA1UEAwwQa2NvbXBhdC1yZWhlYXJzZTAgFw0yNjEyMDYyMTA3MzhaGA8y\n"
    "MTI2MTExMjIxMDczOFowGzEZMBcGA1UEAwwQa2NvbXBhdC1yZWhlYXJzZTBZMBMG\n"
    "ByqGSM49AgEGCCqGSM49AwEHA0IABJ3439nO1laf/2FpMiWyneH8MaKquHsCIsP6\n"
    "hIkSkoE6AvuHlERaUN/Q0ZHHVViM0A/UmoxSfRZm/ywSWyie/S2jUzBRMB0GA1Ud\n"
    "DgQWBBSxlIpBUf+AtINgP/FUw78yTNj/+zAfBgNVHSMEGDAWgBSxlIpBUf+AtINg\n"
    "P/FUw78yTNj/+zAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQC6\n"
    "M80jsGs5srHsAfZo5mIRrhnzgqdQsdX3WPLrXk7/YQIgPo2bBUebIYEjcyzWR7zb\n"
    "NQhINbtGkDRIIVLUBEhuRSw=\n"
    "-----END CERTIFICATE-----\n"
)

_POD_SPEC: dict[str, Any] = {"containers": [{"name": "c", "image": "pause"}]}
_LABELS = {"app": "kcompat-rehearse"}
_TEMPLATE = {"metadata": {"labels": _LABELS}, "spec": _POD_SPEC}
_WORKLOAD = {"replicas": 0, "selector": {"matchLabels": _LABELS}, "template": _TEMPLATE}
_RULES = [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]}]
_ROLE_SUBJECTS = [{"kind": "User", "name": "kcompat-rehearse", "apiGroup": "rbac.authorization.k8s.io"}]
_CLAIM_SPEC = {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "kcompat-rehearse"}}]}}
_MATCH = {"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["configmaps"]}]}

#: name-independent parts of each template: group/kind -> (apiVersion, the object without metadata)
_BODIES: dict[str, tuple[str, dict[str, Any]]] = {
    "core/ConfigMap": ("v1", {"data": {"k": "v"}}),
    "core/Endpoints": ("v1", {"subsets": [{"addresses": [{"ip": "10.1.0.1"}], "ports": [{"port": 80}]}]}),
    "core/LimitRange": ("v1", {"spec": {"limits": [{"type": "Container", "max": {"cpu": "1"}}]}}),
    "core/Namespace": ("v1", {}),
    "core/Node": ("v1", {}),
    "core/PersistentVolumeClaim": ("v1", {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
    "core/PersistentVolume": ("v1", {"spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/tmp/kcompat"}}}),
    "core/Pod": ("v1", {"spec": _POD_SPEC}),
    "core/PodTemplate": ("v1", {"template": _TEMPLATE}),
    "core/ReplicationController": ("v1", {"spec": {"replicas": 0, "selector": _LABELS, "template": _TEMPLATE}}),
    "core/ResourceQuota": ("v1", {"spec": {"hard": {"pods": "10"}}}),
    "core/Secret": ("v1", {"data": {"k": "dg=="}}),
    "core/ServiceAccount": ("v1", {}),
    "core/Service": ("v1", {"spec": {"ports": [{"port": 80}]}}),
    "admissionregistration.k8s.io/MutatingWebhookConfiguration": ("admissionregistration.k8s.io/v1", {}),
    "admissionregistration.k8s.io/ValidatingWebhookConfiguration": ("admissionregistration.k8s.io/v1", {}),
    "admissionregistration.k8s.io/ValidatingAdmissionPolicy": (
        "admissionregistration.k8s.io/v1", {"spec": {"matchConstraints": _MATCH, "validations": [{"expression": "true"}]}},
    ),
    "admissionregistration.k8s.io/MutatingAdmissionPolicy": (
        "admissionregistration.k8s.io/v1",
        {"spec": {"matchConstraints": _MATCH, "failurePolicy": "Ignore", "reinvocationPolicy": "Never", "mutations": [
            {"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": "Object{metadata: Object.metadata{labels: {'a': 'b'}}}"}},
        ]}},
    ),
    "admissionregistration.k8s.io/MutatingAdmissionPolicyBinding": ("admissionregistration.k8s.io/v1", {"spec": {"policyName": "kcompat-rehearse"}}),
    "admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding": (
        "admissionregistration.k8s.io/v1", {"spec": {"policyName": "kcompat-rehearse", "validationActions": ["Audit"]}},
    ),
    "apps/ControllerRevision": ("apps/v1", {"revision": 1, "data": {"note": "kcompat"}}),
    "apps/DaemonSet": ("apps/v1", {"spec": {"selector": {"matchLabels": _LABELS}, "template": _TEMPLATE}}),
    "apps/Deployment": ("apps/v1", {"spec": _WORKLOAD}),
    "apps/ReplicaSet": ("apps/v1", {"spec": _WORKLOAD}),
    "apps/StatefulSet": ("apps/v1", {"spec": {**_WORKLOAD, "serviceName": "kcompat-rehearse"}}),
    "autoscaling/HorizontalPodAutoscaler": (
        "autoscaling/v2", {"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "x"}, "maxReplicas": 2}},
    ),
    "batch/CronJob": (
        "batch/v1",
        {"spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": {"spec": {**_POD_SPEC, "restartPolicy": "OnFailure"}}}}}},
    ),
    "batch/Job": ("batch/v1", {"spec": {"suspend": True, "template": {"spec": {**_POD_SPEC, "restartPolicy": "Never"}}}}),
    "certificates.k8s.io/ClusterTrustBundle": ("certificates.k8s.io/v1", {"spec": {"trustBundle": _CERTIFICATE}}),
    "storagemigration.k8s.io/StorageVersionMigration": ("storagemigration.k8s.io/v1", {"spec": {"resource": {"group": "", "resource": "configmaps"}}}),
    "resource.k8s.io/DeviceTaintRule": ("resource.k8s.io/v1", {"spec": {"taint": {"key": "kcompat.example/k", "effect": "NoSchedule"}}}),
    "certificates.k8s.io/CertificateSigningRequest": (
        "certificates.k8s.io/v1", {"spec": {"request": _CSR, "signerName": "kcompat.example/rehearse", "usages": ["digital signature"]}},
    ),
    "coordination.k8s.io/Lease": ("coordination.k8s.io/v1", {"spec": {"holderIdentity": "kcompat-rehearse"}}),
    "coordination.k8s.io/LeaseCandidate": ("coordination.k8s.io/v1beta1", {"spec": {"leaseName": "kcompat-rehearse", "binaryVersion": "1.34.0", "emulationVersion": "1.34.0", "strategy": "OldestEmulationVersion"}}),
    "discovery.k8s.io/EndpointSlice": ("discovery.k8s.io/v1", {"addressType": "IPv4", "endpoints": [{"addresses": ["10.1.0.1"]}]}),
    "flowcontrol.apiserver.k8s.io/FlowSchema": (
        "flowcontrol.apiserver.k8s.io/v1", {"spec": {"priorityLevelConfiguration": {"name": "global-default"}, "matchingPrecedence": 5000}},
    ),
    "flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration": (
        "flowcontrol.apiserver.k8s.io/v1",
        {"spec": {"type": "Limited", "limited": {"nominalConcurrencyShares": 1, "limitResponse": {"type": "Reject"}}}},
    ),
    "networking.k8s.io/IngressClass": ("networking.k8s.io/v1", {"spec": {"controller": "kcompat.example/rehearse"}}),
    "networking.k8s.io/Ingress": (
        "networking.k8s.io/v1", {"spec": {"defaultBackend": {"service": {"name": "x", "port": {"number": 80}}}}},
    ),
    "networking.k8s.io/NetworkPolicy": ("networking.k8s.io/v1", {"spec": {"podSelector": {}}}),
    "node.k8s.io/RuntimeClass": ("node.k8s.io/v1", {"handler": "runc"}),
    "policy/PodDisruptionBudget": ("policy/v1", {"spec": {"minAvailable": 1, "selector": {"matchLabels": _LABELS}}}),
    "rbac.authorization.k8s.io/ClusterRole": ("rbac.authorization.k8s.io/v1", {"rules": _RULES}),
    "rbac.authorization.k8s.io/Role": ("rbac.authorization.k8s.io/v1", {"rules": _RULES}),
    "rbac.authorization.k8s.io/ClusterRoleBinding": (
        "rbac.authorization.k8s.io/v1",
        {"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"}, "subjects": _ROLE_SUBJECTS},
    ),
    "rbac.authorization.k8s.io/RoleBinding": (
        "rbac.authorization.k8s.io/v1",
        {"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"}, "subjects": _ROLE_SUBJECTS},
    ),
    "resource.k8s.io/DeviceClass": ("resource.k8s.io/v1", {"spec": {}}),
    "resource.k8s.io/ResourceClaim": ("resource.k8s.io/v1", {"spec": _CLAIM_SPEC}),
    "resource.k8s.io/ResourceClaimTemplate": ("resource.k8s.io/v1", {"spec": {"spec": _CLAIM_SPEC}}),
    "resource.k8s.io/ResourceSlice": (
        "resource.k8s.io/v1",
        {"spec": {"driver": "kcompat.example", "pool": {"name": "p", "generation": 0, "resourceSliceCount": 1}, "allNodes": True, "devices": []}},
    ),
    "scheduling.k8s.io/PriorityClass": ("scheduling.k8s.io/v1", {"value": 1000}),
    "storage.k8s.io/CSIDriver": ("storage.k8s.io/v1", {"spec": {}}),
    "storage.k8s.io/CSINode": ("storage.k8s.io/v1", {"spec": {"drivers": []}}),
    "storage.k8s.io/CSIStorageCapacity": ("storage.k8s.io/v1", {"storageClassName": "kcompat-rehearse"}),
    "storage.k8s.io/StorageClass": ("storage.k8s.io/v1", {"provisioner": "kcompat.example/rehearse"}),
    "storage.k8s.io/VolumeAttachment": (
        "storage.k8s.io/v1", {"spec": {"attacher": "kcompat.example", "nodeName": "n", "source": {"persistentVolumeName": "x"}}},
    ),
    "storage.k8s.io/VolumeAttributesClass": ("storage.k8s.io/v1", {"driverName": "kcompat.example", "parameters": {"k": "v"}}),
}


def _crd(index: int) -> tuple[str, dict[str, Any]]:
    plural = f"widgets{index}"
    return f"{plural}.rehearse.kcompat.example", {
        "spec": {
            "group": "rehearse.kcompat.example", "scope": "Namespaced",
            "names": {"plural": plural, "kind": f"Widget{index}"},
            "versions": [{"name": "v1", "served": True, "storage": True,
                          "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}}],
        }
    }


def _apiservice(index: int) -> tuple[str, dict[str, Any]]:
    group = f"aggregated{index}.rehearse.kcompat.example"
    return f"v1.{group}", {"spec": {"group": group, "version": "v1", "groupPriorityMinimum": 1000, "versionPriority": 15}}


def _ip_address(index: int) -> tuple[str, dict[str, Any]]:
    return f"192.0.2.{index + 1}", {"spec": {"parentRef": {"group": "", "resource": "services", "namespace": NAMESPACE, "name": "x"}}}


def _service_cidr(index: int) -> tuple[str, dict[str, Any]]:
    return f"kcompat-rehearse-{index}", {"spec": {"cidrs": [f"10.9.{index}.0/24"]}}


def _event_core(index: int) -> tuple[str, dict[str, Any]]:
    return f"kcompat-rehearse-{index}", {
        "involvedObject": {"kind": "ConfigMap", "name": "x", "namespace": NAMESPACE}, "reason": "Rehearse", "message": "m", "type": "Normal",
    }


def _event(index: int) -> tuple[str, dict[str, Any]]:
    # stored with the core events (cohabiting resources): a name of its own
    return f"kcompat-rehearse-events-{index}", {
        "eventTime": "2026-01-01T00:00:00.000000Z", "reportingController": "kcompat.example/rehearse", "reportingInstance": "r",
        "action": "Rehearse", "reason": "Rehearse", "type": "Normal", "note": "n",
        "regarding": {"kind": "ConfigMap", "name": "x", "namespace": NAMESPACE},
    }


#: the kinds whose name or body depends on the object's index: group/kind -> (apiVersion, index -> (name, body))
_INDEXED: dict[str, tuple[str, Callable[[int], tuple[str, dict[str, Any]]]]] = {
    "apiextensions.k8s.io/CustomResourceDefinition": ("apiextensions.k8s.io/v1", _crd),
    "apiregistration.k8s.io/APIService": ("apiregistration.k8s.io/v1", _apiservice),
    "networking.k8s.io/IPAddress": ("networking.k8s.io/v1", _ip_address),
    "networking.k8s.io/ServiceCIDR": ("networking.k8s.io/v1", _service_cidr),
    "core/Event": ("v1", _event_core),
    "events.k8s.io/Event": ("events.k8s.io/v1", _event),
}


def template_keys() -> tuple[str, ...]:
    """Every group/kind a template exists for, sorted."""
    return tuple(sorted(set(_BODIES) | set(_INDEXED)))


@dataclass(frozen=True)
class ServedResource:
    """One resource a server lists in discovery (a subresource is never one)."""

    group: str
    version: str
    resource: str
    kind: str
    namespaced: bool
    verbs: frozenset[str]

    @property
    def group_kind(self) -> str:
        return f"{self.group or 'core'}/{self.kind}"

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def stored(self) -> bool:
        """Whether objects of it are kept (created, read back and updated): review kinds are not."""
        return {"create", "get", "update"} <= self.verbs


@dataclass(frozen=True)
class CorpusEntry:
    """One resource of the corpus and the version its objects are written in."""

    resource: ServedResource

    @property
    def key(self) -> str:
        return self.resource.group_kind

    def path(self, name: str | None = None) -> str:
        """The REST path of the collection (``name`` None) or of one object."""
        r = self.resource
        base = f"/api/{r.version}" if not r.group else f"/apis/{r.group}/{r.version}"
        if r.namespaced:
            base += f"/namespaces/{NAMESPACE}"
        return f"{base}/{r.resource}" + (f"/{name}" if name else "")

    def object(self, index: int) -> dict[str, Any]:
        """The object number ``index`` of this resource (a fresh copy)."""
        return template_object(self.key, index, self.resource.api_version)


def template_object(key: str, index: int, api_version: str | None = None) -> dict[str, Any]:
    """The minimal valid object ``index`` of group/kind ``key`` (``api_version``: the version to
    write it in; the template's own when None). KeyError when no template exists."""
    kind = key.split("/", 1)[1]
    if key in _INDEXED:
        own, make = _INDEXED[key]
        name, body = make(index)
    else:
        own, body = _BODIES[key]
        name = f"kcompat-rehearse-{index}"
    obj: dict[str, Any] = {"apiVersion": api_version or own, "kind": kind, "metadata": {"name": name}}
    obj.update(copy.deepcopy(body))
    return obj


def template_version(key: str) -> str | None:
    """The apiVersion the template of ``key`` is written for, None without a template."""
    if key in _INDEXED:
        return _INDEXED[key][0]
    return _BODIES[key][0] if key in _BODIES else None


@dataclass(frozen=True)
class Corpus:
    """What a rehearsal writes: ``entries`` (one per stored resource with a template, in the
    template's version when served, else the preferred served version), ``no_template`` (stored
    resources without one: counted and named, never written), ``not_stored`` (create-only kinds
    such as the reviews), ``required`` (group/kinds whose storage version changes in the pair)."""

    entries: tuple[CorpusEntry, ...]
    no_template: tuple[str, ...]
    not_stored: tuple[str, ...]
    required: tuple[str, ...] = field(default=())

    @property
    def missing_required(self) -> tuple[str, ...]:
        """Required group/kinds the corpus does not write."""
        have = {e.key for e in self.entries}
        return tuple(k for k in self.required if k not in have)

    def document(self) -> dict[str, Any]:
        return {
            "resources": [f"{e.resource.api_version} {e.resource.resource}" for e in self.entries],
            "noTemplate": list(self.no_template), "notStored": list(self.not_stored), "required": list(self.required),
        }


def build_corpus(served: Iterable[ServedResource], required: Iterable[str] = ()) -> Corpus:
    """The corpus of a server that serves ``served`` (its discovery, in preference order: the
    first version listed of a group/kind is the preferred one): one entry per stored group/kind,
    in the template's apiVersion when that is served, else the first served. ``required``: the
    group/kinds whose storage version changes anywhere in the pair (kept in the corpus's record)."""
    by_key: dict[str, list[ServedResource]] = {}
    not_stored: set[str] = set()
    for r in served:
        if "/" in r.resource:
            continue
        if not r.stored:
            not_stored.add(r.group_kind)
            continue
        by_key.setdefault(r.group_kind, []).append(r)
    entries = []
    no_template = []
    for key in sorted(by_key):
        want = template_version(key)
        if want is None:
            no_template.append(key)
            continue
        versions = by_key[key]
        chosen = next((r for r in versions if r.api_version == want), versions[0])
        entries.append(CorpusEntry(chosen))
    return Corpus(tuple(entries), tuple(no_template), tuple(sorted(not_stored - set(by_key))), tuple(sorted(set(required))))


def served_from_discovery(discovery: Mapping[str, Iterable[Mapping[str, Any]]]) -> list[ServedResource]:
    """:class:`ServedResource` of a discovery document ``{"v1": [...], "apps/v1": [...]}`` (the
    shape oracle/servers.py records: each resource's name, kind, namespaced and verbs)."""
    out = []
    for gv, resources in discovery.items():
        group, _, version = gv.rpartition("/")
        for r in resources:
            out.append(ServedResource(group, version, str(r["name"]), str(r["kind"]), bool(r["namespaced"]), frozenset(r.get("verbs") or ())))
    return out


@dataclass(frozen=True)
class Judgement:
    """What a recording says: ``held`` when the promised phase read back, decoded and updated every
    object; ``read``/``total`` its counts; ``broken`` the objects that failed (resource: error);
    ``unsupported`` the counts of the rollback the plan calls unsupported (read, total), None when
    not run; ``summary`` one line for the plan."""

    from_release: str
    to_release: str
    #: the emulated version the old control plane ran at (its own minor unless the rehearsal held another)
    from_emulated: str
    held: bool
    read: int
    total: int
    broken: tuple[str, ...]
    unsupported: tuple[int, int] | None
    summary: str


def _phase(recording: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    return next((p for p in recording.get("phases") or () if p.get("name") == name), None)


def judge(recording: Mapping[str, Any]) -> Judgement:
    """The judgement of a recording (the shape in the module docstring). A promised phase that did
    not run at all (its server did not start) breaks the promise."""
    frm, to = str(recording.get("from")), str(recording.get("to"))
    phase = _phase(recording, "rollback")
    results = list((phase or {}).get("results") or ())
    ok = [r for r in results if r.get("read") and r.get("decoded") and r.get("updated")]
    broken = tuple(f"{r.get('resource')} {r.get('object')}: {r.get('error') or 'not read back'}" for r in results if r not in ok)
    started = bool(phase and phase.get("started"))
    if not started:
        broken = (f"{frm} did not start after {to}: {(phase or {}).get('error') or 'phase not run'}", *broken)
    held = started and not broken and bool(results)
    unsupported_phase = _phase(recording, "unsupported-rollback")
    unsupported = None
    if unsupported_phase is not None and unsupported_phase.get("started"):
        u = list(unsupported_phase.get("results") or ())
        unsupported = (sum(1 for r in u if r.get("read") and r.get("decoded") and r.get("updated")), len(u))
    read = sum(1 for r in results if r.get("read"))
    summary = (
        f"rehearsed on {to} -> {frm}: {len(ok)} of {len(results)} objects read back, decoded and updated"
        + ("" if held else f"; THE PROMISE BROKE: {'; '.join(broken[:3])}{' ...' if len(broken) > 3 else ''}")
    )
    from_emulated = str(recording.get("fromEmulated") or recording.get("fromMinor"))
    return Judgement(frm, to, from_emulated, held, read, len(results), broken, unsupported, summary)
