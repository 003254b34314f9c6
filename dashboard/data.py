"""Cached access to the bundled data for the pages.

The parsed catalog is loaded once per process (``st.cache_resource``; it is immutable). Every
derived table is cached with ``st.cache_data``, keyed by the plain selection strings, and is
computed by the answers and the core (:mod:`kcompat.answers`, :mod:`kcompat.core.matrix`); nothing here decides a version or gate rule.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

import pandas as pd
import streamlit as st

from dashboard.gates_view import GatesView, unrecorded_view, view_of
from dashboard.server import freeze_long_lived
from dashboard.state.selection import Selection
from kcompat.answers.changes import compare
from kcompat.answers.gate import GateDetail
from kcompat.answers.gate import gate_detail as answers_gate_detail
from kcompat.answers.gates import GatesQuery, gates_report
from kcompat.answers.gates import gate_texts as answers_gate_texts
from kcompat.answers.matrix import bundled_matrix
from kcompat.answers.matrix import matrix as answers_matrix
from kcompat.answers.queries import newest_release
from kcompat.answers.timeline import TimelineAnswer, TimelineQuery
from kcompat.answers.timeline import timeline as answers_timeline
from kcompat.core.compat import parse_binary_version
from kcompat.core.errors import ComponentNotRecorded, KcompatError
from kcompat.core.manifest import Manifest
from kcompat.core.matrix import ReleaseMatrix, ReleaseTransitions, release_transitions
from kcompat.core.request import Request
from kcompat.core.search import GateText
from kcompat.core.stages import STAGE_ORDER
from kcompat.data.catalog import Catalog, ReleaseInfo, catalog_from_environment
from kcompat.documents import changes as changes_doc
from kcompat.documents import matrix as matrix_doc

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from typing import Any



#: a session's views: keyed by the selection (and an upload's digest)
K = TypeVar("K")
V = TypeVar("V")


@st.cache_resource(show_spinner=False)
def catalog() -> Catalog:
    """The bundled releases, every manifest parsed once (broken releases keep their problem).
    ``$KCOMPAT_DATA_DIR`` points the app at another data directory (``catalog_from_environment``)."""
    cat = catalog_from_environment()
    cat.all()
    _ = cat.gate_info
    freeze_long_lived()  # the catalog lives as long as the process: collections skip it
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
    #: release -> label for the binary picker ("1.38 (v1.38.0-beta.0, pre-release)")
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
        gate_counts=tuple((d.info.release, len(d.manifest)) for d in data if d.usable and d.manifest is not None),
        labels=MappingProxyType(
            {
                d.info.release: d.info.named
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
    view: GatesView | None = views.get(key)
    if view is None:
        view = keep_last(views, key, _gates_view(key) if len(key) <= _CACHE_KEY_MAX else _build_gates_view(sel, None))
    return view


def keep_last(views: dict[K, V], key: K, view: V) -> V:
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
    try:
        answer = gates_report(catalog(), sel.request, GatesQuery(manifest))
    except ComponentNotRecorded as exc:
        if manifest is not None:
            raise
        return unrecorded_view(str(exc))
    return view_of(answer)


DOWNLOAD_FORMATS = {"csv": "text/csv", "json": "application/json", "markdown": "text/markdown"}


def download_args(sel: Selection) -> tuple[str, str, str | None, str]:
    return (sel.binary_version, sel.emulated, sel.min_compat, sel.feature_gates)


# ---------------------------------------------------------------------------------------------
# What changes


@st.cache_data(show_spinner=False, max_entries=128)
def changes(request: Request, against: str) -> dict[str, Any]:
    """The ``kcompat changes --format json`` document for the selection and ``against`` (the page renders it)."""
    return changes_doc.changes_document(compare(catalog(), request, against))


def changes_frame(document: dict[str, Any]) -> pd.DataFrame:
    return pd.DataFrame(changes_doc.changes_rows(document), columns=list(changes_doc.ROW_COLUMNS))


# ---------------------------------------------------------------------------------------------
# Timeline, matrix, gate detail


@st.cache_data(show_spinner=False, max_entries=64)
def timeline(request: Request, query: TimelineQuery) -> TimelineAnswer:
    """The Timeline page's rows: :func:`kcompat.answers.timeline.timeline` (``kcompat timeline``)."""
    return answers_timeline(catalog(), request, query)


@st.cache_data(show_spinner=False)
def patch_change_texts() -> tuple[tuple[str, str, str, str], ...]:
    """(release, patch, kind, gate) for every recorded patch that changed a gate's state at its
    release (:func:`kcompat.answers.patches.patch_changes`), oldest first."""
    from kcompat.answers.patches import patch_changes
    from kcompat.core.matrix import ALL_TRANSITION_KINDS

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
def matrix_document() -> dict[str, Any]:
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
    rows = [{"gate": r.gate, **{rel: c.stage.value if c else "" for rel, c in zip(m.releases, r.cells, strict=True)}} for r in m.rows]
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


@st.cache_data(show_spinner=False, max_entries=256)
def gate_detail(gate: str, request: Request) -> GateDetail:
    """The Gate detail page's answer: :func:`kcompat.answers.gate.gate_detail` (``kcompat gate``)."""
    return answers_gate_detail(catalog(), gate, request)


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
