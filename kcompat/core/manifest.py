"""Feature lifecycle manifests: the data model (SPEC §3.1-§3.3): a gate's versioned specs, the
spec in effect at (emulated, min compatibility), a gate's state, and one binary's manifest with the
lookup tables the evaluation reads. Reading and checking a manifest as a binary registers it is
:mod:`.registration`'s; reading the files is :mod:`kcompat.data.files`'s.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType

from .record import Record, set_field
from .stages import Stage
from .versions import Version, major_minor

META_GATES = ("AllAlpha", "AllBeta")


ZERO = major_minor(0, 0)


class FeatureSpec(Record):
    """One versioned spec: from ``version`` on, the gate has this stage, default and lock."""

    __slots__ = ("default", "effective_min_compatibility", "lock_to_default", "min_compatibility_version", "stage", "version")
    version: Version
    default: bool
    lock_to_default: bool
    stage: Stage
    #: ``minCompatibilityVersion`` as written (None when absent).
    min_compatibility_version: Version | None
    #: The value in force: as written, else inherited from the previous spec (SPEC §3.2).
    effective_min_compatibility: Version | None

    def __init__(self, version: Version, default: bool, lock_to_default: bool, stage: Stage,
                 min_compatibility_version: Version | None = None, effective_min_compatibility: Version | None = None) -> None:
        set_field(self, "version", version)
        set_field(self, "default", default)
        set_field(self, "lock_to_default", lock_to_default)
        set_field(self, "stage", stage)
        set_field(self, "min_compatibility_version", min_compatibility_version)
        set_field(self, "effective_min_compatibility", effective_min_compatibility)


PRE_ALPHA_SPEC = FeatureSpec(version=ZERO, default=False, lock_to_default=False, stage=Stage.PRE_ALPHA)


# (collections.namedtuple rather than typing.NamedTuple: the same tuple class, without importing
# ``typing`` on the CLI's start-up path)
class GateState(namedtuple("GateState", ("name", "enabled", "stage", "default", "locked", "explicit", "source"))):
    """One gate at the selected versions after the flags (SPEC §4): ``name`` (str), ``enabled``,
    ``stage`` (Stage), ``default``, ``locked``, ``explicit`` (bools) and ``source``, why it has its
    value: "default", "flag", "AllAlpha" or "AllBeta"."""

    __slots__ = ()


def _mm_key(version: Version) -> tuple[int, int]:
    """(major, minor) of a version, as :attr:`Feature.version_keys` holds it."""
    c = version.components
    return (c[0], c[1] if len(c) > 1 else 0)


def default_state(name: str, spec: FeatureSpec) -> GateState:
    """The state of a gate nobody set: its spec's default."""
    return GateState(name, spec.default, spec.stage, spec.default, spec.lock_to_default, False, "default")


class Feature(Record):
    """One gate of a manifest: its specs (ascending versions) and the gates it depends on."""

    __slots__ = ("default_states", "dependencies", "min_compat_keys", "name", "origin", "specs", "version_keys")
    _uncompared = _derived = ("version_keys", "min_compat_keys", "default_states")
    name: str
    specs: tuple[FeatureSpec, ...]
    dependencies: tuple[str, ...]
    #: where the binary registers the gate from: "kube" (the release's feature list) or
    #: "client-go" (k8s.io/client-go features, added to every kube binary's gate)
    origin: str
    #: (major, minor) of each spec, for the hot path of ``spec_at``
    version_keys: tuple[tuple[int, int], ...]
    #: (major, minor) of each spec's effective min compat, None where there is none
    min_compat_keys: tuple[tuple[int, int] | None, ...]
    #: the unset state for each spec, then for PreAlpha (last)
    default_states: tuple[GateState, ...]

    def __init__(self, name: str, specs: tuple[FeatureSpec, ...], dependencies: tuple[str, ...] = (), origin: str = "kube") -> None:
        set_field(self, "name", name)
        set_field(self, "specs", specs)
        set_field(self, "dependencies", dependencies)
        set_field(self, "origin", origin)
        # (one pass over the specs: a release's manifest builds hundreds of these on every CLI start)
        version_keys, min_compat_keys, states = [], [], []
        for s in specs:
            version_keys.append(_mm_key(s.version))
            mc = s.effective_min_compatibility
            min_compat_keys.append(None if mc is None else _mm_key(mc))
            states.append(default_state(name, s))
        states.append(default_state(name, PRE_ALPHA_SPEC))
        set_field(self, "version_keys", tuple(version_keys))
        set_field(self, "min_compat_keys", tuple(min_compat_keys))
        set_field(self, "default_states", tuple(states))

    @property
    def first_version(self) -> Version:
        return self.specs[0].version

    def spec_index_at(self, emu: tuple[int, int], mc: tuple[int, int] | None) -> int:
        """Index of the spec in effect at (emu, mc), or -1 for PreAlpha (SPEC §3.3)."""
        keys = self.version_keys
        i = len(keys) - 1
        if mc is None:
            while i >= 0 and keys[i] > emu:
                i -= 1
            return i
        needs = self.min_compat_keys
        while i >= 0 and (keys[i] > emu or ((need := needs[i]) is not None and mc < need)):
            i -= 1
        return i


def spec_at(feature: Feature, emulated: Version, min_compat: Version | None, use_min_compat: bool) -> FeatureSpec:
    """The spec in effect at (emulated, min compat): the last spec whose version is <= emulated
    and (1.35+) whose min-compat requirement is met; PreAlpha when none applies (SPEC §3.3,
    component-base ``featureSpecAtEmulationAndMinCompatVersion``)."""
    mc = (min_compat.major, min_compat.minor) if (use_min_compat and min_compat is not None) else None
    i = feature.spec_index_at((emulated.major, emulated.minor), mc)
    return feature.specs[i] if i >= 0 else PRE_ALPHA_SPEC


#: (version key, min-compat key or None, unset state) of one spec
PickEntry = tuple[tuple[int, int], "tuple[int, int] | None", GateState]


class PickIndex:
    """What picking the spec in effect of every gate needs, built once per manifest (read only).

    Most gates are in their newest spec at the selected versions, so a gate table starts as
    ``newest`` (each gate's newest spec as an unset state) and only the gates whose newest spec
    does not apply are looked at again: those whose newest version is above the emulated version
    (the tail of ``late_order`` from where ``late_keys`` passes it) and, with a min compatibility
    version, those whose newest spec needs a higher one (the tail of ``need_order``). For those,
    the first of ``older`` that applies wins, else PreAlpha."""

    #: per gate (manifest order): the unset state of its newest spec (PreAlpha without specs)
    newest: tuple[GateState, ...]
    #: per gate: its other specs newest first, as (version key, min-compat key, unset state)
    older: tuple[tuple[PickEntry, ...], ...]
    #: per gate: its PreAlpha state (no spec applies)
    pre_alpha: tuple[GateState, ...]
    #: the newest version keys, ascending, and the gate of each
    late_keys: tuple[tuple[int, int], ...]
    late_order: tuple[int, ...]
    #: the min-compat keys of the newest specs that have one, ascending, and the gate of each
    need_keys: tuple[tuple[int, int], ...]
    need_order: tuple[int, ...]
    #: gates with a spec that is Alpha and on by default (the only ones an unset table can have
    #: enabled in Alpha)
    alpha_on: tuple[int, ...]

    # a plain class: built once per manifest and only read, it needs none of what @dataclass
    # generates (and is not worth the time generating it takes at every CLI start)
    __slots__ = ("alpha_on", "late_keys", "late_order", "need_keys", "need_order", "newest", "older", "pre_alpha")

    def __init__(
        self,
        newest: tuple[GateState, ...],
        older: tuple[tuple[PickEntry, ...], ...],
        pre_alpha: tuple[GateState, ...],
        late_keys: tuple[tuple[int, int], ...],
        late_order: tuple[int, ...],
        need_keys: tuple[tuple[int, int], ...],
        need_order: tuple[int, ...],
        alpha_on: tuple[int, ...],
    ) -> None:
        self.newest, self.older, self.pre_alpha = newest, older, pre_alpha
        self.late_keys, self.late_order = late_keys, late_order
        self.need_keys, self.need_order = need_keys, need_order
        self.alpha_on = alpha_on

    @staticmethod
    def build(features: tuple[Feature, ...]) -> PickIndex:
        newest_first = [
            tuple(zip(reversed(f.version_keys), reversed(f.min_compat_keys), reversed(f.default_states[:-1]), strict=True))
            for f in features
        ]
        pre_alpha = tuple(f.default_states[-1] for f in features)
        newest = tuple(entries[0][2] if entries else pre for entries, pre in zip(newest_first, pre_alpha, strict=True))
        late = sorted((entries[0][0], i) for i, entries in enumerate(newest_first) if entries)
        need = sorted((entries[0][1], i) for i, entries in enumerate(newest_first) if entries and entries[0][1] is not None)
        alpha_on = tuple(
            i for i, f in enumerate(features) if any(s.stage is Stage.ALPHA and s.default for s in f.specs)
        )
        return PickIndex(
            newest, tuple(entries[1:] for entries in newest_first), pre_alpha,
            tuple(k for k, _ in late), tuple(i for _, i in late),
            tuple(k for k, _ in need), tuple(i for _, i in need),
            alpha_on,
        )


class Manifest(Record):
    """The gates of one binary (meta-gates excluded), sorted by name."""

    # (``__dict__`` holds the cached properties below)
    __slots__ = ("__dict__", "by_name", "features", "sources")
    _uncompared = _derived = ("by_name",)
    features: tuple[Feature, ...]
    sources: tuple[str, ...]
    by_name: Mapping[str, Feature]

    def __init__(self, features: tuple[Feature, ...], sources: tuple[str, ...] = ()) -> None:
        ordered = tuple(sorted(features, key=lambda f: f.name))
        set_field(self, "features", ordered)
        set_field(self, "sources", sources)
        set_field(self, "by_name", MappingProxyType({f.name: f for f in ordered}))

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def __len__(self) -> int:
        return len(self.features)

    @cached_property
    def pick_index(self) -> PickIndex:
        """The spec in effect of every gate, prepared once per manifest (SPEC §3.3); see :class:`PickIndex`."""
        return PickIndex.build(self.features)

    @cached_property
    def client_go_names(self) -> frozenset[str]:
        """The gates registered from k8s.io/client-go (``origin`` "client-go")."""
        return frozenset(f.name for f in self.features if f.origin == "client-go")

    @cached_property
    def has_dependencies(self) -> bool:
        return any(f.dependencies for f in self.features)

    @cached_property
    def index(self) -> Mapping[str, int]:
        """Gate name -> position in ``features``."""
        return MappingProxyType({f.name: i for i, f in enumerate(self.features)})

    @cached_property
    def dependents(self) -> tuple[tuple[int, str, tuple[int, ...]], ...]:
        """(position, name, positions of its dependencies) of every gate that has dependencies."""
        idx = self.index
        return tuple((i, f.name, tuple(idx[d] for d in f.dependencies)) for i, f in enumerate(self.features) if f.dependencies)

    @cached_property
    def uses_min_compatibility(self) -> bool:
        return any(s.min_compatibility_version is not None for f in self.features for s in f.specs)
