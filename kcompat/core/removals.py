"""What a binary does for a gate it does not register: removed gates as behaviour.

Kubernetes removes a gate from ``pkg/features/kube_features.go`` (and from
``test/compatibility_lifecycle/reference/versioned_feature_list.yaml``) together with the code
path it guarded: after a gate locked to its default has been GA (or Deprecated) for long enough,
the code keeps only the branch the default selected (KEP-4330 "Feature gate lifecycle"; the
"Removed" stage of the KEP exists nowhere in code). A binary that no longer registers the gate
therefore behaves, forever and at every emulated version, as the gate's last spec said: removed
after GA locked on = always on, removed while Deprecated and off = always off. Emulation cannot
bring the other branch back, because the binary no longer contains it (component-base
``featuregate`` only knows the gates a binary registers; an unknown name is
``unrecognized feature gate``).

The data comes from the bundled manifests alone: a gate listed by release ``R-1`` and not by
release ``R`` was removed in ``R``; its last spec is the newest spec of the last manifest that
listed it. A gate that no earlier release listed is either not introduced yet (off) or, when a
later manifest back-dates it to a version at or before the one asked about, described by that
back-dated spec (the code existed, the list did not carry it yet).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from .manifest import FeatureSpec, Manifest
from .stages import Stage
from .versions import Version, mm, parse_version


@dataclass(frozen=True)
class RemovedGate:
    """A gate that bundled release ``removed_in`` no longer registers, after ``last_release``
    listed it with ``last_spec`` as its newest spec."""

    name: str
    origin: str
    last_release: Version
    removed_in: Version
    last_spec: FeatureSpec

    @property
    def enabled(self) -> bool:
        """The feature's permanent state in binaries that no longer register the gate."""
        return self.last_spec.default

    @property
    def behaviour(self) -> str:
        return "always on" if self.enabled else "always off"

    @property
    def last_status(self) -> str:
        spec = self.last_spec
        text = f"{spec.stage.value} {'on' if spec.default else 'off'}"
        return f"{spec.stage.value} locked {'on' if spec.default else 'off'}" if spec.lock_to_default else text

    def text(self) -> str:
        """``removed in 1.33 after GA locked on in 1.32: always on``."""
        return f"removed in {self.removed_in} after {self.last_status} in {self.last_release}: {self.behaviour}"


@dataclass(frozen=True)
class AbsentGate:
    """What the code of a binary that does not register ``name`` does: ``enabled`` and why."""

    name: str
    enabled: bool
    #: "removed", "back-dated" or "not-introduced"
    kind: str
    text: str
    removal: RemovedGate | None = None


def _key(v: Version) -> tuple[int, int]:
    return (v.major, v.minor)


@dataclass(frozen=True)
class GateLineage:
    """Which bundled release lists which gate, oldest release first: the removals, and the
    behaviour of a gate in a binary that does not register it."""

    releases: tuple[Version, ...]
    manifests: tuple[Manifest, ...]
    #: every removal, oldest first (a gate removed, re-added and removed again appears twice)
    removals: tuple[RemovedGate, ...]

    @classmethod
    def from_manifests(cls, pairs: Sequence[tuple[str, Manifest]] | Mapping[str, Manifest]) -> GateLineage:
        items = list(pairs.items()) if isinstance(pairs, Mapping) else list(pairs)
        items.sort(key=lambda p: _key(parse_version(p[0])))
        releases = tuple(mm(parse_version(r)) for r, _ in items)
        manifests = tuple(m for _, m in items)
        removals = []
        for i in range(1, len(items)):
            before, now = manifests[i - 1], manifests[i]
            for feature in before.features:
                if feature.name not in now.by_name:
                    removals.append(RemovedGate(feature.name, feature.origin, releases[i - 1], releases[i], feature.specs[-1]))
        return cls(releases, manifests, tuple(removals))

    def removed_in(self, release: str | Version) -> tuple[RemovedGate, ...]:
        """The gates release ``release`` no longer registers (listed by the previous bundled release)."""
        r = _key(mm(parse_version(release) if isinstance(release, str) else release))
        return tuple(g for g in self.removals if _key(g.removed_in) == r)

    def removal_before(self, name: str, binary: Version) -> RemovedGate | None:
        """The removal a ``binary`` (release) lives with: the newest removal of ``name`` at or
        before its release, unless a later release at or before it lists the gate again."""
        b = _key(mm(binary))
        found = None
        for g in self.removals:
            if g.name == name and _key(g.removed_in) <= b:
                found = g
        if found is None:
            return None
        for release, manifest in zip(self.releases, self.manifests, strict=True):
            if _key(found.removed_in) < _key(release) <= b and name in manifest.by_name:
                return None
        return found

    def back_dated_spec(self, name: str, at: Version) -> tuple[Version, FeatureSpec] | None:
        """The spec in effect at ``at`` in the oldest later manifest that dates ``name`` to ``at``
        or earlier (with the release of that manifest), or None."""
        from .manifest import spec_at

        a = mm(at)
        for release, manifest in zip(self.releases, self.manifests, strict=True):
            feature = manifest.by_name.get(name)
            if feature is None or _key(release) <= _key(a):
                continue
            spec = spec_at(feature, a, None, False)
            if spec.stage is not Stage.PRE_ALPHA:
                return release, spec
        return None

    def absent(self, name: str, binary: Version, at: Version | None = None) -> AbsentGate:
        """What a ``binary`` that does not register ``name`` does for that feature, at version
        ``at`` (its emulated version; default the binary's own). Emulation does not matter for a
        removed gate: the code path that the gate guarded is gone."""
        at = mm(at if at is not None else binary)
        removal = self.removal_before(name, binary)
        if removal is not None:
            return AbsentGate(name, removal.enabled, "removed", removal.text(), removal)
        dated = self.back_dated_spec(name, at)
        if dated is not None:
            release, spec = dated
            word = "on" if spec.default else "off"
            return AbsentGate(
                name,
                spec.default,
                "back-dated",
                f"not registered by {mm(binary)}, but the {release} manifest dates it to {spec.version} "
                f"({spec.stage.value}, default {word}) at {at}: {word}",
            )
        return AbsentGate(name, False, "not-introduced", f"not introduced yet at {at}: off")

    @property
    def by_name(self) -> Mapping[str, tuple[RemovedGate, ...]]:
        out: dict[str, list[RemovedGate]] = {}
        for g in self.removals:
            out.setdefault(g.name, []).append(g)
        return MappingProxyType({k: tuple(v) for k, v in out.items()})
