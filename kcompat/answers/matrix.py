"""The release matrix: every bundled gate in every bundled release, and the gates removed on
the way; asked the same way by ``kcompat matrix`` and the Release matrix page (serialised by
:mod:`kcompat.documents.matrix`)."""

from __future__ import annotations

from kcompat.answers.queries import gate_lineage
from kcompat.core.history import ReleaseMatrix, release_matrix
from kcompat.core.removals import GateLineage
from kcompat.data.catalog import Catalog


def bundled_matrix(catalog: Catalog) -> ReleaseMatrix:
    """Gate x release over the usable bundled releases."""
    return release_matrix([(d.info.release, d.manifest) for d in catalog.all() if d.manifest is not None])


def matrix(catalog: Catalog) -> tuple[ReleaseMatrix, GateLineage]:
    """The matrix and the lineage (which release lists which gate: the removals)."""
    return bundled_matrix(catalog), gate_lineage(catalog)
