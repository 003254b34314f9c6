"""Placeholder spec versions: the 0.0 and 1.0 that gate lists date behaviour older than the gate
itself to. Apart from :mod:`.history` so that the gates JSON (``historyFrom``) and the remedies
can say so without importing the release history (a fast ``kcompat gates``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .manifest import Feature, FeatureSpec
from .record import Record, set_field
from .versions import Version, major_minor, mm

#: Spec versions the gate lists use as placeholders for behaviour older than the gate itself
#: (0.0: registered without versions; 1.0: older than versioned gates).
PLACEHOLDER_VERSIONS = (major_minor(0, 0), major_minor(1, 0))


def is_placeholder(version: Version) -> bool:
    return mm(version) in PLACEHOLDER_VERSIONS


def placeholder_start(feature: Feature) -> Version | None:
    """The placeholder version (0.0 or 1.0) the data dates the gate's first spec to, else None."""
    return mm(feature.first_version) if feature.specs and is_placeholder(feature.first_version) else None


#: (major, minor) of :data:`PLACEHOLDER_VERSIONS`, for a check on a feature's version keys
_PLACEHOLDER_KEYS = frozenset((v.major, v.minor) for v in PLACEHOLDER_VERSIONS)


def not_recorded_text(major: int, minor: int) -> str:
    """How a history dated to the placeholder ``major.minor`` is said: not recorded."""
    return f"not recorded (dated {major}.{minor}, a placeholder)"


def introduced_text(feature: Feature) -> str:
    """Where the gate's history starts, said plainly: ``1.33``, or "not recorded" where the data
    dates it to a placeholder (never the placeholder as if it were history).
    (Read from the feature's precomputed version keys: every gates answer asks it of every gate.)"""
    major, minor = feature.version_keys[0]
    if (major, minor) in _PLACEHOLDER_KEYS:
        return not_recorded_text(major, minor)
    return f"{major}.{minor}"


def first_real_version(specs: Sequence[FeatureSpec]) -> Version | None:
    """The version of the first spec that is not a placeholder (None: every spec is one)."""
    for spec in specs:
        if not is_placeholder(spec.version):
            return mm(spec.version)
    return None


class GateStart(Record):
    """Where a gate's own history starts when the data dates its first spec to a placeholder:
    the releases from ``placeholder`` up to ``start`` (exclusive) predate the gate, and no stage
    is shown for them. ``reason`` says what dates ``start``."""

    __slots__ = ("gate", "placeholder", "reason", "start")
    gate: str
    placeholder: Version
    start: Version
    reason: str

    def __init__(self, gate: str, placeholder: Version, start: Version, reason: str) -> None:
        set_field(self, "gate", gate)
        set_field(self, "placeholder", placeholder)
        set_field(self, "start", start)
        set_field(self, "reason", reason)

    def text(self) -> str:
        """``dated 1.0 in the data (a placeholder: behaviour older than the gate); history from 1.31: …``"""
        return (
            f"dated {self.placeholder} in the data (a placeholder: behaviour older than the gate); "
            f"history from {self.start}: {self.reason}"
        )


def real_history_start(
    gate: str,
    specs: Sequence[FeatureSpec],
    listed_since: Version | None,
    oldest: Version | None = None,
) -> GateStart | None:
    """Where a gate's own history starts when its first spec is dated to a placeholder (None when
    the first spec is at a real version: nothing in the data predates the gate).

    The first spec at a real version; when every spec is a placeholder (a gate added with one
    ``1.0`` spec, or registered without versions), ``listed_since``: the first release known to
    list the gate (the first bundled release, or the binary's own). When that is ``oldest``, the
    oldest bundled release, the gate may be older than the data can tell, and ``reason`` says so."""
    if not specs or not is_placeholder(specs[0].version):
        return None
    placeholder = mm(specs[0].version)
    real = first_real_version(specs)
    if real is not None:
        return GateStart(gate, placeholder, real, "its first spec at a real version")
    if listed_since is None:
        return None
    since = mm(listed_since)
    if oldest is not None and since == mm(oldest):
        return GateStart(gate, placeholder, since, f"{since}, the oldest bundled release, lists it (the gate may be older)")
    return GateStart(gate, placeholder, since, f"the first bundled release that lists it is {since}")


def gate_start(
    name: str, specs: Sequence[FeatureSpec], binary: Version, listed: Version | None, oldest: Version | None
) -> GateStart | None:
    """Where the history of gate ``name`` of a ``binary`` manifest starts, if its first spec is dated
    to a placeholder; ``listed``: the first bundled release that lists it (a gate the binary lists
    exists at the binary's release at the latest)."""
    since = min(listed, mm(binary), key=lambda v: (v.major, v.minor)) if listed is not None else mm(binary)
    return real_history_start(name, specs, since, oldest)


def gate_starts(
    features: Iterable[Feature], binary: Version, listed: Mapping[str, Version], oldest: Version | None
) -> dict[str, GateStart]:
    """Gate -> where its own history starts (:func:`gate_start`), for the gates of a ``binary``
    manifest whose first spec is dated to a placeholder."""
    out = {}
    for f in features:
        start = gate_start(f.name, f.specs, binary, listed.get(f.name), oldest)
        if start is not None:
            out[f.name] = start
    return out
