"""The versions question: which ``--emulated-version`` and ``--min-compatibility-version`` values
a binary accepts. ``kcompat versions`` asks :func:`versions`; the pages' version pickers ask
:func:`allowed_ranges`, the same rule without the note on bundled data."""

from __future__ import annotations

from dataclasses import dataclass

from kcompat.core.compat import AllowedVersions, allowed_versions, parse_binary_version
from kcompat.core.components import KUBE_APISERVER
from kcompat.core.errors import KcompatError
from kcompat.data.catalog import Catalog


@dataclass(frozen=True)
class VersionsAnswer:
    """The ranges of one binary, and whether the catalog holds its release's data."""

    allowed: AllowedVersions
    bundled: bool
    warnings: tuple[str, ...]
    #: the component asked about: the ranges are component-base's, the same for each; only
    #: kube-apiserver has the forward-compatibility flags
    component: str = KUBE_APISERVER


def allowed_ranges(binary: str, component: str = KUBE_APISERVER) -> AllowedVersions:
    """The ranges a binary of this version accepts: rules of the code (floor = binary - 3, ...),
    so no data is needed. They are the same for every component (component-base's compatibility
    registry); the forward-compatibility flags are kube-apiserver's only."""
    allowed = allowed_versions(parse_binary_version(binary))
    return allowed if component == KUBE_APISERVER else allowed.replace(forward_compat_flags=False)


def versions(catalog: Catalog, binary: str, component: str = KUBE_APISERVER) -> VersionsAnswer:
    """:func:`allowed_ranges`, saying so when the release has no bundled data: the ranges are then
    the newest bundled release's rules carried forward, not checked against its code (and, for
    another component than kube-apiserver, when its gate set is not recorded for the release)."""
    allowed = allowed_ranges(binary, component)
    usable = catalog.usable_releases()
    bundled = allowed.release in usable
    warnings: tuple[str, ...] = () if bundled else (
        f"release {allowed.release} has no bundled data (bundled: {', '.join(usable)}): these ranges apply the rules of "
        f"the newest bundled release ({usable[-1] if usable else 'none'}) to {allowed.release}, not checked against its code",
    )
    if bundled and component != KUBE_APISERVER:
        try:
            catalog.manifest_for(parse_binary_version(binary), component)
        except KcompatError as exc:
            warnings += (f"{exc}: the ranges are component-base's rules, the same for every component",)
    return VersionsAnswer(allowed, bundled, warnings, component)


@dataclass(frozen=True)
class VersionCheck:
    """What a binary says about its version flags alone: its refusals, in its order, and the
    remedy beside each (the range and the nearest valid value)."""

    errors: tuple[str, ...]
    hints: tuple[str, ...]


def version_check(binary: str, emulated: str | None, min_compat: str | None) -> VersionCheck:
    """:class:`VersionCheck` of ``binary`` started with ``--emulated-version=emulated`` and
    ``--min-compatibility-version=min_compat`` (None: not given): component-base's flag parsing
    and ``Validate``, as the selection bar shows them. A binary version that is not one is the one error."""
    from kcompat.core.compat import select_versions
    from kcompat.core.remedies import version_remedies

    try:
        selection = select_versions(parse_binary_version(binary), emulated, min_compat)
    except KcompatError as exc:
        return VersionCheck((str(exc),), ())
    return VersionCheck(selection.errors, tuple(h.text for h in version_remedies(selection)))
