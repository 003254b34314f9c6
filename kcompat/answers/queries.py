"""What several answers need from the catalog: the default binary, a release's bundled data, the
gate states of the API answers and the bundled releases' gate lineage. The questions themselves
have a module each (:mod:`kcompat.answers.gates`, ``apis``, ``changes``, ``plan``, ...).
"""

from __future__ import annotations

import functools

from kcompat.core.errors import KcompatError
from kcompat.core.versions import Version
from kcompat.data.catalog import Catalog

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:  # imported where used: the CLI's gates path needs no lineage unless a gate is unknown
    from kcompat.core.apis import GateResolver
    from kcompat.core.removals import GateLineage


def newest_release(catalog: Catalog) -> str:
    """The default binary: the newest bundled release that is a release (not a pre-release)."""
    usable = [d.info for d in catalog.all() if d.usable]
    released = [r for r in usable if not r.pre_release] or usable
    if not released:
        raise KcompatError("no bundled release can be loaded")
    return released[-1].release


def api_gate_states(catalog: Catalog, feature_gates: str | list[str] | None = None) -> GateResolver:
    """The gate states the API answers need (feature-gated REST storage), from the catalog's gates
    at each binary's patch level and one ``--feature-gates`` value."""
    from kcompat.core.apis import gate_resolver

    return gate_resolver(lambda binary: catalog.manifest_for(binary)[0], feature_gates)


@functools.lru_cache(maxsize=4)
def gate_lineage(catalog: Catalog) -> GateLineage:
    """Which bundled release lists which gate: the removals and the behaviour of unregistered gates."""
    from kcompat.core.removals import GateLineage

    return GateLineage.from_manifests([(d.info.release, d.manifest) for d in catalog.all() if d.manifest is not None])


def bundled_release(catalog: Catalog, version: Version, what: str) -> str:
    """``version``'s release when the catalog holds usable data for it, else a clear refusal."""
    release = f"{version.major}.{version.minor}"
    usable = catalog.usable_releases()
    if release not in usable:
        raise KcompatError(f"{what} {release} has no bundled data (bundled releases: {', '.join(usable)})")
    return release
