"""Table exports (kcompat.documents.exports): a header line naming the view (Markdown, JSON), then the rows, in
CSV, Markdown and JSON; nothing in a cell or a filter value can break either."""

import csv
import io
import json

import pytest

from kcompat.core.errors import KcompatError
from kcompat.documents.exports import (
    HEADER_VALUE_LIMIT,
    NO_SELECTION,
    TABLE_FORMATS,
    header_line,
    table_text,
)

ROWS = [{"gate": "JobManagedBy", "enabled": True, "since": 1.3, "note": None}, {"gate": "KMSv1", "enabled": False, "since": float("nan"), "note": "x"}]
COLUMNS = ["gate", "enabled", "since", "note"]


def test_the_header_names_page_selection_view_rows_and_source():
    line = header_line("Gates", {"binary": "1.36", "emulated": "1.33"}, {"gates_text": "Job"}, "bundled data", 2)
    assert line == "kcompat Gates · selection: binary 1.36; emulated 1.33 · view: gates_text=Job · 2 rows · data: bundled data"
    assert header_line("About the data", None, {}, "bundled data", 1) == (
        f"kcompat About the data · selection: {NO_SELECTION} · view: no filter · 1 row · data: bundled data"
    )


def test_a_long_value_is_cut_in_the_header_and_kept_whole_in_json():
    gates = ",".join(f"Gate{i}=true" for i in range(200))
    line = header_line("Gates", {"feature gates": gates}, {}, "bundled data", 0)
    assert gates not in line and f"({len(gates):,} characters)" in line and len(line) < HEADER_VALUE_LIMIT + 200
    doc = json.loads(table_text("json", [], COLUMNS, line, {"feature gates": gates}))
    assert doc["selection"]["feature gates"] == gates


def test_csv_is_the_table_alone():
    """Issue 28: a "# kcompat ..." comment line before the table became a spreadsheet's first row;
    the CSV is the table alone (the Markdown and JSON files carry the line)."""
    text = table_text("csv", ROWS, COLUMNS, "kcompat Gates · 2 rows")
    assert text.splitlines()[0] == "gate,enabled,since,note" and "kcompat Gates" not in text
    assert list(csv.DictReader(io.StringIO(text))) == [
        {"gate": "JobManagedBy", "enabled": "true", "since": "1.3", "note": ""},
        {"gate": "KMSv1", "enabled": "false", "since": "", "note": "x"},  # NaN: a missing number, an empty cell
    ]


def test_markdown_has_a_text_line_a_blank_line_then_the_table():
    lines = table_text("markdown", ROWS, COLUMNS, "kcompat Gates · view: gates_text=a_b").splitlines()
    assert lines[0] == "kcompat Gates · view: gates\\_text=a\\_b" and lines[1] == ""
    assert lines[2:] == ["| gate | enabled | since | note |", "|---|---|---|---|", "| JobManagedBy | true | 1.3 |  |", "| KMSv1 | false |  | x |"]


def test_json_starts_with_the_header_and_keeps_json_values():
    doc = json.loads(table_text("json", ROWS, COLUMNS, "kcompat Gates", {"binary": "1.36"}, {"gates_text": "Job"}, "bundled data"))
    assert list(doc) == ["header", "selection", "view", "source", "columns", "rows"]
    assert doc["rows"] == [
        {"gate": "JobManagedBy", "enabled": True, "since": 1.3, "note": None},
        {"gate": "KMSv1", "enabled": False, "since": None, "note": "x"},
    ]


def test_an_unknown_format_is_named():
    with pytest.raises(KcompatError, match="unknown export format 'xlsx'"):
        table_text("xlsx", ROWS, COLUMNS, "h")
    assert set(TABLE_FORMATS) == {"csv", "markdown", "json"}


@pytest.mark.parametrize("fmt", ["csv", "markdown", "json"])
def test_a_hostile_cell_or_filter_cannot_break_the_header_or_the_table(fmt):
    header = header_line("Gates", {"binary": "1.36"}, {"gates_text": "x\n| a | b |\n=cmd|'"}, "bundled data", 1)
    rows = [{"a": "=1+1", "b": "x\n| y |"}]
    text = table_text(fmt, rows, ["a", "b"], header)
    if fmt == "json":
        doc = json.loads(text)
        assert doc["rows"] == rows and "\n" not in doc["header"]
        return
    lines = text.splitlines()
    assert len(lines) == (2 if fmt == "csv" else 5)  # the header is one line, the cell one row
    if fmt == "csv":
        assert lines[0] == "a,b" and lines[1].startswith("'=1+1,")
    else:
        assert lines[1] == "" and lines[2] == "| a | b |" and lines[4].count(" | ") == 1
