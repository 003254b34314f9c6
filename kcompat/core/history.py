"""Stage history of feature gates across releases: timeline segments, the release matrix and
per-release transition counts.

Pure functions over manifests (no I/O, no UI). Two questions are answered:

* From ONE manifest (a binary's ``versionedSpecs``): which stage, default and lock did each
  gate have from which release to which (:func:`timeline_segments`). A release ``V`` is
  read as a ``V`` binary that does not emulate: emulated ``V``, min compatibility ``V - 1``
  (SPEC §2.2, §3.3), so compatibility-gated specs start one release after their
  ``minCompatibilityVersion``.
* From EVERY bundled release's own manifest: the state each release actually shipped, at its
  own version (:func:`release_matrix`), what changed from one release to the next
  (:func:`release_transitions`: stage moves, removals, default flips, locks), and which rows and
  columns of that matrix a :class:`MatrixFilter` keeps (:func:`filter_matrix`, the one filter of
  ``kcompat matrix`` and the Release matrix page).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from .compat import select_versions
from .errors import KcompatError, quote_cut
from .manifest import Feature, FeatureSpec, Manifest, spec_at
from .search import GateText, search_gates
from .stages import Stage
from .versions import Version, major_minor, mm, offset_minor, parse_version, subtract_minor

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


def timeline_segments(manifest: Manifest, until: Version, use_min_compat: bool = True) -> tuple[Segment, ...]:
    """Every gate's history from one manifest, gates in name order, segments in time order."""
    out: list[Segment] = []
    for feature in manifest.features:
        out.extend(gate_segments(feature, until, use_min_compat))
    return tuple(out)


def introduced(feature: Feature) -> Version:
    """The version of the gate's first spec (``0.0``/``1.0`` for unversioned/pre-versioning gates)."""
    return feature.first_version


# ---------------------------------------------------------------------------------------------
# Across releases: each release's own manifest at its own version.


@dataclass(frozen=True)
class MatrixRow:
    gate: str
    #: One entry per release of the matrix: the status that release shipped, None when the
    #: release's manifest does not list the gate.
    cells: tuple[GateStatus | None, ...]
    #: "kube" or "client-go", from the newest release that lists the gate
    origin: str = "kube"

    def present(self) -> tuple[bool, ...]:
        return tuple(c is not None and c.available for c in self.cells)


@dataclass(frozen=True)
class ReleaseMatrix:
    releases: tuple[str, ...]
    rows: tuple[MatrixRow, ...]

    def row(self, gate: str) -> MatrixRow | None:
        for r in self.rows:
            if r.gate == gate:
                return r
        return None

    def column(self, release: str) -> dict[str, GateStatus]:
        i = self.releases.index(release)
        return {r.gate: cell for r in self.rows if (cell := r.cells[i]) is not None}


def release_matrix(manifests: Sequence[tuple[str, Manifest]] | Mapping[str, Manifest]) -> ReleaseMatrix:
    """Gates x releases: the state each release's own manifest gives at its own version.

    ``manifests`` are (release, manifest) pairs, oldest first; the rows are the union of all gate
    names, sorted."""
    pairs = list(manifests.items()) if isinstance(manifests, Mapping) else list(manifests)
    columns = []
    for release, manifest in pairs:
        selection = select_versions(mm(parse_version(release)))
        use_mc = selection.rules.gates_use_min_compat
        columns.append(
            {
                f.name: GateStatus.of(spec_at(f, selection.emulated, selection.min_compat, use_mc))
                for f in manifest.features
            }
        )
    names = sorted({name for column in columns for name in column})
    origins = {f.name: f.origin for _, manifest in pairs for f in manifest.features}
    rows = tuple(MatrixRow(name, tuple(column.get(name) for column in columns), origins[name]) for name in names)
    return ReleaseMatrix(tuple(r for r, _ in pairs), rows)


def listed_since(matrix: ReleaseMatrix) -> dict[str, Version]:
    """Gate -> the first release of ``matrix`` whose own manifest lists it."""
    out = {}
    for row in matrix.rows:
        for release, cell in zip(matrix.releases, row.cells, strict=True):
            if cell is not None:
                out[row.gate] = mm(parse_version(release))
                break
    return out


#: Stage moves from one release to the next (the kinds the "changes per release" chart draws).
TRANSITION_KINDS = ("new alpha", "to beta", "to GA", "deprecated", "removed")
#: Changes of a gate that stays listed at its stage or not: its default, its lock.
FLAG_TRANSITION_KINDS = ("default flipped", "locked")
ALL_TRANSITION_KINDS = TRANSITION_KINDS + FLAG_TRANSITION_KINDS
#: transition kind -> the key that names it in a filter (``1.35:toGA``) and in the JSON document
TRANSITION_KEYS = {
    "new alpha": "newAlpha",
    "to beta": "toBeta",
    "to GA": "toGA",
    "deprecated": "deprecated",
    "removed": "removed",
    "default flipped": "defaultFlipped",
    "locked": "locked",
}


@dataclass(frozen=True)
class ReleaseTransitions:
    """What changed from ``previous`` to ``release`` (both bundled releases' own manifests).

    * new alpha: listed as Alpha, absent (or PreAlpha) in the previous release;
    * to beta / to GA / deprecated: now at that stage, at another stage (or absent) before; "to GA"
      in 1.35 is exactly the gates GA in release 1.35 and not GA in release 1.34;
    * removed: listed before, absent now (the KEP's "Removed" stage does not exist in code; what the
      feature does from then on is :class:`~kcompat.core.removals.RemovedGate`);
    * default flipped: listed in both, with another default now (on -> off or off -> on);
    * locked: locked to its default now, not locked (or absent) before.
    """

    release: str
    previous: str
    new_alpha: tuple[str, ...]
    to_beta: tuple[str, ...]
    to_ga: tuple[str, ...]
    deprecated: tuple[str, ...]
    removed: tuple[str, ...]
    default_flipped: tuple[str, ...] = ()
    locked: tuple[str, ...] = ()

    def gates(self, kind: str) -> tuple[str, ...]:
        return {
            "new alpha": self.new_alpha,
            "to beta": self.to_beta,
            "to GA": self.to_ga,
            "deprecated": self.deprecated,
            "removed": self.removed,
            "default flipped": self.default_flipped,
            "locked": self.locked,
        }[kind]

    def counts(self, kinds: Sequence[str] = TRANSITION_KINDS) -> dict[str, int]:
        """How many gates each kind names (the stage moves unless ``kinds`` says otherwise)."""
        return {kind: len(self.gates(kind)) for kind in kinds}

    def only(self, gates: Collection[str]) -> ReleaseTransitions:
        """The same transitions, naming only ``gates``."""
        keep = set(gates)
        return ReleaseTransitions(
            self.release, self.previous, *(tuple(g for g in self.gates(k) if g in keep) for k in ALL_TRANSITION_KINDS)
        )


def _changes(before: GateStatus | None, now: GateStatus | None) -> list[str]:
    """The transition kinds of one gate from one release (``before``) to the next (``now``)."""
    had = before is not None and before.available
    has = now is not None and now.available
    if had and not has:
        return ["removed"]
    if now is None or not has:
        return []
    kinds = []
    if now.stage is Stage.ALPHA and not had:
        kinds.append("new alpha")
    for stage, kind in ((Stage.BETA, "to beta"), (Stage.GA, "to GA"), (Stage.DEPRECATED, "deprecated")):
        if now.stage is stage and (before is None or not had or before.stage is not stage):
            kinds.append(kind)
    if had and before is not None and before.default != now.default:
        kinds.append("default flipped")
    if now.locked and (before is None or not had or not before.locked):
        kinds.append("locked")
    return kinds


def release_transitions(matrix: ReleaseMatrix) -> tuple[ReleaseTransitions, ...]:
    """One entry per release that has a predecessor in the matrix (the oldest has no baseline)."""
    out = []
    for i in range(1, len(matrix.releases)):
        found: dict[str, list[str]] = {kind: [] for kind in ALL_TRANSITION_KINDS}
        for row in matrix.rows:
            for kind in _changes(row.cells[i - 1], row.cells[i]):
                found[kind].append(row.gate)
        out.append(
            ReleaseTransitions(
                matrix.releases[i],
                matrix.releases[i - 1],
                *(tuple(found[kind]) for kind in ALL_TRANSITION_KINDS),
            )
        )
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Filters of the matrix (the Release matrix page and ``kcompat matrix`` alike).

#: Where a gate comes from: the kube binaries' own list or k8s.io/client-go's.
ORIGINS = ("kube", "client-go")
#: Stages the stage filter offers (PreAlpha is "not listed yet": never a cell's stage).
FILTER_STAGES = (Stage.ALPHA, Stage.BETA, Stage.GA, Stage.DEPRECATED)
_BY_KEY = {key.casefold(): kind for kind, key in TRANSITION_KEYS.items()}


@dataclass(frozen=True)
class Transition:
    """One kind of change in one release: ``1.35:toGA`` = the gates that became GA in 1.35."""

    release: str
    kind: str

    def __str__(self) -> str:
        return f"{self.release}:{TRANSITION_KEYS[self.kind]}"


def _release(text: str, releases: Sequence[str], what: str, whole: str | None = None) -> str:
    value = text.strip()
    plain = value[1:] if value[:1] in ("v", "V") else value
    if plain in releases:
        return plain
    where = f"{what} {quote_cut(whole)}: {quote_cut(text)} is" if whole is not None else f"{what} {quote_cut(text)}:"
    raise KcompatError(f"{where} not a bundled release (one of {', '.join(releases)})")


def parse_transition(text: str, releases: Sequence[str], what: str = "change") -> Transition:
    """``RELEASE:KIND`` (``1.35:toGA``; the kind's key, any case) in one of ``releases``, the
    oldest excepted (it has no previous release to compare with)."""
    release, sep, key = text.partition(":")
    if not sep or not key.strip():
        raise KcompatError(
            f"{what} {quote_cut(text)}: expected RELEASE:KIND such as 1.35:toGA "
            f"(KIND one of {', '.join(TRANSITION_KEYS.values())})"
        )
    kind = _BY_KEY.get(key.strip().casefold())
    if kind is None:
        raise KcompatError(f"{what} {quote_cut(text)}: {quote_cut(key.strip())} is not one of {', '.join(TRANSITION_KEYS.values())}")
    found = _release(release, releases, what, text)
    if releases and found == releases[0]:
        raise KcompatError(f"{what} {quote_cut(text)}: {found} is the oldest bundled release, there is no previous one to compare with")
    return Transition(found, kind)


def parse_stage(text: str, what: str = "stage") -> Stage:
    """A stage the filter offers, by name in any case (``beta``, ``GA``)."""
    for stage in FILTER_STAGES:
        if stage.value.casefold() == text.strip().casefold():
            return stage
    raise KcompatError(f"{what} {quote_cut(text)}: not one of {', '.join(s.value for s in FILTER_STAGES)}")


def parse_origin(text: str, what: str = "origin") -> str:
    value = text.strip().casefold()
    if value in ORIGINS:
        return value
    raise KcompatError(f"{what} {quote_cut(text)}: not one of {', '.join(ORIGINS)}")


def parse_release(text: str, releases: Sequence[str], what: str = "release") -> str:
    """One of ``releases`` (``1.35`` or ``v1.35``)."""
    return _release(text, releases, what)


@dataclass(frozen=True)
class MatrixFilter:
    """Which rows and columns of a :class:`ReleaseMatrix` to show. Every part that is set must
    hold (and); a part with several values holds when any of them does (or).

    * ``changed``: the gate is named by one of these transitions (``1.35:toGA``);
    * ``stages``: the gate is listed at one of these stages in ``stage_release`` (the newest
      release of the matrix when None);
    * ``origins``: the gate comes from one of these (``kube``, ``client-go``);
    * ``search``: :func:`kcompat.core.search.matches` finds the gate (name, abbreviation, KEP
      number, words of its description);
    * ``changed_only``: the gate's state differs between two of the releases shown;
    * ``releases``: the columns shown (all when empty), in the matrix's order.
    """

    changed: tuple[Transition, ...] = ()
    stages: tuple[Stage, ...] = ()
    stage_release: str | None = None
    origins: tuple[str, ...] = ()
    search: str = ""
    changed_only: bool = False
    releases: tuple[str, ...] = ()

    def check(self, matrix: ReleaseMatrix) -> None:
        """Raise :class:`KcompatError` naming the first release this filter names that the matrix lacks."""
        names = [t.release for t in self.changed] + list(self.releases)
        if self.stage_release is not None:
            names.append(self.stage_release)
        for name in names:
            _release(name, matrix.releases, "release")

    def document(self) -> dict[str, object]:
        """The filter as the JSON document echoes it."""
        return {
            "changed": [str(t) for t in self.changed],
            "stages": [s.value for s in self.stages],
            "inRelease": self.stage_release,
            "origins": list(self.origins),
            "search": self.search,
            "changedOnly": self.changed_only,
            "releases": list(self.releases),
        }


@dataclass(frozen=True)
class FilteredMatrix:
    """The rows and columns a :class:`MatrixFilter` keeps, and the transitions of the releases
    shown (computed on the whole matrix, so a release's changes are against its real previous
    release), naming only the gates shown."""

    matrix: ReleaseMatrix
    transitions: tuple[ReleaseTransitions, ...]
    filter: MatrixFilter
    #: gates in the whole matrix (before filtering)
    total: int


def filter_matrix(
    matrix: ReleaseMatrix, flt: MatrixFilter, texts: Mapping[str, GateText] | None = None
) -> FilteredMatrix:
    """The rows of ``matrix`` that ``flt`` keeps, with its columns; ``texts`` (descriptions, KEP
    links) are what the search finds gates by besides their names."""
    flt.check(matrix)
    all_transitions = release_transitions(matrix)
    columns = [i for i, r in enumerate(matrix.releases) if not flt.releases or r in flt.releases]
    rows = list(matrix.rows)
    if flt.changed:
        by_release = {t.release: t for t in all_transitions}
        named = {g for t in flt.changed for g in by_release[t.release].gates(t.kind)}
        rows = [r for r in rows if r.gate in named]
    if flt.stages:
        at = matrix.releases.index(flt.stage_release or matrix.releases[-1])
        rows = [r for r in rows if (c := r.cells[at]) is not None and c.stage in flt.stages]
    if flt.origins:
        rows = [r for r in rows if r.origin in flt.origins]
    if flt.search.strip():
        found = set(search_gates(flt.search, [r.gate for r in rows], texts))
        rows = [r for r in rows if r.gate in found]
    if flt.changed_only:
        rows = [r for r in rows if len({r.cells[i] for i in columns}) > 1]
    shown = ReleaseMatrix(
        tuple(matrix.releases[i] for i in columns),
        tuple(MatrixRow(r.gate, tuple(r.cells[i] for i in columns), r.origin) for r in rows),
    )
    names = {r.gate for r in rows}
    transitions = tuple(t.only(names) for t in all_transitions if t.release in shown.releases)
    return FilteredMatrix(shown, transitions, flt, len(matrix.rows))


# ---------------------------------------------------------------------------------------------
# What each release changed for one gate (the gate detail page).

# The placeholder helpers live in .placeholders (the gates JSON needs them without this module).
from .placeholders import PLACEHOLDER_VERSIONS, introduced_text, is_placeholder, placeholder_start  # noqa: E402,F401


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
