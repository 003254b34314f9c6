"""Cached access to the bundled data for the pages.

The parsed catalog is loaded once per process (``st.cache_resource``; it is immutable). Every
derived table is cached with ``st.cache_data``, keyed by the plain selection strings, and is
computed by the answers and the core (:mod:`kcompat.answers`, :mod:`kcompat.core.history`); nothing here decides a version or gate rule.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import pandas as pd
import streamlit as st

from kcompat.data.catalog import Catalog, GateInfo, ReleaseInfo, catalog_from_environment
from kcompat.core.compat import parse_binary_version, select_versions
from kcompat.core.errors import KcompatError
from kcompat.answers.changes import compare
from kcompat.documents import changes as changes_doc
from kcompat.answers.matrix import bundled_matrix, matrix as answers_matrix
from kcompat.documents import matrix as matrix_doc
from kcompat.core.history import (
    GateStatus,
    ReleaseMatrix,
    ReleaseTransitions,
    Segment,
    SpecChange,
    gate_segments,
    placeholder_start,
    release_transitions,
    spec_changes,
    timeline_segments,
)
from kcompat.core.manifest import FeatureSpec, Manifest
from kcompat.core.stages import STAGE_ORDER
from kcompat.core.versions import offset_minor
from kcompat.core.search import GateText
from kcompat.answers.gates import compare_components, gate_texts as answers_gate_texts, gates
from kcompat.answers.queries import gate_lineage, newest_release

from . import hosting
from .gates_view import GatesView, unrecorded_view, view_of
from .state import Selection




@st.cache_resource(show_spinner=False)
def catalog() -> Catalog:
    """The bundled releases, every manifest parsed once (broken releases keep their problem).
    ``$KCOMPAT_DATA_DIR`` points the app at another data directory (``catalog_from_environment``)."""
    cat = catalog_from_environment()
    cat.all()
    _ = cat.gate_info
    hosting.freeze_long_lived()  # the catalog lives as long as the process: collections skip it
    return cat


@st.cache_resource(show_spinner=False)
def gate_texts() -> Mapping[str, GateText]:
    """What the gate search finds gates by besides their names: descriptions and KEP links (what
    ``kcompat gates --search`` finds them by)."""
    return answers_gate_texts(catalog())


@dataclass(frozen=True)
class CatalogSummary:
    releases: tuple[ReleaseInfo, ...]
    usable: tuple[str, ...]
    broken: tuple[tuple[str, str], ...]
    default_binary: str
    gate_counts: tuple[tuple[str, int], ...]
    #: release -> label for the binary picker ("1.38 (development)")
    labels: Mapping[str, str]

    def info(self, release: str) -> ReleaseInfo:
        return next(r for r in self.releases if r.release == release)


@st.cache_resource(show_spinner=False)
def summary() -> CatalogSummary:
    """What the catalog holds (immutable; read on every run, so kept as a resource)."""
    cat = catalog()
    data = cat.all()
    return CatalogSummary(
        releases=cat.releases,
        usable=tuple(d.info.release for d in data if d.usable),
        broken=tuple((d.info.release, d.problem) for d in data if d.problem),
        default_binary=newest_release(cat),
        gate_counts=tuple((d.info.release, len(d.manifest)) for d in data if d.usable),
        labels=MappingProxyType(
            {
                d.info.release: f"{d.info.release} (development)" if d.info.status == "development" else d.info.named
                for d in data
                if d.usable
            }
        ),
    )


# ---------------------------------------------------------------------------------------------
# Gates page




_SESSION_VIEWS = "_gates_views"
#: Views a session keeps (a session switching back and forth does not rebuild them).
SESSION_VIEWS_MAX = 8


#: Longest canonical query string used as a process-wide cache key (a long --feature-gates value
#: is answered for its session only): the cache holds at most 256 x (this + one view).
_CACHE_KEY_MAX = 2_000


def gates_view(sel: Selection) -> GatesView:
    """The Gates page's data for a selection: computed once per process (``st.cache_data``, keyed
    by the canonical query string); the session also keeps its last few views, so switching back
    and forth between versions does not even unpickle the cached value again."""
    key = sel.query
    views = st.session_state.setdefault(_SESSION_VIEWS, {})
    view = views.get(key)
    if view is None:
        view = keep_last(views, key, _gates_view(key) if len(key) <= _CACHE_KEY_MAX else _build_gates_view(sel, None))
    return view


def keep_last(views: dict, key, view):
    """Store ``view`` under ``key`` in a session's dict of views, dropping the oldest past
    :data:`SESSION_VIEWS_MAX`; returns ``view``."""
    views[key] = view
    while len(views) > SESSION_VIEWS_MAX:
        views.pop(next(iter(views)))
    return view


@st.cache_data(show_spinner=False, max_entries=256)
def _gates_view(query: str) -> GatesView:
    # One plain string as the key: Streamlit hashes it much faster than four arguments.
    return _build_gates_view(Selection.from_query(query), None)


def _build_gates_view(sel: Selection, manifest: Manifest | None) -> GatesView:
    """The answer for the selection's component, and (for the bundled gates) how the other
    components answer it: the lines the page shows where they differ."""
    cat = catalog()
    try:
        answer = gates(cat, sel.binary_version, sel.emulated, sel.min_compat, sel.feature_gates, manifest, sel.component)
    except KcompatError as exc:
        if manifest is not None or "is not recorded" not in str(exc):
            raise
        return unrecorded_view(str(exc))
    if manifest is None:
        answer = compare_components(cat, answer, sel.emulated, sel.min_compat, sel.feature_gates)
    return view_of(answer)


DOWNLOAD_FORMATS = {"csv": "text/csv", "json": "application/json", "markdown": "text/markdown"}


def download_args(sel: Selection) -> tuple[str, str, str | None, str]:
    return (sel.binary_version, sel.emulated, sel.min_compat, sel.feature_gates)


# ---------------------------------------------------------------------------------------------
# What changes


@st.cache_data(show_spinner=False, max_entries=128)
def changes(binary: str, emulated: str, min_compat: str | None, feature_gates: str, against: str, component: str = "kube-apiserver") -> dict:
    """The ``kcompat changes --format json`` document for these inputs (the page renders it)."""
    return changes_doc.changes_document(compare(catalog(), binary, emulated, min_compat, feature_gates, against, component))


def changes_frame(document: dict) -> pd.DataFrame:
    return pd.DataFrame(changes_doc.changes_rows(document), columns=list(changes_doc.ROW_COLUMNS))


# ---------------------------------------------------------------------------------------------
# Timeline, matrix, gate detail


@st.cache_data(show_spinner=False, max_entries=32)
def timeline(binary: str) -> tuple[Segment, ...]:
    """Every gate's history in the binary's manifest (at its patch: ``1.35.0`` as v1.35.0 registers
    its gates), up to and including its release."""
    version = parse_binary_version(binary)
    rules = select_versions(version).rules
    return timeline_segments(catalog().manifest_for(version)[0], offset_minor(version, 1), rules.gates_use_min_compat)


@st.cache_data(show_spinner=False)
def patch_change_texts() -> tuple[tuple[str, str, str, str], ...]:
    """(release, patch, kind, gate) for every recorded patch that changed a gate's state at its
    release (:func:`kcompat.answers.patches.patch_changes`), oldest first."""
    from kcompat.core.history import ALL_TRANSITION_KINDS
    from kcompat.answers.patches import patch_changes

    return tuple(
        (release, t.release, kind, gate)
        for release, transitions in patch_changes(catalog()).items()
        for t in transitions
        for kind in ALL_TRANSITION_KINDS
        for gate in t.gates(kind)
    )


@st.cache_data(show_spinner=False)
def matrix() -> ReleaseMatrix:
    return bundled_matrix(catalog())


@st.cache_data(show_spinner=False)
def transitions() -> tuple[ReleaseTransitions, ...]:
    return release_transitions(matrix())


@st.cache_data(show_spinner=False)
def matrix_document() -> dict:
    """The ``kcompat matrix --format json`` document (the page's transition filters read it)."""
    return matrix_doc.matrix_document(*answers_matrix(catalog()))


@st.cache_data(show_spinner=False)
def matrix_frame() -> pd.DataFrame:
    """Gates x releases, each cell ``Stage (on|off[, locked])`` or ``—`` (not listed): the rows of
    ``kcompat matrix`` (without its origin column)."""
    document = matrix_document()
    rows = matrix_doc.matrix_rows(document)
    return pd.DataFrame(rows, columns=["gate", *document["releases"]])


@st.cache_data(show_spinner=False)
def matrix_stages() -> pd.DataFrame:
    """Same shape as :func:`matrix_frame`, each cell the stage name ("" when not listed)."""
    m = matrix()
    rows = [{"gate": r.gate, **{rel: c.stage.value if c else "" for rel, c in zip(m.releases, r.cells)}} for r in m.rows]
    return pd.DataFrame(rows, columns=["gate", *m.releases])


@st.cache_data(show_spinner=False)
def stage_counts() -> pd.DataFrame:
    """How many gates each release lists per stage (at its own version)."""
    m = matrix()
    rank = {s.value: i for i, s in enumerate(STAGE_ORDER)}
    rows = []
    for i, release in enumerate(m.releases):
        counts: dict[str, int] = {}
        for r in m.rows:
            c = r.cells[i]
            if c is not None:
                counts[c.stage.value] = counts.get(c.stage.value, 0) + 1
        rows += [{"release": release, "stage": s, "gates": n, "stage_rank": rank[s]} for s, n in counts.items()]
    return pd.DataFrame(rows, columns=["release", "stage", "gates", "stage_rank"])


@dataclass(frozen=True)
class GateDetail:
    name: str
    specs: tuple[FeatureSpec, ...] | None
    segments: tuple[Segment, ...]
    releases: tuple[tuple[ReleaseInfo, GateStatus | None], ...]
    info: GateInfo | None
    dependencies: tuple[str, ...]
    #: "kube" or "client-go" (k8s.io/client-go's features, added to every kube binary's gate);
    #: from the binary's manifest, else from the newest release that lists the gate
    origin: str = "kube"
    #: what each release changed (appeared, stage, default, lock, removal), from the binary's
    #: manifest (else the newest that lists the gate) and the bundled releases' lineage
    changes: tuple[SpecChange, ...] = ()
    #: the placeholder version (0.0 / 1.0) the data dates the gate to, if it does
    placeholder: str | None = None
    #: the manifest the changes come from ("1.36")
    changes_from: str = ""


@st.cache_data(show_spinner=False, max_entries=256)
def gate_detail(binary: str, gate: str) -> GateDetail:
    cat = catalog()
    feature = cat.manifest(binary).by_name.get(gate)
    version = parse_binary_version(binary)
    segments: tuple[Segment, ...] = ()
    if feature is not None:
        segments = gate_segments(feature, offset_minor(version, 1), select_versions(version).rules.gates_use_min_compat)
    source, listed = binary, feature
    if listed is None:
        for release in reversed(cat.usable_releases()):
            listed = cat.manifest(release).by_name.get(gate)
            if listed is not None:
                source = release
                break
    usable = cat.usable_releases()
    removal = gate_lineage(cat).removal_before(gate, parse_binary_version(usable[-1])) if usable else None
    changes = spec_changes(listed, removal) if listed is not None else ()
    start = placeholder_start(listed) if listed is not None else None
    m = matrix()
    row = m.row(gate)
    cells = row.cells if row is not None else (None,) * len(m.releases)
    infos = {r.release: r for r in cat.releases}
    return GateDetail(
        name=gate,
        specs=feature.specs if feature is not None else None,
        segments=segments,
        releases=tuple((infos[rel], c) for rel, c in zip(m.releases, cells)),
        info=cat.gate_info.get(gate),
        dependencies=feature.dependencies if feature is not None else (),
        origin=feature.origin if feature is not None else _origin_in_any_release(cat, gate),
        changes=changes,
        placeholder=str(start) if start is not None else None,
        changes_from=source if listed is not None else "",
    )


def _origin_in_any_release(cat: Catalog, gate: str) -> str:
    for release in reversed(cat.usable_releases()):
        feature = cat.manifest(release).by_name.get(gate)
        if feature is not None:
            return feature.origin
    return "kube"


@st.cache_data(show_spinner=False)
def all_gate_names() -> tuple[str, ...]:
    """Every gate any bundled release lists (the detail page can show removed gates too)."""
    return tuple(r.gate for r in matrix().rows)


@functools.lru_cache(maxsize=64)
def component_problem(binary: str, component: str) -> str | None:
    """Why ``component``'s own gate set cannot answer for ``binary`` (not recorded), or None."""
    try:
        catalog().manifest_for(parse_binary_version(binary), component)
    except KcompatError as exc:
        return str(exc)
    return None


@functools.lru_cache(maxsize=32)
def patch_options(release: str) -> tuple[str, ...]:
    """The recorded patch numbers of ``release``, oldest first, the newest (the release's data) last;
    empty when the release is not bundled or has no patch data."""
    try:
        levels = catalog().patches(release)
    except KcompatError:
        return ()
    return tuple(name.split(".", 2)[2] for name in levels.names())
