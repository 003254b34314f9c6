"""Placeholder spec versions: the 0.0 and 1.0 that gate lists date behaviour older than the gate
itself to. Apart from :mod:`.history` so that the gates JSON (``historyFrom``) and the remedies
can say so without importing the release history (a fast ``kcompat gates``)."""

from __future__ import annotations

from .manifest import Feature
from .versions import Version, major_minor, mm

#: Spec versions the gate lists use as placeholders for behaviour older than the gate itself
#: (0.0: registered without versions; 1.0: older than versioned gates).
PLACEHOLDER_VERSIONS = (major_minor(0, 0), major_minor(1, 0))


def is_placeholder(version: Version) -> bool:
    return mm(version) in PLACEHOLDER_VERSIONS


def placeholder_start(feature: Feature) -> Version | None:
    """The placeholder version (0.0 or 1.0) the data dates the gate's first spec to, else None."""
    return mm(feature.first_version) if feature.specs and is_placeholder(feature.first_version) else None


def introduced_text(feature: Feature) -> str:
    """Where the gate's history starts, said plainly: ``1.33``, or the placeholder said as one."""
    start = placeholder_start(feature)
    if start is not None:
        return f"placeholder {start} (older than the gate)"
    return str(mm(feature.first_version))
