"""The versions question: which ``--emulated-version`` and ``--min-compatibility-version`` values
a binary accepts. ``kcompat versions`` asks :func:`versions`; the pages' version pickers ask
:func:`allowed_ranges`, the same rule without the note on bundled data."""

from __future__ import annotations

from dataclasses import dataclass

from kcompat.core.compat import AllowedVersions, allowed_versions, parse_binary_version
from kcompat.data.catalog import Catalog


@dataclass(frozen=True)
class VersionsAnswer:
    """The ranges of one binary, and whether the catalog holds its release's data."""

    allowed: AllowedVersions
    bundled: bool
    warnings: tuple[str, ...]


def allowed_ranges(binary: str) -> AllowedVersions:
    """The ranges a binary of this version accepts: rules of the code (floor = binary - 3, ...),
    so no data is needed."""
    return allowed_versions(parse_binary_version(binary))


def versions(catalog: Catalog, binary: str) -> VersionsAnswer:
    """:func:`allowed_ranges`, saying so when the release has no bundled data: the ranges are then
    the newest bundled release's rules carried forward, not checked against its code."""
    allowed = allowed_ranges(binary)
    usable = catalog.usable_releases()
    bundled = allowed.release in usable
    warnings = () if bundled else (
        f"release {allowed.release} has no bundled data (bundled: {', '.join(usable)}): these ranges apply the rules of "
        f"the newest bundled release ({usable[-1] if usable else 'none'}) to {allowed.release}, not checked against its code",
    )
    return VersionsAnswer(allowed, bundled, warnings)
