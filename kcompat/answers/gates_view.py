"""The Gates page's data for one selection, free of Streamlit: built by the app's cached loaders
(``components/data.py``) for the bundled gates, and by the upload worker
(``dashboard/components/upload_worker.py``) for an uploaded manifest, in a process of its own."""

from __future__ import annotations

from dataclasses import dataclass

from kcompat.documents import formats
from kcompat.data.catalog import Catalog
from kcompat.core.diffs import TABLE_COLUMNS, gate_table_rows
from kcompat.core.hints import hints_for
from kcompat.core.placeholders import introduced_text
from kcompat.core.manifest import Manifest
from kcompat.documents.gates import GATE_COLUMNS, gate_rows, gates_document
from kcompat.answers.queries import gate_lineage, gates_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import pyarrow as pa


@dataclass(frozen=True)
class GatesView:
    """Everything the Gates page shows for one selection. ``table`` is an Arrow table (columns
    :data:`~kcompat.core.diffs.TABLE_COLUMNS`): cheap to unpickle from the cache and handed to
    ``st.dataframe`` without a pandas conversion on every rerun."""

    table: pa.Table
    emulated: str
    min_compat: str
    errors: tuple[str, ...]
    flag_errors: tuple[str, ...]
    warnings: tuple[str, ...]
    flags_applied: bool
    explicit: tuple[str, ...]
    metrics: tuple[tuple[str, int], ...]
    #: one-line explanations beside the errors (kcompat.core.hints), never inside them
    hints: tuple[str, ...] = ()

    @property
    def longest_name(self) -> int:
        """Characters of the longest gate name (the gate column's width follows it)."""
        if self.table.num_rows == 0:
            return 0
        import pyarrow.compute as pc

        return int(pc.max(pc.utf8_length(self.table.column("gate"))).as_py())

    def stage_at(self) -> dict[str, str]:
        """Gate -> stage at the emulated version."""
        return dict(zip(self.table.column("gate").to_pylist(), self.table.column("stage").to_pylist()))

    def row(self, gate: str) -> dict[str, object] | None:
        names = self.table.column("gate").to_pylist()
        if gate not in names:
            return None
        i = names.index(gate)
        return {c: self.table.column(c)[i].as_py() for c in self.table.column_names}


#: the Arrow table's columns: the effective-table columns, where the binary registers each gate
#: from, and where its history starts ("1.33", or a 0.0 / 1.0 placeholder said as one)
VIEW_COLUMNS = (*TABLE_COLUMNS, "origin", "history_from")


def table_schema() -> pa.Schema:
    """The Arrow schema of :attr:`GatesView.table` (pyarrow is imported only where a table is built)."""
    import pyarrow as pa

    return pa.schema(
        [
            ("gate", pa.string()),
            ("enabled", pa.bool_()),
            ("stage", pa.string()),
            ("default", pa.bool_()),
            ("locked", pa.bool_()),
            ("binary_stage", pa.string()),
            ("changed", pa.bool_()),
            ("origin", pa.string()),
            ("history_from", pa.string()),
        ]
    )


def build_gates_view(
    cat: Catalog, binary: str, emulated: str, min_compat: str | None, feature_gates: str, manifest: Manifest | None = None
) -> GatesView:
    """The Gates page's data for one selection (on ``manifest`` instead of the bundled gates, if given)."""
    return view_from_fields(view_fields(cat, binary, emulated, min_compat, feature_gates, manifest))


def view_from_fields(fields: dict[str, Any]) -> GatesView:
    """The view of :func:`view_fields`' answer: its columns become the Arrow table."""
    import pyarrow as pa

    fields = dict(fields)
    columns = fields.pop("columns")
    return GatesView(table=pa.table(columns, schema=table_schema()), **fields)


def view_fields(
    cat: Catalog, binary: str, emulated: str, min_compat: str | None, feature_gates: str, manifest: Manifest | None = None
) -> dict[str, Any]:
    """:class:`GatesView`'s fields in plain values, the table as a dict of column lists (what the
    upload worker sends back: no pyarrow needed to build it)."""
    evaluation = gates_for(cat, binary, emulated, min_compat, feature_gates or None, manifest=manifest)
    native = gates_for(cat, binary, manifest=manifest)
    features = evaluation.manifest.by_name if evaluation.manifest is not None else {}
    rows = [
        dict(r, origin=evaluation.origin(r["gate"]), history_from=introduced_text(features[r["gate"]]) if r["gate"] in features else None)
        for r in gate_table_rows(evaluation, native)
    ]
    return dict(
        columns={c: [r[c] for r in rows] for c in VIEW_COLUMNS},
        emulated=str(evaluation.selection.emulated),
        min_compat=str(evaluation.selection.min_compat),
        errors=evaluation.errors,
        flag_errors=evaluation.flag_errors,
        warnings=evaluation.warnings,
        flags_applied=evaluation.flags_applied,
        explicit=tuple(g.name for g in evaluation.gates + evaluation.meta if g.explicit),
        hints=tuple(h.line for h in hints_for(evaluation, (lambda: gate_lineage(cat)) if manifest is None else None)),
        metrics=(
            ("enabled", sum(r["enabled"] for r in rows)),
            ("changed", sum(r["changed"] for r in rows)),
            ("PreAlpha", sum(r["stage"] == "PreAlpha" for r in rows)),
            ("locked", sum(r["locked"] for r in rows)),
            ("gates", len(rows)),
        ),
    )



def gates_download(
    cat: Catalog, fmt: str, binary: str, emulated: str, min_compat: str | None, feature_gates: str, manifest: Manifest | None = None
) -> str:
    """The text ``kcompat gates --format <fmt>`` prints for the same selection (``--manifest`` for an
    uploaded one). Not cached and free of Streamlit calls: a download button runs it when clicked."""
    evaluation = gates_for(cat, binary, emulated, min_compat, feature_gates or None, manifest=manifest)
    if fmt == "json":
        return formats.to_json(gates_document(evaluation, (lambda: gate_lineage(cat)) if manifest is None else None))
    rows = gate_rows(evaluation)
    if fmt == "csv":
        return formats.rows_to_csv(rows, GATE_COLUMNS)
    if fmt == "markdown":
        return formats.rows_to_markdown(rows, GATE_COLUMNS)
    raise ValueError(f"unknown download format {fmt!r}")


