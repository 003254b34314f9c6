"""Exports are inert: spreadsheet formulas and Markdown in data stay text."""

import csv
import io

from kcompat.documents.formats import rows_to_csv, rows_to_markdown


def test_csv_cells_that_would_be_formulas_are_quoted():
    rows = [{"name": "+SUM(A1)", "d": "=HYPERLINK(\"http://x\")"}, {"name": "@cmd", "d": "-1"}, {"name": "ok", "d": "\tx"}]
    parsed = list(csv.reader(io.StringIO(rows_to_csv(rows, ["name", "d"]))))
    assert parsed[1] == ["'+SUM(A1)", "'=HYPERLINK(\"http://x\")"]
    assert parsed[2] == ["'@cmd", "'-1"]
    assert parsed[3] == ["ok", "'\tx"]


def test_markdown_cells_escape_markup_and_pipes():
    text = rows_to_markdown([{"name": "<b>x</b> | [l](javascript:1) *e*"}], ["name"])
    assert "\\<b\\>x\\</b\\> \\| \\[l\\](javascript:1) \\*e\\*" in text
