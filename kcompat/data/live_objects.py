"""What a cluster holds, read for ``kcompat scan --live`` through :class:`kcompat.data.live.Cluster`
(the kubeconfig, credentials, proxies and per-answer limits of ``kcompat inspect --live``).

* Discovery: ``/api``, ``/api/v1``, ``/apis`` and each group/version's resource list (a
  group/version that does not answer, such as an aggregated API whose server is down, is named
  in the problems and the others are read).
* Objects: every listable resource (verb ``list``, no subresource) once per group, at the group's
  preferred version that has it, in pages of :data:`PAGE_SIZE` following ``continue``, as metadata
  only (``PartialObjectMetadataList``; the server may answer full objects, which are read the same
  way). Only counts, a few names and the apiVersion of each ``last-applied-configuration`` are
  kept (:class:`kcompat.core.cluster_scan.Tally`): memory does not grow with the cluster. A page
  too large for the answer limit is asked again in smaller pages. A 403 (or another error) is that
  resource's problem; the read goes on.
* Helm 3 releases: Secrets of type ``helm.sh/release.v1`` (a field selector) and ConfigMaps
  labelled ``owner=helm``, :data:`HELM_PAGE_SIZE` a page; each deployed release's manifest is read
  (:func:`kcompat.core.cluster_scan.decode_helm_release`).

Limits: :data:`MAX_PAGES` pages per resource, :data:`MAX_OBJECTS` objects and :data:`MAX_SECONDS`
seconds in all; what a limit stops is said, per resource. From :data:`FIRST_NOTE` seconds on, a
line on stderr every :data:`NOTE_EVERY` seconds says how far the read is.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from kcompat.core.cluster_scan import (
    HELM_SECRET_TYPE,
    MAX_EXAMPLES,
    MAX_HELM_RELEASES,
    ClusterReading,
    HelmRelease,
    ResourceRead,
    ServedResource,
    Tally,
    decode_helm_release,
)
from kcompat.core.errors import KcompatError, cut, echo

from .live import Cluster, LiveError

PAGE_SIZE = 500
HELM_PAGE_SIZE = 20
MAX_PAGES = 400
MAX_OBJECTS = 1_000_000
MAX_SECONDS = 900.0
FIRST_NOTE = 3.0
NOTE_EVERY = 5.0
#: a discovery answer, a page
MAX_DISCOVERY_BYTES = 8 * 1024 * 1024
MAX_PAGE_BYTES = 32 * 1024 * 1024

METADATA_ONLY = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
JSON = "application/json"

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Limits:
    page_size: int = PAGE_SIZE
    max_pages: int = MAX_PAGES
    max_objects: int = MAX_OBJECTS
    max_seconds: float = MAX_SECONDS


class _Reader:
    def __init__(self, cluster: Cluster, limits: Limits, progress: Progress | None) -> None:
        self.cluster = cluster
        self.limits = limits
        self.progress = progress
        self.started = time.monotonic()
        self.note = self.started + FIRST_NOTE
        self.requests = 0
        self.tally = Tally()
        self.problems: list[str] = []
        self.listed = 0
        self.listable = 0
        self.preferred: dict[str, str] = {"": "v1"}

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def tell(self) -> None:
        now = time.monotonic()
        if self.progress is not None and now >= self.note:
            self.progress(f"read {self.tally.objects:,} objects; {self.listed:,} of {self.listable:,} resources listed "
                          f"({now - self.started:.0f} s; stopped after {self.limits.max_seconds:g} s)")
            self.note = now + NOTE_EVERY

    def get(self, path: str, accept: str = JSON, limit: int = MAX_DISCOVERY_BYTES) -> tuple[int, object, str]:
        """(status, the JSON, the problem) of ``path``; a 4xx/5xx is a problem, not an error."""
        self.requests += 1
        status, body, message = self.cluster.get_answer(path, accept, limit)
        if status != 200:
            return status, None, message
        try:
            return status, json.loads(body), ""
        except (ValueError, RecursionError):
            return 0, None, f"{self.cluster.label(path)}: the answer is not JSON"

    # -- discovery ------------------------------------------------------------------------------

    def discover(self) -> list[ServedResource]:
        """Every resource the cluster serves. The core group's list must answer (it is the cluster's
        own); a group/version that does not is a problem."""
        status, versions, message = self.get("/api")
        if status != 200 or not isinstance(versions, dict):
            raise LiveError(message or f"{self.cluster.label('/api')}: not an APIVersions answer")
        served: list[ServedResource] = []
        group_versions: list[tuple[str, str]] = [("", v) for v in versions.get("versions") or [] if isinstance(v, str)]
        status, groups, message = self.get("/apis")
        if status != 200 or not isinstance(groups, dict):
            self.problems.append(message or "/apis: not an APIGroupList answer")
            groups = {}
        preferred: dict[str, str] = {"": "v1"}
        for g in groups.get("groups") or []:
            if not isinstance(g, dict) or not isinstance(g.get("name"), str):
                continue
            pv = g.get("preferredVersion")
            if isinstance(pv, dict) and isinstance(pv.get("version"), str):
                preferred[g["name"]] = pv["version"]
            for v in g.get("versions") or []:
                if isinstance(v, dict) and isinstance(v.get("version"), str):
                    group_versions.append((g["name"], v["version"]))
        for group, version in group_versions:
            path = f"/apis/{quote(group, safe='.-')}/{quote(version, safe='.-')}" if group else f"/api/{quote(version, safe='.-')}"
            status, listing, message = self.get(path)
            if status != 200 or not isinstance(listing, dict):
                self.problems.append(f"discovery of {cut(group + '/' + version if group else version, 200)}: {message or 'not an APIResourceList'}")
                continue
            for r in listing.get("resources") or []:
                if isinstance(r, dict) and isinstance(r.get("name"), str) and isinstance(r.get("kind"), str):
                    verbs = tuple(v for v in r.get("verbs") or [] if isinstance(v, str))
                    served.append(ServedResource(group, version, cut(r["name"], 253), cut(r["kind"], 253), bool(r.get("namespaced")), verbs))
        self.preferred = preferred
        return served

    def to_list(self, served: list[ServedResource]) -> list[ServedResource]:
        """Each listable resource once per group: at the group's preferred version if it serves it,
        else the first version discovery names."""
        chosen: dict[tuple[str, str], ServedResource] = {}
        for s in served:
            if not s.listable:
                continue
            key = (s.group, s.resource)
            if key not in chosen or (s.version == self.preferred.get(s.group) and chosen[key].version != s.version):
                chosen[key] = s
        return list(chosen.values())

    # -- lists ----------------------------------------------------------------------------------

    def pages(self, base: str, query: dict[str, str], accept: str, page_size: int) -> Iterator[tuple[int, object, str]]:
        """Each page of a list: (status, the JSON, the problem); a page too large for the answer
        limit is asked again in pages ten times smaller."""
        token = ""
        while True:
            params = dict(query, limit=str(page_size))
            if token:
                params["continue"] = token
            path = f"{base}?{urlencode(params)}"
            try:
                self.requests += 1
                status, body, message = self.cluster.get_answer(path, accept, MAX_PAGE_BYTES)
            except LiveError:
                if page_size <= 5:
                    raise
                page_size = max(5, page_size // 10)
                continue
            if status != 200:
                yield status, None, message
                return
            try:
                page = json.loads(body)
            except (ValueError, RecursionError):
                yield 0, None, f"{self.cluster.label(path)}: the answer is not JSON"
                return
            del body
            yield status, page, ""
            meta = page.get("metadata") if isinstance(page, dict) else None
            following = meta.get("continue") if isinstance(meta, dict) else None
            if not isinstance(following, str) or not following:
                return
            token = following

    def read_resource(self, s: ServedResource) -> ResourceRead:
        label = f"{s.resource}.{s.group}" if s.group else s.resource
        base = f"/apis/{quote(s.group, safe='.-')}/{quote(s.version, safe='.-')}/{quote(s.resource, safe='.-')}" if s.group else \
            f"/api/{quote(s.version, safe='.-')}/{quote(s.resource, safe='.-')}"
        objects, pages = 0, 0
        examples: list[str] = []
        problem: str | None = None
        forbidden = False
        complete = False
        try:
            for status, page, message in self.pages(base, {}, METADATA_ONLY, self.limits.page_size):
                if status != 200:
                    forbidden = status == 403
                    problem = f"could not list: forbidden ({message})" if forbidden else f"could not list: {message}"
                    break
                pages += 1
                items = page.get("items") if isinstance(page, dict) else None
                for item in items if isinstance(items, list) else []:
                    shown = self.tally.add(label, item.get("metadata") if isinstance(item, dict) else None)
                    objects += 1
                    if shown is not None and len(examples) < MAX_EXAMPLES:
                        examples.append(shown)
                self.tell()
                if self.tally.objects >= self.limits.max_objects:
                    problem = f"stopped at the limit of {self.limits.max_objects:,} objects in all"
                    break
                if pages >= self.limits.max_pages:
                    problem = f"stopped at the limit of {self.limits.max_pages:,} pages of {self.limits.page_size:,} for one resource"
                    break
                if self.elapsed() > self.limits.max_seconds:
                    problem = f"stopped at the time limit of {self.limits.max_seconds:g} s"
                    break
            else:
                complete = True
        except LiveError as exc:
            problem = f"could not list: {exc}"
        return ResourceRead(s.group, s.version, s.resource, s.kind, objects, complete, problem, forbidden, tuple(examples))

    # -- Helm -----------------------------------------------------------------------------------

    def helm_releases(self) -> tuple[list[HelmRelease], int]:
        """The deployed Helm 3 releases (the newest revision of each when several say deployed),
        and how many other revisions were read."""
        found: dict[tuple[str, str], HelmRelease] = {}
        others = 0
        for driver, base, query in (
            ("Secret", "/api/v1/secrets", {"fieldSelector": f"type={HELM_SECRET_TYPE}"}),
            ("ConfigMap", "/api/v1/configmaps", {"labelSelector": "owner=helm"}),
        ):
            try:
                for status, page, message in self.pages(base, query, JSON, HELM_PAGE_SIZE):
                    if status != 200:
                        self.problems.append(f"Helm releases stored in {driver}s could not be read: {message}")
                        break
                    items = page.get("items") if isinstance(page, dict) else None
                    for item in items if isinstance(items, list) else []:
                        release = self.helm_release(driver, item)
                        if release is None:
                            continue
                        if release.status != "deployed":
                            others += 1
                            continue
                        key = (release.namespace, release.name)
                        if key not in found and len(found) >= MAX_HELM_RELEASES:
                            self.problems.append(f"more than {MAX_HELM_RELEASES:,} deployed Helm releases: the others were not checked")
                            return list(found.values()), others
                        if key not in found or found[key].revision < release.revision:
                            found[key] = release
                    self.tell()
                    if self.elapsed() > self.limits.max_seconds:
                        self.problems.append(f"Helm releases stored in {driver}s: stopped at the time limit of {self.limits.max_seconds:g} s")
                        break
            except LiveError as exc:
                self.problems.append(f"Helm releases stored in {driver}s could not be read: {exc}")
        return sorted(found.values(), key=lambda r: (r.namespace, r.name)), others

    def helm_release(self, driver: str, item: object) -> HelmRelease | None:
        if not isinstance(item, dict):
            return None
        meta = item.get("metadata") if isinstance(item.get("metadata"), dict) else {}
        name = meta.get("name") if isinstance(meta, dict) else None
        storage = f"{meta.get('namespace')}/{name}" if isinstance(meta, dict) else "?"
        data = item.get("data")
        encoded = data.get("release") if isinstance(data, dict) else None
        if driver == "Secret" and isinstance(encoded, str):  # a Secret's data is base64 on the wire: Helm's own base64 is inside
            try:
                encoded = base64.b64decode(encoded, validate=True).decode("ascii")
            except (binascii.Error, ValueError):
                encoded = None
        if not isinstance(encoded, str):
            self.problems.append(f"Helm release {driver} {echo(storage, 300)}: no data.release")
            return None
        try:
            return decode_helm_release(encoded, driver, storage)
        except KcompatError as exc:
            self.problems.append(str(exc))
            return None


def read_cluster(cluster: Cluster, limits: Limits = Limits(), progress: Progress | None = None) -> ClusterReading:
    """Everything :func:`kcompat.core.cluster_scan.check_reading` needs of ``cluster`` (see the
    module). Raises :class:`LiveError` when the cluster cannot be read at all (no ``/api``)."""
    reader = _Reader(cluster, limits, progress)
    served = reader.discover()
    listable = reader.to_list(served)
    reader.listable = len(listable)
    resources: list[ResourceRead] = []
    for s in listable:
        if reader.elapsed() > limits.max_seconds or reader.tally.objects >= limits.max_objects:
            why = f"the time limit of {limits.max_seconds:g} s" if reader.elapsed() > limits.max_seconds else \
                f"the limit of {limits.max_objects:,} objects in all"
            resources.append(ResourceRead(s.group, s.version, s.resource, s.kind, 0, False, f"not read: {why} was reached"))
            continue
        resources.append(reader.read_resource(s))
        reader.listed += 1
    releases, others = reader.helm_releases()
    if progress is not None and reader.elapsed() >= FIRST_NOTE:
        progress(f"read {reader.tally.objects:,} objects in {reader.listed:,} resources and {len(releases):,} deployed Helm releases "
                 f"in {reader.elapsed():.1f} s ({reader.requests:,} requests)")
    return ClusterReading(
        context=cluster.target.context, server=cluster.target.server, served=tuple(served), resources=tuple(resources),
        applied=reader.tally.applied_versions(), releases=tuple(releases), problems=tuple(reader.problems),
        objects=reader.tally.objects, requests=reader.requests, seconds=round(reader.elapsed(), 2), other_revisions=others,
    )
