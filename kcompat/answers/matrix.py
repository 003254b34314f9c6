"""The release matrix: every bundled gate in every bundled release, and the gates removed on
the way; asked the same way by ``kcompat matrix`` and the Release matrix page (serialised by
:mod:`kcompat.documents.matrix`), filtered by the same :class:`~kcompat.core.matrix_filter.MatrixFilter`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from kcompat.answers.queries import gate_lineage
from kcompat.core.errors import KcompatError, quote_cut
from kcompat.core.matrix import ReleaseMatrix, ReleaseTransitions, release_matrix
from kcompat.core.matrix_filter import (
    FilteredMatrix,
    MatrixFilter,
    filter_matrix,
    parse_origin,
    parse_release,
    parse_stage,
    parse_transition,
)
from kcompat.core.removals import GateLineage
from kcompat.core.search import MAX_QUERY_LENGTH, GateText
from kcompat.data.catalog import Catalog


def bundled_matrix(catalog: Catalog) -> ReleaseMatrix:
    """Gate x release over the usable bundled releases."""
    return release_matrix([(d.info.release, d.manifest) for d in catalog.all() if d.manifest is not None])


def release_provenance(catalog: Catalog) -> dict[str, str]:
    """Release -> how faithful its bundled data is: ``exact`` (the release itself: verified, or
    read from its running code), ``pre-release`` (read from a pre-release) or ``reconstructed``."""
    out = {}
    for d in catalog.all():
        info = d.info
        out[info.release] = "exact" if info.exact else ("pre-release" if info.pre_release else "reconstructed")
    return out


def gate_texts(catalog: Catalog) -> dict[str, GateText]:
    """What the search finds gates by besides their names: descriptions and KEP links."""
    return {name: GateText(info.description, info.kep) for name, info in catalog.gate_info.items()}


def _items(values: Iterable[str] | None, option: str) -> list[str]:
    """Repeated options and comma lists alike: ``["1.35:toGA,1.35:toBeta", "1.36:removed"]``. An
    option given with nothing in it is refused (it would silently filter nothing)."""
    given = list(values or ())
    items = [item.strip() for value in given for item in value.split(",") if item.strip()]
    if given and not items:
        raise KcompatError(f"{option} {quote_cut(','.join(given))}: no value (give e.g. {_EXAMPLES[option]})")
    return items


_EXAMPLES = {"--changed": "1.35:toGA", "--stage": "Beta", "--origin": "client-go", "--releases": "1.33,1.35"}


@dataclass(frozen=True, slots=True)
class MatrixQuery:
    """The matrix's filters as text (the CLI's options, the page's URL values); None: not given."""

    changed: tuple[str, ...] | None = None
    stages: tuple[str, ...] | None = None
    in_release: str | None = None
    origins: tuple[str, ...] | None = None
    search: str | None = None
    changed_only: bool = False
    #: --releases
    columns: tuple[str, ...] | None = None
    since: str | None = None
    removable_in: str | None = None


def matrix_filter(releases: Sequence[str], query: MatrixQuery) -> MatrixFilter:
    """A :class:`MatrixFilter` from ``query``, checked against the matrix's ``releases``; a bad
    value raises :class:`KcompatError` naming the option and the value. ``columns``
    (``--releases``) and ``since`` (``--since``: that release and the newer ones) choose the
    columns; only one of them may be given. ``removable_in`` (``--removable-in``) keeps the gates
    that release can remove (:mod:`kcompat.answers.removable`)."""
    changed, stages, in_release, origins, search = query.changed, query.stages, query.in_release, query.origins, query.search
    columns, since, removable_in = query.columns, query.since, query.removable_in
    columns_list = _items(columns, "--releases")
    if columns_list and since is not None:
        raise KcompatError("--releases and --since both choose the columns: give one of them")
    stage_list = _items(stages, "--stage")
    if in_release is not None and not stage_list:
        raise KcompatError(f"--in-release {quote_cut(in_release)} needs --stage: it says which release the stage filter looks at")
    shown: tuple[str, ...] = ()
    if columns_list:
        picked = {parse_release(r, releases, "--releases") for r in columns_list}
        shown = tuple(r for r in releases if r in picked)
    elif since is not None:
        start = releases.index(parse_release(since, releases, "--since"))
        shown = tuple(releases[start:])
    return MatrixFilter(
        changed=tuple(dict.fromkeys(parse_transition(t, releases, "--changed") for t in _items(changed, "--changed"))),
        stages=tuple(dict.fromkeys(parse_stage(s, "--stage") for s in stage_list)),
        stage_release=parse_release(in_release, releases, "--in-release") if in_release is not None else None,
        origins=tuple(dict.fromkeys(parse_origin(o, "--origin") for o in _items(origins, "--origin"))),
        search=(search or "").strip()[:MAX_QUERY_LENGTH],
        changed_only=query.changed_only,
        releases=shown,
        removable_in=_removal_release(removable_in, releases),
    )


def _removal_release(text: str | None, releases: Sequence[str]) -> str | None:
    if text is None:
        return None
    from kcompat.core.removable import parse_removal_release

    version = parse_removal_release(text, tuple(releases))
    return f"{version.major}.{version.minor}"


def filtered(
    catalog: Catalog, full: ReleaseMatrix, flt: MatrixFilter, texts: Mapping[str, GateText] | None = None,
) -> tuple[FilteredMatrix, GateLineage]:
    """The answer both front ends show: ``full`` (every bundled gate and release) filtered by
    ``flt``, with the lineage the removed cells and ``removedGates`` come from (the catalog's).
    ``texts``: what a search finds gates by besides their names (the catalog's, when not given);
    ``catalog`` answers ``flt.removable_in`` (:func:`kcompat.answers.removable.removable`)."""
    removable = None
    if flt.search and texts is None:
        texts = gate_texts(catalog)
    if flt.removable_in is not None:
        from kcompat.answers.removable import removable as removable_in

        removable = removable_in(catalog, flt.removable_in)
    return filter_matrix(full, flt, texts if flt.search else None, removable), gate_lineage(catalog)


def matrix(catalog: Catalog, flt: MatrixFilter | None = None) -> tuple[FilteredMatrix, GateLineage]:
    """The matrix (filtered by ``flt``; everything without one) and the lineage (which release
    lists which gate: the removals)."""
    flt = flt or MatrixFilter()
    return filtered(catalog, bundled_matrix(catalog), flt)


@dataclass(frozen=True)
class MatrixReport:
    """Everything ``kcompat matrix`` and the Release matrix page show: the filtered matrix, the
    lineage its removed cells come from, how faithful each release's data is, and what each
    recorded patch release changed (:func:`kcompat.documents.matrix.matrix_document` renders it)."""

    answer: FilteredMatrix
    lineage: GateLineage
    provenance: Mapping[str, str]
    patch_changes: Mapping[str, tuple[ReleaseTransitions, ...]]


def matrix_report(
    catalog: Catalog, query: MatrixQuery | MatrixFilter, full: ReleaseMatrix | None = None, texts: Mapping[str, GateText] | None = None,
) -> MatrixReport:
    """The answer to one matrix question: ``query`` read against the bundled releases (a
    :class:`MatrixQuery` as given, or a filter already read), then :func:`filtered`. ``full`` and
    ``texts``: the bundled matrix and the search texts when the caller keeps them already."""
    from kcompat.answers.patches import patch_changes

    full = full if full is not None else bundled_matrix(catalog)
    flt = matrix_filter(full.releases, query) if isinstance(query, MatrixQuery) else query
    answer, lineage = filtered(catalog, full, flt, texts)
    return MatrixReport(answer, lineage, release_provenance(catalog), patch_changes(catalog))
