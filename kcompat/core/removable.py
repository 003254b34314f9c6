"""Which feature gates a release can remove: gates locked past the emulation window.

The rule, from the two texts that state it:

* KEP-4330 (Compatibility Versions), "Feature Gate Lifecycles": ``--feature-gates`` must behave
  as it did in the release the compatibility version is set to, so "feature gating must be kept in
  the Kubernetes codebase until a feature has reached GA (or been removed) for N-3 releases"; a
  gate GA since 1.28 "may be removed from code" in 1.31
  (https://github.com/kubernetes/enhancements/tree/master/keps/sig-architecture/4330-compatibility-versions#feature-gate-lifecycles).
* kubernetes/community ``contributors/devel/sig-architecture/feature-gates.md``, "GA features"
  and "Deprecation": "after three releases where a feature has been locked to the default value
  (whether that feature is GA or deprecated), feature gates and references should be removed ...
  if a gate was ``LockToDefault: true`` in kubernetes version X, it may be removed in version X+3
  (which must be compatible with X+2, X+1, and X, all of which were also locked)"; a Deprecated
  gate "off, and locked" in 1.34 is removed "in v1.37 once versions prior to v1.34 cannot be
  emulated anymore".

What kcompat implements (:data:`RULE`): a gate whose newest spec is locked to its default can be
removed in release R when no binary of R can emulate a release in which the gate was not yet
locked to that value. With L the release since which the gate is locked (each release's own
binary, not emulating: emulated = L, default min compatibility), the last release where it could
still be set is L-1, and R's emulation floor is max(R-3, 1.31) (component-base: a binary emulates
down to three minors before its own, never before 1.31): the gate is removable in R when the floor
is later than L-1, i.e. the floor is L or later (R = L+3 from 1.34 on), **and** the engine finds
the gate locked to the same value on every (emulated, min compatibility) pair a binary of R
accepts (:func:`kcompat.core.compat.allowed_versions`, ``spec_at`` on each), so a spec whose
``minCompatibilityVersion`` an accepted ``--min-compatibility-version`` does not meet keeps its
gate. Both must hold: the answer is never earlier than the policy's X+3. GA gates locked on and
Deprecated gates locked off alike; a gate that is not locked (GA but settable, Deprecated but still
settable) is never removable. A lock the data dates to a 0.0 / 1.0 placeholder (the unversioned
1.31 and 1.32 lists) is older than any floor.
"""

from __future__ import annotations

from dataclasses import dataclass

from .compat import allowed_versions, rules_for
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

#: The rule as the outputs cite it.
RULE = (
    "a gate locked to its default since release L can be removed in release R when no binary of R can emulate a "
    "release where it was not yet locked: R's emulation floor max(R-3, 1.31) is later than L-1, the last release "
    "where the gate could still be set (R = L+3 from 1.34 on), and the gate is locked to that value at every "
    "--emulated-version and --min-compatibility-version a binary of R accepts"
)
#: Where the rule comes from.
SOURCES = (
    "KEP-4330 Compatibility Versions, Feature Gate Lifecycles: feature gating is kept until a feature has been GA "
    "(or removed) for N-3 releases "
    "(https://github.com/kubernetes/enhancements/tree/master/keps/sig-architecture/4330-compatibility-versions#feature-gate-lifecycles)",
    "kubernetes/community contributors/devel/sig-architecture/feature-gates.md, GA features and Deprecation: a gate "
    "LockToDefault: true in version X may be removed in version X+3, GA or Deprecated alike "
    "(https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/feature-gates.md)",
)


@dataclass(frozen=True)
class Removal:
    """A gate whose newest spec is locked to its default, and whether release ``release`` can remove it."""

    name: str
    origin: str
    #: the locked spec's stage (GA, or Deprecated) and value
    stage: Stage
    default: bool
    #: the release since which each release's own binary has it locked to ``default`` (a 0.0 / 1.0
    #: placeholder when the data has no older spec)
    locked_since: Version
    #: the release asked about, and its emulation floor
    release: Version
    floor: Version
    removable: bool
    #: why not, when not removable
    blocked_by: str = ""

    @property
    def last_settable(self) -> Version | None:
        """The last release where the gate could still be set (or did not exist yet): L-1; None
        when the lock dates to a placeholder (no release before it in the data)."""
        if is_placeholder(self.locked_since):
            return None
        return subtract_minor(self.locked_since, 1)

    @property
    def state(self) -> str:
        """``GA locked on``, ``Deprecated locked off``."""
        return f"{self.stage.value} locked {'on' if self.default else 'off'}"

    def text(self) -> str:
        """Why (not): ``GA locked on since 1.33; a 1.39 binary emulates down to 1.36: removable in 1.39``."""
        since = f"since {self.locked_since}" + (" (a placeholder: older than the data)" if is_placeholder(self.locked_since) else "")
        head = f"{self.state} {since}; a {self.release} binary emulates down to {self.floor}"
        if self.removable:
            return f"{head}: no release it can emulate has the gate settable, removable in {self.release}"
        return f"{head}: {self.blocked_by}"


def _describe(spec: FeatureSpec) -> str:
    if spec.stage is Stage.PRE_ALPHA:
        return "not introduced yet"
    return f"{spec.stage.value} {'on' if spec.default else 'off'}" + (", locked" if spec.lock_to_default else ", settable")


def _fixed(spec: FeatureSpec, default: bool) -> bool:
    return spec.stage is not Stage.PRE_ALPHA and spec.lock_to_default and spec.default == default


def locked_since(feature: Feature, until: Version) -> Version | None:
    """The release since which every release's own binary up to ``until`` (emulated = that
    release, default min compatibility) has ``feature`` locked to the value it has in ``until``;
    None when it is not locked there. A lock the data dates to 0.0 or 1.0 is returned as that
    placeholder."""
    if not feature.specs:
        return None
    top = mm(until)
    newest = _own(feature, top)
    if not newest.lock_to_default or newest.stage is Stage.PRE_ALPHA:
        return None
    default = newest.default
    first = feature.specs[0].version
    start = mm(first) if not is_placeholder(first) else major_minor(1, 0)
    since = top
    minor = top.minor - 1
    while minor >= start.minor and top.major == start.major:
        at = major_minor(top.major, minor)
        if not _fixed(_own(feature, at), default):
            return since
        since = at
        minor -= 1
    # locked all the way back to the first spec: the data's own start (a placeholder when 0.0 / 1.0)
    return first if is_placeholder(first) else since


def _own(feature: Feature, release: Version) -> FeatureSpec:
    """The spec a ``release`` binary that does not emulate has in effect (default min compatibility)."""
    rules = rules_for(release) if release >= major_minor(1, 31) else None
    use_mc = rules.gates_use_min_compat if rules is not None else True
    return spec_at(feature, release, subtract_minor(release, 1), use_mc)


def removal_of(feature: Feature, release: Version, base: Version) -> Removal | None:
    """Whether ``release`` can remove ``feature`` as ``base``'s manifest (the release before it, or
    the newest bundled one) describes it; None when ``base``'s own binary does not have it locked.

    Removable when both hold (:data:`RULE`): ``release``'s emulation floor is the lock's release
    or later, and every (emulated, min compatibility) pair a ``release`` binary accepts has the
    gate locked to the same value (the engine's ``spec_at`` on each)."""
    since = locked_since(feature, base)
    if since is None:
        return None
    newest = _own(feature, mm(base))
    release = mm(release)
    allowed = allowed_versions(release)
    rules = rules_for(release)
    floor = parse_version(allowed.emulated_range[0])

    def kept(why: str) -> Removal:
        return Removal(feature.name, feature.origin, newest.stage, newest.default, since, release, floor, False, why)

    if not is_placeholder(since) and floor < since:
        settable = subtract_minor(since, 1)
        return kept(f"{floor} is not after {settable}, the last release where it could still be set ({_describe(_own(feature, settable))} there)")
    for choice in allowed.emulated:
        emulated = parse_version(choice.emulated)
        for text in choice.min_compat:
            min_compat = parse_version(text)
            spec = spec_at(feature, emulated, min_compat, rules.gates_use_min_compat)
            if not _fixed(spec, newest.default):
                return kept(f"at --emulated-version={emulated} --min-compatibility-version={min_compat} it is {_describe(spec)}")
    return Removal(feature.name, feature.origin, newest.stage, newest.default, since, release, floor, True)


def removals(manifest: Manifest, release: Version, base: Version) -> tuple[Removal, ...]:
    """Every gate of ``manifest`` (release ``base``'s) that ``base``'s own binary has locked, with
    whether ``release`` can remove it (:data:`RULE`), in name order."""
    found = (removal_of(f, release, base) for f in manifest.features)
    return tuple(r for r in found if r is not None)


@dataclass(frozen=True)
class RemovableGates:
    """The locked gates of release ``base`` (the newest bundled release before ``release``) and
    which of them ``release`` can remove."""

    release: Version
    base: Version
    #: the emulation floor of ``release``: max(release-3, 1.31)
    floor: Version
    #: every gate of ``base`` whose newest spec is locked, removable or not, in name order
    gates: tuple[Removal, ...]
    #: the gates ``release``'s own bundled manifest no longer lists (None: ``release`` is not bundled)
    removed: frozenset[str] | None = None
    #: said when ``base`` is not the release just before ``release``
    note: str | None = None

    def removable(self) -> tuple[Removal, ...]:
        return tuple(g for g in self.gates if g.removable)

    def by_name(self) -> dict[str, Removal]:
        return {g.name: g for g in self.gates}


def parse_removal_release(text: str, releases: tuple[str, ...] | list[str], what: str = "--removable-in") -> Version:
    """The release a removal is asked about (``1.39``, ``v1.39``): a major.minor after the oldest
    of ``releases`` (the bundled ones, oldest first), so that a release before it is bundled."""
    from .errors import KcompatError, quote_cut

    value = text.strip()
    try:
        version = parse_version(value[1:] if value[:1] in ("v", "V") else value)
    except KcompatError as exc:
        raise KcompatError(f"{what} {quote_cut(text)}: not a release such as 1.39 ({exc})") from None
    if len(version.components) != 2 or version.pre_release or version.build_metadata:
        raise KcompatError(f"{what} {quote_cut(text)}: give a release as major.minor, such as 1.39")
    oldest = parse_version(releases[0]) if releases else None
    if oldest is None or version <= oldest:
        raise KcompatError(
            f"{what} {quote_cut(text)}: the gates it could remove are those of the release before it; the oldest bundled "
            f"release is {releases[0] if releases else 'none'}, so ask about {offset_minor(oldest, 1) if oldest else 'a later release'} or later"
        )
    return version


def removable_gates(manifests: list[tuple[str, Manifest]] | tuple[tuple[str, Manifest], ...], release: Version) -> RemovableGates:
    """Which gates ``release`` can remove (:data:`RULE`), from the bundled ``manifests`` (release,
    manifest), oldest first: the gates of the newest one before ``release``; when ``release`` is
    bundled too, which of them its manifest really dropped."""
    release = mm(release)
    before = [(parse_version(r), m) for r, m in manifests if parse_version(r) < release]
    if not before:
        raise ValueError(f"no bundled release before {release}")
    base, manifest = before[-1]
    previous = subtract_minor(release, 1)
    note = None
    if base != previous:
        note = (
            f"{previous} has no bundled data: the gates are {base}'s, as if nothing changed in between "
            f"(a gate {base} has settable and a later release locks is not counted)"
        )
    own = next((m for r, m in manifests if parse_version(r) == release), None)
    removed = frozenset(f.name for f in manifest.features if f.name not in own.by_name) if own is not None else None
    floor = parse_version(allowed_versions(release).emulated_range[0])
    return RemovableGates(release, base, floor, removals(manifest, release, base), removed, note)
