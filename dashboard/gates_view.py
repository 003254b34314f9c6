"""The Gates page's data for one selection: :func:`kcompat.answers.gates.gates`' answer with its
rows as an Arrow table. Built by the app's cached loaders (``data.py``) for the
bundled gates, and from the upload worker's answer for an uploaded manifest."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from kcompat.answers.gates import GatesAnswer
from kcompat.documents.gates import verdict_line

#: The table's columns: each gate's state at the selection, its stage in the binary's own release,
#: whether that differs, where the binary registers it from and where its history starts.
VIEW_COLUMNS = ("gate", "enabled", "stage", "default", "locked", "binary_stage", "changed", "origin", "history_from")

#: The Arrow schema of :attr:`GatesView.table`.
TABLE_SCHEMA = pa.schema(
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


@dataclass(frozen=True)
class GatesView:
    """Everything the Gates page shows for one selection. ``table`` is an Arrow table (columns
    :data:`VIEW_COLUMNS`): cheap to unpickle from the cache and handed to ``st.dataframe`` without
    a pandas conversion on every rerun. The other fields are the answer's."""

    table: pa.Table
    emulated: str
    errors: tuple[str, ...]
    flag_errors: tuple[str, ...]
    warnings: tuple[str, ...]
    metrics: tuple[tuple[str, int], ...]
    #: one-line remedies beside the errors (kcompat.core.remedies), never inside them
    hints: tuple[str, ...] = ()
    #: why kube-apiserver would start but not become ready with the selection (kcompat.answers.startup)
    not_ready: tuple[str, ...] = ()
    #: where another control-plane component answers the selection differently (one line each)
    component_differences: tuple[str, ...] = ()
    #: the components whose gate sets are not recorded for the release (one line each)
    components_not_recorded: tuple[str, ...] = ()
    #: a good start in words (kcompat.documents.gates.verdict_line); None when refused or not ready
    starts: str | None = None

    @property
    def longest_name(self) -> int:
        """Characters of the longest gate name (the gate column's width follows it)."""
        if self.table.num_rows == 0:
            return 0
        return int(pc.max(pc.utf8_length(self.table.column("gate"))).as_py())

    def stage_at(self) -> dict[str, str]:
        """Gate -> stage at the emulated version."""
        return dict(zip(self.table.column("gate").to_pylist(), self.table.column("stage").to_pylist(), strict=True))

    def row(self, gate: str) -> dict[str, object] | None:
        names = self.table.column("gate").to_pylist()
        if gate not in names:
            return None
        i = names.index(gate)
        return {c: self.table.column(c)[i].as_py() for c in self.table.column_names}


def view_of(answer: GatesAnswer) -> GatesView:
    """The page's view of an answer: the rows become the Arrow table."""
    rows = answer.rows
    columns = {
        "gate": [r.name for r in rows],
        "enabled": [r.enabled for r in rows],
        "stage": [r.stage for r in rows],
        "default": [r.default for r in rows],
        "locked": [r.locked for r in rows],
        "binary_stage": [r.binary_stage for r in rows],
        "changed": [r.changed for r in rows],
        "origin": [r.origin for r in rows],
        "history_from": [r.history_from for r in rows],
    }
    return GatesView(
        table=pa.table(columns, schema=TABLE_SCHEMA),
        emulated=answer.emulated,
        errors=answer.errors,
        flag_errors=answer.flag_errors,
        warnings=answer.warnings,
        metrics=answer.metrics,
        hints=tuple(h.line for h in answer.hints),
        not_ready=answer.not_ready,
        component_differences=tuple(c.line(answer.component) for c in answer.components if c.differs),
        components_not_recorded=tuple(c.line(answer.component) for c in answer.components if not c.recorded),
        starts=verdict_line(answer),
    )


def unrecorded_view(problem: str) -> GatesView:
    """The view of a component whose gate set is not recorded for the release: no table, the
    reason as the error (what ``kcompat gates --component`` says)."""
    empty = pa.table({c: [] for c in VIEW_COLUMNS}, schema=TABLE_SCHEMA)
    return GatesView(table=empty, emulated="", errors=(problem,), flag_errors=(), warnings=(), metrics=(
        ("enabled", 0), ("changed", 0), ("PreAlpha", 0), ("locked", 0), ("gates", 0)))
