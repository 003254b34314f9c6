"""The patch releases of a bundled release: which recorded patch changed what. Asked by
``kcompat matrix --patches 1.N`` and the Release matrix page's patch view (one release's recorded
patches side by side), and by ``kcompat matrix``, the timeline and the gate detail page (which
patch changed a gate's state at its release)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from kcompat.answers.queries import bundled_release
from kcompat.core.compat import parse_binary_version
from kcompat.core.errors import KcompatError, quote_cut
from kcompat.core.matrix import (
    ALL_TRANSITION_KINDS,
    ReleaseMatrix,
    ReleaseTransitions,
    release_matrix,
    release_transitions,
)
from kcompat.core.versions import parse_version
from kcompat.data.catalog import Catalog


@dataclass(frozen=True)
class PatchMatrix:
    """One release's recorded patches side by side, each patch's gates at the release's own version
    (as the release matrix shows a release), for the gates whose entry differs between two of them."""

    release: str
    #: the recorded patches, oldest first ("1.35.0", ..., "1.35.8")
    patches: tuple[str, ...]
    #: the patch the release's data is (a plain "1.35" answers as it)
    base: str | None
    #: columns: the patches; rows: every gate whose registration, specs or dependencies differ between two patches
    matrix: ReleaseMatrix
    #: what each patch changed from the recorded patch before it (at the release's own version)
    transitions: tuple[ReleaseTransitions, ...]
    #: rows whose state at the release's own version is the same in every patch (their specs differ at other versions)
    specs_only: tuple[str, ...]

    @property
    def changed(self) -> tuple[ReleaseTransitions, ...]:
        """The transitions that name a gate."""
        return tuple(t for t in self.transitions if any(t.counts(_KINDS).values()))


_KINDS = ALL_TRANSITION_KINDS


def patch_matrix(catalog: Catalog, release: str) -> PatchMatrix:
    """The recorded patches of ``release`` (``1.35``) and how their gates differ; a clear error for
    a release that is not bundled or a version that is not a release."""
    try:
        version = parse_version(release)
    except KcompatError:
        raise KcompatError(f"--patches {quote_cut(release)}: expected a bundled release, e.g. 1.35") from None
    if len(version.components) != 2:
        raise KcompatError(f"--patches {release}: give the release (1.{version.minor}), not a patch: every recorded patch of it is shown")
    name = bundled_release(catalog, version, "--patches release")
    return _patch_matrix(catalog, name)


@functools.lru_cache(maxsize=16)
def _patch_matrix(catalog: Catalog, release: str) -> PatchMatrix:
    levels = catalog.patches(release).levels
    info = catalog.info(release)
    if not levels:  # no patch recorded: the release's data alone
        manifest = catalog.manifest(release)
        alone = release_matrix([(release, manifest)])
        return PatchMatrix(release, (release,), info.patch, ReleaseMatrix(alone.releases, ()), (), ())
    manifests = [(level.name, catalog.manifest_for(parse_binary_version(level.name))[0]) for level in levels]
    differing = {g["name"] for level in levels for g in level.gates} | {name for level in levels for name in level.absent}
    full = release_matrix(manifests)
    rows = tuple(r for r in full.rows if r.gate in differing)
    matrix = ReleaseMatrix(full.releases, rows)
    specs_only = tuple(r.gate for r in rows if len(set(r.cells)) == 1)
    return PatchMatrix(release, full.releases, info.patch, matrix, release_transitions(matrix), specs_only)


@functools.lru_cache(maxsize=4)
def patch_changes(catalog: Catalog) -> dict[str, tuple[ReleaseTransitions, ...]]:
    """For every bundled release with recorded patches: the patches that changed a gate's state at
    the release's own version, and how (the transitions of :func:`patch_matrix`)."""
    out = {}
    for release in catalog.usable_releases():
        if len(catalog.patches(release).levels) > 1:
            changed = _patch_matrix(catalog, release).changed
            if changed:
                out[release] = changed
    return out


def gate_patch_changes(catalog: Catalog, gate: str) -> tuple[tuple[str, str, str], ...]:
    """Where a patch release changed ``gate``'s state at its release: (release, patch, what), e.g.
    ("1.35", "1.35.1", "default flipped"), oldest first."""
    found = []
    for release, transitions in patch_changes(catalog).items():
        for t in transitions:
            for kind in _KINDS:
                if gate in t.gates(kind):
                    found.append((release, t.release, kind))
    return tuple(found)
