"""Which rows and columns of the release matrix to show: the one filter of ``kcompat matrix`` and
the Release matrix page (:class:`MatrixFilter`, :func:`filter_matrix`), and the parsers of its
options (``1.35:toGA``, a stage, an origin, a release), each refusing a value with a message that
names it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import KcompatError, quote_cut
from .matrix import (
    TRANSITION_KEYS,
    MatrixRow,
    ReleaseMatrix,
    ReleaseTransitions,
    release_transitions,
)
from .search import GateText, search_matches
from .stages import Stage

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    from .removable import RemovableGates

#: Where a gate comes from: the kube binaries' own list or k8s.io/client-go's.
ORIGINS = ("kube", "client-go")


#: Stages the stage filter offers (PreAlpha is "not listed yet": never a cell's stage).
FILTER_STAGES = (Stage.ALPHA, Stage.BETA, Stage.GA, Stage.DEPRECATED)


_BY_KEY = {key.casefold(): kind for kind, key in TRANSITION_KEYS.items()}


@dataclass(frozen=True)
class Transition:
    """One kind of change in one release: ``1.35:toGA`` = the gates that became GA in 1.35."""

    release: str
    kind: str

    def __str__(self) -> str:
        return f"{self.release}:{TRANSITION_KEYS[self.kind]}"


def _release(text: str, releases: Sequence[str], what: str, whole: str | None = None) -> str:
    value = text.strip()
    plain = value[1:] if value[:1] in ("v", "V") else value
    if plain in releases:
        return plain
    where = f"{what} {quote_cut(whole)}: {quote_cut(text)} is" if whole is not None else f"{what} {quote_cut(text)}:"
    raise KcompatError(f"{where} not a bundled release (one of {', '.join(releases)})")


def parse_transition(text: str, releases: Sequence[str], what: str = "change") -> Transition:
    """``RELEASE:KIND`` (``1.35:toGA``; the kind's key, any case) in one of ``releases``, the
    oldest excepted (it has no previous release to compare with)."""
    release, sep, key = text.partition(":")
    if not sep or not key.strip():
        raise KcompatError(
            f"{what} {quote_cut(text)}: expected RELEASE:KIND such as 1.35:toGA "
            f"(KIND one of {', '.join(TRANSITION_KEYS.values())})"
        )
    kind = _BY_KEY.get(key.strip().casefold())
    if kind is None:
        raise KcompatError(f"{what} {quote_cut(text)}: {quote_cut(key.strip())} is not one of {', '.join(TRANSITION_KEYS.values())}")
    found = _release(release, releases, what, text)
    if releases and found == releases[0]:
        raise KcompatError(f"{what} {quote_cut(text)}: {found} is the oldest bundled release, there is no previous one to compare with")
    return Transition(found, kind)


def parse_stage(text: str, what: str = "stage") -> Stage:
    """A stage the filter offers, by name in any case (``beta``, ``GA``)."""
    for stage in FILTER_STAGES:
        if stage.value.casefold() == text.strip().casefold():
            return stage
    raise KcompatError(f"{what} {quote_cut(text)}: not one of {', '.join(s.value for s in FILTER_STAGES)}")


def parse_origin(text: str, what: str = "origin") -> str:
    value = text.strip().casefold()
    if value in ORIGINS:
        return value
    raise KcompatError(f"{what} {quote_cut(text)}: not one of {', '.join(ORIGINS)}")


def parse_release(text: str, releases: Sequence[str], what: str = "release") -> str:
    """One of ``releases`` (``1.35`` or ``v1.35``)."""
    return _release(text, releases, what)


@dataclass(frozen=True)
class MatrixFilter:
    """Which rows and columns of a :class:`ReleaseMatrix` to show. Every part that is set must
    hold (and); a part with several values holds when any of them does (or).

    * ``changed``: the gate is named by one of these transitions (``1.35:toGA``);
    * ``stages``: the gate is listed at one of these stages in ``stage_release`` (the newest
      release of the matrix when None);
    * ``origins``: the gate comes from one of these (``kube``, ``client-go``);
    * ``search``: :func:`kcompat.core.search.matches` finds the gate (name, abbreviation, KEP
      number, words of its description);
    * ``changed_only``: the gate's state differs between two of the releases shown;
    * ``removable_in``: release R can remove the gate: it is locked past R's emulation window
      (:mod:`kcompat.core.removable`; the caller computes which gates);
    * ``releases``: the columns shown (all when empty), in the matrix's order.
    """

    changed: tuple[Transition, ...] = ()
    stages: tuple[Stage, ...] = ()
    stage_release: str | None = None
    origins: tuple[str, ...] = ()
    search: str = ""
    changed_only: bool = False
    releases: tuple[str, ...] = ()
    removable_in: str | None = None

    def check(self, matrix: ReleaseMatrix) -> None:
        """Raise :class:`KcompatError` naming the first release this filter names that the matrix lacks."""
        names = [t.release for t in self.changed] + list(self.releases)
        if self.stage_release is not None:
            names.append(self.stage_release)
        for name in names:
            _release(name, matrix.releases, "release")

    def document(self) -> dict[str, object]:
        """The filter as the JSON document echoes it."""
        return {
            "changed": [str(t) for t in self.changed],
            "stages": [s.value for s in self.stages],
            "inRelease": self.stage_release,
            "origins": list(self.origins),
            "search": self.search,
            "changedOnly": self.changed_only,
            "releases": list(self.releases),
            "removableIn": self.removable_in,
        }


@dataclass(frozen=True)
class FilteredMatrix:
    """The rows and columns a :class:`MatrixFilter` keeps, and the transitions of the releases
    shown (computed on the whole matrix, so a release's changes are against its real previous
    release), naming only the gates shown."""

    matrix: ReleaseMatrix
    transitions: tuple[ReleaseTransitions, ...]
    filter: MatrixFilter
    #: gates in the whole matrix (before filtering)
    total: int
    #: with a search: gate -> where the query found it (name, KEP, abbreviation, description)
    matched: Mapping[str, str] | None = None
    #: with ``removable_in``: the locked gates and which of them that release can remove
    removable: RemovableGates | None = None


def filter_matrix(
    matrix: ReleaseMatrix,
    flt: MatrixFilter,
    texts: Mapping[str, GateText] | None = None,
    removable: RemovableGates | None = None,
) -> FilteredMatrix:
    """The rows of ``matrix`` that ``flt`` keeps, with its columns; ``texts`` (descriptions, KEP
    links) are what the search finds gates by besides their names, ``removable`` the gates
    ``flt.removable_in`` can remove (required with it)."""
    flt.check(matrix)
    if flt.removable_in is not None and (removable is None or str(removable.release) != flt.removable_in):
        raise KcompatError(f"the gates release {flt.removable_in} can remove were not given")
    all_transitions = release_transitions(matrix)
    columns = [i for i, r in enumerate(matrix.releases) if not flt.releases or r in flt.releases]
    rows = _by_state(matrix, flt, all_transitions)
    matched = None
    if flt.search.strip():
        matched = search_matches(flt.search, [r.gate for r in rows], texts)
        rows = [r for r in rows if r.gate in matched]
    if flt.changed_only:
        rows = [r for r in rows if len({r.cells[i] for i in columns}) > 1]
    if flt.removable_in is not None and removable is not None:
        can = {g.name for g in removable.removable()}
        rows = [r for r in rows if r.gate in can]
    shown = ReleaseMatrix(
        tuple(matrix.releases[i] for i in columns),
        tuple(MatrixRow(r.gate, tuple(r.cells[i] for i in columns), r.origin) for r in rows),
    )
    names = {r.gate for r in rows}
    transitions = tuple(t.only(names) for t in all_transitions if t.release in shown.releases)
    if matched is not None:
        matched = {r.gate: matched[r.gate] for r in rows}
    return FilteredMatrix(shown, transitions, flt, len(matrix.rows), matched, removable if flt.removable_in is not None else None)


def _by_state(matrix: ReleaseMatrix, flt: MatrixFilter, all_transitions: tuple[ReleaseTransitions, ...]) -> list[MatrixRow]:
    """The rows the transition, stage and origin parts of ``flt`` keep."""
    rows = list(matrix.rows)
    if flt.changed:
        by_release = {t.release: t for t in all_transitions}
        named = {g for t in flt.changed for g in by_release[t.release].gates(t.kind)}
        rows = [r for r in rows if r.gate in named]
    if flt.stages:
        at = matrix.releases.index(flt.stage_release or matrix.releases[-1])
        rows = [r for r in rows if (c := r.cells[at]) is not None and c.stage in flt.stages]
    if flt.origins:
        rows = [r for r in rows if r.origin in flt.origins]
    return rows
