"""The gate detail question: everything about one gate for a selection, asked the same way by
``kcompat gate NAME`` and the Gate detail page (written by :mod:`kcompat.documents.gate`).

The gate's state with the selection (the Gates answer's row), its specs in the binary's manifest
and the history they draw, its state in every bundled release (each release's own manifest at its
own version) and what each release changed (from the binary's manifest, else the newest that lists
the gate, and the bundled releases' lineage for a removal).
"""

from __future__ import annotations

from dataclasses import dataclass

from kcompat.answers.gates import GateRow, gates, require_accepted
from kcompat.answers.matrix import bundled_matrix
from kcompat.answers.queries import gate_lineage, newest_release
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.errors import KcompatError, quote_cut
from kcompat.core.gate_history import (
    GateStatus,
    Segment,
    SpecChange,
    changes_across,
    gate_segments,
)
from kcompat.core.manifest import Feature, FeatureSpec
from kcompat.core.matrix import listed_since
from kcompat.core.placeholders import GateStart, gate_start, placeholder_start
from kcompat.core.request import Request
from kcompat.core.versions import offset_minor, parse_version
from kcompat.data.catalog import Catalog, GateInfo, ReleaseInfo


@dataclass(frozen=True)
class ReleaseState:
    """The gate in one bundled release: that release's own manifest at its own version."""

    release: ReleaseInfo
    #: None: the release does not list the gate
    status: GateStatus | None
    #: the release's data for this gate is exact (verified against the release source)
    exact: bool


@dataclass(frozen=True)
class GateDetail:
    name: str
    binary: str
    emulated: str
    min_compat: str
    #: "kube" or "client-go" (k8s.io/client-go's features, added to every kube binary's gate):
    #: from the binary's manifest, else from the newest release that lists the gate
    origin: str
    info: GateInfo | None
    dependencies: tuple[str, ...]
    #: the placeholder version (0.0 / 1.0) the data dates the gate to, if it does
    placeholder: str | None
    #: the gate with this selection (the Gates answer's row); None when the binary does not register it
    state: GateRow | None
    #: the gate's specs in the binary's manifest; None when it does not list the gate
    specs: tuple[FeatureSpec, ...] | None
    #: the history the specs draw, up to the binary's release
    segments: tuple[Segment, ...]
    #: where the gate's own history starts when the data dates its first spec to a placeholder
    start: GateStart | None
    releases: tuple[ReleaseState, ...]
    #: what each release changed (appeared, stage, default, lock, removal)
    changes: tuple[SpecChange, ...]
    #: the manifest the changes come from ("1.36"); "" when no bundled release lists the gate
    changes_from: str
    #: the newer bundled release whose manifest gives the changes after ``changes_from`` ("" for none)
    changes_later_from: str = ""


def gate_names(catalog: Catalog) -> tuple[str, ...]:
    """Every gate any bundled release lists (a removed gate too), sorted."""
    return tuple(r.gate for r in bundled_matrix(catalog).rows)


def _known(names: tuple[str, ...], name: str) -> None:
    if name in names:
        return
    from kcompat.core.search import closest_names

    close = closest_names(name, names)
    guess = f": did you mean {' or '.join(close)}?" if close else " (names are case-sensitive)"
    raise KcompatError(f"no bundled release lists a feature gate {quote_cut(name)}{guess}")


def _listed(catalog: Catalog, binary: str, name: str) -> tuple[str, Feature | None]:
    """(the release whose manifest describes the gate, its feature): the binary's own, else the
    newest usable release that lists it."""
    feature = catalog.manifest(binary).by_name.get(name)
    if feature is not None:
        return binary, feature
    for release in reversed(catalog.usable_releases()):
        listed = catalog.manifest(release).by_name.get(name)
        if listed is not None:
            return release, listed
    return "", None


def _later(catalog: Catalog, source: str, name: str) -> tuple[Feature | None, str]:
    """(the feature, its release) in the newest usable release after ``source`` that lists gate
    ``name``: the manifest that knows what happened after ``source``; (None, "") when none does."""
    if not source:
        return None, ""
    after = parse_version(source)
    for release in reversed(catalog.usable_releases()):
        if parse_version(release) <= after:
            break
        feature = catalog.manifest(release).by_name.get(name)
        if feature is not None:
            return feature, release
    return None, ""


def gate_detail(catalog: Catalog, name: str, request: Request, refuse: bool = False) -> GateDetail:
    """Gate ``name`` for the selection (the request's binary at its emulated and min compatibility
    versions, with its ``--feature-gates`` value; without a binary the newest bundled release). A name no bundled
    release lists is refused with the closest names. With ``refuse`` a selection the binary
    refuses raises :class:`~kcompat.answers.startup.SelectionRefused` (``kcompat gate``); without
    it the gate is shown at what the binary keeps (the versions' defaults when it refuses them)."""
    matrix = bundled_matrix(catalog)
    _known(tuple(r.gate for r in matrix.rows), name)
    answer = gates(catalog, Request(request.binary or newest_release(catalog), request.emulated, request.min_compat, request.feature_gates))
    if refuse:
        require_accepted(answer)
    version = parse_binary_version(answer.binary or "")
    release = f"{version.major}.{version.minor}"
    feature = catalog.manifest(release).by_name.get(name)
    segments: tuple[Segment, ...] = ()
    if feature is not None:
        segments = gate_segments(feature, offset_minor(version, 1), select_versions(version).rules.gates_use_min_compat)
    source, listed = _listed(catalog, release, name)
    usable = catalog.usable_releases()
    removal = gate_lineage(catalog).removal_before(name, parse_binary_version(usable[-1])) if usable else None
    origin = feature.origin if feature is not None else (listed.origin if listed is not None else "kube")
    row = matrix.row(name)
    cells = row.cells if row is not None else (None,) * len(matrix.releases)
    infos = {r.release: r for r in catalog.releases}
    releases = tuple(
        ReleaseState(infos[r], cell, infos[r].client_go_status in ("exact", "release") if origin == "client-go" else infos[r].exact)
        for r, cell in zip(matrix.releases, cells, strict=True)
    )
    first_listed = listed_since(matrix).get(name)
    oldest = parse_version(usable[0]) if usable else None
    placeholder = placeholder_start(listed) if listed is not None else None
    later = _later(catalog, source, name)
    return GateDetail(
        name=name,
        binary=release,
        emulated=answer.emulated,
        min_compat=answer.min_compat,
        origin=origin,
        info=catalog.gate_info.get(name),
        dependencies=feature.dependencies if feature is not None else (),
        placeholder=str(placeholder) if placeholder is not None else None,
        state=next((r for r in answer.rows if r.name == name), None),
        specs=feature.specs if feature is not None else None,
        segments=segments,
        start=gate_start(name, feature.specs, version, first_listed, oldest) if feature is not None and segments else None,
        releases=releases,
        changes=changes_across(listed, source, *later, removal) if listed is not None else (),
        changes_from=source,
        changes_later_from=later[1] if later[0] is not None else "",
    )

