"""The ``kcompat timeline`` document, written from :class:`~kcompat.answers.timeline.TimelineAnswer`
(the Timeline page's chart draws the same rows, and its "Table as text" is :func:`timeline_rows`)::

    {"binary", "emulated", "minCompatibility", "sort", "filter": {"stages", "search"},
     "shown", "gates",
     "rows": [{"gate", "stage", "history": [{"stage", "default", "locked", "since", "until"}],
               "historyStart": {"placeholder", "start", "why"} | null}]}

``stage`` is the stage at the emulated version; ``history`` the stretches with one stage, default
and lock, oldest first, from where the gate's own history starts: when the data dates its first
spec to a placeholder (0.0 or 1.0, older than the gate), ``historyStart`` says so and where and why
its history starts, and no stretch starts before that (the text formats begin the history with
"before 1.36: not recorded"); ``shown`` of ``gates`` rows
pass the filters; after a search each row also has ``matched``: where the query found the gate
(name, KEP, abbreviation or description). The table, CSV and Markdown formats print one row per
gate: ``gate``, ``stage`` (PreAlpha said as "not yet introduced"), ``history`` as one line, and
``matched`` after a search.
"""

from __future__ import annotations

from kcompat.answers.timeline import TimelineAnswer
from kcompat.documents import formats
from kcompat.documents.history import history_items, history_text, start_item

#: The columns of the table, CSV and Markdown formats (and of the page's table as text) ...
ROW_COLUMNS = ("gate", "stage", "history")
#: ... and the one a search adds.
MATCH_COLUMN = "matched"


def row_columns(answer: TimelineAnswer) -> tuple[str, ...]:
    """The columns of :func:`timeline_rows` for ``answer``."""
    return (*ROW_COLUMNS, MATCH_COLUMN) if answer.search else ROW_COLUMNS


def match_counts(answer: TimelineAnswer) -> str:
    """Where the search found the gates shown: "2 by name, 2 by description"."""
    from kcompat.core.search import MATCH_KINDS

    shown = [r.matched for r in answer.rows if r.matched]
    return ", ".join(f"{shown.count(kind)} by {kind}" for kind in MATCH_KINDS if kind in shown) or "none found"


def timeline_document(answer: TimelineAnswer) -> dict[str, object]:
    """The JSON contract of ``kcompat timeline``."""
    return {
        "binary": answer.binary,
        "emulated": answer.emulated,
        "minCompatibility": answer.min_compat,
        "sort": answer.sort,
        "filter": {"stages": list(answer.stages), "search": answer.search},
        "shown": len(answer.rows),
        "gates": answer.total,
        "rows": [
            {
                "gate": r.gate,
                "stage": r.stage,
                "history": history_items(r.segments, r.start),
                "historyStart": start_item(r.start),
                **({MATCH_COLUMN: r.matched or ""} if answer.search else {}),
            }
            for r in answer.rows
        ],
    }


def timeline_rows(answer: TimelineAnswer) -> list[dict[str, str]]:
    """One row per gate, in the answer's order: its stage at the emulated version in plain words and
    its stretches as text."""
    return [
        {"gate": r.gate, "stage": formats.plain(r.stage), "history": history_text(r.segments, r.start), **({MATCH_COLUMN: r.matched or ""} if answer.search else {})}
        for r in answer.rows
    ]


def timeline_text(answer: TimelineAnswer, fmt: str) -> str:
    """What ``kcompat timeline --format <fmt>`` prints on stdout."""
    if fmt == "json":
        return formats.to_json(timeline_document(answer))
    return formats.render_rows(fmt, timeline_rows(answer), row_columns(answer))
