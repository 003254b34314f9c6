"""One gate's history in one manifest (a binary's ``versionedSpecs``): which stage, default and
lock it had from which release to which (:func:`gate_segments`, :func:`timeline_segments`), and
what each spec changed from the one before it (:func:`spec_changes`).

A release ``V`` is read as a ``V`` binary that does not emulate: emulated ``V``, min compatibility
``V - 1`` (SPEC §2.2, §3.3), so compatibility-gated specs start one release after their
``minCompatibilityVersion``. Pure functions over manifests (no I/O, no UI).
"""

from __future__ import annotations

from dataclasses import dataclass

from .manifest import Feature, FeatureSpec, Manifest, spec_at
from .placeholders import is_placeholder
from .stages import Stage
from .versions import (
    Version,
    major_minor,
    mm,
    offset_minor,
    parse_version,
    subtract_minor,
)

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from .removals import RemovedGate

@dataclass(frozen=True)
class GateStatus:
    """Stage, default and lock of a gate at one version."""

    stage: Stage
    default: bool
    locked: bool

    @classmethod
    def of(cls, spec: FeatureSpec) -> GateStatus:
        return cls(spec.stage, spec.default, spec.lock_to_default)

    @property
    def available(self) -> bool:
        return self.stage is not Stage.PRE_ALPHA

    def __str__(self) -> str:
        """``Beta (on)``, ``GA (on, locked)``, ``PreAlpha``."""
        if not self.available:
            return self.stage.value
        extra = "on" if self.default else "off"
        if self.locked:
            extra += ", locked"
        return f"{self.stage.value} ({extra})"


@dataclass(frozen=True)
class Segment:
    """One stretch of a gate's history: ``status`` holds from ``start`` (inclusive) to ``end``
    (exclusive). ``start`` is the spec's version as written (``0.0`` for gates registered without
    versions, ``1.0`` for gates older than versioning)."""

    gate: str
    start: Version
    end: Version
    status: GateStatus

    @property
    def stage(self) -> Stage:
        return self.status.stage

    @property
    def default(self) -> bool:
        return self.status.default

    @property
    def locked(self) -> bool:
        return self.status.locked


def _key(v: Version) -> tuple[int, int]:
    return (v.major, v.minor)


def status_at_release(feature: Feature, release: Version, use_min_compat: bool) -> GateStatus:
    """The gate in a ``release`` binary that does not emulate (emulated = release, min compat =
    release - 1)."""
    release = mm(release)
    return GateStatus.of(spec_at(feature, release, subtract_minor(release, 1), use_min_compat))


def gate_segments(feature: Feature, until: Version, use_min_compat: bool = True) -> tuple[Segment, ...]:
    """The history of one gate up to ``until`` (exclusive), one segment per distinct status.

    Breakpoints are the spec versions and, for compatibility-gated specs, the release after their
    min compatibility version (the first release whose default min compatibility meets it)."""
    until = mm(until)
    points = {_key(s.version) for s in feature.specs}
    if use_min_compat:
        points |= {_key(offset_minor(s.effective_min_compatibility, 1)) for s in feature.specs if s.effective_min_compatibility}
    ordered = [major_minor(*p) for p in sorted(points) if p < _key(until)]
    segments: list[Segment] = []
    for i, point in enumerate(ordered):
        status = status_at_release(feature, point, use_min_compat)
        end = ordered[i + 1] if i + 1 < len(ordered) else until
        if not status.available:
            continue
        if segments and segments[-1].status == status and _key(segments[-1].end) == _key(point):
            segments[-1] = Segment(feature.name, segments[-1].start, end, status)
        else:
            segments.append(Segment(feature.name, point, end, status))
    return tuple(segments)


def recorded_segments(segments: tuple[Segment, ...], start: Version | None) -> tuple[Segment, ...]:
    """``segments`` from ``start`` on: where the gate's own history starts when the data dates its
    first spec to a placeholder (:class:`~.placeholders.GateStart`; None: all of them). A stretch
    that ends at or before ``start`` is dropped, the one across it begins at ``start``: a placeholder
    version is never shown as history."""
    if start is None:
        return segments
    first = _key(start)
    out = []
    for s in segments:
        if _key(s.end) <= first:
            continue
        out.append(s if _key(s.start) >= first else Segment(s.gate, mm(start), s.end, s.status))
    return tuple(out)


def timeline_segments(manifest: Manifest, until: Version, use_min_compat: bool = True) -> tuple[Segment, ...]:
    """Every gate's history from one manifest, gates in name order, segments in time order."""
    out: list[Segment] = []
    for feature in manifest.features:
        out.extend(gate_segments(feature, until, use_min_compat))
    return tuple(out)


def introduced(feature: Feature) -> Version:
    """The version of the gate's first spec (``0.0``/``1.0`` for unversioned/pre-versioning gates)."""
    return feature.first_version


def _state(spec: FeatureSpec) -> str:
    return f"{spec.stage.value} {'on' if spec.default else 'off'}{' locked' if spec.lock_to_default else ''}"


@dataclass(frozen=True)
class SpecChange:
    """One change of a gate from the previous release: ``kind`` is "appeared", "stage",
    "default", "locked", "unlocked", "min-compatibility" or "removed"."""

    release: Version
    kind: str
    before: str
    after: str
    #: the release is a placeholder version (0.0 / 1.0): behaviour older than the gate
    placeholder: bool = False
    #: the release whose manifest gives the change ("" for a removal, read from the bundled releases'
    #: lineage, or when the caller did not say)
    source: str = ""

    def text(self) -> str:
        at = f"{self.release}" + (" (a placeholder: older than the gate)" if self.placeholder else "")
        if self.kind == "appeared":
            return f"appeared in {at} as {self.after}"
        if self.kind == "removed":
            return f"removed in {at}: {self.after}"
        if self.kind == "locked":
            return f"locked {self.after} in {at}"
        if self.kind == "unlocked":
            return f"unlocked in {at}"
        return f"{self.kind} {self.before} -> {self.after} in {at}"


def spec_changes(feature: Feature, removal: RemovedGate | None = None) -> tuple[SpecChange, ...]:
    """What each spec of ``feature`` changed from the one before it (the release it appeared in,
    each stage, default and lock change), then its removal (a :class:`~.removals.RemovedGate`)."""
    out: list[SpecChange] = []
    previous: FeatureSpec | None = None
    for spec in feature.specs:
        at, placeholder = mm(spec.version), is_placeholder(spec.version)
        if previous is None:
            if spec.stage is not Stage.PRE_ALPHA:
                out.append(SpecChange(at, "appeared", "absent", _state(spec), placeholder))
        else:
            if previous.stage is Stage.PRE_ALPHA and spec.stage is not Stage.PRE_ALPHA:
                out.append(SpecChange(at, "appeared", "absent", _state(spec), placeholder))
            elif spec.stage is not previous.stage:
                out.append(SpecChange(at, "stage", previous.stage.value, spec.stage.value, placeholder))
            if spec.default != previous.default:
                out.append(SpecChange(at, "default", "on" if previous.default else "off", "on" if spec.default else "off", placeholder))
            if spec.lock_to_default and not previous.lock_to_default:
                out.append(SpecChange(at, "locked", "unlocked", "on" if spec.default else "off", placeholder))
            elif previous.lock_to_default and not spec.lock_to_default:
                out.append(SpecChange(at, "unlocked", "locked", "unlocked", placeholder))
            if spec.min_compatibility_version != previous.min_compatibility_version and spec.min_compatibility_version is not None:
                out.append(SpecChange(at, "min-compatibility", str(previous.min_compatibility_version or "-"), str(spec.min_compatibility_version), placeholder))
        previous = spec
    if removal is not None:
        out.append(SpecChange(mm(removal.removed_in), "removed", _state(removal.last_spec), removal.behaviour))
    return tuple(out)


def changes_across(
    feature: Feature, source: str, later: Feature | None, later_source: str, removal: RemovedGate | None = None,
) -> tuple[SpecChange, ...]:
    """What each release changed for a gate, from ``feature`` (the ``source`` release's manifest:
    its changes up to that release) and, after ``source``, from ``later`` (a newer bundled
    release's manifest, ``later_source``: the changes it records after ``source`` that an older
    manifest cannot know, e.g. GA in 1.35 for a 1.33 binary's gate), then the removal. Each change
    names the manifest it comes from."""
    from dataclasses import replace

    own = [replace(c, source=source) for c in spec_changes(feature)]
    if later is not None:
        after = (parse_version(source).major, parse_version(source).minor)
        own += [
            replace(c, source=later_source)
            for c in spec_changes(later)
            if not c.placeholder and (c.release.major, c.release.minor) > after
        ]
    if removal is not None:
        own.append(SpecChange(mm(removal.removed_in), "removed", _state(removal.last_spec), removal.behaviour))
    return tuple(own)


@dataclass(frozen=True)
class StageSpan:
    """Where a gate's current stage comes from in its specs: ``since`` the version of the first spec
    of the run of specs at that stage (None when the data dates it to a placeholder 0.0 / 1.0: not
    recorded), ``until`` the version of the next spec at another stage (None: no later spec changes
    the stage) and ``next_stage`` that stage."""

    since: Version | None
    until: Version | None
    next_stage: Stage | None


def stage_span(feature: Feature, emulated: Version, min_compat: Version | None, use_min_compat: bool) -> StageSpan:
    """The span of the stage the spec in effect at ``emulated`` (and ``min_compat``) has."""
    spec = spec_at(feature, emulated, min_compat, use_min_compat)
    specs = feature.specs
    if spec not in specs:  # no spec applies yet (not introduced): it ends with the first spec
        first_spec = specs[0] if specs else None
        if first_spec is None:
            return StageSpan(None, None, None)
        return StageSpan(None, mm(first_spec.version), first_spec.stage)
    i = specs.index(spec)
    first = i
    while first > 0 and specs[first - 1].stage is spec.stage:
        first -= 1
    since = None if is_placeholder(specs[first].version) else mm(specs[first].version)
    nxt = next((s for s in specs[i + 1:] if s.stage is not spec.stage), None)
    return StageSpan(since, mm(nxt.version) if nxt is not None else None, nxt.stage if nxt is not None else None)
