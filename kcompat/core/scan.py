"""Will these workloads still work under this control plane? Kubernetes objects read from YAML
and JSON manifests, each checked against the built-in APIs a kube-apiserver serves at an
emulated version (``kcompat scan``, the Check manifests page).

Reading (:func:`read_manifests`): a YAML stream of any number of documents (``---``; rendered
Helm output with its ``# Source: chart/templates/x.yaml`` comments), a ``kind: List`` (``kubectl
get -o yaml``), a JSON object or a JSON array of objects. Every input goes through the project's
safe YAML reader (:func:`kcompat.core.safe_yaml.read_yaml_documents`: no anchors or aliases, no
duplicate keys, bounded nesting) and is held to :data:`MAX_SCAN_BYTES`, :data:`MAX_SCAN_DOCUMENTS`
and :data:`MAX_SCAN_VALUES` before anything is built; binary or non-UTF-8 data is refused. Each
object keeps its file and line (the line of its first key) and, in Helm output, the template it
came from. A ``CustomResourceDefinition`` in the input is read too: the custom resources it
defines are recognised.

Checking (:func:`check_objects`): an object's ``apiVersion`` and ``kind`` name a group, version
and kind; the kind is mapped to its REST resource through the binary release's API data (the
entries of :func:`kcompat.core.apis.evaluate_api_availability`, the same answer as ``kcompat
apis``), which says whether it is served and why. A kind that the binary's data does not have is
looked up in the lifecycle of every bundled release (removed before the binary, introduced
after it); a group no bundled release has is not built in (a custom resource): not checked,
unless a CustomResourceDefinition of the input defines it. For an object that is not served, the
nearest served version is the replacement the data names (``extensions/v1beta1`` Ingress ->
``networking.k8s.io/v1``), else the highest-priority served version of the same kind in its group.
"""

from __future__ import annotations

import bisect
import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .api_versions import versions_by_priority
from .apis import ApiAvailability, ApiEntry, Reason
from .apis_data import ApiRelease, Lifecycle, group_version_text
from .errors import KcompatError, cut, echo
from .inspect.model import Lines
from .problems import Remedy
from .safe_yaml import read_yaml_documents
from .text_input import decode_input
from .versions import Version, mm, parse_version

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .safe_yaml import YamlPath

#: Largest manifest input read (bytes). Reading costs about 0.6 s of CPU per MB (the safety scan,
#: then libyaml's loader): 1 MB keeps one input under a second; a rendered Helm chart of a few
#: dozen objects is 50-300 kB.
MAX_SCAN_BYTES = 1024 * 1024
#: YAML documents in one input (a large rendered chart has a few hundred).
MAX_SCAN_DOCUMENTS = 2_000
#: YAML values (scalars and collections) in one input: bounds the work of a dense input.
MAX_SCAN_VALUES = 80_000
#: Objects in all the inputs of one scan (``kind: List`` items and array elements included).
MAX_SCAN_OBJECTS = 20_000

CRD_GROUP = "apiextensions.k8s.io"
CRD_KIND = "CustomResourceDefinition"
_HELM_SOURCE = re.compile(r"^# Source: (.+?)\s*$", re.M)
_DOCUMENT_START = re.compile(r"^---", re.M)
#: how the status of an object reads
SERVED, NOT_SERVED, NOT_CHECKED = "served", "not served", "not checked"


@dataclass(frozen=True)
class ManifestObject:
    """One Kubernetes object of an input: what it is, and where it is written."""

    api_version: str
    kind: str
    name: str | None
    namespace: str | None
    file: str
    line: int
    #: the Helm template it was rendered from (the ``# Source:`` comment of its document), if any
    template: str | None = None

    @property
    def group_version(self) -> tuple[str, str]:
        """``apps/v1`` -> ("apps", "v1"); ``v1`` -> ("", "v1") (the core group)."""
        group, _, version = self.api_version.rpartition("/")
        return group, version

    @property
    def where(self) -> str:
        """``app.yaml line 12``, with the Helm template: ``render.yaml line 40 (chart/templates/ingress.yaml)``."""
        return f"{self.file} line {self.line}" + (f" ({self.template})" if self.template else "")


@dataclass(frozen=True)
class CustomResource:
    """What a CustomResourceDefinition of the input defines: a kind of a group, its versions
    (name, served), where it is written."""

    group: str
    kind: str
    versions: tuple[tuple[str, bool], ...]
    file: str
    line: int

    @property
    def served(self) -> tuple[str, ...]:
        return tuple(name for name, served in self.versions if served)


@dataclass(frozen=True)
class ManifestReading:
    """Everything one input holds."""

    source: str
    #: "YAML" or "JSON"
    format: str
    documents: int
    objects: tuple[ManifestObject, ...]
    definitions: tuple[CustomResource, ...]


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


#: Characters of an object's name, kind, apiVersion or template kept (a Kubernetes name has at most 253).
NAME_LIMIT = 253


def _cut(value: str | None) -> str | None:
    return cut(value, NAME_LIMIT) if value is not None else None


def read_manifests(data: bytes | str, source: str) -> ManifestReading:
    """The objects of one input (see the module docstring). Input that is no manifest raises
    :class:`KcompatError` naming the file and, where there is one, the line."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if len(raw) > MAX_SCAN_BYTES:
        raise KcompatError(f"{source}: {len(raw):,} bytes, larger than the limit of {MAX_SCAN_BYTES:,} bytes for one manifest input")
    # UTF-8 (with a byte-order mark or not), UTF-16/32 with one, gzip within the limit; binary refused by what it is
    text = decode_input(raw, source, MAX_SCAN_BYTES, "a YAML or JSON manifest")
    # (UTF-16 text is at most 1.5 times larger as UTF-8: the decoded text is held to twice the limit)
    documents = read_yaml_documents(text, source, 2 * MAX_SCAN_BYTES, MAX_SCAN_DOCUMENTS, MAX_SCAN_VALUES)
    stripped = text.lstrip()
    fmt = "JSON" if stripped[:1] in ("{", "[") else "YAML"
    found = _Found(source, _templates(text))
    for doc, lines in documents:
        if doc is None:
            continue  # an empty document (only comments): Helm renders those for disabled templates
        root = lines.get((), 1)
        if isinstance(doc, list):
            for i, item in enumerate(doc):
                found.add(item, lines.get((i,), root), lines, (i,))
        else:
            found.add(doc, root, lines, ())
        if len(found.objects) > MAX_SCAN_OBJECTS:
            raise KcompatError(f"{source}: more than {MAX_SCAN_OBJECTS:,} objects, the limit for one scan")
    problems = found.problems
    if not problems and not found.objects:
        problems.append(f"{source}: no Kubernetes object in it (empty, or only comments and empty documents)")
    if problems:
        raise KcompatError("; ".join(problems[:20]) + (f"; and {len(problems) - 20:,} more" if len(problems) > 20 else ""))
    count = sum(1 for d, _ in documents if d is not None)
    return ManifestReading(source, fmt, count, tuple(found.objects), tuple(found.definitions))


def _templates(text: str) -> tuple[list[int], list[str | None]]:
    """Helm's ``# Source:`` comments and the ``---`` lines, as (lines, template or None) sorted by
    line: an object's template is the newest entry before it, unless that is a ``---``."""
    sources = list(_HELM_SOURCE.finditer(text))
    if not sources:
        return [], []
    lines = Lines(text)  # the line of an offset by bisection: linear in the text overall
    marks: list[tuple[int, str | None]] = [(lines.line(m.start()), m.group(1)) for m in sources]
    marks += [(lines.line(m.start()), None) for m in _DOCUMENT_START.finditer(text)]
    marks.sort(key=lambda m: (m[0], m[1] is not None))
    return [m[0] for m in marks], [m[1] for m in marks]


def _template_of(line: int, templates: tuple[list[int], list[str | None]]) -> str | None:
    at = bisect.bisect_left(templates[0], line) - 1
    return templates[1][at] if at >= 0 else None


class _Found:
    """The objects, definitions and problems of one input, as they are read."""

    def __init__(self, source: str, templates: tuple[list[int], list[str | None]]) -> None:
        self.source = source
        self.templates = templates
        self.objects: list[ManifestObject] = []
        self.definitions: list[CustomResource] = []
        self.problems: list[str] = []

    def add(self, item: object, line: int, lines: Mapping[YamlPath, int], path: YamlPath) -> None:
        """One value of a document (its root, or an element of a root list): an object, or a
        ``List`` whose items are objects."""
        where = f"{self.source} line {line}"
        if not isinstance(item, dict):
            self.problems.append(f"{where}: expected a Kubernetes object (a mapping with apiVersion and kind), found {_kind_of(item)}")
            return
        api_version, kind = _text(item.get("apiVersion")), _text(item.get("kind"))
        if kind is not None and kind.endswith("List") and isinstance(item.get("items"), list) and not path:
            for i, member in enumerate(item["items"]):
                self.add(member, lines.get(("items", i), line), lines, ("items", i))
            return
        if not api_version or not kind:
            missing = " and ".join(k for k, v in (("apiVersion", api_version), ("kind", kind)) if not v)
            self.problems.append(f"{where}: no {missing} (a string): not a Kubernetes object")
            return
        if api_version.count("/") > 1 or not api_version.rpartition("/")[2]:
            self.problems.append(f"{where}: apiVersion {echo(api_version)!r} is not group/version or version")
            return
        found = item.get("metadata")
        metadata: dict[object, object] = found if isinstance(found, dict) else {}
        name = _text(metadata.get("name")) or _text(metadata.get("generateName"))
        namespace, template = _text(metadata.get("namespace")), _template_of(line, self.templates)
        obj = ManifestObject(  # input text, shown as it is but never longer than a Kubernetes name may be
            cut(api_version, NAME_LIMIT), cut(kind, NAME_LIMIT), _cut(name), _cut(namespace), self.source, line, _cut(template),
        )
        self.objects.append(obj)
        definition = _definition(obj, item.get("spec"))
        if definition is not None:
            self.definitions.append(definition)


def _definition(obj: ManifestObject, spec: object) -> CustomResource | None:
    """What a CustomResourceDefinition object defines (None for any other object, or a CRD
    without a group and kind)."""
    if obj.kind != CRD_KIND or obj.group_version[0] != CRD_GROUP or not isinstance(spec, dict):
        return None
    group, names = _text(spec.get("group")), spec.get("names")
    kind = _text(names.get("kind")) if isinstance(names, dict) else None
    if not group or not kind:
        return None
    versions: list[tuple[str, bool]] = []
    listed = spec.get("versions")
    for v in listed if isinstance(listed, list) else []:
        if isinstance(v, dict) and _text(v.get("name")):
            versions.append((v["name"], v.get("served", True) is not False))
    if not versions and _text(spec.get("version")):  # apiextensions.k8s.io/v1beta1's single version
        versions.append((spec["version"], True))
    return CustomResource(group, kind, tuple(versions), obj.file, obj.line)


def _kind_of(value: object) -> str:
    if value is None:
        return "an empty value"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {echo(value)!r}"
    return f"a {type(value).__name__}"


# ---------------------------------------------------------------------------------------------
# The lifecycle of every kind in every bundled release (apis/lifecycle.csv).


@dataclass(frozen=True)
class KindLifecycle:
    """A kind's prerelease lifecycle as the newest bundled release that has it says."""

    release: Version
    introduced: Version | None
    removed: Version | None
    replacement: str | None
    deprecated: Version | None = None
    #: False: the kind's package has no prerelease-lifecycle file (``lifecycle_source`` none)
    recorded: bool = True

    @property
    def lifecycle(self) -> Lifecycle:
        return Lifecycle(self.deprecated, self.removed, self.replacement, self.recorded)


LIFECYCLE_COLUMNS = ("release", "group", "version", "kind", "stage", "introduced", "deprecated", "removed", "replacement", "is_list")


def parse_lifecycle_csv(text: str, source: str) -> dict[tuple[str, str, str], KindLifecycle]:
    """``apis/lifecycle.csv``: (group, version, kind) -> its lifecycle in the newest release that lists it."""
    rows = csv.reader(io.StringIO(text))
    header = next(rows, None)
    if header is None or tuple(header[: len(LIFECYCLE_COLUMNS)]) != LIFECYCLE_COLUMNS:
        raise KcompatError(f"{source}: unexpected header (expected {', '.join(LIFECYCLE_COLUMNS)}, ...)")
    out: dict[tuple[str, str, str], KindLifecycle] = {}
    for number, row in enumerate(rows, 2):
        try:
            release, group, version, kind, _, introduced, deprecated, removed, replacement, is_list = row[:10]
            if is_list == "true":
                continue
            entry = KindLifecycle(
                parse_version(release), parse_version(introduced) if introduced else None,
                parse_version(removed) if removed else None, replacement or None,
                parse_version(deprecated) if deprecated else None, not (len(row) > 11 and row[11] == "none"),
            )
        except (ValueError, KcompatError) as exc:
            raise KcompatError(f"{source} line {number}: malformed row ({exc})") from None
        key = (group, version, kind)
        if key not in out or out[key].release < entry.release:
            out[key] = entry
    return out


# ---------------------------------------------------------------------------------------------
# Checking


@dataclass(frozen=True)
class ObjectCheck:
    """One object and what the selection does with it."""

    object: ManifestObject
    group: str
    version: str
    #: the REST resource (plural) of the kind, when the data has one
    resource: str | None
    #: :data:`SERVED`, :data:`NOT_SERVED` or :data:`NOT_CHECKED`
    status: str
    #: why, as a code: served, removed, not-introduced, off-by-default, disabled-by-runtime-config,
    #: gate-off, not-in-binary, not-a-resource, unknown-version, not-in-data, custom-resource,
    #: custom-resource-version, not-built-in
    why: str
    #: why, in words (the engine's reason for the entry, or the lifecycle's)
    reason: str
    #: the nearest served version: "networking.k8s.io/v1" (of the same kind, or ``kind`` below)
    nearest: str | None = None
    nearest_kind: str | None = None
    #: how it was found: "the replacement the data names", "a served version of Ingress in networking.k8s.io"
    nearest_note: str | None = None
    #: deprecated in, removed in, replacement of a built-in kind, from the release data (None: not
    #: a built-in kind the data has)
    lifecycle: Lifecycle | None = None

    @property
    def nearest_text(self) -> str:
        """``networking.k8s.io/v1 Ingress (the replacement the data names)``, or ""."""
        if self.nearest is None:
            return ""
        return f"{self.nearest} {self.nearest_kind or self.object.kind}" + (f" ({self.nearest_note})" if self.nearest_note else "")


_WHY = {
    Reason.INTRODUCED_AFTER_EMULATED: "not-introduced",
    Reason.REMOVED_AT_OR_BEFORE_EMULATED: "removed",
    Reason.BETA_OFF_BY_DEFAULT: "off-by-default",
    Reason.ALPHA_OFF_BY_DEFAULT: "off-by-default",
    Reason.DISABLED_BY_RUNTIME_CONFIG: "disabled-by-runtime-config",
    Reason.FEATURE_GATE_OFF: "gate-off",
    Reason.NOT_IN_DEFAULT_LISTS: "not-in-binary",
    Reason.NO_STORAGE_IN_BINARY: "not-in-binary",
}


def check_objects(
    objects: Sequence[ManifestObject],
    definitions: Sequence[CustomResource],
    availability: ApiAvailability,
    api: ApiRelease,
    lifecycle: Mapping[tuple[str, str, str], KindLifecycle],
) -> tuple[ObjectCheck, ...]:
    """Each object against ``availability`` (the binary's answer for the selection; ``api`` is its
    release's API data, ``lifecycle`` every bundled release's): see the module docstring."""
    entries = {e.key: e for e in availability.entries}
    served_by_kind: dict[tuple[str, str], list[str]] = {}
    for e in availability.entries:
        if e.served:
            served_by_kind.setdefault((e.group, e.kind), []).append(e.version)
    groups = set(api.groups()) | {g for g, _, _ in lifecycle}
    crds = {(d.group, d.kind): d for d in definitions}
    context = _Context(availability, api, lifecycle, entries, served_by_kind)
    return tuple(_check(o, groups, crds, context) for o in objects)


@dataclass(frozen=True)
class _Context:
    availability: ApiAvailability
    api: ApiRelease
    lifecycle: Mapping[tuple[str, str, str], KindLifecycle]
    entries: Mapping[tuple[str, str, str], ApiEntry]
    served_by_kind: Mapping[tuple[str, str], list[str]]


def _check(o: ManifestObject, groups: set[str], crds: Mapping[tuple[str, str], CustomResource], c: _Context) -> ObjectCheck:
    group, version = o.group_version
    gv = group_version_text(group, version)
    binary, emulated = mm(c.availability.binary), mm(c.availability.emulated)
    entry = c.entries.get((group, version, o.kind))
    if entry is not None:
        if entry.served:
            return ObjectCheck(o, group, version, entry.resource or None, SERVED, "served", entry.detail, lifecycle=entry.lifecycle)
        why = _WHY.get(entry.reason, "not-in-binary")
        reason = entry.detail
        if entry.removed is not None and mm(entry.removed) <= emulated and why != "removed":
            why, reason = "removed", f"removed in {entry.removed}, at or before the emulated version {emulated} ({entry.detail})"
        return _nearest(ObjectCheck(o, group, version, entry.resource or None, NOT_SERVED, why, reason, lifecycle=entry.lifecycle), c)
    found = c.api.find(group, version)
    kind = next((k for k in found.kinds if k.kind == o.kind), None) if found is not None else None
    if kind is not None:  # in the binary's data, but no REST resource of its own
        return ObjectCheck(
            o, group, version, None, NOT_SERVED, "not-a-resource",
            f"{o.kind} is no REST resource of its own in {gv} (a body sent to another resource): it cannot be created as an object",
            lifecycle=kind.lifecycle,
        )
    known = c.lifecycle.get((group, version, o.kind))
    if known is not None:
        if known.removed is not None and mm(known.removed) <= binary:
            why, reason = "removed", f"removed in {known.removed}: a {binary} binary no longer has {gv} {o.kind}"
        elif known.introduced is not None and mm(known.introduced) > binary:
            why, reason = "not-introduced", f"introduced in {known.introduced}, after the {binary} binary"
        else:  # a built-in kind the bundled data of this release lacks: say so, never guess
            since = f" (introduced in {known.introduced})" if known.introduced is not None else ""
            return ObjectCheck(
                o, group, version, None, NOT_CHECKED, "not-in-data",
                f"{gv} {o.kind} is built in{since}, but the bundled API data of {binary} does not list it (bundled for "
                f"{known.release}): not checked", lifecycle=known.lifecycle,
            )
        return _nearest(ObjectCheck(o, group, version, None, NOT_SERVED, why, reason, lifecycle=known.lifecycle), c, known.replacement)
    if group in groups:
        return _nearest(ObjectCheck(
            o, group, version, None, NOT_SERVED, "unknown-version",
            f"{gv} has no kind {o.kind} in any bundled release (a misspelt kind or version?)",
        ), c)
    crd = crds.get((group, o.kind))
    if crd is not None:
        where = f"{crd.file} line {crd.line}"
        if version in crd.served:
            return ObjectCheck(
                o, group, version, None, NOT_CHECKED, "custom-resource",
                f"a custom resource, defined by the CustomResourceDefinition at {where} (served once it is applied): not a built-in API",
            )
        serves = ", ".join(crd.served) or "no version"
        best = versions_by_priority(crd.served)
        return ObjectCheck(
            o, group, version, None, NOT_SERVED, "custom-resource-version",
            f"the CustomResourceDefinition at {where} serves {serves}, not {version}",
            group_version_text(group, best[0]) if best else None, None, "a version its CustomResourceDefinition serves" if best else None,
        )
    return ObjectCheck(
        o, group, version, None, NOT_CHECKED, "not-built-in",
        f"{group or gv} is not a built-in API group of any bundled release (a custom resource?): not checked",
    )


def _nearest(check: ObjectCheck, c: _Context, replacement: str | None = None) -> ObjectCheck:
    """``check`` with the nearest served version: the replacement the data names when it is served,
    else the highest-priority served version of the same kind in the group."""
    group, kind = check.group, check.object.kind
    named = replacement
    if named is None:
        found = c.api.find(group, check.version)
        data = next((k for k in found.kinds if k.kind == kind), None) if found is not None else None
        named = data.replacement if data is not None else None
    if named is None:
        known = c.lifecycle.get((group, check.version, kind))
        named = known.replacement if known is not None else None
    if named:
        gv_text, _, new_kind = named.rpartition("/")
        new_group, _, new_version = gv_text.rpartition("/")
        entry = c.entries.get((new_group, new_version, new_kind))
        if entry is not None and entry.served:
            return _with(check, group_version_text(new_group, new_version), new_kind if new_kind != kind else None, "the replacement the data names")
    versions = [v for v in c.served_by_kind.get((group, kind), []) if v != check.version]
    if versions:
        best = versions_by_priority(versions)[0]
        return _with(check, group_version_text(group, best), None, f"a served version of {kind} in {group or 'the core group'}")
    return check


def _with(check: ObjectCheck, nearest: str, kind: str | None, note: str) -> ObjectCheck:
    from dataclasses import replace

    return replace(check, nearest=nearest, nearest_kind=kind, nearest_note=note)


# ---------------------------------------------------------------------------------------------
# The answer of one scan (kcompat.answers.scan builds it)


@dataclass(frozen=True)
class ScanInput:
    """One input as it was read: its format and counts, or why it could not be used."""

    file: str
    format: str | None
    documents: int
    objects: int
    problem: str | None = None


@dataclass(frozen=True)
class ScanAnswer:
    """The answer for some inputs and one selection. Plain values (sent between processes)."""

    binary: str
    #: the binary was not given: the newest bundled release answers
    default_binary: bool
    emulated: str
    min_compat: str
    feature_gates: str
    runtime_config: str
    emulation_forward_compatible: bool
    runtime_config_emulation_forward_compatible: bool
    #: the binary's own errors for the selection (it would refuse to start)
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    hints: tuple[Remedy, ...]
    inputs: tuple[ScanInput, ...]
    checks: tuple[ObjectCheck, ...]

    @property
    def problems(self) -> tuple[str, ...]:
        """Why an input could not be used."""
        return tuple(i.problem for i in self.inputs if i.problem)

    @property
    def valid(self) -> bool:
        return not self.errors and not self.problems

    def count(self, status: str) -> int:
        return sum(c.status == status for c in self.checks)

    @property
    def not_served(self) -> tuple[ObjectCheck, ...]:
        return tuple(c for c in self.checks if c.status == NOT_SERVED)

    @property
    def exit_status(self) -> int:
        """0 every built-in object served, 1 some not served, 2 an unusable input or a refused selection."""
        if not self.valid:
            return 2
        return 1 if self.not_served else 0

    def shown(self, every: bool = False) -> tuple[ObjectCheck, ...]:
        """The objects a report lists: those not served and those not checked (``every``: all)."""
        return self.checks if every else tuple(c for c in self.checks if c.status != SERVED)
