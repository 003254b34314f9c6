"""The release team's question "which gates can be removed in release R?": the gates locked past
R's emulation window (:mod:`kcompat.core.removable` has the rule and its sources), from the bundled
releases. ``kcompat matrix --removable-in R`` and the Release matrix page's "Removable in" filter
ask it here (:func:`kcompat.answers.matrix.filtered` keeps those rows)."""

from __future__ import annotations

import functools

from kcompat.core.removable import (
    RemovableGates,
    parse_removal_release,
    removable_gates,
)
from kcompat.data.catalog import Catalog


def removable(catalog: Catalog, release: str) -> RemovableGates:
    """Which gates ``release`` (``1.39``) can remove, and which locked gates it must keep."""
    usable = catalog.usable_releases()
    version = parse_removal_release(release, usable)
    return _removable(catalog, f"{version.major}.{version.minor}")


@functools.lru_cache(maxsize=16)
def _removable(catalog: Catalog, release: str) -> RemovableGates:
    from kcompat.core.versions import parse_version

    manifests = [(d.info.release, d.manifest) for d in catalog.all() if d.manifest is not None]
    return removable_gates(manifests, parse_version(release))


def removal_choices(catalog: Catalog) -> tuple[str, ...]:
    """The releases the question can be asked about, newest first: the release after the newest
    bundled one, then every bundled release but the oldest (a release before it must be bundled)."""
    usable = catalog.usable_releases()
    if not usable:
        return ()
    major, minor = (int(p) for p in usable[-1].split("."))
    return (f"{major}.{minor + 1}", *reversed(usable[1:]))
