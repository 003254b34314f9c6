"""What a real cluster holds, checked against the control plane it will become (``kcompat scan
--live``): the rules, with no I/O. :mod:`kcompat.data.live_objects` reads the cluster into a
:class:`ClusterReading` (discovery, what each listable resource holds, the apiVersions the objects
were last applied with, the Helm 3 releases); :func:`check_reading` checks it against the built-in
APIs a kube-apiserver serves for a selection, with :mod:`kcompat.core.scan`'s rules (whether a
group/version/kind is served, why not, the nearest served version).

Three findings, the worst first:

* **unreachable**: a resource that holds objects in the cluster and of whose kind the target
  serves no version in its group (the objects stay in etcd, but no client can read or delete
  them through the API until a version is served again);
* **last applied**: objects whose ``kubectl.kubernetes.io/last-applied-configuration`` names an
  apiVersion the target does not serve (the next ``kubectl apply`` of the same file fails);
* **Helm release**: a deployed Helm 3 release whose manifest has an object of an apiVersion the
  target does not serve (the next ``helm upgrade`` or rollback of it fails).

Memory stays bounded whatever the cluster holds: :class:`Tally` keeps counts and at most
:data:`MAX_EXAMPLES` names per resource and per last-applied apiVersion, never the objects.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .apis import ApiAvailability
from .apis_data import ApiRelease, group_version_text
from .errors import KcompatError, cut
from .problems import Remedy
from .scan import (
    NAME_LIMIT,
    NOT_CHECKED,
    NOT_SERVED,
    SERVED,
    CustomResource,
    KindLifecycle,
    ManifestObject,
    ObjectCheck,
    check_objects,
    read_manifests,
)

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
#: the type of the Secrets Helm 3 keeps its releases in (its default driver)
HELM_SECRET_TYPE = "helm.sh/release.v1"
#: object names kept per resource and per last-applied apiVersion, for the report
MAX_EXAMPLES = 5
#: a Helm release decompressed (a release Secret holds at most 1 MiB compressed)
MAX_HELM_RELEASE_BYTES = 16 * 1024 * 1024
#: the annotation read (Kubernetes holds all of an object's annotations to 256 KiB)
MAX_LAST_APPLIED_BYTES = 256 * 1024
#: Helm releases kept (deployed ones; every other revision is only counted)
MAX_HELM_RELEASES = 5_000

#: the finding kinds, the worst first
UNREACHABLE, LAST_APPLIED_FINDING, HELM_FINDING = "unreachable", "last-applied", "helm-release"


@dataclass(frozen=True)
class ServedResource:
    """One resource of the cluster's discovery: a group/version serves it, as ``kind``."""

    group: str
    version: str
    resource: str
    kind: str
    namespaced: bool
    verbs: tuple[str, ...]

    @property
    def api_version(self) -> str:
        return group_version_text(self.group, self.version)

    @property
    def listable(self) -> bool:
        return "list" in self.verbs and "/" not in self.resource


@dataclass(frozen=True)
class ResourceRead:
    """What one resource (listed at one of its versions) holds."""

    group: str
    version: str
    resource: str
    kind: str
    objects: int
    #: every page was read (False: a problem or a limit stopped it; ``objects`` is then a lower bound)
    complete: bool
    #: why it was not read, or not to the end ("could not list: forbidden", a limit)
    problem: str | None = None
    #: the credentials may not list it (403)
    forbidden: bool = False
    #: a few of its objects, ``namespace/name``
    examples: tuple[str, ...] = ()

    @property
    def api_version(self) -> str:
        return group_version_text(self.group, self.version)

    @property
    def label(self) -> str:
        """``deviceclasses.resource.k8s.io``, ``configmaps`` (as kubectl names a resource)."""
        return f"{self.resource}.{self.group}" if self.group else self.resource


@dataclass(frozen=True)
class AppliedVersion:
    """Objects of one kind last applied with one apiVersion."""

    api_version: str
    kind: str
    objects: int
    #: a few of them: ``flowschemas.flowcontrol.apiserver.k8s.io default/web``
    examples: tuple[str, ...]


@dataclass(frozen=True)
class HelmRelease:
    """A deployed Helm 3 release: its name, namespace, revision, the driver that stores it, the
    objects of its manifest (or why they could not be read)."""

    name: str
    namespace: str
    revision: int
    status: str
    #: "Secret" or "ConfigMap"
    driver: str
    #: the object that stores it: ``sh.helm.release.v1.web.v3``
    storage: str
    objects: tuple[ManifestObject, ...] = ()
    definitions: tuple[CustomResource, ...] = ()
    problem: str | None = None

    @property
    def label(self) -> str:
        return f"{self.namespace}/{self.name} revision {self.revision}"


@dataclass(frozen=True)
class ClusterReading:
    """Everything read of a cluster (:mod:`kcompat.data.live_objects`); plain values."""

    context: str
    server: str
    served: tuple[ServedResource, ...]
    resources: tuple[ResourceRead, ...]
    applied: tuple[AppliedVersion, ...]
    releases: tuple[HelmRelease, ...]
    #: what could not be read besides single resources (a group's discovery, the Helm Secrets)
    problems: tuple[str, ...] = ()
    objects: int = 0
    requests: int = 0
    seconds: float = 0.0
    #: Helm release revisions read that are not deployed (superseded, failed...): not checked
    other_revisions: int = 0


class _Count:
    __slots__ = ("count", "examples")

    def __init__(self) -> None:
        self.count = 0
        self.examples: list[str] = []


class Tally:
    """Counts as lists are read, in bounded memory: per last-applied apiVersion and kind."""

    def __init__(self) -> None:
        self.applied: dict[tuple[str, str], _Count] = {}
        self.objects = 0

    def add(self, label: str, metadata: object) -> str | None:
        """One listed object of resource ``label`` (its ``metadata``); its ``namespace/name`` back
        (None without a name)."""
        self.objects += 1
        if not isinstance(metadata, dict):
            return None
        name, namespace = metadata.get("name"), metadata.get("namespace")
        shown = None
        if isinstance(name, str):
            shown = cut(f"{namespace}/{name}" if isinstance(namespace, str) and namespace else name, NAME_LIMIT)
        annotations = metadata.get("annotations")
        text = annotations.get(LAST_APPLIED) if isinstance(annotations, dict) else None
        found = last_applied_type(text) if isinstance(text, str) else None
        if found is not None:
            entry = self.applied.setdefault(found, _Count())
            entry.count += 1
            if len(entry.examples) < MAX_EXAMPLES and shown is not None:
                entry.examples.append(f"{label} {shown}")
        return shown

    def applied_versions(self) -> tuple[AppliedVersion, ...]:
        return tuple(AppliedVersion(v, k, c.count, tuple(c.examples)) for (v, k), c in sorted(self.applied.items()))


def last_applied_type(text: str) -> tuple[str, str] | None:
    """(apiVersion, kind) of a last-applied-configuration annotation; None when it names none."""
    if len(text) > MAX_LAST_APPLIED_BYTES:
        return None
    try:
        applied = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(applied, dict):
        return None
    api_version, kind = applied.get("apiVersion"), applied.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str) or not api_version or not kind or api_version.count("/") > 1:
        return None
    return cut(api_version, NAME_LIMIT), cut(kind, NAME_LIMIT)


def decode_helm_release(encoded: str | bytes, driver: str, storage: str) -> HelmRelease:
    """A release as Helm 3 stores it (``data.release``: base64 of gzip of the release JSON; the
    gzip is optional, as Helm reads it): its identity and the objects of its manifest. Data that is
    no release raises :class:`KcompatError` naming ``storage``."""
    where = f"Helm release {driver} {storage}"
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise KcompatError(f"{where}: data.release is not base64") from None
    if raw[:3] == b"\x1f\x8b\x08":
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            raw = d.decompress(raw, MAX_HELM_RELEASE_BYTES + 1)
        except zlib.error:
            raise KcompatError(f"{where}: data.release is corrupt gzip") from None
        if len(raw) > MAX_HELM_RELEASE_BYTES:
            raise KcompatError(f"{where}: larger than {MAX_HELM_RELEASE_BYTES:,} bytes once decompressed; not read")
    try:
        release = json.loads(raw)
    except (ValueError, RecursionError):
        raise KcompatError(f"{where}: data.release is not a Helm release (not JSON)") from None
    if not isinstance(release, dict):
        raise KcompatError(f"{where}: data.release is not a Helm release (not a JSON object)")
    name, namespace, revision = release.get("name"), release.get("namespace"), release.get("version")
    info = release.get("info")
    status = info.get("status") if isinstance(info, dict) else None
    if not isinstance(name, str) or not isinstance(namespace, str) or not isinstance(revision, int):
        raise KcompatError(f"{where}: data.release has no name, namespace and version")
    found = HelmRelease(cut(name, NAME_LIMIT), cut(namespace, NAME_LIMIT), revision, cut(status, 40) if isinstance(status, str) else "unknown",
                        driver, cut(storage, NAME_LIMIT))
    manifest = release.get("manifest")
    if status != "deployed":
        return found
    if not isinstance(manifest, str) or not manifest.strip():
        return found
    try:
        reading = read_manifests(manifest, f"Helm release {found.label}")
    except KcompatError as exc:
        return _replace(found, problem=str(exc))
    return _replace(found, objects=reading.objects, definitions=reading.definitions)


def _replace(release: HelmRelease, **changes: object) -> HelmRelease:
    from dataclasses import replace

    return replace(release, **changes)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Checking a reading


@dataclass(frozen=True)
class Finding:
    """One thing of the cluster the target would not serve."""

    #: :data:`UNREACHABLE`, :data:`LAST_APPLIED_FINDING` or :data:`HELM_FINDING`
    finding: str
    #: what it is: ``deviceclasses.resource.k8s.io``, ``FlowSchema last applied as ...``, ``Helm release default/web revision 2``
    subject: str
    check: ObjectCheck
    #: objects concerned (a resource's, a last-applied apiVersion's; a Helm object: 1)
    objects: int
    examples: tuple[str, ...] = ()
    #: the Helm release, its namespace and the template the object comes from
    release: str | None = None
    namespace: str | None = None
    template: str | None = None


@dataclass(frozen=True)
class ClusterCheck:
    findings: tuple[Finding, ...]
    #: resources holding objects the target does not serve, that could not be read to the end
    #: (or at all): whether they hold objects, or which, is not known
    unknown: tuple[ResourceRead, ...]
    #: resources holding objects of kinds the target's data does not know (custom resources, aggregated APIs)
    not_checked: tuple[ResourceRead, ...]


def check_reading(
    reading: ClusterReading,
    availability: ApiAvailability,
    api: ApiRelease,
    lifecycle: Mapping[tuple[str, str, str], KindLifecycle],
) -> ClusterCheck:
    """The findings of ``reading`` for the selection ``availability`` answers (see the module);
    each finding's check carries its kind's deprecation facts (:func:`~kcompat.core.scan.check_objects`)."""
    c = _Checker(availability, api, lifecycle)
    findings, unknown, not_checked = c.resources(reading.resources)
    findings += c.applied(reading.applied)
    for release in reading.releases:
        findings += c.release(release)
    return ClusterCheck(tuple(findings), tuple(unknown), tuple(not_checked))


@dataclass(frozen=True)
class _Checker:
    availability: ApiAvailability
    api: ApiRelease
    lifecycle: Mapping[tuple[str, str, str], KindLifecycle]

    def check(self, objects: Sequence[ManifestObject], definitions: Sequence[CustomResource] = ()) -> tuple[ObjectCheck, ...]:
        return check_objects(objects, definitions, self.availability, self.api, self.lifecycle)

    def resources(self, reads: Sequence[ResourceRead]) -> tuple[list[Finding], list[ResourceRead], list[ResourceRead]]:
        """Resources holding objects of a kind the target serves no version of in its group."""
        served_kinds = {(e.group, e.kind) for e in self.availability.entries if e.served}
        findings: list[Finding] = []
        unknown: list[ResourceRead] = []
        not_checked: list[ResourceRead] = []
        for r in reads:
            (c,) = self.check([ManifestObject(r.api_version, r.kind, None, None, "cluster", 0)])
            if c.status == NOT_CHECKED:
                if r.objects:
                    not_checked.append(r)
                continue
            if c.status == SERVED or (r.group, r.kind) in served_kinds:
                continue  # served at this version, or at another of its group (the stored objects stay readable)
            if r.objects:
                findings.append(Finding(UNREACHABLE, r.label, c, r.objects, r.examples))
            if not r.complete and (r.objects == 0 or r.forbidden):
                unknown.append(r)
        return findings, unknown, not_checked

    def applied(self, applied: Sequence[AppliedVersion]) -> list[Finding]:
        """Objects last applied with an apiVersion the target does not serve."""
        findings = []
        for a in applied:
            (c,) = self.check([ManifestObject(a.api_version, a.kind, None, None, "last-applied-configuration", 0)])
            if c.status == NOT_SERVED:
                findings.append(Finding(LAST_APPLIED_FINDING, f"{a.kind} last applied as {a.api_version}", c, a.objects, a.examples))
        return findings

    def release(self, release: HelmRelease) -> list[Finding]:
        """The objects of a deployed Helm release's manifest the target does not serve."""
        findings = []
        for c in self.check(release.objects, release.definitions):
            if c.status == NOT_SERVED:
                o = c.object
                name = f"{o.namespace}/{o.name}" if o.namespace and o.name else o.name or ""
                findings.append(Finding(HELM_FINDING, f"Helm release {release.label}", c, 1, (f"{o.kind} {name}".strip(),),
                                        release.name, release.namespace, o.template))
        return findings


# ---------------------------------------------------------------------------------------------
# The answer of one live scan (kcompat.answers.scan_live builds it)


@dataclass(frozen=True)
class ClusterScanAnswer:
    """A cluster checked for one selection. Plain values."""

    binary: str
    #: the binary was not given: the newest bundled release answers
    default_binary: bool
    emulated: str
    min_compat: str
    feature_gates: str
    runtime_config: str
    emulation_forward_compatible: bool
    runtime_config_emulation_forward_compatible: bool
    #: the binary's own errors for the selection (it would refuse to start: the cluster is not read)
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    hints: tuple[Remedy, ...]
    #: what was read, and why not (the cluster could not be reached)
    reading: ClusterReading | None = None
    unreadable: str | None = None
    check: ClusterCheck | None = None

    @property
    def valid(self) -> bool:
        return not self.errors and self.unreadable is None and self.reading is not None

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self.check.findings if self.check is not None else ()

    def count(self, finding: str) -> int:
        return sum(f.finding == finding for f in self.findings)

    @property
    def not_read(self) -> tuple[str, ...]:
        """What could not be read, each naming what and why: resources (a 403 first), a group's
        discovery, the Helm releases."""
        if self.reading is None:
            return ()
        resources = sorted((r for r in self.reading.resources if r.problem), key=lambda r: (not r.forbidden, r.label))
        releases = [f"Helm release {r.label} ({r.driver} {r.storage}): {r.problem}" for r in self.reading.releases if r.problem]
        return (*(f"{r.label}: {r.problem}" for r in resources), *self.reading.problems, *releases)

    @property
    def exit_status(self) -> int:
        """0 everything the cluster holds is served, 1 something is not, 2 the cluster could not be
        read or the binary would refuse the selection; also 2 when nothing is found but a resource
        the target does not serve could not be listed (whether it holds objects is not known)."""
        if not self.valid:
            return 2
        if self.findings:
            return 1
        return 2 if self.check is not None and self.check.unknown else 0
