"""Questions both front ends ask, answered from the catalog through the core.

The CLI and the Streamlit pages call these and only format the answers.
"""

from __future__ import annotations

import dataclasses
import functools

from kcompat.data.catalog import Catalog
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.errors import KcompatError
from kcompat.core.gates import GateEvaluation, evaluate_gates
from kcompat.core.manifest import Manifest
from kcompat.core.versions import Version

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:  # imported where used: the CLI's gates path needs no lineage
    from kcompat.core.apis import GateResolver
    from kcompat.core.removals import GateLineage


def newest_release(catalog: Catalog) -> str:
    """The default binary: the newest bundled release that is a release (not a development snapshot)."""
    usable = [d.info for d in catalog.all() if d.usable]
    released = [r for r in usable if r.status != "development"] or usable
    if not released:
        raise KcompatError("no bundled release can be loaded")
    return released[-1].release


def gates_for(
    catalog: Catalog,
    binary: str | None,
    emulated: str | list[str] | None = None,
    min_compat: str | list[str] | None = None,
    feature_gates: str | list[str] | None = None,
    manifest: Manifest | None = None,
) -> GateEvaluation:
    """What a binary with these flags enables. With ``manifest`` the bundled data is replaced;
    without ``binary`` no range rule applies and ``emulated`` is required."""
    binary_version = parse_binary_version(binary) if binary else None
    note = None
    if manifest is None:
        if binary_version is None:
            raise KcompatError("a binary version is required unless a manifest is given")
        manifest, note = catalog.manifest_for(binary_version)
    selection = select_versions(binary_version, emulated, min_compat)
    evaluation = evaluate_gates(manifest, selection, feature_gates)
    if note:
        evaluation = dataclasses.replace(evaluation, warnings=(note, *evaluation.warnings))
    return evaluation


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
